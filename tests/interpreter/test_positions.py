"""Positions built by hand through the game's public constructor (`position`,
`put`, `start`, `start_battle`, `open_chain`): play goes on from them as from a
game that reached them, and a traced one's trace starts at their node."""

from __future__ import annotations

import random

import pytest
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import Game, card_pool
from kotc.runtime.values import Seat

# where each edition's minions are in play
FIELD = {"11th": "creature_zone", "13th": "battlefield"}


def _position(edition: str) -> Game:
    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    pool = card_pool(decks)
    g = Game.position(rs, pool, seed=4, trace=True)
    # the cards that fight: of a type printing the stat battle dice are counted by
    dice = rs.setting("battle", "dice_per").stat
    minions = [d.name for d in pool if dice in rs.card_types[d.type].stats]
    for seat in (0, 1):
        for name in minions[:3]:
            g.put(name, seat, FIELD[edition])
        for name in minions[3:8]:
            g.put(name, seat, "deck")
    g.turn, g.active = 3, 0
    return g


def _play(g: Game, decisions: int) -> None:
    rng = random.Random(4)
    for _ in range(decisions):
        if g.is_over:
            return
        g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("edition", ["11th", "13th"])
def test_a_position_at_a_phase_window_plays_on_along_the_graph(edition):
    g = _position(edition)
    g.start(phase="action")
    assert g.node == "phase:action/actions" and g.trace.at == g.node
    g.advance()
    _play(g, 60)
    moves = g.trace.transitions()
    assert moves and moves[0].source == "phase:action/actions"
    assert not g.trace.faults


def test_a_position_at_a_phase_beginning_and_a_setup_step():
    g = _position("13th")
    g.start(phase="draw", at_start=True)
    assert g.node == "phase:draw"
    g.advance()
    assert g.trace.transitions()[0].source == "phase:draw"
    assert not g.trace.faults
    g = _position("13th")
    g.start(setup_step="opening_hand")
    assert g.node == "setup:opening_hand"
    with pytest.raises(ValueError, match="no phase 'upkeep'"):
        g.start(phase="upkeep")
    with pytest.raises(ValueError, match="no setup step 'nonesuch'"):
        g.start(setup_step="nonesuch")


@pytest.mark.parametrize("edition", ["11th", "13th"])
def test_a_battle_under_way_goes_on_to_its_end_and_back(edition):
    g = _position(edition)
    g.start(phase="battle")
    attackers = g.players[0].zones[FIELD[edition]][:2]
    step = g.engine.rs.battle_steps[1].name  # the defenders are declared next
    record = g.start_battle(step, attacker=0, victim=Seat(1), attack_team=attackers)
    assert g.battle is record and record.defender == 1 and g.node == f"battle:{step}"
    with pytest.raises(ValueError, match="no battle step"):
        g.start_battle("charge", attacker=0, victim=Seat(1), attack_team=attackers)
    g.advance()
    _play(g, 40)
    nodes = [t.target for t in g.trace.transitions()]
    assert "battle:end" in nodes
    assert nodes[nodes.index("battle:end") + 1] in ("phase:battle/actions",
                                                    "endgame:check")
    assert not g.trace.faults
