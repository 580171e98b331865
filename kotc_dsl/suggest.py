"""Did you mean: the known word nearest to a misspelt one, for error messages.

A misspelt statement (`shufle`) is a syntax error, and the parser can only say
what it expected there; a misspelt counter, zone, stat or citation is an unknown
name, and the checks list what is known. Both read better with the one word the
writer most likely meant. The nearness is difflib's ratio (the standard
library's; a typo of a letter or two in a word of five or more is found).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import cache
from importlib import resources

__all__ = ["did_you_mean", "grammar_keywords", "hint", "syntax_hint"]

_EXPECTED = re.compile(r"'([^']+)'")
_WORD = re.compile(r"[A-Za-z_][\w-]*")
_KEYWORD = re.compile(r"'([a-z_][a-z_0-9]*)'")


def did_you_mean(word: str, known: Iterable[str], cutoff: float = 0.75) -> str | None:
    """The known word nearest to `word`, if one is near enough and not `word` itself.

    >>> did_you_mean("sheild", ["shield", "sword", "taunt"])
    'shield'
    >>> did_you_mean("frobnicate", ["shield", "sword"]) is None
    True
    """
    choices = sorted({k for k in known if k and k != word})
    by_case = {c.lower(): c for c in choices}
    if word.lower() in by_case:  # the same word in other capitals
        return by_case[word.lower()]
    found = difflib.get_close_matches(word.lower(), list(by_case), n=1, cutoff=cutoff)
    return by_case[found[0]] if found else None


def hint(word: str, known: Iterable[str]) -> str:
    """`; did you mean 'x'?` for a message that names an unknown `word`, or ''.

    >>> hint("granry", ["granary", "grave"])
    "; did you mean 'granary'?"
    """
    near = did_you_mean(word, known)
    return f"; did you mean '{near}'?" if near else ""


@cache
def grammar_keywords() -> frozenset[str]:
    """Every keyword of the kotc languages: the quoted words of their grammars."""
    words: set[str] = set()
    for entry in resources.files("kotc.rules").iterdir():
        if entry.name.endswith(".tx"):
            words.update(_KEYWORD.findall(entry.read_text(encoding="utf-8")))
    return frozenset(words)


def word_at(text: str, line: int, col: int) -> str:
    """The word that starts at `line`:`col` (1-based) of `text`, or ''.

    >>> word_at("setup {\\n  shufle deck\\n}", 2, 3)
    'shufle'
    """
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    found = _WORD.match(lines[line - 1], max(col - 1, 0))
    return found.group(0) if found else ""


def word_before(text: str, line: int, col: int) -> str:
    """The word that ends before `line`:`col` (1-based) of `text` on that line, or ''.

    >>> word_before("  shufle target.owner.deck", 1, 10)
    'shufle'
    """
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    words = _WORD.findall(lines[line - 1][: max(col - 1, 0)])
    return words[-1] if words else ""


def syntax_hint(text: str, line: int, col: int, message: str) -> str:
    """For a syntax error at `line`:`col` whose message lists what was expected:
    `; did you mean 'x'?` when the word there (or the word just before, which
    the parser may have read as a name) is a near miss of an expected keyword,
    or else of any keyword of the languages; '' otherwise.

    >>> syntax_hint("setup {\\n  shufle deck\\n}", 2, 3, "Expected 'step' or '}'")
    "; did you mean 'shuffle'?"
    """
    expected = [w for w in _EXPECTED.findall(message) if _WORD.fullmatch(w)]
    for word in (word_at(text, line, col), word_before(text, line, col)):
        if word and word not in grammar_keywords():
            found = hint(word, expected) or hint(word, grammar_keywords())
            if found:
                return found
    return ""
