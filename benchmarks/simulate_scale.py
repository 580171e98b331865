"""How simulation throughput grows with workers: games per second in one process,
in a pool of 2 processes, and on a local Dask cluster of 2 workers.

    python benchmarks/simulate_scale.py [--games 600] [--edition 17th] [--vanilla]

Each setup plays the same seeded games (the edition's starter decks, or `--vanilla`
decks) through the same code `kotc simulate` runs: chunks handed out, records
tallied as they come back. Times are wall-clock, from the first chunk sent to the
last record tallied, and include starting the workers (a pool forks its processes;
a Dask cluster starts a scheduler and two worker processes, then receives the
table), since a user waits for that too; the time to start is printed apart. The
scaling ratio is each setup's games per second over one process's; with 2 workers
it is at most 2, and less on a machine with fewer than 2 free cores. The records
of every setup are checked to be the same. Figures only: nothing here asserts.
Dask is skipped, said, when it is not installed (`pip install 'kotc[dask]'`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from collections.abc import Callable, Iterator

from kotc.play.report import Tally
from kotc.play.simulate import (
    Results,
    Table,
    chunk_size,
    chunks,
    dask_results,
    make_table,
    pool_results,
    schedule,
    serial_results,
)

Setup = Callable[[Table, Iterator[list[tuple[int, int]]]], Results]


def timed(table: Table, games: int, workers: int, results: Setup
          ) -> tuple[float, float, list[str]]:
    """Seconds to play and tally `games` seeds, seconds until the first chunk came
    back, and the records' lines sorted (to compare setups)."""
    work = chunks(schedule(0, games, 1), chunk_size(games, workers))
    tally = Tally()
    lines = []
    start = time.perf_counter()
    first = None
    stream = results(table, work)
    try:
        for records in stream:
            if first is None:
                first = time.perf_counter() - start
            for r in records:
                tally.add(r)
                lines.append(f"{r['seed']} {r['winner']} {r['turns']} {r['decisions']}")
    finally:
        stream.close()
    return time.perf_counter() - start, first or 0.0, sorted(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--edition", default="17th")
    parser.add_argument("--vanilla", action="store_true")
    args = parser.parse_args()
    table = make_table(args.edition, None, ["random"], 2, 300, vanilla=args.vanilla)
    decks = "vanilla decks" if args.vanilla else " vs ".join(table.deck_names)
    print(f"{args.edition}, {decks}: {args.games} games per setup, "
          f"{os.cpu_count()} CPUs here, Python {sys.version.split()[0]}")
    setups: list[tuple[str, int, Setup]] = [
        ("1 process", 1, serial_results),
        ("pool of 2 processes", 2, lambda t, w: pool_results(t, w, 2)),
    ]
    if importlib.util.find_spec("distributed") is not None:
        setups.append(("Dask local, 2 workers", 2,
                       lambda t, w: dask_results(t, w, workers=2)))
    else:
        print("Dask is not installed (pip install 'kotc[dask]'): its line is left out")
    # one untimed game first: the engine compiled in this process, as a long run has
    serial_results(table, iter([[(0, 0)]])).close()
    base, reference = None, None
    print(f"{'setup':24} {'seconds':>8} {'to first chunk':>15} {'games/s':>9} "
          f"{'scaling':>8}")
    for name, workers, results in setups:
        seconds, first, lines = timed(table, args.games, workers, results)
        rate = args.games / seconds
        base = base or rate
        reference = reference or lines
        same = "" if lines == reference else "  (records differ!)"
        print(f"{name:24} {seconds:8.2f} {first:15.2f} {rate:9.1f} {rate / base:8.2f}"
              f"{same}")


if __name__ == "__main__":
    main()
