"""What must hold of a ruling before it is played: its seats, labels and
references, then its words under each edition it names (zones, stats, counters,
actions and their arguments, event kinds and fields, card texts).

Each check is made under each edition, on what that edition sees of the scenario
(its position, the steps and expectations that apply to it), so a part written
for one edition is checked against that edition's words only. A problem found
under some of the editions but not all says which.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from . import ast
from .cards import file_problem
from .legality import read_as
from .reading import read_card, with_stated_counters
from .ruleset import Ruleset
from .scenario_model import (
    MAX_COUNT,
    CardRef,
    Check,
    CounterKind,
    Entry,
    Expect,
    Never,
    NewGame,
    PlayerRef,
    Position,
    Scenario,
    Step,
)
from .scenario_words import COUNTER_ROLES, Vocabulary, log_events

Report = Callable[[ast.Origin, str], None]
EditionReport = Callable[[ast.Origin, str, str], None]

# checks whose subject is a seat, or a (seat, zone) pair
_SEAT_CHECKS = ("hp", "zone_count", "zone_is", "zone_has", "exhausted_count",
                "player_flag", "waiting", "legal")


def check_scenario(scn: Scenario, rulesets: dict[str, Ruleset], problem: Report,
                   edition_problem: EditionReport) -> None:
    """Report every problem of `scn`: its structure under each of its editions, and
    its words under each edition in `rulesets` (those that load)."""
    found: dict[tuple[ast.Origin, str], list[str]] = {}
    editions = tuple(dict.fromkeys(scn.editions))
    for e in editions:
        for origin, message in _Structure(scn, e).problems():
            found.setdefault((origin, message), []).append(e)
    for (origin, message), under in found.items():
        if len(under) == len(editions):
            problem(origin, message)
        else:
            for e in under:
                edition_problem(origin, message, e)
    for name, rs in rulesets.items():
        _EditionCheck(scn, name, rs, edition_problem).run()


def _items(items: Iterable[Step | Expect | Never]) -> Iterable[Step | Expect]:
    """Steps and expectations, those of `never` stretches included (the step never
    offered stands for itself)."""
    for i in items:
        if isinstance(i, Never):
            yield i.step
            yield from _items(i.items)  # type: ignore[arg-type]
        else:
            yield i


class _Structure:
    """What does not depend on an edition's words: seats, labels, references."""

    def __init__(self, scn: Scenario, edition: str):
        self.scn, self.edition = scn, edition
        self.found: list[tuple[ast.Origin, str]] = []
        self.labels: dict[str, ast.Origin] = {}

    def problem(self, origin: ast.Origin, message: str) -> None:
        self.found.append((origin, message))

    def problems(self) -> list[tuple[ast.Origin, str]]:
        scn = self.scn
        start = scn.start_for(self.edition)
        if isinstance(start, NewGame):
            for d in start.decks:
                problem = file_problem(Path(d), "the scenario")
                if problem:
                    self.problem(start.origin, f"deck file '{Path(d).name}' {problem}")
            players = start.players or 2
            self.seats(players, start.origin)
        else:
            players = start.players
            self.position(start)
        for label in scn.made:
            if label in self.labels:
                self.problem(scn.origin, f"label '{label}' is given twice (a card "
                                         f"placed and a card made)")
            self.labels[label] = scn.origin
        if isinstance(start, Position):
            self.battle_and_chain(start, players)
        for item in _items(scn.steps_for(self.edition)):
            if isinstance(item, Step):
                self.seat(item.seat, players, item.origin)
                self.step_refs(item)
            else:
                self.checks(item.checks, players)
        self.checks(scn.expects_for(self.edition), players)
        return self.found

    def position(self, start: Position) -> None:
        players = start.players
        if players < 1:
            self.problem(start.origin, "a game needs at least one player")
        self.seats(players, start.origin)
        for seat, what in ((start.active, "active"), (start.first, "first")):
            if not 0 <= seat < players:
                self.problem(start.origin, f"the {what} player {seat} is not one of "
                                           f"the {players} seats (0..{players - 1})")
        if start.turn < 1 and start.setup_step is None:
            self.problem(start.origin, "turns are counted from 1")
        seats: set[int] = set()
        for p in start.setups:
            if not 0 <= p.seat < players:
                self.problem(p.origin, f"player {p.seat} is not one of the {players} "
                                       f"seats (0..{players - 1})")
            if p.seat in seats:
                self.problem(p.origin, f"player {p.seat} is set up twice (limit a part "
                                       f"to some editions inside its block with "
                                       f"`for \"E\" {{ ... }}`)")
            seats.add(p.seat)
            for z in p.zones:
                for e in z.entries:
                    self.entry(e, players)

    def battle_and_chain(self, start: Position, players: int) -> None:
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

    def seats(self, players: int, origin: ast.Origin) -> None:
        """At most `MAX_COUNT` players: a seat each, made before anything is
        checked, and a run of millions would never start."""
        if players > MAX_COUNT:
            self.problem(origin, f"a game seats at most {MAX_COUNT} players, "
                                 f"not {players}")

    def entry(self, e: Entry, players: int) -> None:
        for _, placer, _n in e.counters:
            self.seat(placer, players, e.origin)
        for seat in (e.owner, e.last_controller):
            if seat is not None:
                self.seat(seat, players, e.origin)
        if e.label is None:
            return
        if e.label in self.labels:
            first = self.labels[e.label]
            self.problem(e.origin, f"label '{e.label}' is given twice "
                                   f"(first at {first.line}:{first.col})")
        self.labels[e.label] = e.origin

    def seat(self, seat: int, players: int, origin: ast.Origin) -> None:
        if not 0 <= seat < players:
            self.problem(origin, f"player {seat} is not one of the {players} seats "
                                 f"(0..{players - 1})")

    def ref(self, r: CardRef) -> None:
        if r.label is not None and r.label not in self.labels:
            known = ", ".join(self.labels) or "none"
            self.problem(r.origin, f"no card is labelled '{r.label}' (labels: {known})")
        if r.name is not None:
            designs = {d.name for d in self.scn.designs_for(self.edition)}
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

    def checks(self, checks: Iterable[Check], players: int) -> None:
        for c in checks:
            if c.kind in _SEAT_CHECKS:
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


# what kind of value each kind of action argument is
_ARG_KINDS = {PlayerRef: "a player", CounterKind: "a counter", CardRef: "a card"}


class _EditionCheck:
    """The scenario's words under one edition: zones, stats, counters, cards..."""

    def __init__(self, scn: Scenario, name: str, rs: Ruleset, report: EditionReport):
        self.scn, self.name, self.rs, self.report = scn, name, rs, report
        self.designs = {d.name: d for d in scn.designs_for(name)}
        # the counters the scenario's cards state the effects of are words too
        self.words = Vocabulary(with_stated_counters(rs, self.designs.values()))
        self.events = log_events(rs)
        start = scn.start_for(name)
        self.placed = {e.design for _seat, _z, e in start.entries()} \
            if isinstance(start, Position) else set()

    def problem(self, origin: ast.Origin, message: str) -> None:
        self.report(origin, message, self.name)

    def run(self) -> None:
        scn = self.scn
        for c in scn.cites:
            mine = c.editions is None or self.name in c.editions
            if mine and not self.rs.cites(self.rs.name, c.section):
                self.problem(c.origin, f"no section \"{c.section}\" in the rulebook")
        self.cards()
        start = scn.start_for(self.name)
        if isinstance(start, Position):
            self.position(start)
        for item in _items(scn.steps_for(self.name)):
            if isinstance(item, Step):
                self.step(item)
            else:
                self.checks(item.checks)
        self.checks(scn.expects_for(self.name))

    def cards(self) -> None:
        seen: dict[str, ast.Origin] = {}
        for u in self.scn.designs:
            if u.editions is not None and self.name not in u.editions:
                continue
            d = u.design
            if d.name in seen:
                self.problem(d.origin, f"card '{d.name}' is defined twice (give each "
                                       f"design its editions with `for`)")
            seen.setdefault(d.name, d.origin)
            if d.name not in self.placed:
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
            for problem in unread:
                self.problem(problem.origin, problem.message)

    def zone(self, name: str, origin: ast.Origin) -> str | None:
        z = self.words.zone(name)
        if z is None:
            self.problem(origin, f"no zone '{name}' (zones: {self.words.known_zones()})")
        return z

    def stat(self, name: str, origin: ast.Origin) -> None:
        if self.words.stat(name) is None:
            self.problem(origin, f"no stat '{name}' (stats: {self.words.known_stats()})")

    def counter(self, name: str, origin: ast.Origin) -> None:
        if self.words.counter(name) is None:
            role = COUNTER_ROLES.get(name)
            what = f"no counter that {role}" if role else f"no counter '{name}'"
            self.problem(origin, f"{what} (counters: {self.words.known_counters()})")

    def position(self, p: Position) -> None:
        if p.setup_step is not None:
            steps = [s.name for s in self.rs.setup_steps]
            if p.setup_step not in steps:
                self.problem(p.origin, f"no setup step '{p.setup_step}' (steps: "
                                       f"{', '.join(steps) or 'none'})")
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
            battle_steps = {s.name for s in self.rs.battle_steps}
            ops = {op for s in self.rs.battle_steps for op in s.ops}
            if p.battle.at not in battle_steps | ops:
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
        if s.kind != "act" or s.action is None:
            return
        action = self.rs.actions.get(s.action)
        if action is None:
            if not s.refused:
                self.problem(s.origin, f"no action '{s.action}' (actions: "
                                       f"{', '.join(self.rs.actions)})")
            return
        self.arguments(s, action)

    def arguments(self, s: Step, action: ast.Action) -> None:
        """The step's arguments fit the action's parameters, in number and kind."""
        params = action.params
        listed = ", ".join(f"{p.name}: {p.type}" for p in params) or "none"
        if len(s.args) > len(params):
            self.problem(s.origin, f"'{s.action}' takes {len(params)} argument"
                                   f"{'' if len(params) == 1 else 's'} ({listed}), "
                                   f"given {len(s.args)}: {', '.join(map(str, s.args))}")
            return
        for i, (arg, param) in enumerate(zip(s.args, params, strict=False), 1):
            want = self.param_kind(param.type)
            given = _ARG_KINDS.get(type(arg), "an ability")
            if want is not None and want != given:
                self.problem(s.origin, f"argument {i} of '{s.action}' is {arg}, {given}, "
                                       f"but its parameter '{param.name}' is "
                                       f"{want} ({listed})")

    def param_kind(self, t: str) -> str | None:
        """What a parameter's type asks for, in the words of `_ARG_KINDS`."""
        if t in ("player", "players"):
            return "a player"
        if t == "counter":
            return "a counter"
        if t == "ability":
            return "an ability"
        if t in ("card", "cards") or t in self.rs.card_types:
            return "a card"
        return None

    def checks(self, checks: Iterable[Check]) -> None:
        for c in checks:
            if c.kind in ("zone_count", "zone_is", "zone_has", "exhausted_count"):
                if c.subject[1] is not None:  # `exhausted count` over all zones: None
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
            elif c.kind == "event":
                self.event(c)

    def event(self, c: Check) -> None:
        """An event check names a kind the log has, and fields that kind has: one
        that never could be found would pass every `no event` vacuously."""
        kind = c.subject
        fields = self.events.get(kind)
        if fields is None:
            self.problem(c.origin, f"the log has no '{kind}' events (kinds: "
                                   f"{', '.join(sorted(self.events))})")
            return
        for key, _value in c.value[0]:
            if key not in fields:
                self.problem(c.origin, f"'{kind}' events have no field '{key}' "
                                       f"(fields: {', '.join(fields) or 'none'})")
