"""`kotc fuzz` as a user sees it: each deliberately broken fixture edition is caught,
the counterexample it writes fails under `kotc test` on the broken invariant, and
bad input is located with exit status 2.

The fixtures in `fixtures/fuzz/` are named for what breaks them. A fourth
breakage the issue names, "a keyword that puts a card in two zones", cannot be
written in the rules language: every move the engine makes takes the card out of
its old zone first, so no program can leave it in two. The nearest a rule file
can come is `clone_leaves_pawn_in_hand.kotc`: a copy of a card (a pawn) left in a
zone it may not be; the check for two places is exercised on a state broken by
hand (`test_engine_stateful.py`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "fuzz"

# fixture -> (invariants it breaks, what the scenario's failed expectation reads)
BROKEN = {
    "recovery_forgets_to_unexhaust": ({"recovery_unexhausts"}, "exhausted"),
    "recovery_ignores_fatigue": ({"fatigue"}, "exhausted"),
    "clone_leaves_pawn_in_hand": ({"pawn_zone", "pawns_only_on_battlefield"},
                                  "hand count"),
    "counter_drains_hp_below_zero": ({"hp_never_negative"}, "hp"),
}


@pytest.fixture
def edition_copy(tmp_path, request):
    """A broken fixture copied into a fresh folder (the scenario is written beside it)."""
    path = tmp_path / f"{request.param}.kotc"
    shutil.copy(FIXTURES / path.name, path)
    return path


@pytest.mark.parametrize("edition_copy", sorted(BROKEN), indirect=True)
def test_fuzz_catches_a_broken_edition_and_its_scenario_fails_under_kotc_test(
        kotc, edition_copy):
    broken, expectation = BROKEN[edition_copy.stem]
    code, out, err = kotc("fuzz", str(edition_copy), "--examples", "100",
                         "--shrink-seconds", "5", "--format", "json")
    assert code == 1, err
    report = json.loads(out)
    assert {v["invariant"] for v in report["violations"]} & broken
    assert all(v["label"] and v["where"] and v["detail"] for v in report["violations"])
    assert report["scenario"]["verified"], report["scenario"]
    assert report["scenario"]["form"] == "a position"  # the short form
    scenario = edition_copy.with_name(f"{edition_copy.stem}.fuzz.kscn")
    assert scenario.is_file() and not list(edition_copy.parent.glob("*.part"))
    assert "exploring" in err  # the progress bar, on standard error

    code, out, err = kotc("test", str(scenario))
    assert code == 1, out + err
    assert "0 passed, 1 failed" in out
    assert expectation in out


def test_the_written_scenario_passes_once_the_rules_are_fixed(kotc, tmp_path):
    broken = tmp_path / "recovery_forgets_to_unexhaust.kotc"
    shutil.copy(FIXTURES / broken.name, broken)
    assert kotc("fuzz", str(broken), "--shrink-seconds", "2")[0] == 1
    scenario = tmp_path / "recovery_forgets_to_unexhaust.fuzz.kscn"
    # the fix: the 12th edition's own Recovery Phase, which the fixture overrode
    text = broken.read_text(encoding="utf-8")
    start = text.index("turn {")
    broken.write_text(text[:start], encoding="utf-8")
    command = [sys.executable, "-m", "kotc", "test", str(scenario)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 0 failed" in done.stdout


def test_text_report_names_the_invariant_the_card_and_the_rule(kotc, tmp_path):
    broken = tmp_path / "recovery_forgets_to_unexhaust.kotc"
    shutil.copy(FIXTURES / broken.name, broken)
    out_file = tmp_path / "found.kscn"
    code, out, _err = kotc("fuzz", str(broken), "--out", str(out_file),
                          "--shrink-seconds", "2")
    assert code == 1
    assert "recovery_unexhausts: Recovery unexhausts every card that is not fatigued" \
        in out
    assert "still exhausted after the recovery phase's program ran" in out
    assert "[recovery_forgets_to_unexhaust §Turn Order]" in out
    assert out_file.is_file() and "found.kscn" in out


def test_a_shipped_edition_holds_for_a_few_runs(kotc):
    code, out, _err = kotc("fuzz", "13th", "--examples", "5", "--steps", "5",
                          "--warmup", "100", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["violations"] == [] and report["runs"] >= 1


@pytest.mark.parametrize("argv, words", [
    (["no_such_edition"], "unknown edition: no_such_edition"),
    (["missing.kotc"], "no such file: missing.kotc"),
    (["12th", "--examples", "0"], "--examples must be at least 1"),
    (["12th", "--decks", "missing.kdeck"], "missing.kdeck"),
    (["12th", "--out", "no/such/dir/x.kscn"], "no such directory"),
])
def test_bad_input_exits_2_with_a_message_and_no_traceback(kotc, argv, words):
    code, out, err = kotc("fuzz", *argv)
    assert code == 2
    assert words in err and "Traceback" not in err + out


def test_a_ruleset_that_does_not_load_is_located(kotc, tmp_path):
    bad = tmp_path / "bad.kotc"
    bad.write_text('edition "bad" number 99 extends "12th"\n'
                   'invariants {\n  invariant x "X" you.hp + 1 @ "Endgame"\n}\n',
                   encoding="utf-8")
    code, _out, err = kotc("fuzz", str(bad))
    assert code == 2
    assert "bad.kotc:3:" in err and "must be bool" in err


def test_a_written_step_names_an_option_by_its_number():
    # an option's label spells out its program; the scenario says `option N`
    from kotc.checking.fuzz_scenario import _label_step
    from kotc.dsl import load_edition
    from kotc.engine.decks import default_decks
    from kotc.engine.game import Game
    from kotc.play.agents import RandomAgent

    rs = load_edition("12th")
    g = Game.new(rs, default_decks(rs)[0], seed=2)
    while not any(a.kind == "option" for a in g.legal_actions()):
        g.apply(RandomAgent(0).act(g))
    second = g.legal_actions()[1]
    assert second.label.startswith("option 2: ") and _label_step(g, second) == "option 2"


BAD_INPUT = Path(__file__).parent / "fixtures" / "bad_input"


def test_an_out_that_is_a_directory_is_refused_before_exploring(kotc, tmp_path):
    out = tmp_path / "adir"
    out.mkdir()
    code, stdout, err = kotc("fuzz", str(BAD_INPUT / "hand_is_never_a_pawn.kotc"),
                             "--examples", "1", "--shrink-seconds", "1", "--out",
                             str(out))
    assert code == 2 and stdout == ""
    assert f"kotc fuzz: --out: {out} is a directory" in err
    assert "exploring" not in err  # refused before any run
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]


def test_a_scenario_that_cannot_be_written_leaves_no_part_file(tmp_path):
    from kotc.cli.files import write_whole

    out = tmp_path / "adir"
    out.mkdir()  # made after the check before exploring: the final replace fails
    with pytest.raises(OSError):
        write_whole(out, "scenario text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]


def test_an_edition_no_deck_can_be_made_for_is_refused(kotc):
    code, out, err = kotc("fuzz", str(BAD_INPUT / "no_deck_to_make.kotc"))
    assert code == 2 and out == ""
    assert err.startswith("kotc fuzz: cannot make a deck for the nb edition")
    assert "Traceback" not in err


def test_a_deck_that_is_not_legal_is_not_fuzzed(kotc, tmp_path):
    shipped = Path(__file__).parents[2] / "decks" / "17th"
    shutil.copy(shipped / "raiders.kcard", tmp_path)
    deck = tmp_path / "d.kdeck"
    deck.write_text((shipped / "raiders.kdeck").read_text(encoding="utf-8")
                    .replace('4 "Ember Sprite"', '25 "Ember Sprite"'), encoding="utf-8")
    code, out, err = kotc("fuzz", "17th", "--decks", str(deck), "--examples", "1")
    assert code == 2 and out == ""
    assert "d.kdeck:2:1: deck \"Raiders\" is not legal under the 17th edition" in err
    assert "kotc deck check" in err


def test_a_written_position_keeps_who_had_a_card_in_play_last(tmp_path):
    # a card another player had in play lies in its owner's grave: the position
    # written for it says so, and a scenario read from it places it so
    from kotc.checking.fuzz_scenario import _entry
    from kotc.checking.scenario_run import run_scenario
    from kotc.dsl import load_edition
    from kotc.dsl.scenarios import load_scenarios
    from kotc.engine.decks import default_decks
    from kotc.engine.game import Game, card_pool

    rs = load_edition("17th")
    minion = next(d for d in card_pool(default_decks(rs)[0]) if d.type == "minion")
    g = Game.position(rs, [minion])
    card = g.put(minion.name, 1, "grave", last_controller=0)
    entry = _entry(g, g.engine, card, "it")
    assert entry.endswith("as it last controlled by player 0")
    path = tmp_path / "last.kscn"
    path.write_text(
        f'card "{minion.name}" minion {{ power 1  toughness 1  cost 1 }}\n'
        f'scenario "kept" {{\n  editions "17th"\n  cite "Ghost-play"\n'
        f"  position {{ at phase action  player 1 {{ grave: {entry} }} }}\n"
        f"  expect {{ card it in grave of player 1, last controller player 0 }}\n}}\n",
        encoding="utf-8",
    )
    (scenario,) = load_scenarios(path)
    assert run_scenario(scenario, "17th").status == "passed"
    wrong = path.read_text(encoding="utf-8").replace("last controller player 0",
                                                     "last controller player 1")
    path.write_text(wrong, encoding="utf-8")
    (scenario,) = load_scenarios(path)
    result = run_scenario(scenario, "17th")
    assert result.status == "failed"
    assert "last controller" in str(result.failures[0])
