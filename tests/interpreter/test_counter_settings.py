"""Counter settings the engine reads, so that a rule removed is a rule gone: where
the counters section says `popped_by placer` (every shipped edition: 11th Ability
Clarifications/Rulings, 12th to 17th Counters), only the player who placed a counter
pops it; without it, a reactive counter is offered to the controller of its host,
and a player pops any counter of the kind."""

from __future__ import annotations

from pathlib import Path

import pytest
from edited_rules import without_rule
from kotc import Game
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.engine.primitives import place_counters

RULINGS = Path(__file__).parent.parent / "scenarios" / "counters" / "reactive.kscn"
OFFERED = ("A Dice Counter is offered to the player who placed it, not its host's "
           "controller")


def _without_placer(rs):
    return without_rule(rs, "counters", "setting popped_by_placer")


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_every_shipped_edition_says_the_placer_pops(edition):
    rs = load_edition(edition)
    assert rs.setting("counters", "popped_by_placer") is not None
    assert _without_placer(rs).setting("counters", "popped_by_placer") is None


@pytest.mark.parametrize("edition", ["12th", "17th"])
def test_a_pop_takes_another_players_counter_only_without_the_setting(edition):
    rs = load_edition(edition)
    kind = next(k for k, c in rs.counters.items() if c.counter_kind == "proactive")
    for rules, left in ((rs, 1), (_without_placer(rs), 0)):
        decks, _ = default_decks(rules)
        g = Game.new(rules, decks, seed=1)
        card = next(c.id for c in g.cards if c.type == "minion")
        zone = g.engine.counter_zone
        g.move(card, 0, zone, (), None)
        place_counters(g, card, kind, 1, 1, None)
        g.pop_counter(card, kind, 0, None)
        assert len(g.cards[card].counters) == left, rules.name


def test_a_reactive_counter_goes_to_its_hosts_controller_without_the_setting(
        tmp_path, kotc):
    house = tmp_path / "house.kotc"
    house.write_text('edition "house" number 18 extends "17th"\n'
                     '  source "Counters their hosts\' controllers pop"\n\n'
                     'counters {\n'
                     '  remove setting popped_by_placer  @ "Counters"\n'
                     '}\n', encoding="utf-8")
    code, out, _ = kotc("test", "--edition", str(house), str(RULINGS), "-q", "--no-log")
    changed = [line for line in out.splitlines() if line.startswith("CHANGED")]
    assert any(OFFERED in line for line in changed), out
    code, out, _ = kotc("test", "--edition", "17th", str(RULINGS), "-q", "--no-log")
    assert code == 0, out
