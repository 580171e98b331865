"""Pygments lexers for the four kotc languages: rules (.kotc), cards (.kcard),
decks (.kdeck) and scenarios (.kscn).

The keywords are read from the grammars (`rules/*.tx`), so a word added to the
language is coloured without a change here. The lexers are registered as
Pygments plugins (`pygments.lexers` entry points), so MkDocs, Sphinx and
`pygmentize` find them by name (`kotc`, `kcard`, `kdeck`, `kscn`); `kotc show`
colours its rules with them on a terminal. `textmate.py` writes the same
tokens as a TextMate grammar for editors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any, ClassVar

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

# Pygments' stubs leave `bygroups` untyped: named here with a type
_groups: Callable[..., Any] = bygroups

__all__ = ["LANGUAGES", "CardLexer", "DeckLexer", "RulesLexer", "ScenarioLexer",
           "keywords", "lexer_for"]

# each language's root grammar file and the grammars it imports
LANGUAGES = {"kotc": "kotc", "kcard": "card", "kdeck": "deck", "kscn": "scenario"}

_QUOTED = re.compile(r"'([A-Za-z_][\w]*)'")
_IMPORT = re.compile(r"^import\s+([\w.]+)", re.MULTILINE)


def _grammar_text(name: str) -> str:
    return (resources.files("kotc.rules") / f"{name}.tx").read_text(encoding="utf-8")


@cache
def keywords(language: str) -> tuple[str, ...]:
    """The keywords of a language (`kotc`, `kcard`, `kdeck`, `kscn`): the quoted
    words of its grammar and of every grammar that grammar imports, longest
    first.

    >>> "shuffle" in keywords("kotc") and "flavor" in keywords("kcard")
    True
    """
    seen: set[str] = set()
    todo = [LANGUAGES[language]]
    found: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        text = _grammar_text(name.replace(".", "/"))
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)  # the sample in the header
        text = re.sub(r"//.*", "", text)
        found.update(_QUOTED.findall(text))
        todo += _IMPORT.findall(text)
    return tuple(sorted(found, key=lambda w: (-len(w), w)))


def _common(language: str) -> list[Any]:
    return [
        (r"\s+", Whitespace),
        (r"//.*?$", Comment.Single),
        (r"/\*", Comment.Multiline, "comment"),
        (r'(@)(\s*)("(?:\\.|[^"\\])*")',
         _groups(Name.Decorator, Whitespace, String.Doc)),
        (r'"(?:\\.|[^"\\])*"', String.Double),
        (r"'(?:\\.|[^'\\])*'", String.Single),
        (words(keywords(language), suffix=r"\b"), Keyword),
        (r"\d+(\.\.\d*)?", Number.Integer),
        (r"->|→|==|!=|<=|>=|[<>=+\-*/]", Operator),
        (r"[{}()\[\],:;.]", Punctuation),
        (r"[A-Za-z_][\w]*", Name),
        (r".", Text),
    ]


_COMMENT = [
    (r"[^*/]+", Comment.Multiline),
    (r"\*/", Comment.Multiline, "#pop"),
    (r"[*/]", Comment.Multiline),
]

# a card's ability text: printed prose up to the closing brace
_PROSE = [
    (r"\}", Punctuation, "#pop"),
    (r"(→|->)", Operator),
    (r"[^}→\-]+", String.Doc),
    (r"-", String.Doc),
]


class RulesLexer(RegexLexer):
    """A kotc rule file: an edition, its sections and rules, each with its citation."""

    name = "kotc rules"
    aliases: ClassVar[list[str]] = ["kotc"]
    filenames: ClassVar[list[str]] = ["*.kotc"]
    tokens: ClassVar[dict[str, Any]] = {
        "root": _common("kotc"),
        "comment": _COMMENT,
    }


class CardLexer(RegexLexer):
    """A kotc card file: card designs with their printed ability texts."""

    name = "kotc cards"
    aliases: ClassVar[list[str]] = ["kcard"]
    filenames: ClassVar[list[str]] = ["*.kcard"]
    tokens: ClassVar[dict[str, Any]] = {
        "root": [
            (r'(ability)(\s*)("(?:\\.|[^"\\])*")?(\s*)(\{)',
             _groups(Keyword, Whitespace, String.Double, Whitespace, Punctuation),
             "prose"),
            include("common"),
        ],
        "common": _common("kcard"),
        "prose": _PROSE,
        "comment": _COMMENT,
    }


class DeckLexer(RegexLexer):
    """A kotc deck file: a deck's cards and how many of each."""

    name = "kotc deck"
    aliases: ClassVar[list[str]] = ["kdeck"]
    filenames: ClassVar[list[str]] = ["*.kdeck"]
    tokens: ClassVar[dict[str, Any]] = {
        "root": _common("kdeck"),
        "comment": _COMMENT,
    }


class ScenarioLexer(RegexLexer):
    """A kotc scenario (ruling) file: a position, dice, actions and expectations."""

    name = "kotc scenario"
    aliases: ClassVar[list[str]] = ["kscn"]
    filenames: ClassVar[list[str]] = ["*.kscn"]
    tokens: ClassVar[dict[str, Any]] = {
        "root": [
            (r'(ability)(\s*)("(?:\\.|[^"\\])*")?(\s*)(\{)',
             _groups(Keyword, Whitespace, String.Double, Whitespace, Punctuation),
             "prose"),
            include("common"),
        ],
        "common": _common("kscn"),
        "prose": _PROSE,
        "comment": _COMMENT,
    }


def lexer_for(language: str) -> RegexLexer:
    """A lexer of the language named `kotc`, `kcard`, `kdeck` or `kscn`.

    Raises:
        KeyError: no such language.
    """
    lexers: dict[str, type[RegexLexer]] = {
        "kotc": RulesLexer, "kcard": CardLexer, "kdeck": DeckLexer, "kscn": ScenarioLexer}
    return lexers[language]()
