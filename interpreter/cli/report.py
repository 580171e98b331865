"""`kotc report`: what recorded games say (win rates with intervals, seats, cards,
keywords...), as text, JSON, PNG charts and an HTML page; two runs side by side.
`kotc simulate` shows the report of its run the same way (`show_report`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kotc.play.charts import Chart, comparison_charts, html_page, report_charts
from kotc.play.records import RecordError, read_records
from kotc.play.report import (
    Section,
    Tally,
    compare,
    comparison_tables,
    report_tables,
)

from .common import OK, PROBLEMS, Console, format_option
from .files import output_problem, write_whole


def output_options(p: argparse.ArgumentParser) -> None:
    """`--charts DIR` and `--html PATH`, as `report` and `simulate` take them."""
    p.add_argument("--charts", metavar="DIR",
                   help="write the report's charts as PNG files into DIR (made if "
                        "missing; files of the same names are replaced)")
    p.add_argument("--html", metavar="PATH",
                   help="write the report as one self-contained HTML page: its tables "
                        "and charts, nothing beside it to keep")


def output_problems(con: Console, command: str, args: argparse.Namespace) -> bool:
    """Whether `--charts` or `--html` names a place nothing can be written (said):
    asked before any work, so a long run's report is not lost to a typo."""
    problems = []
    if args.html:
        problems.append(("--html", output_problem(Path(args.html))))
    if args.charts:
        folder = Path(args.charts)
        if folder.exists() and not folder.is_dir():
            problems.append(("--charts", f"{folder} is not a directory"))
        elif not folder.exists():
            problems.append(("--charts", output_problem(folder)))
    for flag, problem in problems:
        if problem:
            con.error(f"kotc {command}: {flag}: {problem}")
            return True
    return False


def report_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="RECORDS",
                   help="a JSON Lines file of game records (`kotc simulate --out`); "
                        "two or more are compared side by side")
    format_option(p)
    output_options(p)


def report_command(args: argparse.Namespace, con: Console) -> int:
    """Report on recorded games: who wins, from which seat, with which cards.

    RECORDS is a file `kotc simulate --out` wrote (one game a line, JSON). The
    report gives the win rate of each deck, each seat and the player who went
    first, each with its 95% interval (Wilson's): a difference smaller than the
    intervals' overlap may be noise. With seats swapped (`simulate --swap`) each
    deck's rate from each seat tells the deck's strength from the seat's. Then
    game length, what ended and decided the games, chain lengths, keyword calls
    and counters per game by deck, and for each card of each deck how often it
    was played and how often the deck won when it was and when it was not.

    Two or more files are compared side by side (two decks, two editions, a card
    before and after a change): each measure for each run, and how each later run
    differs from the first, with the 95% interval of the difference.

    --charts DIR writes the charts as PNG files; --html PATH a page holding the
    tables and charts. A file that is not a records file is refused, located
    (`file:line:`), exit status 2.
    """
    if output_problems(con, "report", args):
        return PROBLEMS
    reports = []
    for name in args.files:
        path = Path(name)
        if not path.is_file():
            con.error(f"kotc report: {name}: no such file"
                      if not path.exists() else f"kotc report: {name}: not a file")
            return PROBLEMS
        try:
            tally = Tally().update(read_records(path))
        except RecordError as err:
            con.error(str(err))
            return PROBLEMS
        except OSError as err:
            con.error(f"kotc report: {name}: {err.strerror or err}")
            return PROBLEMS
        if not tally.games:
            con.error(f"kotc report: {name}: no game records in it")
            return PROBLEMS
        reports.append(tally.report())
    if len(reports) == 1:
        return show_report(con, args, reports[0], f"{args.files[0]}")
    return show_comparison(con, args, compare(reports, list(args.files)))


def show_report(con: Console, args: argparse.Namespace, report: dict[str, Any],
                title: str, extra: dict[str, Any] | None = None) -> int:
    """Print a report (text or JSON) and write its charts and page, as asked.

    Args:
        con: where to print.
        args: `--format`, `--charts`, `--html`.
        report: `Tally.report`.
        title: what the report is of (a file, a run).
        extra: more to say of a run (JSON: under `run`; text: a line first).
    """
    sections = report_tables(report)
    if args.format == "json":
        con.json(report if extra is None else {"run": extra, **report})
    else:
        _print_tables(con, title, sections)
    return _write_outputs(con, args, f"kotc report: {title}", sections,
                          report_charts(report) if (args.charts or args.html) else [])


def show_comparison(con: Console, args: argparse.Namespace,
                    comparison: dict[str, Any]) -> int:
    sections = comparison_tables(comparison)
    title = " vs ".join(comparison["runs"])
    if args.format == "json":
        con.json(comparison)
    else:
        _print_tables(con, title, sections)
    charts = comparison_charts(comparison) if (args.charts or args.html) else []
    return _write_outputs(con, args, f"kotc report: {title}", sections, charts)


def _write_outputs(con: Console, args: argparse.Namespace, title: str,
                   sections: list[Section], charts: list[Chart]) -> int:
    try:
        if args.charts:
            folder = Path(args.charts)
            folder.mkdir(exist_ok=True)
            for name, _title, png in charts:
                write_whole(folder / name, png)
        if args.html:
            write_whole(Path(args.html), html_page(title, sections, charts))
    except OSError as err:
        con.error(f"{title}: cannot write: {err.strerror or err}")
        return PROBLEMS
    return OK


def _print_tables(con: Console, title: str, sections: list[Section]) -> None:
    con.print(con.style(title, "bold"))
    for heading, rows in sections:
        con.print()
        con.print(con.style(heading, "bold"))
        if len(rows) == 1:
            con.print("  (none)")
            continue
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for n, row in enumerate(rows):
            cells = [cell.ljust(w) if i == 0 else cell.rjust(w)
                     for i, (cell, w) in enumerate(zip(row, widths, strict=True))]
            line = "  " + "  ".join(cells).rstrip()
            con.print(con.style(line, "dim") if n == 0 else line)
