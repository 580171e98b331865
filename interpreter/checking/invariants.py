"""Invariants of every game: what must hold after each step, whatever is played.

The built-in invariants are the engine's own promises, with their parameters read
from the ruleset's data (the pawn zone, the HP floor, stat floors, where counters
sit, which phases recover); a ruleset's `invariants` section adds its own. A
`Monitor` applies actions to one game and checks them all after every step; a
broken invariant is a `Violation` that names the invariant, the player or card
that breaks it, what was found, and the rule it cites.

Built-in invariants (`BUILTINS`): each card is in exactly one place; pawns exist
only in their zone; HP and stats respect their floors; at most one chain; links
resolve last-in-first-out; nothing chains while a chain resolves; cards unexhaust
only in recovery, and recovery unexhausts them; fatigue is respected; counters sit
only on on-field cards, and the engine counts them right; every transition taken
(in a traced game) is an edge of the flow graph, and play rests on a node of it; a
legal action exists until the game ends; every game ends within a
bound; zones hold only the card types they may, and only exhaustible zones hold
exhausted cards.
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from kotc.dsl import Ruleset, ast
from kotc.dsl.unparse import unparse_expr
from kotc.flowgraph.build import compile_ruleset
from kotc.runtime.events import (
    Given,
    Linked,
    Moved,
    PawnMade,
    PhaseBegan,
    Removed,
    Resolving,
)
from kotc.runtime.state import away_from_last_controller
from kotc.runtime.values import Seat, card_label

# A turn with more decisions than this is taken as a game that never ends.
DECISIONS_PER_TURN = 5000

BUILTINS = {
    "one_place": "Each card is in exactly one place",
    "pawn_zone": "Pawns exist only in their zone",
    "hp_floor": "A player's HP never goes below the floor",
    "stat_floor": "A card's stats never go below their floors",
    "one_chain": "At most one chain at a time",
    "chain_order": "Chain links resolve last-in-first-out",
    "no_chain_while_resolving": "Nothing chains while a chain resolves",
    "unexhaust_in_recovery": "Cards unexhaust only in recovery",
    "recovery_unexhausts": "Recovery unexhausts every card that is not fatigued",
    "fatigue": "Fatigue is respected",
    "counter_hosts": "Counters sit only on on-field cards",
    "counter_count": "The counters counted in play are those the cards hold",
    "last_controller": "A card in play records who controls it as its last controller",
    "derived": "The fields the engine derives from the state are in step with it",
    "zone_holds": "A zone holds only the card types it may",
    "exhaustible": "Only cards in exhaustible zones are exhausted or fatigued",
    "flow_edge": "Every transition taken is an edge of the flow graph",
    "legal_action": "A legal action exists until the game ends",
    "game_bound": "Every game ends within a bound",
    "engine_error": "The engine takes every legal action without failing",
}


@dataclass(frozen=True)
class Violation:
    """One broken invariant: which, where (a player, a card, the game), what was
    found, the rule it cites, and the step (decisions taken) it was found after."""

    invariant: str
    label: str
    where: str
    detail: str
    cite: str | None = None
    origin: str | None = None
    step: int = 0

    def __str__(self) -> str:
        cite = f"  [{self.cite}]" if self.cite else ""
        return f"{self.invariant} ({self.label}): {self.where}: {self.detail}{cite}"

    def to_json(self) -> dict:
        return asdict(self)


class Snapshot:
    """What the step checks compare: each card's place and orientation, the chain."""

    __slots__ = ("cards", "phase", "chain_actors", "chain_keys", "resolving")

    def __init__(self, g):
        self.cards = [(c.zone, c.controller, c.exhausted, c.fatigued) for c in g.cards]
        self.phase = g.phase
        ch = g.chain
        self.chain_actors = [link["actor"] for link in ch.links] if ch else []
        self.chain_keys = [_link_key(link) for link in ch.links] if ch else []
        self.resolving = bool(ch and ch.resolving)


def _link_key(link: dict) -> tuple:
    return link["block"], link["source"], link["actor"]


def _cite(rule: Any) -> str | None:
    cite = getattr(rule, "cite", None)
    return str(cite) if cite is not None else None


def _statements(stmts: tuple, rs: Ruleset, seen: set[str]):
    """Every statement of a program, nested blocks and called keywords included."""
    for s in stmts:
        yield s
        for value in vars(s).values():
            if isinstance(value, tuple) and value and isinstance(value[0], ast.Stmt):
                yield from _statements(value, rs, seen)
            elif isinstance(value, tuple) and value and isinstance(value[0], tuple):
                for block in value:  # `either`'s options
                    yield from _statements(block, rs, seen)
        if isinstance(s, ast.Call) and s.keyword not in seen and s.keyword in rs.keywords:
            seen.add(s.keyword)
            yield from _statements(rs.keywords[s.keyword].body, rs, seen)


def _phase_programs(ph: ast.Phase) -> tuple:
    return ph.run + tuple(s for v in ph.variants for s in v.body)


def _is_recovery(s: ast.Stmt) -> bool:
    """The language's recovery primitives: unexhaust, unfatigue, reset, expire."""
    return (isinstance(s, ast.Exhaust) and s.unexhaust) or isinstance(
        s, (ast.Unfatigue, ast.Reset)) or (isinstance(s, ast.Expire)
                                           and s.until == "recovery")


class Invariants:
    """Every invariant of one ruleset, read from its data once per engine.

    Use `Invariants.of(engine)`; `state(g)` checks a state, `step(...)` what
    changed in one step.
    """

    _cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, engine) -> Invariants:
        found = cls._cache.get(engine)
        if found is None:
            found = cls._cache[engine] = cls(engine)
        return found

    def __init__(self, engine):
        self.engine = engine
        rs = self.rs = engine.rs
        self.nodes = set(compile_ruleset(rs).graph.nodes)
        self.zones = rs.zones
        self.in_play = engine.in_play
        self.exhaustible = {z.name for z in rs.zones.values() if "exhaustible" in z.flags}
        pawns = rs.setting("cards", "pawns")
        self.pawn_zone = pawns.zone if pawns else None
        self.pawn_cite = _cite(pawns)
        floor = rs.setting("endgame", "hp_floor")
        self.hp_floor = floor.floor if floor else None
        self.hp_cite = _cite(floor)
        self.floor_items = [(s.name, s.floor, _cite(s)) for s in rs.stats.values()
                            if s.floor is not None]
        hosts = rs.setting("counters", "counters_on")
        self.counter_zone = hosts.zone if hosts else None
        self.counter_cite = _cite(hosts)
        self.has_chain = rs.has_chain
        lifo = rs.setting("chain", "resolve_last_in_first_out")
        self.lifo_cite = _cite(lifo) if lifo else None
        self.lifo = lifo is not None
        calm = rs.setting("chain", "no_chaining_while_resolving")
        self.calm = calm is not None
        self.calm_cite = _cite(calm)
        self.recovery: dict[str, str | None] = {}
        self.unfatigue: set[str] = set()
        self.fatigue_cite: str | None = None
        for ph in rs.phases:
            stmts = list(_statements(_phase_programs(ph), rs, set()))
            if any(_is_recovery(s) for s in stmts):
                cite = ph.run_cite or ph.cite
                self.recovery[ph.name] = str(cite) if cite is not None else None
            if any(isinstance(s, ast.Unfatigue) for s in stmts):
                self.unfatigue.add(ph.name)
                self.fatigue_cite = self.fatigue_cite or self.recovery.get(ph.name)
        programs = engine.programs
        self.own = []
        for inv in rs.invariants:
            shown = [p for p in _paths(inv.cond)
                     if inv.element and p.parts[0] == inv.element and len(p.parts) > 1]
            self.own.append((
                inv, programs.expr(inv.domain) if inv.domain is not None else None,
                programs.expr(inv.cond),
                [(str(p), programs.expr(p)) for p in dict.fromkeys(shown)],
                unparse_expr(inv.cond)))

    # --- descriptions ---------------------------------------------------------------

    def card(self, g, card: int) -> str:
        c = g.cards[card]
        where = f"player {c.controller}'s {c.zone}" if c.zone else "removed from the game"
        return f"card {card_label(c.name, c.id)} ({where})"

    def describe(self, g, value: Any) -> str:
        if isinstance(value, Seat):
            return f"player {int(value)}"
        if isinstance(value, int) and 0 <= value < len(g.cards):
            return self.card(g, value)
        return repr(value)

    # --- state invariants ------------------------------------------------------------

    def state(self, g) -> list[Violation]:
        """Every invariant that a single state must satisfy."""
        found: list[Violation] = []

        def broken(name: str, where: str, detail: str, cite: str | None = None) -> None:
            found.append(Violation(name, BUILTINS[name], where, detail, cite,
                                   step=g.applied))

        self._places(g, broken)
        pawn_zone, floors, turn = self.pawn_zone, self.floor_items, g.turn
        zones, exhaustible, in_play = self.zones, self.exhaustible, self.in_play
        for c in g.cards:
            if not c.zone:
                if c.counters:
                    kinds = ", ".join(sorted({k for k, _ in c.counters}))
                    broken("counter_hosts", self.card(g, c.id),
                           f"removed from the game, yet holds counters ({kinds})",
                           self.counter_cite)
                continue
            if c.pawn and pawn_zone and c.zone != pawn_zone:
                broken("pawn_zone", self.card(g, c.id),
                       f"a pawn outside the {pawn_zone}", self.pawn_cite)
            stats = c.stats
            for stat, floor, cite in floors:
                value = stats.get(stat)
                if value is not None and value < floor and value < c.printed.get(stat, 0):
                    broken("stat_floor", self.card(g, c.id),
                           f"{stat} is {value}, below its floor {floor}", cite)
            if c.counters:
                self._counters(g, c, broken)
            zone = zones[c.zone]
            if zone.holds and c.type not in zone.holds:
                broken("zone_holds", self.card(g, c.id),
                       f"a {c.type} in the {c.zone}, which holds "
                       f"{', '.join(zone.holds)}", _cite(zone))
            if (c.exhausted or c.fatigued) and c.zone not in exhaustible:
                state = "exhausted" if c.exhausted else "fatigued"
                broken("exhaustible", self.card(g, c.id),
                       f"{state} in the {c.zone}, which is not exhaustible", _cite(zone))
            if c.last_controller != c.controller and c.zone in in_play:
                broken("last_controller", self.card(g, c.id),
                       f"in play under player {c.controller}, yet it records player "
                       f"{c.last_controller} as the one who had it in play")
            if c.fatigued and c.fatigued_turn > turn:
                broken("fatigue", self.card(g, c.id),
                       f"fatigued on turn {c.fatigued_turn}, after the current turn "
                       f"{turn}", self.fatigue_cite)
        # the engine's running count (it gates the windows that offer counters)
        on_cards = Counter(k for c in g.cards if c.zone for k, _ in c.counters)
        if g.counters_in_play != on_cards:
            broken("counter_count", "the game",
                   f"counts {dict(g.counters_in_play)} counters in play, the cards "
                   f"hold {dict(on_cards)}", self.counter_cite)
        for problem in derived_out_of_step(g):
            broken("derived", "the game", problem)
        if self.hp_floor is not None:
            for p in g.players:
                if p.hp < self.hp_floor:
                    broken("hp_floor", f"player {p.seat}",
                           f"HP is {p.hp}, below the floor {self.hp_floor}", self.hp_cite)
        # the chain's activations before it closes (its `return`) hold its record
        chains = sum(1 for a in g.stack if a.flow == "chain"
                     and a.node.kind in ("step", "window", "stack")
                     and a.node.policy != "others")
        if chains > 1 or (chains == 1) != (g.chain is not None):
            broken("one_chain", "the game",
                   f"{chains} chains under way, chain record "
                   f"{'present' if g.chain is not None else 'absent'}")
        if g.chain is not None and not self.has_chain:
            broken("one_chain", "the game", "a chain in an edition without chains")
        if g.node not in self.nodes:
            broken("flow_edge", "the game", f"play rests at '{g.node}', which the flow "
                                            f"graph does not have")
        if g.trace is not None and g.trace.faults:  # the first move off the graph
            r = g.trace.faults[0]
            broken("flow_edge", "the game",
                   f"play moved from '{r.source}' to '{r.target}'"
                   + (f" by {r.action}" if r.action else "")
                   + ", which no edge of the flow graph joins")
        if not g.is_over and not g.legal_actions():
            broken("legal_action", "the game",
                   f"no legal action at '{g.node}' and the game is not over")
        if not g.is_over and g.turn > g.max_turns:
            broken("game_bound", "the game",
                   f"turn {g.turn} is past the limit of {g.max_turns} and play goes on")
        found += self._own(g)
        return found

    def _places(self, g, broken) -> None:
        seen: dict[int, tuple[int, str]] = {}
        for p in g.players:
            for zone, ids in p.zones.items():
                for card in ids:
                    if not 0 <= card < len(g.cards):
                        broken("one_place", f"player {p.seat}'s {zone}",
                               f"holds {card}, which is no card of this game")
                        continue
                    if card in seen:
                        s, z = seen[card]
                        broken("one_place", self.card(g, card),
                               f"also in player {s}'s {z}: in two places at once")
                        continue
                    seen[card] = (p.seat, zone)
        for c in g.cards:
            place = seen.get(c.id)
            if not c.zone:
                if place is not None:
                    broken("one_place", self.card(g, c.id),
                           f"removed from the game, yet in player {place[0]}'s "
                           f"{place[1]}")
            elif place != (c.controller, c.zone):
                actual = f"player {place[0]}'s {place[1]}" if place else "no zone at all"
                broken("one_place", self.card(g, c.id), f"but it sits in {actual}")

    def _counters(self, g, c, broken) -> None:
        zone = self.zones.get(c.zone)
        allowed = {self.counter_zone} if self.counter_zone else self.in_play
        kinds = ", ".join(sorted({k for k, _ in c.counters}))
        if c.zone not in allowed:
            broken("counter_hosts", self.card(g, c.id),
                   f"holds counters ({kinds}) outside {', '.join(sorted(allowed))}",
                   self.counter_cite)
        elif zone is not None and zone.holds and c.type not in zone.holds:
            broken("counter_hosts", self.card(g, c.id),
                   f"a {c.type} holds counters ({kinds}); the {c.zone} holds "
                   f"{', '.join(zone.holds)}", self.counter_cite)

    def _own(self, g) -> list[Violation]:
        """The ruleset's own invariants, each for every element of its domain."""
        found = []
        for inv, domain, cond, shown, text in self.own:
            env = {"you": Seat(g.active)}
            try:
                elements = [None] if domain is None else list(_as_list(domain(g, env)))
                name = inv.element
                for x in elements:
                    if x is not None:
                        env[name] = x
                    if cond(g, env):
                        continue
                    values = ", ".join(f"{text} = {_show(g, ev(g, env))}"
                                       for text, ev in shown)
                    found.append(Violation(
                        inv.name, inv.title,
                        "the game" if x is None else self.describe(g, x),
                        f"`{text}` fails" + (f" ({values})" if values else ""),
                        _cite(inv), str(inv.origin), g.applied))
            except Exception as err:  # a rule that cannot be evaluated is a finding too
                found.append(Violation(inv.name, inv.title, "the game",
                                       f"cannot be checked ({type(err).__name__}: {err})",
                                       _cite(inv), str(inv.origin), g.applied))
        return found

    # --- step invariants -------------------------------------------------------------

    def step(self, before: Snapshot, g, events: list) -> list[Violation]:
        """The invariants about what one step changed, from the state before it and
        the events it caused."""
        found: list[Violation] = []

        def broken(name: str, where: str, detail: str, cite: str | None = None) -> None:
            found.append(Violation(name, BUILTINS[name], where, detail, cite,
                                   step=g.applied))

        self._chain_events(before, g, events, broken)
        phases = {before.phase} | {e.phase for e in events if isinstance(e, PhaseBegan)}
        recovering = bool(phases & self.recovery.keys())
        unfatiguing = bool(phases & self.unfatigue)
        moved = {e.card for e in events
                 if isinstance(e, (Moved, Given, Removed, PawnMade))}
        for i, (zone, controller, exhausted, fatigued) in enumerate(before.cards):
            c = g.cards[i]
            if i in moved or c.zone != zone or c.controller != controller or not zone:
                continue
            if exhausted and not c.exhausted:
                if not recovering:
                    broken("unexhaust_in_recovery", self.card(g, i),
                           f"unexhausted in the {g.phase or 'setup'} phase, outside "
                           f"recovery ({', '.join(self.recovery) or 'none'})")
                if fatigued and c.fatigued:
                    broken("fatigue", self.card(g, i), "unexhausted while fatigued",
                           self.fatigue_cite)
            if fatigued and not c.fatigued and not unfatiguing:
                broken("fatigue", self.card(g, i),
                       f"fatigue lifted in the {g.phase or 'setup'} phase, which does "
                       f"not unfatigue", self.fatigue_cite)
        return found

    def _chain_events(self, before: Snapshot, g, events: list, broken) -> None:
        stack = list(before.chain_actors)
        resolving = before.resolving
        for e in events:
            if isinstance(e, Linked):
                if resolving and stack:
                    if self.calm:
                        broken("no_chain_while_resolving", f"player {e.player}",
                               f"added link {e.link} while the chain resolved",
                               self.calm_cite)
                elif resolving:
                    resolving = False  # the chain closed; this link opens a new one
                if e.link != len(stack) + 1:
                    broken("chain_order", f"player {e.player}",
                           f"added link {e.link} to a chain of {len(stack)}")
                stack.append(e.player)
            elif isinstance(e, Resolving):
                resolving = True
                n, actor = e.link, e.player
                if self.lifo and (not stack or n != len(stack) or stack[-1] != actor):
                    top = f"link {len(stack)} by player {stack[-1]}" if stack else "none"
                    broken("chain_order", f"player {actor}",
                           f"resolved link {n}, but the last link is {top}",
                           self.lifo_cite)
                if stack:
                    stack.pop()
        ch = g.chain
        actual = [link["actor"] for link in ch.links] if ch else []
        if ch is not None and ch.resolving and not resolving:
            # every step that starts a resolution resolves a link at once, so a
            # resolving chain the events do not show resolving took a new link
            if self.calm:
                broken("no_chain_while_resolving", "the game",
                       f"the chain took link {len(actual)} while it resolved",
                       self.calm_cite)
        elif not self.lifo:
            return  # the order is the edition's to say; only LIFO is checked
        elif actual != stack:
            broken("chain_order", "the game",
                   f"the chain holds links by players {actual}; its events account "
                   f"for {stack}", self.lifo_cite)
        elif ch is not None and not any(isinstance(e, Linked) for e in events):
            keys = [_link_key(link) for link in ch.links]
            if keys != before.chain_keys[:len(keys)]:
                broken("chain_order", "the game",
                       "a link other than the last one resolved: the links left are "
                       "not the first ones added", self.lifo_cite)

    def after_recovery(self, g) -> list[Violation]:
        """Once a recovery phase's program has run: every card in an exhaustible zone
        of a player still in the game is unexhausted unless it is fatigued."""
        found = []
        cite = self.recovery.get(g.phase)
        out = {p.seat for p in g.players if p.eliminated}
        for c in g.cards:
            if c.zone in self.exhaustible and c.exhausted and not c.fatigued \
                    and c.controller not in out:
                found.append(Violation(
                    "recovery_unexhausts", BUILTINS["recovery_unexhausts"],
                    self.card(g, c.id), f"still exhausted after the {g.phase} phase's "
                                        f"program ran", cite, step=g.applied))
        return found


class Monitor:
    """Watches one game: applies actions and checks every invariant after each step.

    Args:
        game: the game to watch, in any state.
        decisions_per_turn: the bound on decisions in one turn.
    """

    def __init__(self, game, decisions_per_turn: int = DECISIONS_PER_TURN):
        self.g = game
        self.inv = Invariants.of(game.engine)
        self.bound = decisions_per_turn
        self.turn, self.decisions = game.turn, 0
        self.recovering = game.phase in self.inv.recovery and \
            not self._at_window(game)

    def check(self) -> list[Violation]:
        """The state invariants, now."""
        return self.inv.state(self.g)

    def apply(self, action) -> list[Violation]:
        """Take a legal action and check every invariant; returns what broke."""
        g = self.g
        before = Snapshot(g)
        try:
            events = g.apply(action)
        except Exception as err:  # the engine failing on a legal action is a finding
            return [Violation("engine_error", BUILTINS["engine_error"], "the game",
                              f"{type(err).__name__}: {err} (taking '{action}')",
                              step=g.applied)]
        return self.after(before, events)

    def after(self, before: Snapshot, events: list) -> list[Violation]:
        """Every invariant, once a step taken from `before` caused `events` (for a
        caller that applies the step itself)."""
        found = self.inv.step(before, self.g, events)
        found += self._recovery(events)
        found += self._bound()
        found += self.inv.state(self.g)
        return found

    def _at_window(self, g) -> bool:
        d = g.decision
        node = g.stack[-1].node if g.stack else None
        return bool(d is not None and d.resume == "phase" and node is not None
                    and node.kind == "window" and node.policy == "active"
                    and node.ask_when_empty)

    def _recovery(self, events: list) -> list[Violation]:
        g = self.g
        for e in events:
            if isinstance(e, PhaseBegan):
                self.recovering = e.phase in self.inv.recovery
        if self.recovering and (g.is_over or g.phase not in self.inv.recovery):
            self.recovering = False  # the phase passed without a window to look at
        if self.recovering and self._at_window(g):
            self.recovering = False
            return self.inv.after_recovery(g)
        return []

    def _bound(self) -> list[Violation]:
        g = self.g
        if g.turn != self.turn:
            self.turn, self.decisions = g.turn, 0
        self.decisions += 1
        if self.decisions == self.bound + 1 and not g.is_over:
            return [Violation("game_bound", BUILTINS["game_bound"], f"turn {g.turn}",
                              f"more than {self.bound} decisions in one turn",
                              step=g.applied)]
        return []


def derived_out_of_step(g) -> list[str]:
    """The fields the engine derives from the state (see `kotc.engine.primitives`)
    that differ from what they are recomputed from scratch: the cards marked, the
    cards away from their last controller, the seats in the game, the names of
    the cards, the battle's teams (where the rules withdraw a card that leaves),
    and `dirty` (while false, no lose or end condition may hold).
    `counters_in_play` and the last controllers are invariants of their own
    (`counter_count`, `last_controller`)."""
    found = []
    marked = {c.id for c in g.cards if c.timed or c.tags}
    if g.marked != marked:
        found.append(f"the cards marked are {sorted(g.marked)}, not {sorted(marked)}")
    away = away_from_last_controller(g.cards)
    if g.away != away:
        found.append(f"the cards away from their last controller are "
                     f"{sorted(g.away)}, not {sorted(away)}")
    in_game = [Seat(p.seat) for p in g.players if not p.eliminated]
    if g.in_game != in_game:
        found.append(f"the seats in the game are {g.in_game}, not {in_game}")
    if g.namer.cards != tuple((c.name, c.design) for c in g.cards):
        found.append("the names actions are labelled by are not the cards'")
    b = g.battle
    if b is not None and g.engine.withdraws:  # where the rules keep teams so
        for team, seat in ((b.attack_team, b.attacker), (b.defense_team, b.defender)):
            for card in team:
                c = g.cards[card]
                if not c.zone or c.controller != seat:
                    found.append(f"{card_label(c.name, card)} is in the team of player "
                                 f"{seat}, yet in the {c.zone or 'no zone'} of player "
                                 f"{c.controller}")
    if not g.dirty and not g.is_over:
        found += [f"nothing is marked changed (dirty), yet {held} holds"
                  for held in _conditions_holding(g)]
    return found


def _conditions_holding(g) -> list[str]:
    referee = g.referee
    held = []
    for name, cond, _cite in referee.lose_checks:
        for s in g.in_game:
            if cond(g, {"player": s, "you": s}):
                held.append(f"the lose condition {name} for player {int(s)}")
    env = {"you": Seat(g.active)}
    for name, flag, cond, _cite in referee.end_checks:
        if g.flags.get(flag) or (cond is not None and cond(g, env)):
            held.append(f"the end condition {name}")
    return held


def _paths(node: Any):
    if isinstance(node, ast.Path):
        yield node
    elif isinstance(node, tuple):
        for x in node:
            yield from _paths(x)
    elif isinstance(node, ast.Node):
        for v in vars(node).values():
            yield from _paths(v)


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, (list, tuple)) else [value]


def _show(g, value: Any) -> str:
    if isinstance(value, Seat):
        return f"player {int(value)}"
    if isinstance(value, list):
        return f"[{', '.join(_show(g, v) for v in value)}]"
    return str(value)


__all__ = [
    "BUILTINS", "Invariants", "Monitor", "Snapshot", "Violation", "derived_out_of_step",
]
