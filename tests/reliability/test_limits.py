"""Resource bounds (issue 26, item 4): a card's huge stat refused where it is
written; a roll, a repeat or a stat computed past its bound ends the game as a
cited error, never a traceback, a MemoryError or a hang."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest
from kotc import Game, load_edition, starter_decks
from kotc.runtime.dice import Dice
from kotc.runtime.limits import LIMITS, LimitExceeded, check_dice, check_repeat

BODIES = {
    "repeat": ("repeat 1000 * 1000 * 1000 { draw(you, 0) }", "repeat_rounds"),
    "roll": ("roll 1000 * 1000 * 1000 dice as d", "dice_per_roll"),
    "stat": ("set you.hp to 1000 * 1000 * 1000 * 1000", "stat_value"),
}


def _edition(folder: Path, body: str) -> Path:
    path = folder / "heavy.kotc"
    path.write_text(f'''\
edition "heavy" number 118 extends "17th"
setup {{
  step heap "Heap" after mulligan @ "Setup and Deck Building" {{
    {body}
  }}
}}
''', encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", sorted(BODIES))
def test_a_computed_value_past_its_bound_ends_the_game_as_a_cited_error(tmp_path, kind):
    body, limit = BODIES[kind]
    path = _edition(tmp_path, body)
    run = subprocess.run([sys.executable, "-m", "kotc", "play", str(path), "--max-turns",
                          "2"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert f"({limit})" in run.stderr and "heavy §Setup and Deck Building" in run.stderr
    assert "Traceback" not in run.stderr and "MemoryError" not in run.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bound_passed_in_a_simulation_stops_the_run_with_its_seed(tmp_path, workers):
    body, limit = BODIES["repeat"]
    path = _edition(tmp_path, body)
    run = subprocess.run([sys.executable, "-m", "kotc", "simulate", str(path), "--games",
                          "3", "--workers", workers], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 1, run.stderr
    assert re.match(r"kotc simulate: the game of seed \d: ", run.stderr)
    assert f"({limit})" in run.stderr and "Traceback" not in run.stderr


def test_a_huge_printed_stat_is_refused_where_it_is_written(kotc, tmp_path):
    card = tmp_path / "big.kcard"
    card.write_text('card "Big" minion {\n  power 1000000000000 toughness 1 cost 1 }\n',
                    encoding="utf-8")
    code, out, err = kotc("card", "check", str(card), "-e", "17th")
    assert code == 2 and f"{card}:2:3: card 'Big': power 1000000000000" in err


def test_the_checks_name_the_bound_and_pass_what_is_within_it():
    check_dice(LIMITS["dice_per_roll"][0], None)
    check_repeat(0, None)
    with pytest.raises(LimitExceeded, match="dice_per_roll"):
        check_dice(LIMITS["dice_per_roll"][0] + 1, None)


def test_a_bound_passed_pickles_back_whole():
    # raised in a pool's worker, it must come back to the run (a failed unpickling
    # hangs the pool)
    with pytest.raises(LimitExceeded) as raised:
        check_repeat(10**9, "17th §Battles")
    back = pickle.loads(pickle.dumps(raised.value))
    assert (back.limit, back.value, back.cite, str(back)) == (
        "repeat_rounds", 10**9, "17th §Battles", str(raised.value))


def _stated(folder: Path, limits: str, body: str) -> Path:
    path = folder / "stated.kotc"
    path.write_text(f'''\
edition "stated" number 118 extends "17th"
limits {{
  {limits}
}}
setup {{
  step heap "Heap" after mulligan @ "Setup and Deck Building" {{
    {body}
  }}
}}
''', encoding="utf-8")
    return path


def _play(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kotc", "play", str(path), "--max-turns",
                           "2"], capture_output=True, text=True, timeout=300)


def test_an_edition_states_a_tighter_bound_and_the_game_keeps_to_it(tmp_path):
    limit = 'limit dice_per_roll 5  @ "Battles" interpretation "no roll needs more"'
    run = _play(_stated(tmp_path, limit, "roll 6 dice as d"))
    assert run.returncode == 2, run.stderr
    assert "is 6, past the bound of 5 (dice_per_roll, stated by stated §Battles" in (
        run.stderr)
    assert _play(_stated(tmp_path, limit, "roll 5 dice as d")).returncode == 0


def test_a_bound_looser_than_kotcs_is_refused_where_it_is_written(kotc, tmp_path):
    path = _stated(tmp_path, 'limit repeat_rounds 100001  @ "Battles" interpretation "x"',
                   "roll 1 dice as d")
    code, out, _ = kotc("check", str(path))
    assert code == 2
    assert (f"{path}:3:3: limit repeat_rounds (the rounds of one repeat) is 100,001: an "
            "edition may state from 1 to kotc's own bound, 100,000") in out


def test_nested_loops_stop_at_the_work_of_one_step(tmp_path):
    # 25 loops over the players, nested: each small, together 2^25 rounds
    body = "".join(f"for each p{i} in players {{ " for i in range(25)) + (
        "draw(you, 0)" + " }" * 25)
    limit = 'limit work_per_step 5000  @ "Battles" interpretation "x"'
    run = _play(_stated(tmp_path, limit, body))
    assert run.returncode == 2, run.stderr
    assert "past the bound of 5,000 (work_per_step, stated by" in run.stderr
    assert "Traceback" not in run.stderr


def test_show_lists_every_bound_in_force(kotc, tmp_path):
    path = _stated(tmp_path, 'limit dice_per_roll 5  @ "Battles" interpretation "x"',
                   "roll 1 dice as d")
    code, out, _ = kotc("show", str(path), "limits", "--no-pager")
    assert code == 0
    assert "limit dice_per_roll 5" in out and "limit dice_per_roll 10000" not in out
    for name, (bound, _what) in LIMITS.items():
        if name != "dice_per_roll":
            assert f"limit {name} {bound}" in out


def test_dice_that_always_tie_end_the_roll_off_as_an_error_not_a_hang():
    # a chance policy may answer every die alike: the roll for the first player
    # would tie for ever
    class Alike(Dice):
        def roll(self) -> int:
            return 3

    with pytest.raises(LimitExceeded, match=r"\(work_per_step\)"):
        Game.new(load_edition("17th"), starter_decks("17th"), seed=1, dice=Alike(1))
