"""Output paths (`--log`, `-o`, `--out`): a regular file (or none) is replaced
whole; a device, a FIFO or `-` is written straight into; a symbolic link stays a
link. Issue 26, item 1: `kotc graph 17th -o /dev/stdout` and `kotc play 17th
--log /dev/full` replaced those entries of /dev."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from kotc.cli.files import output_problem, write_whole


def _kotc(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kotc", *argv], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_a_regular_file_is_replaced_whole_and_no_part_is_left(tmp_path):
    target = tmp_path / "log.jsonl"
    target.write_text("old\n")
    target.chmod(0o640)
    write_whole(target, "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640, "the file's mode was lost"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.jsonl"]


def test_a_symlink_stays_a_link_and_its_target_gets_the_text(tmp_path):
    real = tmp_path / "real.dot"
    real.write_text("old")
    link = tmp_path / "link.dot"
    link.symlink_to(real)
    assert output_problem(link) is None
    write_whole(link, "digraph {}")
    assert link.is_symlink(), "the link was replaced by a file"
    assert real.read_text() == "digraph {}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.dot", "real.dot"]


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.dot"
    link.symlink_to(tmp_path / "made.dot")
    write_whole(link, "x")
    assert link.is_symlink() and (tmp_path / "made.dot").read_text() == "x"


def test_a_fifo_is_written_straight_into(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert output_problem(fifo) is None
    write_whole(fifo, "through the pipe\n")
    reader.join(10)
    assert got == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced"


def _full_device(tmp_path: Path) -> Path:
    """A device node like /dev/full (every write fails: no space left), made in
    `tmp_path` so that a regression replaces that one, never the system's."""
    node = tmp_path / "full"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root")
    return node


def test_play_log_to_a_full_device_fails_and_leaves_the_device_alone(tmp_path):
    full = _full_device(tmp_path)
    run = _kotc("play", "17th", "--seed", "1", "--max-turns", "3", "--log", str(full))
    assert run.returncode == 2, run.stderr
    assert f"--log: cannot write {full}" in run.stderr
    assert "Traceback" not in run.stderr
    assert stat.S_ISCHR(os.lstat(full).st_mode), "the device was replaced"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full"]


def test_graph_through_a_link_to_stdout_streams_the_dot_into_a_pipe(tmp_path):
    stdout = tmp_path / "stdout"  # as /dev/stdout is, on Linux
    stdout.symlink_to("/proc/self/fd/1")
    if not Path("/proc/self/fd/1").exists():
        pytest.skip("no /proc")
    run = _kotc("graph", "17th", "--flow", "chain", "-o", str(stdout))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("digraph") or "digraph" in run.stdout.splitlines()[0]
    assert stdout.is_symlink(), "the link was replaced by a file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stdout"]


def test_dash_is_standard_output_for_every_output_option(tmp_path):
    run = _kotc("graph", "17th", "--flow", "chain", "-o", "-", cwd=tmp_path)
    assert run.returncode == 0 and "digraph" in run.stdout, run.stderr
    run = _kotc("play", "17th", "--seed", "2", "--max-turns", "2", "--log", "-",
                cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert '{"' in run.stdout  # the JSON lines of the log, after the account
    assert not any(tmp_path.iterdir()), "a file named '-' was written"


def test_help_says_how_each_output_option_writes(kotc):
    for argv in (["graph", "--help"], ["play", "--help"], ["fuzz", "--help"]):
        code, out, _err = kotc(*argv)
        out = " ".join(out.split())
        assert "standard output" in out and "symbolic link" in out, argv
