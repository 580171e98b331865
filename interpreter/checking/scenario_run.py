"""Playing a ruling: build its position, script its dice, take every decision it
lists, and judge what follows, under one edition at a time.

A position is built through the game's public constructor: `Game.position`,
`put` for its cards, then `start` at a setup step or a phase (its beginning or
its window), `start_battle` inside a battle step (teams formed, dice on the
table) and `open_chain` with the links of an open chain; the engine carries on
from there as if play had reached that point, its trace starting at that node.

Strictness: every decision must be the one the script answers next; a script
may end only where a player is free to act (a phase's window, a chance to
respond to the chain); without a seed every die must be scripted, and every
scripted die rolled. Each failure says where in the scenario file it arose and
what was expected against what happened.
"""

from __future__ import annotations

import contextvars
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kotc.compiler.programs import as_list
from kotc.dsl import Ruleset, ast
from kotc.dsl.reading import with_stated_counters
from kotc.dsl.scenario_model import (
    AbilitySel,
    CardRef,
    Check,
    CounterKind,
    DieValue,
    Expect,
    Never,
    NewGame,
    PlayerRef,
    Position,
    Scenario,
    Step,
)
from kotc.dsl.scenario_words import Vocabulary, log_events
from kotc.dsl.scenarios import edition_ruleset
from kotc.dsl.shipped import EDITIONS_DIR, ruleset_starter_deck_files
from kotc.dsl.unparse import unparse_expr
from kotc.engine.decks import deck_from_file, vanilla_deck
from kotc.engine.game import Deck, Engine, Game, card_pool
from kotc.engine.trace import Trace
from kotc.runtime.actions import Action, IllegalAction
from kotc.runtime.dice import Dice
from kotc.runtime.values import AbilityRef, DieRef, Seat, card_label

from .invariants import Monitor, Snapshot

# Decisions at which a player is free to act: a script may stop there.
FREE = ("phase", "chain")


# --- results ------------------------------------------------------------------------


@dataclass(frozen=True)
class Failure:
    """Where a scenario went wrong, what it expected and what happened."""

    origin: ast.Origin
    what: str
    expected: str | None = None
    actual: str | None = None
    invariant: str | None = None  # the engine's invariant found broken, if that is all
    at: int | None = None  # how many entries of the run's log came before it

    def __str__(self) -> str:
        text = f"{self.origin}: {self.what}"
        if self.expected is not None:
            text += f": expected {self.expected}, actual {self.actual}"
        return text


@dataclass(frozen=True)
class WrittenEvent:
    """One event of a run's log, as a ruling would check it: its kind, its fields
    in the scenario language's words, and the rule it cites."""

    kind: str
    fields: tuple[tuple[str, str], ...]
    cite: str | None

    def __str__(self) -> str:
        fields = "".join(f" {k}={v}" for k, v in self.fields)
        return f"{self.kind}{fields}" + (f"  [{self.cite}]" if self.cite else "")


@dataclass(frozen=True)
class LogEntry:
    """A stretch of a run's log: what play did as it began (`step` None), or after
    one step of the script, with the decision the step answered."""

    step: Step | None
    decision: str | None  # the decision answered, as `asked` words it
    taken: str | None  # the option taken, as the engine labels it
    events: tuple[WrittenEvent, ...]

    def to_json(self) -> dict:
        s = self.step
        return {"step": str(s) if s else None,
                "line": s.origin.line if s else None, "col": s.origin.col if s else None,
                "decision": self.decision, "taken": self.taken,
                "events": [{"kind": e.kind, "fields": dict(e.fields), "cite": e.cite}
                           for e in self.events]}


@dataclass
class Result:
    """One scenario under one edition. `status`: passed, failed, xfailed (a known
    bug still there: counted as skipped), xpassed (the bug is gone: a failure) or,
    under house rules compared with their base edition, changed (the house rules
    change the ruling's outcome)."""

    scenario: Scenario
    edition: str
    status: str
    failures: list[Failure] = field(default_factory=list)
    reason: str | None = None
    under: str | None = None  # the ruleset played when it is not the named edition
    trace: Any = None
    log: list[LogEntry] = field(default_factory=list)
    base: Result | None = None  # under house rules: the run under the edition named

    @property
    def label(self) -> str:
        under = f" as {self.edition}" if self.under else ""
        return f"{self.scenario.id} [{self.under or self.edition}{under}]"

    def log_to_failure(self) -> list[LogEntry]:
        """The log up to where the first failure arose (all of it, if none did)."""
        marks = [f.at for f in self.failures if f.at is not None]
        return self.log[:min(marks)] if marks else self.log


class _Stop(Exception):
    """A failure that ends play: nothing after it can be judged fairly."""

    def __init__(self, failure: Failure):
        self.failure = failure


class UnscriptedDie(Exception):
    """A die was rolled that the scenario did not script (and it has no seed)."""


# --- the engine, watched ------------------------------------------------------------


_strict = contextvars.ContextVar("strict_dice", default=None)


class ScriptedDice(Dice):
    """Dice that follow the script and, when strict, refuse to roll past it."""

    def __init__(self, seed: int = 0, script: list[int] | None = None,
                 strict: bool = False):
        super().__init__(seed, script)
        self.strict = strict
        self.rolled = 0

    def roll(self) -> int:
        if self.strict and not self.script:
            raise UnscriptedDie()
        self.rolled += 1
        return super().roll()


class TracedGame(Game):
    """A game whose dice follow a ruling's script, traced: it records the flow
    graph's nodes and edges play moves through (`Game.trace`), for coverage."""

    def _init_state(self, n: int, seed: int, dice, max_turns: int) -> None:
        super()._init_state(n, seed, dice, max_turns)
        self.rng = ScriptedDice(seed, dice, bool(_strict.get()))
        self.trace = Trace(self.runner.tables, self.events)


# --- playing one scenario -----------------------------------------------------------


def run_scenario(scn: Scenario, edition: str, ruleset: Ruleset | None = None,
                 under: str | None = None, backend: str = "generated") -> Result:
    """Play `scn` under `edition` (one of its editions) and judge it.

    Args:
        scn: a loaded scenario.
        edition: which of its editions' parts apply (position, steps, expectations).
        ruleset: the rules to play (default: that edition's); house rules that
            extend the edition are played this way.
        under: a name for `ruleset` when it is not the named edition.
        backend: how the rules' programs run (see `kotc.engine.game.Engine`).

    Returns:
        The verdict, with every failure located, and the run's log.
    """
    if ruleset is None:
        ruleset, why = edition_ruleset(edition, Path(scn.path).parent)
        if ruleset is None:
            return _verdict(scn, edition, [Failure(scn.origin, why or "")], under)
    play = _Play(scn, edition, ruleset, backend)
    try:
        play.run()
    except _Stop as stop:
        play.fail(stop.failure)
    except Exception as err:  # an engine bug: reported as a failure, never a traceback
        play.fail(Failure(play.where, f"the engine failed: {type(err).__name__}: {err}"))
    result = _verdict(scn, edition, play.failures, under)
    result.trace = play.coverage()
    result.log = play.log
    return result


def run_against_base(scn: Scenario, edition: str, ruleset: Ruleset,
                     under: str, backend: str = "generated") -> Result:
    """Play `scn` under house rules (`ruleset`, named `under`) as `edition`, one of
    the editions it extends, and under `edition` itself: where the two outcomes
    differ, the result is `changed` (by these rules)."""
    house = run_scenario(scn, edition, ruleset, under, backend)
    base = run_scenario(scn, edition, backend=backend)
    house.base = base
    if bool(house.failures) == bool(base.failures):
        return house
    house.status = "changed"
    if not house.failures:
        house.failures = [Failure(scn.origin, f"passes under these rules, where it "
                                              f"fails under the {edition}")]
    return house


def _verdict(scn: Scenario, edition: str, failures: list[Failure],
             under: str | None) -> Result:
    known = scn.xfail(edition)
    if known is None:
        return Result(scn, edition, "failed" if failures else "passed", failures,
                      under=under)
    if failures:
        return Result(scn, edition, "xfailed", failures, reason=known, under=under)
    return Result(scn, edition, "xpassed", [Failure(
        scn.origin, f"passes, but is marked xfail (\"{known}\"): the bug is fixed; "
                    f"remove the mark")], reason=known, under=under)


@dataclass(frozen=True)
class Run:
    """One run `kotc test` makes: a scenario, the edition it names whose parts
    apply, the rules played (None: that edition's) and their name where they are
    house rules, and how the rules' programs run."""

    scenario: Scenario
    edition: str
    ruleset: Ruleset | None = None
    under: str | None = None
    backend: str = "generated"

    def play(self) -> Result:
        if self.ruleset is None or self.under is None:
            return run_scenario(self.scenario, self.edition, self.ruleset,
                                backend=self.backend)
        return run_against_base(self.scenario, self.edition, self.ruleset, self.under,
                                self.backend)


def shipped_edition(path: str) -> bool:
    """Whether a rule file is one of the editions kotc ships."""
    return Path(path).resolve().parent == EDITIONS_DIR.resolve()


def runs_under(scenarios: list[Scenario], target: Ruleset) -> list[Run]:
    """The runs under one edition: a scenario runs under `target` if it names it,
    or if `target` is a house edition (one kotc does not ship) that extends an
    edition the scenario names, directly or through house editions of its own;
    then it runs as the nearest such edition, compared with a run under it."""
    reach: list[str] = []
    for name, path in zip(target.lineage, target.files, strict=False):
        reach.append(name)
        if shipped_edition(path):
            break
    runs = []
    for s in scenarios:
        name = next((n for n in reach if n in s.editions), None)
        if name == target.name:
            runs.append(Run(s, name, target))
        elif name is not None:
            runs.append(Run(s, name, target, target.name))
    return runs


@dataclass
class _Watch:
    """A `never` stretch under way: its step, and whether its player has decided."""

    never: Never
    decided: bool = False
    offered: bool = False


class _Play:
    def __init__(self, scn: Scenario, edition: str, rs: Ruleset,
                 backend: str = "generated"):
        self.scn, self.edition, self.rs = scn, edition, rs
        self.backend = backend
        # the counters the scenario's cards state the effects of are words too
        self.words = Vocabulary(with_stated_counters(rs, scn.designs_for(edition)))
        self.failures: list[Failure] = []
        self.labels: dict[str, int] = {}
        self.where = scn.origin
        self.g: TracedGame | None = None
        self.monitor: Monitor | None = None  # the engine's invariants, after each step
        self.violations: set[str] = set()
        self.chains: list[dict[int, tuple]] = []
        self.resolved: list[tuple[int, int]] = []
        self.seen_events = 0
        self.made_from = 0  # the first id of a card made during play
        self.log: list[LogEntry] = []
        self.logged = 0  # events already in the log's entries
        self.watches: list[_Watch] = []

    def fail(self, failure: Failure) -> None:
        """Keep a failure, with how much of the log came before it."""
        self.failures.append(replace(failure, at=len(self.log)))

    # building

    def run(self) -> None:
        script = self.scn.dice_for(self.edition)
        start = self.scn.start_for(self.edition)
        seed = start.seed
        token = _strict.set(seed is None)
        try:
            if isinstance(start, NewGame):
                self.new_game(start, list(script or ()))
            else:
                self.position(start, list(script or ()))
        except UnscriptedDie:
            rolled = self.g.rng.rolled if self.g is not None else 0
            why = (f"a die was rolled past the script as play began (after {rolled} "
                   f"scripted dice), and the scenario has no seed")
            raise _Stop(Failure(start.origin, why)) from None
        finally:
            _strict.reset(token)
            if self.g is not None:
                self.record(None, None, None)
        self.made_from = len(self.g.cards)
        self.monitor = Monitor(self.g)
        self.broken(self.monitor.check(), start.origin, "where play begins")
        self.observe()
        self.play(self.scn.steps_for(self.edition))
        self.finish()
        self.judge(self.scn.expects_for(self.edition))

    def play(self, items: list) -> None:
        for item in items:
            if isinstance(item, Expect):
                self.judge(item.checks)
            elif isinstance(item, Never):
                self.never(item)
            else:
                self.step(item)

    def never(self, item: Never) -> None:
        """Play the stretch, the step looked for at each decision its steps answer."""
        watch = _Watch(item)
        self.watches.append(watch)
        try:
            self.play(list(item.items))
        finally:
            self.watches.remove(watch)
        if not watch.decided:
            seat = item.step.seat
            self.fail(Failure(item.origin, f"player {seat} decides nothing over this "
                                           f"stretch, so `never {item.step}` could not "
                                           f"fail: give the steps where player {seat} "
                                           f"is asked"))

    def watch(self, d, step: Step) -> None:
        """Before `step` answers decision `d`: a step that must never be offered in a
        stretch under way is not."""
        for w in self.watches:
            never = w.never.step
            if d is None or d.player != never.seat:
                continue
            w.decided = True
            action, _why = self.match(never, d)
            if action is not None and not w.offered:
                w.offered = True
                self.fail(Failure(w.never.origin, f"`{never}` is offered ({action.label})"
                                                  f" at {self.asked(d)}, before step "
                                                  f"`{step}` "
                                                  f"({step.origin.line}:"
                                                  f"{step.origin.col})"))

    def new_game(self, start: NewGame, script: list[int]) -> None:
        # no decks named: the starter decks of the shipped edition the rules are
        # (or are edited from), never of another edition of the same name
        files = ([Path(p) for p in start.decks]
                 or ruleset_starter_deck_files(self.rs.files)[:2])
        decks = [deck_from_file(f)[1] for f in files] or [vanilla_deck(self.rs)]
        words = self.words.design
        decks = [Deck([words(c) for c in d.cards],
                      {name: [words(c) for c in pile] for name, pile in d.piles.items()})
                 for d in decks]
        self.where = start.origin
        kwargs = {"max_turns": start.max_turns} if start.max_turns else {}
        self.g = TracedGame.new(self.rs, decks, seed=start.seed or 0,
                                players=start.players or max(2, len(decks)), dice=script,
                                engine=Engine.shared(self.rs, card_pool(decks),
                                                     self.backend),
                                **kwargs)

    def position(self, p: Position, script: list[int]) -> None:
        # the designs placed: a card of the file that this position does not place
        # may be written for other editions, its text unreadable under this one
        placed = {e.design for _seat, _zone, e in p.entries()}
        designs = [self.words.design(d) for d in self.scn.designs_for(self.edition)
                   if d.name in placed]
        self.where = p.origin
        try:
            g = self.g = TracedGame.position(self.rs, designs, players=p.players,
                                             seed=p.seed or 0, dice=script,
                                             backend=self.backend)
        except ValueError as err:  # a card text the edition cannot read
            raise _Stop(Failure(p.origin, str(err))) from None
        g.turn, g.active, g.first_player = p.turn, p.active, p.first
        for setup in p.setups:
            if setup.hp is not None:
                g.players[setup.seat].hp = setup.hp
            for z in setup.zones:
                zone = self.words.zone(z.zone)
                for e in z.entries:
                    for _ in range(e.count):
                        card = g.put(e.design, setup.seat, zone, **self.state(e, p.turn))
                        if e.label:
                            self.labels[e.label] = card
        # the names were checked against the edition named; house rules played as
        # that edition may have dropped one
        if p.setup_step is not None:
            steps = [s.name for s in self.rs.setup_steps]
            if p.setup_step not in steps:
                raise _Stop(Failure(p.origin, f"the {self.rs.name} rules have no setup "
                                              f"step '{p.setup_step}' (steps: "
                                              f"{', '.join(steps) or 'none'})"))
            g.start(setup_step=p.setup_step)
        else:
            names = [ph.name for ph in self.rs.phases]
            if p.phase not in names:
                raise _Stop(Failure(p.origin, f"the {self.rs.name} rules have no phase "
                                              f"'{p.phase}' (phases: "
                                              f"{', '.join(names)})"))
            g.start(phase=p.phase, at_start=p.at_start)
        if p.battle is not None:
            self.battle(p)
        if p.chain:
            self.chain(p)
        g.advance()

    def state(self, e, turn: int) -> dict:
        s: dict[str, Any] = {}
        flags = set(e.flags)
        if "exhausted" in flags or "unexhausted" in flags:
            s["exhausted"] = "exhausted" in flags
        if "fatigued" in flags:
            s.update(fatigued=True, fatigued_turn=turn)
        if "face_up" in flags or "face_down" in flags:
            s["face_up"] = "face_up" in flags
        if "pawn" in flags:
            s["pawn"] = True
        if e.stats:
            s["stats"] = {self.words.stat(k): v for k, v in e.stats}
        if e.counters:
            s["counters"] = [[self.words.counter(kind), placer]
                             for kind, placer, n in e.counters for _ in range(n)]
        if e.tags:
            s["tags"] = {t: "leave" for t in e.tags}
        if e.owner is not None:
            s["owner"] = e.owner
        if e.last_controller is not None:
            s["last_controller"] = e.last_controller
        return s

    def battle(self, p: Position) -> None:
        """A battle under way at a step, or at one operation of a step."""
        g, b = self.g, p.battle
        steps = self.rs.battle_steps
        flat = [(i, k, op) for i, s in enumerate(steps) for k, op in enumerate(s.ops)]
        at = next(((i, 0) for i, s in enumerate(steps) if s.name == b.at), None) or \
            next((i, k) for i, k, op in flat if op == b.at)
        done = {op for i, k, op in flat if (i, k) < at}
        team = [self.card(r) for r in b.attackers]
        attacker = g.cards[team[0]].controller if team else g.active
        victim = Seat(b.victim.seat) if isinstance(b.victim, PlayerRef) \
            else self.card(b.victim)
        record = g.start_battle(steps[at[0]].name, at[1], attacker=attacker,
                                victim=victim, attack_team=team,
                                defense_team=[self.card(r) for r in b.defenders])
        for card in team if "form_attack" in done else ():
            g.cards[card].exhausted = True
        for card in record.defense_team if "form_defense" in done else ():
            g.cards[card].exhausted = True
        record.attack_dice = [self.die(v, attacker) for v in b.attack_dice]
        record.defense_dice = [self.die(v, record.defender) for v in b.defense_dice]

    def die(self, value: int, seat: int) -> DieRef:
        self.g.dice.append([value, int(seat)])
        return DieRef(len(self.g.dice) - 1)

    def chain(self, p: Position) -> None:
        """An open chain: each link as the referee adds it; then responses."""
        g = self.g
        referee = g.referee
        links = []
        for link in p.chain:
            card = self.card(link.card)
            if link.counter is not None:
                body = referee.counters[self.words.counter(link.counter)].body
                env = {"you": Seat(link.seat), "host": card}
            else:
                abilities = g.engine.abilities.get(g.cards[card].design) or []
                sel = link.ability
                index = (next((i for i, a in enumerate(abilities) if a.name == sel.name),
                              None) if sel.name is not None else sel.index - 1)
                if index is None or not 0 <= index < len(abilities):
                    raise _Stop(Failure(link.origin, f"{self.show(card)} has no {sel}"))
                body = abilities[index].resolution
                env = {"you": Seat(link.seat), "this": card}
            links.append((body.id, env, card, link.seat))
        g.open_chain(links)

    # references

    def card(self, ref: CardRef) -> int:
        if ref.label is not None:
            if ref.label in self.scn.made:
                return self.made(ref)
            if ref.label not in self.labels:
                raise _Stop(Failure(ref.origin, f"no card is labelled '{ref.label}'"))
            return self.labels[ref.label]
        found = [c.id for c in self.g.cards if c.name == ref.name]
        if len(found) > 1:
            found = [c for c in found if self.g.cards[c].zone] or found
        if not found:
            raise _Stop(Failure(ref.origin, f"no card named '{ref.name}' is in the game"))
        if len(found) > 1:
            raise _Stop(Failure(ref.origin, f"{len(found)} cards are named '{ref.name}' "
                                            f"({', '.join(map(self.show, found))}): give "
                                            f"the one meant a label with `as` (or "
                                            f"`made`, for cards made during play)"))
        return found[0]

    def made(self, ref: CardRef) -> int:
        """A card made during play, by its place in the order they were made."""
        n = self.scn.made.index(ref.label or "")
        made = len(self.g.cards) - self.made_from
        if n >= made:
            raise _Stop(Failure(ref.origin, f"'{ref.label}' names card {n + 1} made "
                                            f"during play, but {made} "
                                            f"{'was' if made == 1 else 'were'} made "
                                            f"so far"))
        return self.made_from + n

    def show(self, card: int) -> str:
        label = next((k for k, v in self.labels.items() if v == card), None)
        if label is None and self.made_from <= card < self.made_from + len(self.scn.made):
            label = self.scn.made[card - self.made_from]
        c = self.g.cards[card]
        return label or card_label(c.name, card)

    def value(self, x: Any) -> Any:
        """A step's argument as the engine writes it."""
        if isinstance(x, CardRef):
            return self.card(x)
        if isinstance(x, PlayerRef):
            return Seat(x.seat)
        if isinstance(x, CounterKind):
            return self.words.counter(x.name) or x.name
        return x

    # the log, as a ruling would check it

    def record(self, step: Step | None, decision: str | None, taken: str | None) -> None:
        """The events since the last entry, as the log's next entry."""
        g = self.g
        fields = log_events(self.rs)
        events = tuple(self.written_event(e, fields.get(e.kind, {}))
                       for e in g.events[self.logged:] if e.kind != "decide")
        self.logged = len(g.events)
        self.log.append(LogEntry(step, decision, taken, events))

    def written_event(self, e, kinds: dict[str, str]) -> WrittenEvent:
        return WrittenEvent(e.kind, tuple((k, self.written(v, kinds.get(k, "value")))
                                    for k, v in e.data.items()), e.cite)

    def written(self, v: Any, kind: str) -> str:
        """A logged value as a ruling writes it: players as `player N`, cards by
        their labels (or `Name#id`), text quoted."""
        if v is None or isinstance(v, bool):
            return {None: "none", True: "true", False: "false"}[v]
        if isinstance(v, (list, tuple)):
            inner = kind[:-1] if kind in ("cards", "players") else kind
            return "[" + ", ".join(self.written(x, inner) for x in v) + "]"
        if kind == "player" or (kind == "victim" and isinstance(v, Seat)):
            return f"player {int(v)}"
        if kind in ("card", "victim") and type(v) is int and 0 <= v < len(self.g.cards):
            return self.show(v)
        if isinstance(v, str):
            return f'"{v}"'
        return str(v)

    # playing

    def step(self, step: Step) -> None:
        g = self.g
        self.where = step.origin
        if g.is_over:
            raise _Stop(Failure(step.origin, f"the game is over ({self.outcome()}) "
                                             f"before step `{step}`"))
        d = g.decision
        self.watch(d, step)
        if step.refused:
            self.refuse(step, d)
            return
        if d.player != step.seat:
            raise _Stop(Failure(step.origin, self.unscripted(d, step)))
        action, why = self.match(step, d)
        if action is None:
            raise _Stop(Failure(step.origin, f"`{step}` is not legal now: {why}"
                                             f"{self.window_hint(d, step)}"))
        self.apply(action, step, self.asked(d))

    def unscripted(self, d, step: Step) -> str:
        """What the script does not answer: the decision, and, where it is a window
        the player may let go by, how to write that."""
        return (f"unscripted decision: {self.asked(d)}; the script's next step is "
                f"`{step}`{self.window_hint(d, step)}")

    def window_hint(self, d, step: Step) -> str:
        """Where the decision is a window the script did not foresee (one a player
        may let pass), how to let it pass: windows open where nothing in a ruling
        shows them."""
        passing = step.kind == "pass" and step.seat == d.player
        if passing or not any(o.kind == "pass" for o in d.options):
            return ""
        where = f" (play rests at {self.g.node})" if self.g.node else ""
        return (f". Player {d.player} may act here{where}: if nothing is done here, "
                f"write `{d.player}: pass` first")

    def apply(self, action: Action, step: Step, asked: str) -> None:
        g = self.g
        origin = step.origin
        before = Snapshot(g)
        try:
            events = g.apply(action)
        except UnscriptedDie:
            self.record(step, asked, action.label)
            raise _Stop(Failure(origin, f"a die was rolled past the script (after "
                                        f"{g.rng.rolled} scripted dice), and the "
                                        f"scenario has no seed")) from None
        except IllegalAction as err:
            raise _Stop(Failure(origin, f"refused: {err}")) from None
        self.record(step, asked, action.label)
        self.broken(self.monitor.after(before, events), origin, "after this step")
        self.observe()

    def broken(self, found: list, origin: ast.Origin, when: str) -> None:
        """The engine's invariants hold in every ruling too: a broken one fails it
        (once, where it is first found)."""
        for v in found:
            text = f"an invariant is broken {when}: {v}"
            if str(v) not in self.violations:
                self.violations.add(str(v))
                self.fail(Failure(origin, text, invariant=v.invariant))

    def refuse(self, step: Step, d) -> None:
        """The rules must refuse the step at its player's decision, for a reason
        containing the one given (any reason of the rules, if none is): a step of a
        player who is not deciding is refused for that alone, which says nothing of
        the rules."""
        g = self.g
        if d is None:
            raise _Stop(Failure(step.origin, f"`{step}` is to be refused, but nobody "
                                             f"is deciding anything"))
        if d.player != step.seat:
            raise _Stop(Failure(step.origin, f"`{step}` is about player {step.seat}, "
                                             f"who is not deciding: {self.asked(d)}"))
        action, _ = self.match(step, d)
        if action is not None:
            raise _Stop(Failure(step.origin, f"`{step}` was expected to be refused, "
                                             f"but it is legal ({action.label})"))
        reason = self.why_not(step, d)  # the rules' reason: what `reason` must match
        try:
            g.apply(self.build(step))
        except IllegalAction as err:
            engine = str(err)
        else:  # pragma: no cover - the engine took what it did not offer
            raise _Stop(Failure(step.origin, f"the engine took `{step}` although it "
                                             f"was not among its options"))
        self.record(step, self.asked(d), f"refused: {reason}")
        if step.reason and step.reason.lower() not in reason.lower():
            self.fail(Failure(step.origin, "the reason for refusing",
                              f"a reason mentioning \"{step.reason}\"",
                              f"\"{reason}\" (the engine: {engine})"))

    def build(self, step: Step) -> Action:
        """The action a step names, whether or not it is legal."""
        if step.kind == "act":
            return Action("act", (step.action, self.args(step)))
        if step.kind == "pick":
            target = step.target
            value = DieRef(-1) if isinstance(target, DieValue) else self.value(target)
            return Action("pick", value)
        if step.kind in ("die",):
            return Action("die", DieRef(-1))
        if step.kind in ("option",):
            return Action("option", step.value - 1)
        if step.kind == "number":
            return Action("number", step.value)
        if step.kind == "choose":
            return Action("choose", step.label)
        return Action(step.kind)

    def args(self, step: Step) -> tuple:
        out: list = []
        for a in step.args:
            if isinstance(a, AbilitySel):
                card = next((x for x in reversed(out) if type(x) is int), None)
                out.append(self.ability_ref(card, a, step))
            else:
                out.append(self.value(a))
        return tuple(out)

    def ability_ref(self, card: int | None, sel, step: Step) -> AbilityRef:
        if card is None:
            raise _Stop(Failure(step.origin, f"`{sel}` needs the card before it"))
        abilities = self.g.engine.abilities.get(self.g.cards[card].design) or []
        if sel.name is not None:
            index = next((i for i, a in enumerate(abilities) if a.name == sel.name), None)
        else:
            index = sel.index - 1
        if index is None or not 0 <= index < len(abilities):
            names = ", ".join(a.name or str(i + 1) for i, a in enumerate(abilities))
            raise _Stop(Failure(step.origin, f"{self.show(card)} has no {sel} (its "
                                             f"abilities: {names or 'none'})"))
        return AbilityRef(card, index)

    def match(self, step: Step, d) -> tuple[Action | None, str]:
        """The one option at decision `d` that the step names, or why there is none."""
        options = d.options
        g = self.g
        if step.kind == "act":
            given = _key(self.args(step))
            found = [o for o in options if o.kind == "act" and o.value[0] == step.action
                     and _key(tuple(o.value[1][:len(given)])) == given]
        elif step.kind == "pick":
            t = step.target
            if isinstance(t, DieValue):
                found = [o for o in options if o.kind == "pick"
                         and isinstance(o.value, DieRef)
                         and g.dice[o.value][0] == t.value]
                found = found[:1]
            else:
                want = _key(self.value(t))
                found = [o for o in options if o.kind == "pick" and _key(o.value) == want]
        elif step.kind == "die":
            found = [o for o in options if o.kind == "die"
                     and g.dice[o.value][0] == step.value][:1]
        elif step.kind == "option":
            found = [o for o in options
                     if o.kind == "option" and o.value == step.value - 1]
        elif step.kind == "number":
            found = [o for o in options if o.kind == "number" and o.value == step.value]
        elif step.kind == "choose":
            found = [o for o in options if o.label == step.label]
        else:
            found = [o for o in options if o.kind == step.kind]
        if len(found) == 1:
            return found[0], ""
        if len(found) > 1:
            return None, (f"it matches {len(found)} options ("
                          f"{', '.join(o.label for o in found)}): say which")
        return None, self.why_not(step, d)

    def why_not(self, step: Step, d) -> str:
        """Why a step is not legal now, naming the rule where one decides it."""
        if d is None:
            return "nobody is deciding anything"
        if d.player != step.seat:
            return f"it is not player {step.seat}'s decision: {self.asked(d)}"
        if step.kind == "act" and not _window(d):
            return f"player {d.player} must first answer {self.asked(d)}"
        if step.kind != "act":
            return f"no such option at {self.asked(d)}"
        try:
            return _Explainer(self, step, d).why()
        except _Stop:
            raise
        except Exception:  # the explanation is a courtesy; the refusal stands
            return f"no option matches at {self.asked(d)}"

    def asked(self, d) -> str:
        cite = f" [{d.cite}]" if d.cite else ""
        labels = [o.label or o.kind for o in d.options]
        more = "..." if len(labels) > 10 else ""
        return (f"player {d.player} must decide '{d.prompt}'{cite} (options: "
                f"{', '.join(labels[:10])}{more})")

    def finish(self) -> None:
        g = self.g
        if not g.is_over and g.decision is not None and g.decision.resume not in FREE:
            self.fail(Failure(self.where, f"unscripted decision once the script ends: "
                                          f"{self.asked(g.decision)}"))
        rng = g.rng
        if rng.script:
            self.fail(Failure(self.where, "scripted dice never rolled",
                              "every scripted die rolled",
                              f"{len(rng.script)} left over: {rng.script}"))

    def outcome(self) -> str:
        r = self.g.result or {}
        who = f"player {r['winner']} wins" if r.get("winner") is not None \
            else f"tie between {r.get('tied')}"
        return f"{r.get('condition')}: {who}"

    # the chain's history, from the log and the links seen at each decision

    def observe(self) -> None:
        g = self.g
        for e in g.events[self.seen_events:]:
            if e.kind == "link" and e.data.get("link") == 1:
                self.chains.append({})
            elif e.kind == "resolve" and self.chains:
                self.resolved.append((len(self.chains) - 1, e.data.get("link")))
        self.seen_events = len(g.events)
        if g.chain is not None and self.chains:
            for n, link in enumerate(g.chain.links, 1):
                self.chains[-1].setdefault(n, (link["source"], link["actor"]))

    # judging

    def judge(self, checks: list[Check]) -> None:
        for c in checks:
            try:
                failure = _JUDGES[c.kind](self, c)
            except _Stop as stop:
                failure = stop.failure
            if failure is not None:
                self.fail(failure)

    def coverage(self) -> dict | None:
        g = self.g
        if g is None:
            return None
        placed = {e.data.get("counter") for e in g.events if e.kind == "place"}
        lengths = Counter(chain for chain, _n in self.resolved)
        trace = g.trace.transitions() if g.trace is not None else []
        return {"edition": self.rs.name, "ruleset": self.rs,
                "nodes": {n for t in trace for n in (t.source, t.target)} | {g.node},
                "edges": {t.edge for t in trace if t.edge is not None},
                "chain_lengths": list(lengths.values()),
                "usage": dict(g.usage), "placed": placed,
                "conditions": [g.result.get("condition")] if g.result else [],
                "eliminated": [e.data.get("reason") for e in g.events
                               if e.kind == "eliminated"]}


def _window(d) -> bool:
    """Whether a decision is a window where its player may act (or let it pass),
    not a question that must be answered first."""
    return d.resume in (*FREE, "renew") or any(o.kind == "pass" for o in d.options)


def _key(value: Any) -> Any:
    """A comparable form that tells a player from a card and a die."""
    if isinstance(value, (Seat, DieRef)):
        return (type(value).__name__, int(value))
    if isinstance(value, (tuple, list)):
        return tuple(_key(v) for v in value)
    return value


class _Explainer:
    """Why an opened action cannot be taken with these arguments now."""

    def __init__(self, play: _Play, step: Step, d):
        self.play, self.step, self.d = play, step, d
        self.g = play.g
        self.referee = self.g.referee
        self.rs = play.rs

    def why(self) -> str:
        name = self.step.action
        rs, referee, g = self.rs, self.referee, self.g
        if name not in rs.actions:
            return f"the {rs.name} edition has no action '{name}'"
        open_now, where, cite = self.open_now()
        if name not in open_now:
            return (f"'{name}' is not open {where} (open: "
                    f"{', '.join(open_now) or 'none'}){_cite(cite)}")
        act = referee.actions[name]
        rule = rs.actions[name]
        args = self.play.args(self.step)
        if len(args) > len(act.params):
            names = ", ".join(f"{p.name}: {p.type}" for p in act.params) or "none"
            return (f"'{name}' takes {len(act.params)} argument"
                    f"{'' if len(act.params) == 1 else 's'} ({names}), given "
                    f"{len(args)}{_cite(rule.cite)}")
        env = {"you": Seat(self.d.player)}
        for i, (param, arg) in enumerate(zip(act.params, args, strict=False)):
            source = act.sources[i]
            if source is not None:
                pool = as_list(source(g, env))
                if arg not in pool:
                    return (f"{self.label(arg)} is not a choice for '{param.name}' "
                            f"({param.name}: {param.type} in "
                            f"{unparse_expr(rule.params[i].source)}){_cite(rule.cite)}")
            env[param.name] = arg
        if len(args) < len(act.params):
            completions = self.complete(act, args)
            reasons = list(dict.fromkeys(self.bound(act, rule, dict(env, **c))
                                         for c in completions))
            if not reasons:
                return (f"no way to take '{name}' with "
                        f"{', '.join(map(self.label, args)) or 'no arguments'} now: give "
                        f"every argument for the precise reason{_cite(rule.cite)}")
            return "; ".join(reasons)
        return self.bound(act, rule, env)

    def complete(self, act, args: tuple) -> list[dict]:
        """The ways to fill the parameters a step left out that name a card's part
        (an ability, a counter), so each can say why it is not legal."""
        out: list[dict] = [{}]
        card = next((a for a in reversed(args) if type(a) is int), None)
        for param in act.params[len(args):]:
            if card is None or param.type not in ("ability", "counter"):
                return []
            state = self.g.cards[card]
            if param.type == "ability":
                values = [AbilityRef(card, k) for k in range(
                    len(self.g.engine.abilities.get(state.design) or ()))]
            else:
                values = list(dict.fromkeys(k for k, _ in state.counters))
            out = [dict(o, **{param.name: v}) for o in out for v in values]
        return out

    def bound(self, act, rule, env: dict) -> str:
        """Why an action with every parameter bound is not legal now."""
        g, referee, rs, name = self.g, self.referee, self.rs, act.name
        if act.requires is not None and not act.requires(g, env):
            whole = unparse_expr(rule.requires)
            unmet = self.unmet(rule.requires, env)
            # the parts unmet only: a reason to match names the part that decides
            return f"'{name}' requires {' and '.join(unmet) or whole}{_cite(rule.cite)}"
        if not referee.affordable_now(g, act, env):
            need = ", ".join(f"{amount(g, env)} {kind}" for kind, amount in act.costs)
            return f"the cost cannot be paid ({need}){_cite(rule.cite)}"
        if act.resolves and not referee.condition_met(g, env["you"], env[act.resolves],
                                                       env):
            what = env[act.resolves]
            ref = what if isinstance(what, AbilityRef) else AbilityRef(what, 0)
            ability = g.ability(ref)
            inner = {"you": env["you"], "this": ref.card}
            if referee.unpayable_hidden and ability.affordable is not None \
                    and not ability.affordable(g, inner):
                return "the ability's printed cost cannot be paid in full"
            std = rs.setting("actions", "standard_activation")
            cite = ability.cite or (std.cite if std else None)
            how = (unparse_expr(std.cond) if ability.cite is None and std is not None
                   else "its printed activation condition")
            return f"the activation condition is not met ({how}){_cite(cite)}"
        return f"the engine does not offer it at {self.play.asked(self.d)}"

    def unmet(self, requires: ast.Expr, env: dict) -> list[str]:
        """The parts of a requirement joined by `and` that do not hold, so a refusal
        names the one that decides it (none, if a part cannot be read here)."""
        parts, stack = [], [requires]
        while stack:
            e = stack.pop()
            if isinstance(e, ast.Binary) and e.op == "and":
                stack += [e.right, e.left]
            else:
                parts.append(e)
        try:
            programs = self.g.engine.programs
            return [unparse_expr(e) for e in parts if not programs.expr(e)(self.g, env)]
        except Exception:  # the explanation is a courtesy; the refusal stands
            return []

    def open_now(self) -> tuple[list[str], str, Any]:
        """What the decision's window opens, where it is, and the rule that opens
        it."""
        g, referee, d = self.g, self.referee, self.d
        if d.resume == "chain":
            rule = self.rs.setting("chain", "chaining")
            return list(referee.chaining), "in response to a chain", rule.cite if rule \
                else None
        if d.resume == "renew":
            return (list(referee.chain_offer), "to start a new chain",
                    referee.new_chain.cite if referee.new_chain else None)
        if d.resume == "battle":
            return list(referee.step_offer), "between battle steps", referee.step_cite
        node = g.stack[-1].node  # a window of the phase under way
        ph = next(p for p in self.rs.phases if p.name == g.phase)
        if node.policy == "others":
            return (list(referee.others_offer), f"to the other players as the "
                                                f"{ph.label} ends", referee.anytime_cite)
        if not node.ask_when_empty:  # the window before the phase's program
            return (list(ph.opens_first), f"before the {ph.label}'s program",
                    ph.opens_cite or ph.cite)
        return (list(ph.opens + referee.anytime), f"in the {ph.label}",
                ph.opens_cite or ph.cite)

    def label(self, value: Any) -> str:
        if isinstance(value, Seat):
            return f"player {int(value)}"
        if isinstance(value, AbilityRef):
            return f"ability {value.index + 1} of {self.play.show(value.card)}"
        if type(value) is int:
            return self.play.show(value)
        return str(value)


def _cite(cite: Any) -> str:
    return f" [{cite}]" if cite else ""


# --- the judges, one per kind of check -----------------------------------------------


def _fail(c: Check, what: str, expected: Any, actual: Any) -> Failure:
    return Failure(c.origin, what, str(expected), str(actual))


def _hp(p: _Play, c: Check):
    actual = p.g.players[c.subject].hp
    if actual != c.value:
        return _fail(c, f"player {c.subject} hp", c.value, actual)
    return None


def _zone_of(p: _Play, c: Check) -> tuple[str, list[int]]:
    seat, name = c.subject
    zone = p.words.zone(name)
    return zone, p.g.players[seat].zones[zone]


def _zone_count(p: _Play, c: Check):
    zone, cards = _zone_of(p, c)
    if len(cards) != c.value:
        return _fail(c, f"player {c.subject[0]} {c.subject[1]} count", c.value,
                     f"{len(cards)} ({_cards(p, cards)})")
    return None


def _exhausted_count(p: _Play, c: Check):
    seat, name = c.subject
    player = p.g.players[seat]
    zones = [p.words.zone(name)] if name is not None else list(player.zones)
    cards = [card for z in zones for card in player.zones[z] if p.g.cards[card].exhausted]
    if len(cards) != c.value:
        where = f" {name}" if name is not None else ""
        return _fail(c, f"player {seat}{where} exhausted count", c.value,
                     f"{len(cards)} ({_cards(p, cards)})")
    return None


def _cards(p: _Play, cards) -> str:
    return ", ".join(map(p.show, cards)) or "none"


def _zone_is(p: _Play, c: Check):
    _zone, cards = _zone_of(p, c)
    want = [p.card(r) for r in c.value]
    if list(cards) != want:
        return _fail(c, f"player {c.subject[0]} {c.subject[1]}", _cards(p, want),
                     _cards(p, cards))
    return None


def _zone_has(p: _Play, c: Check):
    _zone, cards = _zone_of(p, c)
    missing = [p.card(r) for r in c.value if p.card(r) not in cards]
    if missing:
        return _fail(c, f"player {c.subject[0]} {c.subject[1]}",
                     f"to hold {_cards(p, missing)}", _cards(p, cards))
    return None


def _player_flag(p: _Play, c: Check):
    actual = bool(getattr(p.g.players[c.subject], c.value))
    if actual == c.negated:
        return _fail(c, f"player {c.subject} {c.value}", not c.negated, actual)
    return None


def _card_in(p: _Play, c: Check):
    card = p.card(c.subject)
    zone_name, seat = c.value
    zone = p.words.zone(zone_name)
    state = p.g.cards[card]
    here = state.zone == zone and (seat is None or state.controller == seat)
    if not here:
        where = f"{state.zone} of player {state.controller}" if state.zone \
            else "removed from the game"
        want = zone_name + (f" of player {seat}" if seat is not None else "")
        return _fail(c, f"where {p.show(card)} is", want, where)
    return None


def _card_removed(p: _Play, c: Check):
    card = p.card(c.subject)
    state = p.g.cards[card]
    if state.zone:
        return _fail(c, f"where {p.show(card)} is", "removed from the game",
                     f"{state.zone} of player {state.controller}")
    return None


def _card_seat(attr: str):
    def judge(p: _Play, c: Check):
        card = p.card(c.subject)
        actual = getattr(p.g.cards[card], attr)
        if actual != c.value:
            what = f"{p.show(card)} {attr.replace('_', ' ')}"
            return _fail(c, what, f"player {c.value}", f"player {actual}")
        return None

    return judge


def _card_counters(p: _Play, c: Check):
    card = p.card(c.subject)
    want = Counter((p.words.counter(kind), placer) for kind, placer, n in c.value
                   for _ in range(n))
    have = Counter((kind, int(placer)) for kind, placer in p.g.cards[card].counters)
    if want != have:
        return _fail(c, f"counters on {p.show(card)}", _counters(want), _counters(have))
    return None


def _counters(bag: Counter) -> str:
    return ", ".join(f"{n} {kind} by player {placer}"
                     for (kind, placer), n in sorted(bag.items())) or "none"


def _card_tag(p: _Play, c: Check):
    card = p.card(c.subject)
    actual = c.value in p.g.cards[card].tags
    if actual == c.negated:
        return _fail(c, f"{p.show(card)} tagged {c.value}", not c.negated, actual)
    return None


def _card_flag(p: _Play, c: Check):
    card = p.card(c.subject)
    state = p.g.cards[card]
    actual = {"face_down": not state.face_up}.get(c.value)
    if actual is None:
        actual = bool(getattr(state, c.value))
    if actual == c.negated:
        return _fail(c, f"{p.show(card)} {c.value}", not c.negated, actual)
    return None


def _card_stat(p: _Play, c: Check):
    card = p.card(c.subject)
    name, value = c.value
    stat = p.words.stat(name)
    actual = p.g.cards[card].stats.get(stat)
    if actual != value:
        return _fail(c, f"{p.show(card)} {name}", value, actual)
    return None


def _chain_state(p: _Play, c: Check):
    state, links = c.value
    chain = p.g.chain
    actual = "open" if chain is not None else "closed"
    if actual != state:
        return _fail(c, "the chain", state, actual)
    if links is not None and len(chain.links) != links:
        return _fail(c, "links in the chain", links, len(chain.links))
    return None


def _chain_resolved(p: _Play, c: Check):
    done = []
    for chain, n in p.resolved:
        links = p.chains[chain] if chain < len(p.chains) else {}
        source = links.get(n, (None, None))[0]
        done.append((n, source))
    want = list(c.value)
    if len(want) != len(done) or any(
            (w != n) if isinstance(w, int) else (p.card(w) != source)
            for w, (n, source) in zip(want, done, strict=False)):
        shown = lambda n, s: f"link {n} ({p.show(s)})" if type(s) is int else f"link {n}"  # noqa: E731
        return _fail(c, "the links resolved, in order",
                     ", ".join(str(w) for w in want) or "none",
                     ", ".join(shown(n, s) for n, s in done) or "none")
    return None


def _event(p: _Play, c: Check):
    kind = c.subject
    fields, times = c.value
    events = [e for e in p.g.events if e.kind == kind]
    hits = [e for e in events if all(k in e.data and _same(p, v, e.data[k])
                                     for k, v in fields)]
    wanted = f"{kind}" + "".join(f" {k}={_show_value(v)}" for k, v in fields)
    known = log_events(p.rs).get(kind, {})

    def shown(found: list) -> str:  # as the log writes them (`kotc test --log`)
        return "; ".join(str(replace(p.written_event(e, known), cite=None))
                         for e in found)

    seen = shown(events[-6:]) or f"no {kind} events"
    if c.negated:
        if hits:
            return _fail(c, "events in the log", f"no event {wanted}", shown(hits[:4]))
        return None
    if times is not None and len(hits) != times:
        return _fail(c, f"event {wanted}", f"{times} times",
                     f"{len(hits)} times ({seen})")
    if not hits:
        return _fail(c, "events in the log", f"event {wanted}", seen)
    return None


def _show_value(v: Any) -> str:
    if isinstance(v, tuple):
        return "[" + ", ".join(map(_show_value, v)) + "]"
    return "none" if v is None else str(v)


def _same(p: _Play, want: Any, have: Any) -> bool:
    """Whether a scenario's value equals a logged one (players by seat, cards by id,
    zones by any of their names)."""
    if isinstance(want, tuple):
        return isinstance(have, (list, tuple)) and len(want) == len(have) and all(
            _same(p, w, h) for w, h in zip(want, have, strict=True))
    if want is None or isinstance(want, bool):
        return have is want
    if isinstance(want, PlayerRef):
        return (isinstance(have, int) and not isinstance(have, bool)
                and int(have) == want.seat)
    if isinstance(want, CardRef):
        if want.label is not None and want.label not in p.labels \
                and want.label not in p.scn.made:
            text = want.label
            return have in (text, p.words.zone(text), p.words.stat(text),
                            p.words.counter(text))
        return type(have) is int and have == p.card(want)
    if isinstance(want, int):
        return isinstance(have, int) and not isinstance(have, bool) and int(have) == want
    return have in (want, p.words.zone(want), p.words.counter(want))


def _game(p: _Play, c: Check):
    g = p.g
    if c.negated:
        if g.is_over:
            return _fail(c, "the game", "not over", f"over ({p.outcome()})")
        return None
    if not g.is_over:
        return _fail(c, "the game", "over", f"not over (at {g.node})")
    r = g.result
    facts = c.value
    if "winner" in facts and r.get("winner") != facts["winner"]:
        return _fail(c, "the winner", f"player {facts['winner']}", p.outcome())
    if "tie" in facts and r.get("winner") is not None:
        return _fail(c, "the result", "a tie", p.outcome())
    for key in ("condition", "criterion"):
        if key in facts and r.get(key) != facts[key]:
            return _fail(c, f"the game's {key}", facts[key], r.get(key))
    return None


def _node(p: _Play, c: Check):
    if p.g.node != c.value:
        return _fail(c, "where play rests", c.value, p.g.node)
    return None


def _phase(p: _Play, c: Check):
    if p.g.phase != c.value:
        return _fail(c, "the phase", c.value, p.g.phase)
    return None


def _turn(p: _Play, c: Check):
    n, seat = c.value
    g = p.g
    if g.turn != n or (seat is not None and g.active != seat):
        of = f" of player {seat}" if seat is not None else ""
        actual = f"turn {g.turn} of player {g.active}"
        return _fail(c, "the turn", f"turn {n}{of}", actual)
    return None


def _waiting(p: _Play, c: Check):
    d = p.g.decision
    if d is None or p.g.is_over:
        return _fail(c, "who must decide", f"player {c.subject}", "nobody")
    if d.player != c.subject or (c.value and c.value.lower() not in d.prompt.lower()):
        want = f"player {c.subject}" + (f" to decide '{c.value}'" if c.value else "")
        return _fail(c, "who must decide", want, f"player {d.player} to decide "
                                                   f"'{d.prompt}'")
    return None


def _legal(p: _Play, c: Check):
    """Whether a step is legal now, asked of the player deciding: a step of another
    player is refused for that alone, and `cannot` would pass whatever the rules
    say."""
    step: Step = c.value
    d = p.g.decision
    verdict = "cannot" if c.negated else "can"
    if d is None or p.g.is_over:
        over = f" (the game is over: {p.outcome()})" if p.g.is_over else ""
        return Failure(c.origin, f"`{verdict} {step}` asks about player {step.seat}, "
                                 f"but nobody is deciding{over}")
    if d.player != step.seat:
        return Failure(c.origin, f"`{verdict} {step}` asks about player {step.seat}, who "
                                 f"is not deciding: {p.asked(d)}")
    action, why = p.match(step, d)
    legal = action is not None
    if legal == c.negated:
        return _fail(c, f"whether `{step}` is legal", "refused" if c.negated else "legal",
                     "legal" if legal else f"refused: {why}")
    if c.negated and step.reason and step.reason.lower() not in why.lower():
        return _fail(c, f"the reason `{step}` is refused",
                     f"a reason mentioning \"{step.reason}\"", f"\"{why}\"")
    return None


_JUDGES = {
    "hp": _hp, "zone_count": _zone_count, "exhausted_count": _exhausted_count,
    "zone_is": _zone_is, "zone_has": _zone_has,
    "player_flag": _player_flag, "card_in": _card_in, "card_removed": _card_removed,
    "card_controller": _card_seat("controller"), "card_owner": _card_seat("owner"),
    "card_last_controller": _card_seat("last_controller"),
    "card_counters": _card_counters, "card_tag": _card_tag, "card_flag": _card_flag,
    "card_stat": _card_stat, "chain_state": _chain_state,
    "chain_resolved": _chain_resolved, "event": _event, "game": _game, "node": _node,
    "phase": _phase, "turn": _turn, "waiting": _waiting, "legal": _legal,
}
