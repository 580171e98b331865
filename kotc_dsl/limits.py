"""kotc's bounds on the work one rule may ask of the engine, and those an edition
states (`limits { limit NAME VALUE }`).

A rule file can ask for anything its grammar allows (`roll 1000 * 1000 * 1000
dice`, a card with `sp 1000000000000`); played, that exhausts memory or never ends.
No edition's rulebook comes near these numbers, so each bound is far past play and
far below harm. An edition may state a tighter bound, never a looser one: kotc's
are the most the engine will do.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ast
from .ruleset import Ruleset

__all__ = ["DEFAULT_LIMITS", "Bound", "bounds"]

# name -> (kotc's bound, what it bounds)
DEFAULT_LIMITS: dict[str, tuple[int, str]] = {
    "stat_value": (10**9, "a stat's value"),
    "dice_per_roll": (10_000, "the dice of one roll"),
    "repeat_rounds": (100_000, "the rounds of one repeat"),
    "work_per_step": (1_000_000, "the loop rounds run between two decisions"),
    "turns": (100_000, "the turns of one game"),
    "decisions": (100_000, "the decisions of one game"),
}


@dataclass(frozen=True)
class Bound:
    """One bound in force: its value, what it bounds, and the rule that states it
    (None: kotc's own)."""

    name: str
    value: int
    what: str
    rule: ast.Limit | None = None


def bounds(ruleset: Ruleset | None) -> dict[str, Bound]:
    """The bounds in force under `ruleset` (kotc's alone for None), by name."""
    stated = ruleset.limits if ruleset is not None else {}
    found = {}
    for name, (value, what) in DEFAULT_LIMITS.items():
        rule = stated.get(name)
        found[name] = Bound(name, rule.value if rule else value, what, rule)
    return found
