"""Card and deck legality under each edition, from the editions' data.

Each test names the rulebook rule it exercises; the fixture files beside it are
named for what they test.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from kotc.dsl import ast, load_edition, load_path
from kotc.dsl.cards import load_cards, load_deck
from kotc.dsl.errors import RulesetError
from kotc.dsl.legality import CardVerdict, judge_card, judge_deck

FIXTURES = Path(__file__).parent / "fixtures"


def cards(name: str) -> dict:
    return {c.name: c for c in load_cards(FIXTURES / name)}


def verdict(file: str, card: str, edition: str) -> CardVerdict:
    return judge_card(cards(file)[card], load_edition(edition))


def deck_verdict(file: str, edition: str | None = None):
    deck, designs = load_deck(FIXTURES / file)
    return judge_deck(deck, designs, load_edition(edition or deck.edition))


def sections(v) -> set[str]:
    return {f.cite.section for f in v.findings if f.cite}


# --- Copies of one name ---------------------------------------------------------------


def test_five_copies_of_a_name_are_illegal_in_constructed_wow_core():
    # 100.3: four copies of any card with the same name
    v = deck_verdict("wow_five_copies.kdeck")
    assert v.status == "illegal"
    [finding] = v.findings
    assert finding.message == ('the deck holds 5 copies of "Ashen Raider"; the wow-core '
                               'edition allows at most 4 of one name')
    assert finding.cite.section == "100.3"


def test_a_pile_counts_with_the_deck_toward_the_copies():
    deck, designs = load_deck(FIXTURES / "wow_five_copies.kdeck")
    hero = deck.piles[0].entries[0].name
    rs = load_edition("wow-core")
    assert judge_deck(deck, designs, rs).findings  # five Ashen Raiders
    four = replace(deck, entries=tuple(
        replace(e, count=4) if e.name == "Ashen Raider" else e for e in deck.entries)
        + (replace(deck.entries[0], name=hero, count=4),))
    v = judge_deck(four, designs, rs)
    # 64 cards (60 at least: legal), four of the hero with the one in its pile
    assert [f.message for f in v.findings] == [
        f'the deck holds 5 copies of "{hero}"; the wow-core edition allows at most 4 '
        f'of one name']


# --- Ultra Points -------------------------------------------------------------------


def test_a_deck_of_11_ultra_points_is_illegal_in_the_17th():
    v = deck_verdict("ultra_points_11.kdeck")
    assert v.status == "illegal" and not v.legal
    [finding] = v.findings
    assert "11 Ultra Points" in finding.message and "at most 10" in finding.message
    assert finding.cite.section == "Setup and Deck Building"


def test_a_deck_of_10_ultra_points_is_legal_in_the_17th():
    assert deck_verdict("ultra_points_10.kdeck").status == "legal"


def test_a_card_worth_11_ultra_points_is_noted_but_judged_only_in_a_deck():
    # the 17th caps a deck's Ultra Points (Setup and Deck Building), not a card's
    v = verdict("ultra_points.kcard", "Ultra Titan", "17th")
    assert v.status == "legal" and v.read
    [note] = v.notes
    assert "worth 11 Ultra Points, more than a deck may hold (10)" in note.message
    assert note.cite.section == "Setup and Deck Building"


@pytest.mark.parametrize("edition", ["12th", "13th"])
def test_a_printed_stat_the_edition_lacks_is_ignored_not_illegal(edition):
    # nothing in the 12th or 13th rulebook forbids printing Ultra Points
    v = verdict("ultra_points_13th.kcard", "Early Ultra", edition)
    assert "invalid" not in {f.status for f in v.findings}
    assert any("ultra_points 1 is not read" in n.message for n in v.notes)
    assert v.status == "legal"


# --- the Edition Indicator and clean slates -----------------------------------------


@pytest.mark.parametrize("edition", ["13th", "17th"])
def test_a_card_without_edition_indicator_is_invalid_from_the_13th(edition):
    v = verdict("no_edition_indicator.kcard", "Nameless Draw", edition)
    assert v.status == "invalid"
    assert [f.message for f in v.findings] == ["the card has no Edition Indicator"]
    assert v.findings[0].cite.section == "Refurbished and Pruned Cards"


def test_a_card_without_edition_indicator_is_banned_by_the_12ths_clean_slate():
    v = verdict("no_edition_indicator.kcard", "Nameless Draw", "12th")
    assert v.status == "banned"
    assert sections(v) == {"Clean Slate Edition"}


def test_the_11th_needs_no_edition_indicator_where_no_revised_cost_applies():
    cards_ = load_cards(FIXTURES / "plain_11th.kcard")
    bare = [c for c in cards_ if c.name == "Footman"][0]
    from dataclasses import replace

    assert judge_card(replace(bare, design_edition=None), load_edition("11th")).status \
        == "legal"


@pytest.mark.parametrize("edition", ["13th", "17th"])
@pytest.mark.parametrize("card", ["Old Guard", "Old Insight"])
def test_a_12th_edition_design_is_pruned_under_the_13th_and_17th(edition, card):
    v = verdict("design_12th.kcard", card, edition)
    assert v.status == "pruned"
    [finding] = v.findings
    assert (finding.cite.section, finding.cite.edition) == ("Clean Slate Edition", "13th")
    assert "designed for edition 12" in finding.message


def test_a_12th_edition_design_is_legal_under_the_12th():
    for card in ("Old Guard", "Old Insight"):
        assert verdict("design_12th.kcard", card, "12th").status == "legal"


# --- the 17th's refurbished texts and revised levels ----------------------------------


def test_x_of_your_resources_reads_as_x_cards_in_your_granary_in_the_17th():
    v = verdict("resources_13th.kcard", "Granary Raid", "17th")
    assert v.status == "refurbished" and v.playable
    assert v.refurbished_text == ("Target up to 2 cards in your granary; "
                                  "bounce the targets.")
    [finding] = v.findings
    assert finding.cite.section == "Refurbished Card Texts"
    [ability] = v.readings
    assert ability.subs[0].target.phrase.name == "resources"
    assert ability.subs[0].target.numbers == {"x": 2}


def test_x_of_your_resources_is_the_13ths_own_text():
    v = verdict("resources_13th.kcard", "Granary Raid", "13th")
    assert v.status == "legal" and v.refurbished_text is None


def test_refurbished_texts_chain_in_the_order_the_17th_lists_them():
    v = verdict("chained_refurbish.kcard", "Phoenix Seed", "17th")
    assert v.status == "refurbished"
    assert v.refurbished_text.startswith(
        "When this card in your battlefield is destroyed (ghost-play):")
    olds = {f.message.split('"')[1] for f in v.findings}
    assert olds == {"in-play card",
                    "When this on-field minion is destroyed (ghost-play):"}
    assert v.readings[0].condition.phrase.modifiers == ("ghost_play",)


@pytest.mark.parametrize("card, text", [
    ("Silo Fifteen", "silo the targets"),
    ("Sheathe Fourteen", "sheathe the targets"),
    ("Peek Thirteen", "See enemy's hand and target up to x cards therein"),
])
def test_a_16th_revised_level_text_is_pruned_before_the_16th(card, text):
    v = verdict("revised_levels.kcard", card, "17th")
    assert v.status == "pruned"
    [finding] = v.findings
    assert finding.cite.section == "Revised Levels"
    assert f'"{text}" had its level revised in edition 16' in finding.message


def test_a_16th_revised_level_text_is_legal_from_the_16th():
    assert verdict("revised_levels.kcard", "Silo Sixteen", "17th").status == "legal"


# --- the 11th's revision lists --------------------------------------------------------


def test_the_11ths_banned_pay_x_hitpoints():
    v = verdict("banned_11th.kcard", "Blood Scholar", "11th")
    assert v.status == "banned"
    banned = [f for f in v.findings if f.status == "banned"]
    assert [f.message for f in banned] == ['its text contains "Pay [x] hitpoints."']
    assert banned[0].cite.section == "Redacted Ability Text (Banned Cards)"


def test_the_11th_bans_targeting_your_own_graveyard():
    v = verdict("banned_11th.kcard", "Grave Digger", "11th")
    assert v.status == "banned"
    assert sections(v) == {"Redacted Ability Text (Banned Cards)"}


def test_the_11th_bans_the_re_roll_text_of_the_current_chain():
    # the revised text ("for the rest of this turn") is read; this one is redacted
    v = verdict("revised_texts_11th.kcard", "Chain Gambler", "11th")
    assert v.status == "banned"
    assert sections(v) == {"Redacted Ability Text (Banned Cards)"}


def test_an_11th_card_with_no_listed_text_is_legal():
    assert verdict("banned_11th.kcard", "Honest Scholar", "11th").status == "legal"


@pytest.mark.parametrize("card, status", [
    ("Draw Unmarked", "banned"), ("Draw Eighth", "banned"), ("Draw Ninth", "legal"),
])
def test_the_11ths_revised_cost_needs_an_edition_indicator_of_the_revision(card, status):
    v = verdict("revised_costs_11th.kcard", card, "11th")
    assert v.status == status
    if status == "banned":
        assert sections(v) == {"Revised Costs"}
        assert "at least 9" in v.findings[0].message


@pytest.mark.parametrize("card, new", [
    ("Old Supply", "Target up to 2 of your resources."),
    ("Old Drill", "Exhaust 1 of your unexhausted creatures in play."),
    ("Old Gambler",
     "You may re-roll up to 1 dice for the rest of this turn up to 2 times each."),
])
def test_the_11ths_revised_texts_are_read_with_the_new_text(card, new):
    # the 11th's own word: "Revised Ability Text", not the 17th's "refurbished"
    v = verdict("revised_texts_11th.kcard", card, "11th")
    assert v.status == "revised" and v.playable
    assert new in v.refurbished_text
    assert sections(v) == {"Revised Ability Text"}


# --- the 12th's commented-out lists -----------------------------------------------------


def test_the_12th_inherits_none_of_the_11ths_revision_lists():
    rs = load_edition("12th")
    assert rs.legality(ast.Ban) == rs.legality(ast.RevisedCost) == []
    assert rs.legality(ast.Refurbish) == []
    assert verdict("banned_11th.kcard", "Blood Scholar", "11th").status == "banned"


def test_the_12ths_commented_out_ban_is_not_applied():
    card = cards("commented_ban_12th.kcard")["Counter Keeper"]
    in_force = load_path(FIXTURES / "ban_in_force.kotc")
    assert "banned" in {f.status for f in judge_card(card, in_force).findings}
    v = judge_card(card, load_edition("12th"))
    assert "banned" not in {f.status for f in v.findings}


# --- deck size and reserves ----------------------------------------------------------


def test_an_11th_deck_of_41_cards_is_illegal():
    v = deck_verdict("deck_11th_41.kdeck")
    assert v.status == "illegal"
    [finding] = v.findings
    assert "41 cards" in finding.message
    assert finding.cite.section == "Setup and Deck Building"


def test_an_11th_deck_of_40_cards_is_legal():
    assert deck_verdict("deck_11th_40.kdeck").status == "legal"


def test_12th_reserves_of_6_are_illegal():
    v = deck_verdict("reserves_12th_6.kdeck")
    assert v.status == "illegal"
    [finding] = v.findings
    assert "reserves have 6 cards" in finding.message


def test_12th_reserves_of_5_are_legal():
    assert deck_verdict("reserves_12th_5.kdeck").status == "legal"


def test_a_12th_deck_of_39_cards_is_illegal():
    v = deck_verdict("deck_12th_39.kdeck")
    assert v.status == "illegal" and "39 cards" in v.findings[0].message


def test_the_13th_has_no_reserves():
    v = deck_verdict("reserves_13th.kdeck")
    assert v.status == "illegal"
    [finding] = [f for f in v.findings if "has no reserves" in f.message]
    # cited where the 13th drops the 12th's reserves
    assert (finding.cite.edition, finding.cite.section) == ("13th",
                                                            "Setup and Deck Building")


def test_a_deck_judged_under_a_later_edition_shows_each_cards_verdict():
    v = deck_verdict("reserves_12th_5.kdeck", "13th")
    assert {c.status for c in v.cards} == {"pruned"}
    assert any("has no reserves" in f.message for f in v.findings)


# --- anatomy, and texts the edition cannot read: unread, never a verdict -----------


@pytest.mark.parametrize("card, message", [
    ("Two-Faced Spell", "a spell has a single ability, not 2"),
    ("Old Creature", "the 17th edition has no card type 'creature'"),
    ("Hollow Minion", "a minion of the 17th edition prints its HP; this card prints"),
])
def test_card_shapes_the_17th_cannot_read(card, message):
    v = verdict("anatomy_17th.kcard", card, "17th")
    assert v.status == "legal" and not v.read
    assert any(message in u.message for u in v.unread), [u.message for u in v.unread]


def test_a_stat_the_17th_lacks_is_noted_and_ignored():
    v = verdict("anatomy_17th.kcard", "Offensive Minion", "17th")
    assert v.status == "legal" and v.read
    assert any("offense 3 is not read" in n.message for n in v.notes)


def test_a_level_below_the_12ths_floor_counts_as_the_floor():
    v = verdict("level_zero_12th.kcard", "Free Lunch", "12th")
    assert v.status == "legal"
    [note] = v.notes
    assert "level 0 is below its floor: it counts as 1" in note.message


def test_a_counter_the_edition_does_not_define_is_unread_where_it_is_printed():
    v = verdict("unknown_counter_12th.kcard", "Early Shield", "12th")
    assert v.status == "legal" and v.findings == []
    [unread] = v.unread
    assert "the 12th edition has no Shield Counter" in unread.message
    assert unread.closest.text == "Place [x] [counter] on each target."
    assert (unread.origin.line, unread.origin.col) == (5, 23)


def test_a_keyword_the_edition_does_not_define_is_unread_with_the_closest_phrase():
    v = verdict("unknown_keyword_13th.kcard", "Early Gorgon", "13th")
    assert v.status == "legal" and v.findings == []
    [unread] = v.unread
    # the sentence's target selection reads; its effect, a clause, does not, and is
    # located where it is printed
    assert unread.text == "petrify it."
    assert unread.message.startswith('"petrify it.": no effect phrase of the '
                                     '13th edition reads it; closest: ')
    # "it" stands for "the targets" (It), so the closest phrase acts on the targets
    assert unread.closest.text.endswith(" the targets.")
    assert (unread.origin.line, unread.origin.col) == (5, 40)
    assert verdict("unknown_keyword_13th.kcard", "Early Gorgon", "17th").status \
        == "refurbished"


def test_a_banned_and_unread_card_is_banned_first():
    v = verdict("banned_11th.kcard", "Blood Scholar", "11th")
    assert v.status == "banned" and not v.playable
    assert [u.text for u in v.unread] == ["Pay 3 hitpoints."]


def test_a_copies_cap_below_one_is_refused_where_it_is_written(tmp_path):
    text = (Path(__file__).resolve().parents[2] / "editions" / "wow-core.kotc").read_text(
        encoding="utf-8")
    assert "copies at_most 4 per name" in text
    path = tmp_path / "wow-core.kotc"
    none = text.replace("copies at_most 4 per name", "copies at_most 0 per name")
    path.write_text(none, encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load_path(path, use_cache=False)
    (problem,) = err.value.diagnostics
    line = text[:text.index("copies at_most 4")].count("\n") + 1
    assert (problem.origin.line, problem.origin.col) == (line, 3)
    assert problem.message == ("copies at_most 0 per name: a deck could hold no card at "
                               "all; the least is 1")
