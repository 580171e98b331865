"""Compile effect programs to closures, and the small machine that runs them.

Every block of statements becomes a `Block` of closures, numbered in compile
order so a suspended program can be saved as plain data: a stack of `Frame`s,
each a block number, a position and the names bound so far. A statement that
needs a player's choice sets the game's decision and returns `WAIT`; the machine
stops, and picks up at the same statement once the answer arrives.

Statements return: `NEXT` (go on), `PUSHED` (a frame was pushed and this one has
already moved on), `WAIT` (a decision is pending, stay here). A statement that
never waits (`tail`) may be run by another in its place, with its frame: an
`if` runs a branch of such statements itself, a `repeat` such a body, no frame
pushed for them; should one of them push a frame, the rest goes on in the frame
the branch or body would have had (see `_Writer.pushed`). A block runs as one
written function, the commonest statements written in it (`_written`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import FunctionType
from typing import Any

from kotc.dsl import Ruleset, ast
from kotc.dsl.unparse import unparse
from kotc.runtime.actions import DONE, Action, Decision, picks
from kotc.runtime.events import CannotPerform, Prevented, Revealed, Seen, Stopped
from kotc.runtime.values import DieRef, Seat

from .builtins import BUILTINS, as_items_of, element_name
from .pyexpr import KeptGen, compile_expr, write_function

NEXT, PUSHED, WAIT = 0, 1, 2


Eval = Callable[[Any, dict], Any]
Step = Callable[[Any, "Frame"], int]


class Block:
    """A compiled list of statements, with the rule it comes from.

    `go(g, frame)` runs the statements from the frame's position on, until one
    waits (WAIT), one pushes a frame (PUSHED: the position is already past it),
    or the block ends (NEXT). It is written as one Python function when first
    run (`_written`), the statements called one after another in its body.
    """

    __slots__ = ("id", "stmts", "cite", "where", "go")

    def __init__(self, id: int, stmts: list[Step], cite: ast.Citation | None, where: str):
        self.id, self.stmts, self.cite, self.where = id, stmts, cite, where
        self.go = self._first_go

    def _first_go(self, g, f: Frame) -> int:
        self.go = _written(self)
        return self.go(g, f)

    @property
    def simple(self) -> bool:
        """Whether every statement runs straight through: no choice, nothing pushed."""
        return all(getattr(s, "simple", False) for s in self.stmts)


class Frame:
    """A block being run: position, bound names, loop state, pending choice state."""

    __slots__ = ("block", "pc", "env", "loop", "scratch", "event")

    def __init__(
        self, block: Block, env: dict, loop: list | None = None, event: dict | None = None
    ):
        # one by one: fewer steps than assigning them as tuples
        self.block = block
        self.pc = 0
        self.env = env
        self.loop = loop
        self.scratch = None
        self.event = event


def run(g) -> int:
    """Run the frames on top of `g.frames` until they finish or a choice is pending."""
    frames = g.frames
    while frames:
        f = frames[-1]
        # the top frame's statements, one after another, until one pushes a frame
        # (or fires something that does); `go` is read as a field, then called
        # (as a method call, a field's function is looked up the slow way)
        go = f.block.go
        code = go(g, f)
        if not code:  # NEXT: the frame is done, or its loop goes round again
            loop = f.loop  # a list, never empty
            if loop and _next_iteration(g, f, loop):
                continue
            frames.pop()
        elif code == WAIT:
            return WAIT
    return NEXT


def _written(block: Block) -> Callable[[Any, Frame], int]:
    """`block.go`, written out: each statement from the frame's position on. A
    statement that may wait or push is called with the frame at its own position,
    and after it the frame on top is looked at; a simple one (`_SIMPLE`) does
    neither, and reads no position. The commonest statements are written in place
    (`_Writer`), their expressions too: no call for the statement nor for them.

    Blocks of the same statements (the same ruleset's, in every engine made of it)
    are written alike: a block is written once, and another engine's takes its
    code with its own constants (see `pyexpr.KeptGen`)."""
    stmts = block.stmts
    programs = next((st.programs for st in stmts if hasattr(st, "programs")), None)
    key = (
        block.where,
        None if programs is None else id(programs.rs),
        None if programs is None else programs.card_keys,
        _shape(stmts),
    )
    known = _WRITTEN.get(key)
    if known is not None:
        fn, recipes = known[0], known[1]
        namespace = dict(fn.__globals__)
        for name, (kind, what) in recipes.items():
            if kind == "at":  # a statement or branch, by its path from the block
                namespace[name] = _walk(block, what)
            elif kind == "kw":  # the same, from a keyword's block written in place
                namespace[name] = _walk(programs.keyword_blocks[what[0]], what[1])
            elif kind != "same":
                namespace[name] = made(kind, what, programs)
        go = FunctionType(fn.__code__, namespace)
        go.source = fn.source
        return go
    writer = _Writer(block, programs)
    fn = write_function(writer.gen, "go", "g, f", f"<kotc {block.where}>")
    # the ruleset and statements kept with it: their ids in the key stay theirs
    _WRITTEN[key] = (fn, writer.gen.recipes, programs and programs.rs, _nodes(stmts))
    return fn


# a line that sets a local to `len(frames)`: its indent, the local
_TOP = re.compile(r"( *)(_\d+) = len\(frames\)")
# the names `frames` and `env` in a line of code (not in a string)
_FRAMES = re.compile(r"(?<![\w'.])frames(?![\w'])")
_ENV = re.compile(r"(?<![\w'.])env(?![\w'])")

# written `go` functions and how their constants are made, by what they are written
# from (see `_written`)
_WRITTEN: dict[tuple, tuple] = {}


def _shape(stmts: list) -> tuple:
    """What a block's written function depends on, statement by statement (see
    `Programs.stmt`); a statement made elsewhere, by whether it is simple."""
    return tuple(
        [
            st.shape
            if hasattr(st, "shape")
            else (0, getattr(st, "simple", False), getattr(st, "tail", False), None)
            for st in stmts
        ]
    )


def _walk(x: Any, path: tuple) -> Any:
    """The statement or branch at `path` from block `x` (see `_Writer.at`)."""
    for k, index in enumerate(path):
        x = x.stmts[index] if k % 2 == 0 else x.branches[index]
    return x


def _nodes(stmts: list) -> list:
    found = []
    for st in stmts:
        found.append(getattr(st, "node", None))
        for b in getattr(st, "branches", ()):
            if b is not None:
                found.extend(_nodes(b.stmts))
    return found


def made(kind: str, what: Any, programs: Programs) -> Any:
    """A constant of a written `go` function, made for another engine's block: an
    attribute of its programs, a closure of an expression, the frame class (see
    `pyexpr.KeptGen`)."""
    if kind == "attr":
        return getattr(programs, what)
    if kind == "closure":
        return programs.closure(what)
    return Frame


class _Writer:
    """The body of a block's `go` function (see `_written`), in a `pyexpr._Gen`."""

    def __init__(self, block: Block, programs: Programs | None):
        stmts = block.stmts
        self.p = programs
        self.gen = gen = KeptGen(programs)
        # the `repeat`s, and branches of `if`s, written in place around the
        # statement being written, that would have had frames of their own: the
        # local holding where the frames above this one start, the block, the local
        # holding the rounds left (None for a branch), the position in the block
        # being written, and the local holding the frame's env
        self.loops: list[tuple[str, str, str | None, list, str]] = []
        # the keywords whose bodies are being written in place (see `call_in_place`),
        # innermost last: a statement's path starts from the block of the last
        self.keywords: list[str] = []
        # where a frame may pick up: at its start, at a statement that may wait or
        # push and just after it, at its end (`stop`); a frame is never left at a
        # simple statement, so one that follows another is not tested apart
        entries = {0}
        for i, st in enumerate(stmts):
            if not getattr(st, "simple", False):
                entries.update((i, i + 1))
        for i, st in enumerate(stmts):
            if i in entries and len(entries) > 1:
                gen.depth = 1
                gen.emit(f"if pc <= {i}:")
                gen.depth = 2
            self.stmt(st, i, (i,))
        gen.depth = 1
        # done: the frame is taken off, or its loop starts it again at 0
        gen.emit(f"return {NEXT}")
        # the frame's fields and the game's frames, read once where the body does
        # (a frame of simple statements only is never left but at its start: no
        # position to read)
        head = ["    pc = f.pc"] if len(entries) > 1 else []
        if any(_FRAMES.search(line) for line in gen.lines):
            head.append("    frames = g.frames")
        if any(_ENV.search(line) for line in gen.lines):
            head.append("    env = f.env")
        gen.lines[:0] = head

    def stmt(self, st: Step, i: int, path: tuple) -> None:
        """Write statement `st` of the block, at position `i` (or in a branch of the
        statement there); `path` finds it from the block (see `made`)."""
        gen = self.gen
        node = getattr(st, "node", None)
        write = None if node is None else getattr(self, f"_w_{type(node).__name__}", None)
        if isinstance(node, ast.Repeat) and not hasattr(st, "branches"):
            write = None  # a body that may wait: its own frame, from the closure
        if write is not None:
            self.path = path
            start = len(gen.lines)
            self.keep_reads = {}
            write(st, i)
            if len(gen.lines) == start:
                gen.emit("pass")
            # what it read of `env` is not read again by the next statement: it may
            # have changed since (but what a `let` read and bound, it cannot have,
            # nor what one that only moves cards or sets their fields (`_KEEPS`)
            # read; an `if`'s branch reads what its condition read)
            kept = gen.env_reads() if type(node).__name__ in _KEEPS else self.keep_reads
            # (but not what a statement in a branch of it read, in the branch)
            gen.read = {k: v for k, v in kept.items() if v[1] <= gen.depth}
            return
        step = gen.const(st, self.at(path))
        if getattr(st, "simple", False):
            gen.emit(f"{step}(g, f)")
            return
        gen.emit(f"f.pc = {i}")
        gen.emit(f"code = {step}(g, f)")
        if self.loops:  # a tail: never waits; it may push, as it goes on or not
            gen.emit("if code or frames[-1] is not f:")
            gen.depth += 1
            self.pushed(i)
            gen.depth -= 1
            return
        gen.emit("if code:")  # PUSHED or WAIT
        gen.emit("    return code")
        gen.emit("if frames[-1] is not f:")  # it fired something that pushed
        gen.emit(f"    f.pc = {i + 1}")
        gen.emit(f"    return {PUSHED}")

    def at(self, path: tuple) -> tuple:
        """How another engine finds the statement or branch at `path` (see `made`):
        from the block, or from the block of the keyword written in place."""
        if self.keywords:
            return ("kw", (self.keywords[-1], path))
        return ("at", path)

    def pushed(self, i: int, moved: bool = False) -> None:
        """What follows a push by the statement at `i` (or in its place): the frame
        moves on past it (unless `moved` already). In a `repeat` written in place,
        the loop goes on in a frame of its own, under what was pushed, as if it had
        run in one all along: at the statement after this one, with the rounds
        left (see `_w_Repeat`)."""
        gen = self.gen
        if self.loops:
            frame = gen.const(Frame, ("Frame", None))
        for top, body, rounds, at, env in reversed(self.loops):  # the innermost first
            t = gen.tmp()
            loop = "" if rounds is None else f", ['repeat', {rounds}]"
            gen.emit(f"{t} = {frame}({body}, {env}{loop})")
            gen.emit(f"{t}.pc = {at[0] + 1}")
            gen.emit(f"frames.insert({top}, {t})")
        if not moved:
            gen.emit(f"f.pc = {i + 1}")
        gen.emit(f"return {PUSHED}")

    def frames_top(self) -> str:
        """A local holding `len(frames)`: the one the line just written made, if it
        did (nothing has run since), else a new one."""
        gen = self.gen
        last = _TOP.fullmatch(gen.lines[-1]) if gen.lines else None
        if last and len(last[1]) == 4 * gen.depth:  # in the same block
            return last[2]
        return gen.into("len(frames)")

    # --- statements written in place: each as its `Programs._s_` closure runs ------

    def atom(self, expr: str) -> str:
        """`expr` as a local or a literal: into a new local unless it is one."""
        if expr.isidentifier() or expr.lstrip("-").isdigit():
            return expr
        return self.gen.into(expr)

    def _w_Let(self, st: Step, i: int) -> None:
        gen, s = self.gen, st.node
        v = gen.value(s.value)
        if v in gen.seat_lists:
            v = gen.into(f"list({v})")
        elif v not in gen.fresh and v not in ("None", "True", "False") and not (
            v[:1].isdigit()
        ):  # not a new list, nor a list at all: a list is copied
            v = gen.into(f"list({v}) if isinstance({v}, list) else {v}")
        gen.emit(f"env[{s.name!r}] = {v}")
        gen.fresh.discard(v)  # the list is env's now too
        # what comes next reads the name as bound here, and what was read before
        self.keep_reads = {**gen.env_reads(), s.name: (v, gen.depth)}

    def items(self, e: ast.Expr) -> str:
        """An atom holding the value of `e`, a statement's target, for `each`."""
        gen = self.gen
        v = gen.value(e)
        if v in gen.seat_lists:  # the game's own list: a copy
            v = gen.into(f"list({v})")
            gen.fresh.add(v)
        return v

    def each(self, v: str, act: Callable[[str], str], copy: bool = False) -> None:
        """The line `act(item)` for each item of the value in atom `v` (see
        `items`), as `as_items_of` lists them; for a card id, the commonest, with
        no loop. With `copy`, a list that is not a new one is copied first (the
        act may change it)."""
        gen = self.gen
        if v not in gen.fresh and v not in gen.card_lists:
            gen.emit(f"if type({v}) is int:")
            gen.emit(f"    {act(v)}")
            gen.emit("else:")
            gen.depth += 1
        items = gen.items_of(v)
        if copy and v not in gen.fresh:
            items = f"list({items})"
        gen.emit(f"for _c in {items}:")
        gen.emit(f"    {act('_c')}")
        if v not in gen.fresh and v not in gen.card_lists:
            gen.depth -= 1

    def _w_Move(self, st: Step, i: int) -> None:
        gen, s, cite = self.gen, st.node, st.cite
        owner = ast.Path(s.dest.parts[:-1], origin=s.dest.origin)
        seat = self.atom(gen.result(owner))
        what = self.items(s.what)
        zone, mods, cite = repr(s.dest.parts[-1]), gen.const(s.mods), gen.const(cite)
        self.each(what, lambda c: f"g.move({c}, {seat}, {zone}, {mods}, {cite})", True)

    def _w_Call(self, st: Step, i: int) -> None:
        gen, p, s = self.gen, self.p, st.node
        kw = p.rs.keywords[s.keyword]
        fields, required = {}, []
        for a, param in zip(s.args, kw.params, strict=False):
            if (
                param.type == "stat"
                and isinstance(a, ast.Path)
                and len(a.parts) == 1
                and a.parts[0] in p.stats
            ):  # a bare stat name passed for a `stat` parameter: that name
                fields[param.name] = repr(a.parts[0])
            else:
                fields[param.name] = self.atom(gen.result(a))
        for param in kw.params:
            if not param.optional:
                required.append(fields.get(param.name, "None"))
        # in the parameters' order, as `dict.fromkeys` made it
        names = [param.name for param in kw.params]
        given = ", ".join(f"{n!r}: {fields.get(n, 'None')}" for n in names)
        if "None" in required:
            return  # nothing to act on: the effect is impossible
        # a literal is not None: only locals are tested
        tests = [f"{v} is not None" for v in required if v.startswith("_")]
        if tests:
            gen.emit(f"if {' and '.join(tests)}:")
            gen.depth += 1
        cite = gen.const(st.cite)
        if self.in_place(s.keyword):
            self.call_in_place(s.keyword, fields, i, cite)
        else:
            gen.emit(f"f.pc = {i + 1}")
            gen.emit(
                f"g.call_keyword({s.keyword!r}, {{{given}}}, env, "
                f"{kw.cost!r}, {cite})"
            )
            self.pushed(i, moved=True)
        if tests:
            gen.depth -= 1
        self.keep_reads = {}

    def in_place(self, name: str) -> bool:
        """Whether a call to keyword `name` may run its body here: no statement of
        it waits, each is written in place (none reads the frame's env), and it is
        not one being written already."""
        if name in self.keywords or len(self.keywords) >= 3:
            return False
        stmts = self.p.keyword_blocks[name].stmts
        return all(getattr(st, "tail", False) and _in_place(st) for st in stmts)

    def call_in_place(self, name: str, fields: dict, i: int, cite: str) -> None:
        """A call to keyword `name` whose body runs here, with the env
        `Game.call_keyword` makes it, when that would push the body's own frame:
        no ability is triggered by it and no counter in play may react to it (else
        `Game.call_keyword` is called). Should a statement of
        the body push a frame, the rest goes on in the body's frame, put under
        what was pushed (`pushed`)."""
        gen, kw = self.gen, self.p.rs.keywords[name]
        given = "".join(f", {p.name!r}: {fields.get(p.name, 'None')}" for p in kw.params)
        r, cp = gen.into("g.referee"), gen.into("g.counters_in_play")
        kinds = f"{cp}.keys().isdisjoint({r}.reaction_kinds.get"
        gen.emit(
            f"if {name!r} in {r}.listened or {cp} and (not {kinds}(('would', {name!r}),"
            f" ())) or not {kinds}((None, {name!r}), ()))):"
        )
        gen.depth += 1
        gen.emit(f"f.pc = {i + 1}")
        gen.emit(
            f"g.call_keyword({name!r}, {{{given[2:]}}}, env, {kw.cost!r}, {cite})"
        )
        self.pushed(i, moved=True)
        gen.depth -= 1
        gen.emit("else:")
        gen.depth += 1
        usage = gen.into("g.usage")
        gen.emit(f"{usage}[{name!r}] = {usage}.get({name!r}, 0) + 1")
        outer = gen.into("env")
        cost = ", '__cost': True" if kw.cost else ""
        gen.emit(
            f"env = {{'you': {outer}['you']{given}, '__within': {name!r}{cost}}}"
        )
        if not kw.cost:
            gen.emit(f"if {outer}.get('__cost'):")
            gen.emit("    env['__cost'] = True")
        # the keyword's env, read afresh but for its parameters, known to be here
        # (a new list among them is env's now too)
        gen.read = {
            k: (v, gen.depth)
            for k, v in fields.items()
            if v.isidentifier() or v.lstrip("-").isdigit()
        }
        gen.fresh.difference_update(fields.values())
        top = self.frames_top()
        # what is pushed from the body leaves frames of the caller's env below
        loops = self.loops
        self.loops = [(*x[:4], outer if x[4] == "env" else x[4]) for x in loops]
        at, path = [0], self.path
        self.keywords.append(name)
        body = gen.const(self.p.keyword_blocks[name], self.at(()))
        self.loops.append((top, body, None, at, "env"))
        for j, st in enumerate(self.p.keyword_blocks[name].stmts):
            at[0] = j
            self.stmt(st, i, (j,))
        self.keywords.pop()
        self.loops, self.path = loops, path
        gen.emit(f"env = {outer}")
        gen.read = {}
        gen.depth -= 1

    def _w_If(self, st: Step, i: int) -> None:
        gen, s, path = self.gen, st.node, self.path
        then, other = st.branches
        gen.emit(f"if {gen.value(s.cond)}:")
        read = dict(gen.read)  # what the condition read: each branch follows it alone
        gen.depth += 1
        self.branch(then, i, (*path, 0))
        gen.depth -= 1
        if other is not None:
            gen.read = read
            gen.emit("else:")
            gen.depth += 1
            self.branch(other, i, (*path, 1))
            gen.depth -= 1

    def branch(self, block: Block, i: int, path: tuple) -> None:
        """A branch of an `if` at `i`: in place when it needs no frame of its own
        (see `_inline`), else run in one."""
        gen = self.gen
        start = len(gen.lines)
        if _inline(block)[0] is None and all(
            getattr(st, "tail", False) for st in block.stmts
        ):
            # none of it waits: run here, and should one of its statements push a
            # frame, the rest goes on in a frame of the branch's own, put under
            # what was pushed, as the branch's frame would have been (`pushed`)
            top, at = self.frames_top(), [0]
            self.loops.append((top, gen.const(block, self.at(path)), None, at, "env"))
            for j, st in enumerate(block.stmts):
                at[0] = j
                self.stmt(st, i, (*path, j))
            self.loops.pop()
            return
        if _inline(block)[0] is None:
            frame = gen.const(Frame, ("Frame", None))
            block = gen.const(block, self.at(path))
            gen.emit(f"f.pc = {i + 1}")
            gen.emit(f"frames.append({frame}({block}, env))")
            self.pushed(i, moved=True)
            return
        # the simple statements, then the tail if any: all of them, in order
        for j, st in enumerate(block.stmts):
            self.stmt(st, i, (*path, j))
        if len(gen.lines) == start:
            gen.emit("pass")

    def _w_AddOp(self, st: Step, i: int) -> None:
        s = st.node
        sign = 1 if s.op == "add" else -1
        self.assign(s.target, s.amount, "change", sign, s.until, st.cite)

    def _w_SetOp(self, st: Step, i: int) -> None:
        s = st.node
        self.assign(s.target, s.value, "assign", None, s.until, st.cite)

    def assign(self, target: ast.Path, value, method: str, sign, until, cite) -> None:
        gen = self.gen
        field = target.parts[-1]
        if field in self.p.stats:
            name = repr(field)
        else:  # a name bound to a stat (`which`) stands for that stat
            name = gen.into(f"env.get({field!r}, {field!r})")
        owner = ast.Path(target.parts[:-1], origin=target.origin)
        obj = self.items(owner)
        v = self.atom(gen.result(value))
        if sign is not None:
            v = gen.into(f"{sign} * {v}")
        until, cite = gen.const(until), gen.const(cite)
        self.each(obj, lambda o: f"g.{method}({o}, {name}, {v}, {until}, {cite})")

    def _w_Exhaust(self, st: Step, i: int) -> None:
        gen, s, cite = self.gen, st.node, st.cite
        what = self.atom(gen.result(s.what, items=True))
        # none: no call
        gen.emit(f"if {what}:")
        gen.emit(f"    g.set_exhausted({what}, {not s.unexhaust}, {gen.const(cite)})")

    def _w_Repeat(self, st: Step, i: int) -> None:
        """A `repeat` whose body never waits, its rounds run here: a round that
        pushes a frame leaves the rest to a frame of the body's own, put under
        what it pushed (`pushed`), as the closure would have made it."""
        gen, (body,) = self.gen, st.branches
        times = self.atom(gen.result(st.node.times))
        # one round, written as a number (`draw 1`): the body once, no loop, and
        # what was read before holds in it
        once = times == "1"
        rounds = times if once else gen.tmp()
        if not getattr(st, "simple", False):
            top = self.frames_top()
            at = [0]
            body_k = gen.const(body, self.at((*self.path, 0)))
            self.loops.append((top, body_k, rounds, at, "env"))
        if not once:
            gen.emit(f"for {rounds} in range({times}, 0, -1):")
            gen.depth += 1
            gen.read = {}  # a round may change what the one before read
        path = self.path
        for j, inner in enumerate(body.stmts):
            if not getattr(st, "simple", False):
                at[0] = j
            self.stmt(inner, i, (*path, 0, j))
        if not once:
            if not body.stmts:
                gen.emit("pass")
            gen.depth -= 1
        if not getattr(st, "simple", False):
            self.loops.pop()

    def _w_Fatigue(self, st: Step, i: int, flag: bool = True) -> None:
        gen = self.gen
        what = self.atom(gen.result(st.node.what, items=True))
        gen.emit(f"if {what}:")  # most often none: no call
        gen.emit(f"    g.fatigue({what}, {flag}, {gen.const(st.cite)})")

    def _w_Unfatigue(self, st: Step, i: int) -> None:
        self._w_Fatigue(st, i, False)

    def _w_Reset(self, st: Step, i: int) -> None:
        gen = self.gen
        what = self.atom(gen.result(st.node.what, items=True))
        gen.emit(f"if {what}:")
        gen.emit(f"    g.reset_stats({what}, {gen.const(st.node.stats)})")

    def _w_Expire(self, st: Step, i: int) -> None:
        # nothing marked, most often: nothing to expire, no call
        self.gen.emit("if g.marked:")
        self.gen.emit(f"    g.expire({self.gen.const(st.node.until)})")

    def _w_Pay(self, st: Step, i: int) -> None:
        gen, s = self.gen, st.node
        gen.emit("if not env.get('__free'):")
        gen.depth += 1
        you = gen.into("env['you']")
        amount = self.atom(gen.result(s.amount))
        gen.emit(f"g.pay({you}, {amount}, {s.kind!r}, {gen.const(st.cite)})")
        gen.depth -= 1

    def _w_Place(self, st: Step, i: int) -> None:
        gen, s = self.gen, st.node
        n = self.atom(gen.result(s.count))
        if s.counter in self.p.counter_kinds:
            kind = repr(s.counter)
        else:
            kind = gen.into(f"env[{s.counter!r}]")
        target = self.items(s.target)
        cite = gen.const(st.cite)
        self.each(
            target, lambda c: f"g.place_counters({c}, {kind}, {n}, env['you'], {cite})"
        )

    def _w_Emit(self, st: Step, i: int) -> None:
        gen, s = self.gen, st.node
        params = [p.name for p in self.p.rs.events[s.event].params]
        fields = [
            f"{p!r}: {self.atom(gen.result(a))}"
            for p, a in zip(params, s.args, strict=False)
        ]
        gen.emit(f"f.pc = {i + 1}")
        cite = gen.const(st.cite)
        fields_dict = f"{{{', '.join(fields)}}}"
        gen.emit(f"g.referee.emit(g, {s.event!r}, {fields_dict}, env, {cite})")
        self.pushed(i, moved=True)


# statements written in place that change no env, nor run anything that could:
# they move cards or set their fields (`Game.move`, `fatigue`, `set_exhausted`,
# `reset_stats`, `expire`), or set or change a stat or field (`Game.assign`, which
# logs and runs nothing), and what was read of env before them holds after them
_KEEPS = frozenset(
    ["Move", "Fatigue", "Unfatigue", "Exhaust", "Reset", "Expire", "AddOp", "SetOp"]
)


def _next_iteration(g, f: Frame, loop: list) -> bool:
    """Advance a `for each` or `repeat` frame; False when the loop is done."""
    if loop[0] == "repeat":
        if loop[1] <= 1:
            return False
        loop[1] -= 1
        f.pc = 0
        return True
    _, var, items, index = loop
    index += 1
    if index >= len(items):
        return False
    loop[3] = index
    f.env[var] = items[index]
    f.pc = 0
    return True


# --- compiling ----------------------------------------------------------------------


class Programs:
    """Every compiled block of one ruleset (and its cards), by number."""

    def __init__(self, ruleset: Ruleset, printed: frozenset[str] = frozenset()):
        self.rs = ruleset
        self.blocks: list[Block] = []
        self.terms: dict[str, tuple[tuple[str, ...], Eval]] = {}
        self.keyword_blocks: dict[str, Block] = {}
        self.card_types = set(ruleset.card_types)
        self.modifiers = set(ruleset.modifiers)
        self.zones = set(ruleset.zones)
        self.stats = set(ruleset.stats)
        # every name a card's `stats` may hold: the edition's stats and those printed
        # on the cards in play (`Game.put` keeps to these)
        self.card_keys = frozenset(self.stats | printed)
        self.counter_kinds = {c.name: c.counter_kind for c in ruleset.counters.values()}
        cost = ruleset.setting("cards", "cost")
        self.cost_stat = cost.stat if cost else None
        # the terms written as expressions: what generated code may write in place
        self.term_bodies = {
            t.name: t for t in ruleset.terms.values() if t.value is not None
        }
        for term in self.term_bodies.values():
            self.terms[term.name] = ((), None)  # placeholder for recursion
        for term in self.term_bodies.values():
            self.terms[term.name] = (
                tuple(p.name for p in term.params),
                self.expr(term.value),
            )
        for kw in ruleset.keywords.values():
            self.keyword_blocks[kw.name] = self.block(
                kw.body, kw.cite, f"keyword {kw.name}"
            )

    def block(self, stmts: tuple, cite: ast.Citation | None, where: str) -> Block:
        b = Block(len(self.blocks), [], cite, where)
        self.blocks.append(b)
        b.stmts = [self.stmt(s, cite, where) for s in stmts]
        return b

    # --- expressions -------------------------------------------------------------

    def expr(self, e: ast.Expr) -> Eval:
        """The expression as one generated Python function (see `pyexpr`)."""
        return compile_expr(self, e)

    def items(self, e: ast.Expr) -> Eval:
        """`expr`, for a statement that acts on each item of the value: a list or a
        tuple (none for None, one for a single value), made in the same function."""
        return compile_expr(self, e, items=True)

    def closure(self, e: ast.Expr) -> Eval:
        """The expression as closures, one per node: the semantics `pyexpr` follows,
        and what it keeps for a form it does not write out."""
        return getattr(self, f"_e_{type(e).__name__}")(e)

    def _e_IntLit(self, e):
        v = e.value
        return lambda g, env: v

    _e_BoolLit = _e_IntLit

    def _e_NoneLit(self, e):
        return lambda g, env: None

    def _e_Path(self, e: ast.Path) -> Eval:
        head, *rest = e.parts
        get_head = self._head(head)
        if not rest:
            return get_head
        attrs = tuple(rest)
        if len(attrs) == 1:
            (a,) = attrs
            return lambda g, env: g.attr(get_head(g, env), a, env)
        if len(attrs) == 2:
            a, b = attrs
            return lambda g, env: g.attr(g.attr(get_head(g, env), a, env), b, env)

        def path(g, env):
            value = get_head(g, env)
            for a in attrs:
                value = g.attr(value, a, env)
            return value

        return path

    def _head(self, name: str) -> Eval:
        if name == "active":
            return lambda g, env: env.get("active", g.active_seat)
        if name == "players":
            return lambda g, env: g.seats_in_game()
        if name in ("game", "chain", "battle"):
            return lambda g, env: g.context(name)

        def lookup(g, env):
            try:
                return env[name]
            except KeyError:
                raise RuntimeError(f"'{name}' is not bound here") from None

        return lookup

    def zones_read(self, e: ast.Node) -> set[str]:
        """The zone names an expression reads (so the game knows when to re-check it)."""
        return {
            part for path in ast.paths(e) for part in path.parts if part in self.zones
        }

    def _e_FuncCall(self, e: ast.FuncCall) -> Eval:
        args = [self.expr(a) for a in e.args]
        if e.func in self.terms:
            return self._term_call(e.func, args)
        if e.func in ("placed_by", "counters_on", "tagged") and len(e.args) >= 2:
            # the second argument may be a counter or tag name written bare
            name = e.args[1]
            if isinstance(name, ast.Path) and len(name.parts) == 1:
                bare = name.parts[0]
                args[1] = lambda g, env, bare=bare: env.get(bare, bare)
        fn = BUILTINS[e.func]
        if len(args) == 1:
            a0 = args[0]
            return lambda g, env: fn(g, a0(g, env))
        return lambda g, env: fn(g, *[a(g, env) for a in args])

    def _term_call(self, name: str, args: list[Eval]) -> Eval:
        def call(g, env):
            params, body = self.terms[name]
            inner = {"you": env.get("you")}
            for p, a in zip(params, args, strict=False):
                inner[p] = a(g, env)
            return body(g, inner)

        return call

    def _e_Unary(self, e: ast.Unary) -> Eval:
        inner = self.expr(e.operand)
        return lambda g, env: not inner(g, env)

    def _e_Binary(self, e: ast.Binary) -> Eval:
        op = e.op
        if op == "is":
            return self._is(e)
        left, right = self.expr(e.left), self.expr(e.right)
        if op == "and":
            return lambda g, env: bool(left(g, env)) and bool(right(g, env))
        if op == "or":
            return lambda g, env: bool(left(g, env)) or bool(right(g, env))
        if op == "in":

            def contains(g, env):
                r = right(g, env)
                x = left(g, env)
                return x in r if isinstance(r, (list, tuple)) else x == r

            return contains
        if op == "+":

            def plus(g, env):
                a, b = left(g, env), right(g, env)
                if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
                    return list(as_items_of(a)) + [
                        x for x in as_items_of(b) if x not in as_items_of(a)
                    ]
                return a + b

            return plus
        if op == "-":

            def minus(g, env):
                a, b = left(g, env), right(g, env)
                if isinstance(a, (list, tuple)):
                    drop = as_items_of(b)
                    return [x for x in a if x not in drop]
                return a - b

            return minus
        fn = _BINARY[op]
        return lambda g, env: fn(left(g, env), right(g, env))

    def _is(self, e: ast.Binary) -> Eval:
        left = self.expr(e.left)
        name = e.right.parts[0]
        if name in self.card_types:
            return lambda g, env: g.card_is_type(left(g, env), name)
        if name == "pawn":
            return lambda g, env: g.cards[left(g, env)].pawn
        if name == "player":
            return lambda g, env: isinstance(left(g, env), Seat)
        if name in self.modifiers:
            return lambda g, env: g.ability_has(left(g, env), name)
        if name in ("proactive", "reactive", "inert"):
            kinds = self.counter_kinds
            return lambda g, env: kinds.get(left(g, env)) == name
        return lambda g, env: left(g, env) == name

    def _e_Filtered(self, e: ast.Filtered) -> Eval:
        base, cond = self.expr(e.base), self.expr(e.cond)

        def filtered(g, env):
            items = as_items_of(base(g, env))
            if not items:
                return []
            var = element_name(items[0])
            missing = object()
            saved = env.get(var, missing)
            out = []
            try:
                for x in items:
                    env[var] = x
                    if cond(g, env):
                        out.append(x)
            finally:
                if saved is missing:
                    env.pop(var, None)
                else:
                    env[var] = saved
            return out

        return filtered

    # --- statements --------------------------------------------------------------

    def stmt(self, s: ast.Stmt, cite, where) -> Step:
        step = getattr(self, f"_s_{type(s).__name__}")(s, cite, where)
        # what a block's written function needs to write the statement in place
        step.node, step.cite, step.programs = s, cite, self
        if type(s).__name__ in _SIMPLE:
            step.simple = True
        if type(s).__name__ in _TAIL or getattr(step, "simple", False):
            step.tail = True
        # what the written function depends on (see `_written`): which statement
        # (each of a ruleset is one object), how it runs, and the same of its
        # branches
        branches = getattr(step, "branches", None)
        step.shape = (
            id(s),
            getattr(step, "simple", False),
            getattr(step, "tail", False),
            None
            if branches is None
            else tuple(None if b is None else _shape(b.stmts) for b in branches),
        )
        return step

    def _zone_target(self, dest: ast.Expr) -> tuple[Eval, str]:
        """A destination `x.y.zone`: what evaluates the seat it belongs to, and the
        zone's name."""
        assert isinstance(dest, ast.Path)
        return self.expr(ast.Path(dest.parts[:-1], origin=dest.origin)), dest.parts[-1]

    def _s_Move(self, s: ast.Move, cite, where):
        what, mods = self.items(s.what), s.mods
        owner, zone = self._zone_target(s.dest)

        def move(g, f):
            seat = owner(g, f.env)
            for c in list(what(g, f.env)):
                g.move(c, seat, zone, mods, cite)
            return NEXT

        return move

    def _s_Exhaust(self, s: ast.Exhaust, cite, where):
        what, flag = self.items(s.what), not s.unexhaust

        def exhaust(g, f):
            g.set_exhausted(what(g, f.env), flag, cite)
            return NEXT

        return exhaust

    def _s_Fatigue(self, s, cite, where):
        what = self.items(s.what)

        def fatigue(g, f):
            g.fatigue(what(g, f.env), True, cite)
            return NEXT

        return fatigue

    def _s_Unfatigue(self, s, cite, where):
        what = self.items(s.what)

        def unfatigue(g, f):
            g.fatigue(what(g, f.env), False, cite)
            return NEXT

        return unfatigue

    def _assign_target(self, target: ast.Path) -> Callable:
        owner = self.expr(ast.Path(target.parts[:-1], origin=target.origin))
        field = target.parts[-1]

        def resolve(g, env):
            # a name bound to a stat (`which`) stands for that stat
            name = env.get(field, field) if field not in self.stats else field
            return owner(g, env), name

        return resolve

    def _s_AddOp(self, s: ast.AddOp, cite, where):
        target, amount = self._assign_target(s.target), self.expr(s.amount)
        sign, until = (1 if s.op == "add" else -1), s.until

        def add(g, f):
            obj, name = target(g, f.env)
            delta = sign * amount(g, f.env)
            for o in as_items_of(obj):  # nothing to change: the effect does nothing
                g.change(o, name, delta, until, cite)
            return NEXT

        return add

    def _s_SetOp(self, s: ast.SetOp, cite, where):
        target, value, until = self._assign_target(s.target), self.expr(s.value), s.until

        def set_(g, f):
            obj, name = target(g, f.env)
            new = value(g, f.env)
            for o in as_items_of(obj):
                g.assign(o, name, new, until, cite)
            return NEXT

        return set_

    def _s_Roll(self, s: ast.Roll, cite, where):
        count, name = self.expr(s.count), s.name

        def roll(g, f):
            dice = g.roll(count(g, f.env), f.env["you"], cite)
            f.env[name] = dice
            f.pc += 1
            for d in reversed(dice):
                g.fire("rolled", {"die": d, "roller": f.env["you"]}, f.env, cite)
            return PUSHED

        return roll

    def _s_Reroll(self, s, cite, where):
        die = self.expr(s.die)

        def reroll(g, f):
            for d in as_items_of(die(g, f.env)):
                g.reroll(d, cite)
            return NEXT

        return reroll

    def _counter_name(self, name: str) -> Eval:
        if name in self.counter_kinds:
            return lambda g, env: name
        return lambda g, env: env[name]

    def _s_Place(self, s: ast.Place, cite, where):
        count, kind, target = (
            self.expr(s.count),
            self._counter_name(s.counter),
            self.expr(s.target),
        )

        def place(g, f):
            n, k = count(g, f.env), kind(g, f.env)
            for c in as_items_of(target(g, f.env)):
                g.place_counters(c, k, n, f.env["you"], cite)
            return NEXT

        return place

    def _s_Strip(self, s: ast.Strip, cite, where):
        count, kind, target = (
            self.expr(s.count),
            self._counter_name(s.counter),
            self.expr(s.target),
        )

        def strip(g, f):
            n, k = count(g, f.env), kind(g, f.env)
            for c in as_items_of(target(g, f.env)):
                g.strip_counters(c, k, n, cite)
            return NEXT

        return strip

    def _s_Pop(self, s: ast.Pop, cite, where):
        kind, target = self._counter_name(s.counter), self.expr(s.target)

        def pop(g, f):
            f.pc += 1
            g.pop_counter(target(g, f.env), kind(g, f.env), f.env["you"], cite)
            return PUSHED

        return pop

    def _s_Give(self, s: ast.Give, cite, where):
        what, player = self.expr(s.what), self.expr(s.player)

        def give(g, f):
            seat = player(g, f.env)
            for c in list(as_items_of(what(g, f.env))):
                g.give(c, seat, cite)
            return NEXT

        return give

    def _s_Reveal(self, s, cite, where):
        what = self.expr(s.what)

        def reveal(g, f):
            g.events.append(Revealed(list(as_items_of(what(g, f.env))), _text(cite)))
            return NEXT

        return reveal

    def _s_See(self, s: ast.See, cite, where):
        what = self.expr(s.what)
        who = self.expr(s.who) if s.who else None

        def see(g, f):
            seer = who(g, f.env) if who else f.env["you"]
            g.events.append(
                Seen(seer, list(as_items_of(what(g, f.env))), _text(cite))
            )
            return NEXT

        return see

    def _s_Choose(self, s: ast.Choose, cite, where):
        what = self.items(s.what)
        lo = self.expr(s.count.lo) if s.count.lo is not None else None
        hi = self.expr(s.count.hi) if s.count.hi is not None else None
        n = self.expr(s.count.n) if s.count.n is not None else None
        # a count written as a number is that number: no call to read it
        lo_n, hi_n = _literal(s.count.lo), _literal(s.count.hi)
        chooser = self.expr(s.chooser) if s.chooser else None
        single = isinstance(s.count.n, ast.IntLit) and s.count.n.value == 1
        name, random, any_ = s.name, s.random, s.count.any
        prompt = f"choose for '{name}'"

        def choose(g, f):
            env = f.env
            st = f.scratch
            if st is None:
                items = list(dict.fromkeys(what(g, env)))
                if n is not None:
                    least = most = n(g, env)
                elif any_:
                    least, most = 0, len(items)
                else:
                    least = lo(g, env) if lo_n is None else lo_n
                    most = hi(g, env) if hi_n is None else hi_n
                if n is not None and len(items) < least:
                    env[name] = None if single else []  # "exactly": impossible
                    return NEXT
                most = min(most, len(items))
                least = min(least, most)
                if random:
                    picked = g.rng.sample(
                        items, g.rng.randint(least, most) if least != most else most
                    )
                    env[name] = (picked[0] if picked else None) if single else picked
                    return NEXT
                st = f.scratch = [items, [], least, most]
            items, picked, least, most = st
            answer = g.answer  # taken, as `Game.take_answer` takes it
            g.answer = None
            if answer is not None:
                if answer.kind == "pick":
                    picked.append(answer.value)
                    items.remove(answer.value)
                else:
                    most = st[3] = len(picked)
            if len(picked) >= most or not items:
                f.scratch = None
                env[name] = (picked[0] if picked else None) if single else picked
                return NEXT
            who = chooser(g, env) if chooser else env["you"]
            for x in items:
                if type(x) is DieRef:  # a die's label is made now
                    options = [g.pick_action(x) for x in items]
                    break
            else:
                options = picks(items, g.namer)
            if len(picked) >= least:
                options.append(DONE)
            # the decision `Game.ask` sets
            g.decision = Decision(int(who), prompt, options, "vm", cite)
            return WAIT

        return choose

    def _s_Either(self, s: ast.Either, cite, where):
        blocks = [self.block(o, cite, where) for o in s.options]
        who = self.expr(s.who) if s.who else None
        labels = [f"option {i + 1}: {_gist(o)}" for i, o in enumerate(s.options)]

        def either(g, f):
            answer = g.take_answer()
            if answer is None:
                seat = who(g, f.env) if who else f.env["you"]
                options = [Action("option", i, label) for i, label in enumerate(labels)]
                return g.ask(seat, "either", options, cite=cite)
            f.pc += 1
            g.frames.append(Frame(blocks[answer.value], f.env))
            return PUSHED

        return either

    def _s_ForEach(self, s: ast.ForEach, cite, where):
        what, body = self.items(s.what), self.block(s.body, cite, where)
        chooser = self.expr(s.chooser) if s.chooser else None
        var = s.name

        inline = body.stmts if body.simple else None

        def start(g, f, items):
            if inline is not None:  # straight-line body: loop here, no frame
                env = f.env
                for x in items:
                    env[var] = x
                    for st in inline:
                        st(g, f)
                return NEXT
            f.pc += 1
            f.env[var] = items[0]
            g.frames.append(Frame(body, f.env, ["each", var, items, 0]))
            return PUSHED

        def for_each(g, f):
            st = f.scratch
            if st is None:
                items = list(what(g, f.env))
                if not items:
                    return NEXT
                if chooser is None or len(items) < 2:
                    return start(g, f, items)
                st = f.scratch = [items, [], chooser(g, f.env)]
            remaining, ordered, who = st
            answer = g.take_answer()
            if answer is not None:
                ordered.append(answer.value)
                remaining.remove(answer.value)
            if len(remaining) <= 1:
                f.scratch = None
                return start(g, f, ordered + remaining)
            return g.ask(
                who, f"order '{var}'", [g.pick_action(x) for x in remaining], cite=cite
            )

        return for_each

    def _s_If(self, s: ast.If, cite, where):
        cond = self.expr(s.cond)
        then = self.block(s.then, cite, where)
        other = self.block(s.otherwise, cite, where) if s.otherwise else None
        # a branch of simple statements, the last of which may be a tail, runs here
        # (no frame): the statements before the last, and the last, if a tail
        then_head, then_last = _inline(then)
        other_head, other_last = _inline(other) if other is not None else ((), None)

        def if_(g, f):
            env = f.env
            if cond(g, env):
                if then_head is not None:
                    for st in then_head:
                        st(g, f)
                    return NEXT if then_last is None else then_last(g, f)
                f.pc += 1
                g.frames.append(Frame(then, env))
                return PUSHED
            if other is None:
                return NEXT
            if other_head is not None:
                for st in other_head:
                    st(g, f)
                return NEXT if other_last is None else other_last(g, f)
            f.pc += 1
            g.frames.append(Frame(other, env))
            return PUSHED

        if_.branches = (then, other)
        if then.simple and (other is None or other.simple):
            if_.simple = True
        return if_

    def _s_May(self, s: ast.May, cite, where):
        body = self.block(s.body, cite, where)
        who = self.expr(s.who) if s.who else None

        def may(g, f):
            answer = g.take_answer()
            if answer is None:
                seat = who(g, f.env) if who else f.env["you"]
                return g.ask(
                    seat,
                    "may",
                    [Action("yes", None, "yes"), Action("no", None, "no")],
                    cite=cite,
                )
            f.pc += 1
            if answer.kind == "yes":
                g.frames.append(Frame(body, f.env))
            return PUSHED

        return may

    def _s_Emit(self, s: ast.Emit, cite, where):
        args = [self.expr(a) for a in s.args]
        params = [p.name for p in self.rs.events[s.event].params]
        name = s.event

        def emit(g, f):
            fields = {p: a(g, f.env) for p, a in zip(params, args, strict=False)}
            f.pc += 1
            g.emit(name, fields, f.env, cite)
            return PUSHED

        return emit

    def _s_Shuffle(self, s, cite, where):
        what = self.expr(s.what)

        def shuffle(g, f):
            g.shuffle(list(as_items_of(what(g, f.env))), cite)
            return NEXT

        return shuffle

    def _s_Let(self, s: ast.Let, cite, where):
        value, name = self.expr(s.value), s.name

        def let(g, f):
            v = value(g, f.env)
            f.env[name] = list(v) if isinstance(v, list) else v
            return NEXT

        return let

    def _s_Repeat(self, s: ast.Repeat, cite, where):
        times, body = self.expr(s.times), self.block(s.body, cite, where)

        inline = body.stmts if body.simple else None

        def repeat(g, f):
            n = times(g, f.env)
            if inline is not None:
                for _ in range(n):
                    for st in inline:
                        st(g, f)
                return NEXT
            f.pc += 1
            if n > 0:
                g.frames.append(Frame(body, f.env, ["repeat", n]))
            return PUSHED

        if inline is not None:
            repeat.simple = True
        if all(getattr(st, "tail", False) for st in body.stmts):
            repeat.branches = (body,)  # written in place (see `_Writer._w_Repeat`)
        return repeat

    def _s_Prevent(self, s, cite, where):
        def prevent(g, f):
            event = f.env.get("event")
            if event is not None:
                event["__prevented"] = True
                g.events.append(Prevented(event.get("__name"), _text(cite)))
            return NEXT

        return prevent

    def _s_Stop(self, s, cite, where):
        cond = self.expr(s.cond)

        def stop(g, f):
            # at the top of the ability's own block (as validated): its end
            if not cond(g, f.env):
                return NEXT
            f.pc = len(f.block.stmts)
            if f.env.get("__activating"):
                # a cost not paid, or targets chosen on activation not found: the
                # ability fails, and what the activation was to do goes too, down
                # to the link (or resolution) it was to make
                frames, i = g.frames, -2
                while True:
                    below = frames[i]
                    below.pc = len(below.block.stmts)
                    if not below.env.get("__activating"):
                        break
                    i -= 1
                then = below.env.get("__then")
                if then is not None:  # no link: what was to follow it happens now
                    below.block, below.pc = g.engine.programs.blocks[then[0]], 0
                    below.env = dict(then[1])
                g.events.append(Stopped(True, _text(cite)))
            else:
                g.events.append(Stopped(None, _text(cite)))
            return PUSHED  # `go` returns; run() finds the frame done

        return stop

    def _s_Negate(self, s, cite, where):
        what = self.expr(s.what)

        def negate(g, f):
            g.negate(list(as_items_of(what(g, f.env))), cite)
            return NEXT

        return negate

    def _s_Skip(self, s: ast.Skip, cite, where):
        step = s.step

        def skip(g, f):
            g.skip_step(step, cite)
            return NEXT

        return skip

    def _s_Perform(self, s: ast.Perform, cite, where):
        args = [self.expr(a) for a in s.args]
        who = self.expr(s.who) if s.who else None
        name, mods = s.action, s.mods

        def perform(g, f):
            referee = g.referee
            answer = g.take_answer()
            if answer is None:
                seat = who(g, f.env) if who else f.env["you"]
                values = [a(g, f.env) for a in args]
                choices = referee.perform_choices(g, name, values, mods, seat)
                if not choices:
                    g.events.append(CannotPerform(name, _text(cite)))
                    return NEXT
                if len(choices) > 1:
                    f.scratch = [choices, seat]
                    options = [
                        Action("option", i, " ".join(map(str, c)))
                        for i, c in enumerate(choices)
                    ]
                    return g.ask(seat, f"perform {name}", options, cite=cite)
                chosen = choices[0]
            else:
                choices, seat = f.scratch
                f.scratch = None
                chosen = choices[answer.value]
            f.pc += 1
            referee.push_action(g, name, chosen, mods, seat, f.env)
            return PUSHED

        return perform

    def _s_CreatePawn(self, s: ast.CreatePawn, cite, where):
        owner, z = self._zone_target(s.zone)
        source = self.expr(s.source) if s.source else None
        printed = [(v.stat, self.expr(v.value)) for v in s.printed]
        name = s.name

        def create(g, f):
            seat = owner(g, f.env)
            values = {stat: ev(g, f.env) for stat, ev in printed}
            f.env[name] = g.create_pawn(
                seat, z, source(g, f.env) if source else None, values, cite
            )
            return NEXT

        return create

    def _s_Pay(self, s: ast.Pay, cite, where):
        amount, kind = self.expr(s.amount), s.kind

        def pay(g, f):
            if not f.env.get("__free"):
                g.pay(f.env["you"], amount(g, f.env), kind, cite)
            return NEXT

        return pay

    def _s_Enlist(self, s, cite, where):
        what = self.expr(s.what)

        def enlist(g, f):
            for c in as_items_of(what(g, f.env)):
                g.enlist(c, cite)
            return NEXT

        return enlist

    def _s_Withdraw(self, s, cite, where):
        what = self.expr(s.what)

        def withdraw(g, f):
            for c in as_items_of(what(g, f.env)):
                g.withdraw(c, cite)
            return NEXT

        return withdraw

    def _s_Reorder(self, s: ast.Reorder, cite, where):
        what = self.expr(s.what)

        def reorder(g, f):
            # the team's player picks its members front to back; the last one left
            # takes the last place
            st = f.scratch
            if st is None:
                found = g.referee.formed_team(g, what(g, f.env))
                if found is None or len(found[0]) < 2:
                    return NEXT
                team, seat = found
                st = f.scratch = [int(seat), list(team), []]
            seat, remaining, ordered = st
            answer = g.take_answer()
            if answer is not None:
                ordered.append(answer.value)
                remaining.remove(answer.value)
            if len(remaining) > 1:
                options = [g.pick_action(c) for c in remaining]
                return g.ask(seat, "formation order", options, cite=cite)
            f.scratch = None
            g.referee.reorder_team(g, ordered + remaining, cite)
            return NEXT

        return reorder

    def _s_AfterChain(self, s: ast.AfterChain, cite, where):
        body = self.block(s.body, cite, where)

        def after_chain(g, f):
            g.after_chain(body, dict(f.env))
            return NEXT

        return after_chain

    def _s_Attack(self, s: ast.Attack, cite, where):
        victim, team, exhausting = self.expr(s.victim), self.expr(s.team), s.exhausting

        def attack(g, f):
            g.force_attack(
                f.env["you"],
                victim(g, f.env),
                list(as_items_of(team(g, f.env))),
                exhausting,
                cite,
            )
            return NEXT

        return attack

    def _s_Banish(self, s, cite, where):
        what = self.expr(s.what)

        def banish(g, f):
            for c in list(as_items_of(what(g, f.env))):
                g.banish(c, cite)
            return NEXT

        return banish

    def _s_EndGame(self, s, cite, where):
        def end(g, f):
            g.end_game("an effect ended the game", cite)
            return NEXT

        return end

    def _s_Reset(self, s: ast.Reset, cite, where):
        what, stats = self.items(s.what), s.stats

        def reset(g, f):
            g.reset_stats(what(g, f.env), stats)
            return NEXT

        return reset

    def _s_Expire(self, s: ast.Expire, cite, where):
        until = s.until

        def expire(g, f):
            g.expire(until)
            return NEXT

        return expire

    def _s_Resolve(self, s: ast.Resolve, cite, where):
        what = self.expr(s.what)
        then = self.block(s.then, cite, f"{where} then") if s.then else None

        def resolve(g, f):
            f.pc += 1
            g.resolve(what(g, f.env), f.env, cite, then)
            return PUSHED

        return resolve

    def _s_BeginBattle(self, s, cite, where):
        def begin(g, f):
            g.begin_battle(f.env["you"], cite)
            return NEXT

        return begin

    def _s_Mark(self, s: ast.Mark, cite, where):
        what, tag, until = self.expr(s.what), s.tag, s.until

        def mark(g, f):
            for c in as_items_of(what(g, f.env)):
                g.mark(c, tag, until)
            return NEXT

        return mark

    def _s_Pick(self, s: ast.Pick, cite, where):
        lo, hi = self.expr(s.lo), self.expr(s.hi)
        chooser = self.expr(s.chooser) if s.chooser else None
        name = s.name

        def pick(g, f):
            answer = g.take_answer()
            if answer is not None:
                f.env[name] = answer.value
                return NEXT
            low, high = lo(g, f.env), hi(g, f.env)
            if high <= low:
                f.env[name] = low
                return NEXT
            seat = chooser(g, f.env) if chooser else f.env["you"]
            return g.ask(
                seat,
                f"pick '{name}'",
                [Action("number", n, str(n)) for n in range(low, high + 1)],
                cite=cite,
            )

        return pick

    def _argument(self, e: ast.Expr, wanted: str) -> Eval:
        """An argument; a bare stat name passed for a `stat` parameter is that name."""
        if (
            wanted == "stat"
            and isinstance(e, ast.Path)
            and len(e.parts) == 1
            and e.parts[0] in self.stats
        ):
            name = e.parts[0]
            return lambda g, env: env.get(name, name) if name not in self.stats else name
        return self.expr(e)

    def _s_Call(self, s: ast.Call, cite, where):
        kw = self.rs.keywords[s.keyword]
        args = [
            self._argument(a, p.type) for a, p in zip(s.args, kw.params, strict=False)
        ]
        params = [p.name for p in kw.params]
        required = [p.name for p in kw.params if not p.optional]
        name, as_cost = s.keyword, kw.cost

        given = tuple(zip(params, args, strict=False))

        def call(g, f):
            env = f.env
            fields = dict.fromkeys(params)
            for p, a in given:
                fields[p] = a(g, env)
            for p in required:
                if fields[p] is None:
                    return NEXT  # nothing to act on: the effect is impossible
            f.pc += 1
            g.call_keyword(name, fields, env, as_cost, cite)
            return PUSHED

        return call


def _text(cite: ast.Citation | None) -> str | None:
    """A rule's citation as the log writes it."""
    return None if cite is None else cite.text


def _in_place(st: Step) -> bool:
    """Whether a statement is written all in place in its block's function (see
    `_Writer.stmt`), its branches too: no part of it runs as its closure."""
    node = getattr(st, "node", None)
    if node is None or not hasattr(_Writer, f"_w_{type(node).__name__}"):
        return False
    if isinstance(node, ast.Repeat) and not hasattr(st, "branches"):
        return False
    return all(
        b is None or all(_in_place(x) for x in b.stmts)
        for b in getattr(st, "branches", ())
    )


def _literal(e: ast.Expr | None) -> int | None:
    """The value of an integer literal; None for anything else."""
    if isinstance(e, ast.IntLit) and type(e.value) is int:
        return e.value
    return None


def _inline(block: Block) -> tuple[list | None, Step | None]:
    """How a branch runs in its `if`'s place: (the simple statements to run, then
    the tail to run last or None); (None, None) when it needs a frame of its own."""
    stmts = block.stmts
    if block.simple:
        return stmts, None
    if getattr(stmts[-1], "tail", False) and all(
        getattr(st, "simple", False) for st in stmts[:-1]
    ):
        return stmts[:-1], stmts[-1]
    return None, None


# Statements that never wait for a choice and, if they push a frame, move their
# own on first (`f.pc += 1`): one may end a branch an `if` runs in its place.
# Simple statements are tails too.
_TAIL = frozenset({"Call", "Emit", "Resolve", "Roll", "Pop", "If", "Repeat"})

# Statements that never wait for a choice nor push a frame; blocks made only of
# these run inline, without a frame of their own.
_SIMPLE = frozenset(
    {
        "Move",
        "Exhaust",
        "Fatigue",
        "Unfatigue",
        "AddOp",
        "SetOp",
        "Reroll",
        "Place",
        "Strip",
        "Give",
        "Reveal",
        "See",
        "Let",
        "Shuffle",
        "Prevent",
        "Negate",
        "Skip",
        "CreatePawn",
        "Pay",
        "Enlist",
        "Withdraw",
        "AfterChain",
        "Attack",
        "Banish",
        "EndGame",
        "Reset",
        "Expire",
        "BeginBattle",
        "Mark",
    }
)


_BINARY = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    # an order comparison with nothing in it (no such card) does not hold
    "<": lambda a, b: a is not None and b is not None and a < b,
    "<=": lambda a, b: a is not None and b is not None and a <= b,
    ">": lambda a, b: a is not None and b is not None and a > b,
    ">=": lambda a, b: a is not None and b is not None and a >= b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else 0,
}




# The elements of a value that may be one card or a collection (the public name).
as_list = as_items_of


def _gist(stmts: tuple, width: int = 60) -> str:
    """An option of an `either` as a player reads it: its statements on one line,
    cut short past `width` characters."""
    text = "; ".join(" ".join(unparse(st).split()) for st in stmts)
    return text if len(text) <= width else text[: width - 3].rstrip() + "..."
