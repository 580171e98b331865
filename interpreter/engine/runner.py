"""The runner: where play stands in the flow graph, and how it moves on.

The flow graph (`kotc.flowgraph.build`) is compiled once per engine into
`RunNode`s, one per node, each with the data its kind reads and the nodes its
edges lead to. A game's position is a stack of `Activation`s, one per sub-flow
under way (the setup and the turn at the bottom; a battle, a chain above it),
each standing at one node with the cursor its kind keeps there; the pending
decision is the game's `decision`, answered at the node on top. The runner
steps the node on top by its kind:

- a `step` marks what is now under way, is skipped by its skip edges whose guard
  holds, announces itself (and the reactions before it), runs its program (once,
  once for each player, or part by part), then leaves by the first out-edge
  whose guard holds;
- a `window` asks whom its policy asks (`active`, `others`, `round`) for the
  actions it offers, and routes the answer: an action is taken there, a pass or
  the closing answer moves the policy on; an `others` window whose gate is shut
  (no counter in play of the kinds its actions take) is passed over as it is
  entered, as its visit would leave at once;
- the `stack` resolves one link per visit, last in first out, until none is
  left;
- a `return` ends its sub-flow, back to the activation below (through a window
  after it, where the graph has one for such a caller).

The game state (cards, players, the battle's record, the chain's links) is the
game's; the runner changes it through primitives and programs, and keeps only
where play stands. Between steps it runs the programs on top (`vm.run`) and, where
something they read has changed, the state checks (`check_end`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kotc.dsl import ast
from kotc.flowgraph.build import CHECKS, TURN_START, compile_ruleset
from kotc.runtime.actions import Action, Decision
from kotc.runtime.events import (
    FirstPlayer,
    GameOver,
    PhaseBegan,
    PhaseSkipped,
    Resolving,
    RolledOff,
    StepSkipped,
    TurnBegan,
    TurnLost,
)
from kotc.runtime.values import decode, encode, seat_of
from kotc.runtime.vm import NEXT, WAIT, Block, Frame
from kotc.runtime.vm import run as run_frames

from .primitives import eliminate
from .trace import FlowTables

if TYPE_CHECKING:
    from .game import Engine, Game

# Where a visit of a node stands (`Activation.stage`): a step begins (marks,
# skips, announces), runs its program (`RUN`: a part's frame not yet pushed;
# `PUSHED`: pushed, not yet done), reacts after it (`AFTER`), is done (`DONE`:
# it leaves by its edges). A window is asking at `BEGIN` and closed at `DONE`.
# `CALL`: an activation waiting below the one above it to enter its sub-flow.
BEGIN, RUN, PUSHED, AFTER, DONE, CALL = range(6)

# the nodes of the game's end in the flow graph (see `flowgraph.build`)
CHECK, LOSE, GAME_OVER = "endgame:check", "endgame:lose", "game_over"

# edges a step leaves by when no guard of its holds
_NEXT_KINDS = ("next", "otherwise", "pass", "turn")

# the answer that passes, the same at every window (actions are immutable)
PASS = Action("pass", None, "pass")

Guard = Callable[[Any, dict[str, Any]], Any]


class RunNode:
    """One node of the flow graph as the runner reads it: its kind, the data
    that kind reads, and the nodes its edges lead to. Fields a kind does not read
    keep their defaults."""

    __slots__ = (
        "name", "kind", "flow", "index", "visit", "answer",
        # a step: what it marks (`level`: the phase, which it announces, or the
        # step of a sub-flow); its skips (guards, or being named
        # in its record's `skipped`) and where they lead; its record, whose
        # `cancelled` ends the sub-flow (at `end`); its program (a block, or a
        # primitive run in place), run once or for each player; its parts; its
        # reactions before and after; `joined`: the state checks wait for the
        # step after it too
        "marks", "level", "skips", "skip_cite", "skip_to", "record",
        "end", "program", "primitive", "each_player", "parts", "reacts", "joined",
        "cite_text",
        # leaving: the guarded edges (in order), then the edge when none holds;
        # `then`: where it leaves to when that is only a move (no guard to read;
        # a step or a window not passed over; None: `Runner.leave` finds it)
        "guards", "next", "then",
        # a window: its policy and what it offers (`gate`: the kinds of counters
        # its actions take, none in play: nothing to offer), whether it asks a
        # player with nothing to take but its close, whether a player with
        # nothing to take passes unasked, where a round starts, what follows an
        # action, which way seats pass, the answer that closes it, the prompt,
        # the rule that asks, the kind of decision it asks (`Decision.resume`)
        "policy", "offers", "gate", "ask_when_empty", "auto_pass", "start",
        "after_action", "way", "close", "prompt", "cite", "resume",
        # `passes_shut`: a window passed over as it is entered while its gate
        # is shut (`others`: nobody is asked only to pass)
        "passes_shut",
        # the stack: its resolution policy (`last_in_first_out`: every link in
        # turn; `top_link`: the top one, then back to `again`, the responses)
        "resolution", "again",
        # a return: the sub-flows whose callers pass through the window after it
        # (its `next`) before they are back; the event it logs as its sub-flow
        # ends, and the rule cited; whether programs wait for its end
        # (`Game.after`)
        "through", "logs", "logs_cite", "after",
    )

    def __init__(self, name: str, kind: str, flow: str):
        self.name, self.kind, self.flow = name, kind, flow
        self.index = 0
        # a visit of the node: True once it is done (it leaves by its edges)
        self.visit: Callable[[Game, Activation], bool] = _nothing
        self.answer: Callable[[Game, Activation, Action], None] | None = None
        self.marks: str | None = None
        self.level = ""
        self.skips: tuple[Guard, ...] = ()
        self.skip_cite: str | None = None
        self.skip_to: RunNode | None = None
        self.record: str | None = None
        self.end: RunNode | None = None
        self.program: Block | None = None
        self.primitive: Callable[[Game, Activation], bool] | None = None
        self.each_player = False
        self.parts: tuple[Block, ...] = ()
        self.reacts = False
        self.joined = False
        self.cite_text: str | None = None
        self.guards: tuple[tuple[Guard, RunNode], ...] = ()
        self.next: RunNode | None = None
        self.then: RunNode | None = None
        self.policy = ""
        self.offers: tuple[str, ...] = ()
        self.gate: frozenset[str] | None = None
        self.ask_when_empty = False
        self.auto_pass = False
        self.start = ""
        self.after_action = "stay"
        self.way = 1
        self.close: Action | None = None
        self.prompt = ""
        self.cite: ast.Citation | None = None
        self.resume = ""
        self.passes_shut = False
        self.resolution = ""
        self.again: RunNode | None = None
        self.through: frozenset[str] = frozenset()
        self.logs: str | None = None
        self.logs_cite: ast.Citation | None = None
        self.after = False

    def __repr__(self) -> str:
        return f"<RunNode {self.name} ({self.kind})>"


def _nothing(g: Game, act: Activation) -> bool:
    raise RuntimeError(f"play cannot stand at {act.node.name}")


class Activation:
    """One sub-flow under way: the node it stands at, and its cursor there:
    `stage` (see `BEGIN`...), `count` (a step's player or part; the players a
    window has asked or who passed), `seat` (whom a round window asks), and
    `call` (what an activation waiting to enter its sub-flow enters with)."""

    __slots__ = ("node", "stage", "count", "seat", "call")

    def __init__(self, node: RunNode, stage: int = BEGIN, count: int = 0,
                 seat: int = 0, call: list[Any] | None = None):
        self.node = node
        self.stage = stage
        self.count = count
        self.seat = seat
        self.call = call

    @property
    def flow(self) -> str:
        """The sub-flow it is an activation of."""
        return self.node.flow

    def copy(self) -> Activation:
        return Activation(self.node, self.stage, self.count, self.seat,
                          None if self.call is None else list(self.call))

    def to_json(self) -> list[Any]:
        return [self.node.name, self.stage, self.count, self.seat, encode(self.call)]

    def __repr__(self) -> str:
        return (f"<Activation {self.node.name} stage {self.stage} count {self.count}"
                f" seat {self.seat}>")


class Runner:
    """The flow graph of one engine's ruleset, compiled into `RunNode`s, and what
    steps a game's position through them. Stateless: the position is the game's
    `stack` of activations."""

    __slots__ = (
        "engine", "referee", "tables", "nodes", "first", "turn_start", "entries",
        "turn_way", "turn_text", "turn_cite", "turn_limit_cite",
        "decision_limit_cite", "setup_from_first", "lose_checks", "end_checks",
        "criteria", "stack_text", "per_phase", "checks", "checks_cite",
    )

    def __init__(self, engine: Engine):
        self.engine = engine
        referee = self.referee = engine.referee
        rs = engine.rs
        fg = compile_ruleset(rs)
        self.tables = FlowTables(fg)
        graph = fg.graph
        nodes = self.nodes = {
            name: RunNode(name, d["kind"], d["subflow"])
            for name, d in graph.nodes(data=True)
        }
        self.turn_way = referee.turn_way
        self.turn_text = referee.turn_text
        self.turn_cite = referee.turn_cite
        self.turn_limit_cite = referee.turn_limit_cite
        self.decision_limit_cite = referee.decision_limit_cite
        self.setup_from_first = referee.setup_from_first
        self.lose_checks = referee.lose_checks
        self.end_checks = referee.end_checks
        self.criteria = referee.criteria
        self.stack_text = referee.resolve_text
        self.per_phase = referee.per_phase
        P = engine.programs
        # the checks made before anyone is asked (`checks` section), in order
        self.checks = tuple(P.block(c.body, c.cite, f"check {c.name}")
                            for c in rs.checks)
        self.checks_cite = rs.checks[0].cite if rs.checks else None
        # each node's way out: its guarded edges in order, then the one taken
        # when none holds; skip edges with a guard are a step's skips
        for name, node in nodes.items():
            guards: list[tuple[Guard, RunNode]] = []
            skips: list[Guard] = []
            for _, target, e in graph.out_edges(name, data=True):
                kind = e["kind"]
                if e.get("action") is not None:
                    continue
                if kind == "guard":
                    guards.append((P.expr(e["guard"]), nodes[target]))
                elif kind == "skip" and e["guard"] is not None:
                    skips.append(P.expr(e["guard"]))
                    node.skip_to = nodes[target]
                elif kind in _NEXT_KINDS and node.next is None:
                    node.next = nodes[target]
            node.guards, node.skips = tuple(guards), tuple(skips)
            node.cite = graph.nodes[name]["cite"]
            node.cite_text = None if node.cite is None else node.cite.text
        for name, d in graph.nodes(data=True):
            self._compile(nodes[name], d, graph)
        # where leaving is only a move (`then`): no guard to read, and nothing
        # to do as the node after is entered (`enter`: a stack's record resolves,
        # a window with a gate may be passed over)
        for node in nodes.values():
            to = node.next
            if not node.guards and to is not None and to.kind != "stack" and (
                    not to.passes_shut):
                node.then = to
        # where the turns start again (once the active player is out), and where
        # a new game starts: the node after the graph's start
        self.turn_start = nodes[TURN_START]
        first = nodes[fg.start].next
        assert first is not None, "the flow graph's start leads nowhere"
        self.first = first
        # where a sub-flow entered by a call begins: its first node
        self.entries: dict[str, RunNode] = {}
        for node in nodes.values():
            self.entries.setdefault(node.flow, node)

    # --- compiling the nodes ---------------------------------------------------------

    def _compile(self, node: RunNode, d: dict[str, Any], graph: Any) -> None:
        """A node's data, as its kind reads it; the programs it runs are the
        rules' programs the engine compiled (found by the node's role)."""
        referee, rs = self.referee, self.engine.rs
        kind, role = node.kind, d["role"]
        node.level = d.get("level") or ""
        node.record = d.get("record")
        if kind == "step":
            # a phase's step is visited as one (`_phase`), any other by `_step`
            node.visit = self._phase if node.level == "phase" else self._step
            node.each_player = bool(d.get("each_player"))
            node.marks = d.get("marks")
            node.joined = bool(d.get("joined"))
            node.reacts = "reactions" in d
            if role == "setup_step":
                index = [s.name for s in rs.setup_steps].index(node.name[6:])
                step, block = referee.setup[index]
                if step.first_player_dice:
                    node.primitive = self._first_player_by_dice(step)
                else:
                    node.program = block
            elif role == "turn_start":
                node.primitive = self._next_turn
            elif role == "phase":
                phase = rs.phases[[p.name for p in rs.phases].index(d["marks"])]
                node.skip_cite = _text(
                    (phase.skips[0].cite if phase.skips else None) or phase.cite)
                run, _ = referee.phase_blocks[phase.name]
                if not phase.variants and not phase.opens_first and run.stmts:
                    node.program = run  # on the phase's own node (`flowgraph.build`)
            elif role == "program":
                entry, _, which = node.name.rpartition("/")
                run, variants = referee.phase_blocks[entry[6:]]
                block = run if which == "run" else variants[int(which[4:]) - 1]
                node.program = block if block.stmts else None
            elif role == "battle_step":
                node.parts = referee.part_blocks[d["marks"]]
                node.index = [s.name for s in rs.battle_steps].index(d["marks"])
                for _, target, e in graph.out_edges(node.name, data=True):
                    if e["kind"] == "skip" and e["guard"] is None:
                        if self.nodes[target].kind == "return":  # cancelled
                            node.end = self.nodes[target]
                        if node.skip_to is None:  # named in `skipped`: the step after
                            node.skip_to = self.nodes[target]
        elif kind == "window":
            node.policy = d["policy"]
            node.visit, node.answer = {
                "active": (self._ask_active, self._answered_active),
                "round": (self._ask_round, self._answered_round),
                "others": (self._ask_others, self._answered_others),
            }[node.policy]
            node.ask_when_empty = bool(d.get("ask_when_empty"))
            node.auto_pass = bool(d.get("auto_pass"))
            node.start = d.get("start") or ""
            node.after_action = d.get("after_action") or "stay"
            node.prompt = d.get("prompt", "")
            node.resume = d.get("decision", "")
            close = d.get("close")
            node.close = None if close is None else Action("end", None, close)
            # what it offers, as the listing lists them: its own actions, then
            # those open at any time (all of them, or all but giving the game up)
            anytime = d.get("anytime")
            more = (referee.anytime if anytime == "all"
                    else referee.others_offer if anytime else ())
            node.offers = referee.bindable(dict.fromkeys(tuple(d["offers"]) + more))
            node.gate = referee.counter_gate(node.offers)
            if node.start in ("left_of_last_actor", "last_actor"):
                node.way = referee.respond_way  # the way responses pass
            elif node.start == "active":  # a phase's round: the way turns pass
                node.way = referee.turn_way
            if node.record is not None and "/" in node.name:  # after a step
                node.index = self.nodes[node.name.rpartition("/")[0]].index
            if node.policy == "others":  # where it offers nothing, its gate is shut
                if not node.offers:
                    node.gate = frozenset()
                node.passes_shut = node.gate is not None
        elif kind == "stack":
            node.visit = self._stack
            node.resolution = d.get("resolution") or "last_in_first_out"
            if node.resolution == "top_link":  # back to the responses
                node.again = next(
                    self.nodes[target]
                    for _, target, e in graph.out_edges(node.name, data=True)
                    if e["kind"] == "resolve")
        elif kind == "return":
            node.visit = self._return
            node.logs = d.get("logs")
            node.logs_cite = referee.battle_cite if node.logs else None
            # programs wait for its end (`after chain`: `Game.after`)
            node.after = d.get("after") is not None
            # after the last step (`past`)
            node.index = len(rs.battle_steps) if node.level == "step" else 0
            window = node.next
            if window is not None and window.kind == "window":
                node.through = frozenset(
                    self.nodes[target].flow
                    for _, target, e in graph.out_edges(window.name, data=True)
                    if e["kind"] == "return")

    # --- positions ---------------------------------------------------------------------

    def node(self, name: str) -> RunNode:
        """The node of that name.

        Raises:
            ValueError: the flow graph has no such node.
        """
        try:
            return self.nodes[name]
        except KeyError:
            raise ValueError(f"the flow graph has no node '{name}'") from None

    def call(self, g: Game, flow: str, seat: int = 0) -> None:
        """Enter a sub-flow at its entry (a battle, a chain), above what is under
        way; `seat`: whom its round asks first."""
        g.stack.append(Activation(self.entries[flow], BEGIN, 0, seat))

    def under_way(self, g: Game, flow: str) -> Activation | None:
        """The newest activation of a sub-flow under way (not one waiting)."""
        for act in reversed(g.stack):
            if act.node.flow == flow and act.stage != CALL:
                return act
        return None

    def past(self, g: Game, flow: str, step: int, part: int | None) -> bool:
        """Whether the sub-flow under way has gone past its `step`th step (skipped
        or not), or past that step's `part`th part."""
        act = self.under_way(g, flow)
        if act is None:
            return False
        node = act.node
        at = node.index
        return at > step or at == step and (
            node.kind == "window" or act.stage == AFTER
            or part is not None and act.stage in (RUN, PUSHED) and act.count > part)

    def wait(self, g: Game, flow: str, call: list[Any]) -> None:
        """Something to enter once the sub-flow under way has returned: an
        activation waiting below it (`CALL`), entered with `call`."""
        stack = g.stack
        under = max(i for i, a in enumerate(stack) if a.node.flow == flow
                    and a.stage != CALL)
        stack.insert(under, Activation(self.entries[flow], CALL, call=call))

    def restart(self, g: Game, flow: str, seat: int) -> None:
        """The round of the sub-flow under way starts again from `seat` (a new
        link of a chain: the responses start again from its left)."""
        act = self.under_way(g, flow)
        if act is not None:
            act.seat, act.count = seat, 0

    # --- the run loop ------------------------------------------------------------------

    def advance(self, g: Game) -> None:
        """Play on until a decision is asked for, or the game is over: the programs
        on top run, else the node on top is stepped by its kind; after either, the
        state checks, where something they read changed."""
        while g.decision is None:
            if g.is_over:
                return
            if g.frames:
                if run_frames(g) == WAIT:
                    # the game may have ended mid-program (a draw from an empty
                    # deck), or the active player may be out (the turn ends)
                    if g.dirty:
                        self.check_end(g)
                        if g.decision is None and not g.is_over:
                            continue
                    return
                if g.dirty:
                    self.check_end(g)
                if g.is_over:
                    return
            try:
                act = g.stack[-1]
            except IndexError:
                self.finish(g, "no more play", None)
                return
            if act.node.visit(g, act):  # done: it leaves by its edges
                then = act.node.then
                if then is not None:  # `leave`, where it is only a move
                    act.node, act.stage, act.count = then, BEGIN, 0
                else:
                    self.leave(g, act)
            if g.dirty:
                self.check_end(g)

    def answer(self, g: Game, action: Action) -> None:
        """The answer to a decision a window asked: routed to the node on top."""
        act = g.stack[-1]
        answer = act.node.answer
        assert answer is not None, act.node.name
        answer(g, act, action)

    def enter(self, g: Game, act: Activation, node: RunNode | None) -> None:
        """The activation moves on to `node` (None: its sub-flow has no more:
        it returns). A window whose gate is shut (`RunNode.passes_shut`) is
        passed over by its edges as it is entered, where nothing comes first
        (programs to run, the state checks): its visit would find as much, and
        leave. A stack entered resolves its sub-flow's record."""
        while (node is not None and node.passes_shut and not g.frames
               and not g.dirty and not _gate_open(g, node.gate)):
            node = self.guarded(g, node) if node.guards else node.next
        if node is None:
            g.stack.pop()
            return
        act.node, act.stage, act.count = node, BEGIN, 0
        if node.kind == "stack":  # its record's links resolve
            getattr(g, node.record).resolving = True  # type: ignore[arg-type]

    @staticmethod
    def guarded(g: Game, node: RunNode) -> RunNode | None:
        """Where the node leaves to: by its first out-edge whose guard holds, or
        else by its plain one."""
        env = {"you": seat_of(g.active)}
        for guard, to in node.guards:
            if guard(g, env):
                return to
        return node.next

    def leave(self, g: Game, act: Activation) -> None:
        """Leave the node by its first out-edge whose guard holds."""
        node = act.node
        self.enter(g, act, self.guarded(g, node) if node.guards else node.next)

    # --- steps -------------------------------------------------------------------------

    def _step(self, g: Game, act: Activation) -> bool:
        node = act.node
        stage = act.stage
        if stage == CALL:  # entered once what was above it has returned
            g.stack.remove(act)
            self.referee.enter_waiting(g, act.call or [])
            return False
        if stage == BEGIN:
            record = None if node.record is None else getattr(g, node.record)
            if record is not None and record.cancelled:
                self.enter(g, act, node.end)
                return False
            g.stand(node.name)
            marks = node.marks
            if marks is not None:
                g.step = marks
            if node.skips:
                if self._skipped(g, act):
                    return False
            elif record is not None and marks in record.skipped:
                g.events.append(StepSkipped(marks or node.name, node.cite_text))
                self.enter(g, act, node.skip_to)
                return False
            if node.primitive is not None:
                return node.primitive(g, act)
            if node.parts:
                act.stage, act.count = RUN, 0
                record.holding = True  # type: ignore[union-attr]
                if node.reacts and g.counters_in_play:
                    self.referee.fire_step(g, "before", marks or node.name)
                    if g.frames:
                        return False
                stage = RUN
            elif node.each_player:
                act.stage = RUN
                stage = RUN
            else:
                return self._program(g, act)
        if stage == RUN:
            if node.each_player:
                return self._each_player(g, act)
            return self._part(g, act, node)
        if stage == PUSHED:  # a part's program is done
            act.count += 1
            act.stage = RUN
            if getattr(g, node.record).cancelled:  # type: ignore[arg-type]
                self.enter(g, act, node.end)
                return False
            return self._part(g, act, node)
        if stage == AFTER:
            return self._after(g, act, node)
        return True

    def _after(self, g: Game, act: Activation, node: RunNode) -> bool:
        """After a step's parts (and the reactions after it): the window after the
        step, where anything may be taken, or else the step after it."""
        window = node.next
        if (window is not None and window.kind == "window" and window.offers
                and _gate_open(g, window.gate)):
            act.node, act.stage = window, BEGIN
            # from the seat its `start` names in the record (the attacker)
            record = getattr(g, node.record)  # type: ignore[arg-type]
            act.seat, act.count = getattr(record, window.start), 0
        else:
            self.enter(g, act, node.skip_to)
        return False

    def _phase(self, g: Game, act: Activation) -> bool:
        """A phase's step (`level` phase): the phase begins (what the game keeps per
        phase is emptied: `keep NAME per phase`), is skipped where a skip's guard
        holds, is announced, and runs its program, as `_step` runs a step's."""
        if act.stage == DONE:  # its program is done: its guards are read as it leaves
            return True
        node = act.node
        g.stand(node.name)
        phase = node.marks or node.name
        g.phase, g.step = phase, ""
        for kept in self.per_phase:
            setattr(g, kept, [])
        g.recent = []
        if node.skips and self._skipped(g, act):
            return False
        g.events.append(PhaseBegan(phase, g.active, node.cite_text))
        return self._program(g, act)

    def _program(self, g: Game, act: Activation) -> bool:
        """Run the step's program once, the active player as `you`. A tail call:
        with no guard to read once it is done, the step leaves as its program
        starts (or once it has run here), never visited again."""
        act.stage = DONE
        node = act.node
        if node.program is None:
            return True
        self._run(g, node.program, {"you": seat_of(g.active)})
        return not node.guards

    def _skipped(self, g: Game, act: Activation) -> bool:
        """Whether a skip's guard holds at the step: then the skip is logged and the
        activation moves on to where the skip leads."""
        node = act.node
        env = {"you": seat_of(g.active)}
        for skip in node.skips:
            if skip(g, env):
                g.events.append(PhaseSkipped(node.marks or node.name, node.skip_cite))
                self.enter(g, act, node.skip_to)
                return True
        return False

    def _part(self, g: Game, act: Activation, node: RunNode) -> bool:
        """The next part of a step's program, the record's attacking player as
        `you` (`_run`: here, or in a frame of its own); the parts after one done
        here run here too, where nothing else would come first (the state checks,
        the end of the game, a sub-flow above). After the last, the reactions after
        the step (the state checks wait on for a `joined` step), and, where nothing
        comes first, what follows the step (`_after`), in the same visit."""
        parts, k = node.parts, act.count
        record = getattr(g, node.record)  # type: ignore[arg-type]
        while k < len(parts):
            act.stage = PUSHED
            if (self._run(g, parts[k], {"you": seat_of(record.attacker)})
                    or g.is_over or g.stack[-1] is not act or self.end_due(g)):
                return False  # the visit once it is done goes on (stage `PUSHED`)
            # done here: as that visit would go on
            act.count = k = k + 1
            act.stage = RUN
            record = getattr(g, node.record)  # type: ignore[arg-type]
            if record.cancelled:
                self.enter(g, act, node.end)
                return False
        act.stage = AFTER
        record.holding = node.joined
        if node.reacts and g.counters_in_play:
            self.referee.fire_step(g, "after", node.marks or node.name)
        if g.frames or g.dirty:  # the reactions, the state checks come first
            return False
        return self._after(g, act, node)

    def _each_player(self, g: Game, act: Activation) -> bool:
        """A step done by every player in turn, from the first player (or the
        first seat, where the rules say so)."""
        n = len(g.players)
        if act.count >= n:
            return True
        start = g.first_player if self.setup_from_first else 0
        seat = (start + act.count) % n
        act.count += 1
        self._run(g, act.node.program, {"you": seat_of(seat)})  # type: ignore[arg-type]
        return False

    @staticmethod
    def _run(g: Game, program: Block, env: dict[str, Any]) -> bool:
        """Run a step's program: here, with no frame of its own, where it never
        waits and pushes only as its last act (`Block.in_place`), else in a frame
        the machine runs next. Whether a frame may be left to run."""
        if program.in_place is not None:
            return program.in_place(g, env) != NEXT
        g.frames.append(Frame(program, env))
        return True

    def _first_player_by_dice(
            self, step: ast.SetupStep) -> Callable[[Game, Activation], bool]:
        def by_dice(g: Game, act: Activation) -> bool:
            g.first_player = self._highest_total(g, step)
            return True
        return by_dice

    @staticmethod
    def _highest_total(g: Game, step: ast.SetupStep) -> int:
        """The first player: each rolls the step's dice, highest first; ties roll
        again."""
        contenders = list(range(len(g.players)))
        dice = step.first_player_dice or 0
        while True:
            # ties roll again: each round is work of the step, bounded (dice that
            # always tie, as a chance policy may give, end as an error, not a hang)
            g.engine.bounds.check_work(g, len(contenders), step.cite)
            totals = {s: sum(g.rng.roll() for _ in range(dice)) for s in contenders}
            best = max(totals.values())
            contenders = [s for s, t in totals.items() if t == best]
            g.events.append(RolledOff(totals, _text(step.cite)))
            if len(contenders) == 1:
                g.events.append(FirstPlayer(contenders[0], _text(step.cite)))
                return contenders[0]

    def _next_turn(self, g: Game, act: Activation) -> bool:
        """The next turn: the active player by `next_turn`; the game ends on the
        last turn played (a safety limit)."""
        if g.turn >= g.max_turns:
            g.flags["end:turn_limit"] = True
            self.finish(g, "turn limit", self.turn_limit_cite)
            return False
        if g.turn == 0:
            g.turn, g.active = 1, g.first_player
        else:
            g.turn += 1
            g.active = g.next_seat(g.active, self.turn_way)
        if g.arrived:  # the active player's cards have now been there since it began
            cards, active = g.cards, g.active
            g.arrived = {c for c in g.arrived if cards[c].controller != active}
        g.events.append(TurnBegan(g.turn, g.active, self.turn_text))
        return True

    # --- windows -----------------------------------------------------------------------

    # Each policy asks and takes answers in its own pair of methods, chosen as the
    # node is compiled (`RunNode.visit`, `RunNode.answer`).

    def _check_first(self, g: Game, node: RunNode) -> bool:
        """Before a window asks anyone, the checks (`checks` section): a pass of
        them all, in order, again while a pass changes something (logs an event);
        the state checks, the game's end, follow each pass (`advance`). True
        while a pass is under way (the window asks once it is done)."""
        mark = len(g.events)
        flags = g.flags
        if flags.get("checked") == mark:  # nothing happened since the last pass
            return False
        flags["checked"] = mark
        g.engine.bounds.check_work(g, 1, self.checks_cite)
        trace = g.trace
        if trace is not None and trace.at == CHECKS:  # it changed something
            trace.move(CHECKS, "recheck")
        else:
            g.stand(node.name)
            if trace is not None:
                trace.move(CHECKS)
        env = {"you": seat_of(g.active)}
        for block in reversed(self.checks):
            g.frames.append(Frame(block, dict(env)))
        return True

    def _ask_active(self, g: Game, act: Activation) -> bool:
        """The active player, until they close the window; one with nothing to take
        but the close is asked only where `ask_when_empty` says so."""
        if act.stage == DONE:  # closed; its guards are read as it is left
            return True
        node = act.node
        if self.checks and self._check_first(g, node):
            return False
        g.stand(node.name)
        options = self.referee.options(g, g.active, node.offers)
        if not options and not node.ask_when_empty:
            return True
        options.append(node.close)  # type: ignore[arg-type]
        g.decision = Decision(g.active, node.prompt, options, node.resume, node.cite)
        return False

    def _answered_active(self, g: Game, act: Activation, action: Action) -> None:
        node = act.node
        if action.kind != "end":
            self.referee.take(g, g.active, action)
        elif node.guards:  # read as it is left, at its next visit
            act.stage = DONE
        elif node.then is not None:  # closed: it leaves now (`leave`, written out)
            act.node, act.stage, act.count = node.then, BEGIN, 0
        else:
            self.enter(g, act, node.next)

    def _ask_round(self, g: Game, act: Activation) -> bool:
        """Each player in turn from the seat the round started at, until all have
        passed in a row; one with nothing to take passes unasked where
        `auto_pass` says so."""
        node = act.node
        if act.stage == BEGIN and node.start == "active":  # a phase's round
            act.stage, act.seat, act.count = RUN, g.active, 0
        if self.checks and self._check_first(g, node):
            return False
        g.stand(node.name)
        asked = len(g.in_game)
        while act.count < asked:
            options = self.referee.options(g, act.seat, node.offers)
            if options or not node.auto_pass:
                options.append(PASS)
                g.decision = Decision(act.seat, node.prompt, options, node.resume,
                                      node.cite)
                return False
            act.count += 1
            act.seat = g.next_seat(act.seat, node.way)
        return True

    def _answered_round(self, g: Game, act: Activation, action: Action) -> None:
        node = act.node
        seat = act.seat
        if action.kind == "pass":
            act.count += 1
            if act.count >= len(g.in_game):  # all have passed in a row
                self.leave(g, act)
            else:
                act.seat = g.next_seat(seat, node.way)
            return
        if node.after_action == "next":  # the round goes on from the next seat
            act.count, act.seat = 0, g.next_seat(seat, node.way)
        elif node.after_action == "actor":  # the actor is asked again
            act.count = 0
        self.referee.take(g, seat, action)

    def _ask_others(self, g: Game, act: Activation) -> bool:
        """Each other player in turn from the active player's left, once around;
        nobody is asked only to pass."""
        node = act.node
        if act.stage == BEGIN:
            # nothing to offer (no counters in play of the kinds its actions
            # take: `_gate_open`, written out; one offering nothing has a gate
            # nothing opens), or nobody else to offer it to
            gate, in_play = node.gate, g.counters_in_play
            if (len(g.players) < 2 or gate is not None and (
                    not in_play or in_play.keys().isdisjoint(gate))):
                return True
            act.stage, act.count = RUN, 1
        if self.checks and self._check_first(g, node):
            return False
        g.stand(node.name)
        players = g.players
        n = len(players)
        k = act.count
        while k < n:
            seat = (g.active + k) % n
            if not players[seat].eliminated:
                options = self.referee.options(g, seat, node.offers)
                if options:
                    options.append(PASS)
                    act.count = k
                    g.decision = Decision(int(seat), node.prompt, options,
                                          node.resume, node.cite)
                    return False
            k += 1
        act.count = k
        return True

    def _answered_others(self, g: Game, act: Activation, action: Action) -> None:
        if action.kind == "pass":
            act.count += 1
            return
        seat = (g.active + act.count) % len(g.players)
        if act.node.after_action == "close":  # its sub-flow returns, then the action
            g.stack.pop()
        self.referee.take(g, seat, action)

    # --- the stack and returns ---------------------------------------------------------

    def _stack(self, g: Game, act: Activation) -> bool:
        """Resolve the newest link (last in, first out), one per visit; under
        `top_link`, only one, then back to the responses from the active player."""
        node = act.node
        ch = getattr(g, node.record)  # type: ignore[arg-type]
        links = ch.links
        if node.again is not None:  # `top_link`: one link per visit of the stack
            if act.stage != BEGIN:
                # it has resolved: with links left, the responses start again
                # from the active player; else the chain closes
                if links:
                    ch.resolving = False
                    act.node, act.stage, act.count, act.seat = (
                        node.again, BEGIN, 0, g.active)
                    return False
                self.enter(g, act, node.next)
                return self._return(g, act)
            act.stage = RUN
        name = node.name
        if g.node != name:
            key = f"chain length {len(links)}"
            g.usage[key] = g.usage.get(key, 0) + 1
        g.node = name  # each time: a traced game records each visit
        trace = g.trace
        if trace is not None:  # into the stack, or round it for the next link
            trace.move(name, None if trace.at != name or not links else "resolve")
        if links:
            link = links.pop()
            g.events.append(Resolving(len(links) + 1, link["actor"], self.stack_text))
            then = link["then"]
            blocks = self.engine.programs.blocks
            if then is not None:  # after the resolution, negated or not
                g.frames.append(Frame(blocks[then[0]], dict(then[1])))
            if not link["negated"]:
                g.frames.append(Frame(blocks[link["block"]], dict(link["env"])))
            return False
        self.enter(g, act, node.next)
        return self._return(g, act)

    def _return(self, g: Game, act: Activation) -> bool:
        """Leave a sub-flow back to the activation below; what waited for its end
        runs next."""
        node = act.node
        stack = g.stack
        if node.record is not None:  # its record is done with
            setattr(g, node.record, None)
        if node.level == "step":  # and the step it marked
            g.step = ""
        if len(stack) > 1 and stack[-2].node.flow in node.through:
            # the window after it, for such a caller (a new chain, once one has
            # resolved), from the seat after the active player's
            act.node, act.stage, act.count = node.next, RUN, 1  # type: ignore[assignment]
        else:
            stack.pop()
            under = stack[-1] if stack else None
            if under is not None and under.node.kind == "window" and (
                    under.node.start == "active" or under.node.after_action == "actor"):
                # back to a phase's round, or a round whose actor is asked again:
                # it asks again from its first seat (the active player, or the
                # record's), the passes counted anew
                start = under.node.start
                under.stage, under.count = RUN, 0
                under.seat = g.active if start == "active" else getattr(
                    getattr(g, under.node.record), start)  # type: ignore[arg-type]
        g.stand(node.name)
        if node.logs is not None:
            g.log(node.logs, node.logs_cite)
        if node.after:
            for block_id, env in reversed(g.after):
                g.frames.append(Frame(self.engine.programs.blocks[block_id], env))
            g.after = []
        return False

    # --- the state checks and the end -------------------------------------------------

    @staticmethod
    def end_due(g: Game) -> bool:
        """Whether the state checks are due now: something they read changed
        (`dirty`), and no atomic step holds them."""
        return g.dirty and (g.battle is None or not g.battle.holding)

    def check_end(self, g: Game) -> None:
        """The state checks (the `check` node): lose and end conditions, once
        something they read changed, but not in the middle of what happens at once
        (an atomic step): both players of a battle may reach 0 HP in it."""
        if g.is_over or not self.end_due(g):
            return
        g.dirty = False
        trace = g.trace
        out: list[int] = []  # the players this check finds out
        for name, cond, cite in self.lose_checks:
            # the seats as they were: one eliminated is not looked at again
            for s in g.in_game:
                if cond(g, {"player": s, "you": s}):
                    if trace is not None:  # the check found a player out
                        trace.move(CHECK)
                        trace.move(LOSE)
                        trace.move(CHECK, "recheck")
                    eliminate(g, s, name, cite)
                    out.append(s)
        env = {"you": seat_of(g.active)}
        flags = g.flags
        for name, flag, test, cite in self.end_checks:
            if flags.get(flag) or (test is not None and test(g, env)):
                self.finish(g, name, cite, out)
                return
        if g.turn > 0 and g.players[g.active].eliminated:  # not in the setup
            self._turn_lost(g)
        elif trace is not None and trace.at == CHECK:  # play goes on where it was
            trace.move(g.node, "resume")

    def _turn_lost(self, g: Game) -> None:
        """The active player is out of the game: it can no longer affect it, so what
        was under way in its turn is dropped, and the next player's turn begins."""
        if g.trace is not None:
            g.trace.move(CHECK)
        g.frames, g.after = [], []
        g.stack = [Activation(self.turn_start)]
        g.chain = g.battle = g.decision = None
        g.step = ""
        g.events.append(TurnLost(g.active, _text(self.turn_cite)))

    def finish(self, g: Game, why: str, cite: ast.Citation | None,
               last_out: list[int] | None = None) -> None:
        """The game is over: the winner by the criteria, in order, from every
        player; or, where every player is out, from those who went out last
        (`last_out`, at once: a draw between them where no criterion parts them),
        not those out before."""
        if g.is_over:
            return
        remaining = [seat_of(p.seat) for p in g.players]
        if last_out and all(p.eliminated for p in g.players):
            remaining = [seat_of(s) for s in last_out]
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

    # --- saved positions ---------------------------------------------------------------

    def stack_from_json(self, data: Any) -> list[Activation]:
        """The activations `Activation.to_json` wrote.

        Raises:
            ValueError: not a list of activations at nodes of this flow graph.
        """
        if type(data) is not list:
            raise ValueError(f"not a whole game state: the flow's stack is {data!r:.40}")
        stack = []
        for item in data:
            if (type(item) is not list or len(item) != 5
                    or not all(type(x) is int for x in item[1:4])
                    or not BEGIN <= item[1] <= CALL):
                raise ValueError(
                    f"not a whole game state: an activation is {item!r:.40}")
            name, stage, count, seat, call = item
            if name not in self.nodes:
                raise ValueError(
                    f"not a whole game state: play stands at '{name}', which the "
                    "flow graph has no node for")
            stack.append(Activation(self.nodes[name], stage, count, seat, decode(call)))
        return stack


def _gate_open(g: Game, gate: frozenset[str] | None) -> bool:
    """Whether a window gated on these kinds of counters may offer anything: some
    counter of them is in play (None: no gate)."""
    in_play = g.counters_in_play
    return gate is None or bool(in_play) and not in_play.keys().isdisjoint(gate)


def _text(cite: ast.Citation | None) -> str | None:
    """A rule's citation as the log writes it."""
    return None if cite is None else cite.text


__all__ = ["Activation", "PASS", "RunNode", "Runner"]
