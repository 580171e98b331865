"""The referee: an edition's rules compiled, and what they do at a point of play.

It compiles the rules' programs (setup steps, phases and their variants, battle
steps' parts, actions, counters, keywords, the endgame's conditions and
criteria) and what the windows offer, lists the actions a player may take
(`listing.py`), takes and performs them, activates abilities and makes chain
links, offers reactive counters to the players who may pop them, and keeps the
events abilities wait for. Where play stands, and how it moves on through the
flow graph, is the runner's (`engine/runner.py`), which runs these programs at
the graph's nodes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kotc.compiler import ir
from kotc.compiler.listing import (
    CompiledAction,
    Env,
    Listing,
    Window,
    reference_window,
    trigger_table,
)
from kotc.compiler.lower import CARD, EVENT, PLAYER, param_kind
from kotc.compiler.programs import Eval, WatchSpec
from kotc.dsl import Ruleset, ast
from kotc.runtime.actions import Action
from kotc.runtime.events import (
    Acted,
    Activated,
    Linked,
    Performed,
    Popped,
)
from kotc.runtime.state import Battle, CardState, Chain, Link
from kotc.runtime.values import AbilityRef, Seat, card_label, encode, seat_of
from kotc.runtime.vm import NEXT, PUSHED, Block, Frame

from .primitives import eliminate

if TYPE_CHECKING:
    from .game import Engine, Game

_new_object = object.__new__

# An event as triggers and reactions see it: its own fields, and those every event
# has (see `_event`), under their names.
EventData = dict[str, Any]
# A reactive counter that may react to an event, as `react` offers them: (card,
# counter kind, placer), or (None, None, index) for the watch `index` held.
Candidate = tuple[int, str, int] | tuple[None, None, int]


@dataclass
class CompiledCounter:
    name: str
    kind: str
    trigger: ast.Trigger | None
    cond: Eval | None
    body: Block
    cite: ast.Citation | None


class Referee(Listing):
    """Compiled flow of one ruleset; stateless: all state lives in the game (but
    for a memo that lives only while one listing of options is made)."""

    # What it compiles the ruleset to, as slots: the flow reads them at every
    # step, and calls its own methods as often. With an instance dict of this
    # many keys (more than CPython shares between instances) each read is a
    # dict lookup, and a method call takes the slow path.
    __slots__ = (
        "first_own", "_windows", "actions", "anytime",
        "anytime_cite", "battle_cite", "battle_steps", "call_blocks", "card_types",
        "chain_offer", "chaining", "concessions", "counters", "criteria",
        "decision_limit_cite", "dice_per",
        "end_checks", "end_conditions", "engine", "fire_block",
        "has_chain", "hidden_zones",
        "link_block", "link_cite", "link_text", "listened", "lose_checks",
        "lose_conditions", "modifiers", "new_chain",
        "others_offer", "param_names", "part_blocks", "per_phase",
        "phase_blocks",
        "places", "pop_at_once", "respond_from_actor", "respond_way",
        "setup_from_first", "turn_way",
        "programs", "reaction_kinds", "reactions", "resolve_cite", "resolve_text",
        "resource_zones", "rs", "setup", "standard",
        "standard_per_player", "step_blocks", "step_cite", "step_offer",
        "step_windows",
        "turn_cite", "turn_limit_cite", "turn_text",
        "popped_by_placer", "unbindable", "unpayable_hidden", "used_by_last",
        "zone_names",
    )

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        rs = self.rs = engine.rs
        P = self.programs = engine.programs
        self.setup = [
            (s, P.block(s.body, s.cite, f"setup step {s.name}")) for s in rs.setup_steps
        ]
        # each setup step is done by every player in turn from the first player, or
        # from the first seat (the setup section's `steps each_player from`)
        order = rs.setting("setup", "step_order")
        self.setup_from_first = order is None or order.start == "first_player"
        anytime = rs.setting("turn", "anytime")
        self.anytime = tuple(anytime.actions) if anytime else ()
        # each phase's programs, by its name: the usual one, and its variants'
        # (the runner runs them at the phase's nodes of the flow graph)
        self.phase_blocks: dict[str, tuple[Block, tuple[Block, ...]]] = {}
        for ph in rs.phases:
            variants = tuple(
                P.block(v.body, v.cite or ph.cite, f"phase {ph.name}")
                for v in ph.variants
            )
            run_block = P.block(ph.run, ph.run_cite or ph.cite, f"phase {ph.name}")
            self.phase_blocks[ph.name] = (run_block, variants)
        chaining = rs.setting("chain", "chaining")
        self.chaining = tuple(chaining.actions) if chaining else ()
        # what the turn, chain links, responses and resolution cite in the log
        self.turn_cite = _cite(rs.setting("turn", "next_turn"))
        # which way turns and chain responses pass (`next_turn`, `respond`)
        self.turn_way = _way(rs.setting("turn", "next_turn"))
        respond = rs.setting("chain", "respond")
        self.respond_way = _way(respond)
        # the responses start with the last actor (`from last_actor`), not at its left
        self.respond_from_actor = respond is not None and not respond.left
        self.link_cite = _cite(chaining)
        # once a chain has resolved in a phase, the others may start a new one
        self.new_chain = rs.setting("chain", "new_chain_after_resolving")
        self.resolve_cite = _cite(rs.setting("chain", "resolve_last_in_first_out"))
        # their texts, as the log writes them
        self.turn_text = None if self.turn_cite is None else self.turn_cite.text
        self.link_text = None if self.link_cite is None else self.link_cite.text
        self.resolve_text = None if self.resolve_cite is None else self.resolve_cite.text
        self.has_chain = rs.has_chain
        std = rs.setting("actions", "standard_activation")
        self.standard = (
            P.expr(std.cond, {"you": PLAYER, "source": CARD, "ability": None})
            if std else (lambda g, env: True)
        )
        # when the standard condition reads nothing of the ability or its card, one
        # listing of options needs it once per player (see `options`)
        self.standard_per_player = std is None or _reads(std.cond) <= _GLOBAL
        # cards whose first ability has a condition of its own, by design: all that
        # can resolve while the standard condition fails (see `_own_designs`)
        self.first_own = trigger_table(
            ((d, abilities[:1]) for d, abilities in engine.abilities.items()), own=True
        )
        self.counters = {
            c.name: CompiledCounter(
                c.name,
                c.counter_kind,
                c.trigger,
                P.expr(c.trigger.cond, _COUNTER_NAMES)
                if c.trigger and c.trigger.cond else None,
                P.block(c.body, c.cite, f"counter {c.name}", _COUNTER_NAMES),
                c.cite,
            )
            for c in rs.counters.values()
        }
        self.actions = {a.name: self._action(a) for a in rs.actions.values()}
        self.param_names = {
            a.name: tuple(p.name for p in a.params) for a in rs.actions.values()
        }
        self._windows = {}
        # the reactive counters watching each (timing, event), by name
        self.reactions: dict[tuple[str | None, str], dict[str, CompiledCounter]] = {}
        for c in self.counters.values():
            if c.kind == "reactive" and c.trigger is not None:
                for e in c.trigger.events:
                    self.reactions.setdefault((c.trigger.timing, e), {})[c.name] = c
        self.reaction_kinds = {
            key: frozenset(specs) for key, specs in self.reactions.items()
        }
        self.listened = engine.listened
        # each step: its name, operations, citation and node in the flow graph
        self.battle_steps = [
            (s.name, s.ops, s.cite, f"battle:{s.name}") for s in rs.battle_steps
        ]
        self._battle_settings(rs)
        self.end_conditions = [
            (c.name, P.expr(c.cond, _PLAYER_NAMES) if c.cond else None, c.event, c.cite)
            for c in rs.end_conditions
        ]
        self.lose_conditions = [
            (c.name, P.expr(c.cond, _PLAYER_NAMES) if c.cond else None, c.event, c.cite)
            for c in rs.lose_conditions
        ]
        self.criteria = [
            (c.name, c.keep, P.expr(_criterion_expr(c), _PLAYER_NAMES), c.cite)
            for c in rs.criteria
        ]
        # what `Runner.check_end` reads: the conditions to evaluate, and the flag an end
        # condition's event sets
        self.lose_checks = [
            (name, cond, cite) for name, cond, _, cite in self.lose_conditions if cond
        ]
        self.end_checks = [
            (name, f"end:{name}", cond, cite)
            for name, cond, _, cite in self.end_conditions
        ]
        self.resource_zones = engine.resource_zones
        self.call_blocks = {
            name: self._call_block(name, block)
            for name, block in P.keyword_blocks.items()
        }
        self.fire_block = P.internal((ir.React(None, None),), None, "event")
        self.link_block = P.internal((ir.MakeLink(None),), None, "chain link")
        # made here, not when first needed: a block's number is saved with a game
        # (`Game.to_json`), and must not depend on what games were played before
        self.step_blocks = {
            timing: P.internal((ir.React(None, timing),), None, f"{timing} step")
            for timing in ("before", "after")
        }
        self.card_types = set(rs.card_types)
        self.modifiers = frozenset(rs.modifiers)
        self.zone_names = frozenset(rs.zones)
        self.hidden_zones = {
            z.name for z in rs.zones.values() if z.knowledge == "restricted"
        }
        # who pops a counter: only the player who placed it (the counters
        # section's `popped_by placer`), or else the controller of its host
        self.popped_by_placer = rs.setting("counters", "popped_by_placer") is not None
        # a proactive counter popped while a chain resolves acts at once, or as a
        # link resolving next (the chain section's `popped_while_resolving`)
        popped = rs.setting("chain", "popped_while_resolving")
        self.pop_at_once = popped is not None and popped.how == "at_once"
        # whether the player who last had a card in play may use it wherever it is
        # (the actions section's `used_by last_controller`)
        self.used_by_last = rs.setting("actions", "used_by_last_controller") is not None
        # an ability whose printed cost cannot be paid is not offered (the actions
        # section's `unpayable_costs not_offered`)
        self.unpayable_hidden = (
            rs.setting("actions", "unpayable_costs_not_offered") is not None)
        self.concessions = rs.concessions
        # Card types no card of this game can have (no design of that type, nor the
        # pawns' type): an action with a parameter of such a type is never
        # offered, and listing options need not look for one. Nor is one that takes
        # an ability when no design has any (pawns copy the abilities of designs).
        types = {d.type for d in engine.designs.values()} | {engine.pawn_type}
        self.unbindable = frozenset(
            a.name
            for a in self.actions.values()
            if any(p.type in self.card_types and p.type not in types for p in a.params)
            or (not engine.able and any(p.type == "ability" for p in a.params))
        )
        # the lists the game keeps per phase (`keep victims per phase`)
        self.per_phase = tuple(rs.kept_lists)
        # what players other than the active one may take at a phase's end: the
        # actions open at any time, but for giving the game up (the `others`
        # window policy)
        self.others_offer = self.bindable(
            a for a in self.anytime if a not in self.concessions
        )
        self.anytime_cite = anytime.cite if anytime else None
        # what the windows between battle steps offer: the chaining actions where
        # the battle section opens such windows, and what is open at any time
        step_chaining = self.chaining if self.step_windows is not None else ()
        self.step_offer = self.bindable(dict.fromkeys(step_chaining + self.others_offer))
        self.step_cite = (self.step_windows.cite if step_chaining and self.step_windows
                          else self.anytime_cite)
        self.chain_offer = self.bindable(self.chaining)
        self.turn_limit_cite = rs.safety_limit("turns")[0]
        self.decision_limit_cite = rs.safety_limit("decisions")[0]

    def bindable(self, names: Iterable[str]) -> tuple[str, ...]:
        """The actions named that this game's cards may ever bind, in order."""
        return tuple(a for a in names if a not in self.unbindable)

    def _action(self, a: ast.Action) -> CompiledAction:
        """An action: its listing plan, its expressions as functions, its effect."""
        P = self.programs
        env = {"you": PLAYER, **{p.name: param_kind(p.type, P.card_types)
                                 for p in a.params}}
        plan = P.lowering.action_plan(a)

        def fn(form: ir.Expr | None) -> Eval | None:
            return None if form is None else P.fn(form, f"action {a.name}")

        def cost_fn(form: ir.Expr) -> Eval:
            return P.fn(form, f"action {a.name}")

        return CompiledAction(
            plan,
            a.name,
            a.label,
            a.params,
            [fn(p.source) for p in plan.params],
            fn(plan.requires),
            P.block(a.body, a.cite, f"action {a.name}", env),
            [(kind, cost_fn(amount)) for kind, amount in plan.costs],
            plan.resolves,
            a.cite,
            [fn(p.check) for p in plan.params] or [None],
            a.requires,
            Action("act", (a.name, ()), a.name),
            counter_kinds=plan.counter_kinds,
        )

    def _window(self, names: tuple[str, ...]) -> Window:
        """The function listing these actions (see `Listing.options`), made once:
        the reference listing, or a function written for the window."""
        if self.programs.backend == "reference":
            window = reference_window(self, names)
        else:
            window = self.programs.window(self, [self.actions[n] for n in names])
        self._windows[names] = window
        return window

    def counter_gate(self, names: Iterable[str]) -> frozenset[str] | None:
        """When every action named takes a counter off a card: the kinds any of them
        may take (a window offering only these has nothing to offer while none
        is in play). None: some action named takes none."""
        kinds = [self.actions[a].counter_kinds for a in names]
        known = [k for k in kinds if k is not None]
        if not kinds or len(known) < len(kinds):
            return None
        return frozenset[str]().union(*known)

    def _battle_settings(self, rs: Ruleset) -> None:
        dice_per = rs.setting("battle", "dice_per")
        self.dice_per = dice_per.stat if dice_per else None
        record = rs.battle_record
        self.battle_cite = record.cite if record else None
        self.step_windows = rs.setting("battle", "step_windows")
        parts = rs.battle_parts
        # each step's parts, by the step's name: programs in the rules language,
        # each run under the step's citation (the runner runs them, one frame each)
        self.part_blocks: dict[str, tuple[Block, ...]] = {
            step.name: tuple(
                self.programs.flow_block(
                    "battle", parts[op].body, step.cite,
                    f"battle {step.name}: {parts[op].name}")
                for op in step.ops)
            for step in rs.battle_steps
        }
        # where each step and part is among the steps (`passed`): (step, part)
        # indexes, a step's part None; a part at its first place
        self.places: dict[str, tuple[int, int | None]] = {}
        for i, step in enumerate(rs.battle_steps):
            self.places[step.name] = (i, None)
            for k, op in enumerate(step.ops):
                self.places.setdefault(op, (i, k))

    # --- the flow ----------------------------------------------------------------------

    # actions

    def take(self, g: Game, seat: int, action: Action) -> None:
        name, args = action.value
        act = self.actions[name]
        env: Env = {"you": seat_of(seat)}
        # bound one by one: for an action's few arguments, a `zip` (an object
        # made, and a keyword given) costs more than the binding
        params = self.param_names[name]
        if len(params) != len(args):
            raise ValueError(f"{name} takes {len(params)} arguments: {args!r}")
        i = 0
        for param in params:
            env[param] = args[i]
            i += 1  # noqa: SIM113 (`enumerate` is an object made, too)
        # what just happened may still be answered while a chain is open, and by an
        # action answering it; any other action moves the game on ("Chains")
        if g.recent:  # most often nothing did
            answers = act.resolves is not None and self.answer_events(
                g, seat, env[act.resolves])
            if g.chain is None and not answers:
                g.recent = []
        cite = act.cite
        if g.trace is not None:
            g.trace.act(name)
        g.events.append(Acted(
            seat, action._label or action.label or name,
            None if cite is None else cite.text,
        ))
        if name in self.chaining:
            self.fire(g, "chaining_action", {"actor": seat_of(seat)}, env, act.cite)
        g.frames.append(Frame(act.body, env))

    def perform_choices(self, g: Game, name: str, values: list[Any],
                        mods: tuple[str, ...], seat: int) -> list[tuple[Any, ...]]:
        act = self.actions[name]
        # What an effect performs is checked like a player's own action (its
        # requirements, its activation condition unless ignored, its cost unless
        # free), but not for where its cards come from ("as if in your hand").
        return self.bindings(
            g,
            act,
            seat,
            tuple(values),
            "ignoring_condition" in mods,
            check_sources=False,
            free="free" in mods,
        )

    def push_action(
        self, g: Game, name: str, args: tuple[Any, ...], mods: tuple[str, ...], seat: int,
        env: Env,
    ) -> None:
        act = self.actions[name]
        inner: Env = {"you": seat_of(seat)}
        for p, a in zip(act.params, args, strict=False):
            inner[p.name] = a
        if "free" in mods:
            inner["__free"] = True
        if "inline" in mods or env.get("__inline"):
            inner["__inline"] = True
        g.events.append(Performed(seat, name, _text(act.cite)))
        g.frames.append(Frame(act.body, inner))

    def perform(self, g: Game, name: str, values: Iterable[Any], mods: tuple[str, ...],
                seat: int, cite: ast.Citation | None, env: Env) -> None:
        self.push_action(g, name, tuple(values), mods, seat, env)

    # abilities, counters and the chain

    def resolve(self, g: Game, what: AbilityRef | int, env: Env,
                cite: ast.Citation | None, then: Block | None = None) -> None:
        """Activate an ability: its cost and (where the rules say so) its targets
        now, then its resolution, as a chain link or at once (inline); `then`, with
        the activating program's names, once it has resolved, its link was negated,
        or the activation failed."""
        # an ability, or a card for its first ability (no AbilityRef made for it)
        card, index = what if isinstance(what, AbilityRef) else (what, 0)
        design = g.cards[card].design
        abilities = None if design is None else g.engine.abilities.get(design)
        after: list[Any] | None = None  # [block, names], as a link keeps it
        names: Env = {}
        if then is not None:
            names = _own_names(env)
            after = [then.id, names]
        if not abilities:
            if then is not None:
                g.frames.append(Frame(then, dict(names)))
            return
        ab = abilities[index]
        you = env["you"]
        link_env = {"you": you, "this": card}
        inline = (
            not self.has_chain
            or env.get("__inline")
            or (g.chain is not None and g.chain.resolving)
        )
        cite = ab.cite or cite
        g.events.append(Activated(
            int(you), card, ab.name or index, None if cite is None else cite.text
        ))
        if inline:
            if then is not None:  # under the resolution: it runs next
                g.frames.append(Frame(then, dict(names)))
            g.frames.append(Frame(ab.resolution, link_env))
        else:
            made = {**link_env, "__block": ab.resolution.id, "__source": card}
            if after is not None:  # kept with the link until it resolves
                made["__then"] = after
            g.frames.append(Frame(self.link_block, made))
        # run before the link is made: the cost, then (where the rules say so) the
        # targets; a `stop` in either ends the activation (see `_s_Stop`)
        if ab.targeting is not None:
            g.frames.append(Frame(ab.targeting, {**link_env, "__activating": True}))
        if ab.cost is not None:
            cost_env = {**link_env, "__cost": True, "__activating": True}
            g.frames.append(Frame(ab.cost, cost_env))

    def make_link(self, g: Game, f: Frame) -> None:
        """The link an activation makes (the `link_block`'s statement)."""
        env = _own_names(f.env)
        self.add_link(
            g, f.env["__block"], env, f.env["__source"], f.env["you"], f.env.get("__then")
        )

    def add_link(
        self, g: Game, block_id: int, env: Env, source: int | None, actor: int,
        then: list[Any] | None = None, counter: str | None = None,
    ) -> None:
        actor = int(actor)
        link: Link = {
            "block": block_id,
            "env": env,
            "source": source,  # the card (a counter's link: the card it was on)
            "actor": actor,
            "negated": False,
            "then": then,  # [block, names]: what follows once it has resolved
            "counter": counter,  # the counter popped, whose effect is not the card's
        }
        ch = g.chain
        if ch is None:  # field by field, as a battle's (see `new_battle`)
            ch = g.chain = _new_object(Chain)
            ch.links = [link]
            ch.last_actor = actor
            ch.resolving = False
            # the chain is entered; its responses start from the left of the actor
            # (or with the actor)
            g.runner.call(g, "chain", self.respond_seat(g, actor))
            g.stand("chain:open")
        else:
            links = ch.links
            links.append(link)
            ch.last_actor = actor
            # the responses start again, from the left of the actor (or with it)
            g.runner.restart(g, "chain", self.respond_seat(g, actor))
        g.events.append(Linked(actor, len(ch.links), self.link_text))

    def link(self, g: Game, block_id: int, env: dict[str, Any],
             source: Any = None) -> None:
        """`link [from CARD] { ... }`: the block, with the program's names, put on
        the chain as a link of its player (and of the card, if one is named)."""
        self.add_link(g, block_id, _own_names(env), source, env["you"])

    def respond_seat(self, g: Game, actor: int) -> int:
        """Whom the responses to a link of `actor` ask first: the player at its
        left, or the actor itself (`respond ... from last_actor`)."""
        return actor if self.respond_from_actor else g.next_seat(actor, self.respond_way)

    def pop_counter(self, g: Game, card: int, kind: str, seat: int,
                    cite: ast.Citation | None) -> None:
        """`seat` pops a counter of `kind` off the card: one it placed, or, where
        the rules do not say `popped_by placer`, any of that kind."""
        c = g.cards[card]
        entry = next((x for x in c.counters if x[0] == kind and x[1] == seat), None)
        if entry is None and not self.popped_by_placer:
            entry = next((x for x in c.counters if x[0] == kind), None)
        if entry is None:
            return
        g.take_counter(card, entry)
        spec = self.counters[kind]
        key = f"counter {kind}"
        g.usage[key] = g.usage.get(key, 0) + 1
        g.events.append(Popped(card, kind, int(seat), _text(spec.cite)))
        env = {"you": seat_of(seat), "host": card}
        if (
            spec.kind == "proactive"
            and self.has_chain
            and not (g.chain is not None and g.chain.resolving and self.pop_at_once)
        ):
            self.add_link(g, spec.body.id, env, card, seat, counter=kind)
        else:
            g.frames.append(Frame(spec.body, env))

    # keywords and events

    def _call_block(self, name: str, body: Block) -> Block:
        """A watched keyword call: reactions before it, its body unless prevented,
        reactions after it."""
        params = tuple(p.name for p in self.rs.keywords[name].params)
        return self.programs.internal(
            (ir.React(None, "would"), ir.CallBody(None, name, params),
             ir.React(None, None)),
            body.cite,
            f"keyword {name}",
        )

    def call_body(self, g: Game, f: Frame, name: str, params: tuple[str, ...]) -> int:
        """A watched keyword call's own body, with the event's fields (which a
        reaction may have changed), unless a reaction prevented it: with no frame
        of its own where it needs none (`Block.in_place`), as an unwatched call's."""
        f.pc += 1
        event = _event_of(f)
        if event.get("__prevented"):
            return PUSHED
        for p in params:
            f.env[p] = event[p]
        body = self.programs.keyword_blocks[name]
        if body.in_place is not None:
            return body.in_place(g, f.env)
        g.frames.append(Frame(body, f.env))
        return PUSHED

    def watching_call(self, g: Game, name: str) -> bool:
        """Whether a counter in play may react to a call of the keyword, before it
        or once done (see `Game.call_keyword`)."""
        return self._watching(g, ("would", name)) or self._watching(g, (None, name))

    def call_watched(self, g: Game, name: str, kenv: Env, env: Env) -> None:
        """A keyword call that abilities or counters may react to (see
        `Game.call_keyword`), its environment `kenv`, made in `env`: its event
        (its parameters, its actor the player it runs as) is made, and offered
        before and after."""
        fields = {p: kenv[p] for p in self.programs.keyword_params[name]}
        event = _event(name, fields, env, bool(kenv.get("__cost")))
        event["actor"] = kenv["you"]
        g.frames.append(Frame(self.call_blocks[name], kenv, event=event))

    def react(self, g: Game, f: Frame, timing: str | None) -> int:
        """Offer each reactive counter that watches the frame's event to the player
        who may pop it (`popper`), and run its effect if they pop it (a `React`
        statement)."""
        event = _event_of(f)
        first = f.scratch is None
        if first and timing is None and event["__name"] in self.listened:
            g.recent.append([event["__name"], _own_names(event)])
        st = f.scratch
        if st is None:
            cands = self.reactive_candidates(g, timing, event)
            if not cands:
                return NEXT
            st = f.scratch = [cands, 0]
        cands, i = st
        answer = g.take_answer()
        if answer is not None and cands[i][0] is None:
            return self._use_watch(g, f, cands[i][2], answer.kind == "yes")
        if answer is not None:
            card, kind, placer = cands[i]
            st[1] = i = i + 1
            entry = [kind, placer]
            if answer.kind == "yes" and entry in g.cards[card].counters:
                g.take_counter(card, entry)
                spec = self.counters[kind]
                g.usage[f"counter {kind}"] = g.usage.get(f"counter {kind}", 0) + 1
                popper = self.popper(g, card, placer)
                g.events.append(Popped(card, kind, popper, _text(spec.cite)))
                g.frames.append(
                    Frame(
                        spec.body,
                        {"you": seat_of(popper), "host": card, "event": event},
                        event=event,
                    )
                )
                return PUSHED
        if i >= len(cands):
            f.scratch = None
            return NEXT
        card, kind, placer = cands[i]
        if card is None:
            return self._offer_watch(g, f, placer)
        if [kind, placer] not in g.cards[card].counters:
            st[1] += 1
            return PUSHED
        spec = self.counters[kind]
        return g.ask(
            self.popper(g, card, placer),
            f"pop {spec.name} on {card_label(g.cards[card].name, card)}?",
            [_POP, _KEEP],
            cite=spec.cite,
        )

    def _offer_watch(self, g: Game, f: Frame, index: int) -> int:
        """Ask the holder of watch `index` whether to use it on the frame's event,
        if it is still held and its count allows; else go on to the next."""
        event = _event_of(f)
        found = self._watch_use(g, event, index)
        if found is None:
            f.scratch[1] += 1
            return PUSHED
        w, spec, _key, used = found
        env = w[1]
        source = env.get("this")
        whose = ("" if source is None
                 else f" of {card_label(g.cards[source].name, source)}")
        return g.ask(
            env["you"],
            f"use the effect{whose} on {event['__name']} "
            f"(used {used} of {w[2]} times)?",
            [_USE, _KEEP],
            cite=spec.cite,
        )

    def _use_watch(self, g: Game, f: Frame, index: int, yes: bool) -> int:
        """The holder's answer: on yes, the use counted and the watch's program run
        (then the same event is offered again); on no, the next candidate."""
        event = _event_of(f)
        found = self._watch_use(g, event, index) if yes else None
        if found is None:
            f.scratch[1] += 1
            return PUSHED
        w, spec, key, used = found
        uses = w[4]
        for u in uses:
            if u[0] == key:
                u[1] += 1
                break
        else:
            uses.append([key, 1])
        g.frames.append(Frame(spec.body, {**w[1], "event": event}, event=event))
        return PUSHED

    def _watch_use(self, g: Game, event: EventData, index: int
                   ) -> tuple[list[Any], WatchSpec, Any, int] | None:
        """Watch `index` as it stands for this event: (its record, its spec, the
        event's key, the uses made of that key), or None when it is no longer held
        or its count is spent for this key."""
        if index >= len(g.watches):
            return None
        w = g.watches[index]
        spec = self.programs.watch(w[0])
        key = encode(spec.key(g, {**w[1], "event": event}))
        uses = w[4]
        used = next((u[1] for u in uses if u[0] == key), None)
        if used is None:
            return (w, spec, key, 0) if len(uses) < w[3] else None
        return (w, spec, key, used) if used < w[2] else None

    def _watch_candidates(self, g: Game, event: EventData) -> list[Candidate]:
        """The watches held that wait for this event and whose condition holds, as
        candidates `(None, None, index)` (see `react`)."""
        found: list[Candidate] = []
        for i, w in enumerate(g.watches):
            spec = self.programs.watch(w[0])
            if spec.event == event["__name"] and (
                spec.cond is None or spec.cond(g, {**w[1], "event": event})
            ):
                found.append((None, None, i))
        return found

    def popper(self, g: Game, card: int, placer: int) -> int:
        """Who may pop a counter `placer` placed on the card: its placer where the
        rules say `popped_by placer`, else the controller of the card."""
        return placer if self.popped_by_placer else g.cards[card].controller

    def _hosts(self, g: Game) -> list[CardState]:
        """The cards that can carry counters: those in the counters' zone."""
        zone = g.engine.counter_zone
        if zone is None:
            return g.cards
        cards = g.cards
        return [cards[c] for p in g.players for c in p.zones.get(zone, ())]

    def _watching(self, g: Game, key: tuple[str | None, str]) -> bool:
        """Whether a counter in play may react to this event (a cheap first look:
        one of the kinds that react to it is in play)."""
        in_play = g.counters_in_play
        if not in_play:
            return False
        kinds = self.reaction_kinds.get(key)
        return kinds is not None and not in_play.keys().isdisjoint(kinds)

    def reactive_candidates(self, g: Game, timing: str | None, event: EventData
                            ) -> list[Candidate]:
        """The counters that may react to the event (`(card, kind, placer)`), then
        the watches (see `_watch_candidates`)."""
        watches = self._watch_candidates(g, event) if g.watches and timing is None \
            else []
        kinds = self.reactions.get((timing, event["__name"]))
        if not kinds or g.counters_in_play.keys().isdisjoint(kinds):
            return watches
        found: list[Candidate] = []
        for c in self._hosts(g):
            if not c.counters:
                continue
            seen = set()
            for kind, placer in c.counters:
                spec = kinds.get(kind)
                if spec is None or (kind, placer) in seen:
                    continue
                seen.add((kind, placer))
                env = {"you": seat_of(self.popper(g, c.id, placer)), "host": c.id,
                       "event": event}
                if spec.cond is None or spec.cond(g, env):
                    found.append((c.id, kind, placer))
        return found + watches

    def fire(self, g: Game, name: str, fields: dict[str, Any], env: Env,
             cite: ast.Citation | None) -> None:
        if name not in self.listened and not g.watches and (
            not g.counters_in_play or not self._watching(g, (None, name))
        ):
            return
        event = _event(name, fields, env, False)
        g.frames.append(Frame(self.fire_block, {"you": env.get("you")}, event=event))

    def note(self, g: Game, name: str, fields: dict[str, Any]) -> None:
        """Keep an event some ability is triggered by (`listened`: callers look
        first, and make nothing for one none is) as a recent event."""
        g.recent.append([name, fields])

    def fire_step(self, g: Game, timing: str, step: str) -> None:
        if self._watching(g, (timing, step)):
            event = {
                "__name": step,
                "actor": None,
                "source": None,
                "as_cost": False,
                "within": None,
                "__prevented": False,
            }
            g.frames.append(
                Frame(self.step_blocks[timing], {"you": seat_of(g.active)}, event=event)
            )

    def emit(self, g: Game, name: str, fields: dict[str, Any], env: Env,
             cite: ast.Citation | None) -> None:
        g.log(name, cite, **{k: v for k, v in fields.items()})
        player = fields.get("player")
        if isinstance(player, Seat) and hasattr(g.players[player], name):
            setattr(g.players[player], name, True)
        for cname, _cond, event, _cite in self.lose_conditions:
            if event == name and isinstance(player, Seat):
                eliminate(g, player, cname, _cite)
        for cname, _cond, event, _cite in self.end_conditions:
            if event == name:
                g.flags[f"end:{cname}"] = True
        g.dirty = True
        self.fire(g, name, fields, env, cite)

    # battles

    def call_flow(self, g: Game, flow: str, fields: dict[str, Any],
                  cite: ast.Citation | None) -> None:
        """Enter the sub-flow `flow` with its record's first values (`begin battle
        with attacker = you, ...`): nothing where the rules have no such sub-flow or
        it is under way already. Only a battle is entered so (the validator says)."""
        if flow != "battle" or not self.battle_steps or g.battle is not None:
            return
        b = g.battle = new_battle(fields["attacker"])
        for name, value in fields.items():
            setattr(b, name, value)
        g.runner.call(g, "battle")

    def after_flow(self, g: Game, flow: str, block: Block, env: Env) -> None:
        """Run `block` once the sub-flow `flow` under way ends (`after chain { ...
        }`, `after battle { ... }`), before anything else runs; at once where none
        is under way. What waits for a chain runs as it closes, the first written
        first; what waits for a battle is an activation waiting under the battle's
        (`Runner.wait`), the last written first (each may begin a battle the
        others then wait for)."""
        if flow == "chain" and g.chain is not None:
            g.after.append([block.id, env])
        elif flow == "battle" and g.battle is not None:
            g.runner.wait(g, "battle", [block.id, env])
        else:
            g.frames.append(Frame(block, env))

    def enter_waiting(self, g: Game, call: list[Any]) -> None:
        """A program that waited for the battle under way (`after_flow`): it runs
        now, as that battle is over."""
        block_id, env = call
        g.frames.append(Frame(self.programs.blocks[block_id], dict(env)))

    def passed(self, g: Game, name: str) -> bool:
        """Whether the battle under way has gone past the step or part `name` (a
        part: its first place among the steps), skipped or not."""
        at = self.places.get(name)
        if g.battle is None or at is None:
            return False
        return g.runner.past(g, "battle", *at)

    def dice_for(self, g: Game, team: list[int]) -> int:
        """The dice a team rolls: one per point of the battle section's `dice_per`
        stat of each member, none for a value below 0 (what the DSL's
        `dice_for(team)` reads)."""
        stat, cards = self.dice_per, g.cards
        total = 0  # summed by a loop: no comprehension's call
        if stat is None:  # the edition counts no battle dice by a stat
            return total
        for c in team:
            total += max(cards[c].stats.get(stat, 0), 0)
        return total

# answers that are the same at every decision of their kind (actions are immutable)
_PASS = Action("pass", None, "pass")
_POP, _KEEP = Action("yes", None, "pop"), Action("no", None, "keep")
_USE = Action("yes", None, "use")

# names an expression may read that never stand for an ability or its card
_GLOBAL = frozenset({"you", "active", "game", "chain", "battle", "players"})


# the names a counter's program and its trigger's condition read, and those of the
# endgame's conditions and criteria
_COUNTER_NAMES = {"you": PLAYER, "host": CARD, "event": EVENT}
_PLAYER_NAMES = {"you": PLAYER, "player": PLAYER}


def _event(name: str, fields: dict[str, Any], env: Env, as_cost: bool) -> EventData:
    """An event as triggers see it: its own fields and those every event has."""
    event = dict(fields)
    event.update(
        __name=name,
        actor=env.get("you"),
        source=env.get("this"),
        as_cost=as_cost,
        within=env.get("__within"),
        __prevented=False,
    )
    return event


def _reads(e: ast.Expr | None) -> set[str]:
    """The names an expression reads from where it is evaluated (the heads of its
    paths), but
    the right of `is` names a phase, type or modifier, not a value."""
    if isinstance(e, ast.Path):
        return {e.parts[0]}
    if isinstance(e, ast.Binary):
        left = _reads(e.left)
        return left if e.op == "is" else left | _reads(e.right)
    if isinstance(e, ast.Unary):
        return _reads(e.operand)
    if isinstance(e, ast.FuncCall):
        return set[str]().union(*(_reads(a) for a in e.args))
    if isinstance(e, ast.Filtered):
        return _reads(e.base) | _reads(e.cond)
    return set()


def new_battle(attacker: int) -> Battle:
    # its fields set one by one: a battle begins at most turns, and `Record`'s
    # keywords cost a dict and a `setattr` each
    b = _new_object(Battle)
    b.attacker = int(attacker)
    b.defender = None
    b.victim = None
    b.attack_team = []
    b.defense_team = []
    b.attack_dice = []
    b.defense_dice = []
    b.skipped = []
    b.forced = False
    b.cancelled = False
    b.holding = False  # in an atomic step: the state checks wait (`Runner.end_due`)
    return b



def _event_of(f: Frame) -> EventData:
    """The event a reaction's frame reads: the frames of `React` and `CallBody`
    statements are made with one (`call_watched`, `fire`, `fire_step`)."""
    event = f.event
    assert event is not None, "a reaction's frame carries its event"
    return event


def _own_names(names: dict[str, Any]) -> dict[str, Any]:
    """The names a program's environment or an event holds for the rules, without
    the engine's own (`__within`, `__cost`, `__name`...): what a link keeps, what
    a program after a resolution is given, what the rules read of a recent event."""
    return {k: v for k, v in names.items() if not k.startswith("__")}



def _criterion_expr(c: ast.Criterion) -> ast.Expr:
    """What a criterion evaluates: its condition (`keep`) or its value (`highest`);
    the grammar gives it one or the other."""
    e = c.cond if c.cond is not None else c.value
    assert e is not None, "a criterion keeps by a condition or ranks by a value"
    return e


def _text(cite: ast.Citation | None) -> str | None:
    """A rule's citation as the log writes it."""
    return None if cite is None else cite.text


def _way(rule: ast.TurnPassing | ast.ResponseOrder | None) -> int:
    """The seat step a `next_turn` or `respond` direction takes: clockwise passes
    to the left (the next seat), counterclockwise to the right."""
    return -1 if rule is not None and rule.direction == "counterclockwise" else 1


def _cite(rule: ast.Rule | None) -> ast.Citation | None:
    """A rule's citation, or None where the ruleset has no such rule."""
    return None if rule is None else rule.cite


__all__ = ["Referee"]
