"""A game played under any edition's ruleset.

The engine knows primitives (move a card, exhaust, change a stat, roll, place
and pop counters, ask a player) and walks the edition's flow graph (the runner,
`engine/runner.py`, which keeps where play stands: the game's `stack`). What
happens at each node is the ruleset's programs; nothing here asks which edition
it is.

OpenSpiel-style API: `Game.new`, `legal_actions`, `apply`, `is_over`, `result`,
`clone`, `to_json` / `from_json`. Every choice is an action at a `Decision`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from kotc.compiler import services
from kotc.compiler.abilities import CompiledAbility, compile_card
from kotc.compiler.programs import Programs, as_list
from kotc.dsl import Ruleset, ast, load_edition
from kotc.dsl.cards import CardDesign
from kotc.dsl.legality import read_as
from kotc.dsl.reading import card_caveats, with_stated_counters
from kotc.dsl.types import ANY_COUNTER
from kotc.runtime.actions import Action, Decision, IllegalAction, picks
from kotc.runtime.dice import Dice
from kotc.runtime.events import (
    Decided,
    Event,
    Logged,
)
from kotc.runtime.limits import Bounds
from kotc.runtime.state import (
    Battle,
    CardState,
    Chain,
    PlayerState,
    away_from_last_controller,
)
from kotc.runtime.values import (
    AbilityRef,
    DieRef,
    Seat,
    card_label,
    decode,
    encode,
    seat_of,
)
from kotc.runtime.vm import NEXT, PUSHED, WAIT, Block, Frame

from . import primitives
from .referee import Referee, new_battle
from .restore_check import check_state
from .runner import BEGIN, RUN, Activation, Runner
from .trace import Trace
from .view import View
from .view import view as seen_by

DEFAULT_MAX_TURNS = 300
# the layout of `Game.to_json`; a state written in another cannot be restored
STATE_FORMAT = 7


@dataclass
class Deck:
    """The cards a player brings: the deck list, and its named piles set apart from
    it (the reserves, a card that starts in a zone of its own), by name."""

    cards: list[CardDesign]
    piles: dict[str, list[CardDesign]] = field(default_factory=dict)

    @property
    def set_aside(self) -> list[CardDesign]:
        """Every pile's cards, pile by pile."""
        return [d for pile in self.piles.values() for d in pile]


def card_pool(decks: list[Deck]) -> list[CardDesign]:
    """Every design the decks hold, piles included: what an engine compiles."""
    return [d for deck in decks for d in deck.cards + deck.set_aside]



class Engine:
    """What every game of one ruleset and card pool shares: compiled programs."""

    # engines made by `shared`, newest last: (ruleset id, designs) -> (ruleset, engine)
    _shared: dict[tuple[Any, ...], tuple[Ruleset, Engine]] = {}
    _lock = threading.Lock()
    SHARED = 32  # at most this many are kept
    NAMERS = 16  # namers an engine keeps (`Namer.of`)

    @classmethod
    def shared(cls, ruleset: Ruleset, designs: list[CardDesign],
               backend: str = "generated") -> Engine:
        """The engine of a ruleset and card pool, made once per process and reused:
        compiling the cards' texts takes longer than playing most games or rulings.
        (Games only read their engine; what it caches does not depend on a game.)
        Games made in threads at once wait for one another here, and share."""
        pool = tuple(designs)
        key = (id(ruleset), pool, backend)
        with cls._lock:
            kept = cls._shared.get(key)
            if kept is not None and kept[0] is ruleset:
                return kept[1]
            for (_, kept_pool, kept_backend), (kept_rs, engine) in cls._shared.items():
                # an equal ruleset (one unpickled with a game, say) compiles alike
                if kept_pool == pool and kept_backend == backend and kept_rs == ruleset:
                    return engine
            engine = cls(ruleset, designs, backend)
            cls._shared[key] = (ruleset, engine)  # kept: its id stays its own
            while len(cls._shared) > cls.SHARED:
                del cls._shared[next(iter(cls._shared))]
            return engine

    def __init__(self, ruleset: Ruleset, designs: list[CardDesign],
                 backend: str = "generated"):
        """The rules compiled with the cards of `designs`; `backend` runs their
        programs: "generated" (Python written for them) or "reference" (the
        interpreter of their intermediate form, slower, the meaning the other
        follows).

        Raises:
            ValueError: an unknown backend, or a card text the rules cannot read.
        """
        # with the counter kinds the cards state the effects of (named counters a
        # card names and gives an effect): a card's own are popped as the edition's;
        # `edition` is the ruleset as given (`Engine.shared` knows the engine by it)
        self.edition = ruleset
        ruleset = with_stated_counters(ruleset, designs)
        self.rs = ruleset
        self.pool = tuple(designs)  # as given (`Engine.shared` knows it so)
        self.backend = backend
        printed = frozenset(s.stat for d in designs for s in d.stats)
        self.programs = Programs(ruleset, printed, backend)
        # the bounds on the work a rule may ask, the edition's or kotc's
        self.bounds = Bounds(ruleset)
        # a safety net for programs that loop on free actions: the game ends as if
        # by agreement after this many decisions (kotc's bound, or fewer where the
        # ruleset states its own: `limit decisions N`)
        self.max_decisions = self.bounds.values["decisions"]
        self.abilities: dict[str, list[CompiledAbility]] = {}
        self.designs: dict[str, CardDesign] = {}
        # the caveats each design is printed with, and the number each prints for
        # [x] (the rules that name them read them: `has_caveat`, `caveat_x`)
        self.caveats: dict[str, dict[str, int]] = {}
        # in name order: the programs are numbered as compiled, and a saved game
        # names them by number, so one pool listed in any order compiles alike
        for d in sorted(designs, key=lambda d: d.name):
            if d.name not in self.designs:
                self.designs[d.name] = d
                self.abilities[d.name] = compile_card(d, ruleset, self.programs)
                self.caveats[d.name] = card_caveats(read_as(d, ruleset), ruleset)
        # the designs whose cards can be activated: those with abilities
        self.able = frozenset(name for name, abs_ in self.abilities.items() if abs_)
        self._tables(ruleset)
        self.referee = Referee(self)
        self.runner = Runner(self)
        self.layout = _layout(self)
        # the namers of games of the cards dealt (see `Namer.of`), newest last
        self.namers: dict[tuple[Any, ...], Namer] = {}

    def _tables(self, rs: Ruleset) -> None:
        """Lookups the hot paths need, read once from the ruleset."""
        self.zones = rs.zones
        zones = rs.zones.values()
        # where a deck's cards start, and its reserves (there, if no zone of their own)
        self.start_zone = next((z.name for z in zones if "starting" in z.flags), None)
        reserve = next((z.name for z in zones if "reserve" in z.flags), None)
        # the zone each named pile of a deck starts in (None: the starting zone)
        self.pile_zones: dict[str, str | None] = {
            name: reserve if pile.zone is None else pile.zone
            for name, pile in rs.piles.items()}
        self.face_up = {z.name: z.face == "face_up" for z in rs.zones.values()}
        self.exhaustible = {z.name for z in rs.zones.values() if "exhaustible" in z.flags}
        self.in_play = {z.name for z in rs.zones.values() if "in_play" in z.flags}
        # who may look at a zone's cards (`view`): public, private or restricted
        self.knowledge = {z.name: z.knowledge for z in rs.zones.values()}
        self.floors = {s.name: s.floor for s in rs.stats.values()}
        cost = rs.setting("cards", "cost")
        self.cost_stat = cost.stat if cost else None
        # the card lists of the battle's record that drop a card leaving its zone
        # or changing controller (the battle section's `drop leavers from ...`)
        leavers = rs.setting("battle", "drop_leavers")
        self.dropping: tuple[str, ...] = leavers.fields if leavers else ()
        pawns = rs.setting("cards", "pawns")
        self.pawn_type: str | None = pawns.type if pawns else None
        self.pawn_zone: str | None = pawns.zone if pawns else None
        self.pawn_cite: ast.Citation | None = pawns.cite if pawns else None
        hosts = rs.setting("counters", "counters_on")
        self.counter_zone = hosts.zone if hosts else None
        self.card_types = set(rs.card_types)
        self.keyword_params = {
            k.name: [p.name for p in k.params] for k in rs.keywords.values()
        }
        # the zones the lose and end conditions read: a card entering or leaving one
        # may change whether they hold (`dirty`)
        conditions = [c.cond for c in rs.end_conditions + rs.lose_conditions if c.cond]
        self.watched_zones = set().union(
            *(self.programs.zones_read(c) for c in conditions)
        )
        floor = rs.setting("endgame", "hp_floor")
        self.hp_floor = floor.floor if floor else None
        # players at zero HP play on (as zombies) where the ruleset says so
        zombies = rs.setting("endgame", "zombies_play_on")
        self.zombies_cite = None if zombies is None else zombies.cite
        self.resource_zones = [
            z.name for z in rs.zones.values() if "resources" in z.flags
        ]
        # the events some ability of these cards is triggered by
        self.listened = {
            e
            for abilities in self.abilities.values()
            for a in abilities
            if a.trigger
            for e in a.trigger.events
        }


class Namer:
    """Writes the label of an action listed without one (see `Action`) from what it
    names: players, and cards and their abilities by the name and design each card
    has from the first. An action keeps its namer, not its game, so a bot that
    keeps actions keeps no game alive; a game's clones share it until one makes a
    card (a pawn), and games of the same cards share their engine's (`of`). It
    keeps the `pick` actions of the cards and players it has named (`picked`):
    choices list again the cards that choices before them listed, and list the
    same actions, made and labelled once."""

    __slots__ = ("engine", "cards", "picked", "__weakref__")
    _lock = threading.Lock()

    def __init__(self, engine: Engine, cards: tuple[tuple[str, str | None], ...]):
        self.engine, self.cards = engine, cards  # (name, design) by card id
        self.picked = _Picked(self)

    @staticmethod
    def of(engine: Engine, cards: list[CardState]) -> Namer:
        """The namer of a game's cards as dealt: the engine's for games of the same
        cards (most games are of decks played before), its picks kept with it."""
        named = tuple([(c.name, c.design) for c in cards])  # not a generator: faster
        kept = engine.namers
        with Namer._lock:  # games are made in threads too
            namer = kept.get(named)
            if namer is None:
                namer = kept[named] = Namer(engine, named)
                if len(kept) > engine.NAMERS:  # the oldest goes
                    del kept[next(iter(kept))]
        return namer

    def adding(self, c: CardState) -> Namer:
        return Namer(self.engine, (*self.cards, (c.name, c.design)))

    def label_of(self, action: Action) -> str:
        value = action.value
        if type(value) is int:  # a card, most often: as `card_label` writes it
            return f"{self.cards[value][0]}#{value}"
        if action.kind == "act":
            name, args = value
            return f"{name} " + " ".join(map(self.name, args))
        return self.name(value)

    def name(self, value: Any) -> str:
        """How an option names what it takes: a card, a player, an ability."""
        if type(value) is int:  # a card, most often: as `card_label` writes it
            return f"{self.cards[value][0]}#{value}"
        if isinstance(value, Seat):
            return f"player {int(value)}"
        if isinstance(value, AbilityRef):
            design = self.cards[value.card][1]
            ability = self.engine.abilities[design][value.index]
            return ability.name or f"ability {value.index + 1}"
        if isinstance(value, int) and not isinstance(value, DieRef):
            return card_label(self.cards[value][0], value)
        return str(value)


class _Picked(dict[tuple[Any, Any], Action]):
    """A namer's `pick` actions, by type and value (a player is equal to the card
    of its number), as `picks` looks them up: those of cards and players kept,
    their labels written when made. It refers to its namer weakly, and a kept
    action to none, so that a game's namer is in no cycle (a game is freed when
    dropped)."""

    __slots__ = ("namer",)

    def __init__(self, namer: Namer):
        self.namer = weakref.ref(namer)

    def __missing__(self, key: tuple[Any, ...]) -> Action:
        kind, value = key
        namer = self.namer()
        assert namer is not None  # a namer's picks live no longer than it
        if kind is Seat or (kind is int and 0 <= value < len(namer.cards)):
            action = self[key] = Action("pick", value, None)
            action._label = namer.label_of(action)
            return action
        return Action("pick", value, None, namer)  # anything else: made each time


def _unpickled(rs: Ruleset, pool: tuple[Any, ...], state: str, events: list[Any]) -> Game:
    g = Game.from_json(state, Engine.shared(rs, list(pool)))
    g.events = list(events)
    return g


def _other_engine(saved: list[str], engine: list[str]) -> str:
    """Why a state cannot be restored by an engine compiled from other cards or
    rules than the one that wrote it."""
    missing = [d for d in saved if d not in engine]
    more = [d for d in engine if d not in saved]
    if missing or more:
        why = "; ".join(
            f"{label}: {', '.join(names[:5])}{'...' if len(names) > 5 else ''}"
            for label, names in (("cards it lacks", missing), ("cards it adds", more))
            if names
        )
        return (
            f"this state was written by an engine of other cards ({why}); restore it "
            "with an engine of the game's cards, as `Engine.shared` makes"
        )
    return (
        "this state was written by an engine compiled from other rules or card "
        "texts; restore it with an engine of the same ruleset and cards"
    )


def _layout(engine: Engine) -> str:
    """A fingerprint of how the engine numbered its programs: a saved game refers to
    them by number, and is restored only by an engine that numbers them alike."""
    text = "\n".join(f"{b.where} {len(b.stmts)}" for b in engine.programs.blocks)
    return hashlib.sha256(f"{engine.rs.name}\n{text}".encode()).hexdigest()[:16]


def check_players(rs: Ruleset, n: int) -> None:
    """Raises ValueError unless a game of the ruleset may have `n` players (its
    setup's `players` setting; at least one when it has none)."""
    allowed = rs.setting("setup", "players")
    if allowed and n not in allowed.count:
        raise ValueError(
            f"the {rs.name} edition is played by {allowed.count} players, not {n}"
        )
    if n < 1:
        raise ValueError(f"a game needs at least one player, not {n}")


def _listed(d: Decision, action: Any) -> Action:
    """The option of `d` that `action` names when it is not one of them itself: an
    index into them (numpy's integers too), or an equal action.

    Raises:
        IllegalAction: it names none of them.
    """
    options = d.options
    if hasattr(action, "__index__") and not isinstance(action, bool):
        i = action.__index__()
        if 0 <= i < len(options):
            found: Action = options[i]
            return found
    elif action in options:
        return options[options.index(action)]
    why = f" [{d.cite}]" if d.cite else ""
    raise IllegalAction(
        f"'{action}' is not a legal answer to {d.prompt} for "
        f"player {d.player}{why}; legal: "
        f"{', '.join(map(str, d.options[:8]))}"
        f"{'...' if len(d.options) > 8 else ''}"
    )


class Game:
    """One game in progress. Create with `Game.new`."""

    # Its fields are slots: the flow, the primitives and the written code read them
    # at nearly every step, and a slot is read straight from the object, where an
    # instance dict of this many keys (more than CPython shares between instances)
    # is looked up. `clone` copies them all; a subclass may add a dict.
    __slots__ = (
        # the state (see `_init_state`, `to_json`)
        "players", "in_game", "cards", "namer", "rng", "seed", "turn", "active",
        "first_player", "phase", "step", "frames", "stack", "decision", "answer",
        "chain", "battle", "victims", "after", "dice", "recent", "events", "flags",
        "max_turns", "is_over", "outcome", "applied", "node", "dirty",
        "counters_in_play", "marked", "away", "usage", "watches", "arrived",
        # the loop rounds run since decision number `work_at` (`Bounds.check_work`)
        "work", "work_at",
        # what a traced game records of the flow graph's nodes and edges it moves
        # through (`kotc.engine.trace`); None when the game is not traced
        "trace",
        # its engine, and the engine's `referee` and `runner`, which the flow and
        # the primitives read at most steps: set where a game is made (`new`,
        # `position`, `_restored`; `clone` copies them)
        "engine", "referee", "runner",
        # What one listing of options reads again and again, kept while it is made
        # (the state does not change meanwhile): the standard activation condition
        # and the resources to pay with, per player; None outside a listing. Kept
        # here, not on the engine that games share, so that games played at once in
        # threads never read each other's.
        "standard_memo", "resources_memo",
        # a game may be referred to weakly (a test checks a dropped game is freed)
        "__weakref__",
    )
    players: list[PlayerState]
    in_game: list[Seat]
    cards: list[CardState]
    namer: Namer
    rng: Dice
    seed: int
    turn: int
    active: int
    first_player: int
    phase: str
    step: str
    frames: list[Frame]
    # where play stands: the sub-flows under way, the newest last (`runner`)
    stack: list[Activation]
    decision: Decision | None
    answer: Action | None
    chain: Chain | None
    battle: Battle | None
    victims: list[Any]
    after: list[list[Any]]
    dice: list[list[int]]
    recent: list[list[Any]]
    events: list[Event]
    flags: dict[str, Any]
    max_turns: int
    is_over: bool
    outcome: dict[str, Any] | None
    applied: int
    node: str
    dirty: bool
    counters_in_play: dict[str, int]
    marked: set[int]
    away: set[int]
    usage: dict[str, int]
    watches: list[list[Any]]
    engine: Engine
    referee: Referee
    runner: Runner
    trace: Trace | None
    standard_memo: dict[int, bool] | None
    resources_memo: dict[int, int] | None

    # --- creation -------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        ruleset: Ruleset | str,
        decks: list[Deck],
        seed: int = 0,
        players: int | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        dice: list[int] | Dice | None = None,
        engine: Engine | None = None,
        trace: bool = False,
    ) -> Game:
        """Set up a game and play until the first decision.

        Args:
            ruleset: an edition, or its name.
            decks: one per player (reused in turn when fewer are given).
            seed: seeds dice, shuffles and random choices.
            players: how many play (2..8 recommended); default: one per deck.
            max_turns: a safety limit; reaching it ends the game by agreement.
            dice: scripted die results to use before the seeded ones, or the
                dice themselves (a `Dice` that answers every chance event: a
                ruling's script, chance decided from outside).
            engine: the compiled rules and cards to play with (default: the engine
                `Engine.shared` keeps for this ruleset and these decks' cards).
            trace: record the flow graph's nodes and edges play moves through
                (`Game.trace`, see `kotc.engine.trace`).

        Raises:
            ValueError: no decks, or a number of players the ruleset does not allow.
        """
        rs = load_edition(ruleset) if isinstance(ruleset, str) else ruleset
        if not decks:
            raise ValueError("a game needs at least one deck")
        n = len(decks) if players is None else players
        check_players(rs, n)
        g = cls.__new__(cls)
        g.engine = engine or Engine.shared(rs, card_pool(decks))
        g.referee = g.engine.referee
        g.runner = g.engine.runner
        g._init_state(n, seed, dice, max_turns)
        if trace:
            g.trace = Trace(g.runner.tables, g.events)
        for seat in range(n):
            deck = decks[seat % len(decks)]
            g._deal(seat_of(seat), deck)
        g.namer = Namer.of(g.engine, g.cards)
        g.stack = [Activation(g.runner.first)]
        g.advance()
        return g

    @classmethod
    def position(
        cls,
        ruleset: Ruleset,
        designs: list[CardDesign],
        players: int = 2,
        seed: int = 0,
        dice: list[int] | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        backend: str = "generated",
        trace: bool = False,
    ) -> Game:
        """An empty table for building a position by hand (rulings, tests): no
        setup has run; place cards with `put`, then `start` at a setup step or a
        phase (with `start_battle` and `open_chain` for a battle or a chain under
        way) and `advance`, or `resume` at a phase's window. The rules' programs
        run by `backend` (see `Engine`); `trace` as `new` says."""
        g = cls.__new__(cls)
        g.engine = Engine.shared(ruleset, designs, backend)
        g.referee = g.engine.referee
        g.runner = g.engine.runner
        g._init_state(players, seed, dice, max_turns)
        if trace:
            g.trace = Trace(g.runner.tables, g.events)
        return g

    def put(self, design: str, seat: int, zone: str, *, arrived: bool = False,
            **state: Any) -> int:
        """Place a new card of a known design in a zone; returns its id. Keyword
        arguments set its state (`exhausted=True`, `stats={"hp": 3}`); `arrived`:
        it came there after its controller's latest turn began (see
        `since_turn_start`), else it has been there since."""
        unknown = set(state.get("stats", ())) - self.engine.programs.card_keys
        if unknown:  # a card's stats hold only these (`Programs.card_keys`)
            raise ValueError(f"{design} has no stat {', '.join(sorted(unknown))}")
        card = self._new_card(self.engine.designs[design], seat, zone)
        self.namer = self.namer.adding(self.cards[card])
        if arrived:
            self.arrived.add(card)
        c = self.cards[card]
        for key, value in state.items():
            if key == "stats":
                c.stats.update(value)
            else:
                setattr(c, key, value)
        for kind, _ in c.counters:
            self.counters_in_play[kind] = self.counters_in_play.get(kind, 0) + 1
        if c.timed or c.tags:
            self.marked.add(card)
        if c.last_controller != c.controller:
            self.away.add(card)
        return card

    def resume(
        self, phase: str, active: int = 0, turn: int = 2, first_player: int = 0
    ) -> None:
        """Start play at the window of a phase, as if the turn had reached it."""
        # plain seat numbers, as the flow keeps them (a decision's player is one)
        self.turn, self.active, self.first_player = turn, int(active), int(first_player)
        self.start(phase=phase)
        self.advance()

    def stand(self, node: str) -> None:
        """Play stands at `node` of the flow graph; a traced game records the move
        (`Trace.move`)."""
        self.node = node
        if self.trace is not None:
            self.trace.move(node)

    # --- positions built by hand (rulings, tests) ----------------------------------

    def start(self, phase: str | None = None, *, setup_step: str | None = None,
              at_start: bool = False) -> None:
        """Place play, in a position built by hand (`position`, `put`), at a setup
        step (from the first player) or at a phase: its beginning (`at_start`), or
        its window. Play goes on from there at `advance`; a traced game's trace
        starts at that node.

        Raises:
            ValueError: no such setup step or phase in the rules.
        """
        rs = self.engine.rs
        if setup_step is not None:
            steps = [s.name for s in rs.setup_steps]
            if setup_step not in steps:
                raise ValueError(f"no setup step '{setup_step}'")
            node = f"setup:{setup_step}"
        else:
            names = [p.name for p in rs.phases]
            if phase not in names:
                raise ValueError(f"no phase '{phase}'")
            self.phase = phase
            node = f"phase:{phase}" if at_start else f"phase:{phase}/actions"
        self.stack = [Activation(self.runner.node(node))]
        self.node = node
        if self.trace is not None:
            self.trace.place(node)

    def start_battle(self, step: str, op: int = 0, *, attacker: int, victim: Any,
                     attack_team: list[int], defense_team: list[int] | None = None,
                     attack_dice: list[Any] | None = None,
                     defense_dice: list[Any] | None = None) -> Battle:
        """A battle under way in a position built by hand, at a battle step (its
        `op`th operation or part; 0: the step's beginning, whose `before`
        reactions fire), entered from where play was placed (`start`).

        Returns:
            The battle's record, for what else the position sets in it.

        Raises:
            ValueError: no such battle step in the rules.
        """
        steps = [s.name for s in self.engine.rs.battle_steps]
        if step not in steps:
            raise ValueError(f"no battle step '{step}'")
        record = new_battle(attacker)
        record.attack_team = list(attack_team)
        record.victim = victim
        # the defender as the rules' term says (the owner, or the controller...)
        record.defender = int(self.engine.programs.expr(_DEFENDER_OF, {"v": None})(
            self, {"v": victim, "you": seat_of(attacker)}))
        record.defense_team = list(defense_team or [])
        record.attack_dice = list(attack_dice or [])
        record.defense_dice = list(defense_dice or [])
        self.battle = record
        self.step = step
        self.node = f"battle:{step}"
        # at its beginning, or at its `op`th part
        self.stack.append(Activation(self.runner.node(self.node),
                                     BEGIN if op == 0 else RUN, op))
        if self.trace is not None:
            self.trace.place(self.node)
        return record

    def open_chain(self, links: list[tuple[int, dict[str, Any], int, int]]) -> None:
        """An open chain in a position built by hand: each link (its program's
        block, the names it runs with, its card, its player) added as the rules
        add links; responses follow at `advance`."""
        trace, self.trace = self.trace, None  # no move: play is placed there
        try:
            for block, env, card, seat in links:
                self.referee.add_link(self, block, env, card, seat)
        finally:
            self.trace = trace
        if trace is not None and links:
            trace.place(self.node)

    def _init_state(self, n: int, seed: int, dice: list[int] | Dice | None,
                    max_turns: int) -> None:
        rs = self.engine.rs
        hp = rs.setting("setup", "starting_hp")
        self.players = [
            PlayerState(i, hp.hp if hp else 0, list(self.engine.zones)) for i in range(n)
        ]
        # the seats of the players not eliminated: kept by `leave_game`, and never
        # changed in place (a clone may share it)
        self.in_game: list[Seat] = [seat_of(i) for i in range(n)]
        self.cards: list[CardState] = []
        self.namer = Namer(self.engine, ())
        self.standard_memo = self.resources_memo = None
        self.rng = dice if isinstance(dice, Dice) else Dice(seed, dice)
        self.seed = seed
        self.turn = 0
        self.active = 0
        self.first_player = 0
        self.phase = ""
        self.step = ""
        self.frames: list[Frame] = []
        self.stack: list[Activation] = []
        self.decision: Decision | None = None
        self.answer: Action | None = None
        self.chain: Chain | None = None
        self.battle: Battle | None = None
        self.victims: list[Any] = []
        self.after: list[list[Any]] = []
        self.dice: list[list[int]] = []
        self.recent: list[list[Any]] = []
        self.events: list[Event] = []
        self.flags: dict[str, Any] = {}
        # the ruleset's own turn cap, where it states one, bounds the caller's
        cap = self.engine.rs.limits.get("turns")
        self.max_turns = min(max_turns, cap.value) if cap else max_turns
        self.is_over = False  # whether the game has ended (read often: a plain field)
        self.outcome: dict[str, Any] | None = None
        self.applied = 0
        self.work = self.work_at = 0
        self.trace = None
        self.node = "start"
        self.dirty = True
        # counters on cards, by kind (no entry for none): kept by the primitives that
        # place and remove them, so a look for counters of some kinds can stop at
        # once when there are none
        self.counters_in_play: dict[str, int] = {}
        # cards that may hold changes or marks that expire (see `expire`): kept by
        # the primitives that make them, so expiring need not look at every card
        self.marked: set[int] = set()
        # cards lying with a player other than the one who last had them in play
        # (see `kotc.engine.primitives`)
        self.away: set[int] = set()
        # the cards that came into a zone in play, or under a new controller there,
        # since their controller's latest turn began (`since_turn_start`): kept by
        # `move`, `give` and `create_pawn`, and emptied of the active player's
        # cards as each turn begins
        self.arrived: set[int] = set()
        self.usage: dict[str, int] = {}  # keyword, counter and chain-length tallies
        # the watches players hold (see `watch`)
        self.watches: list[list[Any]] = []

    def _deal(self, seat: Seat, deck: Deck) -> None:
        start, piles = self.engine.start_zone, self.engine.pile_zones
        for design in deck.cards:
            self._new_card(design, seat, start)
        for name, pile in deck.piles.items():
            zone = piles.get(name) or start
            for design in pile:
                self._new_card(design, seat, zone)

    def _new_card(self, design: CardDesign, seat: int, zone: str | None) -> int:
        c = CardState(
            len(self.cards),
            design.name,
            design.type,
            int(seat),
            design.printed,
            design.name,
        )
        self.cards.append(c)
        if zone is not None:
            self.players[seat].zones[zone].append(c.id)
            c.zone = zone
            c.face_up = self.engine.face_up[zone]
        return c.id

    # --- the public API -------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The actions the deciding player may take now (empty when the game is over)."""
        d = self.decision
        return [] if self.is_over or d is None else list(d.options)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over or self.decision is None else self.decision.player

    def apply(self, action: Action | int) -> list[Event]:
        """Take a legal action; returns the events it caused.

        Raises:
            IllegalAction: the action is not legal now; the message says why and cites
                the rule that asked for the decision.
        """
        if self.is_over:
            raise IllegalAction("the game is over")
        d = self.decision
        assert d is not None  # a game not over asks for a decision
        # most often, one of the very options listed: looked for by identity (a
        # loop: faster, for a few options, than any C pipeline made for it)
        for option in d.options:
            if option is action:
                break
        else:
            action = _listed(d, action)
        events = self.events
        start = len(events)
        self.applied += 1
        self.decision = None
        label = action._label  # the label, once made, is the text (`str`)
        if not label:
            if label is None:  # left to be written: as `Action.label` writes and keeps it
                label = action._label = action._namer.label_of(action)
                action._namer = None
            if not label:
                label = str(action)
        events.append(
            Decided(d.player, label, action.kind, None if d.cite is None else d.cite.text)
        )
        if self.trace is not None:
            self.trace.decided(d.player, label)
        if d.resume == "vm":
            self.answer = action
        else:  # the window that asked takes the answer (`Runner.answer`, in place)
            act = self.stack[-1]
            act.node.answer(self, act, action)  # type: ignore[misc]
        if self.applied >= self.engine.max_decisions:
            self.runner.finish(self, "decision limit", self.runner.decision_limit_cite)
        self.runner.advance(self)
        return events[start:]

    def view(self, seat: int | None) -> View:
        """What `seat` sees of the game, as JSON data: the observation to decide on
        (None: what a watcher sees). See `kotc.engine.view`."""
        return seen_by(self, seat)

    @property
    def result(self) -> dict[str, Any] | None:
        """The outcome: `winner` (a seat or None), `tied`, `criterion`, `condition`."""
        return self.outcome

    def clone(self) -> Game:
        g = object.__new__(Game)
        for name in _FIELDS:
            setattr(g, name, getattr(self, name))
        g.players = [p.copy() for p in self.players]
        g.in_game = list(self.in_game)
        g.cards = [c.copy() for c in self.cards]
        g.rng = self.rng.copy()
        g.frames, g.after = _copy_programs(self.frames, self.after)
        g.stack = [a.copy() for a in self.stack]
        g.trace = None  # a copy plays on untraced: what it does is not this game's
        g.chain = self.chain.copy() if self.chain else None  # type: ignore[assignment]
        g.battle = self.battle.copy() if self.battle else None  # type: ignore[assignment]
        g.victims = list(self.victims)
        g.dice = [list(d) for d in self.dice]
        g.recent = [list(r) for r in self.recent]
        g.events = list(self.events)
        g.flags = dict(self.flags)
        g.usage = dict(self.usage)
        g.counters_in_play = dict(self.counters_in_play)
        g.marked = set(self.marked)
        g.away = set(self.away)
        g.arrived = set(self.arrived)
        g.watches = [[n, dict(env), times, keys, [list(u) for u in used]]
                     for n, env, times, keys, used in self.watches]
        return g

    # `copy.copy` and `copy.deepcopy` clone too: a copy sharing the cards would
    # change with the game, and one with a copy of the engine costs a compile
    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict[str, Any]) -> Game:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its state, event log, ruleset and cards (a process pool sends
        games so); unpickled with the engine `Engine.shared` keeps for them."""
        engine = self.engine
        return (_unpickled, (engine.edition, engine.pool, self.to_json(), self.events))

    # --- JSON -----------------------------------------------------------------------

    def to_json(self) -> str:
        """The state as JSON; `from_json` with the same engine restores it. The event
        log is not part of the state (it only grows); `log_json` writes it."""
        d = self.decision
        data = {
            "format": STATE_FORMAT,
            "edition": self.engine.rs.name,
            "designs": list(self.engine.designs),
            "layout": self.engine.layout,
            "seed": self.seed,
            "players": [p.to_json() for p in self.players],
            "cards": [c.to_json() for c in self.cards],
            "rng": self.rng.to_json(),
            "turn": self.turn,
            "active": self.active,
            "first_player": self.first_player,
            "phase": self.phase,
            "step": self.step,
            **_programs_json(self.frames, self.after),
            "stack": [a.to_json() for a in self.stack],
            "decision": None
            if d is None
            else {
                "player": d.player,
                "prompt": d.prompt,
                "resume": d.resume,
                "options": [o.to_json() for o in d.options],
                "cite": _cite_json(d.cite),
            },
            "chain": self.chain.to_json() if self.chain else None,
            "battle": self.battle.to_json() if self.battle else None,
            "victims": encode(self.victims),
            "dice": encode(self.dice),
            "recent": encode(self.recent),
            "flags": encode(self.flags),
            "max_turns": self.max_turns,
            "over": self.is_over,
            "outcome": encode(self.outcome),
            "applied": self.applied,
            "node": self.node,
            "dirty": self.dirty,
            "usage": self.usage,
            # written only when held: states written before watches existed, and
            # those of games with none, read alike
            **({"watches": encode(self.watches)} if self.watches else {}),
            **({"arrived": sorted(self.arrived)} if self.arrived else {}),
        }
        return json.dumps(data, separators=(",", ":"))

    def log_json(self) -> list[dict[str, Any]]:
        """The event log, JSON-ready: one dict per event, with its citation."""
        return [e.to_json() for e in self.events]

    @classmethod
    def from_json(cls, text: str, engine: Engine) -> Game:
        """The game `to_json` wrote, to be played on with `engine` (that of the same
        ruleset and cards).

        Raises:
            ValueError: the text is not a whole state this version writes, or is a
                state of another edition, or of other cards, than the engine's.
        """
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as err:
            raise ValueError(f"not a game state: {err or 'nested too deeply'}") from None
        written = data.get("format") if isinstance(data, dict) else None
        if written != STATE_FORMAT:
            raise ValueError(
                f"not a game state this kotc can restore (format {written}; it "
                f"reads format {STATE_FORMAT})"
            )
        try:
            if data["edition"] != engine.rs.name:
                raise ValueError(
                    f"a state of the {data['edition']} edition cannot be played with "
                    f"an engine of the {engine.rs.name} edition"
                )
            if data["layout"] != engine.layout:
                raise ValueError(_other_engine(data["designs"], list(engine.designs)))
            check_state(data, set(engine.rs.zones))
            return cls._restored(data, engine)
        except (KeyError, IndexError, TypeError, AttributeError, OverflowError,
                RecursionError) as err:
            raise ValueError(
                f"not a whole game state ({type(err).__name__}: {err})"
            ) from None

    @classmethod
    def _restored(cls, data: dict[str, Any], engine: Engine) -> Game:
        g = object.__new__(cls)
        g.standard_memo = g.resources_memo = None
        g.trace = None
        g.engine = engine
        g.referee = engine.referee
        g.runner = engine.runner
        g.seed = data["seed"]
        g.players = [PlayerState.from_json(p) for p in data["players"]]
        g.in_game = [seat_of(p.seat) for p in g.players if not p.eliminated]
        g.cards = [CardState.from_json(c) for c in data["cards"]]
        g.namer = Namer.of(engine, g.cards)
        g.rng = Dice.from_json(data["rng"])
        for k in (
            "turn",
            "active",
            "first_player",
            "phase",
            "step",
            "max_turns",
            "applied",
            "node",
            "dirty",
        ):
            setattr(g, k, data[k])
        g.work, g.work_at = 0, g.applied
        g.is_over = data["over"]
        blocks = engine.programs.blocks
        g.frames, g.after = _programs_from_json(data, blocks)
        g.stack = engine.runner.stack_from_json(data["stack"])
        d = data["decision"]
        g.decision = (
            None
            if d is None
            else Decision(
                d["player"],
                d["prompt"],
                [Action.from_json(o) for o in d["options"]],
                d["resume"],
                _cite_from_json(d["cite"]),
            )
        )
        g.answer = None
        g.chain = Chain.from_json(data["chain"])
        g.battle = Battle.from_json(data["battle"])
        g.victims = decode(data["victims"])
        g.dice = decode(data["dice"])
        g.recent = decode(data["recent"])
        g.events = []
        g.flags = decode(data["flags"])
        g.outcome = decode(data["outcome"])
        g.usage = data["usage"]
        g.counters_in_play = {}
        for c in g.cards:
            for kind, _ in c.counters:
                g.counters_in_play[kind] = g.counters_in_play.get(kind, 0) + 1
        g.marked = {c.id for c in g.cards if c.timed or c.tags}
        g.away = away_from_last_controller(g.cards)
        g.watches = decode(data.get("watches", []))
        g.arrived = set(data.get("arrived", []))
        return g

    # --- the run loop ---------------------------------------------------------------

    def advance(self) -> None:
        """Play on until a decision is asked for, or the game is over (see
        `Runner.advance`)."""
        self.runner.advance(self)

    # --- services for programs ------------------------------------------------------

    def ask(
        self,
        player: int,
        prompt: str,
        options: list[Action],
        resume: str = "vm",
        cite: ast.Citation | None = None,
    ) -> int:
        self.decision = Decision(int(player), prompt, options, resume, cite)
        return WAIT

    def take_answer(self) -> Action | None:
        a, self.answer = self.answer, None
        return a

    def pick_action(self, x: Any) -> Action:
        if type(x) is DieRef:  # a die's value may change: its label is made now
            return Action("pick", x, f"die {self.dice[x][0]}")
        return picks((x,), self.namer)[0]

    def log(self, kind: str, cite: ast.Citation | None, **data: Any) -> None:
        """Record an event the ruleset declares (`emit`), or one of its battle's."""
        self.events.append(Logged(kind, data, None if cite is None else cite.text))

    @property
    def active_seat(self) -> Seat:
        return seat_of(self.active)

    def seats_in_game(self) -> list[Seat]:
        return self.in_game[:]

    def is_zombie(self, seat: int) -> bool:
        """Whether the player is at zero HP and plays on: a zombie, where the
        ruleset's endgame says zombies play on."""
        p = self.players[seat]
        return (
            self.engine.zombies_cite is not None
            and not p.eliminated
            and p.hp is not None
            and p.hp <= 0
        )

    def left_of(self, who: int) -> Seat:
        """The player to the left of `who` still in the game (`who`, if none)."""
        return seat_of(self.next_seat(who))

    def next_seat(self, who: int, way: int = 1) -> int:
        """`left_of`, as a plain seat number (what the flow keeps); with `way` -1,
        the player to the right (play passing counterclockwise)."""
        players = self.players
        s = (who + way) % len(players)
        if not players[s].eliminated:  # most often, the next seat
            return s
        n = len(players)
        for step in range(2, n + 1):
            s = (who + step * way) % n
            if not players[s].eliminated:
                return s
        return int(who)

    def context(self, name: str) -> Any:
        return services.Context(self, name)

    def attr(self, value: Any, name: str, env: dict[str, Any]) -> Any:
        """`value.name`, as programs read it (see `services.attr`)."""
        return services.attr(self, value, name, env)

    def value_of(self, x: Any) -> int:
        return self.dice[x][0] if isinstance(x, DieRef) else x

    def card_is_type(self, card: Any, name: str) -> bool:
        return (
            card is not None
            and not isinstance(card, Seat)
            and self.cards[card].type == name
        )

    def ability_has(self, ability: AbilityRef, modifier: str) -> bool:
        return modifier in self.ability(ability).modifiers

    def ability(self, ref: AbilityRef) -> CompiledAbility:
        ability: CompiledAbility = self.engine.abilities[
            self.cards[ref.card].design][ref.index]
        return ability

    def cost_of(self, card: int) -> int:
        stat = self.engine.cost_stat
        return self.cards[card].stats.get(stat, 0) if stat else 0

    def counters_placed(self, card: int, kind: str, placer: Any) -> int:
        """How many counters of `kind` (`any`: of every kind) `placer` (None: anyone)
        placed on the card."""
        n = 0  # a loop: no generator made for a card's few counters
        every = kind == ANY_COUNTER
        for k, p in self.cards[card].counters:
            if (every or k == kind) and (placer is None or p == placer):
                n += 1
        return n

    def is_tagged(self, card: int, tag: str) -> bool:
        return tag in self.cards[card].tags

    # --- primitives (see `primitives`: each takes the game first) -------------------

    move = primitives.move
    give = primitives.give
    banish = primitives.banish
    set_exhausted = primitives.set_exhausted
    fatigue = primitives.fatigue
    change = primitives.change
    assign = primitives.assign
    reset_stats = primitives.reset_stats
    expire = primitives.expire
    mark = primitives.mark
    roll = primitives.roll
    reroll = primitives.reroll
    shuffle = primitives.shuffle
    place_counters = primitives.place_counters
    strip_counters = primitives.strip_counters
    take_counter = primitives.take_counter
    pay = primitives.pay
    create_pawn = primitives.create_pawn
    negate = primitives.negate
    skip_step = primitives.skip_step
    leave_game = primitives.leave_game

    def pop_counter(self, card: int, kind: str, seat: int,
                    cite: ast.Citation | None) -> None:
        self.referee.pop_counter(self, card, kind, seat, cite)

    def resources(self, seat: int) -> list[int]:
        zones = self.engine.resource_zones
        p = self.players[seat]
        return [c for z in zones for c in p.zones[z]]

    def unexhausted_resources(self, seat: int) -> int:
        # asked for each card a listing prices: a plain loop, no list, no generator
        cards, zones, n = self.cards, self.players[seat].zones, 0
        for z in self.engine.resource_zones:
            for c in zones[z]:
                if not cards[c].exhausted:
                    n += 1
        return n

    def end_game(self, why: str, cite: ast.Citation | None) -> None:
        self.runner.finish(self, why, cite)

    # delegated to the flow -------------------------------------------------------------

    def emit(self, name: str, fields: dict[str, Any], env: dict[str, Any],
             cite: ast.Citation | None) -> None:
        self.referee.emit(self, name, fields, env, cite)

    def fire(self, name: str, fields: dict[str, Any], env: dict[str, Any],
             cite: ast.Citation | None) -> None:
        self.referee.fire(self, name, fields, env, cite)

    def call_keyword(
        self, name: str, fields: dict[str, Any], env: dict[str, Any], as_cost: bool,
        cite: ast.Citation | None,
    ) -> bool:
        """Run a keyword's program; when an ability or a counter in play may watch
        the call, through the referee, which offers it to them. Whether it pushed a
        frame (a frameless program, unwatched, runs here, with no frame of its own,
        and pushes one only where its last statement does). Written here, not
        forwarded: effects call keywords at most steps."""
        usage = self.usage
        try:
            usage[name] += 1
        except KeyError:
            usage[name] = 1
        kenv = {"you": env["you"], **fields, "__within": name}
        if env.get("__cost") or as_cost:
            kenv["__cost"] = True
        referee = self.referee
        if name not in referee.listened and (
            not self.counters_in_play or not referee.watching_call(self, name)
        ):
            block = self.engine.programs.keyword_blocks[name]
            if block.in_place is not None:
                return block.in_place(self, kenv) == PUSHED
            self.frames.append(Frame(block, kenv))
            return True
        referee.call_watched(self, name, fields, env, kenv)
        return True

    def resolve(self, what: Any, env: dict[str, Any], cite: ast.Citation | None,
                then: Block | None = None) -> None:
        self.referee.resolve(self, what, env, cite, then)

    def perform(
        self, name: str, values: list[Any], mods: tuple[Any, ...], seat: int,
        cite: ast.Citation | None, env: dict[str, Any],
    ) -> None:
        self.referee.perform(self, name, values, mods, seat, cite, env)

    def watch(self, number: int, times: int, keys: int, env: dict[str, Any]) -> None:
        """A watch made (`ir.Watch` number `number`), held by `env`'s `you` until it
        expires: kept as its number, its environment, its count (`times` per key,
        for `keys` keys) and the uses made, per key: `[key, uses]`."""
        self.watches.append([number, env, times, keys, []])


# what `clone` copies: every field of a game
_FIELDS = tuple(name for name in Game.__slots__ if name != "__weakref__")


# The programs under way (frames, and those waiting for the chain to close) share
# dicts: an env that several blocks run in, and the event that a keyword call and
# the counters reacting to it read (and may prevent). A clone, or a game restored
# from JSON, shares each as the original does: each is copied, or written, once.


def _copy_programs(frames: list[Frame], after: list[Any]
                   ) -> tuple[list[Frame], list[Any]]:
    memo: dict[int, dict[str, Any]] = {}

    def copied(d: dict[str, Any]) -> dict[str, Any]:
        c = memo.get(id(d))
        if c is None:
            c = memo[id(d)] = d.copy()
            for k, v in d.items():
                if type(v) is dict:
                    c[k] = copied(v)
        return c

    copies = []
    for f in frames:
        c = Frame(
            f.block,
            copied(f.env),
            list(f.loop) if f.loop else None,
            None if f.event is None else copied(f.event),
        )
        c.pc = f.pc
        c.scratch = (
            [list(x) if isinstance(x, list) else x for x in f.scratch]
            if f.scratch
            else f.scratch
        )
        copies.append(c)
    return copies, [[block, copied(env)] for block, env in after]


def _programs_json(frames: list[Frame], after: list[Any]) -> dict[str, Any]:
    table: list[Any] = []  # each shared dict, written once; `{"ref": i}` names one
    index: dict[int, int] = {}

    def ref(d: dict[str, Any]) -> int:
        i = index.get(id(d))
        if i is None:
            i = index[id(d)] = len(table)
            table.append(None)
            table[i] = {
                k: {"ref": ref(v)} if type(v) is dict else encode(v) for k, v in d.items()
            }
        return i

    written = [
        {
            "block": f.block.id,
            "pc": f.pc,
            "env": ref(f.env),
            "loop": encode(f.loop),
            "scratch": encode(f.scratch),
            "event": None if f.event is None else ref(f.event),
        }
        for f in frames
    ]
    return {
        "frames": written,
        "after": [[block, ref(env)] for block, env in after],
        "dicts": table,
    }


def _programs_from_json(data: dict[str, Any], blocks: list[Block]
                        ) -> tuple[list[Frame], list[Any]]:
    dicts: list[dict[str, Any]] = [{} for _ in data["dicts"]]
    for d, written in zip(dicts, data["dicts"], strict=True):
        for k, v in written.items():
            d[k] = dicts[v["ref"]] if type(v) is dict and "ref" in v else decode(v)
    frames = []
    for w in data["frames"]:
        event = None if w["event"] is None else dicts[w["event"]]
        f = Frame(blocks[w["block"]], dicts[w["env"]], decode(w["loop"]), event)
        f.pc = w["pc"]
        f.scratch = decode(w["scratch"])
        frames.append(f)
    return frames, [[block, dicts[i]] for block, i in data["after"]]


def _text(cite: ast.Citation | None) -> str | None:
    """A rule's citation as the log writes it."""
    return None if cite is None else cite.text


def _cite_json(c: ast.Citation | None) -> list[Any] | None:
    return None if c is None else [c.edition, c.section, c.interpretation]


def _cite_from_json(d: list[Any] | None) -> ast.Citation | None:
    return None if d is None else ast.Citation(d[1], d[2], d[0])


__all__ = [
    "Deck",
    "Engine",
    "Event",
    "Game",
    "IllegalAction",
    "NEXT",
    "PUSHED",
    "as_list",
]


_DEFENDER_OF = ast.FuncCall("defender_of", (ast.Path(("v",)),))
