"""An edition's words, as rulings may say them: edition-neutral names, and the
event log's kinds and fields.

Rulings speak edition-neutrally where editions rename things, each neutral name
found by what the thing is in the edition's data, never by the edition's name:
`minion` is the card type that battles, `power` the stat battle dice count,
`toughness` the stat damage reduces, `cost` the cost stat; `field`, `grave`,
`deck`, `hand`, `resources`, `reserves` and `traps` are zones found by their role;
`power_up` is the counter that adds one to its host's power (Offense, Sword) and
`immortal` the one that saves its host from being destroyed by an effect
(Immortality, Undying). An edition's own names are always accepted too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from . import ast
from .cards import CardDesign
from .ruleset import Ruleset
from .types import LOG_EVENTS

# The edition-neutral counter names, each with what the counter does.
COUNTER_ROLES = {
    "power_up": "adds one to its host's power",
    "immortal": "saves its host from being destroyed by an effect",
}


def log_events(rs: Ruleset) -> dict[str, dict[str, str]]:
    """Every event kind an edition's log may hold, with its fields and what each
    holds."""
    found = dict(LOG_EVENTS)
    for name, ev in rs.events.items():
        found[name] = {p.name: _held(p.type, rs) for p in ev.params}
    return found


def _held(t: str, rs: Ruleset) -> str:
    """What a field of an edition's own event holds, by its parameter's type."""
    if t in ("player", "players"):
        return t
    if t in ("card", "cards"):
        return t
    return "card" if t in rs.card_types else "value"


def _statements(block: tuple[ast.Stmt, ...]) -> Iterator[ast.Stmt]:
    """Every statement of a block, those nested in others' blocks included."""
    for st in block:
        yield st
        for f in dataclasses.fields(st):
            value = getattr(st, f.name)
            if isinstance(value, tuple) and value and all(
                    isinstance(x, ast.Stmt) for x in value):
                yield from _statements(value)


class Vocabulary:
    """What an edition calls the things scenarios may name edition-neutrally."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        types = rs.card_types
        dice = rs.setting("battle", "dice_per")
        cost = rs.setting("cards", "cost")
        self.power: str | None = dice.stat if dice else None
        # the card type that fights: the one with the stat battle dice are counted by
        self.minion: str | None = next(
            (t for t, k in types.items() if self.power in k.stats),
            next((t for t in types if t != "spell"), None))
        self.cost: str | None = cost.stat if cost else None
        kind = types.get(self.minion) if self.minion else None
        self.toughness: str | None = next(
            (s for s in (kind.stats if kind else ()) if s not in (self.power, self.cost)),
            None)
        zones = list(rs.zones.values())
        # where that type is in play: the field teams fight from
        field = next((z.name for z in zones if z.in_play and self.minion in z.holds),
                     None)

        def flagged(flag: str) -> str | None:
            return next((z.name for z in zones if flag in z.flags), None)

        self.zone_roles: dict[str, str | None] = {
            "deck": flagged("starting"),
            "hand": "hand" if "hand" in rs.zones else None,
            "field": field,
            "resources": flagged("resources"),
            "reserves": flagged("reserve"),
            "traps": next((z.name for z in zones if z.in_play and z.holds
                           and self.minion not in z.holds), None),
            "grave": self._grave(),
        }
        self.stat_roles: dict[str, str | None] = {
            "power": self.power, "toughness": self.toughness, "cost": self.cost}
        self.counter_roles: dict[str, str | None] = {
            "power_up": next((n for n, c in rs.counters.items() if self._adds_power(c)),
                             None),
            "immortal": next((n for n, c in rs.counters.items() if self._saves(c)),
                             None),
        }

    def _grave(self) -> str | None:
        """Where the edition's `destroy` sends a card."""
        destroy = self.rs.keywords.get("destroy")
        for stmt in destroy.body if destroy else ():
            if isinstance(stmt, ast.Move) and isinstance(stmt.dest, ast.Path):
                return stmt.dest.parts[-1]
        return None

    def _adds_power(self, c: ast.Counter) -> bool:
        """A counter popped for one more point of its host's power, and nothing else."""
        if c.counter_kind != "proactive" or len(c.body) != 1 or self.power is None:
            return False
        (st,) = c.body
        return (isinstance(st, ast.AddOp) and st.op == "add"
                and isinstance(st.amount, ast.IntLit) and st.amount.value == 1
                and st.target.parts == ("host", self.power) and st.until is None)

    @staticmethod
    def _saves(c: ast.Counter) -> bool:
        """A counter that answers an effect about to destroy its host by preventing
        it (for that host)."""
        t = c.trigger
        if c.counter_kind != "reactive" or t is None or t.timing != "would":
            return False
        return "destroy" in t.events and any(
            isinstance(st, ast.Prevent) for st in _statements(c.body))

    def zone(self, name: str) -> str | None:
        return name if name in self.rs.zones else self.zone_roles.get(name)

    def stat(self, name: str) -> str | None:
        return name if name in self.rs.stats else self.stat_roles.get(name)

    def counter(self, name: str) -> str | None:
        return name if name in self.rs.counters else self.counter_roles.get(name)

    def card_type(self, name: str) -> str | None:
        if name in self.rs.card_types:
            return name
        return self.minion if name == "minion" else None

    def design(self, d: CardDesign) -> CardDesign:
        """A design in the edition's words (type and stat names)."""
        stats = tuple(dataclasses.replace(s, stat=self.stat(s.stat) or s.stat)
                      for s in d.stats)
        return dataclasses.replace(d, type=self.card_type(d.type) or d.type, stats=stats)

    def known_zones(self) -> str:
        roles = [r for r, z in self.zone_roles.items() if z and r not in self.rs.zones]
        return ", ".join(list(self.rs.zones) + roles)

    def known_stats(self) -> str:
        roles = [r for r, s in self.stat_roles.items() if s and r not in self.rs.stats]
        return ", ".join(list(self.rs.stats) + roles)

    def known_counters(self) -> str:
        roles = [f"{r} ({c})" for r, c in self.counter_roles.items()
                 if c and r not in self.rs.counters]
        return ", ".join(list(self.rs.counters) + roles) or "none"
