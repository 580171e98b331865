"""The `kotc` command as a user sees it: output, exit status, located messages."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from kotc.cli import main as cli
from kotc.dsl import Diagnostic, RulesetError, ast, edition_files, load_edition
from kotc.dsl.language import EDITIONS_DIR, MAX_NESTING
from kotc.dsl.limits import bounds

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(EDITIONS_DIR.glob("*.kotc"))
ANSI = "\033["

# A small edition on top of a shipped one, which makes it a whole, playable game.
TINY = '''\
edition "tiny" number 1 extends "11th"
  contents { "Fields" }
zones {
  zone vault "Vault" private  @ "Fields"
}
'''
# Line 4, column 3: the zone is not cited.
UNCITED = TINY.replace('  @ "Fields"', "")


def loadable() -> list[str]:
    names = []
    for name in sorted(edition_files()):
        try:
            load_edition(name)
        except RulesetError:
            continue
        names.append(name)
    return names


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- kotc editions ----------------------------------------------------------------


def test_editions_lists_every_file_in_editions(kotc):
    code, out, _ = kotc("editions")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["EDITION", "NUMBER", "GAME", "EXTENDS", "SUMMARY"]
    assert len(lines) == 1 + len(SHIPPED)
    for name in edition_files():
        assert any(line.split()[0] == name for line in lines[1:]), name


def test_editions_as_json_names_each_file_its_number_game_and_base(kotc):
    code, out, _ = kotc("editions", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert {(ROOT / r["file"]).resolve() for r in rows} == {p.resolve() for p in SHIPPED}
    by_name = {r["edition"]: r for r in rows}
    for row in rows:
        assert isinstance(row["number"], int)
        assert isinstance(row["game"], str) and row["game"]
        assert row["extends"] is None or row["extends"] in by_name
        if row["extends"] is not None:  # an edition plays its base's game
            assert row["game"] == by_name[row["extends"]]["game"]
        assert row["game"] == load_edition(row["edition"]).game
    # each game's editions together, oldest first
    keys = [(r["game"], r["number"]) for r in rows]
    assert keys == sorted(keys)


# --- kotc check -------------------------------------------------------------------


def test_check_passes_the_shipped_editions(kotc):
    code, out, err = kotc("check", str(EDITIONS_DIR))
    assert (code, err) == (0, ""), out
    assert out.splitlines()[-1] == f"{len(SHIPPED)} files checked, 0 errors"


def test_check_locates_a_problem_relative_to_the_current_directory(kotc, in_tmp):
    (in_tmp / "bad.kotc").write_text(UNCITED, encoding="utf-8")
    code, out, _ = kotc("check", "bad.kotc")
    assert code == 2
    first, *_, summary = out.splitlines()
    assert first.startswith("bad.kotc:4:3: ") and "citation" in first
    assert summary == "1 file checked, 1 error"


def test_check_reports_a_syntax_error_with_its_place(kotc, in_tmp):
    (in_tmp / "broken.kotc").write_text(TINY.replace("zones {", "zones {{"),
                                        encoding="utf-8")
    code, out, err = kotc("check", str(in_tmp / "broken.kotc"))
    assert code == 2 and err == ""
    assert re.match(r"broken\.kotc:3:\d+: syntax error", out), out


def test_check_walks_directories_and_counts_files(kotc, in_tmp):
    (in_tmp / "rules").mkdir()
    (in_tmp / "rules" / "good.kotc").write_text(TINY, encoding="utf-8")
    (in_tmp / "rules" / "bad.kotc").write_text(UNCITED, encoding="utf-8")
    (in_tmp / "rules" / "notes.txt").write_text("not a rule file", encoding="utf-8")
    code, out, _ = kotc("check", "rules")
    assert code == 2
    assert out.splitlines()[-1] == "2 files checked, 1 error"
    assert out.startswith("rules/bad.kotc:4:3:")


@pytest.mark.parametrize("setup, fragment", [
    (lambda p: None, "no such file or directory"),
    (lambda p: p.write_bytes(b"edition \xff\xfe"), "not a UTF-8"),
    (lambda p: p.write_text("", encoding="utf-8"), "syntax error"),
    (lambda p: p.mkdir(), "no .kotc files in this directory"),
], ids=["missing", "not-utf8", "empty", "empty-directory"])
def test_check_turns_bad_input_into_a_located_message(kotc, in_tmp, setup, fragment):
    setup(in_tmp / "nope.kotc")
    code, out, err = kotc("check", "nope.kotc")
    assert code == 2, out
    location, message = out.split(" ", 1)
    assert location.startswith("nope.kotc:1:") and message.startswith(fragment)
    assert "Traceback" not in out + err


def test_check_as_json(kotc, in_tmp):
    (in_tmp / "bad.kotc").write_text(UNCITED, encoding="utf-8")
    (in_tmp / "good.kotc").write_text(TINY, encoding="utf-8")
    code, out, _ = kotc("check", "bad.kotc", "good.kotc", "--format", "json")
    assert code == 2
    data = json.loads(out)
    assert data["files"] == ["bad.kotc", "good.kotc"]
    assert data["errors"] == 1
    (problem,) = data["diagnostics"]
    assert (problem["file"], problem["line"], problem["col"]) == ("bad.kotc", 4, 3)
    assert "citation" in problem["message"]


def test_check_json_when_clean(kotc):
    code, out, _ = kotc("check", str(EDITIONS_DIR), "--format", "json")
    assert code == 0
    assert json.loads(out)["errors"] == 0


def test_an_unexpected_failure_is_a_located_problem_not_a_traceback(
        kotc, in_tmp, monkeypatch):
    (in_tmp / "good.kotc").write_text(TINY, encoding="utf-8")

    def explode(path):
        raise ValueError("boom")

    monkeypatch.setattr(cli, "load_path", explode)
    code, out, _ = kotc("check", "good.kotc")
    assert code == 2
    assert out.startswith("good.kotc:1:1: internal error (ValueError: boom); please")


def test_absurdly_deep_nesting_is_a_located_problem(kotc, in_tmp):
    deep = "(" * 5000 + "true" + ")" * 5000
    text = TINY.replace('private  @ "Fields"', f'private  @ "Fields"\n}}\nendgame {{\n'
                        f'  lose deep "Deep" when {deep}  @ "Fields"')
    (in_tmp / "deep.kotc").write_text(text, encoding="utf-8")
    code, out, err = kotc("check", "deep.kotc")
    assert code == 2 and err == ""
    # located at the first parenthesis past the bound (the section's brace is one)
    line = text[:text.index(deep)].count("\n") + 1
    col = text.index(deep) - text.rfind("\n", 0, text.index(deep)) + MAX_NESTING - 1
    assert out.startswith(f"deep.kotc:{line}:{col}: syntax error: brackets nested more")


def test_a_failing_flow_check_is_a_located_problem_not_a_traceback(
        kotc, in_tmp, monkeypatch):
    (in_tmp / "good.kotc").write_text(TINY, encoding="utf-8")

    def explode(ruleset):
        raise KeyError("phase")

    monkeypatch.setattr(cli, "graph_diagnostics", explode)
    code, out, _ = kotc("check", "good.kotc")
    assert code == 2
    assert out.startswith("good.kotc:1:1: internal error (KeyError: 'phase')")


def test_graph_checks_plug_into_check(kotc, in_tmp, monkeypatch):
    (in_tmp / "good.kotc").write_text(TINY, encoding="utf-8")
    seen = []

    def graph_problem(ruleset):
        seen.append(ruleset.name)
        return [Diagnostic(ruleset.origin, "phase 'x' is never reached")]

    monkeypatch.setattr(cli, "graph_diagnostics", graph_problem)
    code, out, _ = kotc("check", "good.kotc")
    assert seen == ["tiny"]
    assert code == 2
    assert "good.kotc:1:1: phase 'x' is never reached" in out


def test_graph_hook_passes_a_shipped_edition():
    assert cli.graph_diagnostics(load_edition(EDITIONS_DIR / "11th.kotc")) == []


@given(st.text(alphabet=st.sampled_from('{}"@ .:=()\nzonedckabs0123'), max_size=30),
       st.integers(0, len(TINY)))
def test_check_never_fails_with_a_traceback_on_mangled_input(tmp_path_factory, junk, at):
    path = tmp_path_factory.mktemp("fuzz") / "mangled.kotc"
    path.write_text(TINY[:at] + junk + TINY[at:], encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["check", str(path)])
    assert err.getvalue() == ""
    assert "internal error" not in out.getvalue(), out.getvalue()
    lines = out.getvalue().splitlines()
    if code == 2:
        assert re.search(r"mangled\.kotc:\d+:\d+: \S", lines[0]), lines
    else:
        assert code == 0 and lines == ["1 file checked, 0 errors"]


# --- kotc show --------------------------------------------------------------------


@pytest.mark.parametrize("section", ast.SECTIONS)
@pytest.mark.parametrize("name", loadable())
def test_show_each_section_with_citations(kotc, name, section):
    ruleset = load_edition(name)
    code, out, err = kotc("show", name, section)
    assert (code, err) == (0, "")
    rules = ruleset.rules(section)
    noun = "rule" if len(rules) == 1 else "rules"
    assert f"{section} ({len(rules)} {noun})" in out
    for rule in rules:
        cite = rule.cite
        assert f"{cite.edition} §{cite.section}" in out
        if cite.interpretation:
            assert f"[interpretation: {cite.interpretation}]" in out
    if section == "limits":  # kotc's own bounds are shown where none is stated
        assert all(f"limit {n} " in out for n in bounds(ruleset))
    elif not rules:
        assert f"{name} has no {section} rules" in out


def test_show_marks_inherited_rules_with_their_edition(kotc):
    derived = [n for n in loadable() if len(load_edition(n).lineage) > 1]
    if not derived:
        pytest.skip("no loadable edition extends another")
    ruleset = load_edition(derived[-1])
    code, out, _ = kotc("show", ruleset.name)
    assert code == 0
    for base in ruleset.lineage[1:]:
        mine = [r for r in ruleset.rules() if r.cite and r.cite.edition == base]
        if mine:
            assert f"(inherited from {base})" in out
    assert f"Extends: {' <- '.join(ruleset.lineage[1:])}" in out


def test_show_reads_like_the_rule_files(kotc):
    code, out, _ = kotc("show", str(EDITIONS_DIR / "11th.kotc"), "keywords")
    assert code == 0
    assert '  keyword draw "Draw" (who: player, n: int) {\n    repeat n {\n' in out
    assert "      11th §Turn Order\n" in out


def test_show_a_file_by_path(kotc, in_tmp):
    (in_tmp / "tiny.kotc").write_text(TINY, encoding="utf-8")
    code, out, _ = kotc("show", "tiny.kotc", "zones")
    assert code == 0
    assert '  zone vault "Vault" private\n      tiny §Fields\n' in out
    assert 'zone deck "Deck" restricted ordered face_down' in out
    assert "(inherited from 11th)" in out


def test_show_as_json(kotc, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = kotc("show", "11th", "zones", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["edition"] == "11th"
    assert list(data["sections"]) == ["zones"]
    zones = data["sections"]["zones"]
    assert [z["name"] for z in zones] == list(load_edition("11th").zones)
    assert all(z["origin"].startswith("editions/11th.kotc:") for z in zones)
    assert all(z["citation"]["edition"] == "11th" for z in zones)


def test_show_unknown_edition_lists_the_known_ones(kotc):
    code, out, err = kotc("show", "99th")
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert "unknown edition '99th'" in line
    assert all(name in line for name in edition_files())


@pytest.mark.parametrize("argv", [("diff", "12th", "99th"), ("graph", "99th"),
                                  ("test", "--edition", "99th")])
def test_an_unknown_edition_is_named_without_a_place_in_a_file(kotc, argv):
    code, out, err = kotc(*argv)
    assert code == 2
    assert err.strip().splitlines()[0] == (
        f"99th: unknown edition (known: {', '.join(edition_files())})")


def test_show_unknown_section_lists_the_sections(kotc):
    code, out, err = kotc("show", "11th", "rulez")
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert "unknown section 'rulez'" in line
    assert ", ".join(ast.SECTIONS) in line


def test_show_a_file_that_does_not_load(kotc, in_tmp):
    (in_tmp / "bad.kotc").write_text(UNCITED, encoding="utf-8")
    code, out, err = kotc("show", "bad.kotc")
    assert code == 2 and out == ""
    assert err.startswith("bad.kotc:4:3:")
    assert "does not load" in err.splitlines()[-1]


# --- flags, help, colour ----------------------------------------------------------


@pytest.mark.parametrize("argv", [
    [], ["show"], ["check"], ["frobnicate"], ["check", "editions", "--format", "xml"],
    ["editions", "--colour"],
])
def test_bad_usage_exits_2_with_the_usage_message(kotc, argv):
    code, out, err = kotc(*argv)
    assert code == 2
    assert err.startswith("usage: kotc")


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["show", "--help"],
                                  ["editions", "--help"]])
def test_help_teaches_with_examples(kotc, argv):
    code, out, _ = kotc(*argv)
    assert code == 0
    assert "examples:\n  kotc " in out
    head = re.split(r"\n(?:positional arguments|options):", out)[0]
    description = head.split("\n\n")[1:]
    assert description
    assert not any(line.startswith(" ") for p in description for line in p.splitlines())


def test_show_help_names_every_section(kotc):
    _, out, _ = kotc("show", "--help")
    flat = " ".join(out.split())
    assert all(s in flat for s in ast.SECTIONS)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color(monkeypatch, kotc):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert ANSI not in kotc("check", str(EDITIONS_DIR))[1]  # captured: no tty

    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert cli.main(["check", str(EDITIONS_DIR)]) == 0
    assert ANSI in terminal.getvalue()

    monkeypatch.setenv("NO_COLOR", "1")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert cli.main(["check", str(EDITIONS_DIR)]) == 0
    assert ANSI not in terminal.getvalue()


def test_version(kotc):
    code, out, _ = kotc("--version")
    assert code == 0 and out.startswith("kotc ")


# --- the installed console script -------------------------------------------------


def test_console_script_exit_status_and_messages(in_tmp):
    scripts = str(Path(sys.executable).parent)
    kotc = shutil.which("kotc", path=scripts) or shutil.which("kotc")
    if kotc is None:
        pytest.skip("the kotc console script is not installed (pip install -e .)")
    (in_tmp / "bad.kotc").write_text(UNCITED, encoding="utf-8")
    result = subprocess.run([kotc, "check", "bad.kotc", str(EDITIONS_DIR)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.startswith("bad.kotc:4:3: ")
    assert result.stdout.splitlines()[-1] == f"{1 + len(SHIPPED)} files checked, 1 error"


# --- deck and scenario files found wanting by fuzzing the command line -------------

RAIDERS = ROOT / "decks" / "17th" / "raiders.kdeck"
LONG_NAME = "A" * 300  # longer than any file system allows a name


def raiders_copy(folder: Path, old: str, new: str) -> Path:
    """The 17th edition's Raiders deck, with its cards, copied and edited."""
    shutil.copy(RAIDERS.with_suffix(".kcard"), folder)
    deck = folder / "deck.kdeck"
    text = RAIDERS.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new), encoding="utf-8")
    return deck


def test_a_card_count_above_the_bound_is_located(kotc, in_tmp):
    raiders_copy(in_tmp, '4 "Ember Sprite"', '1001 "Ember Sprite"')
    code, out, err = kotc("deck", "check", "deck.kdeck")
    assert code == 2 and out == ""
    assert "deck.kdeck:3:3: 'Ember Sprite': a count must be from 1 to 1000, not 1001" \
        in err


def test_a_card_file_name_too_long_is_located_at_the_deck(kotc, in_tmp):
    raiders_copy(in_tmp, 'cards "raiders.kcard"', f'cards "{LONG_NAME}.kcard"')
    code, out, err = kotc("deck", "check", "deck.kdeck")
    assert code == 2 and out == ""
    assert err.startswith(f"deck.kdeck:2:1: card file '{LONG_NAME}.kcard' cannot be "
                          f"read: ")
    assert "Errno" not in err


SCENARIO = '''\
card "Brute" minion { power 1  toughness 4  cost 1 }
scenario "one battle" {
  editions "13th"
  cite "Battles"
  position { at phase battle  player 0 { field: "Brute" as a }
             player 1 { field: "Brute" as b exhausted } }
  dice 6
  actions { 0: act battle, pick a, pick b }
  expect { card b in grave }
}
'''


@pytest.mark.parametrize(("old", "new", "message"), [
    ("dice 6", "dice 7, 4, 5", "7:3: a die shows 1 to 6, not 7"),
    ("dice 6", "dice 0", "7:3: a die shows 1 to 6, not 0"),
    ("dice 6", "dice -1", "7:3: a die shows 1 to 6, not -1"),
    ('"Brute" as a }', '"Brute" as a  deck: 1001 "Brute" }',
     "5:69: 'Brute': a count must be from 1 to 1000, not 1001"),
    ('"Brute" as a }', '"Brute" as a with 1001 sword by player 0 }',
     "5:62: 'sword' counters: a count must be from 1 to 1000, not 1001"),
    ("at phase battle", "players 1001 at phase battle",
     "5:3: a game seats at most 1000 players, not 1001"),
    ('card "Brute"', f'cards "{LONG_NAME}.kcard"\ncard "Brute"',
     f"1:1: card file '{LONG_NAME}.kcard' cannot be read: "),
    ('editions "13th"', f'editions "13th", "{LONG_NAME}.kotc"',
     "3:20: edition file cannot be read ("),
])
def test_a_scenario_beyond_what_can_be_played_is_located_and_not_run(
        kotc, in_tmp, old, new, message):
    assert old in SCENARIO
    (in_tmp / "s.kscn").write_text(SCENARIO.replace(old, new, 1), encoding="utf-8")
    code, out, err = kotc("test", "s.kscn")
    assert code == 2 and out == ""
    assert f"s.kscn:{message}" in err and "nothing was run" in err


def test_huge_scenario_counts_are_refused_as_the_file_loads(in_tmp):
    from kotc.dsl.scenarios import load_scenarios

    huge = SCENARIO.replace('"Brute" as a }', '"Brute" as a  deck: 100000000 "Brute" '
                            'with 99999999999999999999 sword by player 0 }')
    (in_tmp / "s.kscn").write_text(huge, encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load_scenarios(in_tmp / "s.kscn")
    assert [d.message.split(":")[0] for d in err.value.diagnostics] == [
        "'Brute'", "'sword' counters"]


def test_a_new_game_deck_name_too_long_is_located(kotc, in_tmp):
    start = f'  new game {{ decks "{LONG_NAME}.kdeck" }}\n}}\n'
    game = SCENARIO.split("  position")[0] + start
    (in_tmp / "s.kscn").write_text(game, encoding="utf-8")
    code, _out, err = kotc("test", "s.kscn")
    assert code == 2
    assert f"s.kscn:5:3: deck file '{LONG_NAME}.kdeck' cannot be read: " in err


@pytest.mark.parametrize(("argv", "message"), [
    (["."], ".:1:1: no .kscn files in this directory"),
    (["-k", "no scenario is named like this"],
     "kotc test: name the ruling files or folders to run (there is no tests/scenarios/ "
     "folder here to run by default)"),
    ([str(Path(__file__).parents[1] / "scenarios"), "-k",
      "no scenario is named like this"],
     "kotc test: no scenario matches -k 'no scenario is named like this'; nothing was "
     "run"),
])
def test_running_no_scenario_at_all_is_an_error(kotc, in_tmp, argv, message):
    code, out, err = kotc("test", *argv)
    assert code == 2 and "passed" not in out
    assert message in err
