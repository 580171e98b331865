"""`kotc fuzz`: `--examples N` makes N runs, and nothing is left in the current
directory (issue 26, item 14)."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("examples", [5, 12])
def test_examples_n_means_n_runs_and_leaves_no_hypothesis_folder(kotc, tmp_path,
                                                                 monkeypatch, examples):
    monkeypatch.chdir(tmp_path)
    code, out, err = kotc("fuzz", "17th", "--examples", str(examples), "--steps", "5",
                          "--warmup", "30", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["runs"] == examples
    assert list(tmp_path.iterdir()) == [], "fuzz left files in the current directory"
