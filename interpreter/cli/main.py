"""The `kotc` command line: list, check, show, compare and draw the editions.

This is the only module that prints. Each subcommand is one `Command` in
`COMMANDS`: its function does the work, writing through the `Console` it is
given, and its docstring becomes its `--help`.
A rule file's problems are printed as `file:line:col: message` and exit with
status 2; a bad flag exits 2 with argparse's usage message.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import os
import sys
import textwrap
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from kotc.dsl import Diagnostic, Ruleset, RulesetError, ast, edition_files, load_path
from kotc.dsl.interpretations import Interpretation, interpretations
from kotc.dsl.limits import bounds
from kotc.dsl.load import SUFFIX, parse_file
from kotc.dsl.serialize import ruleset_to_dict
from kotc.dsl.shipped import DECKS_DIR
from kotc.dsl.sources import kind_of
from kotc.dsl.unparse import unparse_rule
from kotc.flowgraph.checks import check_ruleset

from .cards import card_arguments, card_command, deck_arguments, deck_command
from .common import (
    OK,
    PROBLEMS,
    Console,
    diagnostic_dict,
    diagnostic_text,
    display_origin,
    display_path,
    edition_argument,
    edition_path,
    format_option,
    plural,
)
from .diff import diff_arguments, diff_command
from .fmt import fmt_arguments, fmt_command
from .fuzz import fuzz_arguments, fuzz_command
from .graph import graph_arguments, graph_command
from .output import coloured, paged, pager_option
from .play import play_arguments, play_command
from .report import report_arguments, report_command
from .scenarios import scenarios_arguments, scenarios_command
from .simulate import simulate_arguments, simulate_command

# --- output -----------------------------------------------------------------------


# --- kotc editions ----------------------------------------------------------------


def editions(args: argparse.Namespace, con: Console) -> int:
    """List the shipped editions of every game: name, number, game, the edition
    each extends, summary; each game's editions together, oldest first.

    An edition file that does not parse is listed too, with its first problem;
    `kotc check editions` shows them all.
    """
    rows = [_edition_row(name, path) for name, path in edition_files().items()]
    _inherit_games(rows)
    rows.sort(key=lambda r: (r["game"] is None, r["game"] or "", r["number"] is None,
                             r["number"] or 0, r["edition"]))
    if args.format == "json":
        con.json(rows)
        return OK
    table = [("EDITION", "NUMBER", "GAME", "EXTENDS", "SUMMARY")] + [
        (r["edition"], "?" if r["number"] is None else str(r["number"]),
         r["game"] or "?", r["extends"] or "-",
         r["summary"] if r["problem"] is None else f"(does not parse: {r['problem']})")
        for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for n, row in enumerate(table):
        line = "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False))
        line = f"{line}  {row[4] or ''}".rstrip()
        con.print(con.style(line, "bold") if n == 0 else line)
    return OK


def _edition_row(name: str, path: Path) -> dict:
    row = {"edition": name, "number": None, "game": None, "extends": None, "source": None,
           "summary": None, "file": display_path(str(path)), "problem": None}
    try:
        parsed = parse_file(path.resolve())
    except RulesetError as err:
        first = err.diagnostics[0]
        row["problem"] = f"{display_origin(first.origin)}: {first.message}"
        return row
    row.update(edition=parsed.name, number=parsed.number, game=parsed.game,
               extends=parsed.base, source=parsed.source, summary=parsed.summary)
    return row


def _inherit_games(rows: list[dict]) -> None:
    """An edition that does not name its game plays the game of the edition it
    extends (None where that is not listed or does not parse)."""
    by_name = {r["edition"]: r for r in rows}
    for row in rows:
        seen, at = set(), row
        while (at["game"] is None and at["extends"] in by_name
               and at["edition"] not in seen):  # a cycle ends the walk
            seen.add(at["edition"])
            at = by_name[at["extends"]]
        row["game"] = at["game"]


# --- kotc check -------------------------------------------------------------------


def check(args: argparse.Namespace, con: Console) -> int:
    """Check rule files: parse each, follow what it extends, merge and validate it.

    An edition that validates is then compiled into its game flow, which must be
    playable (every phase reachable, someone plays next, the game can end).
    PATH is a .kotc file or a directory of them. Every problem is printed as
    `file:line:col: message`, then a summary line. Exit status: 0 when every
    file is clean, 2 when there is any problem.
    """
    files, problems = _rule_files(args.paths)
    for path in files:
        ruleset, found = _load(path)
        problems += found
        if ruleset is not None:
            flow_problems, found = _safely(path, lambda r=ruleset: graph_diagnostics(r))
            problems += (flow_problems or []) + found
    problems = sorted(set(problems), key=lambda d: (display_path(d.origin.file),
                                                   d.origin.line, d.origin.col))
    if args.format == "json":
        con.json({"files": [display_path(str(f)) for f in files],
                  "diagnostics": [diagnostic_dict(d) for d in problems],
                  "errors": len(problems)})
    else:
        for d in problems:
            con.print(diagnostic_text(d, con))
        summary = (f"{plural(len(files), 'file')} checked, "
                   f"{plural(len(problems), 'error')}")
        con.print(con.style(summary, "red" if problems else "green"))
    return PROBLEMS if problems else OK


def graph_diagnostics(ruleset: Ruleset) -> list[Diagnostic]:
    """Problems in the game flow of an edition that loads (the flow-graph checks).

    `kotc check` calls this for every edition that parses and validates; the
    checks on its compiled flow graph (phases never reached, a chain that never
    resolves, a game that never ends) belong here.
    """
    return check_ruleset(ruleset)


def _rule_files(paths: Iterable[str]) -> tuple[list[Path], list[Diagnostic]]:
    """The files to check, and a problem for each path that gives none."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = sorted(p for p in path.glob(f"*{SUFFIX}") if p.is_file())
            if not found:
                problems.append(Diagnostic(ast.Origin(name, 1, 1),
                                           f"no {SUFFIX} files in this directory"))
            files += found
        elif path.is_file():
            files.append(path)
        elif name in edition_files():  # a shipped edition, by name
            files.append(edition_files()[name])
        else:
            problems.append(Diagnostic(ast.Origin(name, 1, 1), _not_a_file(path)))
    return list(dict.fromkeys(files)), problems


def _not_a_file(path: Path) -> str:
    """Why a path that is neither a file nor a directory gives no rule file."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file or directory"
    except OSError as err:
        return f"cannot read: {err.strerror or err}"
    return f"{kind_of(mode)}, not a rule file"


def _load(path: Path) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Load one edition; every way it can fail becomes a located problem."""
    return _safely(path, lambda: load_path(path))


def _safely(path: Path, work: Callable[[], Any]) -> tuple[Any, list[Diagnostic]]:
    """`work()`'s result, or None and the problems that stopped it, located in `path`."""
    where = ast.Origin(str(path), 1, 1)
    try:
        return work(), []
    except RulesetError as err:
        return None, list(err.diagnostics)
    except OSError as err:
        return None, [Diagnostic(where, f"cannot read: {err.strerror or err}")]
    except RecursionError:
        return None, [Diagnostic(where, "nested too deeply to read (simplify the "
                                        "deepest expression or block)")]
    except Exception as err:  # a bad file must never end in a traceback
        problem = f"internal error ({type(err).__name__}: {err})"
        return None, [Diagnostic(where, f"{problem}; please report it")]


# --- kotc show --------------------------------------------------------------------


def show(args: argparse.Namespace, con: Console) -> int:
    """Show an edition's rules as a person reads them, section by section.

    Sections come in rulebook order; each rule is followed by its citation (the
    edition and rulebook section it encodes), by `[interpretation: ...]` where
    the rulebook is silent and the rule decides, and by the edition it is
    inherited from when that is not the edition shown. EDITION is a shipped
    edition's name or the path of a .kotc file; SECTION limits the output to
    one section. With --interpretations, only the interpretations: every choice
    the edition's rules make where the rulebook is silent, each with its rule
    and the section it is made under.
    """
    if args.section is not None and args.section not in ast.SECTIONS:
        con.error(f"kotc show: unknown section '{args.section}'; "
                  f"choose one of: {', '.join(ast.SECTIONS)}")
        return PROBLEMS
    path = edition_path(args.edition)
    if path is None and args.edition.endswith(SUFFIX):
        con.error(f"kotc show: no such file: {args.edition}")
        return PROBLEMS
    if path is None:
        known = ", ".join(edition_files()) or "none"
        con.error(f"kotc show: unknown edition '{args.edition}'; choose one of: {known} "
                  f"(or the path of a {SUFFIX} file)")
        return PROBLEMS
    ruleset, problems = _load(path)
    if ruleset is None:
        for d in problems:
            con.error(diagnostic_text(d))
        con.error(f"kotc show: {display_path(str(path))} does not load "
                  f"({plural(len(problems), 'error')})")
        return PROBLEMS
    sections = (args.section,) if args.section else ast.SECTIONS
    if args.interpretations:
        chosen = [i for i in interpretations(ruleset) if i.section in sections]
        _show_interpretations(ruleset, chosen, args.format, con)
        return OK
    if args.format == "json":
        con.json(ruleset_to_dict(ruleset, sections, origin=display_origin))
        return OK

    def write(con: Console) -> int:
        _show_header(ruleset, con, full=args.section is None)
        for section in sections:
            _show_section(ruleset, section, con)
        return OK

    return paged(con, write, pager=not args.no_pager)


def _show_header(ruleset: Ruleset, con: Console, full: bool) -> None:
    con.print(con.style(f"Edition {ruleset.name} (number {ruleset.number}) of "
                        f"{ruleset.game}", "bold"))
    if not full:
        con.print()
        return
    if ruleset.source:
        con.print(f"Source: {ruleset.source}")
    if len(ruleset.lineage) > 1:
        con.print(f"Extends: {' <- '.join(ruleset.lineage[1:])}")
    if ruleset.summary:
        con.print(ruleset.summary)
    con.print()


def _show_section(ruleset: Ruleset, section: str, con: Console) -> None:
    rules = ruleset.rules(section)
    con.print(con.style(f"{section} ({plural(len(rules), 'rule')})", "bold"))
    if not rules and section != "limits":
        con.print(con.style(f"  {ruleset.name} has no {section} rules", "dim"))
    editions_by_file = dict(zip(ruleset.files, ruleset.lineage, strict=False))
    for rule in rules:
        # The merged rule is the rule; whether it once overrode another is history.
        text = unparse_rule(dataclasses.replace(rule, override=False), citation=False)
        con.print(textwrap.indent(coloured(con, text), "  "))
        con.print("      " + _citation_line(rule, ruleset, editions_by_file, con))
    if section == "limits":  # the bounds no rule states are kotc's own, in force too
        for bound in bounds(ruleset).values():
            if bound.rule is None:
                con.print(f"  limit {bound.name} {bound.value}")
                con.print(con.style(f"      kotc's own bound on {bound.what}", "dim"))
    con.print()


def _show_interpretations(ruleset: Ruleset, chosen: list[Interpretation], form: str,
                          con: Console) -> None:
    """The interpretations, section by section: the rule, where the rulebook
    section is, the edition that wrote it, and the choice it makes."""
    homes = dict(zip(ruleset.files, ruleset.lineage, strict=False))
    if form == "json":
        con.json([{"section": i.section, "rule": i.rule.key,
                   "cite": f"{i.cite.edition} §{i.cite.section}",
                   "interpretation": i.text,
                   "written_in": homes.get(i.rule.origin.file, ruleset.name),
                   "origin": display_origin(i.cite.origin)} for i in chosen])
        return
    con.print(con.style(f"Edition {ruleset.name}: "
                        f"{plural(len(chosen), 'interpretation')}", "bold"))
    for section in ast.SECTIONS:
        here = [i for i in chosen if i.section == section]
        if not here:
            continue
        con.print()
        con.print(con.style(section, "bold"))
        for i in here:
            home = homes.get(i.rule.origin.file, ruleset.name)
            inherited = con.style(f"  (inherited from {home})", "dim") \
                if home != ruleset.name else ""
            con.print(f"  {i.rule.key}  "
                      + con.style(f"{i.cite.edition} §{i.cite.section}", "cyan")
                      + inherited)
            con.print(textwrap.indent(textwrap.fill(i.text, 84), "      "))


def _citation_line(rule: ast.Rule, ruleset: Ruleset, editions_by_file: dict[str, str],
                   con: Console) -> str:
    """The edition and rulebook section, any interpretation, and the edition an
    inherited rule comes from."""
    cite = rule.cite
    home = editions_by_file.get(rule.origin.file) or (cite.edition if cite else "")
    parts = [con.style(f"{cite.edition} §{cite.section}" if cite else "(no citation)",
                       "cyan")]
    if cite is not None and cite.interpretation:
        parts.append(con.style(f"[interpretation: {cite.interpretation}]", "yellow"))
    if home and home != ruleset.name:
        parts.append(con.style(f"(inherited from {home})", "dim"))
    return "  ".join(parts)


# --- the command table --------------------------------------------------------------


def _editions_args(parser: argparse.ArgumentParser) -> None:
    format_option(parser)


def _check_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a .kotc rule file, or a directory of them")
    format_option(parser)


def _show_args(parser: argparse.ArgumentParser) -> None:
    edition_argument(parser)
    parser.add_argument("section", nargs="?", metavar="SECTION",
                        help=f"one of: {', '.join(ast.SECTIONS)} (default: all)")
    parser.add_argument("--interpretations", action="store_true",
                        help="list only the interpretations: the choices the rules "
                             "make where the rulebook is silent, with their sections")
    format_option(parser)
    pager_option(parser)


@dataclasses.dataclass(frozen=True)
class Command:
    """A subcommand: `run` does the work (its docstring is the help), `arguments`
    declares its arguments, `examples` are shown under `--help` (with the names of
    shipped editions and decks filled in: `_example_names`)."""

    name: str
    run: Callable[[argparse.Namespace, Console], int]
    arguments: Callable[[argparse.ArgumentParser], None]
    examples: str


COMMANDS: tuple[Command, ...] = (
    Command("editions", editions, _editions_args,
            "kotc editions\nkotc editions --format json"),
    Command("check", check, _check_args,
            "kotc check editions\nkotc check editions/{new}.kotc my_house_rules.kotc\n"
            "kotc check editions --format json"),
    Command("show", show, _show_args,
            "kotc show {new}\nkotc show {new} turn\nkotc show {old} keywords\n"
            "kotc show {new} --interpretations\n"
            "kotc show my_house_rules.kotc legality --format json"),
    Command("graph", graph_command, graph_arguments,
            "kotc graph {third} --flow turn -o turn.svg\n"
            "kotc graph {new} --flow chain -o chain.png\nkotc graph {old} > flow.dot\n"
            "kotc graph --diff {second} {new} -o changes.svg"),
    Command("diff", diff_command, diff_arguments,
            "kotc diff {second} {new}\nkotc diff {old} {second} --format markdown\n"
            "kotc diff {third} my_house_rules.kotc --format json"),
    Command("fmt", fmt_command, fmt_arguments,
            "kotc fmt my_house_rules.kotc\nkotc fmt --check editions decks\n"
            "kotc fmt --diff my_cards.kcard"),
    Command("card", card_command, card_arguments,
            "kotc card check my_cards.kcard --edition {new}\n"
            "kotc card check {third_cards} -e {new} --format json"),
    Command("deck", deck_command, deck_arguments,
            "kotc deck check {new_deck}\n"
            "kotc deck check {third_deck} --edition {new}\n"
            "kotc deck coverage {new}"),
    Command("play", play_command, play_arguments,
            "kotc play {new} --seed 3\nkotc play {second} --decks my.kdeck their.kdeck\n"
            "kotc play {third} --format json --log game.jsonl\n"
            "kotc play {new} --agent human random"),
    Command("simulate", simulate_command, simulate_arguments,
            "kotc simulate {new} --games 200 --workers 2\n"
            "kotc simulate {new} --games 1000 --swap --out games.jsonl --html r.html\n"
            "kotc simulate {new} --games 1000 --swap --out games.jsonl --resume\n"
            "kotc simulate {new} --agent mybot:Bot random\n"
            "kotc simulate {new} --games 100000 --dask local --workers 4 --out a.jsonl\n"
            "kotc simulate {old} --games 50 --format json"),
    Command("report", report_command, report_arguments,
            "kotc report games.jsonl\nkotc report games.jsonl --charts charts/ "
            "--html report.html\n"
            "kotc report before.jsonl after.jsonl\n"
            "kotc report games.jsonl --format json"),
    Command("test", scenarios_command, scenarios_arguments,
            "kotc test\nkotc test tests/scenarios/battle --edition {third}\n"
            "kotc test --edition my_house_rules.kotc\nkotc test --coverage -q"),
    Command("fuzz", fuzz_command, fuzz_arguments,
            "kotc fuzz {new} --examples 200\nkotc fuzz my_house_rules.kotc --seed 3\n"
            "kotc fuzz {second} --format json --out found.kscn"),
)


def build_parser() -> argparse.ArgumentParser:
    names = _example_names()
    parser = argparse.ArgumentParser(
        prog="kotc",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="A card game's rules, edition by edition, as data: "
                    "check rule files, cards and decks; read an edition's rules with "
                    "the rulebook sections they come from, draw its flow, compare "
                    "editions; play and simulate games; run rulings; fuzz the "
                    "rules for broken invariants.",
        epilog=_examples("\n".join(c.examples.splitlines()[0] for c in COMMANDS)
                         + "\nkotc COMMAND --help", names),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        doc = inspect.cleandoc(command.run.__doc__ or "")
        sub = commands.add_parser(
            command.name, help=doc.splitlines()[0] if doc else None, description=doc,
            epilog=_examples(command.examples, names),
            formatter_class=argparse.RawDescriptionHelpFormatter)
        command.arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def _examples(lines: str, names: dict[str, str]) -> str:
    return "examples:\n" + textwrap.indent(lines.format_map(names), "  ")


def _example_names() -> dict[str, str]:
    """What the help's examples name: shipped editions, oldest to newest, and a
    shipped card and deck file, so the examples run as printed."""
    names = list(edition_files()) or ["EDITION"]
    old, new = names[0], names[-1]
    second, third = names[min(1, len(names) - 1)], names[min(2, len(names) - 1)]

    def shipped(edition: str, suffix: str, fallback: str) -> str:
        found = sorted((DECKS_DIR / edition).glob(f"*{suffix}"))
        return display_path(str(found[0])) if found else fallback

    return {
        "old": old, "second": second, "third": third, "new": new,
        "third_cards": shipped(third, ".kcard", "my_cards.kcard"),
        "third_deck": shipped(third, ".kdeck", "my.kdeck"),
        "new_deck": shipped(new, ".kdeck", "my.kdeck"),
    }


def _version() -> str:
    try:
        return metadata.version("kotc")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    """Run the `kotc` command; returns the exit status (0 ok, 2 problems or bad usage)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error already printed
        return exit_.code if isinstance(exit_.code, int) else OK
    con = Console()
    try:
        return args.run(args, con)
    except BrokenPipeError:  # `kotc show NAME | head`: the reader left; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return OK
    except KeyboardInterrupt:
        return 130
    except OSError as err:  # an unreadable editions directory, a full disk...
        con.error(f"kotc {args.command}: {err}")
        return PROBLEMS


if __name__ == "__main__":
    sys.exit(main())
