"""TextMate grammars for the kotc languages, for VS Code and other editors.

Written from the same keywords as the Pygments lexers (`lexer.keywords`, read
from the grammars), so editors and the docs colour alike. The VS Code extension
in `editors/vscode/` holds the grammars written by

    python -m kotc.dsl.textmate editors/vscode/syntaxes

and a test checks they are up to date with the grammars.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from .lexer import keywords

__all__ = ["NAMES", "grammar", "write_grammars"]

# language -> (name shown, file suffix)
NAMES = {"kotc": ("kotc rules", "kotc"), "kcard": ("kotc cards", "kcard"),
         "kdeck": ("kotc deck", "kdeck"), "kscn": ("kotc scenario", "kscn")}


def grammar(language: str) -> dict[str, Any]:
    """The TextMate grammar of a language (`kotc`, `kcard`, `kdeck`, `kscn`).

    >>> grammar("kdeck")["scopeName"]
    'source.kdeck'
    """
    words = "|".join(re.escape(w) for w in keywords(language))
    patterns: list[dict[str, Any]] = [
        {"include": "#comments"},
        {"name": "meta.citation.kotc",
         "match": r'(@)\s*("(?:[^"\\]|\\.)*")',
         "captures": {"1": {"name": "storage.type.annotation.kotc"},
                      "2": {"name": "string.quoted.double.citation.kotc"}}},
        {"name": "string.quoted.double.kotc", "match": r'"(?:[^"\\]|\\.)*"'},
        {"name": "string.quoted.single.kotc", "match": r"'(?:[^'\\]|\\.)*'"},
        {"name": "keyword.other.kotc", "match": rf"\b(?:{words})\b"},
        {"name": "constant.numeric.kotc", "match": r"\b\d+(?:\.\.\d*)?"},
        {"name": "keyword.operator.kotc", "match": r"->|→|==|!=|<=|>=|[<>=+\-*/]"},
    ]
    repository: dict[str, Any] = {
        "comments": {"patterns": [
            {"name": "comment.line.double-slash.kotc", "match": r"//.*$"},
            {"name": "comment.block.kotc", "begin": r"/\*", "end": r"\*/"},
        ]},
    }
    if language in ("kcard", "kscn"):  # an ability's printed text is prose
        patterns.insert(1, {
            "name": "meta.ability.kotc",
            "begin": r'\b(ability)\b\s*("(?:[^"\\]|\\.)*")?\s*(\{)',
            "beginCaptures": {"1": {"name": "keyword.other.kotc"},
                              "2": {"name": "string.quoted.double.kotc"},
                              "3": {"name": "punctuation.section.block.begin.kotc"}},
            "end": r"\}",
            "endCaptures": {"0": {"name": "punctuation.section.block.end.kotc"}},
            "contentName": "string.unquoted.ability-text.kotc",
            "patterns": [{"name": "keyword.operator.cost.kotc", "match": "→|->"}],
        })
    name, suffix = NAMES[language]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/"
                   "tmlanguage.json",
        "name": name,
        "scopeName": f"source.{suffix}",
        "fileTypes": [suffix],
        "patterns": patterns,
        "repository": repository,
    }


def write_grammars(folder: Path) -> list[Path]:
    """Write each language's grammar as `<suffix>.tmLanguage.json` in `folder`."""
    written = []
    for language, (_, suffix) in NAMES.items():
        path = folder / f"{suffix}.tmLanguage.json"
        text = json.dumps(grammar(language), indent=2, ensure_ascii=False)
        path.write_text(text + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    write_grammars(Path(sys.argv[1] if len(sys.argv) > 1 else "."))
