"""What happens in a game, as typed records: one class per kind of event the
engine's primitives and flow record, and `Logged` for the events a ruleset
declares (`emit forfeited(you)`, `log attack(...)`).

Readers match events by type (`case Moved(card=c, to=zone)`). Every event also
has the `kind`, `data` and `cite` of the log's JSON form (`to_json`), which
writes it as before: `{"kind": "move", "data": {...}, "cite": "... §Draw"}`.
`cite` is the text of the rule that made it happen (None where no rule did).

Records are plain slotted classes, not frozen: a game makes one at most steps,
and a frozen dataclass pays a call per field to be made.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .values import encode


class Event:
    """One thing that happened, with the rule that made it happen."""

    __slots__ = ()
    kind: ClassVar[str] = ""
    # fields left out of `data` when None (a `stop` says `activating` only when so)
    omitted: ClassVar[frozenset[str]] = frozenset()
    cite: str | None

    @property
    def data(self) -> dict[str, Any]:
        """The event's fields by name, as its JSON form holds them."""
        found = {}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name != "cite":
                value = getattr(self, f.name)
                if value is not None or f.name not in self.omitted:
                    found[f.name] = value
        return found

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": encode(self.data), "cite": self.cite}

    def __str__(self) -> str:
        data = ", ".join(f"{k}={v}" for k, v in self.data.items())
        cite = f"  [{self.cite}]" if self.cite else ""
        return f"{self.kind}({data}){cite}"


class Logged(Event):
    """An event the ruleset declares, recorded by a program (`emit`, `log`): its
    name is its kind, its fields those the declaration names."""

    __slots__ = ("kind", "data", "cite")
    kind: str  # type: ignore[misc]
    data: dict[str, Any]

    def __init__(self, kind: str, data: dict[str, Any], cite: str | None = None):
        self.kind = kind
        self.data = data
        self.cite = cite

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Logged) and (self.kind, self.data, self.cite) == (
            other.kind, other.data, other.cite)

    def __hash__(self) -> int:
        return hash((self.kind, self.cite))

    def __repr__(self) -> str:
        return f"Logged({self.kind!r}, {self.data!r}, {self.cite!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Logged, (self.kind, self.data, self.cite))


def _record(kind: str, omitted: tuple[str, ...] = ()) -> Any:
    """Make a class an event record of `kind`: a slotted dataclass."""

    def make(cls: type) -> type:
        cls.kind = kind  # type: ignore[attr-defined]
        cls.omitted = frozenset(omitted)  # type: ignore[attr-defined]
        return dataclass(slots=True)(cls)

    return make


# --- the flow -------------------------------------------------------------------------


@_record("decide")
class Decided(Event):
    """A player answered a decision."""

    player: int
    action: str
    choice: str
    cite: str | None = None


@_record("turn")
class TurnBegan(Event):
    turn: int
    player: int
    cite: str | None = None


@_record("phase")
class PhaseBegan(Event):
    phase: str
    player: int
    cite: str | None = None


@_record("skip")
class PhaseSkipped(Event):
    phase: str
    cite: str | None = None


@_record("skip")
class StepSkipped(Event):
    step: str
    cite: str | None = None


@_record("roll_off")
class RolledOff(Event):
    """Each player's total in a roll for who goes first (ties roll again)."""

    totals: dict[int, int]
    cite: str | None = None


@_record("first_player")
class FirstPlayer(Event):
    player: int
    cite: str | None = None


@_record("action")
class Acted(Event):
    """A player took an action of the ruleset."""

    player: int
    action: str
    cite: str | None = None


@_record("perform")
class Performed(Event):
    """An effect took an action on a player's behalf."""

    player: int
    action: str
    cite: str | None = None


@_record("cannot_perform")
class CannotPerform(Event):
    action: str
    cite: str | None = None


@_record("activate")
class Activated(Event):
    player: int
    card: int
    ability: Any  # its name, or its index among the card's abilities
    cite: str | None = None


@_record("link")
class Linked(Event):
    """A link was added to the chain: its number, counted from the first."""

    player: int
    link: int
    cite: str | None = None


@_record("resolve")
class Resolving(Event):
    link: int
    player: int
    cite: str | None = None


@_record("stop", omitted=("activating",))
class Stopped(Event):
    """A program stopped early; `activating`: an activation failed."""

    activating: bool | None = None
    cite: str | None = None


@_record("prevent")
class Prevented(Event):
    event: str | None
    cite: str | None = None


@_record("negate")
class Negated(Event):
    cards: list[int]
    cite: str | None = None


@_record("eliminated")
class Eliminated(Event):
    player: int
    reason: str
    cite: str | None = None


@_record("turn_lost")
class TurnLost(Event):
    """The active player left the game: what was under way in its turn is dropped."""

    player: int
    cite: str | None = None


@_record("game_over")
class GameOver(Event):
    winner: int | None
    tied: list[int]
    criterion: str | None
    condition: str
    cite: str | None = None


# --- the primitives -------------------------------------------------------------------


@_record("move")
class Moved(Event):
    card: int
    name: str
    to: str
    player: int
    cite: str | None = None


@_record("removed")
class Removed(Event):
    """A card or pawn left the game."""

    card: int
    name: str
    cite: str | None = None


@_record("give")
class Given(Event):
    card: int
    to: int
    cite: str | None = None


@_record("stat")
class StatChanged(Event):
    card: int
    stat: str
    value: Any
    cite: str | None = None


@_record("hp")
class HpChanged(Event):
    player: int
    hp: int
    change: int
    cite: str | None = None


@_record("zombie")
class Zombie(Event):
    """A player at zero HP plays on."""

    player: int
    cite: str | None = None


@_record("roll")
class Rolled(Event):
    player: int
    dice: list[int]
    cite: str | None = None


@_record("reroll")
class Rerolled(Event):
    die: int
    value: int
    cite: str | None = None


@_record("shuffle")
class Shuffled(Event):
    player: int
    zone: str
    cite: str | None = None


@_record("place")
class Placed(Event):
    card: int
    counter: str
    n: int
    by: int
    cite: str | None = None


@_record("pop")
class Popped(Event):
    card: int
    counter: str
    player: int
    cite: str | None = None


@_record("pay")
class PaidHp(Event):
    player: int
    hp: int
    cite: str | None = None


@_record("pay")
class PaidResources(Event):
    player: int
    resources: int
    cite: str | None = None


@_record("pawn")
class PawnMade(Event):
    card: int
    player: int
    stats: dict[str, Any]
    cite: str | None = None


@_record("reveal")
class Revealed(Event):
    cards: list[int]
    cite: str | None = None


@_record("see")
class Seen(Event):
    player: int
    cards: list[int]
    cite: str | None = None


__all__ = [
    "Acted", "Activated", "CannotPerform", "Decided", "Eliminated", "Event",
    "FirstPlayer", "GameOver", "Given", "HpChanged", "Linked", "Logged", "Moved",
    "Negated", "PaidHp", "PaidResources", "PawnMade", "PhaseBegan", "PhaseSkipped",
    "Placed", "Popped", "Performed", "Prevented", "Removed", "Rerolled",
    "Resolving", "Revealed", "RolledOff", "Rolled", "Seen", "Shuffled",
    "StatChanged", "StepSkipped", "Stopped", "TurnBegan", "TurnLost", "Zombie",
]
