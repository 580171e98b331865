"""The mutation corpus (issue 26, acceptance): seeded mutants of a rule, card,
deck and ruling file, each refused with `file:line:col:` and exit 2 or accepted
and played a few seeded turns; no traceback, no hang, nothing left behind.

The suite runs a few of each kind; `KOTC_MUTANTS=N` runs N of each (and
`KOTC_MUTANTS_SEED` picks another corpus); `python tests/reliability/mutants.py
N` prints every finding of a long run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutants  # noqa: E402

COUNT = int(os.environ.get("KOTC_MUTANTS", "12"))
SEED = int(os.environ.get("KOTC_MUTANTS_SEED", "0"))


@pytest.mark.parametrize("kind", mutants.KINDS)
def test_every_mutant_is_refused_where_it_is_broken_or_plays(kind):
    findings = []
    tried = 0
    for k, seed, text in mutants.corpus(COUNT, SEED):
        if k != kind:
            continue
        tried += 1
        findings += mutants.judge(k, seed, text)
    assert tried == COUNT
    assert not findings, "\n".join(str(f) for f in findings[:20])


def test_the_harness_sees_an_unlocated_message(monkeypatch):
    monkeypatch.setattr(mutants, "_kotc", lambda *argv: (2, "something is wrong\n"))
    found = mutants.judge("card", 0, "nonsense")
    assert [f.problem for f in found] == ["not located: something is wrong"]


def test_the_harness_sees_a_traceback(monkeypatch):
    def crash(*argv):
        raise RecursionError("deep")

    monkeypatch.setattr(mutants, "_kotc", crash)
    found = mutants.judge("rules", 0, "nonsense")
    assert [f.problem for f in found] == ["raised RecursionError: deep"]


def test_the_harness_sees_a_file_left_behind(monkeypatch, tmp_path):
    def litter(*argv):
        Path(argv[-1]).with_name("left.part").write_text("x")
        return 2, f"{argv[-1]}:1:1: syntax error\n"

    monkeypatch.setattr(mutants, "_kotc", litter)
    found = mutants.judge("rules", 0, "nonsense")
    assert [f.problem for f in found] == ["left files behind: ['left.part']"]
