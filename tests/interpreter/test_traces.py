"""Traces: what `kotc play --format json` records of the flow graph, and that
every transition a game takes is an edge of `kotc graph EDITION --format json`."""

from __future__ import annotations

import json
import random

import pytest
from kotc.dsl import edition_files, load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import Game
from kotc.engine.trace import DecisionAt, Transition

EDITIONS = sorted(edition_files())


def _graph(kotc, edition: str) -> tuple[set[str], dict[int, dict]]:
    code, out, err = kotc("graph", edition, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    return {n["id"] for n in data["nodes"]}, {e["id"]: e for e in data["edges"]}


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_node_and_edge_a_game_takes_is_in_the_graph(kotc, edition):
    nodes, edges = _graph(kotc, edition)
    taken: set[int] = set()
    for players in (2, 3):
        for seed in (1, 2, 3):
            code, out, err = kotc("play", edition, "--seed", str(seed), "--players",
                                  str(players), "--format", "json")
            assert code == 0, err
            lines = [json.loads(line) for line in out.splitlines()]
            moves = [ln for ln in lines if ln["kind"] == "transition"]
            decided = [ln["data"] for ln in lines if ln["kind"] == "decide"]
            assert moves and decided
            at = "start"
            for move in moves:
                m = move["data"]
                assert m["edge"] in edges, m
                edge = edges[m["edge"]]
                assert (edge["source"], edge["target"], edge["kind"]) == (
                    m["from"], m["to"], m["by"]), m
                # a move cites the rule its edge cites
                assert move["cite"] == (edge["cite"] or {}).get("text"), move
                assert m["from"] == at, m  # each move starts where the last ended
                at = m["to"]
                taken.add(m["edge"])
            assert at == "game_over" and lines[-1]["kind"] == "game_over"
            assert all(d["node"] in nodes for d in decided)
    # games pass through windows, steps and returns, not one node
    kinds = {edges[e]["kind"] for e in taken}
    # an action taken in place, or one that enters the chain (every action of
    # wow-core adds a link)
    assert {"next", "pass"} <= kinds and kinds & {"action", "call"}, kinds
    assert any(edges[e]["cite"] for e in taken)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_traced_game_plays_as_an_untraced_one(edition):
    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    games = [Game.new(rs, decks, seed=7, players=3, trace=t) for t in (False, True)]
    rng = [random.Random(7), random.Random(7)]
    while not games[0].is_over:
        for g, r in zip(games, rng, strict=True):
            g.apply(r.choice(g.legal_actions()))
    assert games[1].is_over
    assert games[0].events == games[1].events
    assert games[0].trace is None
    trace = games[1].trace
    assert not trace.faults
    decisions = [r for r in trace.records if isinstance(r, DecisionAt)]
    assert len(decisions) == games[1].applied
    assert all(isinstance(r, Transition) for r in trace.records
               if not isinstance(r, DecisionAt))


def test_a_move_the_graph_has_no_edge_for_is_a_fault():
    rs = load_edition("13th")
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=1, trace=True)
    assert not g.trace.faults
    g.trace.move("chain:resolve")  # from a phase's window, no edge leads there
    (fault,) = g.trace.faults
    assert fault.edge is None and fault.target == "chain:resolve"


def test_the_fuzzer_checks_every_transition_is_an_edge():
    from kotc.checking.invariants import BUILTINS, Monitor

    assert BUILTINS["flow_edge"] == "Every transition taken is an edge of the flow graph"
    rs = load_edition("12th")
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=2, trace=True)
    monitor = Monitor(g)
    assert not [v for v in monitor.check() if v.invariant == "flow_edge"]
    g.trace.move("battle:end")
    broken = [v for v in monitor.check() if v.invariant == "flow_edge"]
    assert broken and "no edge of the flow graph" in broken[0].detail
