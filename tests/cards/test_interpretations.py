"""Every judgement call an edition makes is labelled in its data, and listed by
`kotc show EDITION --interpretations`; how texts are matched is such data too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from kotc.dsl import edition_files, load_edition, load_path
from kotc.dsl.cards import load_cards
from kotc.dsl.interpretations import interpretations
from kotc.dsl.legality import judge_card

FIXTURES = Path(__file__).parent / "fixtures"
WRITTEN = re.compile(r'interpretation\s+"([^"]*)"')


def written_in(edition: str) -> list[str]:
    """The interpretations an edition's own file writes (all of them in force: a
    file cannot override itself)."""
    return WRITTEN.findall(edition_files()[edition].read_text(encoding="utf-8"))


@pytest.mark.parametrize("edition", sorted(edition_files()))
def test_show_interpretations_lists_every_one_the_edition_writes(kotc, edition):
    code, out, _ = kotc("show", edition, "--interpretations", "--format", "json")
    assert code == 0
    listed = json.loads(out)
    texts = [i["interpretation"] for i in listed]
    assert set(written_in(edition)) <= set(texts)
    for item in listed:
        written, section = item["cite"].split(" §")
        assert load_edition(edition).cites(written, section)
        assert item["written_in"] in load_edition(edition).lineage


def test_show_interpretations_says_which_are_inherited(kotc):
    code, out, _ = kotc("show", "17th", "--interpretations")
    assert code == 0
    count = len(interpretations(load_edition("17th")))
    assert out.startswith(f"Edition 17th: {count} interpretations")
    assert re.search(r"keyword destroy  13th §Destroy  \(inherited from 13th\)\n"
                     r"\s+to its owner's grave", out)


def test_show_interpretations_of_one_section(kotc):
    code, out, _ = kotc("show", "11th", "endgame", "--interpretations")
    assert code == 0
    assert "lose empty_deck  11th §Winning and Losing" in out
    assert "setup" not in out.split("\n", 1)[1]


@pytest.mark.parametrize("edition, rule", [
    ("11th", "setting texts_match"),       # listed texts in any case, inside words
    ("11th", "lose empty_deck"),           # an empty deck loses at once
    ("11th", "criterion remaining"),       # losing at once: a tie
    ("12th", "keyword draw"),              # reserves for an empty deck
    ("12th", "keyword deploy"),            # a deployed spell's unmet condition
    ("12th", "criterion most_levels"),     # current, not printed, levels
    ("12th", "reads each target as the targets"),
    ("13th", "keyword destroy"),           # whose grave
    ("13th", "target excavated"),          # an ability goes on after excavating
    ("17th", "keyword gift_summon"),       # a declined gift, a destroyed gift's grave
    ("17th", "setting texts_match"),
])
def test_a_choice_the_rulebook_leaves_open_is_labelled(edition, rule):
    labelled = {i.rule.key for i in interpretations(load_edition(edition))}
    assert rule in labelled


# --- how listed texts are found: the edition's `texts_match` ------------------------


def card(name: str):
    return {c.name: c for c in load_cards(FIXTURES / "listed_text_case.kcard")}[name]


def test_the_17th_finds_a_revised_level_text_in_any_case():
    v = judge_card(card("Capital Silo"), load_edition("17th"))
    assert v.status == "pruned"  # "Silo the targets." holds "silo the targets"


def test_an_edition_matching_exactly_does_not():
    exact = load_path(FIXTURES / "exact_case_17th.kotc")
    assert judge_card(card("Capital Silo"), exact).status == "legal"


def test_the_17th_finds_a_refurbished_text_inside_a_longer_word():
    v = judge_card(card("Plural In-play"), load_edition("17th"))
    assert v.status == "refurbished"
    assert "Target up to 2 on-field minions." in v.refurbished_text
    exact = load_path(FIXTURES / "exact_case_17th.kotc")
    assert judge_card(card("Plural In-play"), exact).refurbished_text is None


def test_it_stands_for_the_targets_only_where_the_edition_says_so():
    # the 11th defines no "It": "on it" is not its "on each target"
    v = judge_card(card("It For Targets"), load_edition("11th"))
    assert [u.text for u in v.unread] == ["Place 1 counter on it."]
