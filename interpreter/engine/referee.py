"""The referee: walks an edition's flow and runs its programs at each point.

Setup steps, then turns of phases (skips, variants, the actions a phase opens
and those open at any time, which the other players may take too once the
active player ends the phase), the chain (links, response windows clockwise from
the left of the last actor until all pass in a row, last-in-first-out
resolution), battles (the edition's steps and their operations), reactive
counters and card abilities that watch events, and the end of the game. Every
piece comes from the ruleset; the referee holds the compiled programs and the
order in which they run. The game's position in the flow is `game.node`, named
as in the flow graph (`phase:draw`, `battle:attack_formation`, `chain:respond`).
What a player may do at each decision is listed by its part in `listing.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from kotc.compiler import ir
from kotc.compiler.listing import (
    CompiledAction,
    Listing,
    reference_window,
    trigger_table,
)
from kotc.compiler.lower import CARD, EVENT, PLAYER, param_kind
from kotc.dsl import ast
from kotc.flowgraph.build import compile_ruleset
from kotc.runtime.actions import Action, Decision
from kotc.runtime.events import (
    Acted,
    Activated,
    FirstPlayer,
    GameOver,
    Linked,
    Performed,
    PhaseBegan,
    PhaseSkipped,
    Popped,
    Resolving,
    RolledOff,
    StepSkipped,
    TurnBegan,
    TurnLost,
)
from kotc.runtime.state import Battle, Chain
from kotc.runtime.values import AbilityRef, Seat, card_label, seat_of
from kotc.runtime.vm import NEXT, PUSHED, WAIT, Block, Frame
from kotc.runtime.vm import run as run_frames

from .primitives import eliminate
from .trace import FlowTables

_new_object = object.__new__


@dataclass(slots=True)
class CompiledPhase:
    phase: ast.Phase
    skips: list
    variants: list  # (condition, block)
    run: Block
    node: str  # its name in the flow graph
    end: Action  # the answer that ends its window
    # the actions its window offers (those it opens, those open any time) that this
    # game's cards may bind; `window`: whether it offers any as written (it then
    # asks, if only to end it)
    offers: tuple
    name: str
    window: bool
    # the actions offered before the program runs (`opens ... throughout`), and
    # the answer that goes on to the program
    first: tuple = ()
    go_on: Action | None = None
    # what its decisions and its log read: the prompt, the rule asking, the text
    # of the phase's citation, and the prompt of the others' window at its end
    label: str = ""
    asking: ast.Citation | None = None
    cite_text: str | None = None
    others_prompt: str = ""
    # whether it has a program to run (a variant, or statements of its own)
    runs: bool = False
    # its nodes in the flow graph, where play stands at each stage (see
    # `flowgraph.build`): the window before its program (None: it has none), the
    # node of its usual program and of each variant's (None: play stays where it
    # is, with nothing to run), its window and the others' window (None: none)
    before_node: str | None = None
    run_node: str | None = None
    variant_nodes: tuple = ()
    window_node: str = ""
    others_node: str | None = None


@dataclass
class CompiledCounter:
    name: str
    kind: str
    trigger: ast.Trigger | None
    cond: Any
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
        "first_own", "_windows", "actions", "answers", "anytime",
        "anytime_cite", "battle_cite", "battle_steps", "call_blocks", "card_types",
        "flow_tables", "has_renew", "step_window_nodes",
        "chain_offer", "chaining", "concessions", "counters", "criteria",
        "decision_limit_cite", "dice_per",
        "end_checks", "end_conditions", "engine", "fire_block",
        "has_chain", "hidden_zones", "joined",
        "link_block", "link_cite", "link_text", "listened", "lose_checks",
        "lose_conditions", "modifiers", "new_chain",
        "others_gate", "others_offer", "param_names", "per_phase", "phases", "places",
        "pop_at_once", "respond_way", "setup_from_first", "turn_way",
        "programs", "reaction_kinds", "reactions", "resolve_cite", "resolve_text",
        "resource_zones", "respond_cite", "rs", "setup", "standard",
        "standard_per_player", "step_blocks", "step_cite", "step_gate", "step_offer",
        "step_windows", "steps", "steps_count", "steps_run",
        "turn_cite", "turn_limit_cite", "turn_text",
        "popped_by_placer", "unbindable", "used_by_last", "zone_names",
    )

    def __init__(self, engine):
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
        self.phases = []
        for ph in rs.phases:
            skips = [P.expr(s.cond) for s in ph.skips]
            variants = [
                (P.expr(v.cond), P.block(v.body, v.cite or ph.cite, f"phase {ph.name}"))
                for v in ph.variants
            ]
            run_block = P.block(ph.run, ph.run_cite or ph.cite, f"phase {ph.name}")
            self.phases.append(
                CompiledPhase(
                    ph,
                    skips,
                    variants,
                    run_block,
                    f"phase:{ph.name}",
                    Action("end", None, f"end the {ph.label}"),
                    tuple(dict.fromkeys(tuple(ph.opens) + self.anytime)),
                    ph.name,
                    bool(ph.opens or self.anytime),
                    ph.opens_first,
                    Action("end", None, f"go on with the {ph.label}"),
                    ph.label,
                    ph.opens_cite or ph.cite,
                    None if ph.cite is None else ph.cite.text,
                    f"act before the {ph.label} ends",
                    bool(variants or run_block.stmts),
                )
            )
        chaining = rs.setting("chain", "chaining")
        self.chaining = tuple(chaining.actions) if chaining else ()
        # what the turn, chain links, responses and resolution cite in the log
        self.turn_cite = _cite(rs.setting("turn", "next_turn"))
        # which way turns and chain responses pass (`next_turn`, `respond`)
        self.turn_way = _way(rs.setting("turn", "next_turn"))
        self.respond_way = _way(rs.setting("chain", "respond"))
        self.link_cite = _cite(chaining)
        self.respond_cite = _cite(rs.setting("chain", "respond"))
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
        self.reactions: dict[tuple, dict[str, CompiledCounter]] = {}
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
            (c.name, c.keep, P.expr(c.cond if c.keep else c.value, _PLAYER_NAMES),
             c.cite)
            for c in rs.criteria
        ]
        # what `check_end` reads: the conditions to evaluate, and the flag an end
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
        # the windows offer only what may be bound
        self.phases = [
            replace(p, offers=self._bindable(p.offers), first=self._bindable(p.first))
            for p in self.phases
        ]
        # the flow graph, whose nodes play stands at, and its tables for traces
        flow = compile_ruleset(rs)
        self.flow_tables = FlowTables(flow)
        self.phases = [_phase_nodes(p, flow) for p in self.phases]
        self.has_renew = "chain:renew" in flow
        # the lists the game keeps per phase (`keep victims per phase`)
        self.per_phase = tuple(rs.kept_lists)
        # the window after each battle step, where play stands while it is open
        self.step_window_nodes = tuple(
            f"battle:{s.name}/window" for s in rs.battle_steps)
        # what players other than the active one may take at a phase's end: the
        # actions open at any time, but for giving the game up (see `_others_window`)
        self.others_offer = self._bindable(
            a for a in self.anytime if a not in self.concessions
        )
        self.anytime_cite = anytime.cite if anytime else None
        self.others_gate = self._counter_gate(self.others_offer)
        # what the windows between battle steps offer: the chaining actions where
        # the battle section opens such windows, and what is open at any time
        chaining = self.chaining if self.step_windows is not None else ()
        self.step_offer = self._bindable(dict.fromkeys(chaining + self.others_offer))
        self.step_cite = self.step_windows.cite if chaining else self.anytime_cite
        self.step_gate = self._counter_gate(self.step_offer)
        self.chain_offer = self._bindable(self.chaining)
        # what takes the flow one step, by the kind of the task on top of the game's
        # stack (`["phase", i, stage]` runs `_task_phase`)
        self.steps = {
            name[6:]: getattr(self, name) for name in dir(self) if name[:6] == "_task_"
        }
        self.answers = {
            name[8:]: getattr(self, name) for name in dir(self) if name[:8] == "_answer_"
        }
        self.turn_limit_cite = ast.Citation("Endgame", "a safety limit on turns", rs.name)
        self.decision_limit_cite = ast.Citation(
            "Endgame", "a safety limit on decisions", rs.name
        )

    def _bindable(self, names) -> tuple:
        """The actions named that this game's cards may ever bind, in order."""
        return tuple(a for a in names if a not in self.unbindable)

    def _action(self, a: ast.Action) -> CompiledAction:
        """An action: its listing plan, its expressions as functions, its effect."""
        P = self.programs
        env = {"you": PLAYER, **{p.name: param_kind(p.type, P.card_types)
                                 for p in a.params}}
        plan = P.lowering.action_plan(a)

        def fn(form):
            return None if form is None else P.fn(form, f"action {a.name}")

        return CompiledAction(
            plan,
            a.name,
            a.label,
            a.params,
            [fn(p.source) for p in plan.params],
            fn(plan.requires),
            P.block(a.body, a.cite, f"action {a.name}", env),
            [(kind, fn(amount)) for kind, amount in plan.costs],
            plan.resolves,
            a.cite,
            [fn(p.check) for p in plan.params] or [None],
            a.requires,
            Action("act", (a.name, ()), a.name),
            counter_kinds=plan.counter_kinds,
        )

    def _window(self, names: tuple):
        """The function listing these actions (see `Listing.options`), made once:
        the reference listing, or a function written for the window."""
        if self.programs.backend == "reference":
            window = reference_window(self, names)
        else:
            window = self.programs.window(self, [self.actions[n] for n in names])
        self._windows[names] = window
        return window

    def _counter_gate(self, names) -> frozenset | None:
        """When every action named takes a counter off a card: the kinds any of them
        may take (a window offering only these has nothing to offer while none
        is in play). None: some action named takes none."""
        kinds = [self.actions[a].counter_kinds for a in names]
        if not kinds or None in kinds:
            return None
        return frozenset().union(*kinds)

    def _battle_settings(self, rs) -> None:
        s = lambda name: rs.setting("battle", name)  # noqa: E731
        self.dice_per = s("dice_per").stat if s("dice_per") else None
        record = rs.battle_record
        self.battle_cite = record.cite if record else None
        self.step_windows = s("step_windows")
        # the steps that happen at once with the step after them: the game's end
        # waits until the last of them is done (as it waits for each step's end)
        together = s("simultaneous_steps")
        order = [step.name for step in rs.battle_steps]
        self.joined = frozenset(
            order.index(step) for step in (together.steps[:-1] if together else ())
        )
        parts = rs.battle_parts
        # what the battle task reads of each step: its name, the functions of its
        # parts and how many, its citation, its node, and whether it happens at
        # once with the step after it
        self.steps_run = [
            (s.name, tuple(self._part(s, parts[op]) for op in s.ops),
             len(s.ops), s.cite, f"battle:{s.name}", i in self.joined)
            for i, s in enumerate(rs.battle_steps)
        ]
        self.steps_count = len(self.steps_run)
        # where each step and part is among the steps (`passed`): (step, part)
        # indexes, a step's part None; a part at its first place
        self.places: dict[str, tuple[int, int | None]] = {}
        for i, step in enumerate(rs.battle_steps):
            self.places[step.name] = (i, None)
            for k, op in enumerate(step.ops):
                self.places.setdefault(op, (i, k))

    # --- the flow ----------------------------------------------------------------------

    # setup

    def _task_setup(self, g, task: list) -> None:
        if task[1] >= len(self.setup):
            g.tasks[-1] = ["turn"]
            return
        step, block = self.setup[task[1]]
        g.stand(f"setup:{step.name}")
        if step.first_player_dice:
            g.first_player = self._roll_off(g, step)
            task[1] += 1
            return
        start = g.first_player if self.setup_from_first else 0
        order = [(start + i) % len(g.players) for i in range(len(g.players))]
        if task[2] >= len(order):
            task[1], task[2] = task[1] + 1, 0
            return
        seat = order[task[2]]
        task[2] += 1
        g.frames.append(Frame(block, {"you": seat_of(seat)}))

    def _roll_off(self, g, step) -> int:
        contenders = list(range(len(g.players)))
        while True:
            # ties roll again: each round is work of the step, bounded (dice that
            # always tie, as a chance policy may give, end as an error, not a hang)
            g.engine.bounds.check_work(g, len(contenders), step.cite)
            totals = {
                s: sum(g.rng.roll() for _ in range(step.first_player_dice))
                for s in contenders
            }
            best = max(totals.values())
            contenders = [s for s, t in totals.items() if t == best]
            g.events.append(RolledOff(totals, _text(step.cite)))
            if len(contenders) == 1:
                g.events.append(FirstPlayer(contenders[0], _text(step.cite)))
                return contenders[0]

    # turns and phases

    def _task_turn(self, g, task: list) -> None:
        g.stand("turn:start")
        if g.turn >= g.max_turns:  # the game ends on the last turn played
            g.flags["end:turn_limit"] = True
            self.finish(g, "turn limit", self.turn_limit_cite)
            return
        if g.turn == 0:
            g.turn, g.active = 1, g.first_player
        else:
            g.turn += 1
            g.active = g.next_seat(g.active, self.turn_way)
        g.events.append(TurnBegan(g.turn, g.active, self.turn_text))
        g.tasks[-1] = phase = ["phase", 0, "begin"]
        if not g.dirty:  # the first phase begins at once, as the run loop would
            self._task_phase(g, phase)

    def _task_phase(self, g, task: list) -> None:
        """A phase's stages: `begin` (skips), `before` (the window before the
        program, where the phase opens actions `throughout`), `run` (the program:
        the usual one or a variant), `window`, `others`. Most often its window
        again, once an action taken in it is done: looked for first. (A loop: the
        next phase begins in it when nothing comes between.) Play stands at the
        stage's node of the flow graph (`CompiledPhase`); a traced game records
        each move (`Game.stand`)."""
        while True:
            i = task[1]
            try:
                ph = self.phases[i]
            except IndexError:  # the last phase is over: the next turn, at once
                g.tasks[-1] = turn = ["turn"]
                if not g.dirty:
                    self._task_turn(g, turn)
                return
            stage = task[2]
            if stage == "window":
                g.node = ph.window_node
                break
            if stage == "others":
                # Once the active player ends a phase, each other player in turn
                # from their left may take the actions open at any time (the rules
                # let them: "during any phase of any player's turn"), until they
                # pass; the phase then ends. Giving the game up is not among them
                # (`Ruleset.concessions`). A player with nothing to take passes
                # without being asked. `task[3]` counts seats from the active player.
                g.stand(ph.others_node)
                k = self._ask_others(g, task[3], self.others_offer, ph.others_prompt,
                                     "phase", self.anytime_cite)
                if k is not None:
                    task[3] = k
                    return
                task[1:] = [i + 1, "begin"]  # the count of seats goes
                if g.dirty:
                    return
                # nobody asked, nothing pushed and no end to look for: the next
                # phase begins at once, as the run loop would begin it
                continue
            if stage == "begin":
                # the phase and the step (none) only as the phase begins: they hold
                # until then
                g.stand(ph.node)
                g.phase, g.step = ph.name, ""
                for name in self.per_phase:  # the lists kept per phase
                    setattr(g, name, [])
                g.recent = []
                if ph.skips:
                    env = {"you": seat_of(g.active)}
                    for skip in ph.skips:
                        if skip(g, env):
                            phase = ph.phase
                            g.events.append(PhaseSkipped(
                                ph.name, _text(phase.skips[0].cite or phase.cite)))
                            task[1], task[2] = i + 1, "begin"
                            return
                g.events.append(PhaseBegan(ph.name, g.active, ph.cite_text))
                if ph.first:
                    stage = task[2] = "before"
                # else the program runs at once (`run`: nothing reads the stage
                # before it is the window's)
            if stage == "before":
                g.stand(ph.before_node)
                # nobody is asked only to go on: with nothing to take, the
                # program runs
                options = self.options(g, g.active, ph.first)
                if options:
                    options.append(ph.go_on)
                    g.decision = Decision(
                        g.active, ph.label, options, "phase", ph.asking
                    )
                    return
                task[2] = "run"
            # the program (`run`)
            task[2] = "window"
            if ph.runs:
                env = {"you": seat_of(g.active)}
                block = ph.run
                node = ph.run_node
                for k, (cond, variant) in enumerate(ph.variants):
                    if cond(g, env):
                        block = variant
                        node = ph.variant_nodes[k]
                        break
                if node is not None:
                    g.stand(node)
                if block.stmts:
                    g.frames.append(Frame(block, env))
                    # run here, as the run loop would run it next; the window
                    # then opens at once when nothing else must happen first
                    if (
                        run_frames(g) == WAIT
                        or g.dirty
                        or g.is_over
                        or g.tasks[-1] is not task
                    ):
                        return
            if g.dirty:  # the end is looked for before the window opens
                return
            break
        if not ph.window:
            task[1], task[2] = i + 1, "begin"
            return
        g.stand(ph.window_node)
        options = self.options(g, g.active, ph.offers)
        options.append(ph.end)
        g.decision = Decision(g.active, ph.label, options, "phase", ph.asking)

    def _ask_others(self, g, k: int, offer: tuple, prompt: str, resume: str,
                    cite) -> int | None:
        """Ask the first player, from the `k`th seat after the active player on,
        who is still in the game and has something in `offer` to take (or pass);
        its `k`, or None when nobody has (nobody is asked only to pass)."""
        players = g.players
        n = len(players)
        active = g.active
        while k < n:
            seat = (active + k) % n
            if not players[seat].eliminated:
                options = self.options(g, seat, offer)
                if options:
                    options.append(_PASS)
                    g.decision = Decision(int(seat), prompt, options, resume, cite)
                    return k
            k += 1
        return None

    @staticmethod
    def _gate_open(g, gate: frozenset | None) -> bool:
        """Whether a window gated on these kinds of counters (`_counter_gate`) may
        offer anything: some counter of them is in play (None: no gate)."""
        in_play = g.counters_in_play
        return gate is None or bool(in_play) and not in_play.keys().isdisjoint(gate)

    def _answer_phase(self, g, task: list, action: Action) -> None:
        """An answer in the window before the program (`before`), the phase's window
        or the others' at its end: an action to take, the end of the window (the
        others' window offers no end), or a pass of another player."""
        kind = action.kind
        if kind == "end":
            if task[2] == "before":  # on with the program
                task[2] = "run"
                return
            # other players may be offered something (no counters in play rules
            # out the actions that take one: `_gate_open`, written out, and looked
            # at first, as where there is a gate it most often rules them out)
            gate, in_play = self.others_gate, g.counters_in_play
            if (
                (gate is None or in_play and not in_play.keys().isdisjoint(gate))
                and self.others_offer
                and len(g.players) > 1
            ):
                task[2:] = ["others", 1]
                return
            task[1], task[2] = task[1] + 1, "begin"
        elif task[2] != "others":
            self.take(g, g.active, action)
        elif kind == "pass":
            task[3] += 1
        else:
            self.take(g, (g.active + task[3]) % len(g.players), action)

    # actions

    def take(self, g, seat: int, action: Action) -> None:
        name, args = action.value
        act = self.actions[name]
        env = {"you": seat_of(seat)}
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

    def perform_choices(self, g, name: str, values: list, mods: tuple, seat: int) -> list:
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
        self, g, name: str, args: tuple, mods: tuple, seat: int, env: dict
    ) -> None:
        act = self.actions[name]
        inner = {"you": seat_of(seat)}
        for p, a in zip(act.params, args, strict=False):
            inner[p.name] = a
        if "free" in mods:
            inner["__free"] = True
        if "inline" in mods or env.get("__inline"):
            inner["__inline"] = True
        g.events.append(Performed(seat, name, _text(act.cite)))
        g.frames.append(Frame(act.body, inner))

    def perform(self, g, name, values, mods, seat, cite, env) -> None:
        self.push_action(g, name, tuple(values), mods, seat, env)

    # abilities, counters and the chain

    def resolve(self, g, what: Any, env: dict, cite, then: Block | None = None) -> None:
        """Activate an ability: its cost and (where the rules say so) its targets
        now, then its resolution, as a chain link or at once (inline); `then`, with
        the activating program's names, once it has resolved, its link was negated,
        or the activation failed."""
        # an ability, or a card for its first ability (no AbilityRef made for it)
        card, index = what if isinstance(what, AbilityRef) else (what, 0)
        abilities = g.engine.abilities.get(g.cards[card].design)
        after = None
        if then is not None:
            after = [then.id, {k: v for k, v in env.items() if k[:2] != "__"}]
        if not abilities:
            if after is not None:
                g.frames.append(Frame(then, dict(after[1])))
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
            if after is not None:  # under the resolution: it runs next
                g.frames.append(Frame(then, dict(after[1])))
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

    def make_link(self, g, f: Frame) -> None:
        """The link an activation makes (the `link_block`'s statement)."""
        env = {k: v for k, v in f.env.items() if not k.startswith("__")}
        self.add_link(
            g, f.env["__block"], env, f.env["__source"], f.env["you"], f.env.get("__then")
        )

    def add_link(
        self, g, block_id: int, env: dict, source: Any, actor: int, then=None,
        counter: str | None = None,
    ) -> None:
        actor = int(actor)
        link = {
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
            ch.asking = g.next_seat(actor, self.respond_way)
            ch.passes = 0
            ch.resolving = False
            g.tasks.append(["chain"])
            g.stand("chain:open")
        else:
            links = ch.links
            links.append(link)
            ch.last_actor = actor
            ch.asking = g.next_seat(actor, self.respond_way)
            ch.passes = 0
        g.events.append(Linked(actor, len(ch.links), self.link_text))

    def _task_chain(self, g, task: list) -> None:
        ch = g.chain
        if ch.resolving:
            if g.node != "chain:resolve":
                key = f"chain length {len(ch.links)}"
                g.usage[key] = g.usage.get(key, 0) + 1
            g.node = "chain:resolve"  # each time: a traced game records each node set
            trace = g.trace
            links = ch.links
            if trace is not None:  # into the stack, or round it for the next link
                trace.move("chain:resolve", None if trace.at != "chain:resolve"
                           or not links else "resolve")
            if links:
                link = links.pop()
                g.events.append(Resolving(len(links) + 1, link["actor"],
                                          self.resolve_text))
                then = link["then"]
                blocks = self.programs.blocks
                if then is not None:  # after the resolution, negated or not
                    g.frames.append(Frame(blocks[then[0]], dict(then[1])))
                if not link["negated"]:
                    g.frames.append(Frame(blocks[link["block"]], dict(link["env"])))
                return
            g.chain = None
            g.tasks.pop()
            g.stand("chain:close")
            if self.new_chain is not None and g.tasks and g.tasks[-1][0] == "phase":
                g.tasks.append(["renew", 1])  # after what the chain leaves to do
            for block_id, env in reversed(g.after):
                g.frames.append(Frame(self.programs.blocks[block_id], env))
            g.after = []
            return
        g.stand("chain:respond")
        options = self.options(g, ch.asking, self.chain_offer)
        options.append(_PASS)
        g.decision = Decision(
            ch.asking, "respond to the chain", options, "chain", self.respond_cite
        )

    def _answer_chain(self, g, task: list, action: Action) -> None:
        ch = g.chain
        if action.kind == "pass":
            ch.passes += 1
            if ch.passes >= len(g.in_game):
                ch.resolving = True
            else:
                ch.asking = g.next_seat(ch.asking, self.respond_way)
            return
        self.take(g, ch.asking, action)

    def _task_renew(self, g, task: list) -> None:
        """Once a chain has resolved in a phase, each player other than the active
        one, in turn from its left, may start a new chain (a player with no
        chaining action to take is not asked); the active player then goes on in
        its own window. `task[1]` counts seats from the active player."""
        g.stand("chain:renew")
        k = self._ask_others(g, task[1], self.chain_offer, "start a new chain", "renew",
                             self.new_chain.cite)
        if k is None:
            g.tasks.pop()
        else:
            task[1] = k

    def _answer_renew(self, g, task: list, action: Action) -> None:
        if action.kind == "pass":
            task[1] += 1
            return
        g.tasks.pop()  # the new chain asks again once it has resolved
        self.take(g, (g.active + task[1]) % len(g.players), action)

    def pop_counter(self, g, card: int, kind: str, seat: int, cite) -> None:
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

    def call_body(self, g, f: Frame, name: str, params: tuple) -> int:
        """A watched keyword call's own body, with the event's fields (which a
        reaction may have changed), unless a reaction prevented it."""
        f.pc += 1
        if f.event.get("__prevented"):
            return PUSHED
        for p in params:
            f.env[p] = f.event[p]
        g.frames.append(Frame(self.programs.keyword_blocks[name], f.env))
        return PUSHED

    def watching_call(self, g, name: str) -> bool:
        """Whether a counter in play may react to a call of the keyword, before it
        or once done (see `Game.call_keyword`)."""
        return self._watching(g, ("would", name)) or self._watching(g, (None, name))

    def call_watched(self, g, name: str, fields: dict, env: dict, kenv: dict) -> None:
        """A keyword call that abilities or counters may react to (see
        `Game.call_keyword`): its event is made, and offered before and after."""
        event = _event(name, fields, env, bool(kenv.get("__cost")))
        g.frames.append(Frame(self.call_blocks[name], kenv, event=event))

    def react(self, g, f: Frame, timing: str | None) -> int:
        """Offer each reactive counter that watches the frame's event to the player
        who may pop it (`popper`), and run its effect if they pop it (a `React`
        statement)."""
        event = f.event
        first = f.scratch is None
        if first and timing is None and event["__name"] in self.listened:
            g.recent.append([event["__name"], _visible(event)])
        st = f.scratch
        if st is None:
            cands = self.reactive_candidates(g, timing, event)
            if not cands:
                return NEXT
            st = f.scratch = [cands, 0]
        cands, i = st
        answer = g.take_answer()
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

    def popper(self, g, card: int, placer: int) -> int:
        """Who may pop a counter `placer` placed on the card: its placer where the
        rules say `popped_by placer`, else the controller of the card."""
        return placer if self.popped_by_placer else g.cards[card].controller

    def _hosts(self, g):
        """The cards that can carry counters: those in the counters' zone."""
        zone = g.engine.counter_zone
        if zone is None:
            return g.cards
        cards = g.cards
        return [cards[c] for p in g.players for c in p.zones.get(zone, ())]

    def _watching(self, g, key: tuple) -> bool:
        """Whether a counter in play may react to this event (a cheap first look:
        one of the kinds that react to it is in play)."""
        in_play = g.counters_in_play
        if not in_play:
            return False
        kinds = self.reaction_kinds.get(key)
        return kinds is not None and not in_play.keys().isdisjoint(kinds)

    def reactive_candidates(self, g, timing, event: dict) -> list:
        kinds = self.reactions.get((timing, event["__name"]))
        if not kinds or g.counters_in_play.keys().isdisjoint(kinds):
            return []
        found = []
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
        return found

    def fire(self, g, name: str, fields: dict, env: dict, cite) -> None:
        if name not in self.listened and (
            not g.counters_in_play or not self._watching(g, (None, name))
        ):
            return
        event = _event(name, fields, env, False)
        g.frames.append(Frame(self.fire_block, {"you": env.get("you")}, event=event))

    def note(self, g, name: str, fields: dict) -> None:
        """Keep an event some ability is triggered by (`listened`: callers look
        first, and make nothing for one none is) as a recent event."""
        g.recent.append([name, fields])

    def fire_step(self, g, timing: str, step: str) -> None:
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

    def emit(self, g, name: str, fields: dict, env: dict, cite) -> None:
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

    def call_flow(self, g, flow: str, fields: dict, cite) -> None:
        """Enter the sub-flow `flow` with its record's first values (`begin battle
        with attacker = you, ...`): nothing where the rules have no such sub-flow or
        it is under way already. Only a battle is entered so (the validator says)."""
        if flow != "battle" or not self.battle_steps or g.battle is not None:
            return
        b = g.battle = new_battle(fields["attacker"])
        for name, value in fields.items():
            setattr(b, name, value)
        g.tasks.append(["battle", 0, "begin"])

    def after_flow(self, g, flow: str, block: Block, env: dict) -> None:
        """Run `block` once the sub-flow `flow` under way ends (`after chain { ...
        }`, `after battle { ... }`), before anything else runs; at once where none
        is under way. What waits for a chain runs as it closes, the first written
        first; what waits for a battle is a task under the battle's, the last
        written first (each may begin a battle the others then wait for)."""
        if flow == "chain" and g.chain is not None:
            g.after.append([block.id, env])
        elif flow == "battle" and g.battle is not None:
            under_way = max(i for i, t in enumerate(g.tasks) if t[0] == "battle")
            g.tasks.insert(under_way, ["after", block.id, env])
        else:
            g.frames.append(Frame(block, env))

    def _task_after(self, g, task: list) -> None:
        """A program that waited for a sub-flow (`after_flow`): it runs now, as
        that sub-flow is over."""
        g.tasks.pop()
        g.frames.append(Frame(self.programs.blocks[task[1]], dict(task[2])))

    def passed(self, g, name: str) -> bool:
        """Whether the battle under way has gone past the step or part `name` (a
        part: its first place among the steps), skipped or not."""
        task = next((t for t in reversed(g.tasks) if t[0] == "battle"), None)
        at = self.places.get(name)
        if g.battle is None or task is None or at is None:
            return False
        step, index = at
        _, i, stage = task
        return i > step or i == step and (
            stage in ("after", "window")
            or index is not None and stage == "ops" and g.battle.op > index)

    def _task_battle(self, g, task: list) -> None:
        """The battle's steps, stage by stage, until something else must happen
        first: a frame to run, a decision, a look at the end, another task.

        Only the operations run effects, and only their end lets the game's end
        be looked for (it sets `holding`): after them, all that stops the steps is
        looked at; after any other stage, only what that stage may change (a frame
        `fire_step` pushed, a decision, the next step). The end is never due as a
        pass begins: the run loop looked for it, or the last pass did."""
        b = g.battle
        steps, n = self.steps_run, self.steps_count
        while True:
            i = task[1]
            if i >= n or b.cancelled:
                g.battle = None
                g.step = ""
                g.tasks.pop()
                g.stand("battle:end")
                g.log("battle_end", self.battle_cite)
                return
            name, ops, count, cite, node, joined = steps[i]
            # the passes through this step, until the next begins (or the battle is
            # cancelled): what they read of the step is read once
            while True:
                # set on each pass; the step only as it begins: it holds until the
                # next begins
                stage = task[2]
                g.stand(self.step_window_nodes[i] if stage == "window" else node)
                if stage == "ops":  # most often
                    op = b.op
                    if op < count:
                        if ops[op](g, b, cite):
                            b.op = op + 1
                            b.stage = 0
                    else:
                        task[2] = "after"
                        b.holding = joined
                        if g.counters_in_play:  # what `fire_step` looks for first
                            self.fire_step(g, "after", name)
                    # a change the end reads makes no trip back through the run
                    # loop while a step holds it (`end_due`, which reads `dirty`
                    # first: here, with no call while it is false)
                    if (
                        g.decision is not None
                        or g.frames
                        or g.dirty and self.end_due(g)
                        or g.is_over
                        or g.tasks[-1] is not task
                    ):
                        return
                    if b.cancelled:
                        break
                elif stage == "begin":
                    g.step = name
                    if name in b.skipped:
                        g.events.append(StepSkipped(name, _text(cite)))
                        task[1] += 1
                        break
                    task[2] = "ops"
                    b.op, b.holding = 0, True
                    if g.counters_in_play:
                        self.fire_step(g, "before", name)
                        if g.frames:
                            return
                elif (
                    stage == "after"
                    and self.step_offer
                    and self._gate_open(g, self.step_gate)
                ):
                    task[2] = "window"
                    b.asking, b.passes = b.attacker, 0
                elif stage != "window" or self._step_window(g, b):
                    task[1], task[2] = i + 1, "begin"
                    break
                else:  # a player is asked in the window
                    return

    def _step_window(self, g, b) -> bool:
        """After a battle step, each player in turn from the attacker may take a
        chaining action (where the battle section opens windows) or one open at any
        time; True once all have passed in a row. A player with nothing to take
        passes without being asked."""
        players = len(g.in_game)
        while b.passes < players:
            options = self.options(g, b.asking, self.step_offer)
            if options:
                options.append(_PASS)
                g.decision = Decision(
                    b.asking, "act between battle steps", options, "battle",
                    self.step_cite,
                )
                return False
            b.passes += 1
            b.asking = g.next_seat(b.asking)
        return True

    def _answer_battle(self, g, task: list, action: Action) -> None:
        b = g.battle
        if task[2] != "window":
            b.answer = action
            return
        if action.kind == "pass":
            b.passes += 1
            b.asking = g.next_seat(b.asking)
            return
        seat = b.asking
        b.passes, b.asking = 0, g.next_seat(seat)
        self.take(g, seat, action)

    def dice_for(self, g, team: list) -> int:
        """The dice a team rolls: one per point of the battle section's `dice_per`
        stat of each member, none for a value below 0 (what the DSL's
        `dice_for(team)` reads)."""
        stat, cards = self.dice_per, g.cards
        total = 0  # summed by a loop: no comprehension's call
        for c in team:
            total += max(cards[c].stats.get(stat, 0), 0)
        return total

    def _part(self, step: ast.BattleStep, part: ast.BattlePart):
        """What runs a part of a battle step: its program, under the step's
        citation, with the attacking player as `you`, in a frame of its own; the
        part is done once that frame has run."""
        block = self.engine.programs.flow_block(
            "battle", part.body, step.cite, f"battle {step.name}: {part.name}")

        def run_part(g, b, cite) -> bool:
            if b.stage == 0:
                b.stage = 1
                g.frames.append(Frame(block, {"you": seat_of(b.attacker)}))
                return False
            return True

        return run_part

    # the end

    @staticmethod
    def end_due(g) -> bool:
        """Whether the game's end is to be looked for now: something it reads
        changed (`dirty`), and no battle step holds it (see `check_end`)."""
        return g.dirty and (g.battle is None or not g.battle.holding)

    def check_end(self, g) -> None:
        """Look for the game's end once something it reads changed (`dirty`), but
        not in the middle of what happens at once (a battle step): both players of
        a battle may reach 0 HP in it."""
        if g.is_over or not self.end_due(g):
            return
        g.dirty = False
        trace = g.trace
        for name, cond, cite in self.lose_checks:
            # the seats as they were: one eliminated is not looked at again
            for s in g.in_game:
                if cond(g, {"player": s, "you": s}):
                    if trace is not None:  # the check found a player out
                        trace.move(CHECK)
                        trace.move(LOSE)
                        trace.move(CHECK, "recheck")
                    eliminate(g, s, name, cite)
        env = {"you": seat_of(g.active)}
        flags = g.flags
        for name, flag, cond, cite in self.end_checks:
            if flags.get(flag) or (cond is not None and cond(g, env)):
                self.finish(g, name, cite)
                return
        if g.turn > 0 and g.players[g.active].eliminated:  # not in the setup
            self._turn_lost(g)
        elif trace is not None and trace.at == CHECK:  # play goes on where it was
            trace.move(g.node, "resume")

    def _turn_lost(self, g) -> None:
        """The active player is out of the game: it can no longer affect it, so what
        was under way in its turn is dropped, and the next player's turn begins."""
        if g.trace is not None:
            g.trace.move(CHECK)
        g.frames, g.after, g.tasks = [], [], [["turn"]]
        g.chain = g.battle = g.decision = None
        g.step = ""
        g.events.append(TurnLost(g.active, _text(self.turn_cite)))

    def finish(self, g, why: str, cite) -> None:
        if g.is_over:
            return
        remaining = [seat_of(p.seat) for p in g.players]
        decided = None
        for name, keep, ev, _cite in self.criteria:
            if keep:
                kept = [s for s in remaining if ev(g, {"player": s, "you": s})]
            else:
                values = {s: ev(g, {"player": s, "you": s}) for s in remaining}
                best = max(values.values(), default=0)
                kept = [s for s in remaining if values[s] == best]
            if kept:
                remaining = kept
            if len(remaining) == 1:
                decided = name
                break
        g.is_over = True
        g.decision = None
        trace = g.trace
        if trace is not None:
            if why == "turn limit":  # from the start of a turn
                trace.move(GAME_OVER, "over")
            elif trace.ends_by_action(GAME_OVER):  # the action taken ends the game
                trace.move(GAME_OVER)
            else:  # from the check: a condition met, or the decisions' limit
                trace.move(CHECK)
                trace.move(GAME_OVER, "over" if why == "decision limit" else "end")
        g.node = GAME_OVER
        g.outcome = {
            "winner": int(remaining[0]) if len(remaining) == 1 else None,
            "tied": [int(s) for s in remaining] if len(remaining) > 1 else [],
            "criterion": decided,
            "condition": why,
        }
        g.events.append(GameOver(**g.outcome, cite=_text(cite)))


# the nodes of the game's end in the flow graph (see `flowgraph.build`)
CHECK, LOSE, GAME_OVER = "endgame:check", "endgame:lose", "game_over"

# answers that are the same at every decision of their kind (actions are immutable)
_PASS = Action("pass", None, "pass")
_POP, _KEEP = Action("yes", None, "pop"), Action("no", None, "keep")

# names an expression may read that never stand for an ability or its card
_GLOBAL = frozenset({"you", "active", "game", "chain", "battle", "players"})


# the names a counter's program and its trigger's condition read, and those of the
# endgame's conditions and criteria
_COUNTER_NAMES = {"you": PLAYER, "host": CARD, "event": EVENT}
_PLAYER_NAMES = {"you": PLAYER, "player": PLAYER}


def _event(name: str, fields: dict, env: dict, as_cost: bool) -> dict:
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


def _reads(e) -> set[str]:
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
        return set().union(*(_reads(a) for a in e.args))
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
    b.holding = False  # in what happens at once: the end waits (`check_end`)
    b.op = 0
    b.stage = 0
    b.answer = None
    # the members the enlisting step under way has still to place (see
    # `_enlist_step`); None between enlisting steps
    b.unplaced = None
    return b


def _phase_nodes(p: CompiledPhase, flow) -> CompiledPhase:
    """A phase with its nodes in the flow graph (see `flowgraph.build`)."""
    entry = p.node

    def have(node: str) -> str | None:
        return node if node in flow else None

    before = have(f"{entry}/before")
    return replace(
        p,
        before_node=before,
        run_node=have(f"{entry}/run") or (entry if before is None else None),
        variant_nodes=tuple(have(f"{entry}/when{k}")
                            for k in range(1, len(p.variants) + 1)),
        window_node=f"{entry}/actions",
        others_node=have(f"{entry}/others"),
    )


def _visible(event: dict) -> dict:
    return {k: v for k, v in event.items() if not k.startswith("__")}



def _text(cite: ast.Citation | None) -> str | None:
    """A rule's citation as the log writes it."""
    return None if cite is None else cite.text


def _way(rule: ast.TurnPassing | ast.ResponseOrder | None) -> int:
    """The seat step a `next_turn` or `respond` direction takes: clockwise passes
    to the left (the next seat), counterclockwise to the right."""
    return -1 if rule is not None and rule.direction == "counterclockwise" else 1


def _cite(rule) -> ast.Citation | None:
    """A rule's citation, or None where the ruleset has no such rule."""
    return None if rule is None else rule.cite


__all__ = ["Referee"]
