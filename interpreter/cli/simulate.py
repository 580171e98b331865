"""`kotc simulate`: many seeded games between agents, recorded and reported."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Generator
from pathlib import Path
from typing import IO, Any

from kotc.dsl import RulesetError
from kotc.play.records import RecordError, complete_length, dump_record, read_records
from kotc.play.report import Tally
from kotc.play.simulate import (
    BackendError,
    Recorded,
    Table,
    chunk_size,
    chunks,
    dask_results,
    make_table,
    pool_results,
    schedule,
    serial_results,
)
from tqdm import tqdm

from .common import (
    PROBLEMS,
    Console,
    agent_option,
    backend_option,
    below_one,
    check_agents,
    check_decks,
    edition_argument,
    format_option,
    isatty,
)
from .files import output_problem
from .report import output_options, output_problems, show_report

INTERRUPTED, FAILED = 130, 1


class _Bar(tqdm):  # type: ignore[misc]  # tqdm has no types
    """tqdm's bar, without its monitor thread: a pool forks its workers once the
    bar runs, and a process should not fork while a thread of its own may hold a
    lock."""

    monitor_interval = 0


def simulate_arguments(p: argparse.ArgumentParser) -> None:
    edition_argument(p)
    p.add_argument("--games", type=int, default=100,
                   help="how many seeds to play (default 100); with --swap, each is "
                        "played once per seat")
    p.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed+i")
    p.add_argument(
        "--decks",
        nargs="+",
        metavar="DECK",
        help="deck files, one per seat in turn (default: the edition's starter decks)",
    )
    p.add_argument("--vanilla", action="store_true",
                   help="play generated decks of ability-less minions (the engine's "
                        "benchmark decks) in place of --decks")
    p.add_argument("--swap", action="store_true",
                   help="play every seed from every seat: the decks and agents moved "
                        "one seat on each time, so a deck's strength is told from its "
                        "seat's")
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    p.add_argument("--max-turns", type=int, default=300,
                   help="safety limit on turns per game (default 300)")
    agent_option(p, human=False)
    p.add_argument("--out", metavar="PATH",
                   help="write each game's record to PATH as it is played (JSON Lines; "
                        "`kotc report PATH` reads it); PATH must not exist, unless "
                        "--resume")
    p.add_argument("--resume", action="store_true",
                   help="continue the run recorded in --out: play only the seeds it "
                        "lacks, and report on every game in it")
    p.add_argument("--workers", type=int, default=1,
                   help="processes to play in parallel (default 1); with --dask "
                        "local, the local cluster's workers")
    p.add_argument("--dask", choices=("local",),
                   help="play on a Dask cluster started here for the run (needs "
                        "pip install 'kotc[dask]')")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="play on the Dask cluster whose scheduler is at ADDRESS "
                        "(tcp://HOST:8786); its workers need kotc (and any agent's "
                        "module) installed")
    backend_option(p)
    format_option(p)
    output_options(p)


def simulate_command(args: argparse.Namespace, con: Console) -> int:
    """Play many seeded games, record each, and report what they say.

    Game i uses seed --seed + i, so a run can be reproduced, and the same seeds
    give the same records and the same report whatever plays them: one process,
    --workers N processes, or a Dask cluster (--dask local starts one here,
    --scheduler ADDRESS uses a running one). The work goes out in chunks and is
    tallied as it comes back, in bounded memory, however many games.

    The report (`kotc report --help` says what is in it) gives each deck's and
    each seat's win rate with its 95% interval, the first player's advantage,
    game lengths, keyword, counter and card use. --swap plays every seed from
    every seat, so that a deck's strength is told from its seat's.

    --out PATH writes each game's record (seed, decks and agents by seat, winner,
    what decided and ended the game, turns, chains, and the cards, keywords and
    counters each seat used) as it is played: a run killed or stopped with Ctrl-C
    loses at most the games in flight, and --resume plays only the seeds the file
    lacks. The players are random agents unless --agent names others (your bot
    against random play, say). A progress bar with the rate and time left runs on
    standard error when it is a terminal. An agent that fails (raises, or chooses
    an illegal action), or a rule that asks for more than the engine's bounds (a
    roll of a million dice), stops the run: exit status 1, and the seed of its game.
    """
    if below_one(con, "simulate", (("--games", args.games), ("--workers", args.workers),
                                   ("--players", args.players),
                                   ("--max-turns", args.max_turns))):
        return PROBLEMS
    if not _flags_agree(con, args) or not check_decks(con, "simulate", args.decks,
                                                       args.players):
        return PROBLEMS
    out = Path(args.out) if args.out else None
    if out is not None and not _out_usable(con, out, args.resume):
        return PROBLEMS
    if output_problems(con, "simulate", args):
        return PROBLEMS
    try:
        table = make_table(args.edition, args.decks, args.agent, args.players,
                           args.max_turns, args.vanilla, args.backend)
    except RulesetError as err:
        con.error(str(err))
        return PROBLEMS
    except (ValueError, OSError) as err:
        con.error(f"kotc simulate: {err}")
        return PROBLEMS
    if not check_agents(con, "simulate", args.agent, args.players):
        return PROBLEMS
    rotations = args.players if args.swap else 1
    recorded = Recorded(args.seed, args.games, rotations)
    tally = Tally()
    if out is not None and out.exists() and not _read_back(con, out, table, tally,
                                                           recorded):
        return PROBLEMS
    return _run(con, args, table, tally, recorded, rotations, out)


def _flags_agree(con: Console, args: argparse.Namespace) -> bool:
    clash = [(a, b) for a, b, both in (
        ("--resume", "--out", args.resume and not args.out),
        ("--vanilla", "--decks", args.vanilla and args.decks),
        ("--dask", "--scheduler", args.dask and args.scheduler)) if both]
    for a, b in clash:
        needs = "needs" if a == "--resume" else "cannot be given with"
        con.error(f"kotc simulate: {a} {needs} {b}")
        return False
    return True


def _out_usable(con: Console, out: Path, resume: bool) -> bool:
    """Whether the records can go to `out` (said if not): a new file, or with
    --resume one to continue; never a run's records written over."""
    problem = output_problem(out)
    if problem is None and out.exists() and not out.is_file():
        problem = f"{out} is not a regular file"
    if problem is None and out.exists() and not resume:
        problem = (f"{out} exists: add --resume to play the seeds it lacks, or "
                   "choose another file")
    if problem:
        con.error(f"kotc simulate: --out: {problem}")
        return False
    return True


def _read_back(con: Console, out: Path, table: Table, tally: Tally,
               recorded: Recorded) -> bool:
    """Tally the records a resumed run's file holds, marking their games done;
    refuse a file of another run's games (said)."""
    try:
        for line, record in enumerate(read_records(out, torn_tail=True), 1):
            if record["table"] != table.key:
                con.error(f"{out}:{line}: a game of another run (its edition, decks, "
                          "agents, players or turn limit differ from this one's); "
                          "resume it with the same options, or choose another --out")
                return False
            game = record["seed"], record["rotation"]
            if game in recorded:
                continue  # recorded twice (files joined by hand): counted once
            recorded.add(*game)
            tally.add(record)
    except RecordError as err:
        con.error(str(err))
        return False
    except OSError as err:
        con.error(f"kotc simulate: --out: {out}: {err.strerror or err}")
        return False
    return True


def _run(con: Console, args: argparse.Namespace, table: Table, tally: Tally,
         recorded: Recorded, rotations: int, out: Path | None) -> int:
    """Play the games not yet recorded, writing and tallying each as it comes."""
    todo = args.games * rotations - sum(bin(b).count("1") for b in recorded.bits)
    size = chunk_size(todo, args.workers)
    work = chunks(schedule(args.seed, args.games, rotations, recorded), size)
    if args.dask or args.scheduler:
        results: Generator[list[dict[str, Any]], None, None] = dask_results(
            table, work, scheduler=args.scheduler, workers=args.workers)
        where = args.scheduler or f"a local Dask cluster of {args.workers}"
    elif args.workers > 1:
        results = pool_results(table, work, args.workers)
        where = f"{args.workers} processes"
    else:
        results = serial_results(table, work)
        where = "1 process"
    start = time.perf_counter()
    played, failed = 0, None
    bar = _Bar(total=todo, unit="game", disable=not isatty(con.err), file=con.err,
               dynamic_ncols=True, smoothing=0.1)
    sink = _open_out(out) if out is not None else None
    try:
        for records in results:
            for record in records:
                if "error" in record:
                    failed = record
                    break
                if sink is not None:
                    sink.write(dump_record(record))
                tally.add(record)
                played += 1
            if sink is not None:
                _sync(sink)
            bar.update(len(records) - (failed is not None))
            if failed is not None:
                break
    except KeyboardInterrupt:
        bar.close()
        kept = f"; the {played} played are in {out} (--resume goes on)" if out else ""
        con.error(f"kotc simulate: interrupted after {played} games{kept}")
        return INTERRUPTED
    except BackendError as err:
        bar.close()
        con.error(f"kotc simulate: {err}")
        return PROBLEMS
    finally:
        results.close()  # the workers stopped, what was queued dropped
        bar.close()
        if sink is not None:
            sink.close()
    if failed is not None:
        con.error(f"kotc simulate: the game of seed {failed['seed']}: {failed['error']}")
        return FAILED
    seconds = time.perf_counter() - start
    run = {"played": played, "seconds": round(seconds, 2), "where": where,
           "out": str(out) if out else None}
    rate = f", {played / seconds:.0f} games/s" if seconds > 0 and played else ""
    title = (f"{table.ruleset.name}: {' vs '.join(table.deck_names)} "
             f"({', '.join(table.agents)}), {tally.games} games"
             f"{' from every seat' if rotations > 1 else ''}; played {played} in "
             f"{seconds:.1f} s on {where}{rate}")
    return show_report(con, args, tally.report(), title, extra=run)


def _open_out(out: Path) -> IO[str]:
    """The records file, open to add to: a new one, or the end of its last whole
    line (a line cut short by a killed run is dropped)."""
    if not out.exists():
        return out.open("x", encoding="utf-8", newline="\n")
    sink = out.open("r+", encoding="utf-8", newline="\n")
    sink.truncate(complete_length(out))
    sink.seek(0, os.SEEK_END)
    return sink


def _sync(sink: IO[Any]) -> None:
    """Make what was written survive the process: flushed to the system, and to the
    disk (a chunk at a time, so a crash of the machine loses at most the games in
    flight too)."""
    sink.flush()
    os.fsync(sink.fileno())
