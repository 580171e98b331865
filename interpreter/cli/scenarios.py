"""`kotc test`: rulings (scenario files) played under the editions they name.

Loading comes first: a malformed scenario file stops the run before anything is
played, each problem printed as `file:line:col: message`, exit status 2. Then
every scenario runs under each of its editions (or, with `--edition`, under that
edition only: see `runs_under`), one line per run, failures with what was
expected against what happened and the run's log up to the failure; the last
line is `N passed, N failed` (then `, N changed by these rules` and `, N
skipped` where there are any). Exit status 1 when any run failed or changed.
"""

from __future__ import annotations

import argparse
import dataclasses
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kotc.checking.scenario_coverage import (
    EditionCoverage,
    coverage_report,
    edition_coverage,
)
from kotc.checking.scenario_run import LogEntry, Result, Run, runs_under
from kotc.dsl import Diagnostic, Ruleset, RulesetError, ast, load_edition
from kotc.dsl.scenarios import Scenario, load_scenarios, scenario_files
from kotc.dsl.shipped import RULES_DIR

from .common import Console, backend_option, display_origin, display_path

PASSED, FAILED, MALFORMED = 0, 1, 2
DEFAULT_PATH = Path("tests") / "scenarios"

_STATUS = {"passed": ("PASS", "green"), "failed": ("FAIL", "red"),
           "xfailed": ("SKIP", "yellow"), "xpassed": ("FAIL", "red"),
           "changed": ("CHANGED", "yellow")}


def scenarios_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="scenario files (.kscn), or directories searched for them "
                        f"(default: {DEFAULT_PATH}/)")
    p.add_argument("--edition", "-e", metavar="E",
                   help="run only the rulings that name E (a shipped edition's name, "
                        "or a .kotc file), under E. For house rules (an edition kotc "
                        "does not ship), also those that name an edition they "
                        "extend, up to the first shipped one (not those of the "
                        "editions that one extends): each is compared with its run "
                        "under that edition, and shown CHANGED where the house "
                        "rules change its outcome")
    p.add_argument("--log", action=argparse.BooleanOptionalAction, default=None,
                   help="print each run's event log: every step of the script, the "
                        "decision it answered, and the events it caused, each with "
                        "the rule it cites (default: for failed runs only, up to "
                        "the failure; --no-log: never)")
    p.add_argument("--coverage", action="store_true",
                   help="then report, per edition, the flow-graph nodes and edges, "
                        "keywords and counters that no scenario exercises")
    p.add_argument("-k", dest="pattern", metavar="TEXT",
                   help="only scenarios whose file or name contains TEXT")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="print only failures, changes and the summary")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default), or json on standard output with the "
                        "summary line on standard error")
    backend_option(p)


def scenarios_command(args: argparse.Namespace, con: Console) -> int:
    """Run rulings: scenario files played under every edition they name.

    A scenario (.kscn) builds a position or starts a new game, scripts the dice,
    answers every decision in order, and states what must follow, per edition
    where the editions differ (the example at the head of rules/scenario.tx):

      {example}

    Names may be the edition's own or edition-neutral: `minion`, `power` (the
    stat battle dice count), `toughness`, `cost`; zones `field`, `grave`,
    `deck`, `hand`, `resources`, `reserves`, `traps`; counters `power_up`
    (Offense, Sword) and `immortal` (Immortality, Undying). A part written `for`
    some editions applies to those only. A decision the script does not answer
    fails the scenario, saying which; so does an unscripted die, and so does any
    of the engine's invariants (those `kotc fuzz` checks) broken in the position
    or after a step. A check that could not fail is an error: `can`/`cannot`
    and `refused` about a player who is not deciding, an event kind or field the
    log never has.

    Each run prints PASS, FAIL (each expectation against what happened, located
    in the file, then the run's log up to the failure), SKIP (marked `xfail`
    with a reason, and still failing) or, under house rules, CHANGED. The last
    line is `N passed, N failed` (`, N changed by these rules`, `, N skipped`).
    Exit status: 0 when all pass, 1 when any fails or changes, 2 when a
    scenario file is malformed.
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
    for run in runs:
        result = run.play()
        results.append(result)
        if args.format == "text":
            _print(con, result, args)
    counts = {s: sum(r.status == s for r in results) for s in _STATUS}
    failed = counts["failed"] + counts["xpassed"]
    summary = f"{counts['passed']} passed, {failed} failed"
    if counts["changed"]:
        summary += f", {counts['changed']} changed by these rules"
    if counts["xfailed"]:
        summary += f", {counts['xfailed']} skipped"
    reports = _coverage(results) if args.coverage else []
    if args.format == "json":
        con.json({"results": [_result_json(r, _shown_log(r, args.log)) for r in results],
                  "summary": {"passed": counts["passed"], "failed": failed,
                              "changed": counts["changed"],
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
        bad = failed or counts["changed"]
        con.print(con.style(summary, "red" if failed else "yellow" if bad else "green"))
    return FAILED if failed or counts["changed"] else PASSED


def _grammar_example() -> str:
    """The ruling at the head of the scenario grammar, indented for the help: the one
    example of a scenario file, which the tests run as printed."""
    header = (RULES_DIR / "scenario.tx").read_text(encoding="utf-8").split("*/")[0]
    example = textwrap.dedent(header.split("\n\n", 1)[1]).strip("\n")
    return textwrap.indent(example, "      ").lstrip()


scenarios_command.__doc__ = (scenarios_command.__doc__ or "").replace(
    "{example}", _grammar_example())


def _runs(scenarios: list[Scenario], args: argparse.Namespace) -> list[Run]:
    """The runs to make: each scenario under each of its editions, or under the one
    edition asked for (`runs_under`)."""
    chosen = [s for s in scenarios
              if not args.pattern or args.pattern in s.path or args.pattern in s.name]
    if not args.edition:
        runs = [Run(s, e) for s in chosen for e in s.editions]
    else:
        target: Ruleset = load_edition(args.edition)
        runs = runs_under(chosen, target)
    return [dataclasses.replace(run, backend=args.backend) for run in runs]


def _nothing_to_run(args: argparse.Namespace) -> str:
    """Why no scenario was chosen: a run of none would pass, hiding a mistyped
    pattern or edition."""
    chosen = " ".join(filter(None, [f"-k {args.pattern!r}" if args.pattern else None,
                                    f"--edition {args.edition}" if args.edition
                                    else None]))
    return f"no scenario matches {chosen}" if chosen else "no scenarios found"


def _shown_log(r: Result, log: bool | None) -> list[LogEntry] | None:
    """The part of a run's log to show: all of it with `--log`, up to the failure
    for a failed run by default, none with `--no-log`."""
    if not r.log:  # play never began
        return None
    if log:
        return r.log
    if log is None and r.status in ("failed", "xpassed"):
        return r.log_to_failure()
    return None


def _print(con: Console, r: Result, args: argparse.Namespace) -> None:
    word, colour = _STATUS[r.status]
    if args.quiet and r.status in ("passed", "xfailed"):
        return
    edition = f"{r.under} as {r.edition}" if r.under else r.edition
    line = f"{con.style(word, colour)}  {display_path(r.scenario.path)}::" \
           f"{r.scenario.name} [{edition}]"
    if r.status == "xfailed":
        line += f"  (xfail: {r.reason})"
    if r.status == "changed" and r.base is not None:
        line += f"  (under the {r.edition}: {r.base.status})"
    con.print(line)
    if r.status in ("failed", "xpassed", "changed"):
        for f in r.failures:
            text = f"{display_origin(f.origin)}: {f.what}"
            if f.expected is not None:
                text += f"\n        expected: {f.expected}\n        actual:   {f.actual}"
            con.print(f"      {text}")
    log = _shown_log(r, args.log)
    if log is not None:
        con.print(f"      {'log' if args.log else 'log up to the failure'}:")
        for text in log_lines(log, lambda c: con.style(f"  [{c}]", "dim")):
            con.print(f"        {text}")


def log_lines(log: list[LogEntry], cite: Callable[[str], str]) -> list[str]:
    """A run's log as lines: each step of the script (with its line and column)
    and the decision it answered, then the events it caused, each with its rule."""
    lines = []
    for entry in log:
        step = entry.step
        if step is None:
            lines.append("as play begins:")
        else:
            where = f"{step.origin.line}:{step.origin.col}"
            lines.append(f"{where}  {step}  <- {entry.decision}: {entry.taken}")
        for e in entry.events:
            fields = "".join(f" {k}={v}" for k, v in e.fields)
            lines.append(f"    {e.kind}{fields}" + (cite(e.cite) if e.cite else ""))
    return lines


def _result_json(r: Result, log: list[LogEntry] | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "scenario": r.scenario.name, "file": display_path(r.scenario.path),
        "edition": r.edition, "under": r.under, "status": r.status,
        "reason": r.reason,
        "failures": [{"file": display_path(f.origin.file), "line": f.origin.line,
                      "col": f.origin.col, "what": f.what, "expected": f.expected,
                      "actual": f.actual} for f in r.failures]}
    if r.base is not None:
        data["base_status"] = r.base.status
    if log is not None:
        data["log"] = [e.to_json() for e in log]
    return data


def _coverage(results: list[Result]) -> list[EditionCoverage]:
    """One report per edition played, in the order editions were first played."""
    by_edition: dict[str, list[dict[str, Any]]] = {}
    rulesets: dict[str, Ruleset] = {}
    for r in results:
        if r.trace is not None:
            by_edition.setdefault(r.trace["edition"], []).append(r.trace)
            rulesets.setdefault(r.trace["edition"], r.trace["ruleset"])
    return [edition_coverage(rulesets[name], recs) for name, recs in by_edition.items()]
