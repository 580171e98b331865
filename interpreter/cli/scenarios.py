"""`kotc test`: rulings (scenario files) played under the editions they name.

Loading comes first: a malformed scenario file stops the run before anything is
played, each problem printed as `file:line:col: message`, exit status 2. Then
every scenario runs under each of its editions (or, with `--edition`, under that
edition, or under house rules as the nearest edition they extend), one line per
run, failures with what was expected against what happened; the last line is
`N passed, N failed` (and `, N skipped`). Exit status 1 when any run failed.
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from kotc.checking.scenario_coverage import coverage_report, edition_coverage
from kotc.checking.scenario_run import Result, run_scenario
from kotc.dsl import Diagnostic, RulesetError, ast, load_edition
from kotc.dsl.scenarios import Scenario, load_scenarios, scenario_files
from kotc.dsl.shipped import RULES_DIR

from .common import Console, display_origin, display_path

PASSED, FAILED, MALFORMED = 0, 1, 2
DEFAULT_PATH = Path("tests") / "scenarios"

_STATUS = {"passed": ("PASS", "green"), "failed": ("FAIL", "red"),
           "xfailed": ("SKIP", "yellow"), "xpassed": ("FAIL", "red")}


def scenarios_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="scenario files (.kscn), or directories searched for them "
                        f"(default: {DEFAULT_PATH}/)")
    p.add_argument("--edition", "-e", metavar="E",
                   help="run only under this edition: a shipped edition's name, or a "
                        ".kotc file; house rules run the scenarios of the nearest "
                        "edition they extend")
    p.add_argument("--coverage", action="store_true",
                   help="then report, per edition, the flow-graph nodes and edges, "
                        "keywords and counters that no scenario exercises")
    p.add_argument("-k", dest="pattern", metavar="TEXT",
                   help="only scenarios whose file or name contains TEXT")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="print only failures and the summary")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default), or json on standard output with the "
                        "summary line on standard error")


def scenarios_command(args: argparse.Namespace, con: Console) -> int:
    """Run rulings: scenario files played under every edition they name.

    A scenario (.kscn) builds a position or starts a new game, scripts the dice,
    answers every decision in order, and states what must follow, per edition
    where the editions differ (the example at the head of rules/scenario.tx):

      {example}

    Names may be the edition's own or edition-neutral: `minion`, `power` (the
    stat battle dice count), `toughness`, `cost`; zones `field`, `grave`,
    `deck`, `hand`, `resources`, `reserves`, `traps`. A decision the script does
    not answer fails the scenario, saying which; so does an unscripted die, and
    so does any of the engine's invariants (those `kotc fuzz` checks) broken in
    the position or after a step.

    Each run prints PASS, FAIL (each expectation against what happened, located
    in the file) or SKIP (marked `xfail` with a reason, and still failing). The
    last line is `N passed, N failed` (`, N skipped`). Exit status: 0 when all
    pass, 1 when any fails, 2 when a scenario file is malformed.
    """

    if not args.paths and not DEFAULT_PATH.is_dir():
        con.error(f"kotc test: name the ruling files or folders to run (there is no "
                  f"{DEFAULT_PATH}/ folder here to run by default)")
        return MALFORMED
    paths = args.paths or [DEFAULT_PATH]
    files, problems = scenario_files(paths)
    scenarios: list[Scenario] = []
    for f in files:
        try:
            scenarios.extend(load_scenarios(f))
        except RulesetError as err:
            problems.extend(err.diagnostics)
        except Exception as err:  # a loader bug: still located, still no traceback
            problems.append(Diagnostic(ast.Origin(str(f), 1, 1), f"cannot load the "
                                       f"scenario file ({type(err).__name__}: {err})"))
    if problems:
        for d in sorted(set(problems), key=lambda d: (d.origin.file, d.origin.line,
                                                        d.origin.col, d.message)):
            con.error(f"{con.style(display_origin(d.origin), 'bold')}: {d.message}")
        con.error(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in "
                  f"scenario files; nothing was run")
        return MALFORMED
    try:
        runs = _runs(scenarios, args)
    except RulesetError as err:
        for d in err.diagnostics:
            con.error(f"{display_origin(d.origin)}: {d.message}")
        return MALFORMED
    if not runs:
        con.error(f"kotc test: {_nothing_to_run(args)}; nothing was run")
        return MALFORMED
    results: list[Result] = []
    for scn, edition, ruleset, under in runs:
        result = run_scenario(scn, edition, ruleset, under)
        results.append(result)
        if args.format == "text":
            _print(con, result, args.quiet, display_path, display_origin)
    counts = {s: sum(r.status == s for r in results) for s in _STATUS}
    failed = counts["failed"] + counts["xpassed"]
    summary = f"{counts['passed']} passed, {failed} failed"
    if counts["xfailed"]:
        summary += f", {counts['xfailed']} skipped"
    reports = _coverage(results) if args.coverage else []
    if args.format == "json":
        con.json({"results": [_result_json(r, display_path) for r in results],
                  "summary": {"passed": counts["passed"], "failed": failed,
                              "skipped": counts["xfailed"]},
                  "coverage": [c.to_json() for c in reports]})
        con.error(summary)
    else:
        for cov in reports:
            con.print()
            for line in coverage_report(cov):
                con.print(line)
        if reports:
            con.print()
        con.print(con.style(summary, "red" if failed else "green"))
    return FAILED if failed else PASSED


def _grammar_example() -> str:
    """The ruling at the head of the scenario grammar, indented for the help: the one
    example of a scenario file, which the tests run as printed."""
    header = (RULES_DIR / "scenario.tx").read_text(encoding="utf-8").split("*/")[0]
    example = textwrap.dedent(header.split("\n\n", 1)[1]).strip("\n")
    return textwrap.indent(example, "      ").lstrip()


scenarios_command.__doc__ = (scenarios_command.__doc__ or "").replace(
    "{example}", _grammar_example())


def _runs(scenarios: list[Scenario], args) -> list[tuple]:
    """(scenario, edition named, ruleset to play or None, its name if another)."""
    chosen = [s for s in scenarios
              if not args.pattern or args.pattern in s.path or args.pattern in s.name]
    if not args.edition:
        return [(s, e, None, None) for s in chosen for e in s.editions]
    target = load_edition(args.edition)
    runs = []
    for s in chosen:
        name = next((n for n in target.lineage if n in s.editions), None)
        if name is not None:
            runs.append((s, name, target, target.name if target.name != name else None))
    return runs


def _nothing_to_run(args) -> str:
    """Why no scenario was chosen: a run of none would pass, hiding a mistyped
    pattern or edition."""
    chosen = " ".join(filter(None, [f"-k {args.pattern!r}" if args.pattern else None,
                                    f"--edition {args.edition}" if args.edition
                                    else None]))
    return f"no scenario matches {chosen}" if chosen else "no scenarios found"


def _print(con: Console, r: Result, quiet: bool, display_path, display_origin) -> None:
    word, colour = _STATUS[r.status]
    if quiet and r.status in ("passed", "xfailed"):
        return
    edition = f"{r.under} as {r.edition}" if r.under else r.edition
    line = f"{con.style(word, colour)}  {display_path(r.scenario.path)}::" \
           f"{r.scenario.name} [{edition}]"
    if r.status == "xfailed":
        line += f"  (xfail: {r.reason})"
    con.print(line)
    if r.status in ("failed", "xpassed"):
        for f in r.failures:
            text = f"{display_origin(f.origin)}: {f.what}"
            if f.expected is not None:
                text += f"\n        expected: {f.expected}\n        actual:   {f.actual}"
            con.print(f"      {text}")


def _result_json(r: Result, display_path) -> dict:
    return {"scenario": r.scenario.name, "file": display_path(r.scenario.path),
            "edition": r.edition, "under": r.under, "status": r.status,
            "reason": r.reason,
            "failures": [{"file": display_path(f.origin.file), "line": f.origin.line,
                          "col": f.origin.col, "what": f.what, "expected": f.expected,
                          "actual": f.actual} for f in r.failures]}


def _coverage(results: list[Result]) -> list:
    """One report per edition played, in the order editions were first played."""
    by_edition: dict[str, list[dict]] = {}
    rulesets = {}
    for r in results:
        if r.trace is not None:
            by_edition.setdefault(r.trace["edition"], []).append(r.trace)
            rulesets.setdefault(r.trace["edition"], r.trace["ruleset"])
    return [edition_coverage(rulesets[name], recs) for name, recs in by_edition.items()]
