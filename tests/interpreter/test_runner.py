"""The runner: the position is a stack of activations at nodes of the flow graph,
stepped by the nodes' kinds, saved and restored with the game."""

from __future__ import annotations

import json
import random

import pytest
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import STATE_FORMAT, Game
from kotc.engine.runner import Activation, Runner, RunNode
from kotc.flowgraph.build import compile_ruleset
from kotc.flowgraph.flow import NODE_KINDS

EDITIONS = ["11th", "12th", "13th", "17th"]


def _names_of(rs) -> set[str]:
    """The names of an edition's phases, battle steps and their parts, and the
    stages of its chain (`chain:respond` -> `respond`)."""
    names = {p.name for p in rs.phases} | {s.name for s in rs.battle_steps}
    names |= {op for s in rs.battle_steps for op in s.ops}
    fg = compile_ruleset(rs)
    names |= {n.partition(":")[2] for n in fg.nodes("chain")}
    return {n for n in names if n}


# node data the design note names, whose words are generic: a window's
# `after_action` and the answer that `close`s it
_NODE_DATA = {"after_action", "close"}


def test_the_runner_is_named_by_node_kinds_not_by_the_games_flow():
    """No method, field or constant of the runner's records is named after (or
    has a word naming) a phase, a battle step or part, or a chain stage of any
    edition."""
    names = set().union(*(_names_of(load_edition(e)) for e in EDITIONS))
    for cls in (Runner, RunNode, Activation):
        own = {a.strip("_") for a in vars(cls)} | set(getattr(cls, "__slots__", ()))
        own -= _NODE_DATA
        words = {w for a in own for w in a.split("_")}
        assert not (own | words) & names, (cls.__name__, sorted((own | words) & names))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_activation_stands_at_a_node_its_kind_steps(edition):
    """At each decision of seeded games, every activation stands at a node of the
    flow graph that the runner visits (not the check or the end), and a window's
    decision is asked where play stands, at the window on top."""
    rs = load_edition(edition)
    fg = compile_ruleset(rs)
    for seed in (1, 2):
        g = Game.new(rs, default_decks(rs)[0], seed=seed, players=2)
        rng = random.Random(seed)
        while not g.is_over:
            for act in g.stack:
                assert act.node.name in fg, act
                assert act.node.kind in NODE_KINDS and act.node.kind not in (
                    "check", "end"), act
            top = g.stack[-1].node
            if g.decision.resume != "vm":
                assert top.kind == "window" and g.node == top.name, (g.node, top)
                assert top.resume == g.decision.resume
            g.apply(rng.choice(g.legal_actions()))


def test_a_saved_position_names_nodes_of_the_flow_graph():
    """A saved game whose stack is mangled, or stands at a node the flow graph
    has not, is refused, saying so."""
    rs = load_edition("11th")
    g = Game.new(rs, default_decks(rs)[0], seed=1, players=2)
    data = json.loads(g.to_json())
    assert data["stack"] and data["stack"][-1][0] == g.node
    restored = Game.from_json(json.dumps(data), g.engine)
    assert [a.to_json() for a in restored.stack] == data["stack"]
    bad = [["phase:nowhere", 0, 0, 0, None]]
    with pytest.raises(ValueError, match="'phase:nowhere', which the flow graph has"):
        Game.from_json(json.dumps({**data, "stack": bad}), g.engine)
    for mangled in ({"a": 1}, [["turn:start", 0, 0]], [["turn:start", 9, 0, 0, None]]):
        with pytest.raises(ValueError, match="not a whole game state"):
            Game.from_json(json.dumps({**data, "stack": mangled}), g.engine)


def test_a_state_of_the_task_lists_format_is_refused_with_the_format():
    rs = load_edition("11th")
    g = Game.new(rs, default_decks(rs)[0], seed=1, players=2)
    data = json.loads(g.to_json())
    old = {k: v for k, v in data.items() if k != "stack"}
    old.update(format=6, tasks=[["phase", 0, "window"]])
    with pytest.raises(ValueError, match=f"format 6; it reads format {STATE_FORMAT}"):
        Game.from_json(json.dumps(old), g.engine)
