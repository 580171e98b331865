"""Which way play passes, read from the rules so that a setting changed is play
changed: the turn passes as `next_turn` says (11th Turn Order, by interpretation;
inherited since) and chain responses as `respond` says (12th to 17th Chains),
clockwise to the left, or counterclockwise to the right."""

from __future__ import annotations

import pytest
from edited_rules import with_rule
from kotc import Game, RandomAgent
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.runtime.events import Linked, TurnBegan


def _counterclockwise(rs, section: str, key: str):
    return with_rule(rs, section, key, direction="counterclockwise")


def _played(rs, seed: int = 2, moves: int = 1500
            ) -> tuple[Game, list[tuple[int, int]]]:
    """A three-player game, played on by random agents for some moves (or to its
    end), with each chain decision noted as (the player asked, the last actor)."""
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=seed, players=3)
    agents = [RandomAgent(seed + i) for i in range(3)]
    asked: list[tuple[int, int]] = []
    for _ in range(moves):
        if g.current_player is None:
            break
        d = g.decision
        if d is not None and d.resume == "chain" and g.stack[-1].count == 0:
            asked.append((d.player, g.chain.last_actor))
        g.apply(agents[g.current_player].act(g))
    return g, asked


@pytest.mark.parametrize("edition", ["12th", "17th"])
def test_the_turn_passes_the_way_next_turn_says(edition):
    rs = load_edition(edition)
    assert rs.setting("turn", "next_turn").direction == "clockwise"
    for rules, way in ((rs, 1), (_counterclockwise(rs, "turn", "setting next_turn"), -1)):
        g, _ = _played(rules)
        turns = [e.player for e in g.events if isinstance(e, TurnBegan)]
        assert len(turns) > 3, rules.name
        assert all(b == (a + way) % 3
                   for a, b in zip(turns, turns[1:], strict=False)), turns


def test_chain_responses_pass_the_way_respond_says():
    rs = load_edition("17th")
    assert rs.setting("chain", "respond").direction == "clockwise"
    for rules, way in ((rs, 1), (_counterclockwise(rs, "chain", "setting respond"), -1)):
        g, asked = _played(rules, moves=4000)
        assert any(isinstance(e, Linked) for e in g.events)
        assert asked, rules.name
        assert all(p == (actor + way) % 3 for p, actor in asked), asked
