"""Reading printed abilities with an edition's phrases, and what the readings use."""

from __future__ import annotations

from pathlib import Path

import pytest
from kotc.dsl import load_edition
from kotc.dsl.cards import load_cards
from kotc.dsl.coverage import card_readings, coverage
from kotc.dsl.reading import read_card

FIXTURES = Path(__file__).parent / "fixtures"
DECKS = Path(__file__).resolve().parents[2] / "decks"


def card(file: str, name: str):
    return {c.name: c for c in load_cards(FIXTURES / file)}[name]


def read(file: str, name: str, edition: str):
    readings, problems = read_card(card(file, name), load_edition(edition))
    assert problems == []
    return readings


def test_a_hex_play_condition_a_cost_and_a_target_of_exactly_n():
    [hex_] = read("abilities_17th.kcard", "Hex Witch", "17th")
    assert hex_.condition.phrase.modifiers == ("hex_play",)
    assert (hex_.cost.phrase.name, hex_.cost.numbers) == ("pay_hp", {"x": 2})
    [sub] = hex_.subs
    assert sub.target.phrase.name == "exactly_in_play"
    # "on it" reads as "on each target", as the rulebook allows for one target.
    assert [(e.phrase.name, e.counter) for e in sub.effects] == [
        ("place_counters", "weakness")]


def test_no_condition_is_the_standard_activation_condition():
    [work] = read("abilities_17th.kcard", "Plain Worker", "17th")
    assert work.condition is None and work.cost is None
    assert work.subs[0].target is None
    assert work.subs[0].effects[0].numbers == {"x": 1}  # "1 card" reads "[x] cards"


def test_each_target_selection_starts_a_sub_ability():
    [offer] = read("abilities_17th.kcard", "Sacrificial Lamb", "17th")
    assert [s.target.phrase.name for s in offer.subs] == ["by_opponent",
                                                          "enemy_hand_random"]
    chooser = offer.subs[0].target.phrase.body[-1]
    assert str(chooser.chooser) == "opponent"
    assert offer.subs[1].target.phrase.body[-1].random


def test_the_11ths_leading_sentences_are_its_condition_and_cost():
    [rebirth] = read_card(load_cards(DECKS / "11th" / "phoenix.kcard")[0],
                          load_edition("11th"))[0]
    assert rebirth.condition.phrase.name == "destroyed"
    [contract, necromancy] = read_card(
        load_cards(DECKS / "11th" / "phoenix.kcard")[1], load_edition("11th"))[0]
    assert contract.cost is None
    # "Remove 2 counters from this card." names no kind: any counter pays it
    assert (necromancy.cost.phrase.name, necromancy.cost.counter) == (
        "remove_any_counters", None)


def test_an_unreadable_sentence_names_the_closest_phrase():
    _, [target, petrify] = read_card(card("unknown_keyword_13th.kcard", "Early Gorgon"),
                                     load_edition("12th"))
    assert target.message.startswith(
        '"Target up to 1 enemy in-play card.": no sentence phrase of the 12th edition '
        'reads it; closest: "Target up to [x] in-play ')
    assert target.closest.cite.edition == "12th"
    # no guess at a keyword: the closest phrase, with the section it encodes
    assert petrify.message.startswith(
        '"Petrify the targets.": no sentence phrase of the 12th edition reads it')
    assert "keyword" not in petrify.message


def test_coverage_of_nothing_leaves_everything_unused():
    rs = load_edition("13th")
    cov = coverage(rs, [])
    assert not cov.complete
    assert cov.keywords.used == () and len(cov.keywords.unused) == len(rs.keywords)
    assert cov.counters.unused == tuple(rs.counters)


def test_coverage_follows_keywords_through_keyword_bodies():
    rs = load_edition("13th")
    lash = load_cards(DECKS / "13th" / "cinder.kcard")
    flame = [c for c in lash if c.name == "Flame Lash"]
    cov = coverage(rs, card_readings(flame, rs))
    # inflict destroys and pierces; piercing damage inflicts damage on a player.
    assert set(cov.keywords.used) == {"inflict", "destroy", "pierce", "inflict_player"}
    assert cov.value_terms.used == ("enemy",)


def test_coverage_counts_the_counter_a_card_names_and_what_it_calls():
    rs = load_edition("17th")
    crusher = [c for c in load_cards(DECKS / "17th" / "raiders.kcard")
               if c.name == "Bone Crusher"]
    cov = coverage(rs, card_readings(crusher, rs))
    assert cov.counters.used == ("damage",)
    assert "inflict" in cov.keywords.used  # the Damage Counter's effect
    assert {"counter", "each", "target"} <= set(cov.builtin_terms.used)


@pytest.mark.parametrize("edition", ["12th", "13th", "17th"])
def test_ghost_play_is_used_by_a_condition_phrase(edition):
    rs = load_edition(edition)
    ghost = [p for p in rs.phrases if "ghost_play" in p.modifiers]
    assert ghost, "no condition phrase with ghost-play"
