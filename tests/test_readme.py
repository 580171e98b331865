"""The README stays true: its example loads, its quick start is what CI runs."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from kotc.dsl import RulesetError, load_path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def fenced(language: str) -> list[str]:
    return re.findall(rf"^ *```{language}\n(.*?)^ *```", README, re.MULTILINE | re.DOTALL)


def test_quick_start_is_two_commands_and_ci_runs_the_second():
    (block,) = fenced("sh")
    install, test = block.strip().splitlines()
    assert install.startswith("pip install -e '.[test]' && kotc ")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == test


def test_the_example_edition_loads(tmp_path):
    (example,) = fenced("kotc")
    name = re.search(r'^edition "([^"]+)"', example, re.MULTILINE).group(1)
    path = tmp_path / f"{name}.kotc"
    path.write_text(example, encoding="utf-8")
    ruleset = load_path(path, use_cache=False)
    assert ruleset.name == name
    assert ruleset.setting("setup", "starting_hp").hp == 40
    assert "step mulligan" not in ruleset.sections["setup"]
    assert ruleset.keywords["recycle"].cite.interpretation


def test_the_shown_error_is_the_one_kotc_reports(tmp_path):
    (example,) = fenced("kotc")
    path = tmp_path / "house.kotc"
    path.write_text(example.replace("override starting_hp", "starting_hp"),
                    encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load_path(path, use_cache=False)
    (problem,) = err.value.diagnostics
    shown = re.search(r"^house\.kotc:(\d+):(\d+): (.*)$", README, re.MULTILINE)
    assert (problem.origin.line, problem.origin.col) == (int(shown[1]), int(shown[2]))
    assert problem.message == shown[3]


def test_the_bot_example_runs_from_any_directory(tmp_path):
    # the README's Python example, run where no checkout is: it finds its decks
    (example,) = fenced("python")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(example)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "'condition'" in done.stdout
