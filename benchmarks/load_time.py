"""Load times of the shipped editions: parsed cold, and served from the cache.

Run from the repository:

    python benchmarks/load_time.py [--runs 5]

For each edition in `editions/`, the median over `--runs` runs, in milliseconds:

    cold       this process, empty in-memory cache and an empty temporary
               KOTC_CACHE_DIR, so textX parses every file of the `extends` chain
               (the metamodel is already built; its one-off cost is printed first);
    memory     a second load in the same process (in-memory cache hit);
    disk       a load in a new process whose KOTC_CACHE_DIR an earlier process
               filled, timed inside that process around the load alone (imports
               excluded);
    new cold   a load in a new process with an empty KOTC_CACHE_DIR, the metamodel
               built inside the timing: what `kotc check` pays the first time.

Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kotc.dsl import cache, edition_files, load_path
from kotc.dsl.language import EDITIONS_DIR, metamodel

_CHILD = """\
import sys, time
from kotc.dsl import load_path
start = time.perf_counter()
load_path(sys.argv[1])
print((time.perf_counter() - start) * 1000)
"""


def _ms(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def _with_cache_dir(directory: str) -> None:
    os.environ["KOTC_CACHE_DIR"] = directory
    cache.clear_memory()


def in_process(path: Path) -> tuple[float, float]:
    """One cold load and one memory-cached load, in this process."""
    with tempfile.TemporaryDirectory() as empty:
        _with_cache_dir(empty)
        cold = _ms(lambda: load_path(path))
        memory = _ms(lambda: load_path(path))
    return cold, memory


def in_new_process(path: Path, warm: bool) -> float:
    """The load time measured inside a new process, its disk cache warm or empty."""
    with tempfile.TemporaryDirectory() as directory:
        env = {**os.environ, "KOTC_CACHE_DIR": directory}
        command = [sys.executable, "-c", _CHILD, str(path)]
        for _ in range(2 if warm else 1):  # a first process warms the disk cache
            run = subprocess.run(command, env=env, capture_output=True, text=True,
                                 check=True)
    return float(run.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    runs = parser.parse_args(argv).runs

    saved = os.environ.get("KOTC_CACHE_DIR")
    try:
        editions = edition_files(EDITIONS_DIR)
        build = statistics.median(_ms(lambda: metamodel("kotc")) for _ in range(runs))
        print(f"metamodel build (once per process): {build:.1f} ms")
        print(f"median of {runs} runs, in ms\n")
        for path in editions.values():  # build the loader's metamodel, untimed
            load_path(path, use_cache=False)

        header = ("edition", "files", "cold", "memory", "disk", "new cold")
        print("{:<10}{:>6}{:>10}{:>10}{:>10}{:>10}".format(*header))
        for name, path in editions.items():
            files = len(load_path(path, use_cache=False).files)
            pairs = [in_process(path) for _ in range(runs)]
            cold = statistics.median(c for c, _ in pairs)
            memory = statistics.median(m for _, m in pairs)
            disk = statistics.median(in_new_process(path, True) for _ in range(runs))
            fresh = statistics.median(in_new_process(path, False) for _ in range(runs))
            print(f"{name:<10}{files:>6}{cold:>10.1f}{memory:>10.2f}{disk:>10.2f}"
                  f"{fresh:>10.1f}")
    finally:
        if saved is None:
            os.environ.pop("KOTC_CACHE_DIR", None)
        else:
            os.environ["KOTC_CACHE_DIR"] = saved
        cache.clear_memory()


if __name__ == "__main__":
    main()
