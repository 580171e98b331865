"""An expression too deep for the engine to write is refused where it is by
`check`; one `check` accepts compiles and plays (issue 26, item 5: a `where` of
199 `or` terms passed check and failed play with a SyntaxError; from 246 terms
check said "nested too deeply to read" at 1:1)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from kotc.dsl.language import MAX_NESTING
from kotc.dsl.validate import MAX_EXPR_DEPTH


def _with_condition(tmp_path, cond: str):
    """An edition whose one setup step loops `where` `cond` (at line 4, column 33)."""
    path = tmp_path / "deep.kotc"
    path.write_text(f'''\
edition "deep" number 118 extends "17th"
setup {{
  step deep "Deep" after mulligan @ "Setup and Deck Building" {{
    for each p in players where {cond} {{ draw(p, 1) }}
  }}
}}
''', encoding="utf-8")
    return path


def _edition(tmp_path, terms: int, joiner: str = " or "):
    return _with_condition(tmp_path, joiner.join(["player.hp == 7"] * terms))


@pytest.mark.parametrize("terms", [MAX_EXPR_DEPTH + 1, 199, 246, 1000])
def test_a_chain_too_deep_is_refused_where_it_is(kotc, tmp_path, terms):
    path = _edition(tmp_path, terms)
    code, out, err = kotc("check", str(path))
    assert code == 2
    assert f"{path}:4:19: an expression nested more than {MAX_EXPR_DEPTH} deep" in out


@pytest.mark.parametrize("joiner", [" or ", " and "])
def test_a_chain_check_accepts_compiles_and_plays(kotc, tmp_path, joiner):
    path = _edition(tmp_path, MAX_EXPR_DEPTH - 2, joiner)
    code, out, err = kotc("check", str(path))
    assert code == 0, out + err
    run = subprocess.run([sys.executable, "-m", "kotc", "play", str(path), "--max-turns",
                          "2"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]


def _bracketed(tmp_path, depth: int):
    # the section's and the step's braces are two of the `depth` levels
    return _with_condition(tmp_path, "(" * (depth - 2) + "player.hp == 7"
                           + ")" * (depth - 2))


def test_brackets_too_deep_are_refused_where_they_go_too_deep(kotc, tmp_path):
    # the section's and the step's braces are two levels; the first parenthesis is
    # at column 33, so the one past the bound is at 33 + (MAX_NESTING - 2)
    path = _bracketed(tmp_path, MAX_NESTING + 1)
    code, out, err = kotc("check", str(path))
    assert code == 2, out + err
    assert (f"{path}:4:{33 + MAX_NESTING - 2}: syntax error: brackets nested more than "
            f"{MAX_NESTING} deep") in out


def test_brackets_as_deep_as_read_check_and_play(kotc, tmp_path):
    path = _bracketed(tmp_path, MAX_NESTING)
    code, out, err = kotc("check", str(path))
    assert code == 0, out + err
    run = subprocess.run([sys.executable, "-m", "kotc", "play", str(path), "--max-turns",
                          "2"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
