"""Whether a long simulation keeps its memory flat: the resident memory of a
`kotc simulate` run and of its worker processes, as the games go by.

    python benchmarks/simulate_memory.py [--games 100000] [--workers 2]
        [--checkpoints 1000,10000,100000] [--out games.jsonl] [-- more simulate flags]

Runs `kotc simulate EDITION --vanilla --games N --workers W --out FILE` (the
vanilla decks: ability-less minions, the engine's benchmark decks) and samples,
every half second, the resident set size (RSS) of the run's main process and of
each of its workers (read from /proc: Linux only). At each checkpoint (games
recorded in the file) it prints the games done, the peak RSS so far of the main
process and of the largest worker, and their RSS now; at the end, the peak of the
largest of them as the kernel counts it. Flat memory shows as peaks that stop
growing once the first games are played. Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rss_mib(pid: int) -> float:
    """The resident memory of a process, in MiB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    """The direct children of a process (its workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="ascii")
        except OSError:
            continue
        # the parent id is the 2nd field after the name, which is in parentheses
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def lines_in(path: Path) -> int:
    try:
        with path.open("rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except OSError:
        return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--edition", default="17th")
    parser.add_argument("--checkpoints", default="1000,10000,100000")
    parser.add_argument("--out", help="the records file (default: a temporary one, "
                                      "removed after)")
    args, more = parser.parse_known_args()
    checkpoints = sorted(int(c) for c in args.checkpoints.split(","))
    scratch = None
    if args.out:
        out = Path(args.out)
    else:
        scratch = tempfile.TemporaryDirectory()
        out = Path(scratch.name) / "games.jsonl"
    command = [sys.executable, "-m", "kotc.cli.main", "simulate", args.edition,
               "--vanilla", "--games", str(args.games), "--workers", str(args.workers),
               "--out", str(out), "--format", "json", *[m for m in more if m != "--"]]
    print(" ".join(["kotc", *command[3:]]))
    print(f"{'games':>8} {'main peak':>10} {'worker peak':>12} {'main now':>9} "
          f"{'workers now':>12} {'seconds':>8}   (MiB)")
    start = time.monotonic()
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env={**os.environ, "KOTC_CACHE_DIR": "off"})
    main_peak = worker_peak = 0.0
    next_check = 0
    done = 0
    while True:
        finished = run.poll() is not None
        main_now = rss_mib(run.pid) if not finished else 0.0
        workers_now = [rss_mib(c) for c in children(run.pid)] if not finished else []
        main_peak = max(main_peak, main_now)
        worker_peak = max([worker_peak, *workers_now])
        done = lines_in(out)
        while next_check < len(checkpoints) and (done >= checkpoints[next_check]
                                                 or finished):
            print(f"{min(done, checkpoints[next_check]):8,} {main_peak:10.1f} "
                  f"{worker_peak:12.1f} {main_now:9.1f} "
                  f"{' '.join(f'{w:.1f}' for w in workers_now) or '-':>12} "
                  f"{time.monotonic() - start:8.0f}")
            next_check += 1
        if finished:
            break
        time.sleep(0.5)
    err = run.stderr.read().decode() if run.stderr else ""
    # the kernel's own count, which no sample can miss: the largest peak of the run
    # and of the workers it waited for
    kernel_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"exit status {run.returncode}, {done:,} games recorded in "
          f"{time.monotonic() - start:.0f} s; the largest process's peak, as the "
          f"kernel counts it: {kernel_peak:.1f} MiB"
          + (f"\n{err}" if run.returncode else ""))
    if scratch is not None:
        scratch.cleanup()


if __name__ == "__main__":
    main()
