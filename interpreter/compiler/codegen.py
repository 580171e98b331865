"""The code generator: the intermediate form written as Python, for speed.

One function per block (`go(g, f)`, as `kotc.runtime.vm` runs it) or per
expression (`(g, env) -> value`), its meaning the reference interpreter's
(`interp.py`), which the tests check it against. The source is built with a
structured writer (`Source`: lines in nested blocks, each written once, nothing
edited after it is written), compiled once per distinct text (`compiled`), and
registered with `linecache` under a name that says where it comes from, so
tracebacks and debuggers show the generated lines.

What the generated code calls it finds in its namespace: the helpers below
(`HELPERS`), and the constants the writer gave names to as it wrote (citations,
statements, the blocks it pushes, the functions of a waiting statement's
expressions).
"""

from __future__ import annotations

import hashlib
import linecache
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType, FunctionType
from typing import Any

from kotc.runtime.events import Revealed, Seen
from kotc.runtime.values import Seat, seat_of
from kotc.runtime.vm import Frame

from . import ir, services
from .builtins import BUILTINS, as_items_of, element_name

# what every generated function may call
HELPERS: dict[str, Any] = {
    "Frame": Frame,
    "Seat": Seat,
    "seat_of": seat_of,
    "as_items_of": as_items_of,
    "element_name": element_name,
    "attr": services.attr,
    "card_stat": services.card_stat,
    "Context": services.Context,
    "game_field": services.game_field,
    "chain_field": services.chain_field,
    "battle_field": services.battle_field,
    "plus": services.plus,
    "minus": services.minus,
    "has_modifier": services.has_modifier,
    "unbound": services.unbound,
    "prevent": services.prevent,
    "call": services.call,
    "text": services.text,
    "Revealed": Revealed,
    "Seen": Seen,
    "BUILTINS": BUILTINS,
    "_MISSING": object(),
    "services": services,
}

# code objects by the source they were compiled from
_COMPILED: dict[str, CodeType] = {}


class Source:
    """Lines of Python in nested blocks. A line, once written, stays as written."""

    def __init__(self, depth: int = 1):
        self.lines: list[str] = []
        self.depth = depth

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        """A compound statement: `header`, then what is written inside the `with`."""
        self.line(header)
        self.depth += 1
        start = len(self.lines)
        try:
            yield
        finally:
            if len(self.lines) == start:
                self.line("pass")
            self.depth -= 1

    def text(self) -> str:
        return "\n".join(self.lines)


def compiled(name: str, params: str, body: str, where: str,
             namespace: dict[str, Any]) -> Callable[..., Any]:
    """The function `def name(params): body`, compiled once per distinct source and
    registered with `linecache` (as `<kotc WHERE #hash>`), with `namespace` as its
    globals."""
    source = f"def {name}({params}):\n{body}\n"
    code = _COMPILED.get(source)
    digest = hashlib.sha1(source.encode()).hexdigest()[:10]
    filename = f"<kotc {where} #{digest}>"
    if code is None:
        code = _COMPILED[source] = compile(source, filename, "exec")
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    scope: dict[str, Any] = {}
    exec(code, namespace, scope)
    function = scope[name]
    assert isinstance(function, FunctionType)
    function.__kotc_source__ = source  # type: ignore[attr-defined]
    return function


class Writer:
    """Writes one function's body: its statements and the expressions they read.

    Args:
        blocks: the runtime blocks by number (what a statement pushes).
        fn: makes the function of an expression (a waiting statement's).
        simple_fn: makes the function running a simple block's statements.
        terms: each term's parameters and function (for a term not written in
            place), by name.
        counter_kinds: each counter's kind (`is proactive`).
    """

    def __init__(self, blocks: list[Any], fn: Callable[[ir.Expr], Any],
                 simple_fn: Callable[[ir.Block], Any],
                 terms: dict[str, tuple[tuple[str, ...], Any]],
                 term_params: dict[str, tuple[str, ...]],
                 counter_kinds: dict[str, str]):
        self.blocks, self.fn, self.simple_fn = blocks, fn, simple_fn
        self.terms, self.term_params = terms, term_params
        self.counter_kinds = counter_kinds
        self.src = Source()
        self.consts: dict[str, Any] = {}
        self._names: dict[int, str] = {}  # id of a constant -> its name
        self.count = 0

    # --- names ----------------------------------------------------------------------

    def tmp(self) -> str:
        self.count += 1
        return f"_t{self.count}"

    def const(self, value: Any) -> str:
        """A name for `value` in the function's namespace."""
        name = self._names.get(id(value))
        if name is None:
            name = self._names[id(value)] = f"_k{len(self.consts)}"
            self.consts[name] = value
        return name

    def into(self, expr: str) -> str:
        t = self.tmp()
        self.src.line(f"{t} = {expr}")
        return t

    def namespace(self) -> dict[str, Any]:
        return {**HELPERS, **self.consts}

    # --- expressions ----------------------------------------------------------------

    def value(self, e: ir.Expr) -> str:
        """Write what evaluates `e`; an atom (a local or a literal) holding it."""
        method: Callable[[Any], str] = getattr(self, f"e_{type(e).__name__}")
        return method(e)

    def items(self, e: ir.Expr) -> str:
        """An atom holding `e`'s items, as `as_items_of` lists them."""
        v = self.value(e)
        return self.into(f"{v} if type({v}) is list else as_items_of({v})")

    def e_Const(self, e: ir.Const) -> str:
        if e.value is None or type(e.value) in (int, bool, str):
            return repr(e.value)
        return self.const(e.value)

    def e_Name(self, e: ir.Name) -> str:
        t = self.tmp()
        with self.src.block("try:"):
            self.src.line(f"{t} = env[{e.name!r}]")
        with self.src.block("except KeyError:"):
            self.src.line(f"unbound({e.name!r})")
        return t

    def e_NameOr(self, e: ir.NameOr) -> str:
        return self.into(f"env.get({e.name!r}, {self.e_Const(ir.Const(e.default))})")

    def e_Local(self, e: ir.Local) -> str:
        return e.slot

    def e_Active(self, e: ir.Active) -> str:
        if not e.bound:
            return self.into("seat_of(g.active)")
        return self.into("env['active'] if 'active' in env else seat_of(g.active)")

    def e_Players(self, e: ir.Players) -> str:
        return self.into("g.in_game[:]")

    def e_GameField(self, e: ir.GameField) -> str:
        read = {"turn": "g.turn", "phase": "g.phase", "step": "g.step",
                "first_player": "seat_of(g.first_player)",
                "first_turn": "g.turn == 1"}.get(e.name)
        return self.into(read or f"game_field(g, {e.name!r})")

    def e_ChainField(self, e: ir.ChainField) -> str:
        if e.name == "open":
            return self.into("g.chain is not None")
        return self.into(f"chain_field(g, {e.name!r})")

    def e_BattleField(self, e: ir.BattleField) -> str:
        if e.name == "ongoing":
            return self.into("g.battle is not None")
        return self.into(f"battle_field(g, {e.name!r})")

    def guarded(self, v: str, sure: bool, test: str, fast: Callable[[str], None],
                name: str) -> str:
        """`t`, set by `fast(t)` where `v` is of the kind read (`test`) or `sure`
        to be; else read as `attr` reads any value."""
        t = self.tmp()
        if sure:
            fast(t)
            return t
        with self.src.block(f"if {test}:"):
            fast(t)
        with self.src.block("else:"):
            self.src.line(f"{t} = attr(g, {v}, {name!r}, env)")
        return t

    def e_CardStat(self, e: ir.CardStat) -> str:
        v, stat = self.value(e.card), repr(e.stat)

        def fast(t: str) -> None:
            s = self.into(f"g.cards[{v}].stats")
            self.src.line(f"{t} = {s}[{stat}] if {stat} in {s} else "
                          f"card_stat(g, {v}, {stat}, env)")

        return self.guarded(v, e.sure, f"type({v}) is int", fast, e.stat)

    def e_CardField(self, e: ir.CardField) -> str:
        v = self.value(e.card)
        return self.guarded(v, e.sure, f"type({v}) is int",
                            lambda t: self.src.line(f"{t} = g.cards[{v}].{e.name}"),
                            e.name)

    def e_CardSeat(self, e: ir.CardSeat) -> str:
        v = self.value(e.card)
        return self.guarded(
            v, e.sure, f"type({v}) is int",
            lambda t: self.src.line(f"{t} = seat_of(g.cards[{v}].{e.name})"), e.name)

    def e_PlayerZone(self, e: ir.PlayerZone) -> str:
        v = self.value(e.player)
        return self.guarded(
            v, e.sure, f"type({v}) is Seat",
            lambda t: self.src.line(f"{t} = g.players[{v}].zones[{e.zone!r}]"), e.zone)

    def e_PlayersZone(self, e: ir.PlayersZone) -> str:
        players = self.value(e.players)
        t, s = self.tmp(), self.tmp()
        self.src.line(f"{t} = []")
        with self.src.block(f"for {s} in {players}:"):
            self.src.line(f"{t} += g.players[{s}].zones[{e.zone!r}]")
        return t

    def e_PlayerField(self, e: ir.PlayerField) -> str:
        v = self.value(e.player)
        read = (f"seat_of(g.next_seat({v}))" if e.name == "left"
                else f"g.players[{v}].{e.name}")
        return self.guarded(v, e.sure, f"type({v}) is Seat",
                            lambda t: self.src.line(f"{t} = {read}"), e.name)

    def e_EventField(self, e: ir.EventField) -> str:
        v = self.value(e.event)
        return self.into(f"{v}.get({e.name!r}) if isinstance({v}, dict) else "
                         f"attr(g, {v}, {e.name!r}, env)")

    def e_DynAttr(self, e: ir.DynAttr) -> str:
        v = self.value(e.value)
        return self.into(f"attr(g, {v}, {e.name!r}, {'env' if e.own_env else '{}'})")

    def e_Builtin(self, e: ir.Builtin) -> str:
        if e.func in ("context", "unbound"):
            name = e.args[0].value  # type: ignore[attr-defined]
            call = "Context(g, " if e.func == "context" else "unbound("
            return self.into(f"{call}{name!r})")
        args = [self.value(a) for a in e.args]
        if e.func == "count":
            (x,) = args
            return self.into(f"len({x}) if type({x}) is list else "
                             f"BUILTINS['count'](g, {x})")
        if e.func == "tagged":
            return self.into(f"{args[1]} in g.cards[{args[0]}].tags")
        return self.into(f"BUILTINS[{e.func!r}](g, {', '.join(args)})")

    def e_TermCall(self, e: ir.TermCall) -> str:
        # the term's function looked up when called: a term may use itself
        params = self.term_params[e.term]
        inner = self.into("{'you': env.get('you')}")
        for p, a in zip(params, e.args, strict=False):
            self.src.line(f"{inner}[{p!r}] = {self.value(a)}")
        return self.into(f"{self.const(self.terms)}[{e.term!r}][1](g, {inner})")

    def e_With(self, e: ir.With) -> str:
        for slot, value in zip(e.slots, e.values, strict=False):
            self.src.line(f"{slot} = {self.value(value)}")
        return self.value(e.body)

    def e_Not(self, e: ir.Not) -> str:
        return self.into(f"not {self.value(e.operand)}")

    def e_And(self, e: ir.And) -> str:
        t = self.tmp()
        self.src.line(f"{t} = True if {self.value(e.left)} else False")
        with self.src.block(f"if {t}:"):
            self.src.line(f"{t} = True if {self.value(e.right)} else False")
        return t

    def e_Or(self, e: ir.Or) -> str:
        t = self.tmp()
        self.src.line(f"{t} = True if {self.value(e.left)} else False")
        with self.src.block(f"if not {t}:"):
            self.src.line(f"{t} = True if {self.value(e.right)} else False")
        return t

    def e_Compare(self, e: ir.Compare) -> str:
        a, b = self.value(e.left), self.value(e.right)
        if e.op in ("==", "!="):
            return self.into(f"{a} {e.op} {b}")
        # an order comparison with nothing in it (no such card) does not hold
        if "None" in (a, b):
            return "False"
        tests = [f"{v} is not None" for v in (a, b) if not _literal(v)]
        return self.into(" and ".join([*tests, f"{a} {e.op} {b}"]))

    def e_Arith(self, e: ir.Arith) -> str:
        a, b = self.value(e.left), self.value(e.right)
        if e.op in ("+", "-"):
            other = "plus" if e.op == "+" else "minus"
            return self.into(f"{a} {e.op} {b} if type({a}) is int and type({b}) is int "
                             f"else {other}({a}, {b})")
        if e.op == "*":
            return self.into(f"{a} * {b}")
        return self.into(f"{a} // {b} if {b} else 0")

    def e_In(self, e: ir.In) -> str:
        r = self.value(e.collection)
        x = self.value(e.item)
        return self.into(f"{x} in {r} if isinstance({r}, (list, tuple)) else {x} == {r}")

    def e_InOwnZone(self, e: ir.InOwnZone) -> str:
        return self.into(f"g.cards[{self.value(e.card)}].zone == {e.zone!r}")

    def e_Is(self, e: ir.Is) -> str:
        x, n = self.value(e.value), repr(e.name)
        test = {
            "type": f"{x} is not None and not isinstance({x}, Seat) "
                    f"and g.cards[{x}].type == {n}",
            "pawn": f"g.cards[{x}].pawn",
            "player": f"isinstance({x}, Seat)",
            "modifier": f"has_modifier(g, {x}, {n})",
            "counter_kind": f"{self.const(self.counter_kinds)}.get({x}) == {n}",
        }.get(e.kind, f"{x} == {n}")
        return self.into(test)

    def e_Where(self, e: ir.Where) -> str:
        items = self.items(e.base)
        out = self.tmp()
        self.src.line(f"{out} = []")
        if e.slot is not None:
            with self.src.block(f"for {e.slot} in {items}:"):
                cond = self.value(e.cond)
                with self.src.block(f"if {cond}:"):
                    self.src.line(f"{out}.append({e.slot})")
            return out
        # the element's name, by the first element's kind, bound in the environment
        var, saved, x = self.tmp(), self.tmp(), self.tmp()
        with self.src.block(f"if {items}:"):
            self.src.line(f"{var} = element_name({items}[0])")
            self.src.line(f"{saved} = env.get({var}, _MISSING)")
            with self.src.block("try:"), self.src.block(f"for {x} in {items}:"):
                self.src.line(f"env[{var}] = {x}")
                cond = self.value(e.cond)
                with self.src.block(f"if {cond}:"):
                    self.src.line(f"{out}.append({x})")
            with self.src.block("finally:"):
                with self.src.block(f"if {saved} is _MISSING:"):
                    self.src.line(f"env.pop({var}, None)")
                with self.src.block("else:"):
                    self.src.line(f"env[{var}] = {saved}")
        return out

    # --- statements -----------------------------------------------------------------

    def body(self, form: ir.Block) -> None:
        """`go`'s body: each statement from the frame's position on. A frame rests
        only at its start, at a statement that may wait or push, just after one,
        or at its end: those are where it may pick up."""
        stmts = form.stmts
        # (a frame may also be left at its end: `stop` ends frames below its own)
        entries = {0, len(stmts)}
        for i, st in enumerate(stmts):
            if not st.simple:
                entries.update((i, i + 1))
        src = self.src
        src.line("env = f.env")
        src.line("frames = g.frames")
        src.line("pc = f.pc")
        depth = src.depth
        for i, st in enumerate(stmts):
            if i in entries:
                src.depth = depth
                src.line(f"if pc <= {i}:")
                src.depth = depth + 1
            self.stmt(st, i)
        src.depth = depth
        src.line("return 0")

    def simple_body(self, stmts: tuple[ir.Stmt, ...]) -> None:
        """A simple block's statements, run in a loop's place (`for each`)."""
        self.src.line("env = f.env")
        self.src.line("frames = g.frames")
        for i, st in enumerate(stmts):
            self.stmt(st, i)

    def stmt(self, st: ir.Stmt, i: int) -> None:
        """Statement `st`, at position `i` of the frame's block (or in a branch of
        the statement there)."""
        write: Callable[[Any, int], None] | None = getattr(
            self, f"s_{type(st).__name__}", None)
        if write is not None:
            write(st, i)
            return
        # a statement that waits or ends frames: its service, at its position
        self.src.line(f"f.pc = {i}")
        self.src.line(f"code = {self.service(st)}")
        with self.src.block("if code:"):
            self.src.line("return code")
        with self.src.block("if frames[-1] is not f:"):
            self.src.line(f"f.pc = {i + 1}")
            self.src.line("return 1")

    def service(self, st: ir.Stmt) -> str:
        """The call of a waiting statement's service (see `services`)."""
        s = self.const(st)

        def fn(e: ir.Expr | None) -> str:
            return "None" if e is None else self.const(self.fn(e))

        def block(b: ir.Block) -> str:
            return self.const(self.blocks[b.id])

        if isinstance(st, ir.Choose):
            fns = ", ".join(fn(e) for e in (st.what, st.lo, st.hi, st.n, st.chooser))
            return f"services.choose(g, f, {s}, ({fns}))"
        if isinstance(st, ir.Either):
            options = "(" + "".join(f"{block(b)}, " for b in st.options) + ")"
            return f"services.either(g, f, {s}, {fn(st.who)}, {options})"
        if isinstance(st, ir.May):
            return f"services.may(g, f, {s}, {fn(st.who)}, {block(st.body)})"
        if isinstance(st, ir.ForEach):
            inline = (self.const(self.simple_fn(st.body)) if st.body.simple else "None")
            return (f"services.for_each(g, f, {s}, {fn(st.what)}, {fn(st.chooser)}, "
                    f"{block(st.body)}, {inline})")
        if isinstance(st, ir.Perform):
            args = "(" + "".join(f"{fn(a)}, " for a in st.args) + ")"
            return f"services.perform(g, f, {s}, {args}, {fn(st.who)})"
        if isinstance(st, ir.Pick):
            return (f"services.pick(g, f, {s}, {fn(st.lo)}, {fn(st.hi)}, "
                    f"{fn(st.chooser)})")
        if isinstance(st, ir.Reorder):
            return f"services.reorder(g, f, {s}, {fn(st.what)})"
        if isinstance(st, ir.Stop):
            return f"services.stop(g, f, {s}, {fn(st.cond)})"
        if isinstance(st, ir.StripAny):
            return f"services.strip_any(g, f, {s}, {fn(st.count)}, {fn(st.target)})"
        if isinstance(st, ir.React):
            return f"g.referee.react(g, f, {st.timing!r})"
        assert isinstance(st, ir.CallBody), st
        return f"g.referee.call_body(g, f, {st.keyword!r}, {st.params!r})"

    def cite(self, st: ir.Stmt) -> str:
        return "None" if st.cite is None else self.const(st.cite)

    # simple statements

    def s_Move(self, st: ir.Move, i: int) -> None:
        seat = self.value(st.owner)
        what = self.items(st.what)
        mods, cite, c = repr(st.mods), self.cite(st), self.tmp()
        with self.src.block(f"for {c} in list({what}):"):
            self.src.line(f"g.move({c}, {seat}, {st.zone!r}, {mods}, {cite})")

    def s_Exhaust(self, st: ir.Exhaust, i: int) -> None:
        what = self.items(st.what)
        with self.src.block(f"if {what}:"):
            self.src.line(f"g.set_exhausted({what}, {st.flag}, {self.cite(st)})")

    def s_Fatigue(self, st: ir.Fatigue, i: int) -> None:
        what = self.items(st.what)
        with self.src.block(f"if {what}:"):
            self.src.line(f"g.fatigue({what}, {st.flag}, {self.cite(st)})")

    def s_Change(self, st: ir.Change, i: int) -> None:
        owner = self.value(st.owner)
        field = (self.into(f"env.get({st.field!r}, {st.field!r})") if st.dynamic
                 else repr(st.field))
        value = self.value(st.value)
        owners, o = self.into(f"as_items_of({owner})"), self.tmp()
        until, cite = repr(st.until), self.cite(st)
        if st.sign:
            delta = self.into(f"{st.sign} * {value}")
            with self.src.block(f"for {o} in {owners}:"):
                self.src.line(f"g.change({o}, {field}, {delta}, {until}, {cite})")
        else:
            with self.src.block(f"for {o} in {owners}:"):
                self.src.line(f"g.assign({o}, {field}, {value}, {until}, {cite})")

    def s_Reroll(self, st: ir.Reroll, i: int) -> None:
        dice, d = self.items(st.die), self.tmp()
        with self.src.block(f"for {d} in {dice}:"):
            self.src.line(f"g.reroll({d}, {self.cite(st)})")

    def counters(self, st: ir.Place | ir.Strip, method: str, placer: bool) -> None:
        n, kind = self.value(st.count), self.value(st.kind)
        targets, c = self.items(st.target), self.tmp()
        by = "env['you'], " if placer else ""
        with self.src.block(f"for {c} in {targets}:"):
            self.src.line(f"g.{method}({c}, {kind}, {n}, {by}{self.cite(st)})")

    def s_Place(self, st: ir.Place, i: int) -> None:
        self.counters(st, "place_counters", True)

    def s_Strip(self, st: ir.Strip, i: int) -> None:
        self.counters(st, "strip_counters", False)

    def s_Give(self, st: ir.Give, i: int) -> None:
        seat = self.value(st.player)
        what, c = self.items(st.what), self.tmp()
        with self.src.block(f"for {c} in list({what}):"):
            self.src.line(f"g.give({c}, {seat}, {self.cite(st)})")

    def s_Reveal(self, st: ir.Reveal, i: int) -> None:
        what = self.items(st.what)
        self.src.line(
            f"g.events.append(Revealed(list({what}), text({self.cite(st)})))")

    def s_See(self, st: ir.See, i: int) -> None:
        seer = "env['you']" if st.who is None else self.value(st.who)
        seer = self.into(seer)
        what = self.items(st.what)
        self.src.line(
            f"g.events.append(Seen({seer}, list({what}), text({self.cite(st)})))")

    def s_Let(self, st: ir.Let, i: int) -> None:
        v = self.value(st.value)
        self.src.line(f"env[{st.name!r}] = list({v}) if isinstance({v}, list) else {v}")

    def s_Shuffle(self, st: ir.Shuffle, i: int) -> None:
        self.src.line(f"g.shuffle(list({self.items(st.what)}), {self.cite(st)})")

    def s_Prevent(self, st: ir.Prevent, i: int) -> None:
        self.src.line(f"prevent(g, env, {self.cite(st)})")

    def s_Negate(self, st: ir.Negate, i: int) -> None:
        self.src.line(f"g.negate(list({self.items(st.what)}), {self.cite(st)})")

    def s_Skip(self, st: ir.Skip, i: int) -> None:
        self.src.line(f"g.skip_step({st.step!r}, {self.cite(st)})")

    def s_CreatePawn(self, st: ir.CreatePawn, i: int) -> None:
        seat = self.value(st.owner)
        values = ", ".join(f"{stat!r}: {self.value(v)}" for stat, v in st.printed)
        values = self.into(f"{{{values}}}")
        source = "None" if st.source is None else self.value(st.source)
        self.src.line(f"env[{st.name!r}] = g.create_pawn({seat}, {st.zone!r}, "
                      f"{source}, {values}, {self.cite(st)})")

    def s_Pay(self, st: ir.Pay, i: int) -> None:
        with self.src.block("if not env.get('__free'):"):
            you = self.into("env['you']")
            amount = self.value(st.amount)
            self.src.line(f"g.pay({you}, {amount}, {st.kind!r}, {self.cite(st)})")

    def each_card(self, st: ir.Enlist | ir.Withdraw | ir.Banish, method: str,
                  copy: bool) -> None:
        what, c = self.items(st.what), self.tmp()
        items = f"list({what})" if copy else what
        with self.src.block(f"for {c} in {items}:"):
            self.src.line(f"g.{method}({c}, {self.cite(st)})")

    def s_Enlist(self, st: ir.Enlist, i: int) -> None:
        self.each_card(st, "enlist", False)

    def s_Withdraw(self, st: ir.Withdraw, i: int) -> None:
        self.each_card(st, "withdraw", False)

    def s_Banish(self, st: ir.Banish, i: int) -> None:
        self.each_card(st, "banish", True)

    def s_AfterChain(self, st: ir.AfterChain, i: int) -> None:
        body = self.const(self.blocks[st.body.id])
        self.src.line(f"g.after_chain({body}, dict(env))")

    def s_Attack(self, st: ir.Attack, i: int) -> None:
        you = self.into("env['you']")
        victim = self.value(st.victim)
        team = self.items(st.team)
        self.src.line(f"g.force_attack({you}, {victim}, list({team}), "
                      f"{st.exhausting}, {self.cite(st)})")

    def s_EndGame(self, st: ir.EndGame, i: int) -> None:
        self.src.line(f"g.end_game('an effect ended the game', {self.cite(st)})")

    def s_Reset(self, st: ir.Reset, i: int) -> None:
        what = self.items(st.what)
        with self.src.block(f"if {what}:"):
            self.src.line(f"g.reset_stats({what}, {st.stats!r})")

    def s_Expire(self, st: ir.Expire, i: int) -> None:
        with self.src.block("if g.marked:"):  # nothing marked: nothing to expire
            self.src.line(f"g.expire({st.until!r})")

    def s_BeginBattle(self, st: ir.BeginBattle, i: int) -> None:
        self.src.line(f"g.begin_battle(env['you'], {self.cite(st)})")

    def s_Mark(self, st: ir.Mark, i: int) -> None:
        what, c = self.items(st.what), self.tmp()
        with self.src.block(f"for {c} in {what}:"):
            self.src.line(f"g.mark({c}, {st.tag!r}, {st.until!r})")

    def s_BindNumbers(self, st: ir.BindNumbers, i: int) -> None:
        self.src.line(f"env.update({self.const(dict(st.values))})")

    def s_KeepTargets(self, st: ir.KeepTargets, i: int) -> None:
        k = self.tmp()
        self.src.line(f"env[{st.key!r}] = {{{k}: v for {k}, v in env.items() "
                      f"if {k}[:1] not in '_#'}}")

    def s_RestoreTargets(self, st: ir.RestoreTargets, i: int) -> None:
        self.src.line(f"env.update(env[{st.key!r}])")

    def s_HandOver(self, st: ir.HandOver, i: int) -> None:
        k = self.tmp()
        self.src.line(f"frames[-2].env.update({{{k}: v for {k}, v in env.items() "
                      f"if {k}[:1] == '#'}})")

    def s_MakeLink(self, st: ir.MakeLink, i: int) -> None:
        self.src.line("g.referee.make_link(g, f)")

    # tails: they never wait; they move their frame on before they push

    def s_Call(self, st: ir.Call, i: int) -> None:
        fields = {p: ("None" if a is None else self.value(a)) for p, a in st.args}
        given = ", ".join(f"{p!r}: {v}" for p, v in fields.items())
        required = [fields[p] for p in st.required]
        if "None" in required:
            return  # nothing to act on: the effect is impossible
        tests = [f"{v} is not None" for v in required if not _literal(v)]
        call = (f"g.call_keyword({st.keyword!r}, {{{given}}}, env, {st.cost}, "
                f"{self.cite(st)})")
        with self._when(tests):
            self.src.line(f"f.pc = {i + 1}")
            self.src.line(call)
            self.src.line("return 1")

    @contextmanager
    def _when(self, tests: list[str]) -> Iterator[None]:
        if not tests:
            yield
            return
        with self.src.block(f"if {' and '.join(tests)}:"):
            yield

    def s_Emit(self, st: ir.Emit, i: int) -> None:
        fields = ", ".join(f"{p!r}: {self.value(a)}" for p, a in st.args)
        self.src.line(f"f.pc = {i + 1}")
        self.src.line(f"g.emit({st.event!r}, {{{fields}}}, env, {self.cite(st)})")
        self.src.line("return 1")

    def s_Resolve(self, st: ir.Resolve, i: int) -> None:
        self.src.line(f"f.pc = {i + 1}")
        then = "None" if st.then is None else self.const(self.blocks[st.then.id])
        what = self.value(st.what)
        self.src.line(f"g.resolve({what}, env, {self.cite(st)}, {then})")
        self.src.line("return 1")

    def s_Roll(self, st: ir.Roll, i: int) -> None:
        count = self.value(st.count)
        dice, d = self.tmp(), self.tmp()
        cite = self.cite(st)
        self.src.line(f"{dice} = g.roll({count}, env['you'], {cite})")
        self.src.line(f"env[{st.name!r}] = {dice}")
        self.src.line(f"f.pc = {i + 1}")
        with self.src.block(f"for {d} in reversed({dice}):"):
            self.src.line(f"g.fire('rolled', {{'die': {d}, 'roller': env['you']}}, "
                          f"env, {cite})")
        self.src.line("return 1")

    def s_Pop(self, st: ir.Pop, i: int) -> None:
        self.src.line(f"f.pc = {i + 1}")
        target = self.value(st.target)
        kind = self.value(st.kind)
        self.src.line(f"g.pop_counter({target}, {kind}, env['you'], {self.cite(st)})")
        self.src.line("return 1")

    def s_If(self, st: ir.If, i: int) -> None:
        cond = self.value(st.cond)
        with self.src.block(f"if {cond}:"):
            self.branch(st.then, i)
        if st.otherwise is not None:
            with self.src.block("else:"):
                self.branch(st.otherwise, i)

    def branch(self, block: ir.Block, i: int) -> None:
        """A branch of the `if` at `i`: in the frame's place where it is `inline`
        (its tail, if any, moves the frame past the `if`), else in a frame of its
        own, the frame moved past the `if` first."""
        if block.inline:
            for st in block.stmts:
                self.stmt_in_place(st, i)
            return
        self.src.line(f"f.pc = {i + 1}")
        self.src.line(f"frames.append(Frame({self.const(self.blocks[block.id])}, env))")
        self.src.line("return 1")

    def stmt_in_place(self, st: ir.Stmt, i: int) -> None:
        """A statement of an inline branch: simple, or a tail (written as at `i`)."""
        self.stmt(st, i)

    def s_Repeat(self, st: ir.Repeat, i: int) -> None:
        n = self.value(st.times)
        if st.body.simple:
            with self.src.block(f"for _ in range({n}):"):
                for inner in st.body.stmts:
                    self.stmt(inner, i)
            return
        body = self.const(self.blocks[st.body.id])
        self.src.line(f"f.pc = {i + 1}")
        with self.src.block(f"if {n} > 0:"):
            self.src.line(f"frames.append(Frame({body}, env, ['repeat', {n}]))")
        self.src.line("return 1")


def _literal(v: str) -> bool:
    return v in ("True", "False") or v.lstrip("-").isdigit() or v.startswith("'")


__all__ = ["HELPERS", "Source", "Writer", "compiled"]
