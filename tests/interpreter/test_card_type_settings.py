"""Which card type a rule means is the data's, never a type's name in code: a pawn
is of the type the `pawns` setting names (17th Pawns: pawns are minions), and a
generated vanilla deck is made of the type that prints the stats its cost and its
battle dice read."""

from __future__ import annotations

import pytest
from edited_rules import with_rule
from kotc import Game
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks, vanilla_deck
from kotc.engine.primitives import create_pawn


def _pawns_are(rs, card_type: str):
    return with_rule(rs, "cards", "setting pawns", type=card_type)


def test_a_pawn_is_of_the_type_the_pawns_setting_names():
    rs = load_edition("17th")
    assert rs.setting("cards", "pawns").type == "minion"
    for rules, made in ((rs, "minion"), (_pawns_are(rs, "spell"), "spell")):
        decks, _ = default_decks(rules)
        g = Game.new(rules, decks, seed=1)
        pawn = create_pawn(g, 0, rules.setting("cards", "pawns").zone, None,
                           {"sp": 1, "hp": 1, "level": 1}, None)
        assert g.cards[pawn].type == made, rules.name


def test_a_pawns_type_must_be_a_card_type(kotc, tmp_path):
    house = tmp_path / "house.kotc"
    house.write_text('edition "house" number 18 extends "17th"\n'
                     '  source "Pawns of no type"\n\n'
                     'cards {\n'
                     '  override pawns are pawn only_in battlefield  @ "Pawns"\n'
                     '}\n', encoding="utf-8")
    code, out, err = kotc("check", str(house))
    assert code == 2, out + err
    assert f"{house}:5:3:" in out + err and "'pawn'" in out + err


@pytest.mark.parametrize("edition", ["11th", "12th", "17th"])
def test_a_vanilla_deck_is_of_the_type_that_fights(edition):
    rs = load_edition(edition)
    dice = rs.setting("battle", "dice_per").stat
    deck = vanilla_deck(rs, size=4)
    (card_type,) = {d.type for d in deck.cards}
    assert dice in rs.card_types[card_type].stats
