"""The mutable pieces of a game: cards, players, the chain, the battle.

Plain classes with slots: cheap to copy (`clone`) and to write as JSON. They
hold no rules; `game.py` changes them as the ruleset's programs direct.
"""

from __future__ import annotations

from typing import Any, TypedDict, TypeVar

from .values import decode, encode

# the fields of a card that hold a seat (read as `Seat`s, as players are)
SEAT_FIELDS = frozenset({"owner", "controller", "last_controller"})

_new_object = object.__new__
_S = TypeVar("_S", bound="_Slotted")
_R = TypeVar("_R", bound="Record")
_UNSET = object()  # a record's field not set yet


class _Slotted:
    """Plain state held in slots, written to JSON and read back slot by slot."""

    __slots__: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {s: getattr(self, s) for s in self.__slots__}

    @classmethod
    def from_json(cls: type[_S], data: dict[str, Any]) -> _S:
        obj = object.__new__(cls)
        for s in cls.__slots__:
            setattr(obj, s, data[s])
        return obj


class CardState(_Slotted):
    """One card (or pawn) in a game: who owns and controls it, where it is, its
    printed and current stats, orientation, face, counters and marks.

    `last_controller` is the seat that controls it while it is in play, kept once
    it leaves (until it is first in play, the seat it was made for): a card leaving
    play goes where the rules say (its owner's graveyard, say), and a rule may still
    ask who had it."""

    __slots__ = (
        "id",
        "name",
        "type",
        "owner",
        "controller",
        "last_controller",
        "zone",
        "printed",
        "stats",
        "timed",
        "exhausted",
        "fatigued",
        "fatigued_turn",
        "face_up",
        "pawn",
        "counters",
        "tags",
        "design",
    )

    def __init__(
        self,
        id: int,
        name: str,
        type: str,
        owner: int,
        printed: dict[str, Any],
        design: str | None,
        pawn: bool = False,
    ):
        self.id, self.name, self.type, self.design = id, name, type, design
        self.owner = self.controller = self.last_controller = owner
        self.zone = ""
        # the printed stats are never changed: a card shares its design's
        self.printed = printed
        self.stats = dict(printed)
        self.timed: dict[str, int] = {}
        self.exhausted = self.fatigued = False
        self.fatigued_turn = 0
        self.face_up = False
        self.pawn = pawn
        self.counters: list[list[Any]] = []  # [kind, placer seat]
        self.tags: dict[str, str] = {}  # tag -> until ("leave", "recovery", ...)

    def copy(self) -> CardState:
        """Every slot, the containers copied (a clone copies every card: written
        out, one statement a slot, not looped over the slots nor packed in a tuple,
        at half the cost)."""
        c = _new_object(CardState)
        c.id = self.id
        c.name = self.name
        c.type = self.type
        c.owner = self.owner
        c.controller = self.controller
        c.last_controller = self.last_controller
        c.zone = self.zone
        c.exhausted = self.exhausted
        c.fatigued = self.fatigued
        c.fatigued_turn = self.fatigued_turn
        c.face_up = self.face_up
        c.pawn = self.pawn
        c.design = self.design
        c.printed = self.printed  # never changed: shared
        c.stats = self.stats.copy()
        c.timed = self.timed.copy()
        c.tags = self.tags.copy()
        counters = self.counters  # most often none: no comprehension run
        c.counters = [list(x) for x in counters] if counters else []
        return c


def away_from_last_controller(cards: list[CardState]) -> set[int]:
    """The cards in a zone whose last controller is not their controller: they lie
    with a player other than the one who last had them in play (a game keeps this
    set as it plays, `Game.away`)."""
    return {c.id for c in cards if c.zone and c.last_controller != c.controller}


class PlayerState(_Slotted):
    __slots__ = ("seat", "hp", "eliminated", "decked_out", "agreed", "zones")

    def __init__(self, seat: int, hp: int, zones: list[str]):
        self.seat, self.hp = seat, hp
        self.eliminated = self.decked_out = self.agreed = False
        self.zones: dict[str, list[int]] = {z: [] for z in zones}

    def copy(self) -> PlayerState:
        p = object.__new__(PlayerState)
        p.seat, p.hp, p.eliminated, p.decked_out, p.agreed = (
            self.seat,
            self.hp,
            self.eliminated,
            self.decked_out,
            self.agreed,
        )
        p.zones = {z: list(cards) for z, cards in self.zones.items()}
        return p



class Record:
    """A bag of named values that copies and serialises whole. Each kind names its
    fields as slots (`Chain`, `Battle`), which the flow reads at every step; a
    field not set yet is neither copied nor written."""

    __slots__: tuple[str, ...] = ()

    def __init__(self, **fields: Any):
        for k, v in fields.items():
            setattr(self, k, v)

    def fields(self) -> dict[str, Any]:
        """The fields set, by name, in the order of the slots."""
        found: dict[str, Any] = {}
        k: str
        for k in self.__slots__:
            v = getattr(self, k, _UNSET)
            if v is not _UNSET:
                found[k] = v
        return found

    def copy(self) -> Record:
        return type(self)(**{k: _copy(v) for k, v in self.fields().items()})

    def to_json(self) -> dict[str, Any]:
        return {k: encode(v) for k, v in self.fields().items()}

    @classmethod
    def from_json(cls: type[_R], data: dict[str, Any] | None) -> _R | None:
        if data is None:
            return None
        return cls(**{k: decode(v) for k, v in data.items()})


class Link(TypedDict):
    """A link of the chain (`Referee.add_link`): the block it resolves with the
    names it runs with, the card it comes from (None for a link a program makes),
    who made it, whether it was negated, what follows once it has resolved
    (`[block, names]`), and the counter popped, whose effect is not the card's."""

    block: int
    env: dict[str, Any]
    source: int | None
    actor: int
    negated: bool
    then: list[Any] | None
    counter: str | None


class Chain(Record):
    """The chain under way: its links, who acted last, whether it resolves (who
    is asked to respond is where play stands: `engine.runner`)."""

    __slots__ = ("links", "last_actor", "resolving")
    links: list[Link]
    last_actor: int
    resolving: bool


class Battle(Record):
    """The battle under way (see `referee.new_battle`)."""

    __slots__ = (
        "attacker", "defender", "victim", "attack_team", "defense_team",
        "attack_dice", "defense_dice", "skipped", "forced", "cancelled", "holding",
    )
    attacker: int
    defender: int | None
    victim: Any
    attack_team: list[int]
    defense_team: list[int]
    attack_dice: list[Any]
    defense_dice: list[Any]
    skipped: list[str]
    forced: bool
    cancelled: bool
    holding: bool


def _copy(v: Any) -> Any:
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v
