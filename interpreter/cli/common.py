"""What every `kotc` command shares: the console it writes through, how paths,
places and problems are shown, and the arguments several commands take."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from kotc.compiler.programs import BACKENDS
from kotc.dsl import Diagnostic, ast
from kotc.dsl.errors import shortened
from kotc.dsl.load import SUFFIX, find_edition
from kotc.play.agents import agent_maker

OK, PROBLEMS = 0, 2


_STYLES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33",
           "cyan": "36"}


class Console:
    """Where the command writes, and whether it may use colour.

    Colour is used only on a terminal and only while `NO_COLOR` is unset or empty
    (https://no-color.org), so piped output and files stay plain text.
    """

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None):
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.colour = isatty(self.out) and not os.environ.get("NO_COLOR")

    def print(self, text: str = "") -> None:
        print(escaped(text), file=self.out)

    def error(self, text: str) -> None:
        print(escaped(shortened(text)), file=self.err)

    def style(self, text: str, *styles: str) -> str:
        if not self.colour or not styles:
            return text
        codes = ";".join(_STYLES[s] for s in styles)
        return f"\033[{codes}m{text}\033[0m"

    def json(self, data: Any) -> None:
        self.print(json.dumps(data, indent=2, ensure_ascii=False))


# A colour of kotc's own (kept), or a control character other than a line end or a
# tab (shown escaped): a name or a string read from a file could otherwise move the
# cursor, erase a line or retitle the terminal.
_CONTROLS = re.compile(r"(\x1b\[[0-9;]*m)|([\x00-\x08\x0b-\x1f\x7f-\x9f])")


def escaped(text: str) -> str:
    """`text` with its control characters escaped (`\\x1b`), colours kept.

    >>> escaped("a\\x1b[2Kb\\n")
    'a\\\\x1b[2Kb\\n'
    """
    return _CONTROLS.sub(lambda m: m.group(1) or ascii(m.group(2))[1:-1], text)


def isatty(stream: TextIO) -> bool:
    return bool(getattr(stream, "isatty", None)) and stream.isatty()


def display_path(file: str) -> str:
    """A path as a user typed it: relative to the current directory when under it."""
    path = Path(file)
    if not path.is_absolute():
        return file
    for here in (Path.cwd(), Path.cwd().resolve()):
        if path.is_relative_to(here):
            return str(path.relative_to(here))
    return file


def display_origin(origin: ast.Origin) -> str:
    """`file:line:col`, or only the name where there is no place in a file (line 0:
    an edition's name that names none)."""
    if origin.line == 0:
        return display_path(origin.file)
    return f"{display_path(origin.file)}:{origin.line}:{origin.col}"


def diagnostic_text(d: Diagnostic, con: Console | None = None) -> str:
    where = display_origin(d.origin)
    return f"{con.style(where, 'bold') if con else where}: {d.message}"


def diagnostic_dict(d: Diagnostic) -> dict:
    return {"file": display_path(d.origin.file), "line": d.origin.line,
            "col": d.origin.col, "message": d.message}


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def edition_path(name: str) -> Path | None:
    path = Path(name)
    if path.suffix == SUFFIX or path.is_file():
        return path if path.is_file() else None
    return find_edition(name)


def edition_argument(parser: argparse.ArgumentParser, **kwargs) -> None:
    """The EDITION argument, as every command that reads one takes it."""
    parser.add_argument("edition", metavar="EDITION", **kwargs,
                        help="a shipped edition's name (`kotc editions` lists them) "
                             "or a .kotc file")


def below_one(con: Console, command: str, flags: tuple) -> bool:
    """Whether some count among `(flag, value)` pairs is below 1 (reported)."""
    for flag, value in flags:
        if value < 1:
            con.error(f"kotc {command}: {flag} must be at least 1, not {value}")
            return True
    return False


def check_decks(con: Console, command: str, decks: list[str] | None,
                players: int) -> bool:
    """Whether there are no more deck files than seats; if there are, say so (a
    deck past the last seat would be silently left out of the game)."""
    if decks and len(decks) > players:
        con.error(f"kotc {command}: --decks: {len(decks)} decks for {players} players "
                  "(give one per seat, or fewer to share them in turn)")
        return False
    return True


def format_option(parser: argparse.ArgumentParser) -> None:
    """`--format text|json`, as every command that has one offers it."""
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text for people (default), json for programs")


def backend_option(parser: argparse.ArgumentParser) -> None:
    """`--backend`, as every command that plays games offers it (play, simulate,
    test, fuzz)."""
    parser.add_argument(
        "--backend", choices=BACKENDS, default="generated",
        help="how the rules' programs run: `generated` (the default) runs the Python "
             "kotc writes for them; `reference` interprets their intermediate form "
             "directly, at about half the speed: it is what they mean, and the "
             "generated code must agree with it. Both play the same games, so a "
             "game that differs between the two shows a fault of kotc's own, not "
             "of the rules")


def agent_option(p, human: bool) -> None:
    """`--agent`, for `play` (where a person may take a seat) and `simulate`."""
    person = "`human` asks you at the terminal, showing what that seat sees; "
    p.add_argument(
        "--agent",
        nargs="+",
        default=["random"],
        metavar="AGENT",
        help="how each seat chooses, one per seat in turn (one for all): "
        + (person if human else "")
        + "`random` (the default); `first` takes the first legal action, so it may "
        "undo and redo one forever (an exchange where the rules allow any number) "
        "until the game's decision limit ends it; `MODULE:NAME` is your own: a class "
        "or function of a module (importable, or a .py file here) that, called with "
        "a seed, makes an object with `act(game) -> action`",
    )


def check_agents(con, command: str, specs: list[str], players: int) -> bool:
    """Whether every agent named can be made, for that many players; if not, say
    why."""
    if len(specs) > players:
        con.error(f"kotc {command}: --agent: {len(specs)} agents for {players} "
                  "players (give one per seat, or one for all)")
        return False
    for spec in specs:
        if spec == "human" and command == "play":
            continue
        try:
            agent_maker(spec)(0)  # made once, to be sure it can be
        except ValueError as err:
            con.error(f"kotc {command}: --agent: {err}")
            return False
    return True

