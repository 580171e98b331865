"""Output for people at a terminal: rule text coloured by the languages' lexer,
and long output through a pager. Neither happens when the output goes to a file
or a pipe, so scripts read the same plain text as before."""

from __future__ import annotations

import argparse
import io
import os
import pydoc
import shutil
import sys
from collections.abc import Callable

from kotc.dsl.lexer import lexer_for
from pygments import highlight
from pygments.formatters import TerminalFormatter

from .common import Console, isatty


def coloured(con: Console, text: str, language: str = "kotc") -> str:
    """`text` in a kotc language, coloured when `con` writes colour."""
    if not con.colour:
        return text
    return highlight(text, lexer_for(language), TerminalFormatter()).rstrip("\n")


def paged(con: Console, work: Callable[[Console], int], pager: bool = True) -> int:
    """Run `work`, writing through `con`; when it writes to a terminal (and is
    read at one), show what it wrote through the pager if it is longer than the
    screen: `$PAGER` (or `$MANPAGER`), else `less`, told to keep colours and
    to quit at once on a short text (`LESS=FRX`, as git does, unless `LESS` is
    set). Returns `work`'s exit status.
    """
    if not (pager and isatty(con.out) and isatty(sys.stdin)) or os.environ.get(
            "TERM") == "dumb":
        return work(con)
    buffer = io.StringIO()
    inner = Console(out=buffer, err=con.err)
    inner.colour = con.colour
    status = work(inner)
    text = buffer.getvalue()
    if text.count("\n") < shutil.get_terminal_size().lines - 1:
        con.out.write(text)
        con.out.flush()
    else:
        os.environ.setdefault("LESS", "FRX")
        pydoc.pager(text)
    return status


def pager_option(parser: argparse.ArgumentParser) -> None:
    """`--no-pager`, for the commands whose output may be long."""
    parser.add_argument("--no-pager", action="store_true",
                        help="print straight to the terminal, even when the output "
                             "is longer than the screen (default: page it)")
