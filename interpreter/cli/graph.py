"""`kotc graph`: an edition's flow drawn as DOT, SVG or PNG, or the changes
between two editions in one drawing."""

from __future__ import annotations

import json
from pathlib import Path

from kotc.dsl import RulesetError, load_edition
from kotc.flowgraph.build import compile_ruleset
from kotc.flowgraph.diff import flow_diff
from kotc.flowgraph.flow import where
from kotc.flowgraph.render import (
    FLOWS,
    RenderError,
    file_format,
    render,
    to_dot,
    write_dot,
)

from .common import edition_argument
from .files import OUTPUT_HELP, output_problem, write_whole


def graph_arguments(parser) -> None:
    """Arguments of `kotc graph`."""
    edition_argument(parser, nargs="?")
    parser.add_argument("--flow", choices=FLOWS, default="all",
                        help="the part of the game to draw (default: all)")
    parser.add_argument("--diff", nargs=2, metavar=("A", "B"),
                        help="draw the changes from edition A to edition B in one graph")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="FILE.svg, FILE.png or FILE.dot (or .gv) (default: DOT on "
                             "stdout; a FILE without a suffix gets DOT); with --format "
                             "json, the JSON; " + OUTPUT_HELP)
    parser.add_argument("--format", choices=("dot", "json"), default="dot",
                        help="dot: a drawing (default); json: the whole graph as "
                             "networkx node-link data (nodes with their kind: step, "
                             "window, stack, return, check or end, and what it reads; "
                             "edges with their id, kind, label, guard and citation), "
                             "the graph a game moves through; not with --diff or --flow")


def graph_command(args, con) -> int:
    """Draw an edition's flow: setup, turn, battle steps, chain, and the game's end.

    Clusters per subflow; arrows labelled with the actions and guards that move
    along them; each node's citation under its title; the rules each arrow cites
    and the rule-file positions as SVG tooltips (a PNG, which has none, shows the
    arrows' citations under their labels); a legend of the styles drawn. With
    `--diff A B`, one graph shows what B added (green), removed (red, dashed)
    and changed (orange) relative to A, each listed action in its own colour.
    SVG and PNG need Graphviz's `dot`; DOT text never does. `--format json`
    writes the graph itself (networkx node-link data), the one games move
    through: each node's kind and what that kind reads, each edge's id.
    """
    if (args.edition is None) == (args.diff is None):
        con.error("kotc graph: give one EDITION, or --diff A B")
        return 2
    if args.format == "json":
        return _json_command(args, con)
    if args.output and not _output_ok(Path(args.output), con):
        return 2
    names = args.diff or [args.edition]
    loaded = [load_or_report(name, con) for name in names]
    if any(r is None for r in loaded):
        return 2
    flows = [compile_ruleset(r) for r in loaded]
    # a picture has no tooltips: its arrows show the rules they cite
    static = bool(args.output) and file_format(Path(args.output)) == "png"
    try:
        if args.diff:
            title = f"{flows[0].edition} -> {flows[1].edition}: " + (
                "whole game" if args.flow == "all" else args.flow)
            dot = write_dot(flow_diff(*flows), args.flow, title, "neither edition",
                            static)
        else:
            dot = to_dot(flows[0], args.flow, static)
    except ValueError as err:
        con.error(f"kotc graph: {err}")
        return 2
    if not args.output:
        con.print(dot.rstrip("\n"))
        return 0
    try:
        write_file(dot, Path(args.output))
    except RenderError as err:
        con.error(f"kotc graph: {err}")
        return 2
    except OSError as err:
        con.error(f"kotc graph: -o: cannot write {args.output}: {err.strerror or err}")
        return 2
    return 0


def _json_command(args, con) -> int:
    """`--format json`: the edition's whole graph as node-link data."""
    if args.diff or args.flow != "all":
        con.error("kotc graph: --format json writes one edition's whole graph "
                  "(not with --diff or --flow)")
        return 2
    if args.output:
        problem = output_problem(Path(args.output))
        if problem:
            con.error(f"kotc graph: -o: {problem}")
            return 2
    ruleset = load_or_report(args.edition, con)
    if ruleset is None:
        return 2
    data = compile_ruleset(ruleset).node_link()
    if not args.output:
        con.json(data)
        return 0
    try:
        write_whole(Path(args.output), json.dumps(data, indent=2, ensure_ascii=False)
                    + "\n")
    except OSError as err:
        con.error(f"kotc graph: -o: cannot write {args.output}: {err.strerror or err}")
        return 2
    return 0


def _output_ok(path: Path, con) -> bool:
    """Whether `-o` names a file that can be written, in a format offered; if not,
    say why before any edition is loaded or drawn."""
    try:
        file_format(path)
    except RenderError as err:
        con.error(f"kotc graph: -o: {err}")
        return False
    problem = output_problem(path)
    if problem:
        con.error(f"kotc graph: -o: {problem}")
    return problem is None


def load_or_report(name: str, con):
    """Load an edition by name or path; on failure print its located problems."""
    try:
        return load_edition(name)
    except RulesetError as err:
        for d in err.diagnostics:
            con.error(f"{where(d.origin)}: {d.message}")
        return None


def write_file(dot: str, path: Path) -> None:
    """Write DOT text, or render it to SVG or PNG, by suffix; a failure leaves no
    file behind, not even a part of one.

    Raises:
        RenderError: a format not in `FILE_FORMATS`, or `dot` failed.
        DotMissing: rendering needs the `dot` program, which is absent.
        OSError: the file cannot be written.
    """
    fmt = file_format(path)
    write_whole(path, dot if fmt in ("dot", "gv") else render(dot, fmt, path))

