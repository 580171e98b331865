"""`kotc diff`: what changed between two editions, rule by rule."""

from __future__ import annotations

from kotc.flowgraph.diff import diff_rulesets, to_json, to_markdown, to_text

from .graph import load_or_report
from .output import coloured, paged, pager_option


def diff_arguments(parser) -> None:
    """Arguments of `kotc diff`."""
    parser.add_argument("old", metavar="A", help="the edition compared from")
    parser.add_argument("new", metavar="B", help="the edition compared to")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                        help="text for a terminal (default), markdown, or json")
    pager_option(parser)


def diff_command(args, con) -> int:
    """Say what changed between two editions, section by section.

    Rules added (+), removed (-), changed (~) and renamed (>), each with its
    citation and rule-file position on both sides; a changed rule lists the
    fields that differ. A and B are shipped editions' names or .kotc files.
    """
    old, new = load_or_report(args.old, con), load_or_report(args.new, con)
    if old is None or new is None:
        return 2
    diff = diff_rulesets(old, new)
    if args.format == "json":
        con.print(to_json(diff))
    elif args.format == "markdown":
        con.print(to_markdown(diff).rstrip("\n"))
    else:
        def write(con) -> int:
            con.print(to_text(diff, con.style, lambda text: coloured(con, text))
                      .rstrip("\n"))
            return 0

        return paged(con, write, pager=not args.no_pager)
    return 0

