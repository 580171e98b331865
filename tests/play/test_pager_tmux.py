"""Long output at a terminal, as a person sees it: `kotc show` and `kotc diff`
go through the pager, the rules coloured by the language's lexer; into a pipe
they stay plain text, whole."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None,
    reason="tmux is not installed (.ci/run installs it): the pager needs a terminal",
)


def run_in_terminal(tmp_path, command: str) -> str:
    """Run `command` in a terminal (tmux) with a pager that keeps what it is given
    in paged.txt; return that (or '' if nothing was paged)."""
    socket = str(tmp_path / "tmux.sock")
    kotc = f"{shlex.quote(sys.executable)} -m kotc"
    env = (f"KOTC_CACHE_DIR={shlex.quote(os.environ.get('KOTC_CACHE_DIR', 'off'))} "
           f"PAGER='cat > paged.txt' ")
    script = f"cd {shlex.quote(str(tmp_path))} && {env}{kotc} {command}; touch done"
    subprocess.run(["tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d",
                    "-x", "120", "-y", "40", "sh", "-c", script], check=True)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "done").exists():
            assert time.monotonic() < deadline, "the command did not finish"
            time.sleep(0.05)
    finally:
        subprocess.run(["tmux", "-S", socket, "kill-server"], capture_output=True)
    paged = tmp_path / "paged.txt"
    return paged.read_text(encoding="utf-8") if paged.exists() else ""


def test_show_pages_its_coloured_rules_at_a_terminal(tmp_path, kotc):
    paged = run_in_terminal(tmp_path, "show 17th")
    assert paged.count("\n") > 500 and "Edition 17th" in paged
    assert "\x1b[" in paged  # coloured: the pager is told to keep colours (LESS=R)
    code, plain, _ = kotc("show", "17th")  # not a terminal: plain, not paged
    assert code == 0 and "\x1b[" not in plain
    strip = __import__("re").compile(r"\x1b\[[0-9;]*m")
    assert strip.sub("", paged).split() == plain.split()


def test_diff_pages_at_a_terminal_and_no_pager_prints_it(tmp_path):
    paged = run_in_terminal(tmp_path, "diff 13th 17th")
    assert "13th -> 17th" in paged
    # the rules' text coloured by the lexer: a keyword wrapped in its colour
    assert __import__("re").search(r"\x1b\[[0-9;]*mat_most\x1b", paged)
    (tmp_path / "done").unlink()
    (tmp_path / "paged.txt").unlink()
    assert run_in_terminal(tmp_path, "diff 13th 17th --no-pager") == ""


def test_short_output_is_not_paged(tmp_path):
    assert run_in_terminal(tmp_path, "show 17th endgame --no-pager") == ""
    (tmp_path / "done").unlink()
    assert run_in_terminal(tmp_path, "show 17th invariants") == ""
