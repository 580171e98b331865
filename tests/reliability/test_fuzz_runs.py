"""`kotc fuzz`: `--examples N` makes N runs, and nothing is left in the current
directory (issue 26, item 14)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys


def test_examples_n_means_n_runs_and_leaves_no_hypothesis_folder(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "kotc", "fuzz", "17th", "--examples", "30", "--steps",
         "5", "--warmup", "30", "--format", "json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("HYPOTHESIS")})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["runs"] == 30
    assert list(tmp_path.iterdir()) == [], "fuzz left files in the current directory"


def test_fuzz_without_hypothesis_says_how_to_get_it(kotc, monkeypatch, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "hypothesis" else real(name, *a))
    code, out, err = kotc("fuzz", "17th", "--out", str(tmp_path / "f.kscn"))
    assert code == 2 and "needs the hypothesis package" in err
    assert list(tmp_path.iterdir()) == []
