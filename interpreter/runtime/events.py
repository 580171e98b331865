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

from .values import encode, plain


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

    def plain_json(self) -> dict[str, Any]:
        """The event as a reader of a log wants it: its data a plain object (see
        `values.plain`); `kotc play --format json` and `--log` write this."""
        return {"kind": self.kind, "data": plain(self.data), "cite": self.cite}

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


# --- the flow -------------------------------------------------------------------------


@dataclass(slots=True)
class Decided(Event):
    """A player answered a decision."""

    kind: ClassVar[str] = "decide"
    player: int
    action: str
    choice: str
    cite: str | None = None


@dataclass(slots=True)
class TurnBegan(Event):
    kind: ClassVar[str] = "turn"
    turn: int
    player: int
    cite: str | None = None


@dataclass(slots=True)
class PhaseBegan(Event):
    kind: ClassVar[str] = "phase"
    phase: str
    player: int
    cite: str | None = None


@dataclass(slots=True)
class PhaseSkipped(Event):
    kind: ClassVar[str] = "skip"
    phase: str
    cite: str | None = None


@dataclass(slots=True)
class StepSkipped(Event):
    kind: ClassVar[str] = "skip"
    step: str
    cite: str | None = None


@dataclass(slots=True)
class RolledOff(Event):
    """Each player's total in a roll for who goes first (ties roll again)."""

    kind: ClassVar[str] = "roll_off"
    totals: dict[int, int]
    cite: str | None = None


@dataclass(slots=True)
class FirstPlayer(Event):
    kind: ClassVar[str] = "first_player"
    player: int
    cite: str | None = None


@dataclass(slots=True)
class Acted(Event):
    """A player took an action of the ruleset."""

    kind: ClassVar[str] = "action"
    player: int
    action: str
    cite: str | None = None


@dataclass(slots=True)
class Performed(Event):
    """An effect took an action on a player's behalf."""

    kind: ClassVar[str] = "perform"
    player: int
    action: str
    cite: str | None = None


@dataclass(slots=True)
class CannotPerform(Event):
    kind: ClassVar[str] = "cannot_perform"
    action: str
    cite: str | None = None


@dataclass(slots=True)
class Activated(Event):
    kind: ClassVar[str] = "activate"
    player: int
    card: int
    ability: Any  # its name, or its index among the card's abilities
    cite: str | None = None


@dataclass(slots=True)
class Linked(Event):
    """A link was added to the chain: its number, counted from the first."""

    kind: ClassVar[str] = "link"
    player: int
    link: int
    cite: str | None = None


@dataclass(slots=True)
class Resolving(Event):
    kind: ClassVar[str] = "resolve"
    link: int
    player: int
    cite: str | None = None


@dataclass(slots=True)
class Stopped(Event):
    """A program stopped early; `activating`: an activation failed."""

    kind: ClassVar[str] = "stop"
    omitted: ClassVar[frozenset[str]] = frozenset(("activating",))
    activating: bool | None = None
    cite: str | None = None


@dataclass(slots=True)
class Prevented(Event):
    kind: ClassVar[str] = "prevent"
    event: str | None
    cite: str | None = None


@dataclass(slots=True)
class Negated(Event):
    kind: ClassVar[str] = "negate"
    cards: list[int]
    cite: str | None = None


@dataclass(slots=True)
class Eliminated(Event):
    kind: ClassVar[str] = "eliminated"
    player: int
    reason: str
    cite: str | None = None


@dataclass(slots=True)
class TurnLost(Event):
    """The active player left the game: what was under way in its turn is dropped."""

    kind: ClassVar[str] = "turn_lost"
    player: int
    cite: str | None = None


@dataclass(slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winner: int | None
    tied: list[int]
    criterion: str | None
    condition: str
    cite: str | None = None


# --- the primitives -------------------------------------------------------------------


@dataclass(slots=True)
class Moved(Event):
    kind: ClassVar[str] = "move"
    card: int
    name: str
    to: str
    player: int
    cite: str | None = None


@dataclass(slots=True)
class Removed(Event):
    """A card or pawn left the game."""

    kind: ClassVar[str] = "removed"
    card: int
    name: str
    cite: str | None = None


@dataclass(slots=True)
class Given(Event):
    kind: ClassVar[str] = "give"
    card: int
    to: int
    cite: str | None = None


@dataclass(slots=True)
class StatChanged(Event):
    kind: ClassVar[str] = "stat"
    card: int
    stat: str
    value: Any
    cite: str | None = None


@dataclass(slots=True)
class HpChanged(Event):
    kind: ClassVar[str] = "hp"
    player: int
    hp: int
    change: int
    cite: str | None = None


@dataclass(slots=True)
class Zombie(Event):
    """A player at zero HP plays on."""

    kind: ClassVar[str] = "zombie"
    player: int
    cite: str | None = None


@dataclass(slots=True)
class Rolled(Event):
    kind: ClassVar[str] = "roll"
    player: int
    dice: list[int]
    cite: str | None = None


@dataclass(slots=True)
class Rerolled(Event):
    kind: ClassVar[str] = "reroll"
    die: int
    value: int
    cite: str | None = None


@dataclass(slots=True)
class Shuffled(Event):
    kind: ClassVar[str] = "shuffle"
    player: int
    zone: str
    cite: str | None = None


@dataclass(slots=True)
class Placed(Event):
    kind: ClassVar[str] = "place"
    card: int
    counter: str
    n: int
    by: int
    cite: str | None = None


@dataclass(slots=True)
class Popped(Event):
    kind: ClassVar[str] = "pop"
    card: int
    counter: str
    player: int
    cite: str | None = None


@dataclass(slots=True)
class PaidHp(Event):
    kind: ClassVar[str] = "pay"
    player: int
    hp: int
    cite: str | None = None


@dataclass(slots=True)
class PaidResources(Event):
    kind: ClassVar[str] = "pay"
    player: int
    resources: int
    cite: str | None = None


@dataclass(slots=True)
class PawnMade(Event):
    kind: ClassVar[str] = "pawn"
    card: int
    player: int
    stats: dict[str, Any]
    cite: str | None = None


@dataclass(slots=True)
class Revealed(Event):
    kind: ClassVar[str] = "reveal"
    cards: list[int]
    cite: str | None = None


@dataclass(slots=True)
class Seen(Event):
    kind: ClassVar[str] = "see"
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
