"""Broken rule files are rejected with located messages, and never with a traceback.

Each file in `fixtures/broken/` is named for what breaks it and says so on its first
line. `CASES` maps it to the diagnostics it must produce (`line:col` and a fragment of
the message). The same files go through the loader, `kotc check` and `textx check`.
A case whose `bug` is set shows a known loader problem and is `xfail(strict=True)`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from kotc.dsl import RulesetError, load_path
from textx.cli import textx as textx_cli

ROOT = Path(__file__).resolve().parents[2]
BROKEN = Path(__file__).resolve().parent / "fixtures" / "broken"
ELEVENTH = ROOT / "editions" / "11th.kotc"


def locate(path: Path, needle: str) -> tuple[int, int]:
    """The 1-based line and column of the first `needle` in `path`."""
    text = path.read_text(encoding="utf-8")
    index = text.index(needle)
    line = text.count("\n", 0, index) + 1
    return line, index - text.rfind("\n", 0, index)


@dataclass(frozen=True)
class Loc:
    """One expected diagnostic; `file` defaults to the fixture itself."""

    line: int
    col: int
    fragment: str
    file: Path | None = None


@dataclass(frozen=True)
class Case:
    """What a fixture must produce. `more`: other diagnostics may come too."""

    errors: tuple[Loc, ...]
    bug: str | None = None
    more: bool = False


def one(line: int, col: int, fragment: str, file: Path | None = None,
        bug: str | None = None) -> Case:
    return Case((Loc(line, col, fragment, file),), bug)


_TRAP_ZONE = locate(ELEVENTH, "you.trap_zone")

CASES: dict[str, Case] = {
    # extends: cycles, unknown bases, broken bases
    "extends_cycle_a": one(2, 45, "extends cycle: extends_cycle_a -> extends_cycle_b -> "
                           "extends_cycle_a", file=BROKEN / "extends_cycle_b.kotc"),
    "extends_cycle_b": one(2, 45, "extends cycle: extends_cycle_b -> extends_cycle_a -> "
                           "extends_cycle_b", file=BROKEN / "extends_cycle_a.kotc"),
    "extends_self": one(2, 42, "extends cycle: extends_self -> extends_self"),
    "extends_unknown": one(2, 45, "extends unknown edition 'no_such_edition'"),
    "game_unnamed": one(2, 1, "edition 'game_unnamed' extends none, so it names its "
                        "game"),
    "game_changed": one(2, 1, "edition 'game_changed' says game 'Another Game', but it "
                        "extends '11th', of the game 'Keeper of the Cards'"),
    "extends_broken_base": one(6, 20, "'target.owner' (player) has no attribute 'limbo'",
                               file=BROKEN / "unknown_zone_in_move.kotc"),
    # merging: override, remove, duplicates, positions
    "override_nothing": one(5, 3, "override zone limbo: overrides nothing in base "
                            "edition '11th'"),
    "standalone_override": one(6, 3, "overrides nothing in this edition, which extends "
                               "none"),
    "redefine_without_override": one(5, 3, "zone hand is already defined by base edition "
                                     "'11th'; write `override`"),
    "remove_nothing": one(5, 3, "remove zone limbo: no such zone in base edition '11th'"),
    "duplicate_zone": one(6, 3, "zone limbo is defined twice in this file"),
    "duplicate_zone_across_sections": one(9, 3, "zone limbo is defined twice in this "
                                          "file"),
    "standalone_duplicate_across_sections": one(10, 3, "zone hand is defined twice in "
                                                "this file"),
    "remove_twice": one(
        6, 3, "term each"),
    "position_anchor_unknown": one(5, 31, "after untap: no phase 'untap' to place it by"),
    "remove_zone_still_used": Case(
        (Loc(*_TRAP_ZONE, "'you' (player) has no attribute 'trap_zone'", ELEVENTH),),
        more=True),
    # references between rules
    "unknown_zone_in_move": one(6, 20, "'target.owner' (player) has no attribute "
                                "'limbo'"),
    "unknown_stat_in_reset": one(6, 5, "unknown stat 'speed'"),
    "unknown_phase_in_is": one(5, 66, "unknown name for `phase is` 'upkeep'"),
    "unknown_keyword_call": one(6, 5, "unknown keyword 'bury'"),
    "unknown_counter_in_place": one(6, 5, "unknown counter 'shield'"),
    "unknown_action_in_opens": one(5, 3, "unknown action 'untap'"),
    "emit_unknown_event": one(6, 5, "unknown event 'conceded'"),
    "lose_on_unknown_event": one(5, 3, "unknown event 'conceded'"),
    "trigger_unknown_event": one(5, 40, "unknown event 'explode'"),
    "skip_unknown_step": one(6, 5, "unknown battle step or phase 'charge'"),
    "enlistable_names_unknown_caveat": one(
        5, 98, "unknown caveat 'flying' (known: cannot_attack, cannot_defend, "
               "counters_to_use, exhaust_to_summon, sacrifice_to_summon)"),
    "log_missing_field": one(5, 48, "event 'attack' has 3 fields (attacker, team, "
                                    "victim), given 1"),
    "log_value_for_text": one(5, 62, "field 'reason' of 'no_battle' is a text, "
                                     "written in quotes"),
    "form_into_no_list": one(5, 53, "form: 'battle.victim' is no list a record or "
                                    "the game keeps"),
    "append_to_no_list": one(5, 72, "append: 'game.turn' is no list a record or the "
                                    "game keeps"),
    "record_field_the_battle_does_not_keep": one(
        7, 19, "a battle keeps no field 'spoils'; its record may declare attack_dice, "
               "attack_team, attacker, defender, defense_dice, defense_team, forced, "
               "victim"),
    "end_unknown_flow": one(5, 48, "`end chain`: only a battle (`end battle`) or the "
                                   "game (`end game`) ends so"),
    "begin_unknown_flow": one(5, 48, "`begin chain`: only a battle is begun so"),
    "begin_unknown_field": one(5, 82, "the battle's record has no field 'spoils' (it "
                                      "declares attacker, defender, victim"),
    "begin_without_attacker": one(5, 48, "`begin battle` names its attacker"),
    "begin_field_mistyped": one(5, 77, "type error: the battle's attacker must be "
                                       "player, not cards"),
    "after_unknown_flow": one(5, 48, "`after phase`: a program waits so only for a "
                                     "sub-flow (chain, battle)"),
    "check_calls_unknown_keyword": one(5, 37, "unknown keyword 'smite'"),
    "windows_after_unknown_step": one(5, 3, "windows after 'rally': no battle step "
                                            "of that name"),
    "link_from_a_player": one(5, 47, "the card a link is of must be card"),
    "phase_with_two_windows": one(7, 5, "phase 'action' has one window; this is a "
                                        "second"),
    "top_link_without_responses": one(6, 3, "`resolve top_link then respond from "
                                            "active` needs a `respond ...` rule"),
    "link_rechecked_without_requires": one(5, 37, "`link rechecked` checks again the "
                                                  "`requires` of the action"),
    "link_without_chain": one(5, 64, "puts a program on the chain, but the edition "
                                     "has no chain rules"),
    "link_in_an_action_that_does_not_chain": one(6, 15, "action 'shout' puts a link "
                                                        "on the chain, but the chain "
                                                        "section's `chaining` does not "
                                                        "list it"),
    "keep_unknown_list": one(5, 3, "the game keeps no list 'spoils'; a ruleset may "
                                   "keep victims"),
    "drop_leavers_from_no_list": one(5, 3, "drop leavers from 'victim': no list of "
                                           "cards the battle's record declares"),
    "part_calls_unknown_keyword": one(5, 47, "unknown keyword 'smite'"),
    "step_does_unknown_part": one(5, 3, "unknown battle part 'charge'"),
    "choose_die_label_names_unknown": one(6, 5, "the label names '{front}', which is "
                                          "no name here"),
    "drop_from_no_list": one(5, 62, "drop: 'battle.victim' is no list a record keeps"),
    # a victim is a player where `is player` holds, a card where it does not
    "victim_used_as_card": one(7, 35, "argument 'target' of keyword 'inflict' must be "
                               "card, not player"),
    "enlistable_excepts_unknown_tag": one(5, 94, "unknown tag 'stunned'"),
    "zone_holds_unknown_card_type": one(5, 3, "unknown card type 'minion'"),
    "card_type_unknown_stat": one(5, 3, "unknown stat 'durability'"),
    "event_named_like_keyword": one(
        5, 3, "draw"),
    "zone_named_like_player_attribute": one(
        5, 3, "hp"),
    "unknown_builtin_term": one(5, 3, "unknown language construct 'teleport'"),
    "unknown_function": one(6, 9, "unknown function 'sqrt'"),
    "unknown_param_type": one(5, 24, "unknown type 'monster' for parameter 'target'"),
    "unknown_name_in_path": one(6, 10, "unknown name 'victim'"),
    "unknown_attribute": one(6, 8, "'target' (card) has no attribute 'flying'"),
    # citations
    "missing_citation": one(5, 3, "zone limbo has no citation"),
    "citation_not_in_contents": one(6, 63, "cites 'The Fields', which is not a section"),
    # the effect type checker
    "type_error_int_plus_card": one(6, 9, "`+` needs int on both sides, not int and "
                                    "card"),
    "type_error_condition_not_bool": one(6, 8, "a condition must be bool, not int"),
    "compare_player_with_int": one(6, 8, "cannot compare player with int"),
    "choose_from_int": one(6, 27, "choose needs a collection to choose from, not int"),
    "criterion_highest_not_int": one(5, 47, "a criterion's `highest` value must be int, "
                                     "not bool"),
    "wrong_arity_keyword": one(6, 5, "keyword 'draw' takes 2 arguments, given 1"),
    "parameter_declared_twice": one(5, 38, "parameter 'target' is declared twice"),
    "optional_param_before_required": one(5, 33, "parameter 'b' is required but "
                                          "follows an optional one"),
    "set_not_assignable": one(6, 9, "'target.owner' cannot be changed"),
    "move_top_and_bottom": one(6, 5, "`top and bottom` cannot both apply"),
    "prevent_outside_would": one(6, 5, "`prevent event` only works before the event"),
    "stop_outside_a_phrase": Case((
        Loc(6, 5, "`stop` ends the ability a phrase is part of"),
        Loc(12, 29, "`stop` ends the ability a phrase is part of"),
    )),
    "counter_phrase_without_template": one(
        5, 3, "counter phrase 'fire' names no `from_card` counter of the edition "
              "(those: named)"),
    "counter_phrase_states_no_effect": one(
        5, 3, "a counter phrase's text has the placeholders [name] and [effect], and "
              "no other (it has [name])"),
    "sub_abilities_without_program": Case((
        Loc(5, 3, "`sub_abilities each_sentence` needs a program"),
        Loc(6, 3, "clauses are parted by a text with no '.' in it, not '. '"),
    )),
    "sub_abilities_program_binds_nothing": one(
        5, 3, "the program of a sentence that selects no targets must bind `targets`"),
    "simultaneous_steps_apart": one(5, 3, "two or more consecutive battle steps"),
    "repeat_a_billion_times": Case((
        Loc(6, 12, "1000000000 repeats: a written count must be from 0 to 1000"),
        Loc(7, 10, "100000000 dice rolled at once: a written count must be"),
    )),
    "event_field_set_after": one(6, 9, "event fields can only be changed before"),
    "keyword_calls_itself": one(5, 3, "keyword 'echo' calls itself"),
    "keywords_call_each_other": Case((
        Loc(5, 3, "keyword 'ping' calls itself"),
        Loc(8, 3, "keyword 'pong' calls itself"),
    )),
    "term_calls_itself": one(5, 3, "term 'forever' is defined through itself"),
    # rules whose shape is wrong
    "reactive_counter_without_trigger": one(5, 3, "reactive counter 'ward' needs a "
                                            "trigger"),
    "inert_counter_with_body": one(5, 3, "inert counter 'mark' cannot have an effect"),
    "zone_face_up_and_down": one(5, 3, "zone 'limbo' is both face_up and face_down"),
    "deck_size_range_reversed": one(5, 22, "range 60..40 is empty"),
    # syntax
    "syntax_error_missing_brace": one(6, 1, "syntax error: Expected"),
    "syntax_error_unknown_section": one(4, 1, "syntax error: Expected"),
    "syntax_error_no_header": one(2, 1, "syntax error: Expected"),
    # several independent problems are all reported
    "several_errors": Case((
        Loc(5, 3, "zone limbo has no citation"),
        Loc(9, 3, "unknown stat 'durability'"),
        Loc(14, 9, "`+` needs int on both sides, not int and card"),
        Loc(15, 5, "unknown keyword 'bury'"),
    )),
}


def fixture(name: str) -> Path:
    return BROKEN / f"{name}.kotc"


def params() -> list:
    """pytest params over `CASES`, marking known bugs xfail(strict=True)."""
    out = []
    for name in sorted(CASES):
        bug = CASES[name].bug
        marks = [pytest.mark.xfail(strict=True, reason=bug)] if bug else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


def expected_lines(name: str) -> list[tuple[Path, str, Loc]]:
    """(file, `file:line:col:` suffix, expectation) for each expected diagnostic."""
    found = []
    for loc in CASES[name].errors:
        file = (loc.file or fixture(name)).resolve()
        found.append((file, f"{file.name}:{loc.line}:{loc.col}:", loc))
    return found


@pytest.fixture(scope="module")
def cache_env(tmp_path_factory) -> dict[str, str]:
    """An environment whose kotc disk cache is a fresh temporary directory."""
    return {**os.environ, "KOTC_CACHE_DIR": str(tmp_path_factory.mktemp("kotc-cache"))}


# --- the fixtures themselves -----------------------------------------------------


def test_every_fixture_has_a_case_and_every_case_a_fixture():
    on_disk = {p.stem for p in BROKEN.glob("*.kotc")}
    assert on_disk == set(CASES)
    assert len(on_disk) >= 34


@pytest.mark.parametrize("name", sorted(CASES))
def test_fixture_says_what_is_wrong_on_its_first_line(name):
    first = fixture(name).read_text(encoding="utf-8").splitlines()[0]
    assert re.match(r"//\s*\S", first), first


# --- the loader ------------------------------------------------------------------


@pytest.mark.parametrize("name", params())
def test_loader_reports_each_problem_at_its_place(name):
    with pytest.raises(RulesetError) as info:
        load_path(fixture(name), use_cache=False)
    got = [(Path(d.origin.file).resolve(), d.origin.line, d.origin.col, d.message)
           for d in info.value.diagnostics]
    for file, _, loc in expected_lines(name):
        wanted = (file, loc.line, loc.col)
        assert any((f, line, col) == wanted and loc.fragment in msg
                   for f, line, col, msg in got), f"{loc} not among {got}"
    if not CASES[name].more:
        assert len(got) == len(CASES[name].errors), got


def test_several_independent_errors_are_all_reported():
    with pytest.raises(RulesetError) as info:
        load_path(fixture("several_errors"), use_cache=False)
    places = {(d.origin.line, d.origin.col) for d in info.value.diagnostics}
    assert places == {(5, 3), (9, 3), (14, 9), (15, 5)}
    assert str(info.value).count("several_errors.kotc:") == 4


def test_a_base_removal_is_reported_where_the_base_still_uses_it():
    with pytest.raises(RulesetError) as info:
        load_path(fixture("remove_zone_still_used"), use_cache=False)
    in_base = [d for d in info.value.diagnostics
               if Path(d.origin.file).resolve() == ELEVENTH.resolve()]
    assert len(in_base) >= 2
    assert all("trap_zone" in d.message for d in in_base)


# --- files that cannot be decoded ------------------------------------------------

NOT_UTF8 = BROKEN / "encoding" / "not_utf8.kotc"


def test_a_file_that_is_not_utf8_is_reported_not_raised():
    with pytest.raises(RulesetError) as info:
        load_path(NOT_UTF8, use_cache=False)
    (diagnostic,) = info.value.diagnostics
    assert Path(diagnostic.origin.file).name == "not_utf8.kotc"
    assert "utf-8" in diagnostic.message.lower()


def test_an_undecodable_byte_is_located_at_its_line_and_column():
    raw = NOT_UTF8.read_bytes()
    bad = raw.index(b"\xff")
    line, col = raw.count(b"\n", 0, bad) + 1, bad - raw.rfind(b"\n", 0, bad)
    with pytest.raises(RulesetError) as info:
        load_path(NOT_UTF8, use_cache=False)
    (diagnostic,) = info.value.diagnostics
    assert (diagnostic.origin.line, diagnostic.origin.col) == (line, col)


def test_an_undecodable_sibling_does_not_break_a_good_file(tmp_path):
    (tmp_path / "not_utf8.kotc").write_bytes(NOT_UTF8.read_bytes())
    good = tmp_path / "good.kotc"
    good.write_text('edition "good" number 90 extends "11th"\n', encoding="utf-8")
    assert load_path(good, use_cache=False).lineage == ("good", "11th")


# --- kotc check ------------------------------------------------------------------



def kotc_check(paths: list[Path], env: dict[str, str]) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "kotc", "check", *map(str, paths)]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)


@pytest.fixture(scope="module")
def kotc_runs(cache_env) -> dict[str, subprocess.CompletedProcess]:
    """`kotc check` run on each fixture by itself, a few processes at a time."""
    names = sorted(CASES)
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        runs = pool.map(lambda name: kotc_check([fixture(name)], cache_env), names)
        return dict(zip(names, runs, strict=True))


@pytest.mark.parametrize("name", params())
def test_kotc_check_prints_located_problems_and_exits_2(name, kotc_runs):
    run = kotc_runs[name]
    output = run.stdout + run.stderr
    assert "Traceback" not in output
    assert run.returncode == 2, output
    for _, where, loc in expected_lines(name):
        line = next((x for x in output.splitlines() if where in x), None)
        assert line is not None, f"no line with {where!r} in:\n{output}"
        assert loc.fragment in line, line


def test_kotc_check_prints_every_problem_of_a_file(cache_env):
    run = kotc_check([fixture("several_errors")], cache_env)
    output = run.stdout + run.stderr
    assert run.returncode == 2, output
    for where in ("5:3:", "9:3:", "14:9:", "15:5:"):
        assert f"several_errors.kotc:{where}" in output, output


def test_kotc_check_passes_the_shipped_edition(cache_env):
    run = kotc_check([ELEVENTH], cache_env)
    assert run.returncode == 0, run.stdout + run.stderr


# --- textx check -----------------------------------------------------------------


def textx_check(path: Path, caplog) -> tuple[int, str]:
    """Run `textx check` in-process (the registered `kotc` language)."""
    caplog.clear()
    result = CliRunner().invoke(textx_cli, ["check", str(path)])
    return result.exit_code, caplog.text + result.output


@pytest.mark.parametrize("name", params())
def test_textx_check_rejects_each_fixture_with_its_first_located_message(
        name, caplog, monkeypatch):
    monkeypatch.setenv("KOTC_CACHE_DIR", "off")
    code, output = textx_check(fixture(name), caplog)
    assert "Traceback" not in output
    assert code != 0, output
    first = min(expected_lines(name), key=lambda e: (str(e[0]), e[2].line, e[2].col))
    file, _, loc = first
    assert f"{file}:{loc.line}:{loc.col}:" in output, output
    assert loc.fragment.removeprefix("syntax error: ") in output, output


def test_textx_check_lists_the_other_problems_too(caplog, monkeypatch):
    monkeypatch.setenv("KOTC_CACHE_DIR", "off")
    code, output = textx_check(fixture("several_errors"), caplog)
    assert code != 0
    for where in ("5:3:", "9:3:", "14:9:", "15:5:"):
        assert f"several_errors.kotc:{where}" in output, output


@pytest.mark.parametrize("path, ok", [(ELEVENTH, True),
                                      (fixture("unknown_keyword_call"), False)],
                         ids=["11th", "unknown_keyword_call"])
def test_the_textx_command_itself(path, ok, cache_env):
    command = shutil.which("textx") or pytest.skip("the `textx` command is not installed")
    run = subprocess.run([command, "check", str(path)], capture_output=True, text=True,
                         env=cache_env, timeout=120)
    output = run.stdout + run.stderr
    assert "Traceback" not in output
    if ok:
        assert run.returncode == 0 and f"{path}: OK." in output, output
    else:
        assert run.returncode != 0
        assert f"{path}:6:5: unknown keyword 'bury'" in output, output
