"""What a ruling says, as plain data: its position, its steps, its expectations.

`kotc.dsl.scenarios` reads scenario files into these; `kotc.checking.scenario_run`
plays them. Every part that may be limited to some editions (`for "E"`) carries
the names it is limited to (None: all of the scenario's), and `Scenario` answers
what applies under one edition, so a part written for one edition is never seen
by a run under another, wherever in the file it is written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from .ast import NOWHERE, Origin
from .cards import MAX_COPIES, CardDesign

# The most cards of one entry, counters of one kind, or seats a scenario may ask for.
MAX_COUNT = MAX_COPIES

Editions: TypeAlias = "tuple[str, ...] | None"  # the editions a part is for; None: all


def applies(names: tuple[str, ...] | None, edition: str) -> bool:
    """Whether a part limited to `names` (None: not limited) applies under `edition`.

    >>> applies(None, "house"), applies(("base",), "house")
    (True, False)
    """
    return names is None or edition in names


# --- references ---------------------------------------------------------------------


@dataclass(frozen=True)
class CardRef:
    """A card of the scenario: by the label given with `as` (or `made`), or by its
    name."""

    label: str | None
    name: str | None
    origin: Origin

    def __str__(self) -> str:
        return self.label if self.label is not None else f'"{self.name}"'


@dataclass(frozen=True)
class PlayerRef:
    seat: int

    def __str__(self) -> str:
        return f"player {self.seat}"


@dataclass(frozen=True)
class DieValue:
    value: int

    def __str__(self) -> str:
        return f"die {self.value}"


@dataclass(frozen=True)
class CounterKind:
    """A kind of counter, as an action's argument (`act pop host counter sword`)."""

    name: str

    def __str__(self) -> str:
        return f"counter {self.name}"


@dataclass(frozen=True)
class AbilitySel:
    """One ability of a card: by its printed name or its place (from 1)."""

    name: str | None = None
    index: int | None = None

    def __str__(self) -> str:
        if self.name is not None:
            return f'ability "{self.name}"'
        return f"ability {self.index}"


Arg: TypeAlias = "CardRef | PlayerRef | AbilitySel | CounterKind"
Target: TypeAlias = "CardRef | PlayerRef | DieValue"


# --- the position -------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """Cards placed in a zone: a design, how many, and their state."""

    design: str
    count: int
    label: str | None
    flags: tuple[str, ...]
    stats: tuple[tuple[str, int], ...]
    counters: tuple[tuple[str, int, int], ...]  # kind, placer, how many
    tags: tuple[str, ...]
    origin: Origin
    owner: int | None = None
    last_controller: int | None = None  # out of play: who had it in play last


@dataclass(frozen=True)
class ZoneSetup:
    zone: str
    entries: tuple[Entry, ...]
    origin: Origin


@dataclass(frozen=True)
class PlayerSetup:
    seat: int
    hp: int | None
    zones: tuple[ZoneSetup, ...]
    origin: Origin


@dataclass(frozen=True)
class BattleSetup:
    at: str
    attackers: tuple[CardRef, ...]
    victim: CardRef | PlayerRef | DieValue | None
    defenders: tuple[CardRef, ...]
    attack_dice: tuple[int, ...]
    defense_dice: tuple[int, ...]
    origin: Origin


@dataclass(frozen=True)
class ChainLink:
    card: CardRef
    ability: AbilitySel | None
    counter: str | None
    seat: int
    origin: Origin


@dataclass(frozen=True)
class Position:
    """A table built by hand, as one edition places it. Play starts at a phase
    (`phase`, at its window or, with `at_start`, at its beginning) or, with
    `setup_step`, at that step of setup, before turn 1."""

    players: int
    seed: int | None
    turn: int
    active: int
    first: int
    phase: str
    at_start: bool
    setups: tuple[PlayerSetup, ...]
    battle: BattleSetup | None
    chain: tuple[ChainLink, ...]
    origin: Origin
    setup_step: str | None = None

    def entries(self) -> Iterator[tuple[int, ZoneSetup, Entry]]:
        """Every entry placed, with its player's seat and its zone."""
        for p in self.setups:
            for z in p.zones:
                for e in z.entries:
                    yield p.seat, z, e


@dataclass(frozen=True)
class NewGame:
    players: int | None
    seed: int | None
    decks: tuple[str, ...]
    max_turns: int | None
    origin: Origin


Start: TypeAlias = "Position | NewGame"


# --- the actions --------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One answer to one decision. `kind` is the engine's action kind, or `act`.
    `refused`: the rules must refuse it (`reason`: for a reason containing that)."""

    seat: int
    kind: str
    action: str | None = None
    args: tuple[Arg, ...] = ()
    target: Target | None = None
    value: int | None = None
    label: str | None = None
    refused: bool = False
    reason: str | None = None
    origin: Origin = NOWHERE

    @property
    def move(self) -> str:
        """The step as written after its seat (`act pop imp counter sword`)."""
        if self.kind == "act":
            return " ".join([f"act {self.action}", *map(str, self.args)])
        if self.kind == "pick":
            return f"pick {self.target}"
        if self.kind in ("die", "option", "number"):
            return f"{self.kind} {self.value}"
        if self.kind == "choose":
            return f'choose "{self.label}"'
        return self.kind

    def __str__(self) -> str:
        return f"{self.seat}: {self.move}" + (" refused" if self.refused else "")


@dataclass(frozen=True)
class Check:
    """One expectation. `kind` says what is checked, `subject` of what, `value`
    what it must be."""

    kind: str
    subject: Any
    value: Any
    negated: bool
    origin: Origin


@dataclass(frozen=True)
class Expect:
    editions: Editions
    checks: tuple[Check, ...]
    origin: Origin


@dataclass(frozen=True)
class EditionSteps:
    """`for "E" { ... }` inside the actions: items for those editions only."""

    editions: tuple[str, ...]
    items: tuple[ActionItem, ...]
    origin: Origin


@dataclass(frozen=True)
class Never:
    """`never S until { ... }`: step `step` is offered at none of the decisions the
    items' steps answer."""

    step: Step
    items: tuple[ActionItem, ...]
    origin: Origin


ActionItem: TypeAlias = "Step | Expect | EditionSteps | Never"


def flatten(items: tuple[ActionItem, ...], edition: str) -> list[Step | Expect | Never]:
    """The items that apply under `edition`, `for` blocks opened: an `expect for`
    or a block for other editions is left out, wherever it is written. A `never`
    keeps its own items, flattened alike."""
    out: list[Step | Expect | Never] = []
    for item in items:
        if isinstance(item, EditionSteps):
            if applies(item.editions, edition):
                out.extend(flatten(item.items, edition))
        elif isinstance(item, Expect):
            if applies(item.editions, edition):
                out.append(item)
        elif isinstance(item, Never):
            out.append(Never(item.step, tuple(flatten(item.items, edition)),
                             item.origin))
        else:
            out.append(item)
    return out


# --- the scenario -------------------------------------------------------------------


@dataclass(frozen=True)
class DesignUse:
    """A card design a scenario may place, and the editions it is for (None: all)."""

    design: CardDesign
    editions: Editions


@dataclass(frozen=True)
class Cite:
    section: str
    editions: Editions
    origin: Origin


@dataclass(frozen=True)
class Scenario:
    """One ruling: where it applies, what it cites, and how it is played and judged."""

    name: str
    path: str
    editions: tuple[str, ...]
    cites: tuple[Cite, ...]
    ruling: str | None
    xfails: tuple[tuple[Editions, str], ...]
    designs: tuple[DesignUse, ...]
    starts: tuple[tuple[str, Start], ...]  # the start under each edition
    dice: tuple[tuple[Editions, tuple[int, ...]], ...]
    actions: tuple[ActionItem, ...]
    expects: tuple[Expect, ...]
    origin: Origin
    made: tuple[str, ...] = ()  # labels of the cards made during play, in order

    def xfail(self, edition: str) -> str | None:
        """Why the scenario is expected to fail under `edition`, if it is."""
        return next((why for eds, why in self.xfails if applies(eds, edition)), None)

    def start_for(self, edition: str) -> Start:
        """Where play starts under `edition` (one of the scenario's)."""
        return dict(self.starts)[edition]

    def dice_for(self, edition: str) -> tuple[int, ...] | None:
        """The scripted dice under `edition`: its own script, else the common one."""
        own = [v for eds, v in self.dice if eds is not None and applies(eds, edition)]
        common = [v for eds, v in self.dice if eds is None]
        found = own or common
        return found[0] if found else None

    def designs_for(self, edition: str) -> list[CardDesign]:
        return [u.design for u in self.designs if applies(u.editions, edition)]

    def steps_for(self, edition: str) -> list[Step | Expect | Never]:
        """The steps, checkpoints and `never` stretches under `edition`."""
        return flatten(self.actions, edition)

    def expects_for(self, edition: str) -> list[Check]:
        """The checks once the actions are done, under `edition`."""
        return [c for e in self.expects if applies(e.editions, edition)
                for c in e.checks]

    @property
    def id(self) -> str:
        return f"{Path(self.path).name}::{self.name}"
