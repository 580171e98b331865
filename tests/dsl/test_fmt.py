"""`kotc fmt`: canonical text through the unparser, comments kept, idempotent,
every shipped file already in canonical form, nothing written on a problem."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from kotc.dsl import fmt as fmt_module
from kotc.dsl.fmt import FormatError, format_text
from kotc.dsl.load import EDITIONS_DIR
from kotc.dsl.shipped import DECKS_DIR

SHIPPED = sorted([*EDITIONS_DIR.glob("*.kotc"), *DECKS_DIR.glob("*/*.kcard"),
                  *DECKS_DIR.glob("*/*.kdeck")])

MESSY = '''// House rules, written in a hurry.
edition "house"   number 18 extends "17th"
  source "Our table" contents { "Setup", "Keywords" }

setup {
  override starting_hp 40 @ "Setup"   // forty, not thirty-five


  // no mulligan at our table
  remove step mulligan @ "Setup"
}
keywords {
  keyword recycle "Recycle" (target: card) @ "Keywords" interpretation "it shuffles" {
    move target to target.owner.deck bottom face_down
    // then shuffle
    shuffle target.owner.deck
  }
}
/* the end */
'''


def test_the_helpers_examples_hold():
    assert doctest.testmod(fmt_module).failed == 0


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_file_is_formatted_and_formatting_it_changes_nothing(path):
    text = path.read_text(encoding="utf-8")
    once = format_text(text, str(path))
    assert once == text, f"kotc fmt {path} would change it"
    assert format_text(once, str(path)) == once


def test_messy_rules_are_laid_out_keeping_every_comment(tmp_path):
    out = format_text(MESSY, str(tmp_path / "house.kotc"))
    assert format_text(out, str(tmp_path / "house.kotc")) == out  # idempotent
    for comment in ("// House rules, written in a hurry.", "// forty, not thirty-five",
                    "// no mulligan at our table", "// then shuffle", "/* the end */"):
        assert out.count(comment) == 1, comment
    lines = out.splitlines()
    assert lines[1] == 'edition "house" number 18 extends "17th"'
    assert '  override starting_hp 40                           @ "Setup"' in lines
    # the comment inside the keyword comes out just before it
    keyword = next(i for i, line in enumerate(lines) if "keyword recycle" in line)
    assert lines[keyword - 1] == "  // then shuffle"
    assert all(len(line) <= 90 for line in lines)


def test_a_file_that_does_not_parse_is_refused(tmp_path):
    text = 'edition "h" number 1\nsetup {\n  shufle deck\n}\n'
    with pytest.raises(FormatError, match=r"house.kotc:3:3: syntax error"):
        format_text(text, str(tmp_path / "house.kotc"))


def test_cards_and_decks_are_laid_out(tmp_path):
    cards = ('card "Imp"   minion { level 1 sp 1 hp 2 ability "BITE" { Pay 2 HP ->\n'
             '   Target up to 1 enemy on-field minions.    Place 1 Weakness Counter on '
             'each target. } flavor "small" }\n')
    out = format_text(cards, str(tmp_path / "c.kcard"))
    assert out == ('card "Imp" minion {\n  level 1  sp 1  hp 2\n  ability "BITE" {\n'
                   '    Pay 2 HP ->\n    Target up to 1 enemy on-field minions. Place 1 '
                   'Weakness Counter on each target.\n  }\n  flavor "small"\n}\n')
    deck = ('// ours\ndeck "D" edition "17th" cards "c.kcard" { 40 "Imp"\n'
            '// the rest\n reserves { 5 "Imp" } }')
    assert format_text(deck, str(tmp_path / "d.kdeck")) == (
        '// ours\ndeck "D" edition "17th" cards "c.kcard" {\n  40 "Imp"\n'
        '  reserves {\n    // the rest\n    5 "Imp"\n  }\n}\n')


# --- the command -------------------------------------------------------------------


def test_fmt_check_passes_on_the_shipped_files(kotc):
    code, out, err = kotc("fmt", "--check", str(EDITIONS_DIR), str(DECKS_DIR))
    assert code == 0, out + err
    assert out.splitlines()[-1] == f"0 files to reformat, {len(SHIPPED)} unchanged"


def test_fmt_rewrites_then_check_passes(kotc, tmp_path):
    path = tmp_path / "house.kotc"
    path.write_text(MESSY, encoding="utf-8")
    code, out, _ = kotc("fmt", "--check", str(path))
    assert code == 1 and f"would reformat {path}" in out
    assert path.read_text(encoding="utf-8") == MESSY  # --check writes nothing
    code, out, _ = kotc("fmt", "--diff", str(path))
    assert code == 0 and "+++ " in out and path.read_text(encoding="utf-8") == MESSY
    code, out, _ = kotc("fmt", str(path))
    assert code == 0 and f"reformatted {path}" in out
    assert kotc("fmt", "--check", str(path))[0] == 0
    assert kotc("check", str(path))[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["house.kotc"]


def test_fmt_leaves_a_broken_file_alone_and_says_where(kotc, tmp_path):
    path = tmp_path / "bad.kotc"
    text = 'edition "b" number 1\nsetup {\n  shufle deck\n}\n'
    path.write_text(text, encoding="utf-8")
    code, out, err = kotc("fmt", str(path), str(tmp_path / "nosuch.kotc"))
    assert code == 2 and f"{path}:3:3: syntax error" in err
    assert "nosuch.kotc: no such file or directory" in err
    assert path.read_text(encoding="utf-8") == text


def test_fmt_json(kotc, tmp_path):
    import json

    path = tmp_path / "house.kotc"
    path.write_text(MESSY, encoding="utf-8")
    code, out, _ = kotc("fmt", "--check", "--format", "json", str(path))
    report = json.loads(out)
    assert code == 1 and report["changed"] == 1 and report["written"] is False
    assert report["files"] == [{"file": str(path), "changed": True}]


def test_a_scenario_file_is_not_formatted(kotc, tmp_path):
    path = tmp_path / "r.kscn"
    path.write_text("scenario", encoding="utf-8")
    code, _, err = kotc("fmt", str(path))
    assert code == 2 and "kotc fmt formats .kotc, .kcard, .kdeck files" in err


def test_the_shipped_files_are_where_the_test_looks():
    assert len(SHIPPED) >= 12 and all(isinstance(p, Path) for p in SHIPPED)


def test_an_overriding_rule_keeps_its_head_on_one_line():
    long = "Mulligan: once, optionally, bury any cards from hand and draw as many"
    lines = fmt_module.layout(f'  override step mulligan "{long}" @ "Setup and Deck '
                              'Building" {')
    assert lines[0] == f'  override step mulligan "{long}"'
    short = fmt_module.layout('  override keyword inflict "Inflict damage to a minion" '
                              '(target: minion, amount: int, die: die?) @ "Battles" {')
    assert short[0] == '  override keyword inflict "Inflict damage to a minion"'
