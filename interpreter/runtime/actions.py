"""Actions and decisions: every choice a player makes goes through these (the
events a game logs are in `events`).

An `Action` is one legal move at a `Decision`. Its `kind` says what sort of
choice it is (`act` an opened action, `pick` a card or player, `done`, `yes`,
`no`, `option`, `pass`, `end`...), its `value` what was chosen; both are plain
JSON-friendly data, so scripted agents and scenario files can name actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kotc.dsl import ast

from .values import DieRef, Seat, decode, encode


class Action:
    """A legal move; equal to another when kind and value are (the label is only
    for people).

    A label may be left to be written when first read (`label=None` with a
    `namer` that has `label_of(action)`): most options listed are never shown,
    and a listing can hold dozens of them.
    """

    __slots__ = ("kind", "value", "_label", "_key", "_namer")
    _key: tuple[str, Any]  # set when first compared (see `key`)

    def __init__(
        self, kind: str, value: Any = None, label: str | None = "", namer: Any = None
    ):
        # one statement each: no tuple built and unpacked (actions are made by the
        # dozen at every decision)
        self.kind = kind
        self.value = value
        self._label = label
        self._namer = namer

    @property
    def label(self) -> str:
        if self._label is None:
            self._label = self._namer.label_of(self)
            self._namer = None
        return self._label

    def key(self) -> tuple[str, Any]:
        """What equality compares: the kind and the value, players told from cards."""
        try:  # made when first compared (most actions never are): no slot set before
            return self._key
        except AttributeError:
            key = self._key = (self.kind, _identity(self.value))
            return key

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Action) and other.key() == self.key())

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"Action({self.kind!r}, {self.value!r}, {self.label!r})"

    def __str__(self) -> str:
        return self.label or (
            self.kind if self.value is None else f"{self.kind} {self.value}"
        )

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": encode(self.value), "label": self.label}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Action:
        value = decode(data.get("value"))
        if isinstance(value, list):
            value = _tuples(value)
        return Action(data["kind"], value, data.get("label", ""))


def _identity(value: Any) -> Any:
    """A comparable form that tells a player (`Seat(1)`) from card 1 and die 1."""
    if isinstance(value, (Seat, DieRef)):
        return (type(value).__name__, int(value))
    if isinstance(value, (tuple, list)):
        return tuple(_identity(v) for v in value)
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def picks(values: Sequence[Any], namer: Any) -> list[Action]:
    """A `pick` action for each value, as `Action("pick", v, None, namer)` makes
    it: the one `namer` keeps for it (see `game.Namer`), looked up, not made (a
    choice lists its options by the dozen). A plain loop: for a short list,
    faster than a comprehension (a function made and called each time) and than
    `map` over `zip`."""
    picked, found = namer.picked, []
    try:
        for v in values:
            found.append(picked[type(v), v])
    except TypeError:  # a value that can be no key (a list): made anew
        return [Action("pick", v, None, namer) for v in values]
    return found


# The answer that ends a choice of any number, shared: an answer is compared by its
# kind and value, and the one listed is the one taken
DONE = Action("done", None, "done")


class Made(dict):  # type: ignore[type-arg]
    """The `act` options a window has listed while the game's cards are named by
    one namer, by value: an option listed again is the same `Action`, not made
    anew (its label, made from the namer, is the same). Only for options whose
    arguments are cards, abilities or counters' kinds: a player is equal to the
    card of its number."""

    __slots__ = ("namer",)

    def __init__(self, namer: Any = None):
        super().__init__()
        self.namer = namer

    def __missing__(self, value: tuple[Any, ...]) -> Action:
        action = self[value] = Action("act", value, None, self.namer)
        return action


@dataclass(slots=True)
class Decision:
    """Who must choose now, what kind of choice it is, and the legal actions.

    `resume` names who continues once the choice is made: the program machine
    ("vm"), or the window of the flow that asked, by the kind of decision it asks
    (its node's `decision`: "phase", "chain", "renew", "battle"). `cite` is the
    rule that asks for the choice. `count`, for a choice of several cards made one
    pick at a time, is how many are picked
    so far and the least and most the choice takes in all (a table says how many
    are left to choose). (Its
    fields are slots: each decision's are read as it is taken, and a slot reads
    faster than a named tuple's field.)
    """

    player: int
    prompt: str
    options: list[Action]
    resume: str = "vm"
    cite: ast.Citation | None = None
    count: tuple[int, int, int] | None = None


class IllegalAction(Exception):
    """An action that is not legal now; the message names the rule."""
