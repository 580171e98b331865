"""Rulings as scenario files (`.kscn`): loaded, validated, and turned into plain data.

A scenario names the editions its ruling applies to and the rulebook sections
it checks; it builds a position (or starts a new game), scripts the dice, lists
every decision taken and says what must follow, per edition where editions
differ. This module reads and checks the files; `kotc.checking.scenario_run` plays
them. Every problem is located (`file:line:col: message`) and all are reported
at once, so a designer fixes a file in one pass.

Scenarios speak edition-neutrally where editions rename things (`Vocabulary`):
`minion` is the card type that battles, `power` the stat battle dice count,
`toughness` the stat damage reduces, `cost` the cost stat; `field`, `grave`,
`deck`, `resources`, `reserves` and `traps` are zones found by their role. An
edition's own names are always accepted too.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from textx import TextXError, get_location

from . import ast
from .cards import (
    MAX_COPIES,
    AbilityText,
    CardDesign,
    StatValue,
    file_problem,
    load_cards,
    printed_text,
)
from .errors import Diagnostic, RulesetError
from .language import parse_other
from .legality import read_as
from .load import find_edition, load_path
from .reading import read_card
from .ruleset import Ruleset

SUFFIX = ".kscn"
# The most cards of one entry, counters of one kind, or seats a scenario may ask for.
MAX_COUNT = MAX_COPIES



# --- plain data ---------------------------------------------------------------------


@dataclass(frozen=True)
class CardRef:
    """A card of the scenario: by the label given with `as`, or by its name."""

    label: str | None
    name: str | None
    origin: ast.Origin

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
    origin: ast.Origin
    owner: int | None = None
    last_controller: int | None = None  # out of play: who had it in play last


@dataclass(frozen=True)
class ZoneSetup:
    zone: str
    entries: tuple[Entry, ...]
    origin: ast.Origin


@dataclass(frozen=True)
class PlayerSetup:
    seat: int
    hp: int | None
    zones: tuple[ZoneSetup, ...]
    origin: ast.Origin


@dataclass(frozen=True)
class BattleSetup:
    at: str
    attackers: tuple[CardRef, ...]
    victim: CardRef | PlayerRef | None
    defenders: tuple[CardRef, ...]
    attack_dice: tuple[int, ...]
    defense_dice: tuple[int, ...]
    origin: ast.Origin


@dataclass(frozen=True)
class ChainLink:
    card: CardRef
    ability: AbilitySel | None
    counter: str | None
    seat: int
    origin: ast.Origin


@dataclass(frozen=True)
class Position:
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
    origin: ast.Origin


@dataclass(frozen=True)
class NewGame:
    players: int | None
    seed: int | None
    decks: tuple[str, ...]
    max_turns: int | None
    origin: ast.Origin


@dataclass(frozen=True)
class Step:
    """One answer to one decision. `kind` is the engine's action kind, or `act`."""

    seat: int
    kind: str
    action: str | None = None
    args: tuple = ()
    target: Any = None
    value: int | None = None
    label: str | None = None
    refused: bool = False
    reason: str | None = None
    origin: ast.Origin = ast.NOWHERE

    def __str__(self) -> str:
        words = {"act": lambda: " ".join([f"act {self.action}", *map(str, self.args)]),
                 "pick": lambda: f"pick {self.target}",
                 "die": lambda: f"die {self.value}",
                 "option": lambda: f"option {self.value}",
                 "number": lambda: f"number {self.value}",
                 "choose": lambda: f'choose "{self.label}"'}
        text = words.get(self.kind, lambda: self.kind)()
        return f"{self.seat}: {text}" + (" refused" if self.refused else "")


@dataclass(frozen=True)
class Check:
    """One expectation. `kind` says what is checked, `subject` of what, `value`
    what it must be."""

    kind: str
    subject: Any
    value: Any
    negated: bool
    origin: ast.Origin


@dataclass(frozen=True)
class Expect:
    editions: tuple[str, ...] | None
    checks: tuple[Check, ...]
    origin: ast.Origin


@dataclass(frozen=True)
class EditionSteps:
    editions: tuple[str, ...]
    items: tuple
    origin: ast.Origin


@dataclass(frozen=True)
class DesignUse:
    """A card design a scenario may place, and the editions it is for (None: all)."""

    design: CardDesign
    editions: tuple[str, ...] | None


@dataclass(frozen=True)
class Cite:
    section: str
    editions: tuple[str, ...] | None
    origin: ast.Origin


@dataclass(frozen=True)
class Scenario:
    """One ruling: where it applies, what it cites, and how it is played and judged."""

    name: str
    path: str
    editions: tuple[str, ...]
    cites: tuple[Cite, ...]
    ruling: str | None
    xfails: tuple[tuple[tuple[str, ...] | None, str], ...]
    designs: tuple[DesignUse, ...]
    start: Position | NewGame
    dice: tuple[tuple[tuple[str, ...] | None, tuple[int, ...]], ...]
    actions: tuple
    expects: tuple[Expect, ...]
    origin: ast.Origin

    def xfail(self, edition: str) -> str | None:
        """Why the scenario is expected to fail under `edition`, if it is."""
        return next((why for eds, why in self.xfails if _applies(eds, edition)), None)

    def dice_for(self, edition: str) -> tuple[int, ...] | None:
        """The scripted dice under `edition`: its own script, else the common one."""
        own = [v for eds, v in self.dice if eds is not None and _applies(eds, edition)]
        common = [v for eds, v in self.dice if eds is None]
        return (own or common or [None])[0]

    def designs_for(self, edition: str) -> list[CardDesign]:
        return [u.design for u in self.designs if _applies(u.editions, edition)]

    def steps_for(self, edition: str) -> list:
        """The steps and checkpoints under `edition`, edition blocks flattened."""
        return _flatten(self.actions, edition)

    def expects_for(self, edition: str) -> list[Check]:
        return [c for e in self.expects if _applies(e.editions, edition)
                for c in e.checks]

    @property
    def id(self) -> str:
        return f"{Path(self.path).name}::{self.name}"


def _applies(names: tuple[str, ...] | None, name: str) -> bool:
    """Whether a part of a scenario scoped to the edition names `names` (None: all of
    them) applies when the scenario runs under edition `name`."""
    return names is None or name in names


def _flatten(items, edition: str) -> list:
    out: list = []
    for item in items:
        if isinstance(item, EditionSteps):
            if _applies(item.editions, edition):
                out.extend(_flatten(item.items, edition))
        else:
            out.append(item)
    return out


# --- an edition's words -------------------------------------------------------------


class Vocabulary:
    """What an edition calls the things scenarios may name edition-neutrally."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        team = rs.setting("battle", "team")
        team_zone = rs.zones.get(team.zone) if team else None
        types = rs.card_types
        self.minion = (team_zone.holds[0] if team_zone and team_zone.holds
                       else next((t for t in types if t != "spell"), None))
        dice = rs.setting("battle", "dice_per")
        cost = rs.setting("cards", "cost")
        self.power = dice.stat if dice else None
        self.cost = cost.stat if cost else None
        kind = types.get(self.minion)
        self.toughness = next((s for s in (kind.stats if kind else ())
                               if s not in (self.power, self.cost)), None)
        zones = rs.zones.values()
        def flagged(flag: str) -> str | None:
            return next((z.name for z in zones if flag in z.flags), None)

        self.zone_roles = {
            "deck": flagged("starting"),
            "hand": "hand" if "hand" in rs.zones else None,
            "field": team.zone if team else None,
            "resources": flagged("resources"),
            "reserves": flagged("reserve"),
            "traps": next((z.name for z in zones if z.in_play and z.holds
                           and self.minion not in z.holds), None),
            "grave": self._grave(),
        }
        self.stat_roles = {"power": self.power, "toughness": self.toughness,
                           "cost": self.cost}

    def _grave(self) -> str | None:
        """Where the edition's `destroy` sends a card."""
        destroy = self.rs.keywords.get("destroy")
        for stmt in destroy.body if destroy else ():
            if isinstance(stmt, ast.Move) and isinstance(stmt.dest, ast.Path):
                return stmt.dest.parts[-1]
        return None

    def zone(self, name: str) -> str | None:
        return name if name in self.rs.zones else self.zone_roles.get(name)

    def stat(self, name: str) -> str | None:
        return name if name in self.rs.stats else self.stat_roles.get(name)

    def card_type(self, name: str) -> str | None:
        if name in self.rs.card_types:
            return name
        return self.minion if name == "minion" else None

    def design(self, d: CardDesign) -> CardDesign:
        """A design in the edition's words (type and stat names)."""
        stats = tuple(replace(s, stat=self.stat(s.stat) or s.stat) for s in d.stats)
        return replace(d, type=self.card_type(d.type) or d.type, stats=stats)

    def known_zones(self) -> str:
        roles = [r for r, z in self.zone_roles.items() if z and r not in self.rs.zones]
        return ", ".join(list(self.rs.zones) + roles)


# --- loading ------------------------------------------------------------------------


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Read and validate one scenario file against the editions its scenarios name.

    Raises:
        RulesetError: every problem found, each located.
    """
    path = Path(path)
    model, text = _parse(path)
    return _Converter(path, text).file(model)


def scenario_files(paths: list[str | Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The scenario files under `paths` (files, or directories searched deeply)."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for p in map(Path, paths):
        problem = _path_problem(p)
        if problem is None and p.is_dir():
            found = sorted(p.rglob(f"*{SUFFIX}"))
            if not found:
                problem = f"no {SUFFIX} files in this directory"
            files.extend(found)
        elif problem is None:
            files.append(p)
        if problem:
            problems.append(Diagnostic(ast.Origin(str(p), 1, 1), problem))
    return files, problems


def _path_problem(p: Path) -> str | None:
    """Why `p` is neither a directory nor a file, or None (a name too long is a
    problem to report, where `Path.is_dir` raises)."""
    try:
        return None if p.is_dir() or p.is_file() else "no such file or directory"
    except OSError as err:
        return f"cannot be read: {err.strerror or err}"


def _parse(path: Path):
    try:
        data = path.read_bytes()
    except OSError as err:
        raise RulesetError([Diagnostic(ast.Origin(str(path), 1, 1),
                                       f"cannot read scenario file: {err.strerror}")]
                           ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        before = data[:err.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        problem = Diagnostic(ast.Origin(str(path), line, col),
                             f"cannot read scenario file: byte "
                             f"0x{data[err.start]:02x} is not UTF-8")
        raise RulesetError([problem]) from None
    try:
        return parse_other("scenario", text, str(path)), text
    except TextXError as err:
        message = str(getattr(err, "message", err)).split(" => ")[0]
        line, col = err.line or 1, err.col or 1
        if "Not" in message.split():  # a name where the language has a word of its own
            lines = text.splitlines()
            word = re.match(r"\s*(\w*)", lines[line - 1][col - 1:]).group(1) \
                if line <= len(lines) else ""
            message = f"'{word}' is a word of the scenario language; choose another name"
        origin = ast.Origin(str(path), line, col)
        raise RulesetError([Diagnostic(origin, f"syntax error: {message}")]) from None


_rulesets: dict[str, Ruleset | RulesetError] = {}


def edition_ruleset(name: str, near: Path) -> tuple[Ruleset | None, str | None]:
    """The edition a scenario names (beside it, then shipped), or why not."""
    try:
        found = find_edition(name, near)
        if found is None and name.endswith(".kotc") and (near / name).is_file():
            found = near / name
    except OSError as err:  # a name the system refuses, such as one too long
        return None, f"edition file cannot be read ({err.strerror or err})"
    if found is None:
        return None, "unknown edition"
    key = str(found.resolve())
    if key not in _rulesets:
        try:
            _rulesets[key] = load_path(found)
        except RulesetError as err:
            _rulesets[key] = err
    hit = _rulesets[key]
    if isinstance(hit, RulesetError):
        return None, f"edition '{name}' does not load: {hit.diagnostics[0]}"
    return hit, None


class _Converter:
    """textX model -> plain data, collecting located problems."""

    def __init__(self, path: Path, text: str = ""):
        self.path = path
        self.text = text
        self.problems: list[Diagnostic] = []
        # The same problem under several editions is reported once, naming them.
        self.by_edition: dict[tuple[ast.Origin, str], list[str]] = {}

    def at(self, obj) -> ast.Origin:
        loc = get_location(obj)
        return ast.Origin(str(self.path), loc["line"], loc["col"])

    def string_at(self, obj, value: str) -> ast.Origin:
        """Where the quoted `value` is written inside `obj` (or `obj` itself)."""
        start = getattr(obj, "_tx_position", None)
        if start is None:
            return self.at(obj)
        end = getattr(obj, "_tx_position_end", None)
        found = self.text.find(f'"{value}"', start, end)
        if found < 0:
            return self.at(obj)
        line = self.text.count("\n", 0, found) + 1
        return ast.Origin(str(self.path), line, found - self.text.rfind("\n", 0, found))

    def problem(self, obj_or_origin, message: str) -> None:
        origin = obj_or_origin if isinstance(obj_or_origin, ast.Origin) \
            else self.at(obj_or_origin)
        self.problems.append(Diagnostic(origin, message))

    # the file

    def edition_problem(self, origin: ast.Origin, message: str, edition: str) -> None:
        # one problem per place, whatever the number of scenarios that meet it
        editions = self.by_edition.setdefault((origin, message), [])
        if edition not in editions:
            editions.append(edition)

    def file(self, model) -> list[Scenario]:
        shared = self.uses(model.uses)
        scenarios = [self.scenario(s, shared) for s in model.scenarios]
        for (origin, message), editions in self.by_edition.items():
            names = " and ".join([", ".join(editions[:-1]), editions[-1]] if
                                 len(editions) > 1 else editions)
            plural = "s" if len(editions) > 1 else ""
            self.problems.append(Diagnostic(origin, f"{message} (under the {names} "
                                                    f"edition{plural})"))
        names: dict[str, ast.Origin] = {}
        for s in scenarios:
            if s is None:
                continue
            if s.name in names:
                self.problem(s.origin, f"scenario '{s.name}' is defined twice (first at "
                                       f"line {names[s.name].line})")
            names.setdefault(s.name, s.origin)
        if self.problems:
            raise RulesetError(self.problems)
        return [s for s in scenarios if s is not None]

    def only(self, obj) -> tuple[str, ...] | None:
        return tuple(obj.editions) if obj is not None else None

    def uses(self, uses) -> list[DesignUse]:
        out: list[DesignUse] = []
        for u in uses:
            eds = self.only(u.only)
            if type(u).__name__ == "CardsFile":
                card_path = Path(os.path.normpath(self.path.parent / u.path))
                problem = file_problem(card_path, "the scenario")
                if problem:
                    self.problem(u, f"card file '{u.path}' {problem}")
                    continue
                try:
                    out.extend(DesignUse(d, eds) for d in load_cards(card_path))
                except RulesetError as err:
                    self.problems.extend(err.diagnostics)
            else:
                out.append(DesignUse(self.card(u.card), eds))
        return out

    def card(self, c) -> CardDesign:
        stats, abilities, edition, flavor = [], [], None, None
        for part in c.parts:
            kind = type(part).__name__
            if kind == "StatValue":
                if any(s.stat == part.stat for s in stats):
                    self.problem(part, f"card '{c.name}' gives {part.stat} twice")
                stats.append(StatValue(part.stat, part.value, self.at(part)))
            elif kind == "Ability":
                path = str(self.path)
                abilities.append(AbilityText(
                    part.name or None, printed_text(part.condition, path),
                    printed_text(part.cost, path),
                    tuple(printed_text(s, path) for s in part.sentences),
                    self.at(part)))
            elif kind == "Indicator":
                edition = part.edition
            else:
                flavor = part.text
        return CardDesign(c.name, c.type, edition, tuple(stats), tuple(abilities), flavor,
                          self.at(c))

    # one scenario

    def scenario(self, s, shared: list[DesignUse]) -> Scenario | None:
        origin = self.at(s)
        editions = tuple(s.editions.names)
        by_kind: dict[str, list] = {}
        for part in s.parts:
            by_kind.setdefault(type(part).__name__, []).append(part)
        for kind, word in (("Position", "position"), ("NewGame", "new game"),
                           ("Actions", "actions"), ("RulingText", "ruling")):
            for extra in by_kind.get(kind, [])[1:]:
                self.problem(extra, f"scenario '{s.name}' has a second {word}")
        starts = by_kind.get("Position", []) + by_kind.get("NewGame", [])
        if not starts:
            self.problem(origin, f"scenario '{s.name}' has no position: say where play "
                                 f"starts with `position {{...}}` or `new game {{...}}`")
            return None
        if len(starts) > 1 and by_kind.get("Position") and by_kind.get("NewGame"):
            self.problem(starts[1], "a scenario starts from a position or a new game, "
                                    "not both")
        cites = tuple(Cite(c.section, tuple(c.editions) or None, self.at(c))
                      for c in by_kind.get("Cite", []))
        if not cites:
            self.problem(origin, f"scenario '{s.name}' cites no rulebook section: add "
                                 f"`cite \"Section\"`")
        uses = [u for u in s.parts if type(u).__name__ in ("CardsFile", "InlineCard")]
        designs = tuple(shared + self.uses(uses))
        start = self.start(starts[0])
        dice = tuple((self.only(d.only), self.dice(d)) for d in by_kind.get("Dice", []))
        actions = by_kind.get("Actions", [])
        steps = tuple(self.action_items(actions[0].items)) if actions else ()
        expects = tuple(self.expect(e) for e in by_kind.get("Expect", []))
        ruling = by_kind.get("RulingText", [None])[0]
        scn = Scenario(s.name, str(self.path), editions, cites,
                       ruling.text if ruling is not None else None,
                       tuple((self.only(x.only), x.reason)
                             for x in by_kind.get("XFail", [])),
                       designs, start, dice, steps, expects, origin)
        _Validator(self, scn, s).run()
        return scn

    def dice(self, d) -> tuple[int, ...]:
        """The scripted rolls; a six-sided die shows 1 to 6, and a script that says
        otherwise could never be rolled."""
        wrong = [v for v in d.values if not 1 <= v <= 6]
        if wrong:
            self.problem(d, f"a die shows 1 to 6, not {', '.join(map(str, wrong))}")
        return tuple(d.values)

    def count(self, obj, n: int, what: str) -> None:
        """A count from 1 to `MAX_COUNT`: more cards or counters than any table holds
        would take the run's memory and time before anything is checked."""
        if not 1 <= n <= MAX_COUNT:
            self.problem(obj, f"{what}: a count must be from 1 to {MAX_COUNT}, not {n}")

    def start(self, obj) -> Position | NewGame:
        if type(obj).__name__ == "NewGame":
            values = {type(i).__name__: i for i in obj.items}
            decks = values.get("Decks")
            return NewGame(getattr(values.get("Players"), "n", None),
                           getattr(values.get("Seed"), "n", None),
                           tuple(str(self.path.parent / p) for p in decks.paths)
                           if decks else (),
                           getattr(values.get("MaxTurns"), "n", None), self.at(obj))
        items: dict[str, list] = {}
        for i in obj.items:
            items.setdefault(type(i).__name__, []).append(i)
        for kind, many in items.items():
            if kind not in ("PlayerSetup",) and len(many) > 1:
                self.problem(many[1], f"the position says '{_word(kind)}' twice")
        first = lambda kind: items.get(kind, [None])[0]  # noqa: E731
        at = first("At")
        if at is None:
            self.problem(obj, "the position does not say where play starts: add "
                              "`at phase NAME` (its window) or `at start of phase NAME`")
        active = getattr(first("Active"), "seat", 0)
        turn = getattr(first("TurnNumber"), "n", 2)
        battle = first("BattleSetup")
        chain = first("ChainSetup")
        return Position(
            players=getattr(first("Players"), "n", 2),
            seed=getattr(first("Seed"), "n", None),
            turn=turn, active=active,
            first=getattr(first("First"), "seat", active if turn == 1 else 0),
            phase=at.phase if at is not None else "",
            at_start=bool(at.start) if at is not None else False,
            setups=tuple(self.player(p) for p in items.get("PlayerSetup", [])),
            battle=self.battle(battle) if battle is not None else None,
            chain=tuple(self.link(x) for x in chain.links) if chain is not None else (),
            origin=self.at(obj))

    def player(self, p) -> PlayerSetup:
        hp = None
        zones = []
        for item in p.items:
            if type(item).__name__ == "Hp":
                hp = item.value
            else:
                entries = tuple(self.entry(e) for e in item.entries)
                zones.append(ZoneSetup(item.zone, entries, self.at(item)))
        return PlayerSetup(p.seat, hp, tuple(zones), self.at(p))

    def entry(self, e) -> Entry:
        flags, stats, counters, tags = [], [], [], []
        owner = last = None
        for st in e.state:
            kind = type(st).__name__
            if kind == "OwnedBy":
                owner = st.seat
            elif kind == "LastControlledBy":
                last = st.seat
            elif kind == "Flag":
                flags.append(st.flag)
            elif kind == "StatsOverride":
                stats.extend((s.stat, s.value) for s in st.stats)
            elif kind == "WithCounters":
                if st.n:  # 0: no number written, one counter
                    self.count(st, st.n, f"'{st.counter}' counters")
                counters.append((st.counter, st.placer, st.n or 1))
            else:
                tags.append(st.tag)
        count = e.count.n if e.count is not None else 1
        if e.count is not None:
            self.count(e.count, count, f"'{e.card}'")
        if e.label and count != 1:
            self.problem(e, f"label '{e.label}' names one card, but the entry places "
                            f"{count}")
        return Entry(e.card, count, e.label or None, tuple(flags), tuple(stats),
                     tuple(counters), tuple(tags), self.at(e), owner, last)

    def battle(self, b) -> BattleSetup:
        items: dict[str, Any] = {}
        for i in b.items:
            kind = type(i).__name__
            if kind in items:
                self.problem(i, f"the battle says '{_word(kind)}' twice")
            items[kind] = i
        victim = items.get("Victim")
        return BattleSetup(
            b.step,
            tuple(self.ref(c) for c in getattr(items.get("Attackers"), "cards", [])),
            self.target(victim.target) if victim is not None else None,
            tuple(self.ref(c) for c in getattr(items.get("Defenders"), "cards", [])),
            tuple(getattr(items.get("AttackDice"), "values", [])),
            tuple(getattr(items.get("DefenseDice"), "values", [])), self.at(b))

    def link(self, x) -> ChainLink:
        ability = None
        if x.ability is not None:
            ability = AbilitySel(x.ability.name if x.ability.name != "" else None,
                                 x.ability.index if x.ability.name == "" else None)
        return ChainLink(self.ref(x.card), ability, x.counter or None, x.seat, self.at(x))

    def ref(self, r) -> CardRef:
        return CardRef(r.label or None, r.name if not r.label else None, self.at(r))

    def target(self, t) -> CardRef | PlayerRef | DieValue:
        kind = type(t).__name__
        if kind == "PlayerArg":
            return PlayerRef(t.seat)
        if kind == "DieArg":
            return DieValue(t.value)
        return self.ref(t)

    # actions

    def action_items(self, items) -> list:
        out: list = []
        for item in items:
            kind = type(item).__name__
            if kind == "PlayerSteps":
                out.extend(self.step(item.seat, s) for s in item.steps)
            elif kind == "EditionSteps":
                out.append(EditionSteps(tuple(item.only.editions),
                                        tuple(self.action_items(item.items)),
                                        self.at(item)))
            else:
                out.append(self.expect(item))
        return out

    def step(self, seat: int, s) -> Step:
        common = dict(seat=seat, refused=bool(s.refused), reason=s.reason or None,
                      origin=self.at(s))
        return self.move(s.move, **common)

    def move(self, m, **common) -> Step:
        kind = type(m).__name__
        if kind == "ActStep":
            args = []
            for a in m.args:
                k = type(a).__name__
                if k == "PlayerArg":
                    args.append(PlayerRef(a.seat))
                elif k == "AbilityArg":
                    args.append(AbilitySel(a.name if a.name != "" else None,
                                           a.index if a.name == "" else None))
                elif k == "CounterArg":
                    args.append(CounterKind(a.kind))
                else:
                    args.append(self.ref(a))
            return Step(kind="act", action=m.action, args=tuple(args), **common)
        if kind == "PickStep":
            return Step(kind="pick", target=self.target(m.target), **common)
        if kind == "DieStep":
            return Step(kind="die", value=m.value, **common)
        if kind == "OptionStep":
            return Step(kind="option", value=m.n, **common)
        if kind == "NumberStep":
            return Step(kind="number", value=m.n, **common)
        if kind == "LabelStep":
            return Step(kind="choose", label=m.label, **common)
        return Step(kind=m.word, **common)

    # expectations

    def expect(self, e) -> Expect:
        checks = []
        for c in e.checks:
            checks.extend(self.check(c))
        return Expect(self.only(e.only), tuple(checks), self.at(e))

    def check(self, c) -> list[Check]:
        kind = type(c).__name__
        at = self.at(c)
        make = lambda k, subject, value, negated=False, where=at: Check(  # noqa: E731
            k, subject, value, negated, where)
        if kind == "PlayerCheck":
            f = c.fact
            fk = type(f).__name__
            if fk == "HpFact":
                return [make("hp", c.seat, f.value)]
            if fk == "ZoneCount":
                return [make("zone_count", (c.seat, f.zone), f.value)]
            if fk == "ZoneContents":
                return [make("zone_is" if f.exact else "zone_has", (c.seat, f.zone),
                             tuple(self.ref(x) for x in f.cards))]
            return [make("player_flag", c.seat, f.flag, bool(f.negated))]
        if kind == "CardCheck":
            ref = self.ref(c.card)
            return [self.card_fact(ref, f) for f in c.facts]
        if kind == "ChainCheck":
            if c.resolved:
                return [make("chain_resolved", None, tuple(
                    x.n if x.card is None else self.ref(x.card) for x in c.resolved))]
            return [make("chain_state", None, (c.state, c.links if c.links else None))]
        if kind == "EventCheck":
            fields = tuple((f.key, self.value(f.value)) for f in c.fields)
            times = c.times.n if c.times is not None else None
            return [make("event", c.kind, (fields, times), bool(c.negated))]
        if kind == "GameCheck":
            facts = {}
            for f in c.facts:
                fk = type(f).__name__
                facts[fk.lower()] = {"Winner": lambda f=f: f.seat, "Tie": lambda: True,
                                     "Condition": lambda f=f: f.condition,
                                     "Criterion": lambda f=f: f.criterion}[fk]()
            if c.negated and facts:
                self.problem(c, "`game not over` takes no winner, tie, condition or "
                                "criterion")
            return [make("game", None, facts, bool(c.negated))]
        if kind == "NodeCheck":
            return [make("node", None, c.node)]
        if kind == "PhaseCheck":
            return [make("phase", None, c.phase)]
        if kind == "TurnCheck":
            return [make("turn", None, (c.n, c.player.seat if c.player else None))]
        if kind == "WaitingCheck":
            return [make("waiting", c.seat, c.prompt or None)]
        step = self.move(c.move, seat=c.seat, origin=at)
        return [make("legal", c.seat, step, c.verdict == "cannot")]

    def card_fact(self, ref: CardRef, f) -> Check:
        kind = type(f).__name__
        at = self.at(f)
        if kind == "InZone":
            return Check("card_in", ref, (f.zone, f.player.seat if f.player else None),
                         False, at)
        if kind == "Removed":
            return Check("card_removed", ref, True, False, at)
        if kind in ("Controller", "Owner", "LastController"):
            name = "last_controller" if kind == "LastController" else kind.lower()
            return Check(f"card_{name}", ref, f.seat, False, at)
        if kind == "Counters":
            return Check("card_counters", ref, tuple(
                (x.counter, x.placer, x.n or 1) for x in f.counters),
                False, at)
        if kind == "TagFact":
            return Check("card_tag", ref, f.tag, bool(f.negated), at)
        if kind == "CardFlag":
            return Check("card_flag", ref, f.flag, bool(f.negated), at)
        return Check("card_stat", ref, (f.stat, f.value), False, at)

    def value(self, v) -> Any:
        if isinstance(v, (int, str)) and not hasattr(v, "_tx_position"):
            return v
        kind = type(v).__name__
        if kind == "ListValue":
            return tuple(self.value(x) for x in v.values)
        if kind == "PlayerArg":
            return PlayerRef(v.seat)
        if kind == "NoneValue":
            return None
        if kind == "BoolValue":
            return v.value == "true"
        return self.ref(v)


def _word(kind: str) -> str:
    return {"TurnNumber": "turn", "At": "at", "Active": "active", "First": "first",
            "Players": "players", "Seed": "seed", "BattleSetup": "battle",
            "ChainSetup": "chain", "Attackers": "attackers", "Defenders": "defenders",
            "Victim": "victim", "AttackDice": "attack_dice",
            "DefenseDice": "defense_dice"}.get(kind, kind)


# --- validation ---------------------------------------------------------------------


class _Validator:
    """Checks one scenario: first what holds in any edition, then each edition's words."""

    def __init__(self, conv: _Converter, scn: Scenario, model):
        self.conv, self.scn, self.model = conv, scn, model
        self.labels: dict[str, Entry] = {}
        self.placed: set[str] = set()

    def problem(self, where, message: str) -> None:
        self.conv.problem(where, message)

    def run(self) -> None:
        scn = self.scn
        names = scn.editions
        seen: set[str] = set()
        for n in names:
            if n in seen:
                self.problem(self.model.editions, f"edition '{n}' is named twice")
            seen.add(n)
        self.named_editions()
        rulesets = {}
        for name in dict.fromkeys(names):
            rs, why = edition_ruleset(name, Path(scn.path).parent)
            if rs is None:
                self.problem(self.conv.string_at(self.model.editions, name),
                             f"{why}: '{name}'")
                continue
            rulesets[name] = rs
        self.structure()
        for name, rs in rulesets.items():
            _EditionCheck(self, name, rs).run()

    def named_editions(self) -> None:
        """Every `for` and `in` list names editions of the scenario."""
        names = set(self.scn.editions)

        def check(eds, origin, obj=None) -> None:
            for e in eds or ():
                if e not in names:
                    where = self.conv.string_at(obj, e) if obj is not None else origin
                    self.problem(where, f"'{e}' is not one of this scenario's editions "
                                        f"({', '.join(self.scn.editions)})")

        for part in self.model.parts:
            only = getattr(part, "only", None)
            if only is not None:
                check(only.editions, self.conv.at(part), only)
            if type(part).__name__ == "Cite":
                check(part.editions, None, part)
            if type(part).__name__ in ("Expect", "Actions"):
                self.walk_only(part, check)

    def walk_only(self, obj, check) -> None:
        """Every `for` list inside actions and expectations."""
        for item in getattr(obj, "items", None) or ():
            only = getattr(item, "only", None)
            if only is not None:
                check(only.editions, None, only)
            self.walk_only(item, check)

    def structure(self) -> None:
        """What does not depend on an edition: seats, labels, references."""
        start = self.scn.start
        if isinstance(start, NewGame):
            for d in start.decks:
                problem = file_problem(Path(d), "the scenario")
                if problem:
                    self.problem(start.origin, f"deck file '{Path(d).name}' {problem}")
            players = start.players or 2
            self.seats(players, start.origin)
        else:
            players = start.players
            if players < 1:
                self.problem(start.origin, "a game needs at least one player")
            self.seats(players, start.origin)
            for seat, what in ((start.active, "active"), (start.first, "first")):
                if not 0 <= seat < players:
                    self.problem(start.origin, f"the {what} player {seat} is not one of "
                                               f"the {players} seats (0..{players - 1})")
            if start.turn < 1:
                self.problem(start.origin, "turns are counted from 1")
            seats: set[int] = set()
            for p in start.setups:
                if not 0 <= p.seat < players:
                    self.problem(p.origin, f"player {p.seat} is not one of the {players} "
                                           f"seats (0..{players - 1})")
                if p.seat in seats:
                    self.problem(p.origin, f"player {p.seat} is set up twice")
                seats.add(p.seat)
                for z in p.zones:
                    for e in z.entries:
                        self.entry(e, players)
            if start.battle is not None:
                b = start.battle
                if not b.attackers:
                    self.problem(b.origin, "a battle under way needs its attackers")
                if b.victim is None:
                    self.problem(b.origin, "a battle under way needs its victim")
                for r in b.attackers + b.defenders:
                    self.ref(r)
                if isinstance(b.victim, CardRef):
                    self.ref(b.victim)
                elif isinstance(b.victim, PlayerRef):
                    self.seat(b.victim.seat, players, b.origin)
            for link in start.chain:
                self.ref(link.card)
                self.seat(link.seat, players, link.origin)
        for item in self.all_items(self.scn.actions):
            if isinstance(item, Step):
                self.seat(item.seat, players, item.origin)
                self.step_refs(item)
            elif isinstance(item, Expect):
                self.checks(item.checks, players)
        for e in self.scn.expects:
            self.checks(e.checks, players)

    def seats(self, players: int, origin) -> None:
        """At most `MAX_COUNT` players: a seat each, made before anything is checked,
        and a run of millions would never start."""
        if players > MAX_COUNT:
            self.problem(origin, f"a game seats at most {MAX_COUNT} players, "
                                 f"not {players}")

    def entry(self, e: Entry, players: int) -> None:
        self.placed.add(e.design)
        for _, placer, _n in e.counters:
            self.seat(placer, players, e.origin)
        for seat in (e.owner, e.last_controller):
            if seat is not None:
                self.seat(seat, players, e.origin)
        if e.label is None:
            return
        if e.label in self.labels:
            first = self.labels[e.label].origin
            self.problem(e.origin, f"label '{e.label}' is given twice "
                                   f"(first at {first.line}:{first.col})")
        self.labels[e.label] = e

    def all_items(self, items):
        for i in items:
            if isinstance(i, EditionSteps):
                yield from self.all_items(i.items)
            else:
                yield i

    def seat(self, seat: int, players: int, origin) -> None:
        if not 0 <= seat < players:
            self.problem(origin, f"player {seat} is not one of the {players} seats "
                                 f"(0..{players - 1})")

    def ref(self, r: CardRef) -> None:
        if r.label is not None and r.label not in self.labels:
            known = ", ".join(self.labels) or "none"
            self.problem(r.origin, f"no card is labelled '{r.label}' (labels: {known})")
        if r.name is not None:
            designs = {u.design.name for u in self.scn.designs}
            pawn = r.name == "pawn" or (r.name.startswith("pawn of ")
                                        and r.name[8:] in designs)
            if r.name not in designs and not pawn:
                self.problem(r.origin, f"no card named '{r.name}' in this scenario's "
                                       f"cards")

    def step_refs(self, step: Step) -> None:
        for a in step.args:
            if isinstance(a, CardRef):
                self.ref(a)
        if isinstance(step.target, CardRef):
            self.ref(step.target)

    def checks(self, checks, players: int) -> None:
        for c in checks:
            if c.kind in ("hp", "zone_count", "zone_is", "zone_has", "player_flag",
                          "waiting", "legal"):
                seat = c.subject[0] if isinstance(c.subject, tuple) else c.subject
                self.seat(seat, players, c.origin)
            if isinstance(c.subject, CardRef):
                self.ref(c.subject)
            if c.kind in ("zone_is", "zone_has"):
                for r in c.value:
                    self.ref(r)
            if c.kind == "chain_resolved":
                for r in c.value:
                    if isinstance(r, CardRef):
                        self.ref(r)
            if c.kind == "legal":
                self.step_refs(c.value)
            if c.kind == "event":
                for _key, v in c.value[0]:
                    for x in v if isinstance(v, tuple) else (v,):
                        if isinstance(x, CardRef) and x.name is not None:
                            self.ref(x)


class _EditionCheck:
    """The scenario's words under one edition: zones, stats, counters, cards..."""

    def __init__(self, v: _Validator, name: str, rs: Ruleset):
        self.v, self.name, self.rs = v, name, rs
        self.words = Vocabulary(rs)
        self.designs = {d.name: d for d in v.scn.designs_for(name)}

    def problem(self, origin, message: str) -> None:
        self.v.conv.edition_problem(origin, message, self.name)

    def run(self) -> None:
        scn = self.v.scn
        contents = self.rs.contents.get(self.rs.name, ())
        for c in scn.cites:
            mine = c.editions is None or self.name in c.editions
            if mine and c.section not in contents:
                self.problem(c.origin, f"no section \"{c.section}\" in the rulebook")
        self.cards()
        start = scn.start
        if isinstance(start, Position):
            self.position(start)
        for item in self.v.all_items(scn.steps_for(self.name)):
            if isinstance(item, Step):
                self.step(item)
            elif isinstance(item, Expect):
                self.checks(item.checks)
        self.checks(scn.expects_for(self.name))

    def cards(self) -> None:
        seen: dict[str, ast.Origin] = {}
        for u in self.v.scn.designs:
            if u.editions is not None and self.name not in u.editions:
                continue
            d = u.design
            if d.name in seen:
                self.problem(d.origin, f"card '{d.name}' is defined twice (give each "
                                       f"design its editions with `for`)")
            seen.setdefault(d.name, d.origin)
            if d.name not in self.v.placed:
                continue
            kind = self.words.card_type(d.type)
            if kind is None:
                types = ", ".join(self.rs.card_types)
                self.problem(d.origin, f"card '{d.name}': no card type '{d.type}' "
                                       f"(types: {types}, minion)")
                continue
            given = set()
            # Ultra Points, where the edition has them, are printed on every card type
            # (as `kotc card check` allows them).
            extra = {"ultra_points"} if self.rs.setting("cards", "ultra_points_stat") \
                else set()
            for s in d.stats:
                if s.stat in extra:
                    continue
                stat = self.words.stat(s.stat)
                if stat is None or stat not in self.rs.card_types[kind].stats:
                    known = ", ".join(self.rs.card_types[kind].stats)
                    self.problem(s.origin, f"card '{d.name}': a {kind} has no stat "
                                           f"'{s.stat}' (its stats: {known})")
                given.add(stat)
            missing = [s for s in self.rs.card_types[kind].stats if s not in given]
            if missing:
                self.problem(d.origin, f"card '{d.name}' gives no {', '.join(missing)}")
            # read as a game reads it: with the edition's refurbished texts
            _readings, unread = read_card(read_as(self.words.design(d), self.rs), self.rs)
            for u in unread:
                self.problem(u.origin, u.message)

    def zone(self, name: str, origin) -> str | None:
        z = self.words.zone(name)
        if z is None:
            self.problem(origin, f"no zone '{name}' (zones: {self.words.known_zones()})")
        return z

    def stat(self, name: str, origin) -> None:
        if self.words.stat(name) is None:
            roles = [r for r, s in self.words.stat_roles.items() if s]
            self.problem(origin, f"no stat '{name}' (stats: "
                                 f"{', '.join(list(self.rs.stats) + roles)})")

    def counter(self, name: str, origin) -> None:
        if name not in self.rs.counters:
            self.problem(origin, f"no counter '{name}' (counters: "
                                 f"{', '.join(self.rs.counters) or 'none'})")

    def position(self, p: Position) -> None:
        phases = [ph.name for ph in self.rs.phases]
        if p.phase and p.phase not in phases:
            self.problem(p.origin, f"no phase '{p.phase}' (phases: {', '.join(phases)})")
        for setup in p.setups:
            for z in setup.zones:
                zone = self.zone(z.zone, z.origin)
                in_play = zone is not None and "in_play" in self.rs.zones[zone].flags
                for e in z.entries:
                    last = e.last_controller
                    if in_play and last is not None and last != setup.seat:
                        self.problem(e.origin, f"a card in play is last controlled by "
                                               f"the player who controls it (player "
                                               f"{setup.seat}), not player {last}")
                    if e.design not in self.designs:
                        self.problem(e.origin, f"no card named '{e.design}' in this "
                                               f"scenario's cards")
                    for stat, _value in e.stats:
                        self.stat(stat, e.origin)
                    for kind, _placer, _n in e.counters:
                        self.counter(kind, e.origin)
                    for tag in e.tags:
                        if tag not in self.rs.tags:
                            tags = ", ".join(self.rs.tags) or "none"
                            self.problem(e.origin, f"no tag '{tag}' (tags: {tags})")
        if p.battle is not None:
            steps = {s.name for s in self.rs.battle_steps}
            ops = {op for s in self.rs.battle_steps for op in s.ops}
            if p.battle.at not in steps | ops:
                names = ", ".join(s.name for s in self.rs.battle_steps) or "none"
                self.problem(p.battle.origin, f"no battle step or operation "
                                              f"'{p.battle.at}' (steps: {names}; "
                                              f"operations: {', '.join(sorted(ops))})")
        if p.chain and not self.rs.has_chain:
            self.problem(p.chain[0].origin, "the edition has no chain")
        for link in p.chain:
            if link.counter is not None:
                self.counter(link.counter, link.origin)

    def step(self, s: Step) -> None:
        for a in s.args:
            if isinstance(a, CounterKind):
                self.counter(a.name, s.origin)
        if s.kind == "act" and s.action not in self.rs.actions and not s.refused:
            self.problem(s.origin, f"no action '{s.action}' (actions: "
                                   f"{', '.join(self.rs.actions)})")

    def checks(self, checks) -> None:
        for c in checks:
            if c.kind in ("zone_count", "zone_is", "zone_has"):
                self.zone(c.subject[1], c.origin)
            elif c.kind == "card_in":
                self.zone(c.value[0], c.origin)
            elif c.kind == "card_stat":
                self.stat(c.value[0], c.origin)
            elif c.kind == "card_counters":
                for kind, _placer, _n in c.value:
                    self.counter(kind, c.origin)
            elif c.kind == "card_tag" and c.value not in self.rs.tags:
                self.problem(c.origin, f"no tag '{c.value}' (tags: "
                                       f"{', '.join(self.rs.tags) or 'none'})")
            elif c.kind == "phase" and c.value not in [ph.name for ph in self.rs.phases]:
                self.problem(c.origin, f"no phase '{c.value}'")
            elif c.kind == "legal":
                self.step(c.value)
