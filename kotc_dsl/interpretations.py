"""An edition's interpretations: the choices its rules make where the rulebook is
silent, each written in the data as `@ "Section" interpretation "..."`.

A rule may carry more than one: its own citation, and those of the parts it is
written in (a phase's program, a variant, a skip). `interpretations` lists them
all, in rule order, with the rule that holds each, so `kotc show EDITION
--interpretations` can say every judgement call an edition makes and where.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from . import ast
from .ruleset import Ruleset


@dataclass(frozen=True)
class Interpretation:
    """One labelled choice: the rule that makes it, its section, and what it says."""

    section: str  # the rule file's section (`setup`, `legality`...)
    rule: ast.Rule
    cite: ast.Citation

    @property
    def text(self) -> str:
        return self.cite.interpretation or ""


def interpretations(rs: Ruleset) -> list[Interpretation]:
    """Every interpretation of an edition's merged rules, inherited ones included.

    Args:
        rs: the edition.

    Returns:
        One entry per labelled citation, in section and rule order.
    """
    found: list[Interpretation] = []
    for section in ast.SECTIONS:
        for rule in rs.rules(section):
            found.extend(Interpretation(section, rule, cite)
                         for cite in dict.fromkeys(_citations(rule))
                         if cite.interpretation)
    return found


def _citations(node: object) -> Iterator[ast.Citation]:
    """Every citation inside a node (itself included), depth first."""
    if isinstance(node, ast.Citation):
        yield node
    elif isinstance(node, tuple):
        for item in node:
            yield from _citations(item)
    elif isinstance(node, ast.Node):
        for f in dataclasses.fields(node):
            if f.name != "origin":
                yield from _citations(getattr(node, f.name))
