"""A card that leaves its zone during a battle leaves its team where the battle
section says so (`withdraw_on_leave`: the 17th's Battles; the 11th to 13th by
interpretation), and only there: the engine reads the setting."""

from __future__ import annotations

import dataclasses

import pytest
from kotc import Game, RandomAgent
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks


def _without_withdrawing(rs):
    sections = dict(rs.sections)
    sections["battle"] = {k: r for k, r in rs.sections["battle"].items()
                          if k != "setting withdraw_on_leave"}
    return dataclasses.replace(rs, sections=sections)


def _in_battle(rs, seed: int = 3) -> Game:
    """A seeded game played on until a battle has an attacking team."""
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=seed)
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    for _ in range(3000):
        b = g.battle
        if b is not None and b.attack_team:
            return g
        g.apply(agents[g.current_player].act(g))
    pytest.fail("no battle with an attacking team")


@pytest.mark.parametrize("edition", ["11th", "17th"])
def test_a_card_leaving_play_leaves_its_team_where_the_rules_say(edition):
    rs = load_edition(edition)
    assert rs.setting("battle", "withdraw_on_leave") is not None
    for rules, withdrawn in ((rs, True), (_without_withdrawing(rs), False)):
        g = _in_battle(rules)
        card = g.battle.attack_team[0]
        hand = next(z for z in rules.zones if z == "hand")
        g.move(card, g.cards[card].controller, hand, (), None)
        assert (card not in g.battle.attack_team) is withdrawn, rules.name


def test_the_choice_is_labelled_where_the_rulebook_is_silent():
    cite = load_edition("11th").setting("battle", "withdraw_on_leave").cite
    assert cite.interpretation and cite.section == "Battles"
    cite = load_edition("17th").setting("battle", "withdraw_on_leave").cite
    assert cite.interpretation is None and cite.edition == "17th"
