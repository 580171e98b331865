"""Listing the legal actions: every way a player may fill an action's parameters now.

A part of the referee (`Referee` inherits it), kept apart for what it does: it
reads the referee's compiled actions and settings (`actions`, `card_types`,
`hidden_zones`, `modifiers`, `zone_names`, `standard`, `standard_per_player`,
`first_own`) and never changes the game.

Each action's listing plan (`ir.ActionPlan`) says where its parameters'
candidates come from and what checks them. `bindings` follows the plan, one
parameter after another (`_bind`, `_candidates`): it is what listing means, and
the reference backend lists every window so (`reference_window`). The generated
backend lists a window with a function the code generator writes for it
(`codegen.WindowWriter`), the common shapes in place, the others through
`bindings`; the tests compare the two. The helpers both read (activation
conditions, costs, which abilities an action may take of a card) are here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from kotc.dsl import Ruleset, ast
from kotc.runtime.actions import Action
from kotc.runtime.values import AbilityRef, Seat, ability_ref, seat_of
from kotc.runtime.vm import Block

from . import ir
from .abilities import CompiledAbility
from .prefilter import could_hold
from .programs import Eval, as_list

Game = Any  # the game (`kotc.engine.game.Game`), which this layer does not import
Env = dict[str, Any]
Designs = frozenset[str]
# the function listing a window's actions: (listing, game, seat) -> the options
Window = Callable[["Listing", Game, int], list[Action]]
# per zone, the designs whose cards there may have an ability an action may take
ByZone = tuple[tuple[str, Designs], ...]


@dataclass
class CompiledAction:
    """An action of the ruleset, compiled: its listing plan with its expressions
    as functions, its effect, and what listing it learns as games go."""

    plan: ir.ActionPlan
    name: str
    label: str
    params: tuple[ast.Param, ...]
    sources: list[Eval | None]  # per parameter, its candidates' function, or None
    requires: Eval | None
    body: Block
    costs: list[tuple[str, Eval]]  # (kind, amount's function) per payment
    resolves: str | None
    cite: ast.Citation | None
    # `requires` split by the last parameter each part reads: a check per parameter
    checks: list[Eval | None] = field(default_factory=list)
    condition: ast.Expr | None = None  # `requires`, as written
    bare: Action | None = None  # the action taken with no arguments (shared)
    # (design, zone) -> the abilities `requires` does not rule out (see prefilter)
    possible: dict[tuple[str, str], tuple[int, ...]] = field(default_factory=dict)
    # where the cards with abilities this action may take are (`sources_by_zone`)
    by_zone: dict[Any, Any] = field(default_factory=dict)
    # a parameter takes one of the counters on the card before it: the kinds it
    # may take (see `ir.ActionPlan`); None when none does
    counter_kinds: frozenset[str] | None = None
    # (parameter, an ability's modifiers, zone) -> whether `requires` may hold
    holds: dict[tuple[int, frozenset[str], str], bool] = field(default_factory=dict)


class Listing:
    """The legal actions of a player, for the referee."""

    __slots__ = ()  # its fields are the referee's (`Referee.__slots__`)

    # what it reads of the referee's
    rs: Ruleset
    actions: dict[str, CompiledAction]
    card_types: set[str]
    hidden_zones: set[str]
    used_by_last: bool
    unpayable_hidden: bool
    modifiers: frozenset[str]
    zone_names: frozenset[str]
    standard: Eval
    standard_per_player: bool
    first_own: tuple[Designs, dict[str, Designs]]
    # names of actions -> the function listing them (see `options`), and how one
    # is made
    _windows: dict[tuple[str, ...], Window]
    _window: Callable[[tuple[str, ...]], Window]

    def options(self, g: Game, seat: int, names: tuple[str, ...]) -> list[Action]:
        """The actions named that `seat` may take now, each way it may take them,
        in their order: by the window's function for these names (made once)."""
        try:
            window = self._windows[names]
        except KeyError:
            window = self._window(names)
        return window(self, g, seat)

    def bindings(
        self,
        g: Game,
        act: CompiledAction,
        seat: int,
        given: tuple[Any, ...],
        ignore_condition: bool = False,
        check_sources: bool = True,
        free: bool = False,
    ) -> list[tuple[Any, ...]]:
        """Every way to fill the action's parameters that is legal now."""
        env: Env = {"you": seat_of(seat)}
        found: list[tuple[Any, ...]] = []
        if not act.params:
            if self.bare_holds(g, act, env, free):
                found.append(())
            return found
        if not given:
            kinds, in_play = act.counter_kinds, g.counters_in_play
            if kinds is not None and (not in_play or in_play.keys().isdisjoint(kinds)):
                return found  # it takes a counter off a card, and none it may is in play
        self._bind(
            g, act, env, list(given), 0, found, ignore_condition, check_sources, free
        )
        return found

    def bare_holds(self, g: Game, act: CompiledAction, env: Env, free: bool) -> bool:
        """Whether an action with no parameters may be taken now."""
        return (act.requires is None or bool(act.requires(g, env))) and (
            free or not act.costs or self.affordable_now(g, act, env)
        )

    def _bind(
        self, g: Game, act: CompiledAction, env: Env, given: list[Any], i: int,
        found: list[tuple[Any, ...]], ignore: bool, check_sources: bool,
        free: bool = False, prefix: tuple[Any, ...] = (),
    ) -> None:
        """Parameter `i` onwards; the last one is checked in this loop, not a call
        deeper (a listing such as hand x reserves has dozens of leaves)."""
        p = act.params[i]
        source = act.sources[i]
        if i < len(given):
            candidates = [given[i]]
            if check_sources and source is not None:
                pool = as_list(source(g, env))
                candidates = [c for c in candidates if c in pool]
        else:
            candidates = self.candidates(g, act, i, env, ignore)
        check = act.checks[i]
        name = p.name
        if i + 1 < len(act.params):
            for c in candidates:
                env[name] = c
                if check is not None and not check(g, env):
                    continue
                self._bind(
                    g,
                    act,
                    env,
                    given,
                    i + 1,
                    found,
                    ignore,
                    check_sources,
                    free,
                    (*prefix, c),
                )
            env.pop(name, None)
            return
        costly = act.costs and not free
        resolves = None if ignore else act.resolves
        for c in candidates:
            env[name] = c
            if check is not None and not check(g, env):
                continue
            if costly and not self.affordable_now(g, act, env):
                continue
            if resolves and not self.condition_met(g, env["you"], env[resolves], env):
                continue
            found.append((*prefix, c))
        env.pop(name, None)

    def candidates(
        self, g: Game, act: CompiledAction, i: int, env: Env, ignore: bool = False
    ) -> list[Any]:
        """Parameter `i`'s candidates, of its type, before its check."""
        p = act.params[i]
        following = act.params[i + 1].type if i + 1 < len(act.params) else None
        source = act.sources[i]
        pool: list[Any]
        if source is not None:
            drawn = source(g, env)
            once = dict.fromkeys(drawn if type(drawn) is list else as_list(drawn))
            if p.type in self.card_types or following == "counter":
                # one pass for the common filters: the card's type, and whether
                # it holds the counters the next parameter draws from
                cards, kind = g.cards, p.type if p.type in self.card_types else None
                counters = following == "counter"
                pool = [
                    c
                    for c in once
                    if (kind is None or cards[c].type == kind)
                    and (not counters or cards[c].counters)
                ]
                if following == "ability":
                    pool = [c for c in pool if self._possible(g, act, i + 1, c)]
                return pool
            pool = list(once)
        elif p.type == "ability":
            card = env[act.params[i - 1].name]
            possible: Iterable[int] = self._possible(g, act, i, card)
            if self._narrowing(g, act, i, env["you"], ignore) == "own":
                abilities = g.engine.abilities[g.cards[card].design]
                possible = [k for k in possible if own_condition(abilities[k])]
            return [AbilityRef(card, k) for k in possible]
        elif p.type == "counter":
            card = env[act.params[i - 1].name]
            return list(dict.fromkeys(map(COUNTER_KIND, g.cards[card].counters)))
        elif p.type in ("player", "players"):
            seats: list[Any] = g.seats_in_game()
            return seats
        else:
            # A card parameter with no `in`: the acting player's own cards with
            # abilities, wherever they are but in zones nobody may look at (the
            # deck): interpretation of "you" and of restricted knowledge. A card
            # is in the zone list of its controller, so those lists are the pool;
            # sorted, it is in the order the cards were made.
            cards, zones = g.cards, g.players[env["you"]].zones
            if i + 1 < len(act.params) and act.params[i + 1].type == "ability":
                narrow = self._narrowing(g, act, i + 1, env["you"], ignore)
                pool = self.users_cards(
                    g, env["you"], self.sources_by_zone(g, act, i + 1, narrow)
                )
            else:
                hidden, able = self.hidden_zones, g.engine.able
                pool = sorted(
                    c
                    for z, ids in zones.items()
                    if z not in hidden
                    for c in ids
                    if cards[c].design in able
                )
        cards = g.cards
        if p.type in self.card_types:
            pool = [c for c in pool if cards[c].type == p.type]
        if following == "counter":  # it draws from this card's counters
            pool = [c for c in pool if cards[c].counters]
        elif following == "ability" and act.sources[i] is not None:
            pool = [c for c in pool if self._possible(g, act, i + 1, c)]
        return pool

    def affordable_now(self, g: Game, act: CompiledAction, env: Env) -> bool:
        """Whether each cost of the action can be paid now."""
        for kind, amount in act.costs:
            need = amount(g, env)
            you = env["you"]
            if kind == "hp":
                have = g.players[you].hp
            else:
                memo = g.resources_memo
                have = None if memo is None else memo.get(you)
                if have is None:
                    have = g.unexhausted_resources(you)
                    if memo is not None:
                        memo[you] = have
            if need > have:
                return False
        return True

    def condition_met(self, g: Game, seat: Seat, what: Any, env: Env,
                      standard: bool | None = None) -> bool:
        """Whether `seat` may activate the ability `what` (a card: its first) now:
        its trigger on a recent event it has not answered, else its own condition,
        else the standard activation condition (`standard`, where the caller has
        read it for `seat`; else from the listing's memo, or read in full); and
        its printed cost can be paid."""
        # `what`: an ability, or a card for its first ability (no AbilityRef made)
        if type(what) is AbilityRef:
            card, index = what
        else:
            card, index = what, 0
        abilities: list[CompiledAbility] | None = g.engine.abilities.get(
            g.cards[card].design)
        if not abilities:
            return False
        ab = abilities[index]
        trigger, cond = ab.trigger, ab.cond
        listed: bool | None = None
        if trigger is None and cond is None:
            # the standard condition, once per player per listing, decides first:
            # outside its window (a chain, another phase) nothing more is read
            listed = self.standard_in_listing(g, seat) if standard is None else standard
            if listed is False:
                return False
        # where the rules say `unpayable_costs not_offered`: an activation whose
        # printed cost cannot be paid in full is not offered
        if self.unpayable_hidden and ab.affordable is not None and not ab.affordable(
                g, {"you": seat, "this": card}):
            return False
        if trigger is not None:  # `_answerable`, but for the first it finds
            events, cond = trigger.events, ab.trigger_cond
            for name, fields in g.recent:
                if name in events:
                    answered = fields.get("__answered")
                    if answered and [card, index] in answered:
                        continue
                    if cond is None or cond(g, {"you": seat, "this": card,
                                                "event": fields}):
                        return True
            return False
        if cond is not None:
            return bool(cond(g, {"you": seat, "this": card}))
        if listed:
            return True  # it held, above
        ref = what if type(what) is AbilityRef else ability_ref(AbilityRef, (card, 0))
        return bool(
            self.standard(g, {**env, "you": seat, "source": card, "ability": ref})
        )

    def _possible(self, g: Game, act: CompiledAction, i: int,
                  card: int) -> tuple[int, ...]:
        """The indices of the abilities of `card` that parameter `i` (an ability of
        the card bound by parameter `i - 1`) may take, given its design and zone."""
        c = g.cards[card]
        found = act.possible.get((c.design, c.zone))
        if found is None:
            found = self.possible_for(g, act, i, c.design, c.zone)
        return found

    def possible_for(self, g: Game, act: CompiledAction, i: int, design: str,
                     zone: str) -> tuple[int, ...]:
        """The indices of the abilities of a card of `design` in `zone` that
        parameter `i` may take: those its requirement does not rule out."""
        found = act.possible.get((design, zone))
        if found is None:
            abilities: list[CompiledAbility] = g.engine.abilities.get(design, [])
            cond = act.condition
            found = act.possible[(design, zone)] = tuple(
                k
                for k, ab in enumerate(abilities)
                if cond is None or self._could_hold(act, i, ab.modifiers, zone)
            )
        return found

    def _could_hold(self, act: CompiledAction, i: int, modifiers: frozenset[str],
                    zone: str) -> bool:
        """`could_hold` for the action's condition, once per ability's modifiers
        and zone: all it reads of the ability and of its card."""
        key = (i, modifiers, zone)
        holds = act.holds.get(key)
        if holds is None:
            assert act.condition is not None
            holds = act.holds[key] = could_hold(
                act.condition,
                act.params[i - 1].name,
                act.params[i].name,
                modifiers,
                self.modifiers,
                zone,
                self.zone_names,
            )
        return holds

    def users_cards(self, g: Game, seat: Seat, by_zone: ByZone) -> list[int]:
        """The cards whose abilities `seat` may use, in the order they were made,
        of the designs `by_zone` gives for each zone: those in the player's own
        zones and, where the rules say `used_by last_controller`, those in other
        players' zones that the player last had in play (`away_cards`; the action
        and the ability's condition then say whether it may). A written window
        scans the player's own zones in place (`codegen.WindowWriter`)."""
        cards, zones = g.cards, g.players[seat].zones
        pool = [c for z, designs in by_zone for c in zones[z]
                if cards[c].design in designs]
        if self.used_by_last and g.away:
            pool += self.away_cards(g, seat, by_zone)
        pool.sort()
        return pool

    @staticmethod
    def away_cards(g: Game, seat: Seat, by_zone: ByZone) -> list[int]:
        """Of the cards `seat` last had in play that lie with another player (the
        game keeps them, `Game.away`, so no other player's zone is looked
        through), those of the designs `by_zone` gives for the zone each is in."""
        cards, where = g.cards, dict(by_zone)
        found = []
        for c in g.away:
            card = cards[c]
            if card.last_controller == seat and card.design in where.get(card.zone, ()):
                found.append(c)
        return found

    def sources_by_zone(self, g: Game, act: CompiledAction, i: int,
                        narrow: str) -> ByZone:
        """For a card parameter `i - 1` followed by its ability `i`: each zone a
        player may look at (any, with an `in`), with the designs that have an ability
        there the condition does not rule out (zones with none are left out),
        narrowed as `_narrowing` says: a triggered ability counts only while an
        event it waits for is recent, and with "own" an untriggered one only if
        it has a printed condition."""
        found: ByZone | None
        if narrow == "any":
            found = act.by_zone.get(i)
            if found is None:
                found = act.by_zone[i] = tuple(
                    (z, frozenset(d for d, _ in entries))
                    for z, entries in self._abilities_by_zone(g, act, i)
                )
            return found
        recent = frozenset([name for name, _ in g.recent]) if g.recent else NO_EVENTS
        found = act.by_zone.get((i, narrow, recent))
        if found is None:
            table = act.by_zone.get((i, narrow))
            if table is None:
                table = act.by_zone[(i, narrow)] = self._triggers_by_zone(
                    g, act, i, narrow == "own"
                )
            out: list[tuple[str, Designs]] = []
            for z, fixed, by_event in table:
                designs = fixed
                for name in recent:
                    more = by_event.get(name)
                    if more:
                        designs = designs | more
                if designs:
                    out.append((z, designs))
            found = act.by_zone[(i, narrow, recent)] = tuple(out)
        return found

    def _abilities_by_zone(
        self, g: Game, act: CompiledAction, i: int,
    ) -> list[tuple[str, list[tuple[str, list[CompiledAbility]]]]]:
        """Per zone a player may look at (any zone, for a card drawn from an `in`):
        (design, abilities the condition does not rule out there), for the designs
        with any."""
        zones: list[tuple[str, list[tuple[str, list[CompiledAbility]]]]] = []
        for z in self.rs.zones:
            if z in self.hidden_zones and act.sources[i - 1] is None:
                continue
            entries: list[tuple[str, list[CompiledAbility]]] = []
            for d in g.engine.able:
                possible = self.possible_for(g, act, i, d, z)
                if possible:
                    entries.append((d, [g.engine.abilities[d][k] for k in possible]))
            if entries:
                zones.append((z, entries))
        return zones

    def _triggers_by_zone(
        self, g: Game, act: CompiledAction, i: int, own: bool,
    ) -> tuple[tuple[str, Designs, dict[str, Designs]], ...]:
        """Per zone: the designs with an untriggered ability (with `own`, one with a
        printed condition), and by event name those with a trigger on it (see
        `trigger_table`)."""
        table: list[tuple[str, Designs, dict[str, Designs]]] = []
        for z, entries in self._abilities_by_zone(g, act, i):
            fixed, by_event = trigger_table(entries, own)
            if fixed or by_event:
                table.append((z, fixed, by_event))
        return tuple(table)

    def _narrowing(self, g: Game, act: CompiledAction, i: int, seat: Seat,
                   ignore: bool) -> str:
        """How far the abilities parameter `i` may take narrow before each is
        checked in full. "any": the action does not resolve that ability, or its
        activation condition is ignored. Else a triggered ability needs an event
        it waits for to be recent: "own" when, in this listing, the standard
        activation condition is known not to hold for `seat` (an ability's own
        condition is all that can let it through), else "resolving"."""
        if ignore or act.resolves != act.params[i].name:
            return "any"
        return "own" if self.standard_in_listing(g, seat) is False else "resolving"

    def standard_in_listing(self, g: Game, seat: Seat) -> bool | None:
        """The standard activation condition for `seat`, evaluated once per listing
        of options; None outside a listing (it is then evaluated in full)."""
        memo: dict[Seat, bool] | None = g.standard_memo
        if memo is None:
            return None
        known = memo.get(seat)
        if known is None:
            known = memo[seat] = bool(self.standard(g, {"you": seat}))
        return known

    @staticmethod
    def _answerable(g: Game, ab: CompiledAbility, ref: AbilityRef,
                    inner: Env) -> list[list[Any]]:
        """The recent events the ability's trigger answers, but for those it has
        answered already (`answer_events`)."""
        key, cond, trigger = [ref.card, ref.index], ab.trigger_cond, ab.trigger
        assert trigger is not None
        return [
            entry
            for entry in g.recent
            if entry[0] in trigger.events
            and key not in entry[1].get("__answered", ())
            and (cond is None or cond(g, {**inner, "event": entry[1]}))
        ]

    def answer_events(self, g: Game, seat: int, what: Any) -> bool:
        """An ability (or a spell's) activated on recent events answers them: it may
        not answer them again (a ghost-play ability costs nothing, and would answer
        one destruction for ever), while every other ability still may, a copy of
        it or another player's. Whether it answered any."""
        ref = what if isinstance(what, AbilityRef) else AbilityRef(what, 0)
        abilities: list[CompiledAbility] | None = g.engine.abilities.get(
            g.cards[ref.card].design)
        if not abilities or abilities[ref.index].trigger is None:
            return False
        found = self._answerable(g, abilities[ref.index], ref, {"you": seat_of(seat),
                                                                "this": ref.card})
        for entry in found:  # a new map: a clone shares the old one
            fields = entry[1]
            entry[1] = {**fields, "__answered": [*fields.get("__answered", ()),
                                                 [ref.card, ref.index]]}
        return bool(found)

    def window_tables(self, g: Game, specs: tuple[tuple[str, CompiledAction, bool], ...],
                      fails: bool, recent: frozenset[str]) -> tuple[Any, ...]:
        """For each action of a window that reads one (see
        `codegen.WindowWriter.tables`), with these recent events and the standard
        condition failing or not: the designs whose first ability may resolve
        (None: any) for one drawn from a collection; where the cards with
        abilities it may take lie, for a card and one of its abilities."""
        found: list[Any] = []
        for kind, act, drawn in specs:
            if kind == "own":
                found.append(self.own_after(recent) if fails else None)
            else:
                narrow = "any" if kind == "any" else "own" if fails else "resolving"
                table = self.sources_by_zone(g, act, 1, narrow)
                found.append(dict(table) if drawn else table)
        return tuple(found)

    def own_designs(self, g: Game, seat: Seat) -> Designs | None:
        """While, in this listing, the standard activation condition fails for
        `seat`: the designs whose first ability may still resolve (a printed
        condition, or a trigger on a recent event). None: any may."""
        if self.standard_in_listing(g, seat) is not False:
            return None
        return self.own_after(name for name, _ in g.recent)

    def own_after(self, recent: Iterable[str]) -> Designs:
        """The designs whose first ability has a printed condition, or a trigger
        on one of the events named `recent`."""
        printed, by_event = self.first_own
        designs = printed
        for name in recent:
            more = by_event.get(name)
            if more:
                designs = designs | more
        return designs


def reference_window(listing: Listing, names: tuple[str, ...]) -> Window:
    """The window listing the actions `names` as listing means it: each action's
    counter gate, then every way to take it (`bindings`), within one listing's
    memo of the standard condition and of the resources to pay with."""
    acts = [listing.actions[name] for name in names]

    def window(listing: Listing, g: Any, seat: int) -> list[Action]:
        out: list[Action] = []
        you = seat_of(seat)
        g.standard_memo = {} if listing.standard_per_player else None
        g.resources_memo = {}
        try:
            for act in acts:
                kinds, in_play = act.counter_kinds, g.counters_in_play
                if kinds is not None and (
                        not in_play or in_play.keys().isdisjoint(kinds)):
                    continue  # it takes a counter off a card, and none it may is here
                if not act.params:
                    if listing.bare_holds(g, act, {"you": you}, False):
                        assert act.bare is not None
                        out.append(act.bare)
                    continue
                for args in listing.bindings(g, act, seat, ()):
                    out.append(Action("act", (act.name, args), None, g.namer))
        finally:
            g.standard_memo = g.resources_memo = None
        return out

    return window


COUNTER_KIND = itemgetter(0)  # of a counter entry, [kind, placer]

NO_EVENTS: frozenset[str] = frozenset()  # no recent events


def trigger_table(
    entries: Iterable[tuple[str, list[CompiledAbility]]], own: bool,
) -> tuple[Designs, dict[str, Designs]]:
    """Of (design, abilities) pairs: the designs with an untriggered ability (with
    `own`, only one with a printed condition), and by event name those with one
    triggered by it. A trigger alone decides whether its ability may be
    activated (see `condition_met`)."""
    fixed: set[str] = set()
    by_event: dict[str, set[str]] = {}
    for d, abilities in entries:
        for ab in abilities:
            if ab.trigger is not None:
                for e in ab.trigger.events:
                    by_event.setdefault(e, set()).add(d)
            elif ab.cond is not None or not own:
                fixed.add(d)
    return frozenset(fixed), {e: frozenset(ds) for e, ds in by_event.items()}


def own_condition(ab: CompiledAbility) -> bool:
    """Whether an ability says itself when it may be activated."""
    return ab.trigger is not None or ab.cond is not None


def action_names(e: ast.Expr) -> set[str]:
    """The names an expression reads (heads of its paths)."""
    return {path.parts[0] for path in ast.paths(e)}
