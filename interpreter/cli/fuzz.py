"""`kotc fuzz`: random legal play against a ruleset, every invariant checked."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from kotc.checking.fuzz import exploration, shrink, table_for
from kotc.checking.fuzz_scenario import counterexample
from kotc.dsl import RulesetError, load_path
from kotc.dsl.load import SUFFIX
from kotc.engine.decks import check_deck_file
from kotc.runtime.limits import LimitExceeded

from .common import (
    Console,
    backend_option,
    below_one,
    check_decks,
    diagnostic_text,
    display_path,
    edition_argument,
    edition_path,
    format_option,
)
from .files import OUTPUT_HELP, output_problem, write_whole

CLEAN, BROKEN, BAD_INPUT = 0, 1, 2


def fuzz_arguments(p: argparse.ArgumentParser) -> None:

    edition_argument(p)
    p.add_argument("--examples", type=int, default=100,
                   help="how many random runs to try (default 100)")
    p.add_argument("--seed", type=int, default=0,
                   help="first game seed; runs use seeds from here on (default 0)")
    p.add_argument("--out", metavar="FILE",
                   help="where to write the counterexample scenario (default: beside "
                        "the .kotc file, or in the current directory for a shipped "
                        "edition); " + OUTPUT_HELP)
    p.add_argument("--decks", nargs="+", metavar="DECK",
                   help="deck files, one per seat (default: the starter decks of the "
                        "edition or of the nearest edition it extends)")
    p.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    p.add_argument("--max-turns", type=int, default=60,
                   help="turn limit of each game (default 60)")
    p.add_argument("--steps", type=int, default=20,
                   help="random moves per run after its starting position (default 20)")
    p.add_argument("--warmup", type=int, default=300,
                   help="at most this many random steps to reach a run's starting "
                        "position (default 300)")
    p.add_argument("--shrink-seconds", type=float, default=30.0,
                   help="time to spend shortening a counterexample (default 30)")
    backend_option(p)
    format_option(p)


def fuzz_command(args: argparse.Namespace, con: Console) -> int:
    """Explore random legal play under a ruleset and check every invariant.

    Each run starts a seeded game, plays a random stretch of it to reach a random
    position, then takes random legal actions, checking after every step the
    engine's invariants (each card in exactly one place, HP and stat floors,
    one chain resolving last-in-first-out, recovery and fatigue, counters only
    on on-field cards, zones holding only what they may, a legal action until
    the game ends, a bounded game) and the ruleset's own `invariants` section.
    A progress bar runs on standard error.

    On a violation it prints the broken invariant, where (a player or a card)
    and the rule it cites, shortens the run, and writes it as a scenario file
    (`--out`) that replays it and expects what the invariant demands, so that
    `kotc test FILE` fails until the rules are fixed. Exit status: 0 when every
    invariant held, 1 on a violation, 2 on bad input.
    """

    if below_one(con, "fuzz", (("--examples", args.examples), ("--players", args.players),
                               ("--max-turns", args.max_turns), ("--steps", args.steps))):
        return BAD_INPUT
    if args.warmup < 0 or args.shrink_seconds < 0:
        con.error("kotc fuzz: --warmup and --shrink-seconds cannot be negative")
        return BAD_INPUT
    path = edition_path(args.edition)
    if path is None:
        what = "no such file" if args.edition.endswith(SUFFIX) else "unknown edition"
        con.error(f"kotc fuzz: {what}: {args.edition}")
        return BAD_INPUT

    if not check_decks(con, "fuzz", args.decks, args.players):
        return BAD_INPUT
    try:

        ruleset = load_path(path)
        for deck in args.decks or ():
            check_deck_file(deck, ruleset, args.edition)
        table = table_for(ruleset, [Path(d) for d in args.decks or ()], args.players,
                          args.max_turns, args.seed, args.backend)
    except RulesetError as err:
        for d in err.diagnostics:
            con.error(diagnostic_text(d))
        return BAD_INPUT
    except (OSError, ValueError) as err:
        con.error(f"kotc fuzz: {err}")
        return BAD_INPUT
    shipped = Path(args.edition).suffix != SUFFIX and not Path(args.edition).is_file()
    out = Path(args.out) if args.out else (
        Path(f"{ruleset.name}.fuzz.kscn") if shipped
        else path.with_name(f"{path.stem}.fuzz.kscn"))
    problem = output_problem(out)
    if problem:
        con.error(f"kotc fuzz: --out: {problem}")
        return BAD_INPUT

    if importlib.util.find_spec("hypothesis") is None:  # an optional package
        con.error("kotc fuzz: needs the hypothesis package (pip install hypothesis)")
        return BAD_INPUT
    start = time.perf_counter()
    bar = _Bar(con.err)
    try:
        trail, runs = _explore(table, args, bar)
    except LimitExceeded as err:  # the rules asked for more than can be played
        con.error(f"kotc fuzz: {err}")
        return BAD_INPUT
    except Exception as err:  # a bug of kotc's own: reported, never a traceback
        con.error(f"kotc fuzz: internal error ({type(err).__name__}: {err}); please "
                  f"report it")
        return BAD_INPUT
    seconds = round(time.perf_counter() - start, 2)
    if trail is None:
        bar.done(f"{runs} runs, every invariant held")
        report = {"edition": ruleset.name, "runs": runs, "seed": args.seed,
                  "seconds": seconds, "violations": []}
        if args.format == "json":
            con.json(report)
        else:
            con.print(con.style(f"{ruleset.name}: {runs} runs in {seconds} s: every "
                                f"invariant held", "green"))
        return CLEAN


    found = len(trail.actions)
    bar.begin(f"shortening a run of {found} actions")
    trail = shrink(table, trail, args.shrink_seconds, bar.tick)
    bar.done(f"{runs} runs; shortened to {len(trail.actions)} actions")
    edition_ref = ruleset.name if shipped else _relative(path, out.parent)
    try:
        written = counterexample(table, trail, out.parent, edition_ref)
        write_whole(out, written.text)
    except OSError as err:
        con.error(f"kotc fuzz: --out: cannot write {out}: {err.strerror or err}")
        return BAD_INPUT
    report = {
        "edition": ruleset.name, "runs": runs, "seed": args.seed,
        "seconds": round(time.perf_counter() - start, 2),
        "violations": [{**v.to_json(), "origin": display_path(v.origin) if v.origin
                        else None} for v in trail.violations],
        "trail": {"seed": trail.seed, "players": trail.players,
                  "max_turns": trail.max_turns,
                  "actions": [{"player": s, "index": i, "label": label}
                              for s, i, label in trail.actions]},
        "scenario": {"file": display_path(str(out)), "form": written.form,
                     "verified": written.verified, "note": written.note or None},
    }
    if args.format == "json":
        con.json(report)
        return BROKEN
    con.print(con.style(f"{ruleset.name}: an invariant broke after {len(trail.actions)} "
                        f"actions of a game with seed {trail.seed}", "red", "bold"))
    for v in trail.violations:
        con.print(f"  {con.style(v.invariant, 'bold')}: {v.label}")
        con.print(f"    {v.where}: {v.detail}")
        if v.cite or v.origin:
            cite = " ".join(filter(None, [f"[{v.cite}]" if v.cite else None,
                                          display_path(v.origin) if v.origin else None]))
            con.print(con.style(f"    {cite}", "dim"))
    con.print(f"  scenario: {display_path(str(out))} ({written.form}); "
              f"`kotc test {display_path(str(out))}` fails until it is fixed")
    if not written.verified:
        con.print(con.style(f"  (not verified: {written.note})", "yellow"))
    return BROKEN


def _explore(table, args, bar) -> tuple:
    """Run the exploration; the first failing trail (or None) and the runs made."""
    from hypothesis import HealthCheck, Phase, Verbosity, settings
    from hypothesis.errors import Flaky
    from hypothesis.stateful import run_state_machine_as_test


    machine = exploration(table, warmup=args.warmup, burst=max(args.steps, 1))
    runs = 0
    bar.begin("exploring", args.examples)

    def factory():
        nonlocal runs
        if runs >= args.examples:  # hypothesis asks for more runs than it counts
            raise _Enough
        runs += 1
        bar.tick()
        return machine()

    config = settings(max_examples=args.examples, stateful_step_count=args.steps,
                      deadline=None, database=None, derandomize=True,
                      phases=[Phase.explicit, Phase.generate],
                      report_multiple_bugs=False, verbosity=Verbosity.quiet,
                      suppress_health_check=list(HealthCheck))
    try:
        with _private_hypothesis_home():
            run_state_machine_as_test(factory, settings=config)
    except _Enough:  # with no shrinking phase, hypothesis stops at once
        pass
    except Flaky:
        # hypothesis replays the run that ended the budget (`_Enough`, raised before
        # it drew what the first time drew) and calls it flaky: the runs were made
        if runs < args.examples or machine.failures:
            raise
    except AssertionError:
        if machine.failures:
            return machine.failures[-1], runs
        raise
    return None, runs


class _Enough(Exception):
    """The runs asked for are made: raised to end the exploration."""


@contextlib.contextmanager
def _private_hypothesis_home() -> Iterator[None]:
    """Hypothesis keeps its files in `.hypothesis/` of the current directory; a
    run of `kotc fuzz` keeps them in a temporary directory, removed after."""
    from hypothesis import configuration

    with tempfile.TemporaryDirectory(prefix="kotc-fuzz-") as home:
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(None)  # as it was: the default


def _relative(path: Path, directory: Path) -> str:
    import os

    return Path(os.path.relpath(path.resolve(), directory.resolve())).as_posix()


class _Bar:
    """A progress bar on standard error: one redrawn line on a terminal, a line per
    tenth of the way otherwise."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.what, self.total, self.n, self.last = "", None, 0, -1

    def begin(self, what: str, total: int | None = None) -> None:
        if self.tty and self.n:
            self.stream.write("\n")
        self.what, self.total, self.n, self.last = what, total, 0, -1
        if not self.tty:
            self.stream.write(f"{what}...\n")

    def tick(self) -> None:
        self.n += 1
        if self.tty:
            if self.total:
                filled = int(30 * min(self.n, self.total) / self.total)
                shown = min(self.n, self.total)
                text = f"[{'#' * filled}{'.' * (30 - filled)}] {shown}/{self.total}"
            else:
                text = f"{self.n} tries"
            self.stream.write(f"\r{self.what}: {text}")
            self.stream.flush()
        elif self.total and self.n <= self.total \
                and self.n * 10 // self.total != self.last:
            self.last = self.n * 10 // self.total
            self.stream.write(f"{self.what}: {self.n}/{self.total}\n")

    def done(self, text: str) -> None:
        self.stream.write(("\r" if self.tty else "") + text + "\n")
        self.stream.flush()
