"""Did you mean: misspelt statements, keywords, counters, zones, stats and
citations get the word the writer most likely meant."""

from __future__ import annotations

import doctest

import pytest
from kotc.dsl import suggest

HOUSE = '''edition "house" number 18 extends "17th"
  contents {{ "Keywords" }}
keywords {{
  keyword recycle "Recycle" (target: card) @ "{section}" {{
    {statement}
  }}
}}
'''

CASES = [
    ("Keywords", "shufle target.owner.deck", "did you mean 'shuffle'?"),
    ("Keywords", "mvoe target to target.owner.deck", "did you mean 'move'?"),
    ("Keyword", "shuffle target.owner.deck", "did you mean 'Keywords'?"),
    ("Keywords", "place 1 sheild on target", "did you mean 'shield'?"),
    ("Keywords", "move target to target.owner.granery", "did you mean 'granary'?"),
    ("Keywords", "set target.sp to target.spp", "did you mean 'sp'?"),
    ("Keywords", "bury(target) silo(tagret)", "did you mean 'target'?"),
]


def test_the_helpers_examples_hold():
    assert doctest.testmod(suggest).failed == 0


@pytest.mark.parametrize(("section", "statement", "suggestion"), CASES)
def test_a_misspelt_word_gets_the_word_meant(kotc, tmp_path, section, statement,
                                             suggestion):
    path = tmp_path / "house.kotc"
    path.write_text(HOUSE.format(section=section, statement=statement),
                    encoding="utf-8")
    code, out, err = kotc("check", str(path))
    assert code == 2
    assert suggestion in out, out


def test_a_word_far_from_every_known_one_gets_no_guess(kotc, tmp_path):
    path = tmp_path / "house.kotc"
    path.write_text(HOUSE.format(section="Keywords", statement="place 1 zzqx on target"),
                    encoding="utf-8")
    code, out, _ = kotc("check", str(path))
    assert code == 2 and "unknown counter 'zzqx'" in out and "did you mean" not in out


def test_a_misspelt_word_in_a_card_file(kotc, tmp_path):
    cards = tmp_path / "c.kcard"
    cards.write_text('card "Imp" minion {\n  level 1\n  abilty "X" { Draw 1 card. }\n}\n',
                     encoding="utf-8")
    code, out, err = kotc("card", "check", str(cards), "--edition", "17th")
    assert code == 2 and "c.kcard:3:10: syntax error" in out + err
    assert "did you mean 'ability'?" in out + err
