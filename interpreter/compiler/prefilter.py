"""Which abilities an action could ever accept, read from its `requires` alone.

An action such as `activate (source: minion, ability: ability) requires ...`
would otherwise test every ability of every card its player can see, each time
options are listed. Most of those tests fail for reasons fixed in advance: the
ability lacks a modifier the condition asks for (`ability is ghost_play`), or
the card sits in a zone the condition rules out (`source in you.battlefield`).
This module evaluates the condition with only those facts known (three-valued:
true, false, unknown) so the binder can skip, per card design and zone, the
abilities for which it is false whatever the rest of the state. Sound by
construction: anything not decided by those facts stays "unknown" and is
checked in full at run time.
"""

from __future__ import annotations

from kotc.dsl import ast

UNKNOWN = None


def could_hold(
    cond: ast.Expr,
    card: str,
    ability: str,
    modifiers: frozenset[str],
    known_modifiers: frozenset[str],
    zone: str,
    zones: frozenset[str],
) -> bool:
    """Whether `cond` may hold when parameter `card` is a card in `zone` and
    parameter `ability` is one of its abilities with these `modifiers`."""
    facts = _Facts(card, ability, modifiers, known_modifiers, zone, zones)
    return facts.eval(cond) is not False


class _Facts:
    def __init__(self, card: str, ability: str, modifiers: frozenset[str],
                 known_modifiers: frozenset[str], zone: str, zones: frozenset[str]):
        self.card, self.ability = card, ability
        self.modifiers, self.known_modifiers = modifiers, known_modifiers
        self.zone, self.zones = zone, zones

    def eval(self, e: ast.Expr) -> bool | None:
        if isinstance(e, ast.BoolLit):
            return bool(e.value)
        if isinstance(e, ast.Unary) and e.op == "not":
            v = self.eval(e.operand)
            return UNKNOWN if v is UNKNOWN else not v
        if isinstance(e, ast.Binary):
            if e.op == "and":
                a, b = self.eval(e.left), self.eval(e.right)
                if a is False or b is False:
                    return False
                return True if a is True and b is True else UNKNOWN
            if e.op == "or":
                a, b = self.eval(e.left), self.eval(e.right)
                if a is True or b is True:
                    return True
                return False if a is False and b is False else UNKNOWN
            if e.op == "is":
                return self._is(e)
            if e.op == "in":
                return self._in(e)
        return UNKNOWN

    def _is(self, e: ast.Binary) -> bool | None:
        left, right = e.left, e.right
        if (
            isinstance(left, ast.Path)
            and left.parts == (self.ability,)
            and isinstance(right, ast.Path)
            and len(right.parts) == 1
            and right.parts[0] in self.known_modifiers
        ):
            return right.parts[0] in self.modifiers
        return UNKNOWN

    def _in(self, e: ast.Binary) -> bool | None:
        # a card is in exactly one zone: `card in x.Z` is false unless Z is its zone
        left, right = e.left, e.right
        if (
            isinstance(left, ast.Path)
            and left.parts == (self.card,)
            and isinstance(right, ast.Path)
            and len(right.parts) >= 2
            and right.parts[-1] in self.zones
            and right.parts[-1] != self.zone
        ):
            return False
        return UNKNOWN


__all__ = ["could_hold"]
