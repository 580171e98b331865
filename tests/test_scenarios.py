"""Rulings as tests: every scenario in `scenarios/` under each edition it names.

A scenario marked `xfail` shows a known engine bug: it runs as
`xfail(strict=True)`, so the day the bug is fixed the mark must go. The
malformed files in `scenarios_broken/` (each named for what breaks it, and
saying so on its first line) must be rejected by `kotc test` with located
messages and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from kotc.checking.scenario_run import run_scenario
from kotc.dsl import RulesetError
from kotc.dsl.scenarios import load_scenarios, scenario_files

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "scenarios"
BROKEN = HERE / "scenarios_broken"
LOCATED = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$",
                     re.MULTILINE)


def _loaded() -> list:
    """(file, scenarios or the error that stopped them), for every shipped file."""
    files, _ = scenario_files([SCENARIOS])
    out = []
    for f in files:
        try:
            out.append((f, load_scenarios(f)))
        except RulesetError as err:
            out.append((f, err))
    return out


LOADED = _loaded()


def _cases():
    for f, scenarios in LOADED:
        rel = f.relative_to(SCENARIOS).as_posix()
        if isinstance(scenarios, RulesetError):
            yield pytest.param(scenarios, None, id=rel)
            continue
        for s in scenarios:
            for e in s.editions:
                known = s.xfail(e)
                marks = [pytest.mark.xfail(reason=known, strict=True)] if known else []
                yield pytest.param(s, e, id=f"{rel}::{s.name}[{e}]", marks=marks)


@pytest.mark.parametrize("scenario, edition", list(_cases()))
def test_ruling(scenario, edition):
    if isinstance(scenario, RulesetError):
        pytest.fail(f"the scenario file does not load:\n{scenario}")
    result = run_scenario(scenario, edition)
    report = "\n".join(str(f) for f in result.failures)
    assert result.status in ("passed", "xpassed"), report


def test_there_are_enough_rulings_and_every_edition_has_its_own():
    scenarios = [s for _, ss in LOADED if not isinstance(ss, RulesetError) for s in ss]
    assert len(scenarios) >= 80
    editions = {e for s in scenarios for e in s.editions}
    assert editions == {"11th", "12th", "13th", "17th"}
    several = [s for s in scenarios if len(s.editions) > 1]
    differing = [s for s in several if any(e.editions for e in s.expects)]
    assert len(several) >= 40 and len(differing) >= 20


# --- the command, as a user sees it --------------------------------------------------


PASSING = """\
card "Ogre" minion { power 1  toughness 9  cost 1 }
card "Imp" minion { power 0  toughness 4  cost 1 }
scenario "Damage past a minion's HP pierces to its controller" {
  editions "13th", "17th"
  cite "Minions"
  position {
    at phase battle
    player 0 { field: "Ogre" as ogre }
    player 1 { field: "Imp" as imp exhausted }
  }
  dice 6
  actions { 0: act battle, pick ogre, pick imp }
  expect { card imp in grave  player 1 hp 33 }
}
"""


def test_the_help_shows_the_grammar_example_and_it_passes(tmp_path, kotc):
    header = (HERE.parent / "rules" / "scenario.tx").read_text(encoding="utf-8")
    example = textwrap.dedent(header.split("*/")[0].split("\n\n", 1)[1])
    code, out, _ = kotc("test", "--help")
    assert code == 0
    assert textwrap.indent(example.strip("\n"), "  ") in out
    (tmp_path / "grammar.kscn").write_text(example, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path))
    assert code == 0, out
    assert out.splitlines()[-1] == "2 passed, 0 failed"


def test_the_readme_ruling_passes(tmp_path, kotc):
    readme = (HERE.parent / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"^```kscn\n(.*?)^```", readme, re.MULTILINE | re.DOTALL)
    (tmp_path / "readme.kscn").write_text(example, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path))
    assert code == 0, out
    assert out.splitlines()[-1] == "4 passed, 0 failed"


def test_a_wrong_expectation_fails_with_expected_and_actual(tmp_path, kotc):
    wrong = PASSING.replace("player 1 hp 33", "player 1 hp 30")
    (tmp_path / "wrong.kscn").write_text(wrong, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path / "wrong.kscn"), "--edition", "17th")
    assert code == 1
    assert "wrong.kscn:13:31: player 1 hp" in out
    assert "expected: 30" in out and "actual:   33" in out
    assert out.splitlines()[-1] == "0 passed, 1 failed"


def test_an_unscripted_decision_fails_naming_it(tmp_path, kotc):
    unscripted = PASSING.replace("exhausted }", "}").replace("pick imp }", "pick imp }\n")
    (tmp_path / "defends.kscn").write_text(unscripted, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path), "-e", "13th")
    assert code == 1
    assert "unscripted decision" in out and "'enlist'" in out


def test_an_xfail_that_still_fails_is_skipped_and_one_that_passes_fails(tmp_path, kotc):
    still = PASSING.replace("player 1 hp 33", "player 1 hp 30").replace(
        'cite "Minions"', 'cite "Minions"\n  xfail for "13th" "a known bug"')
    (tmp_path / "known.kscn").write_text(still, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path))
    assert code == 1
    assert out.splitlines()[-1] == "0 passed, 1 failed, 1 skipped"
    fixed = PASSING.replace('cite "Minions"', 'cite "Minions"\n  xfail "a known bug"')
    (tmp_path / "known.kscn").write_text(fixed, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path), "--edition", "13th")
    assert code == 1 and "remove the mark" in out


def test_json_output_and_house_rules_run_as_the_edition_they_extend(tmp_path, kotc):
    (tmp_path / "pierce.kscn").write_text(PASSING, encoding="utf-8")
    (tmp_path / "house.kotc").write_text(
        'edition "house" number 18 extends "17th"\n  contents { "Setup" }\n'
        'setup {\n  override starting_hp 40  @ "Setup"\n}\n', encoding="utf-8")
    code, out, err = kotc("test", str(tmp_path), "--edition",
                         str(tmp_path / "house.kotc"), "--format", "json")
    data = json.loads(out)
    assert code == 1  # 40 HP, so the old ruling's 33 no longer holds: as wanted
    assert data["results"][0]["under"] == "house"
    assert data["results"][0]["failures"][0]["actual"] == "38"
    assert err.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_a_forced_attack_exhausts_its_team_only_where_the_rule_says_so(tmp_path, kotc):
    # the shipped Berzerk attacks without exhausting its host; house rules that
    # write `exhausting` exhaust it
    (tmp_path / "berzerk.kscn").write_text(textwrap.dedent("""\
        cards "{cards}/common.kcard"
        cards "{cards}/17th.kcard"
        scenario "A forced attack" {{
          editions "17th"
          cite "Counters"
          position {{
            turn 2  active player 0  at phase action
            player 0 {{ field: "Zapper" as zapper with berzerk by player 0
                       deck: 3 "Filler" }}
            player 1 {{ deck: 3 "Filler" }}
          }}
          dice 3
          actions {{ 0: act pop zapper counter berzerk  1: pass  0: pass
                     0: option 1, pick player 1 }}
          expect {{ event forced_attack victim=player 1  card zapper not exhausted }}
        }}
        """).format(cards=SCENARIOS / "cards"), encoding="utf-8")
    (tmp_path / "house.kotc").write_text(textwrap.dedent("""\
        edition "house" number 18 extends "17th"
          contents { "Counters" }
        counters {
          override counter berzerk "Berzerk Counter" proactive  @ "Counters" {
            either by you {
              choose exactly 1 from enemies(host.controller) as victim by you
              after chain { attack victim with host exhausting }
            } or {
              choose exactly 1 from players.battlefield as victim by you
              after chain { attack victim with host exhausting }
            }
          }
        }
        """), encoding="utf-8")
    code, out, err = kotc("test", str(tmp_path))
    assert code == 0, out + err
    code, out, _ = kotc("test", str(tmp_path), "--edition", str(tmp_path / "house.kotc"),
                        "--format", "json")
    failures = json.loads(out)["results"][0]["failures"]
    assert code == 1 and [f["actual"] for f in failures] == ["True"], failures


def test_coverage_names_what_no_scenario_exercises(tmp_path, kotc):
    (tmp_path / "pierce.kscn").write_text(PASSING, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path), "-e", "17th", "--coverage")
    assert code == 0
    assert "Coverage of the 17th edition by 1 scenario run:" in out
    assert "not exercised: chain:open" in out
    assert "not exercised: berzerk" in out
    assert re.search(r"keywords: \d+/\d+ exercised", out)


# --- malformed files -----------------------------------------------------------------

# file -> (line, col, a fragment of the message) of the problems it must produce.
BROKEN_CASES = {
    "syntax_missing_brace.kscn": [(9, 1, "syntax error")],
    "not_utf8.kscn": [(2, 14, "byte 0xe9 is not UTF-8")],
    "unknown_edition.kscn": [(4, 12, "unknown edition: '19th'")],
    "unknown_label.kscn": [(11, 33, "no card is labelled 'ogre'")],
    "unknown_zone.kscn": [(8, 16, "no zone 'trapfield'")],
    "unknown_counter.kscn": [(8, 23, "no counter 'shield'")],
    "unknown_stat.kscn": [(11, 15, "no stat 'offense'")],
    "no_position.kscn": [(3, 1, "has no position")],
    "no_citation.kscn": [(3, 1, "cites no rulebook section")],
    "citation_not_in_rulebook.kscn": [(5, 3, 'no section "Chains" in the rulebook')],
    "card_text_unreadable.kscn": [(5, 5, "no sentence phrase")],
    "seat_out_of_range.kscn": [(9, 5, "player 2 is not one of the 2 seats")],
    "label_given_twice.kscn": [(8, 37, "label 'imp' is given twice")],
    "edition_not_named.kscn": [(12, 14, "'11th' is not one of this scenario's editions")],
    "card_file_missing.kscn": [(2, 1, "card file 'nowhere.kcard' not found")],
    "unknown_action.kscn": [(11, 8, "no action 'set_trap'")],
    "label_is_a_keyword.kscn": [(8, 31, "'first' is a word of the scenario language")],
    "last_controller_in_play.kscn": [(8, 23, "a card in play is last controlled by")],
    # the edition is named once, not once per scenario
    "card_defined_twice.kscn": [(3, 1, "with `for`) (under the 17th edition)")],
}


def test_every_broken_fixture_has_a_case():
    assert {p.name for p in BROKEN.glob("*.kscn")} == set(BROKEN_CASES)


@pytest.mark.parametrize("name", sorted(BROKEN_CASES))
def test_a_malformed_scenario_is_located_and_exits_2(name, kotc):
    path = BROKEN / name
    code, out, err = kotc("test", str(path))
    assert code == 2, out + err
    assert "Traceback" not in out + err
    found = [(int(m["line"]), int(m["col"]), m["message"]) for m in LOCATED.finditer(err)]
    for line, col, fragment in BROKEN_CASES[name]:
        assert any((ln, c) == (line, col) and fragment in msg for ln, c, msg in found), \
            err
    assert err.strip().splitlines()[-1].endswith("nothing was run")


def test_the_command_rejects_the_broken_directory_without_a_traceback():
    done = subprocess.run([sys.executable, "-m", "kotc", "test",
                           str(BROKEN)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert len(LOCATED.findall(done.stderr)) >= len(BROKEN_CASES)
