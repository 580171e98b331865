"""Rulings as tests: every scenario in `scenarios/` under each edition it names.

A scenario marked `xfail` shows a known engine bug: it runs as
`xfail(strict=True)`, so the day the bug is fixed the mark must go. The
malformed files in `scenarios_broken/` (each named for what breaks it, and
saying so on its first line) must be rejected by `kotc test` with located
messages and exit status 2, never a traceback. The files in
`scenarios_must_fail/` are rulings that once passed for the wrong reason (a
check that could not fail, a part applied to editions it did not name): each
must now fail, saying why.
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
    assert editions == {"11th", "12th", "13th", "17th", "wow-core"}
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
    (result,) = data["results"]
    assert result["under"] == "house" and result["edition"] == "17th"
    assert result["status"] == "changed" and result["base_status"] == "passed"
    assert result["failures"][0]["actual"] == "38"
    assert err.strip().splitlines()[-1] == "0 passed, 0 failed, 1 changed by these rules"
    assert data["summary"] == {"passed": 0, "failed": 0, "changed": 1, "skipped": 0}


def test_a_forced_attack_exhausts_its_team_only_where_the_rule_says_so(tmp_path, kotc):
    # the shipped Berzerk attacks without exhausting its host; house rules that
    # exhaust it before the battle begins do
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
              after chain {
                exhaust host
                begin battle with attacker = host.controller, victim = victim,
                  attack_team = host, forced = true
                log forced_attack(host.controller, victim)
              }
            } or {
              choose exactly 1 from players.battlefield as victim by you
              after chain {
                exhaust host
                begin battle with attacker = host.controller, victim = victim,
                  attack_team = host, forced = true
                log forced_attack(host.controller, victim)
              }
            }
          }
        }
        """), encoding="utf-8")
    code, out, err = kotc("test", str(tmp_path))
    assert code == 0, out + err
    code, out, _ = kotc("test", str(tmp_path), "--edition", str(tmp_path / "house.kotc"),
                        "--format", "json")
    (result,) = json.loads(out)["results"]
    failures = result["failures"]
    assert code == 1 and [f["actual"] for f in failures] == ["True"], failures
    assert result["status"] == "changed"
    # the shipped counter names its options as the rules word them; the house
    # rules' own, unnamed, read as their statements
    code, out, _ = kotc("test", str(tmp_path), "--log", "--format", "json")
    asked = json.loads(out)["results"][0]["log"][4]["decision"]
    assert "(options: option 1: Attack an enemy player, option 2: Attack an enemy " \
           "minion)" in asked, asked
    code, out, _ = kotc("test", str(tmp_path), "--edition", str(tmp_path / "house.kotc"),
                        "--log", "--format", "json")
    asked = json.loads(out)["results"][0]["log"][4]["decision"]
    assert "(options: option 1: choose exactly 1 from enemies(host.controller) as " \
           "victim..., option 2: choose" in asked, asked


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


# --- rulings that passed for the wrong reason must fail -------------------------------

MUST_FAIL = HERE / "scenarios_must_fail"
# file -> (exit status, a fragment of what it must say)
MUST_FAIL_CASES = {
    # 1: a part applies to the editions it names, wherever it is written
    "expect_for_inside_actions_under_an_xfail.kscn":
        (1, "passes, but is marked xfail"),
    "expect_for_an_edition_the_block_never_runs.kscn":
        (2, "13:29: '13th' never reaches this part: the `for` block around it is for "
            "the 12th only"),
    # 2: negative checks that could not fail
    "cannot_about_a_player_not_deciding.kscn":
        (1, "12:12: `cannot 1: act pop imp counter defense` asks about player 1, who is "
            "not deciding: player 0 must decide 'Battle Phase'"),
    "refused_bare_for_a_player_not_deciding.kscn":
        (1, "12:16: `1: act pop imp counter defense refused` is about player 1, who is "
            "not deciding: player 0 must decide"),
    "refused_for_not_your_decision.kscn":
        (1, "is about player 1, who is not deciding"),
    "no_event_with_an_unknown_field.kscn":
        (2, "14:12: 'move' events have no field 'from' (fields: card, name, to, player)"),
    "no_event_of_an_unknown_kind.kscn":
        (2, "14:12: the log has no 'destroyed' events (kinds: action, activate,"),
}


def test_every_must_fail_fixture_has_a_case():
    assert {p.name for p in MUST_FAIL.glob("*.kscn")} == set(MUST_FAIL_CASES)


@pytest.mark.parametrize("name", sorted(MUST_FAIL_CASES))
def test_a_ruling_that_passed_for_the_wrong_reason_now_fails(name, kotc):
    code, out, err = kotc("test", str(MUST_FAIL / name), "--no-log")
    status, fragment = MUST_FAIL_CASES[name]
    assert code == status, out + err
    assert fragment in out + err
    assert "Traceback" not in out + err


# --- 1: a part applies exactly to the editions it names --------------------------------

WEAKNESS = """\
cards "{cards}/common.kcard"
scenario "A Weakness Counter popped before the dice" {{
  editions "12th", "17th"
  cite "Counters"
  position {{
    turn 2  active player 0  at phase battle
    player 0 {{ field: "Giant" as giant with weakness by player 1  deck: 3 "Filler" }}
    player 1 {{ field: "Wall" as wall exhausted  deck: 3 "Filler" }}
  }}
  dice 2, 2
  dice for "17th":
  actions {{
    0: act battle, pick giant, pick player 1
    1: act pop giant counter weakness
    0: pass
    1: pass
    {inside}
  }}
}}
"""


@pytest.mark.parametrize("inside", [
    'expect for "12th" { card giant power 2 }',
    'for "12th" { expect { card giant power 2 } }',
    'for "12th", "17th" { expect for "12th" { card giant power 2 } }',
])
def test_an_expectation_inside_actions_applies_to_its_editions_only(tmp_path, kotc,
                                                                    inside):
    # the 17th sets the power to 0: an expectation for the 12th, checked there, fails
    text = WEAKNESS.format(cards=SCENARIOS / "cards", inside=inside)
    (tmp_path / "w.kscn").write_text(text, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path))
    assert code == 0, out
    wrong = text.replace("power 2", "power 0")  # the 17th's value, wrong for the 12th
    (tmp_path / "w.kscn").write_text(wrong, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path))
    assert code == 1 and out.splitlines()[-1] == "1 passed, 1 failed", out
    assert "[12th]" in next(line for line in out.splitlines() if line.startswith("FAIL"))


@pytest.mark.parametrize(("part", "where", "message"), [
    ('xfail for "13th" "a bug"', "6:13", "'13th' is not one of this scenario's editions"),
    ('dice for "11th": 3', "6:12", "'11th' is not one of this scenario's editions"),
    ('cite "Battles" in "13th"', "6:21", "'13th' is not one of this scenario's editions"),
])
def test_a_part_for_an_edition_the_ruling_does_not_name_is_an_error(tmp_path, kotc,
                                                                    part, where,
                                                                    message):
    text = PASSING.replace('cite "Minions"', f'cite "Minions"\n  {part}').replace(
        'editions "13th", "17th"', 'editions "17th"')
    (tmp_path / "p.kscn").write_text(text, encoding="utf-8")
    code, _out, err = kotc("test", str(tmp_path))
    assert code == 2 and f"p.kscn:{where}: {message} (17th)" in err, err


# --- 2: checks that can fail -----------------------------------------------------------

BETWEEN = """\
cards "{cards}/common.kcard"
scenario "The defender may pop a Defense Counter once the attack is declared" {{
  editions "12th"
  cite "Counters"
  position {{
    turn 2  active player 0  at phase battle
    player 0 {{ field: "Brute" as brute  deck: 3 "Filler" }}
    player 1 {{ field: "Imp" as imp with defense by player 1, "Wall" as wall exhausted
               deck: 3 "Filler" }}
  }}
  dice 6
  actions {{
    0: act battle, pick brute, pick player 1
    expect {{ {check} }}
    1: pass
    1: pick imp
    1: pass                  // after Defense Formation
    1: pass                  // after Battle Dice
    0: die 6
  }}
}}
"""


@pytest.mark.parametrize(("check", "code", "fragment"), [
    ("can 1: act pop imp counter defense", 0, None),
    ("cannot 1: pick wall", 0, None),
    ('cannot 1: act battle because "not open between battle steps"', 0, None),
    ('cannot 1: act battle because "cost"', 1, "the reason `1: act battle` is refused"),
    ("cannot 1: act pop imp counter defense", 1, "expected: refused"),
    ("cannot 0: act pop imp counter defense", 1,
     "asks about player 0, who is not deciding: player 1 must decide 'act between "
     "battle steps'"),
    ("can 0: act battle", 1, "asks about player 0, who is not deciding"),
])
def test_can_and_cannot_are_asked_of_the_player_deciding(tmp_path, kotc, check, code,
                                                         fragment):
    (tmp_path / "b.kscn").write_text(BETWEEN.format(cards=SCENARIOS / "cards",
                                                    check=check), encoding="utf-8")
    got, out, _ = kotc("test", str(tmp_path), "--no-log")
    assert got == code, out
    assert fragment is None or fragment in out


@pytest.mark.parametrize(("step", "code", "fragment"), [
    ("1: act battle refused", 0, None),
    ('1: act battle refused "not open between battle steps"', 0, None),
    ('1: act battle refused "cost"', 1, "the reason for refusing"),
    ("1: act pop imp counter defense refused", 1, "was expected to be refused, but it "
                                                  "is legal"),
    ("0: act battle refused", 1, "is about player 0, who is not deciding"),
])
def test_a_refusal_is_by_the_rules_at_the_players_own_decision(tmp_path, kotc, step,
                                                              code, fragment):
    text = BETWEEN.format(cards=SCENARIOS / "cards", check="").replace(
        "    expect {  }\n", f"    {step}\n")
    (tmp_path / "r.kscn").write_text(text, encoding="utf-8")
    got, out, _ = kotc("test", str(tmp_path), "--no-log")
    assert got == code, out
    assert fragment is None or fragment in out


def test_every_event_the_engine_logs_is_one_the_rulings_may_name():
    # the table event checks are validated against is the log's: seeded games of
    # every edition and every ruling log nothing it does not list, and each field
    # holds what it says (a player, a card, cards)
    from kotc import Game, RandomAgent, starter_decks
    from kotc.dsl import load_edition
    from kotc.dsl.scenario_words import log_events

    def check(rs, events, n_cards):
        known = log_events(rs)
        for e in events:
            assert e.kind in known, e
            fields = known[e.kind]
            assert set(e.data) <= set(fields), e
            for key, value in e.data.items():
                held = fields[key]
                items = value if held in ("cards", "players") else [value]
                if held in ("player", "players", "card", "cards"):
                    assert all(isinstance(x, int) and not isinstance(x, bool)
                               for x in items if x is not None), e
                if held in ("card", "cards"):
                    assert all(0 <= x < n_cards for x in items), e

    seen: set[str] = set()
    for edition in ("11th", "12th", "13th", "17th"):
        rs = load_edition(edition)
        for seed, players in ((1, 2), (2, 3), (3, 2)):
            g = Game.new(rs, starter_decks(edition), seed=seed, players=players)
            agents = [RandomAgent(seed * 7 + i) for i in range(players)]
            while not g.is_over:
                g.apply(agents[g.current_player].act(g))
            check(rs, g.events, len(g.cards))
            seen |= {e.kind for e in g.events}
    assert {"move", "attack", "game_over", "link", "pop"} <= seen


# --- 3: every run visible ---------------------------------------------------------------


def test_the_log_shows_each_step_the_decision_it_answered_and_the_events(tmp_path,
                                                                        kotc):
    (tmp_path / "pierce.kscn").write_text(PASSING, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path), "-e", "17th", "--log")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].strip() == "log:"
    step = next(line for line in lines if "0: act battle" in line).strip()
    assert step.startswith("12:16  0: act battle  <- player 0 must decide 'Battle "
                           "Phase' [11th §Turn Order] (options: battle")
    assert step.endswith(": battle")
    assert "attack attacker=player 0 team=[ogre] victim=imp  [12th §Battles]" in out
    assert 'move card=imp name="Imp" to="grave" player=player 1' in out
    # a pass prints no log unless asked; --format json carries it with --log
    code, out, _ = kotc("test", str(tmp_path), "-e", "17th")
    assert "      log:" not in out
    code, out, _ = kotc("test", str(tmp_path), "-e", "17th", "--log", "--format", "json")
    (result,) = json.loads(out)["results"]
    first = result["log"][1]
    assert first["step"] == "0: act battle" and first["line"] == 12 \
        and first["col"] == 16
    assert first["decision"].startswith("player 0 must decide 'Battle Phase'")
    assert first["events"][0] == {"kind": "action", "fields": {
        "player": "player 0", "action": '"battle"'}, "cite": "12th §Battles"}


def test_a_failure_prints_the_log_up_to_it(tmp_path, kotc):
    stuck = PASSING.replace("pick ogre, pick imp }", "pick ogre, pick imp\n"
                                                     "              0: pick imp }")
    (tmp_path / "stuck.kscn").write_text(stuck, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path), "-e", "17th")
    assert code == 1
    assert "log up to the failure:" in out
    assert "0: pick imp  <-" in out  # the last step taken, where the imp is picked
    assert out.count("0: pick imp  <-") == 1  # and not the failing step after it
    code, out, _ = kotc("test", str(tmp_path), "-e", "17th", "--no-log")
    assert code == 1 and "log up to the failure:" not in out


# --- 4: --edition means one thing -------------------------------------------------------


def _names_edition(name: str) -> list:
    return [s for _, ss in LOADED if not isinstance(ss, RulesetError) for s in ss
            if name in s.editions]


def test_an_edition_runs_only_the_rulings_that_name_it(kotc):
    code, out, _ = kotc("test", str(SCENARIOS / "battle"), "--edition", "13th", "-q")
    battle = [s for s in _names_edition("13th") if "/battle/" in s.path]
    assert code == 0, out
    assert out.splitlines()[-1] == f"{len(battle)} passed, 0 failed"


def test_house_rules_run_the_rulings_of_the_editions_they_extend(tmp_path, kotc):
    # house rules over house rules over the 17th: the rulings that name the 17th run,
    # compared with the 17th; those that name only the 13th do not
    (tmp_path / "pierce.kscn").write_text(PASSING.replace(
        'editions "13th", "17th"', 'editions "13th", "17th", "table"'), encoding="utf-8")
    (tmp_path / "only13.kscn").write_text(PASSING.replace(
        'editions "13th", "17th"', 'editions "13th"').replace("Damage past",
                                                              "13th: damage past"),
                                          encoding="utf-8")
    (tmp_path / "table.kotc").write_text(
        'edition "table" number 18 extends "17th"\n  contents { "Setup", "Minions" }\n'
        'setup {\n  override starting_hp 40  @ "Setup"\n}\n', encoding="utf-8")
    (tmp_path / "friday.kotc").write_text(
        'edition "friday" number 19 extends "table"\n  contents { "Setup" }\n',
        encoding="utf-8")
    code, out, err = kotc("test", str(tmp_path), "--edition",
                          str(tmp_path / "friday.kotc"), "--format", "json")
    results = json.loads(out)["results"]
    # the ruling names `table`, the nearest edition friday extends: run as table
    assert [(r["scenario"], r["edition"], r["under"]) for r in results] == [
        ("Damage past a minion's HP pierces to its controller", "table", "friday")]
    code, out, _ = kotc("test", str(tmp_path), "--edition", "17th")
    assert code == 0 and out.splitlines()[-1] == "1 passed, 0 failed"


def test_a_house_rule_that_keeps_a_ruling_passes_it(tmp_path, kotc):
    (tmp_path / "pierce.kscn").write_text(PASSING, encoding="utf-8")
    (tmp_path / "house.kotc").write_text(
        'edition "house" number 18 extends "17th"\n  contents { "Keywords" }\n'
        'keywords {\n  keyword recycle "Recycle" (target: card)  @ "Keywords" {\n'
        '    move target to target.owner.deck bottom face_down\n  }\n}\n',
        encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path), "--edition", str(tmp_path / "house.kotc"))
    assert code == 0, out
    assert out.splitlines() == [
        f"PASS  {tmp_path / 'pierce.kscn'}::Damage past a minion's HP pierces to its "
        f"controller [house as 17th]", "1 passed, 0 failed"]


def _readme() -> str:
    return (HERE.parent / "README.md").read_text(encoding="utf-8")


def test_the_readme_says_what_the_battle_rulings_give_under_the_13th(kotc, monkeypatch):
    said = re.search(r"`kotc test tests/scenarios/battle --edition 13th` (?:gives|plays)"
                     r"[^`]*`(\d+ passed, \d+ failed)`", _readme())
    assert said, "the README says what the documented example gives"
    monkeypatch.chdir(HERE.parent)
    code, out, _ = kotc("test", "tests/scenarios/battle", "--edition", "13th")
    assert code == 0 and out.splitlines()[-1] == said.group(1)


def test_the_readme_says_what_its_house_rules_give(tmp_path, kotc, monkeypatch):
    readme = _readme()
    (house,) = re.findall(r"^```kotc\n(.*?)^```", readme, re.MULTILINE | re.DOTALL)
    (tmp_path / "house.kotc").write_text(house, encoding="utf-8")
    said = re.search(r"`kotc test --edition house\.kotc`[^`]*`([^`]+ changed by these "
                     r"rules)`", readme)
    assert said, "the README says what its house rules give"
    monkeypatch.chdir(HERE.parent)
    code, out, _ = kotc("test", "--edition", str(tmp_path / "house.kotc"), "-q",
                        "--no-log")
    assert code == 1 and out.splitlines()[-1] == said.group(1)
    changed = [line for line in out.splitlines() if line.startswith("CHANGED")]
    assert changed and all("[house as 17th]" in line and "(under the 17th: passed)"
                           in line for line in changed)
    shown = re.findall(r"^\s*(CHANGED  .*)$", readme, re.MULTILINE)
    assert shown and all(line in changed for line in shown)


# --- 5: what rulings can say ------------------------------------------------------------

FEATURES = """\
cards "{cards}/common.kcard"
card "Twin Forge" spell {{ edition 17  level 1  ability {{ Craft 2 level 1 pawns. }} }}

{scenario}
"""


def _run(tmp_path, kotc, scenario: str, *args: str) -> tuple[int, str]:
    (tmp_path / "f.kscn").write_text(
        FEATURES.format(cards=SCENARIOS / "cards", scenario=scenario), encoding="utf-8")
    code, out, err = kotc("test", str(tmp_path / "f.kscn"), *args)
    return code, out + err


def test_a_position_differs_by_edition_with_for(tmp_path, kotc):
    scenario = """\
scenario "A counter by each edition's name" {
  editions "12th", "13th"
  cite "Counters"
  position {
    turn 2  active player 0  at phase action
    for "12th" { player 0 { field: "Brute" as brute with offense by player 0 } }
    for "13th" { player 0 { field: "Brute" as brute with sword by player 0 } }
    player 1 { deck: 3 "Filler"  for "13th" { hp 20 } }
  }
  expect for "12th" { card brute counters: 1 offense by player 0  player 1 hp 35 }
  expect for "13th" { card brute counters: 1 sword by player 0  player 1 hp 20 }
}"""
    code, out = _run(tmp_path, kotc, scenario)
    assert code == 0 and out.splitlines()[-1] == "2 passed, 0 failed", out
    # without `for`, a counter one edition does not know is an error under that one
    code, out = _run(tmp_path, kotc, scenario.replace('for "12th" { player 0', 'for '
                                                      '"12th", "13th" { player 0'))
    assert code == 2 and "no counter 'offense'" in out and "(under the 13th edition)" \
        in out


def test_neutral_counter_names_read_as_each_editions_counter(tmp_path, kotc):
    scenario = """\
scenario "One more point of power" {
  editions "11th", "12th", "13th", "17th"
  cite "Counters" in "12th", "13th", "17th"
  cite "Ability Clarifications/Rulings" in "11th"
  position {
    turn 2  active player 0  at phase action
    player 0 { field: "Brute" as brute with power_up by player 0  deck: 3 "Filler" }
    player 1 { deck: 3 "Filler" }
  }
  actions {
    0: act pop brute counter power_up
    for "12th", "13th", "17th" { 1: pass  0: pass }
  }
  expect { card brute power 2, counters: none  event pop counter="power_up" }
}"""
    code, out = _run(tmp_path, kotc, scenario)
    assert code == 0 and out.splitlines()[-1] == "4 passed, 0 failed", out
    code, out = _run(tmp_path, kotc, scenario.replace("power_up by", "immortal by"))
    assert code == 2
    for edition in ("11th", "13th"):  # the 12th's Immortality, the 17th's Undying
        assert re.search(r"f.kscn:10:23: no counter that saves its host from being "
                         r"destroyed by an effect \(counters: [^)]*power_up \(\w+\)\) "
                         rf"\(under the {edition} edition\)", out), out


def test_a_position_may_start_inside_setup(tmp_path, kotc):
    scenario = """\
scenario "A mulligan from an opening hand written out" {
  editions "13th", "17th"
  cite "Setup and Deck Building"
  position {
    at setup mulligan  first player 1
    player 0 { hand: 5 "Filler"  deck: 10 "Filler" }
    player 1 { hand: "Brute" as brute, 4 "Filler"  deck: 10 "Filler" }
  }
  dice for "13th": 1, 1, 6, 6      // the 13th decides who goes first after the hands
  dice for "17th":
  actions {
    1: yes, pick brute, done
    0: no
    1: done                          // turn 1: player 1 sows nothing
  }
  expect { card brute in deck  player 1 hand count 5  player 0 hand count 5
           turn 1 player 1 }
}"""
    code, out = _run(tmp_path, kotc, scenario)
    assert code == 0 and out.splitlines()[-1] == "2 passed, 0 failed", out
    code, out = _run(tmp_path, kotc, scenario.replace("at setup mulligan",
                                                      "at setup mulligan  turn 2"))
    assert code == 2 and "a position inside setup is before turn 1: it has no 'turn'" \
        in out
    code, out = _run(tmp_path, kotc, scenario.replace("setup mulligan", "setup deal"))
    assert code == 2 and "no setup step 'deal' (steps: " in out


def test_exhausted_cards_are_counted(tmp_path, kotc):
    scenario = """\
scenario "Two tired minions" {
  editions "13th"
  cite "Battles"
  position {
    turn 2  active player 0  at phase action
    player 0 { field: "Brute" exhausted, "Imp", "Ogre" exhausted
               resources: "Filler" exhausted  deck: 3 "Filler" }
  }
  expect { player 0 field exhausted count 2  player 0 exhausted count 3
           player 0 hand exhausted count 0 }
}"""
    code, out = _run(tmp_path, kotc, scenario)
    assert code == 0, out
    code, out = _run(tmp_path, kotc, scenario.replace("exhausted count 3",
                                                      "exhausted count 2"))
    assert code == 1 and "player 0 exhausted count" in out and "actual:   3" in out


def test_cards_made_during_play_are_labelled_in_order(tmp_path, kotc):
    scenario = """\
scenario "Two pawns told apart" {
  editions "17th"
  cite "Craft"
  made first_pawn, second_pawn
  position {
    turn 2  active player 0  at phase action
    player 0 { hand: "Twin Forge" as forge  resources: "Filler"  deck: 3 "Filler" }
  }
  actions { 0: act cast forge  1: pass  0: pass  0: number 1, number 0 }
  expect { card first_pawn sp 1, hp 0, pawn  card second_pawn sp 0, hp 2 }
}"""
    code, out = _run(tmp_path, kotc, scenario)
    assert code == 0, out
    code, out = _run(tmp_path, kotc, scenario.replace(
        "second_pawn sp 0", "second_pawn sp 0  card third sp 0").replace(
        "made first_pawn, second_pawn", "made first_pawn, second_pawn, third"))
    assert code == 1 and "'third' names card 3 made during play, but 2 were made" in out
    code, out = _run(tmp_path, kotc, scenario.replace(
        "made first_pawn, second_pawn", "made first_pawn, forge"))
    assert code == 2 and "label 'forge' is given twice" in out


NEVER = """\
scenario "A Weakness Counter is not popped while the defenders are formed" {
  editions "12th"
  cite "Battles"
  position {
    turn 2  active player 0  at phase battle
    player 0 { field: "Brute" as brute with weakness by player 1  deck: 3 "Filler" }
    player 1 { field: "Imp" as imp  deck: 3 "Filler" }
  }
  actions {
    0: act battle, pick brute, pick player 1
    %s
    never 1: act pop brute counter weakness until {
      %s
      1: pick imp
    }
    1: act pop brute counter weakness
    0: pass
    1: pass
  }
}"""


def test_never_offered_over_a_stretch_of_actions(tmp_path, kotc):
    # player 1 may pop the counter it placed between battle steps, not while it
    # forms its defenders
    code, out = _run(tmp_path, kotc, NEVER % ("1: pass", ""))
    assert code == 0, out
    # over a stretch with a window between steps in it, the check fails, saying where
    code, out = _run(tmp_path, kotc, NEVER % ("", "1: pass"), "--no-log")
    assert code == 1, out
    assert "`1: act pop brute counter weakness` is offered (pop Brute#0 weakness) at " \
           "player 1 must decide 'act between battle steps'" in out
    assert "before step `1: pass` (16:10)" in out
    # a stretch where the player decides nothing could not fail: an error
    idle = (NEVER % ("1: pass", "")).replace("never 1:", "never 0:")
    code, out = _run(tmp_path, kotc, idle, "--no-log")
    assert code == 1 and "player 0 decides nothing over this stretch, so `never 0: " \
                         "act pop brute counter weakness` could not fail" in out


# --- 6: traps and messages --------------------------------------------------------------


def test_a_player_after_an_act_starts_the_next_check(tmp_path, kotc):
    text = PASSING.replace("expect { card imp in grave  player 1 hp 33 }",
                           "expect { cannot 1: act battle  player 1 hand count 0 }")
    text = text.replace("actions { 0: act battle, pick ogre, pick imp }\n", "")
    text = text.replace("dice 6\n", "")
    (tmp_path / "t.kscn").write_text(text, encoding="utf-8")
    code, out, err = kotc("test", str(tmp_path))
    # parsed as two checks: the first about player 1, who is not deciding
    assert code == 1 and "asks about player 1, who is not deciding" in out, out + err
    wrong = text.replace("cannot 1: act battle  player 1", "cannot 0: act summon ogre "
                                                            "player 1")
    (tmp_path / "t.kscn").write_text(wrong.replace(" hand count 0", ""),
                                     encoding="utf-8")
    code, _out, err = kotc("test", str(tmp_path))
    assert code == 2
    assert "t.kscn:11:16: 'summon' takes 1 argument (target: minion), given 2: ogre, " \
           "player 1 (under the 13th and 17th editions)" in err


def test_cards_may_follow_a_scenario(tmp_path, kotc):
    first, rest = PASSING.split("scenario", 1)
    (tmp_path / "late.kscn").write_text("scenario" + rest + first, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path))
    assert code == 0, out
    (tmp_path / "late.kscn").write_text(first, encoding="utf-8")
    code, _out, err = kotc("test", str(tmp_path))
    assert code == 2 and "late.kscn:1:1: the file holds no scenario" in err


def test_an_unanswered_window_says_how_to_let_it_pass(tmp_path, kotc):
    text = BETWEEN.format(cards=SCENARIOS / "cards", check="").replace(
        "    expect {  }\n    1: pass\n", "")
    (tmp_path / "w.kscn").write_text(text, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path), "--no-log")
    assert code == 1
    assert "`1: pick imp` is not legal now: no such option at player 1 must decide " \
           "'act between battle steps'" in out
    assert "Player 1 may act here (play rests at battle:" in out
    assert "write `1: pass` first" in out
    other = text.replace("    1: pick imp\n", "    0: pass\n    1: pick imp\n")
    (tmp_path / "w.kscn").write_text(other, encoding="utf-8")
    code, out, _ = kotc("test", str(tmp_path), "--no-log")
    assert "unscripted decision: player 1 must decide 'act between battle steps'" in out
    assert "the script's next step is `0: pass`. Player 1 may act here" in out
