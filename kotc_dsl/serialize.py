"""Rulesets as JSON-ready data, for `--format json` and for tools in other languages.

Rules are written field by field from their dataclasses, so a rule or field added
to `ast` appears here without a change. Programs and expressions are written as
kotc text (see `unparse`), which reads better than a tree and parses back to it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypedDict

from . import ast
from .ruleset import Ruleset
from .unparse import unparse_expr, unparse_program

__all__ = ["CitationDict", "RulesetDict", "citation_to_dict", "rule_to_dict",
           "ruleset_to_dict"]

# Fields written under another key (`name`, `citation`) or not at all (`origin`).
_SKIPPED = {"origin", "cite", "ident"}


OriginFormat = Callable[[ast.Origin], str]


class CitationDict(TypedDict):
    """A rule's citation: `interpretation` is None where the book is followed."""

    edition: str
    section: str
    interpretation: str | None


class RulesetDict(TypedDict):
    """An edition: each section a list of rules, each rule as `rule_to_dict` writes
    it (its keys depend on the rule's class)."""

    edition: str
    number: int
    game: str
    source: str | None
    summary: str | None
    lineage: list[str]
    sections: dict[str, list[dict[str, Any]]]


def ruleset_to_dict(ruleset: Ruleset, sections: tuple[str, ...] = ast.SECTIONS,
                    origin: OriginFormat = str) -> RulesetDict:
    """An edition and its rules, every section in rulebook order.

    Args:
        ruleset: a loaded edition.
        sections: the sections to include (all of them by default).
        origin: writes a rule's origin; `str` gives `file:line:col` with the path
            as loaded (the CLI passes one that shortens paths for display).

    Returns:
        `{"edition", "number", "game", "source", "summary", "lineage", "sections"}`, where
        `sections` maps each section to a list of `rule_to_dict` entries.
    """
    return {
        "edition": ruleset.name,
        "number": ruleset.number,
        "game": ruleset.game,
        "source": ruleset.source,
        "summary": ruleset.summary,
        "lineage": list(ruleset.lineage),
        "sections": {s: [rule_to_dict(r, origin) for r in ruleset.rules(s)]
                     for s in sections},
    }


def rule_to_dict(rule: ast.Rule, origin: OriginFormat = str) -> dict[str, Any]:
    """One rule: `kind`, `name`, `key`, `type`, its own fields, `citation`, `origin`.

    `type` is the rule's class, which tells apart rules of one kind (a `ban` from
    a `revised_cost`, both `text` rules).
    """
    data: dict[str, Any] = {"kind": rule.kind, "name": rule.name, "key": rule.key,
                            "type": type(rule).__name__}
    data.update(_fields(rule))
    data["origin"] = origin(rule.origin)
    return data


def citation_to_dict(cite: ast.Citation | None) -> CitationDict | None:
    """`{"edition", "section", "interpretation"}`; None for a rule without one."""
    if cite is None:
        return None
    return {"edition": cite.edition, "section": cite.section,
            "interpretation": cite.interpretation or None}


def _fields(node: ast.Node) -> dict[str, Any]:
    data = {f.name: _value(getattr(node, f.name), f.type)
            for f in dataclasses.fields(node) if f.name not in _SKIPPED}
    if hasattr(node, "cite"):
        data["citation"] = citation_to_dict(node.cite)
    return data


def _value(value: Any, annotation: Any = None) -> Any:
    if annotation in ("Block", ast.Block):
        return unparse_program(value)
    if isinstance(value, ast.Expr):
        return unparse_expr(value)
    if isinstance(value, ast.Stmt):
        return unparse_program((value,))
    if isinstance(value, ast.Citation):
        return citation_to_dict(value)
    if isinstance(value, ast.Node):
        return _fields(value)
    if isinstance(value, tuple):
        return [_value(v) for v in value]
    return value
