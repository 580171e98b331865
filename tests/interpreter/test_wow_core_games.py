"""Seeded random games of the second game's core ruleset (`wow-core`), traced.

Each ends in a win or a draw (never by the turn cap, in these games), and every
transition it takes is an edge of the flow graph that cites a rule of the
ruleset. The issue's 200 games take about 15 seconds; `KOTC_GAMES` sets another
number.
"""

from __future__ import annotations

import os

import pytest
from kotc.dsl import find_edition, load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import Engine, Game, card_pool
from kotc.play.agents import RandomAgent, play

GAMES = int(os.environ.get("KOTC_GAMES", "200"))
RULESET = "wow-core"


@pytest.fixture(scope="module")
def table():
    rs = load_edition(RULESET)
    decks, _ = default_decks(rs)
    return rs, decks, Engine(rs, card_pool(decks))


def test_seeded_games_end_in_a_win_or_a_draw_each_transition_citing_a_rule(table):
    rs, decks, engine = table
    ends = {"win": 0, "draw": 0}
    for seed in range(GAMES):
        g = Game.new(rs, decks, seed=seed, players=2, engine=engine, trace=True)
        play(g, [RandomAgent(seed), RandomAgent(seed + 1)])
        assert g.is_over and g.node == "game_over", seed
        result = g.result
        assert result["condition"] == "last_one", (seed, result)  # not the turn cap
        winner, tied = result["winner"], result["tied"]
        assert (winner is None) == bool(tied), (seed, result)
        ends["draw" if tied else "win"] += 1
        moves = g.trace.transitions()
        assert moves, seed
        for t in moves:
            assert t.edge is not None, (seed, t)  # an edge of the graph
            assert t.cite and t.cite.startswith(f"{RULESET} §"), (seed, t)
        assert [e for e in g.events if not e.cite] == [], seed
    assert ends["win"] > 0
    print(f"{GAMES} games: {ends['win']} won, {ends['draw']} drawn")


def test_the_turn_cap_is_the_rulesets_own_and_cited(table):
    rs, decks, engine = table
    g = Game.new(rs, decks, seed=1, players=2, engine=engine)
    assert g.max_turns == 200  # `limit turns 200`, below the caller's default
    short = Game.new(rs, decks, seed=1, players=2, engine=engine, max_turns=3)
    play(short, [RandomAgent(1), RandomAgent(2)])
    assert short.result["condition"] == "turn limit" and short.turn == 3
    (over,) = [e for e in short.events if e.kind == "game_over"]
    assert over.cite.startswith(f"{RULESET} §801.2")


def test_the_decision_cap_is_the_rulesets_own_and_cited(table, tmp_path):
    # the ruleset with a cap of 40 decisions in place of its 50,000: a game is still
    # under way at 40 (none of the seeded games above ends before 100)
    text = find_edition(RULESET).read_text(encoding="utf-8")
    assert "limit decisions 50000" in text
    capped = tmp_path / f"{RULESET}.kotc"
    capped.write_text(text.replace("limit decisions 50000", "limit decisions 40"),
                      encoding="utf-8")
    rs, decks = load_edition(capped), table[1]  # the shipped ruleset's decks
    engine = Engine(rs, card_pool(decks))
    assert engine.max_decisions == 40
    g = Game.new(rs, decks, seed=1, players=2, engine=engine, trace=True)
    play(g, [RandomAgent(1), RandomAgent(2)])
    assert g.result["condition"] == "decision limit" and g.applied == 40
    assert g.result["tied"] == [0, 1]  # both players still in: a draw (801.2)
    (over,) = [e for e in g.events if e.kind == "game_over"]
    assert over.cite.startswith(f"{RULESET} §801.2 (interpretation: a game still going")
    assert all(t.edge is not None for t in g.trace.transitions())
