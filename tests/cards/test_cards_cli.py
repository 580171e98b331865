"""`kotc card check`, `kotc deck check` and `kotc deck coverage` as a user sees them:
verdicts, exit status, JSON, and located messages for malformed files."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from kotc.dsl import load_edition
from kotc.dsl.coverage import used_by_the_rules

FIXTURES = Path(__file__).parent / "fixtures"
LOCATED = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): \S", re.MULTILINE)


def kotc(*argv: str) -> subprocess.CompletedProcess:
    """The installed command, run from the fixtures folder as a user would."""
    return subprocess.run([sys.executable, "-m", "kotc", *argv],
                          capture_output=True, text=True, cwd=FIXTURES, timeout=120)


# --- malformed input: located, exit 2, no traceback -----------------------------------


@pytest.mark.parametrize("file, where, words", [
    ("broken_card_syntax.kcard", (5, 43), "Expected a sentence (ending in '.')"),
    ("broken_card_unclosed.kcard", (4, 1), "syntax error"),
    ("broken_card_not_utf8.kcard", (3, 14), "byte 0xe9 is not UTF-8"),
    ("no_such_file.kcard", (1, 1), "cannot read card file"),
])
def test_a_malformed_card_file_is_located_and_exits_2(file, where, words):
    done = kotc("card", "check", file, "--edition", "17th")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    found = LOCATED.search(done.stderr)
    assert found, done.stderr
    assert (found["file"], int(found["line"]), int(found["col"])) == (file, *where)
    assert words in done.stderr


@pytest.mark.parametrize("file, where, words", [
    ("broken_deck_syntax.kdeck", "broken_deck_syntax.kdeck:3:6", "Expected STRING"),
    ("broken_deck_unknown_card.kdeck", "broken_deck_unknown_card.kdeck:4:3",
     "no card named 'Phantom Knight'"),
    ("broken_deck_missing_file.kdeck", "broken_deck_missing_file.kdeck:2:1",
     "card file 'no_such_cards.kcard' not found"),
    ("broken_deck_unknown_edition.kdeck", "broken_deck_unknown_edition.kdeck:2:1",
     "unknown edition '99th'"),
    ("broken_deck_bad_card_file.kdeck", "broken_card_unclosed.kcard:4:1", "syntax error"),
])
def test_a_malformed_deck_file_is_located_and_exits_2(file, where, words):
    done = kotc("deck", "check", file)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stderr.startswith(f"{where}: "), done.stderr
    assert words in done.stderr


def test_an_unknown_edition_argument_exits_2_and_names_the_editions():
    done = kotc("card", "check", "plain_11th.kcard", "--edition", "99th")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "unknown edition '99th'; choose one of: 11th, 12th, 13th, 17th" in done.stderr


def test_card_check_without_an_edition_is_a_usage_error(kotc):
    code, _, err = kotc("card", "check", str(FIXTURES / "plain_11th.kcard"))
    assert code == 2 and "--edition" in err


# --- kotc card check ------------------------------------------------------------------


def test_card_check_of_legal_cards_exits_0(kotc):
    code, out, _ = kotc("card", "check", str(FIXTURES / "plain_11th.kcard"),
                       "-e", "11th")
    assert code == 0
    assert "Footman: legal" in out
    assert out.rstrip().endswith("1 card under the 11th edition: 1 legal")


def test_card_check_shows_the_refurbished_text_and_exits_0(kotc):
    code, out, _ = kotc("card", "check", str(FIXTURES / "resources_13th.kcard"),
                       "-e", "17th")
    assert code == 0
    assert "Granary Raid: refurbished" in out
    assert 'reads as: "Target up to 2 cards in your granary; bounce the targets."' in out
    assert "[17th §Refurbished Card Texts]" in out


def test_card_check_says_why_a_card_is_pruned_and_exits_1(kotc):
    code, out, _ = kotc("card", "check", str(FIXTURES / "revised_levels.kcard"),
                       "-e", "17th")
    assert code == 1
    assert "Silo Fifteen: pruned" in out and "Silo Sixteen: legal" in out
    assert "[17th §Revised Levels]" in out
    assert out.rstrip().endswith("4 cards under the 17th edition: 1 legal, 3 pruned")


def test_card_check_reports_unread_text_apart_from_the_verdict(kotc):
    code, out, _ = kotc("card", "check",
                       str(FIXTURES / "unknown_counter_12th.kcard"), "-e", "12th")
    assert code == 1  # a card kotc cannot read cannot be played
    assert "Early Shield: legal; not read in full" in out
    assert re.search(r"unknown_counter_12th\.kcard:5:23: unread: \"Place 1 Shield "
                     r"Counter on each target\.\": the 12th edition has no Shield "
                     r"Counter", out)
    assert 'closest: "Place [x] [counter] on each target." [12th §Counters]' in out
    assert out.rstrip().endswith(
        "1 card under the 12th edition: 1 legal; 1 card not read")


def test_card_check_puts_the_rules_verdict_before_what_is_unread(kotc):
    code, out, _ = kotc("card", "check", str(FIXTURES / "banned_11th.kcard"),
                        "-e", "11th")
    assert code == 1
    assert "Blood Scholar: banned; not read in full" in out
    lines = out.splitlines()
    verdict = next(i for i, line in enumerate(lines) if ": banned: its text" in line)
    unread = next(i for i, line in enumerate(lines) if '"Pay 3 hitpoints."' in line)
    assert verdict < unread
    assert "invalid" not in out


def test_card_check_says_a_rule_is_inherited(kotc):
    code, out, _ = kotc("card", "check", str(FIXTURES / "design_12th.kcard"),
                        "-e", "17th")
    assert code == 1
    assert "[13th §Clean Slate Edition, inherited by the 17th]" in out


def test_card_check_as_json(kotc):
    code, out, _ = kotc("card", "check", str(FIXTURES / "banned_11th.kcard"),
                       "-e", "11th", "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert report["edition"] == "11th" and report["status"] == "banned"
    by_name = {c["name"]: c for c in report["cards"]}
    assert by_name["Honest Scholar"]["status"] == "legal"
    [finding] = by_name["Blood Scholar"]["findings"]
    assert finding["status"] == "banned"
    assert finding["cite"] == "11th §Redacted Ability Text (Banned Cards)"
    assert {"file", "line", "col", "message"} <= set(finding)
    [unread] = by_name["Blood Scholar"]["unread"]
    assert unread["text"] == "Pay 3 hitpoints." and not by_name["Blood Scholar"]["read"]
    assert report["unread_cards"] == 2


# --- kotc deck check ------------------------------------------------------------------


def test_deck_check_uses_the_decks_own_edition(kotc):
    code, out, _ = kotc("deck", "check", str(FIXTURES / "ultra_points_10.kdeck"))
    assert code == 0
    assert 'deck "Ten" under the 17th edition: legal (40 cards, 10 Ultra Points)' in out


def test_deck_check_reports_the_deck_rules_it_breaks(kotc):
    code, out, _ = kotc("deck", "check", str(FIXTURES / "ultra_points_11.kdeck"))
    assert code == 1
    assert "illegal: the deck holds 11 Ultra Points; at most 10 are allowed" in out


def test_deck_check_under_another_edition(kotc):
    code, out, _ = kotc("deck", "check", str(FIXTURES / "reserves_12th_5.kdeck"),
                       "--edition", "13th")
    assert code == 1
    assert "under the 13th edition: illegal" in out
    assert "illegal: the 13th edition has no reserves [13th §Setup and Deck Building]" \
        in out
    assert "Militia: pruned; not read in full" in out
    assert out.rstrip().endswith("2 different cards: 2 pruned; 1 card not read")


def test_deck_check_as_json(kotc):
    code, out, _ = kotc("deck", "check", str(FIXTURES / "deck_11th_41.kdeck"),
                       "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert (report["deck"], report["edition"]) == ("Forty-one", "11th")
    assert report["size"] == 41
    assert report["status"] == "illegal" and report["unread_cards"] == 0
    assert report["findings"][0]["cite"] == "11th §Setup and Deck Building"


# --- kotc deck coverage ---------------------------------------------------------------


def test_deck_coverage_of_a_fully_covered_edition_exits_0(kotc):
    code, out, _ = kotc("deck", "coverage", "13th")
    assert code == 0
    assert out.startswith('13th ("Cinder", "Ironbark"): complete')
    assert "keywords: 19/19 used" in out


def test_deck_coverage_without_decks_lists_all_unused_and_exits_1(kotc, tmp_path):
    code, out, _ = kotc("deck", "coverage", "11th", "--decks", str(tmp_path))
    assert code == 1
    assert "11th (no starter decks): incomplete" in out
    # the keywords the rules' own flow calls are exercised all the same; the
    # counters no card places are not (hence incomplete)
    assert "keywords: 0/6 used; no card, but the rules' own flow: draw, place_resource" \
        in out
    assert "counters: 0/4 used; unused: plain, offense, defense, named" in out


def test_deck_coverage_as_json(kotc):
    code, out, _ = kotc("deck", "coverage", "--format", "json")
    reports = {r["edition"]: r for r in json.loads(out)}
    assert set(reports) == {"11th", "12th", "13th", "17th", "wow-core"}
    for name, report in reports.items():
        # a counter only the rules place (wow-core's damage) is left to them
        _, by_rules = used_by_the_rules(load_edition(name))
        assert [c for c in report["counters"]["unused"] if c not in by_rules] == []
        assert len(report["decks"]) >= 2
    assert code == (0 if all(r["complete"] for r in reports.values()) else 1)
    # no card of the second game names a keyword; its rules call both, every game
    wow = reports["wow-core"]["keywords"]
    assert wow["used"] == [] and wow["by_rules"] == wow["unused"] == ["draw", "destroy"]
    assert reports["wow-core"]["complete"]
