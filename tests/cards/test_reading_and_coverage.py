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
    # a sentence that selects no targets has none (13th §Target)
    assert work.subs[0].target.phrase.body == (load_edition("17th").setting(
        "phrases", "sub_abilities").body)
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
    # each clause of the sentence is unread, where it is printed
    assert target.message.startswith(
        '"Target up to 1 enemy in-play card": no sentence phrase of the 12th edition '
        'reads it; closest: "Target up to [x] in-play ')
    assert target.closest.cite.edition == "12th"
    assert (target.origin.line, target.origin.col) == (5, 5)
    # no guess at a keyword: the closest phrase, with the section it encodes
    assert petrify.message.startswith(
        '"petrify it.": no effect phrase of the 12th edition reads it')
    assert "keyword" not in petrify.message
    assert (petrify.origin.line, petrify.origin.col) == (5, 40)


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


# --- sub-abilities --------------------------------------------------------------------

ONE_SENTENCE = {
    "11th": ("creature", "edition 11  cost 1  offense 1  defense 3",
             "Target up to 1 creatures in play; destroy all targets."),
    "12th": ("minion", "edition 12  level 1  offense 1  defense 3",
             "Target up to 1 in-play minion; destroy it."),
    "13th": ("minion", "edition 13  level 1  sp 1  hp 3",
             "Target up to 1 in-play card; destroy it."),
    "17th": ("minion", "edition 17  level 1  sp 1  hp 3",
             "Target up to 1 on-field minion; destroy it."),
}


def _one_card(tmp_path, edition: str, text: str):
    kind, stats, _ = ONE_SENTENCE[edition]
    path = tmp_path / "one.kcard"
    path.write_text(f'card "One" {kind} {{ {stats}\n  ability "ONE" {{ {text} }} }}\n',
                    encoding="utf-8")
    return load_cards(path)[0]


@pytest.mark.parametrize("edition", ["12th", "13th", "17th"])
def test_one_sentence_holds_a_selection_and_its_effects(tmp_path, edition):
    text = ONE_SENTENCE[edition][2]
    [ability], problems = read_card(_one_card(tmp_path, edition, text),
                                    load_edition(edition))
    assert problems == []
    [sub] = ability.subs
    assert sub.target.phrase.phrase_kind == "target"
    assert [e.phrase.name for e in sub.effects] == ["destroy"]
    assert sub.effects[0].text.text == "destroy it."
    # the clause is located where it is printed
    col = len('  ability "ONE" { ') + text.index("destroy it.") + 1
    assert (sub.effects[0].text.origin.line, sub.effects[0].text.origin.col) == (2, col)


def test_the_11th_parts_no_sentence(tmp_path):
    _, [unread] = read_card(_one_card(tmp_path, "11th", ONE_SENTENCE["11th"][2]),
                            load_edition("11th"))
    assert unread.message.startswith('"Target up to 1 creatures in play; destroy all '
                                     'targets.": no sentence phrase of the 11th')


@pytest.mark.parametrize("edition, own", [("11th", False), ("12th", False),
                                          ("13th", True), ("17th", True)])
def test_a_sentence_with_no_selection_has_no_targets_from_the_13th(tmp_path, edition,
                                                                    own):
    selection, effect = ONE_SENTENCE[edition][2].split("; ")
    text = f"{selection}. {effect[0].upper()}{effect[1:]}"
    [ability], problems = read_card(_one_card(tmp_path, edition, text),
                                    load_edition(edition))
    assert problems == []
    if own:  # two sub-abilities: the second runs the edition's "no targets" program
        first, second = ability.subs
        assert first.effects == ()
        assert second.target.phrase.body == load_edition(edition).setting(
            "phrases", "sub_abilities").body
    else:  # one: the effect acts on the selection before it
        [sub] = ability.subs
        assert sub.target.phrase.phrase_kind == "target" and len(sub.effects) == 1


def test_the_reading_modules_doctests():
    import doctest

    from kotc.dsl import cards, reading
    assert doctest.testmod(cards).failed == 0
    assert doctest.testmod(reading).failed == 0
