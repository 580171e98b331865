"""The kotc languages' textX metamodels, and parsing with them.

One factory, `metamodel(kind)`, builds the metamodel of each language kotc reads:
rule files (`kotc`), card files (`card`), deck files (`deck`) and rulings
(`scenario`), from the grammars in `rules/`. kotc's loader parses through these;
`registration` registers the same languages with textX (`textx check`), adding
the whole-edition checks that kotc's loader runs itself.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sys
from collections.abc import Iterator
from typing import Any, TypeAlias

from textx import TextXSyntaxError, metamodel_from_file
from textx.metamodel import TextXMetaModel

from .shipped import EDITIONS_DIR, RULES_DIR

__all__ = ["EDITIONS_DIR", "RULES_DIR", "TextXModel", "metamodel", "parse", "parse_other"]

# textX ships no type information, so to the type checker its metamodels
# (`TextXMetaModel`) and the models they parse are `Any`: this module is where they
# enter kotc. A parsed model is named `TextXModel`; the loaders (`convert` for rule
# files, `cards`, `scenarios`) turn it into kotc's own typed data.
TextXModel: TypeAlias = Any

# the root grammar of each language, in `rules/`
GRAMMARS = {"kotc": "kotc.tx", "card": "card.tx", "deck": "deck.tx",
            "scenario": "scenario.tx"}


def metamodel(kind: str) -> TextXMetaModel:
    """A new metamodel of one of kotc's languages (a key of `GRAMMARS`): its grammar,
    with keywords kept out of names (`autokwd`)."""
    return metamodel_from_file(str(RULES_DIR / GRAMMARS[kind]), autokwd=True)


@functools.cache
def _shared(kind: str) -> TextXMetaModel:
    return metamodel(kind)


# The longest number kotc reads: far past any stat, count or limit, and far below
# the length Python refuses to convert (4,300 digits).
MAX_DIGITS = 100
_TOO_LONG = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
# Control characters other than tab and the line ends: a name holding an escape
# sequence could rewrite what a terminal shows.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# The deepest brackets ((), [], {} together) kotc reads: far past what rules need, and
# shallow enough that what parses can be converted, checked, compiled and played
# within Python's usual recursion limit; what is deeper is refused where it is.
MAX_NESTING = 40
# Strings and comments hold brackets that do not nest; the rest is read for them.
_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|[()\[\]{}]', re.DOTALL)
# The parser descends some 35 Python frames per bracket: enough for `MAX_NESTING`.
_PARSE_RECURSION = 10_000


def screen(text: str, path: str) -> None:
    """Refuse, located, what no kotc file holds and the parser would not stop:
    a number longer than `MAX_DIGITS` digits, a control character.

    Raises:
        TextXSyntaxError: at the first such thing.
    """
    for pattern, what in ((_TOO_LONG, "number"), (_CONTROL, "control")):
        found = pattern.search(text)
        if found is None:
            continue
        line = text.count("\n", 0, found.start()) + 1
        col = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
        message = (f"a number of {len(found.group())} digits (kotc reads at most "
                   f"{MAX_DIGITS})" if what == "number"
                   else f"control character U+{ord(found.group()):04X} in the text")
        raise TextXSyntaxError(message, line=line, col=col, filename=path)
    _screen_nesting(text, path)


def _screen_nesting(text: str, path: str) -> None:
    depth = 0
    for found in _BRACKETS.finditer(text):
        bracket = found.group()
        if len(bracket) > 1:  # a string or a comment
            continue
        if bracket in "([{":
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, found.start()) + 1
                col = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
                raise TextXSyntaxError(
                    f"brackets nested more than {MAX_NESTING} deep", line=line, col=col,
                    filename=path)
        elif bracket in ")]}":
            depth = max(depth - 1, 0)


@contextlib.contextmanager
def _deep_enough() -> Iterator[None]:
    """Let the parser descend as deep as `MAX_NESTING` brackets need (Python 3.11
    runs Python-to-Python calls without growing the C stack)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, _PARSE_RECURSION))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def parse(text: str, path: str) -> TextXModel:
    """Parse one rule file's text with the kotc metamodel (no validation)."""
    screen(text, path)
    with _deep_enough():
        return _shared("kotc").model_from_str(text, file_name=path)


def parse_other(kind: str, text: str, path: str) -> TextXModel:
    """Parse a card file (`kind="card"`), a deck file (`"deck"`) or a scenario
    file (`"scenario"`)."""
    screen(text, path)
    with _deep_enough():
        return _shared(kind).model_from_str(text, file_name=path)
