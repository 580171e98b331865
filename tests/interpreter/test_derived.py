"""The derived fields a game keeps (see `kotc.engine.primitives`) are in step with
the state they are derived from after every step of random games, under every
edition: each is recomputed from scratch and compared (the invariants
`counter_count`, `last_controller` and `derived`, which `kotc fuzz` and the
rulings check after every step too)."""

from __future__ import annotations

import random

import pytest
from kotc.checking.invariants import Monitor, derived_out_of_step
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import Game

DERIVED = {"counter_count", "last_controller", "derived"}


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
@pytest.mark.parametrize("players", [2, 3])
def test_derived_fields_stay_in_step(edition, players):
    rs = load_edition(edition)
    decks = default_decks(rs)[0]
    for seed in range(3):
        g = Game.new(rs, decks, seed=seed, players=players)
        monitor = Monitor(g)
        rng = random.Random(seed)
        assert [v for v in monitor.check() if v.invariant in DERIVED] == []
        while not g.is_over:
            broken = monitor.apply(rng.choice(g.legal_actions()))
            assert [str(v) for v in broken if v.invariant in DERIVED] == [], seed


def test_a_field_out_of_step_is_found():
    rs = load_edition("17th")
    g = Game.new(rs, default_decks(rs)[0], seed=1)
    assert derived_out_of_step(g) == []
    g.marked.add(0)
    g.away.add(1)
    g.in_game = g.in_game[:1]
    g.dirty = False  # yet one player is left in the game: that ends it
    found = derived_out_of_step(g)
    assert [" ".join(f.split()[1:3]) for f in found] == [
        "cards marked", "cards away", "seats in", "is marked"]
    g.counters_in_play["sword"] = 1
    assert "counter_count" in {v.invariant for v in Monitor(g).check()}
