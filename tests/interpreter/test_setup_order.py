"""The order players do setup steps in, read from the rules so that a setting
changed is play changed: every player does each step, in turn from the first
player (`steps each_player from first_player`, 11th Setup and Deck Building by
interpretation, inherited since), or from the first seat (`first_seat`)."""

from __future__ import annotations

import pytest
from edited_rules import with_rule
from kotc import Game
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.runtime.events import Moved


def _from_first_seat(rs):
    return with_rule(rs, "setup", "setting step_order", start="first_seat")


def _first_to_draw(rs) -> tuple[int, int]:
    """The first player and who first drew a card to hand in a game where the
    first player is the second seat (decided before the opening hands)."""
    decks, _ = default_decks(rs)
    for seed in range(40):
        g = Game.new(rs, decks, seed=seed)
        if g.first_player == 1:
            drawn = next(e.player for e in g.events
                         if isinstance(e, Moved) and e.to == "hand")
            return g.first_player, drawn
    pytest.fail("no seed gave the second seat the first turn")


def test_setup_steps_go_round_from_where_the_setting_says():
    rs = load_edition("17th")
    order = rs.setting("setup", "step_order")
    assert order.start == "first_player" and order.cite.interpretation
    assert _first_to_draw(rs) == (1, 1)
    assert _first_to_draw(_from_first_seat(rs)) == (1, 0)
