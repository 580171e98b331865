"""`kotc fmt`: rule, card and deck files rewritten in their canonical form."""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path

from kotc.dsl import Diagnostic
from kotc.dsl.fmt import FORMATTED, FormatError, diagnostics, format_file

from .common import OK, PROBLEMS, Console, diagnostic_dict, diagnostic_text, plural
from .files import write_whole

CHANGED = 1  # --check: some file is not in canonical form


def fmt_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="a .kotc, .kcard or .kdeck file, or a directory (searched "
                        "for them, sub-directories too)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; list the files that are not formatted and "
                        "exit 1 if there is any")
    p.add_argument("--diff", action="store_true",
                   help="write nothing; print what formatting would change, as a "
                        "unified diff")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text for people (default), json for programs")


def fmt_command(args: argparse.Namespace, con: Console) -> int:
    """Rewrite rule (.kotc), card (.kcard) and deck (.kdeck) files in canonical form.

    The canonical form is the unparser's: the same rules, cards and decks, laid
    out one way (two-space indents, citations at column 53 where they fit, long
    lines broken before a citation, `where`, `and`...). Comments are kept: one
    inside a rule moves to just before it. A file is written only if it changes,
    whole or not at all, and only once the new text has been read back to the
    same rules. `--check` writes nothing and exits 1 if a file would change
    (for CI); `--diff` shows the changes. Running it twice changes nothing the
    second time. Exit status: 0 done (or all formatted), 1 `--check` found
    files to format, 2 a file does not parse or cannot be written.
    """
    files, problems = _files(args.paths)
    changed: list[str] = []
    report = []
    for path in files:
        try:
            before, after = format_file(path)
        except FormatError as err:
            problems += diagnostics(err)
            continue
        except OSError as err:
            problems += diagnostics(FormatError(f"{path}: cannot read: "
                                                f"{err.strerror or err}"))
            continue
        differs = before != after
        report.append({"file": str(path), "changed": differs})
        if not differs:
            continue
        changed.append(str(path))
        if args.diff and args.format == "text":
            con.print("".join(difflib.unified_diff(
                before.splitlines(keepends=True), after.splitlines(keepends=True),
                fromfile=str(path), tofile=f"{path} (formatted)")).rstrip("\n"))
        if not (args.check or args.diff):
            try:
                write_whole(path, after)
            except OSError as err:
                problems += diagnostics(FormatError(f"{path}: cannot write: "
                                                    f"{err.strerror or err}"))
    writes = not (args.check or args.diff)
    if args.format == "json":
        con.json({"files": report, "changed": len(changed), "written": writes,
                  "diagnostics": [diagnostic_dict(d) for d in problems],
                  "errors": len(problems)})
    else:
        for d in problems:
            con.error(diagnostic_text(d))
        if args.check:
            for name in changed:
                con.print(f"would reformat {name}")
        elif writes:
            for name in changed:
                con.print(f"reformatted {name}")
        verb = "reformatted" if writes else "to reformat"
        con.print(f"{plural(len(changed), 'file')} {verb}, "
                  f"{len(report) - len(changed)} unchanged"
                  + (f", {plural(len(problems), 'error')}" if problems else ""))
    if problems:
        return PROBLEMS
    return CHANGED if (args.check and changed) else OK


def _files(paths: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """The files the paths name (directories searched), and a problem for each path
    that names none."""
    found: list[Path] = []
    problems: list[Diagnostic] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*")
                            if p.suffix in FORMATTED and p.is_file())
            if not inside:
                problems += diagnostics(FormatError(
                    f"{name}: no {', '.join(FORMATTED)} files in this directory"))
            found += inside
        elif path.is_file():
            if path.suffix not in FORMATTED:
                problems += diagnostics(FormatError(
                    f"{name}: kotc fmt formats {', '.join(FORMATTED)} files"))
            else:
                found.append(path)
        else:
            problems += diagnostics(FormatError(f"{name}: no such file or directory"))
    return list(dict.fromkeys(found)), problems
