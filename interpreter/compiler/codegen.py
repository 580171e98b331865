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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from operator import itemgetter
from types import CodeType, FunctionType
from typing import Any

from kotc.runtime.actions import Action, Made
from kotc.runtime.events import Revealed, Seen
from kotc.runtime.values import AbilityRef, DieRef, Seat, ability_ref, seat_of
from kotc.runtime.vm import Frame, leave_rest, leave_rounds

from . import ir, services
from .builtins import BUILTINS, GAME_METHODS, as_items_of, element_name
from .lower import ELEMENT_NAMES

# what every generated function may call
HELPERS: dict[str, Any] = {
    "Action": Action,
    "COUNTER_KIND": itemgetter(0),  # of a counter on a card, [kind, placer]
    "EVENT_NAME": itemgetter(0),  # of a recent event, [name, fields]
    "Made": Made,
    "AbilityRef": AbilityRef,
    "ability_ref": ability_ref,
    "Frame": Frame,
    "leave_rest": leave_rest,
    "leave_rounds": leave_rounds,
    "Seat": Seat,
    "DieRef": DieRef,
    "seat_of": seat_of,
    "as_items_of": as_items_of,
    "element_name": element_name,
    "attr": services.attr,
    "card_stat": services.card_stat,
    "Context": services.Context,
    "game_field": services.game_field,
    "chain_field": services.chain_field,
    "battle_field": services.battle_field,
    "set_record": services.set_record,
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

    @contextmanager
    def held(self, deeper: bool = False) -> Iterator[list[str]]:
        """The lines written inside the `with` (one level deeper, with `deeper`),
        kept apart until the writer knows where they go: `place` puts them there
        as they were written."""
        lines, depth = self.lines, self.depth
        kept: list[str] = []
        self.lines = kept
        self.depth += deeper
        try:
            yield kept
        finally:
            self.lines, self.depth = lines, depth

    def place(self, lines: list[str]) -> None:
        self.lines.extend(lines)

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
        simple_fn: makes the function running a frameless block's statements
            (a simple one's, for a `for each`'s body).
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
        # names of the environment whose values the function holds in locals, read
        # from those: a name once read (or bound by `let`, or by a window for
        # each parameter) until the environment may have changed or code may be
        # entered past the read (see `forget`)
        self.known: dict[str, str] = {}
        self.lists: set[str] = set()  # locals that hold a list for certain
        # locals that hold an ability of a card, with the text of its printed ability
        # (a window binds each it lists so)
        self.printed: dict[str, str] = {}
        self.consts: dict[str, Any] = {}
        self._names: dict[int, str] = {}  # id of a constant -> its name
        self.count = 0
        # whether the statements run in a frame of their own (`f`), which a tail
        # moves on before it pushes; a frameless block's do not (`frameless_body`):
        # for those, the block and the position of its last statement
        self.framed = True
        self.in_place: tuple[str, int] | None = None

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

    def forget(self, names: Iterable[str] | None = None) -> None:
        """The environment's `names` (None: all) may have changed: read anew."""
        if names is None:
            self.known = {}
        else:
            for name in names:
                self.known.pop(name, None)

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        """A compound statement (see `Source.block`): the names read inside it are
        held in locals only inside it (it may not run, or run again)."""
        outer = dict(self.known)
        with self.src.block(header):
            yield
        self.known = outer

    def namespace(self) -> dict[str, Any]:
        return {**HELPERS, **self.consts}

    # --- expressions ----------------------------------------------------------------
    #
    # An expression is written as Python expression text (`value`), with statements
    # before it only where it needs them (a `where`'s loop, a term's parameters
    # bound, a read that tells a card from another value); the text is evaluated
    # once, where it is put. Operands are read in the interpreter's order: one that
    # needs statements has those read before it held first (`operands`); the right
    # side of `and` and `or` is read only where the left lets it (`held`).

    def value(self, e: ir.Expr) -> str:
        """Python text evaluating `e`, what it needs written before it."""
        method: Callable[[Any], str] = getattr(self, f"e_{type(e).__name__}")
        return method(e)

    def test(self, e: ir.Expr) -> str:
        """Python text true where `e` holds (read for its truth alone: not made a
        bool)."""
        if isinstance(e, ir.Not):
            return f"(not {self.test(e.operand)})"
        if isinstance(e, (ir.And, ir.Or)):
            return self.junction(e, bools=False)
        return self.value(e)

    def atom(self, e: ir.Expr) -> str:
        """A local (or a literal) holding `e`'s value: read as often as needed."""
        return self.hold(self.value(e))

    def hold(self, text: str) -> str:
        """`text`, held in a local unless it is one (or a literal) already."""
        if text.isidentifier() or _literal(text) or text == "None":
            return text
        return self.into(text)

    def operands(self, *es: ir.Expr) -> list[str]:
        """The texts of `es`, read in order: an operand that needs statements has
        the operands before it held in locals first."""
        texts: list[str] = []
        for e in es:
            with self.src.held() as lines:
                text = self.value(e)
            if lines:
                texts = [self.hold(t) for t in texts]
                self.src.place(lines)
            texts.append(text)
        return texts

    def boolean(self, e: ir.Expr, text: str) -> str:
        """`text` (of `e`) as a bool, as `and`, `or` and `not` give."""
        return text if _is_bool(e) else f"bool({text})"

    def listed(self, e: ir.Expr) -> bool:
        """Whether `e`'s value is a list for certain (a zone, a `where`'s...)."""
        if isinstance(e, ir.Name):
            return self.known.get(e.name) in self.lists
        return _is_list(e)

    def items(self, e: ir.Expr) -> str:
        """A local holding `e`'s items, as `as_items_of` lists them."""
        if self.listed(e):
            return self.atom(e)
        v = self.atom(e)
        return self.into(f"{v} if type({v}) is list else as_items_of({v})")

    def e_Const(self, e: ir.Const) -> str:
        if e.value is None or type(e.value) in (int, bool, str):
            return repr(e.value)
        return self.const(e.value)

    def e_Name(self, e: ir.Name) -> str:
        known = self.known.get(e.name)
        if known is not None:
            return known
        if e.bound:
            return f"env[{e.name!r}]"
        t = self.tmp()
        with self.block("try:"):
            self.src.line(f"{t} = env[{e.name!r}]")
        with self.block("except KeyError:"):
            self.src.line(f"unbound({e.name!r})")
        self.known[e.name] = t
        return t

    def e_NameOr(self, e: ir.NameOr) -> str:
        return f"env.get({e.name!r}, {self.e_Const(ir.Const(e.default))})"

    def e_Local(self, e: ir.Local) -> str:
        return e.slot

    def e_Active(self, e: ir.Active) -> str:
        if not e.bound:
            return "seat_of(g.active)"
        return "(env['active'] if 'active' in env else seat_of(g.active))"

    def e_Players(self, e: ir.Players) -> str:
        return "g.in_game[:]"

    def e_GameField(self, e: ir.GameField) -> str:
        read = {"turn": "g.turn", "phase": "g.phase", "step": "g.step",
                "first_player": "seat_of(g.first_player)",
                "first_turn": "(g.turn == 1)", "victims": "g.victims"}.get(e.name)
        return read or f"game_field(g, {e.name!r})"

    def e_ChainField(self, e: ir.ChainField) -> str:
        if e.name == "open":
            return "(g.chain is not None)"
        return f"chain_field(g, {e.name!r})"

    def e_BattleField(self, e: ir.BattleField) -> str:
        # read in place as `services.battle_field` reads it
        name = e.name
        if name == "ongoing":
            return "(g.battle is not None)"
        if name in services.BATTLE_SEATS:  # a seat, read as a player
            return (f"(None if g.battle is None or g.battle.{name} is None "
                    f"else seat_of(g.battle.{name}))")
        if not name.isidentifier():
            return f"battle_field(g, {name!r})"
        none = "[]" if name.endswith("team") else "None"
        return f"({none} if g.battle is None else g.battle.{name})"

    def guarded(self, v: str, sure: bool, test: str, fast: str, name: str) -> str:
        """`fast` where `v` (a local) is of the kind read (`test`) or `sure` to
        be; else `v.name` read as `attr` reads any value."""
        if sure:
            return fast
        return f"({fast} if {test} else attr(g, {v}, {name!r}, env))"

    def e_CardStat(self, e: ir.CardStat) -> str:
        v, stat, s = self.atom(e.card), repr(e.stat), self.tmp()
        # a card without the stat reads it as `attr` does (`card_stat`)
        fast = (f"({s}[{stat}] if {stat} in ({s} := g.cards[{v}].stats) "
                f"else card_stat(g, {v}, {stat}, env))")
        return self.guarded(v, e.sure, f"type({v}) is int", fast, e.stat)

    def e_CardCost(self, e: ir.CardCost) -> str:
        if e.stat is None:
            return "0"
        return f"g.cards[{self.atom(e.card)}].stats.get({e.stat!r}, 0)"

    def e_CardField(self, e: ir.CardField) -> str:
        v = self.atom(e.card)
        return self.guarded(v, e.sure, f"type({v}) is int", f"g.cards[{v}].{e.name}",
                            e.name)

    def e_CardSeat(self, e: ir.CardSeat) -> str:
        v = self.atom(e.card)
        return self.guarded(v, e.sure, f"type({v}) is int",
                            f"seat_of(g.cards[{v}].{e.name})", e.name)

    def e_DieField(self, e: ir.DieField) -> str:
        v = self.atom(e.die)
        fast = (f"g.dice[{v}][0]" if e.name == "value"
                else f"seat_of(g.dice[{v}][1])")
        return self.guarded(v, e.sure, f"type({v}) is DieRef", fast, e.name)

    def e_PlayerZone(self, e: ir.PlayerZone) -> str:
        v = self.atom(e.player)
        return self.guarded(v, e.sure, f"type({v}) is Seat",
                            f"g.players[{v}].zones[{e.zone!r}]", e.zone)

    def e_PlayersZone(self, e: ir.PlayersZone) -> str:
        # the players only walked, not kept: the game's own list where it is that
        players = ("g.in_game" if isinstance(e.players, ir.Players)
                   else self.atom(e.players))
        t, s = self.tmp(), self.tmp()
        self.src.line(f"{t} = []")
        with self.block(f"for {s} in {players}:"):
            self.src.line(f"{t} += g.players[{s}].zones[{e.zone!r}]")
        return t

    def e_Join(self, e: ir.Join) -> str:
        return "(" + " + ".join(self.operands(*e.parts)) + ")"

    def e_PlayerField(self, e: ir.PlayerField) -> str:
        v = self.atom(e.player)
        read = (f"seat_of(g.next_seat({v}))" if e.name == "left"
                else f"g.players[{v}].{e.name}")
        return self.guarded(v, e.sure, f"type({v}) is Seat", read, e.name)

    def e_EventField(self, e: ir.EventField) -> str:
        v = self.atom(e.event)
        return (f"({v}.get({e.name!r}) if isinstance({v}, dict) else "
                f"attr(g, {v}, {e.name!r}, env))")

    def e_DynAttr(self, e: ir.DynAttr) -> str:
        v = self.value(e.value)
        return f"attr(g, {v}, {e.name!r}, {'env' if e.own_env else '{}'})"

    def e_Builtin(self, e: ir.Builtin) -> str:
        if e.func in ("context", "unbound"):
            name = e.args[0].value  # type: ignore[attr-defined]
            call = "Context(g, " if e.func == "context" else "unbound("
            return f"{call}{name!r})"
        if e.func == "count":
            x = self.atom(e.args[0])
            if self.listed(e.args[0]):
                return f"len({x})"
            count = self.const(BUILTINS["count"])
            return f"(len({x}) if type({x}) is list else {count}(g, {x}))"
        if e.func == "is_empty":
            x = self.atom(e.args[0])
            if self.listed(e.args[0]):
                return f"(not {x})"
            is_empty = self.const(BUILTINS["is_empty"])
            return f"(not {x} if type({x}) is list else {is_empty}(g, {x}))"
        if e.func in ("top", "bottom"):
            return self.taken(e)
        if e.func == "concat" and all(self.listed(x) for x in e.args):
            xs, ys = self.operands(*e.args)  # two lists: joined, a new list
            return f"({xs} + {ys})"
        args = self.operands(*e.args)
        if e.func in GAME_METHODS:
            return f"g.{GAME_METHODS[e.func]}({', '.join(args)})"
        if e.func == "tagged":
            return f"({args[1]} in g.cards[{args[0]}].tags)"
        return f"{self.const(BUILTINS[e.func])}(g, {', '.join(args)})"

    def taken(self, e: ir.Builtin) -> str:
        """`top(n, xs)` or `bottom(n, xs)`: sliced in place from a list (the last
        `n`, the top first; the first `n`), else as the builtin takes them."""
        n, xs = self.operands(*e.args)
        n = self.hold(n)
        xs = self.hold(xs)
        sliced = f"{xs}[-{n}:][::-1]" if e.func == "top" else f"{xs}[:{n}]"
        if not (n.isdigit() and int(n) > 0):
            sliced = f"({sliced} if {n} > 0 else [])"
        if self.listed(e.args[1]):
            return sliced
        return (f"({sliced} if type({xs}) is list else "
                f"{self.const(BUILTINS[e.func])}(g, {n}, {xs}))")

    def e_TermCall(self, e: ir.TermCall) -> str:
        # the term's function looked up when called: a term may use itself
        params = self.term_params[e.term]
        args = self.operands(*e.args)
        given = "".join(f", {p!r}: {a}" for p, a in zip(params, args, strict=False))
        return (f"{self.const(self.terms)}[{e.term!r}][1](g, "
                f"{{'you': env.get('you'){given}}})")

    def e_With(self, e: ir.With) -> str:
        for slot, value in zip(e.slots, e.values, strict=False):
            self.src.line(f"{slot} = {self.value(value)}")
        return self.value(e.body)

    def e_Not(self, e: ir.Not) -> str:
        return f"(not {self.test(e.operand)})"

    def e_And(self, e: ir.And) -> str:
        return self.junction(e, bools=True)

    def e_Or(self, e: ir.Or) -> str:
        return self.junction(e, bools=True)

    def junction(self, e: ir.And | ir.Or, bools: bool) -> str:
        """`and` or `or`: its right side read only where its left does not decide;
        with `bools`, as a bool (else read for its truth alone)."""
        word = "and" if isinstance(e, ir.And) else "or"

        def side(operand: ir.Expr) -> str:
            if bools:
                return self.boolean(operand, self.value(operand))
            return self.test(operand)

        left = side(e.left)
        outer = dict(self.known)  # what the right side reads it may not read
        with self.src.held(deeper=True) as lines:
            right = side(e.right)
        self.known = outer
        if not lines:
            return f"({left} {word} {right})"
        t = self.into(left)
        with self.block(f"if {t}:" if word == "and" else f"if not {t}:"):
            self.src.place(lines)
            self.src.line(f"{t} = {right}")
        return t

    def e_Compare(self, e: ir.Compare) -> str:
        a, b = self.operands(e.left, e.right)
        if e.op in ("==", "!="):
            return f"({a} {e.op} {b})"
        # an order comparison with nothing in it (no such card) does not hold
        a, b = self.hold(a), self.hold(b)
        if "None" in (a, b):
            return "False"
        tests = [f"{v} is not None" for v, x in ((a, e.left), (b, e.right))
                 if not _literal(v) and not _is_int(x)]
        return "(" + " and ".join([*tests, f"{a} {e.op} {b}"]) + ")"

    def e_Arith(self, e: ir.Arith) -> str:
        a, b = self.operands(e.left, e.right)
        if e.op in ("+", "-"):
            a, b = self.hold(a), self.hold(b)
            other = "plus" if e.op == "+" else "minus"
            return (f"({a} {e.op} {b} if type({a}) is int and type({b}) is int "
                    f"else {other}({a}, {b}))")
        if e.op == "*":
            return f"({a} * {b})"
        b = self.hold(b)
        return f"({a} // {b} if {b} else 0)"

    def e_In(self, e: ir.In) -> str:
        r, x = self.operands(e.collection, e.item)
        if self.listed(e.collection):
            return f"({x} in {r})"
        r = self.hold(r)
        return f"({x} in {r} if isinstance({r}, (list, tuple)) else {x} == {r})"

    def e_InOwnZone(self, e: ir.InOwnZone) -> str:
        return f"(g.cards[{self.value(e.card)}].zone == {e.zone!r})"

    def e_Is(self, e: ir.Is) -> str:
        n = repr(e.name)
        if e.kind == "type":
            x = self.atom(e.value)
            return (f"({x} is not None and not isinstance({x}, Seat) "
                    f"and g.cards[{x}].type == {n})")
        x = self.value(e.value)
        test = {
            "card_type": f"g.cards[{x}].type == {n}",
            "pawn": f"g.cards[{x}].pawn",
            "player": f"isinstance({x}, Seat)",
            "modifier": (f"{n} in {self.printed[x]}.modifiers" if x in self.printed
                         else f"has_modifier(g, {x}, {n})"),
            "counter_kind": f"{self.const(self.counter_kinds)}.get({x}) == {n}",
        }.get(e.kind, f"{x} == {n}")
        return f"({test})"

    def e_Exists(self, e: ir.Exists) -> str:
        if isinstance(e.what, ir.Where):  # up to the first element it keeps
            return self.kept(e.what, first=True)
        x = self.atom(e.what)
        if self.listed(e.what):
            return f"(len({x}) > 0)"
        is_empty = self.const(BUILTINS["is_empty"])
        return f"(len({x}) > 0 if type({x}) is list else not {is_empty}(g, {x}))"

    def e_Where(self, e: ir.Where) -> str:
        return self.kept(e, first=False)

    def kept(self, e: ir.Where, first: bool) -> str:
        """The elements a `where` keeps, as a new list; `first`: whether it keeps
        any, the loop left at the first."""
        items = self.items(e.base)
        out = self.tmp()
        self.src.line(f"{out} = {'False' if first else '[]'}")

        def keep(x: str) -> None:
            if first:
                self.src.line(f"{out} = True")
                self.src.line("break")
            else:
                self.src.line(f"{out}.append({x})")

        if e.slot is not None:
            with self.block(f"for {e.slot} in {items}:"), self.block(
                    f"if {self.test(e.cond)}:"):
                keep(e.slot)
            return out
        # the element's name, by the first element's kind, bound in the environment
        # (read from there, not from a local the function holds it in)
        var, saved, x = self.tmp(), self.tmp(), self.tmp()
        outer = self.known
        self.known = {k: v for k, v in outer.items() if k not in ELEMENT_NAMES}
        with self.block(f"if {items}:"):
            self.src.line(f"{var} = element_name({items}[0])")
            self.src.line(f"{saved} = env.get({var}, _MISSING)")
            with self.block("try:"), self.block(f"for {x} in {items}:"):
                self.src.line(f"env[{var}] = {x}")
                with self.block(f"if {self.test(e.cond)}:"):
                    keep(x)
            with self.block("finally:"):
                with self.block(f"if {saved} is _MISSING:"):
                    self.src.line(f"env.pop({var}, None)")
                with self.block("else:"):
                    self.src.line(f"env[{var}] = {saved}")
        self.known = outer
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
                self.known = {}  # entered here, nothing before was read
            self.stmt(st, i)
        src.depth = depth
        src.line("return 0")

    def frameless_body(self, form: ir.Block, block: Any) -> None:
        """A frameless block's statements (`form`'s, of the runtime block `block`),
        run with no frame of their own (`for each`'s simple body, a keyword's, a
        step's, an `if`'s branch): `run(g, env)`, which returns 1 (`PUSHED`) where
        a statement pushed a frame, else 0. One before the last that pushes
        leaves the rest in a frame of its own, under what it pushed."""
        self.framed = False
        self.in_place = (self.const(block), len(form.stmts) - 1)
        self.src.line("frames = g.frames")
        for i, st in enumerate(form.stmts):
            self.stmt(st, i)
        self.src.line("return 0")

    def moved_on(self, i: int) -> None:
        """A tail at `i` moves its frame past itself before it may push; with no
        frame, where a statement follows it, the stack's height is noted (what
        follows is left in a frame there, should it push: `pushed`)."""
        if self.framed:
            self.src.line(f"f.pc = {i + 1}")
        elif self.in_place is not None and i < self.in_place[1]:
            self.src.line("height = len(frames)")

    def pushed(self, i: int) -> None:
        """The tail at `i` has pushed a frame: what is on top runs next, and, with
        no frame, where a statement follows it, the rest of the block is left in a
        frame under what it pushed (`vm.leave_rest`)."""
        if self.framed or self.in_place is None or i == self.in_place[1]:
            self.src.line("return 1")
            return
        block = self.in_place[0]
        self.src.line(f"return leave_rest(g, height, {block}, env, {i + 1})")

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
        with self.block("if code:"):
            self.src.line("return code")
        with self.block("if frames[-1] is not f:"):
            self.src.line(f"f.pc = {i + 1}")
            self.src.line("return 1")

    def service(self, st: ir.Stmt) -> str:
        """The call of a waiting statement's service (see `services`)."""
        s = self.const(st)

        def fn(e: ir.Expr | None) -> str:
            return "None" if e is None else self.const(self.fn(e))

        def block(b: ir.Block) -> str:
            return self.const(self.blocks[b.id])

        if isinstance(st, ir.Choose):  # its functions, one tuple made here
            fns = self.const(tuple(None if e is None else self.fn(e)
                                   for e in (st.what, st.lo, st.hi, st.n, st.chooser)))
            return f"services.choose(g, f, {s}, {fns})"
        if isinstance(st, ir.ChooseDie):
            holes = "(" + "".join(f"({n!r}, {fn(e)}), " for n, e in st.holes) + ")"
            return (f"services.choose_die(g, f, {s}, {fn(st.what)}, {fn(st.chooser)}, "
                    f"{holes})")
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
        if isinstance(st, ir.Form):
            return (f"services.form(g, f, {s}, {fn(st.what)}, {fn(st.chooser)}, "
                    f"{fn(st.least)})")
        if isinstance(st, ir.Order):
            return f"services.order_list(g, f, {s}, {fn(st.chooser)})"
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

    def s_Primitive(self, st: ir.Primitive, i: int) -> None:
        args: list[str] = []
        each: tuple[str, str] | None = None
        for e, read in zip(st.operands, st.reads, strict=True):
            if read == ir.VALUE:
                args.append(self.atom(e))
            elif read == ir.LIST:
                args.append(f"list({self.items(e)})")
            else:
                each = (self.items(e), self.tmp())
                args.append(each[1])
        if st.cited:
            args.append(self.cite(st))
        call = f"g.{st.name}({', '.join(args)})"
        if each is None:
            self.src.line(call)
            return
        what, x = each
        with self.block(f"for {x} in list({what}):"):
            self.src.line(call)

    def s_Move(self, st: ir.Move, i: int) -> None:
        seat = self.atom(st.owner)
        what = self.items(st.what)
        mods, cite, c = repr(st.mods), self.cite(st), self.tmp()
        with self.block(f"for {c} in list({what}):"):
            self.src.line(f"g.move({c}, {seat}, {st.zone!r}, {mods}, {cite})")

    def s_Exhaust(self, st: ir.Exhaust, i: int) -> None:
        what = self.items(st.what)
        with self.block(f"if {what}:"):
            self.src.line(f"g.set_exhausted({what}, {st.flag}, {self.cite(st)})")

    def s_Fatigue(self, st: ir.Fatigue, i: int) -> None:
        what = self.items(st.what)
        with self.block(f"if {what}:"):
            self.src.line(f"g.fatigue({what}, {st.flag}, {self.cite(st)})")

    def s_Change(self, st: ir.Change, i: int) -> None:
        owner = self.atom(st.owner)
        field = (self.into(f"env.get({st.field!r}, {st.field!r})") if st.dynamic
                 else repr(st.field))
        value = self.atom(st.value)
        owners, o = self.into(f"as_items_of({owner})"), self.tmp()
        until, cite = repr(st.until), self.cite(st)
        if st.sign:
            delta = self.into(f"{st.sign} * {value}")
            with self.block(f"for {o} in {owners}:"):
                self.src.line(f"g.change({o}, {field}, {delta}, {until}, {cite})")
        else:
            with self.block(f"for {o} in {owners}:"):
                self.src.line(f"g.assign({o}, {field}, {value}, {until}, {cite})")

    def counters(self, st: ir.Place | ir.Strip, method: str, placer: bool) -> None:
        n, kind = self.atom(st.count), self.atom(st.kind)
        targets, c = self.items(st.target), self.tmp()
        by = "env['you'], " if placer else ""
        with self.block(f"for {c} in {targets}:"):
            self.src.line(f"g.{method}({c}, {kind}, {n}, {by}{self.cite(st)})")

    def s_Place(self, st: ir.Place, i: int) -> None:
        self.counters(st, "place_counters", True)

    def s_Strip(self, st: ir.Strip, i: int) -> None:
        self.counters(st, "strip_counters", False)

    def s_Reveal(self, st: ir.Reveal, i: int) -> None:
        what = self.items(st.what)
        self.src.line(
            f"g.events.append(Revealed(list({what}), text({self.cite(st)})))")

    def s_See(self, st: ir.See, i: int) -> None:
        seer = "env['you']" if st.who is None else self.atom(st.who)
        seer = self.into(seer)
        what = self.items(st.what)
        self.src.line(
            f"g.events.append(Seen({seer}, list({what}), text({self.cite(st)})))")

    def s_Let(self, st: ir.Let, i: int) -> None:
        # bound to a value of its own: a list another holds is copied
        if _is_fresh(st.value):
            v = self.atom(st.value)
            self.lists.add(v)
        else:
            v = self.atom(st.value)
            v = self.into(f"list({v}) if isinstance({v}, list) else {v}")
        self.src.line(f"env[{st.name!r}] = {v}")
        self.known[st.name] = v

    def s_Prevent(self, st: ir.Prevent, i: int) -> None:
        self.src.line(f"prevent(g, env, {self.cite(st)})")

    def s_CreatePawn(self, st: ir.CreatePawn, i: int) -> None:
        seat = self.atom(st.owner)
        values = ", ".join(f"{stat!r}: {self.atom(v)}" for stat, v in st.printed)
        values = self.into(f"{{{values}}}")
        source = "None" if st.source is None else self.atom(st.source)
        pawn = self.into(f"g.create_pawn({seat}, {st.zone!r}, {source}, {values}, "
                         f"{self.cite(st)})")
        self.src.line(f"env[{st.name!r}] = {pawn}")
        self.known[st.name] = pawn

    def s_Pay(self, st: ir.Pay, i: int) -> None:
        with self.block("if not env.get('__free'):"):
            you = self.into("env['you']")
            amount = self.atom(st.amount)
            self.src.line(f"g.pay({you}, {amount}, {st.kind!r}, {self.cite(st)})")

    def s_Note(self, st: ir.Note, i: int) -> None:
        with self.block(f"if {st.event!r} in g.referee.listened:"):
            fields = ", ".join(f"{p!r}: {self.atom(e)}" for p, e in st.fields)
            self.src.line(f"g.referee.note(g, {st.event!r}, {{{fields}}})")

    def s_Watch(self, st: ir.Watch, i: int) -> None:
        times, keys = self.atom(st.times), self.atom(st.keys)
        self.src.line(f"g.watch({st.number}, {times}, {keys}, dict(env))")

    def s_Begin(self, st: ir.Begin, i: int) -> None:
        values = "".join(self.atom(e) + ", " for _, _, e in st.fields)
        self.src.line(f"services.begin_flow(g, {self.const(st)}, ({values}))")

    def s_EndGame(self, st: ir.EndGame, i: int) -> None:
        self.src.line(f"g.end_game('an effect ended the game', {self.cite(st)})")

    def s_Reset(self, st: ir.Reset, i: int) -> None:
        what = self.items(st.what)
        with self.block(f"if {what}:"):
            self.src.line(f"g.reset_stats({what}, {st.stats!r})")

    def s_Expire(self, st: ir.Expire, i: int) -> None:
        # nothing marked and no watch held: nothing to expire
        with self.block("if g.marked or g.watches:"):
            self.src.line(f"g.expire({st.until!r})")

    def s_BindNumbers(self, st: ir.BindNumbers, i: int) -> None:
        self.src.line(f"env.update({self.const(dict(st.values))})")
        self.forget(name for name, _ in st.values)

    def s_KeepTargets(self, st: ir.KeepTargets, i: int) -> None:
        k = self.tmp()
        self.src.line(f"env[{st.key!r}] = {{{k}: v for {k}, v in env.items() "
                      f"if {k}[:1] not in '_#'}}")
        self.forget([st.key])

    def s_RestoreTargets(self, st: ir.RestoreTargets, i: int) -> None:
        self.src.line(f"env.update(env[{st.key!r}])")
        self.forget()

    def s_HandOver(self, st: ir.HandOver, i: int) -> None:
        k = self.tmp()
        self.src.line(f"frames[-2].env.update({{{k}: v for {k}, v in env.items() "
                      f"if {k}[:1] == '#'}})")

    def s_MakeLink(self, st: ir.MakeLink, i: int) -> None:
        self.src.line("g.referee.make_link(g, f)")

    # tails: they never wait; they move their frame on before they push

    def s_Call(self, st: ir.Call, i: int) -> None:
        fields = {p: ("None" if a is None else self.atom(a)) for p, a in st.args}
        kenv = ", ".join(f"{p!r}: {v}" for p, v in fields.items())
        required = [fields[p] for p in st.required]
        if "None" in required:
            return  # nothing to act on: the effect is impossible
        tests = [f"{v} is not None" for v in required if not _literal(v)]
        call = (f"g.call_keyword({st.keyword!r}, {{{kenv}}}, env, {st.cost}, "
                f"{self.cite(st)})")
        with self._when(tests):
            self.moved_on(i)
            with self.block(f"if {call}:"):  # else it ran here, with no frame
                self.pushed(i)

    def s_Link(self, st: ir.Link, i: int) -> None:
        source = "None" if st.source is None else self.value(st.source)
        self.src.line(f"g.referee.link(g, {st.body.id}, env, {source})")

    def s_After(self, st: ir.After, i: int) -> None:
        self.moved_on(i)
        body = self.const(self.blocks[st.body.id])
        self.src.line(f"services.after_flow(g, {st.flow!r}, {body}, env)")
        self.pushed(i)

    @contextmanager
    def _when(self, tests: list[str]) -> Iterator[None]:
        if not tests:
            yield
            return
        with self.block(f"if {' and '.join(tests)}:"):
            yield

    def s_SetRecord(self, st: ir.SetRecord, i: int) -> None:
        value = self.value(st.value)
        self.src.line(f"set_record(g, {st.flow!r}, {st.field!r}, {value})")

    def s_Drop(self, st: ir.Drop, i: int) -> None:
        what = "None" if st.what is None else self.value(st.what)
        self.src.line(f"services.drop(g, {self.const(st)}, {what})")

    def s_Append(self, st: ir.Append, i: int) -> None:
        what = self.value(st.what)
        self.src.line(f"services.append(g, {self.const(st)}, {what})")

    def s_Log(self, st: ir.Log, i: int) -> None:
        values = "".join(("None" if e is None else self.atom(e)) + ", "
                         for _, _, e, _ in st.fields)
        self.src.line(f"services.log(g, {self.const(st)}, ({values}))")

    def s_EndFlow(self, st: ir.EndFlow, i: int) -> None:
        self.src.line(f"services.end_flow(g, {st.flow!r})")

    def s_Emit(self, st: ir.Emit, i: int) -> None:
        fields = ", ".join(f"{p!r}: {self.atom(a)}" for p, a in st.args)
        self.moved_on(i)
        self.src.line(f"g.emit({st.event!r}, {{{fields}}}, env, {self.cite(st)})")
        self.pushed(i)

    def s_Resolve(self, st: ir.Resolve, i: int) -> None:
        self.moved_on(i)
        then = "None" if st.then is None else self.const(self.blocks[st.then.id])
        what = self.atom(st.what)
        self.src.line(f"g.resolve({what}, env, {self.cite(st)}, {then})")
        self.pushed(i)

    def s_Roll(self, st: ir.Roll, i: int) -> None:
        cite = self.cite(st)
        rolled = []
        for group in st.groups:
            count = self.atom(group.count)
            who = "env['you']" if group.who is None else self.atom(group.who)
            dice = self.tmp()
            self.src.line(f"{dice} = g.roll({count}, {who}, {cite})")
            if group.name is not None:
                self.src.line(f"env[{group.name!r}] = {dice}")
            else:
                self.src.line(f"services.rolled(g, {self.const(group)}, {dice}, env)")
            rolled.append((dice, who))
        self.moved_on(i)
        if len(rolled) == 1:  # most often: the dice announced here, the last first
            (dice, who), d = rolled[0], self.tmp()
            with self.block(f"for {d} in reversed({dice}):"):
                self.src.line(f"g.fire('rolled', {{'die': {d}, 'roller': {who}}}, "
                              f"env, {cite})")
        else:
            pairs = ", ".join(f"({dice}, {who})" for dice, who in rolled)
            self.src.line(f"services.announce(g, [{pairs}], env, {cite})")
        self.pushed(i)

    def s_Pop(self, st: ir.Pop, i: int) -> None:
        self.moved_on(i)
        target = self.atom(st.target)
        kind = self.atom(st.kind)
        self.src.line(f"g.pop_counter({target}, {kind}, env['you'], {self.cite(st)})")
        self.pushed(i)

    def s_If(self, st: ir.If, i: int) -> None:
        cond = self.test(st.cond)
        with self.block(f"if {cond}:"):
            self.branch(st.then, i)
        if st.otherwise is not None:
            with self.block("else:"):
                self.branch(st.otherwise, i)
        self.forget()  # a branch may have bound names anew

    def branch(self, block: ir.Block, i: int) -> None:
        """A branch of the `if` at `i`: in the frame's place where it is `inline`
        (its tail, if any, moves the frame past the `if`); else, the frame moved
        past the `if` first, with no frame of its own where it is `frameless`
        (`Block.in_place`: it may push), or in one."""
        if block.inline:
            for st in block.stmts:
                self.stmt_in_place(st, i)
            return
        self.moved_on(i)
        runtime = self.const(self.blocks[block.id])
        if block.frameless:
            with self.block(f"if {runtime}.in_place(g, env):"):
                self.pushed(i)
            return
        self.src.line(f"frames.append(Frame({runtime}, env))")
        self.pushed(i)

    def stmt_in_place(self, st: ir.Stmt, i: int) -> None:
        """A statement of an inline branch: simple, or a tail (written as at `i`)."""
        self.stmt(st, i)

    def s_Repeat(self, st: ir.Repeat, i: int) -> None:
        n = self.atom(st.times)
        cite = "None" if st.cite is None else self.const(st.cite)
        self.src.line(f"g.engine.bounds.check_repeat({n}, {cite}, g)")
        if st.body.simple:
            self.forget()  # each time round, what the body binds is read anew
            with self.block(f"for _ in range({n}):"):
                for inner in st.body.stmts:
                    self.stmt(inner, i)
            self.forget()
            return
        body = self.const(self.blocks[st.body.id])
        rounds = self.rounds_in_place if st.body.frameless else self.push_rounds
        if not st.body.inline:
            rounds(body, n, i)
            self.forget()
            return
        with self.block(f"if {n} == 1:"):  # in the frame's place, as an `if`'s branch
            self.branch(st.body, i)
        with self.block("else:"):
            rounds(body, n, i)
        self.forget()  # the round may have bound names anew

    def rounds_in_place(self, body: str, n: str, i: int) -> None:
        """The `repeat` at `i`, its body frameless: each of its `n` rounds with no
        frame of its own (`Block.in_place`), the frame moved past the `repeat`
        first; a round that pushes leaves the rounds after it in a frame under
        what it pushed (`vm.leave_rounds`)."""
        self.moved_on(i)
        left, height = self.tmp(), self.tmp()
        self.src.line(f"{height} = len(frames)")
        with self.block(f"for {left} in range({n}, 0, -1):"), self.block(
                f"if {body}.in_place(g, env):"):
            self.src.line(f"leave_rounds(g, {height}, {body}, env, {left} - 1)")
            self.pushed(i)

    def push_rounds(self, body: str, n: str, i: int) -> None:
        """The `repeat` at `i`: its body's block `body` pushed to go round `n`
        times (none: nothing), the frame moved past the `repeat` first."""
        self.moved_on(i)
        with self.block(f"if {n} > 0:"):
            self.src.line(f"frames.append(Frame({body}, env, ['repeat', {n}]))")
        self.pushed(i)


class WindowWriter(Writer):
    """Writes the function listing a window's actions (`listing.options`): per
    action, its counter gate, then its options; an action with no parameter, or
    one drawn from a collection, written in place as its plan says; any other
    shape through the listing's general binder (`Listing.bindings`)."""

    def window(self, listing: Any, acts: list[Any], standard: ir.Expr | None) -> None:
        src = self.src
        # what is bound but not yet in the listing's environment, and whether the
        # environment is made (each action makes its own, where it is read)
        self.pending: dict[str, str] = {}
        self.env_made = True
        src.line("you = seat_of(seat)")
        src.line("out = []")
        # the options listed before with this namer, kept (see `Made`)
        kept = self.const([Made()])
        src.line(f"made = {kept}[0]")
        with self.block("if made.namer is not g.namer:"):
            src.line(f"made = {kept}[0] = Made(g.namer)")
        self.card_kinds = {"card", "ability", "counter", *listing.card_types}
        self.used_by_last = listing.used_by_last
        self.known = {"you": "you"}
        self.resources = self.tmp()  # the resources to pay with, counted when first read
        src.line(f"{self.resources} = None")
        # the memos the listing's general binder reads for each candidate (the
        # standard condition per player, the resources to pay with), made where
        # it lists an action; what is written in place reads neither
        self.memos = any(_shape(act.plan) == "other" for act in acts)
        if not self.memos:
            self.tables(listing, acts, standard)
            for act in acts:
                self.action(act)
            src.line("return out")
            return
        memo = "{}" if listing.standard_per_player else "None"
        src.line(f"g.standard_memo, g.resources_memo = {memo}, {{}}")
        with self.block("try:"):
            self.tables(listing, acts, standard)
            for act in acts:
                self.action(act)
        with self.block("finally:"):
            src.line("g.standard_memo = g.resources_memo = None")
        src.line("return out")

    def tables(self, listing: Any, acts: list[Any], standard: ir.Expr | None) -> None:
        """What the window's actions read of the listing's tables (the designs
        whose first ability may resolve, where the cards with abilities an action
        may take lie), kept by the window for whether the standard condition
        fails and for the names of the recent events: read once per listing."""
        self.table: dict[str, str] = {}
        self.fails = "False"  # whether the standard condition fails for the seat
        self.standard = "None"  # whether it holds, where read here
        specs = []
        for act in acts:
            plan = act.plan
            if _shape(plan) == "drawn" and plan.resolves is not None:
                specs.append(("own", act, False))
            elif _shape(plan) == "card_ability":
                narrowed = plan.resolves == plan.params[1].name
                drawn = plan.params[0].source is not None
                specs.append(("narrowed" if narrowed else "any", act, drawn))
            else:
                continue
            self.table[act.name] = self.tmp()
        if not specs:
            return
        src = self.src
        fails = "False"
        if any(kind != "any" for kind, _, _ in specs):
            fails = self.standard_fails(listing, standard)
        self.fails = fails
        recent = self.into("frozenset(map(EVENT_NAME, g.recent)) if g.recent else "
                           "frozenset()")
        names = ", ".join(self.table[act.name] for _, act, _ in specs)
        kept = self.const({})
        with self.block("try:"):
            src.line(f"{names}, = {kept}[({fails}, {recent})]")
        with self.block("except KeyError:"):
            specs_ = self.const(tuple(specs))
            src.line(f"{names}, = {kept}[({fails}, {recent})] = listing.window_tables("
                     f"g, {specs_}, {fails}, {recent})")

    def standard_fails(self, listing: Any, standard: ir.Expr | None) -> str:
        """Whether the standard activation condition fails for the player listing:
        read here, where it reads no more than `you` and the game
        (`standard_per_player`), and kept in the listing's memo, where the window
        makes one, for what reads it after (`Listing.standard_in_listing`); else,
        not known to fail."""
        if not listing.standard_per_player:
            return "False"
        holds = self.standard = "True" if standard is None else self.hold(
            self.boolean(standard, self.value(standard)))
        if self.memos:
            self.src.line(f"g.standard_memo[you] = {holds}")
        return self.into(f"not {holds}")

    def activatable(self, what: str, alone: str | None = None) -> str:
        """A test that the ability `what` (or a card's first) may be activated now
        (`Listing.condition_met`), given the standard condition where read. Where
        that is read here, an ability it alone decides (`alone`: a test that the
        ability is `standard_only`) is decided by it in place."""
        self.env_for()  # the helper reads the candidates in the env
        met = f"listing.condition_met(g, you, {what}, env, {self.standard})"
        if alone is None or self.standard == "None":
            return met
        return f"({self.standard} if {alone} else {met})"

    def action(self, act: Any) -> None:
        plan, a = act.plan, self.const(act)
        self.known = {"you": "you"}  # each action binds its parameters anew
        if plan.counter_kinds is not None:  # it takes a counter off a card
            kinds = self.const(plan.counter_kinds)
            with self.block(f"if g.counters_in_play and not "
                           f"{kinds}.isdisjoint(g.counters_in_play):"):
                self.offers(act, a)
            return
        self.offers(act, a)

    def offers(self, act: Any, a: str) -> None:
        plan = act.plan
        shape = _shape(plan)
        if shape != "other":  # its environment, made where something reads it
            self.pending, self.env_made = {"you": "you"}, False
        if shape == "bare":
            self.bare(act, a)
        elif shape == "drawn":
            self.drawn(act, a)
        elif shape == "card_ability":
            self.card_ability(act, a)
        elif shape == "two_drawn":
            self.two_drawn(act, a)
        elif shape == "card_counter":
            self.card_counter(act, a)
        else:
            args = self.tmp()
            with self.block(f"for {args} in listing.bindings(g, {a}, seat, ()):"):
                self.found(plan, args)

    def each_once(self, source: ir.Expr, items: str) -> str:
        """The candidates `items` drawn from `source`, each once, in order: as they
        are where none can repeat (a zone's cards...)."""
        return items if _is_distinct(source) else f"dict.fromkeys({items})"

    def bind(self, name: str, local: str) -> None:
        """Parameter `name` is `local` now: read from the local by what is written
        after, and put in the env (what the listing's helpers read) only where
        something reads the env (`env_for`)."""
        self.known[name] = local
        self.pending[name] = local

    def env_for(self, *forms: ir.Expr | None) -> None:
        """The environment made, or the candidates bound since put in it, where
        what is written next (`forms`; none: a helper given the environment) may
        read it."""
        if forms and not any(f is not None and _reads_env(f, self.known)
                             for f in forms):
            return
        if not self.env_made:
            entries = ", ".join(f"{n!r}: {v}" for n, v in self.pending.items())
            self.src.line(f"env = {{{entries}}}")
            self.env_made = True
        else:
            for name, local in self.pending.items():
                self.src.line(f"env[{name!r}] = {local}")
        self.pending = {}

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        """`Writer.block`; what is put in the environment inside it may not be
        there after (it may not run)."""
        pending, made = dict(self.pending), self.env_made
        with super().block(header):
            yield
        self.pending, self.env_made = pending, made

    def costs(self, plan: ir.ActionPlan) -> None:
        """On to the next candidate unless the costs can be paid (`affordable_now`):
        each amount in turn, against the player's HP or the resources they may
        pay with (counted once per listing)."""
        if plan.costs:
            self.env_for(*(amount for _, amount in plan.costs))
            with self.block(f"if not ({self.affordable(plan)}):"):
                self.src.line("continue")

    def affordable(self, plan: ir.ActionPlan) -> str:
        """A test that each cost of the plan can be paid, its amounts read in turn
        (each written before the test: none can fail or change what is read)."""
        tests = []
        for kind, amount in plan.costs:
            need = self.atom(amount)
            if kind == "hp":
                tests.append(f"{need} <= g.players[seat].hp")
                continue
            have = self.resources  # counted once a listing, when first read
            with self.block(f"if {have} is None:"):
                self.src.line(f"{have} = g.unexhausted_resources(seat)")
            tests.append(f"{need} <= {have}")
        return " and ".join(tests)

    def found(self, plan: ir.ActionPlan, args: str) -> None:
        """The option taking `args`, listed: kept from one listing to the next where
        its arguments are cards, abilities and counters' kinds."""
        if all(p.type in self.card_kinds for p in plan.params):
            self.src.line(f"out.append(made[({plan.name!r}, {args})])")
        else:
            self.src.line(f"out.append(Action('act', ({plan.name!r}, {args}), None, "
                          "g.namer))")

    def bare(self, act: Any, a: str) -> None:
        """`Listing.bare_holds`: its requirement, then its costs."""
        plan, src = act.plan, self.src
        self.env_for(plan.requires)
        requires = [] if plan.requires is None else [
            self.test(plan.requires)]
        with self._when(requires):
            if plan.costs:
                self.env_for(*(amount for _, amount in plan.costs))
            paid = [self.affordable(plan)] if plan.costs else []
            with self._when(paid):
                src.line(f"out.append({self.const(act.bare)})")

    def drawn(self, act: Any, a: str) -> None:
        """One parameter drawn from a collection (`_bind` for it): each candidate
        once, of its card type, its check, the costs, the activation condition."""
        plan, src = act.plan, self.src
        param = plan.params[0]
        resolves = plan.resolves is not None
        # the designs whose first ability may resolve now (None: any)
        own = self.table.get(act.name, "None")
        self.env_for(param.source)
        items = self.items(param.source)
        c = self.tmp()
        with self.block(f"for {c} in {self.each_once(param.source, items)}:"):
            if param.card_type is not None:
                with self.block(f"if g.cards[{c}].type != {param.card_type!r}:"):
                    src.line("continue")
            if resolves:
                with self.block(f"if {own} is not None and g.cards[{c}].design "
                               f"not in {own}:"):
                    src.line("continue")
            self.bind(param.name, c)
            if param.check is not None:
                self.env_for(param.check)
                with self.block(f"if not {self.test(param.check)}:"):
                    src.line("continue")
            self.costs(plan)
            if resolves:
                alone = None  # whether the standard condition alone decides
                if self.standard != "None":  # for the card's first ability
                    printed = self.into(f"g.engine.abilities.get(g.cards[{c}].design)")
                    alone = f"{printed} and {printed}[0].standard_only"
                with self.block(f"if not {self.activatable(c, alone)}:"):
                    src.line("continue")
            self.found(plan, f"({c},)")


    def pool(self, param: ir.ParamPlan) -> str:
        """A parameter's candidates drawn from its `in` (`Listing.candidates`):
        each once, of its card type."""
        assert param.source is not None
        self.env_for(param.source)
        items = self.items(param.source)
        pool = (items if _is_distinct(param.source)
                else self.into(f"list(dict.fromkeys({items}))"))
        if param.card_type is None:
            return pool
        c = self.tmp()
        return self.into(f"[{c} for {c} in {pool} if g.cards[{c}].type == "
                         f"{param.card_type!r}]")

    def two_drawn(self, act: Any, a: str) -> None:
        """Two parameters each drawn from a collection, the second's not naming the
        first (a card of the hand for one of the reserves): that collection is
        drawn once, when the first has candidates."""
        plan, src = act.plan, self.src
        first, second = plan.params
        pool = self.pool(first)
        with self.block(f"if {pool}:"):
            others = self.pool(second)
            c, d = self.tmp(), self.tmp()
            if second.check is None and not plan.costs and plan.resolves is None:
                # nothing is checked of a pair: each first kept goes with every second
                with self.block(f"for {c} in {pool}:"):
                    if first.check is not None:
                        self.bind(first.name, c)
                        self.env_for(first.check)
                        with self.block(f"if not {self.test(first.check)}:"):
                            src.line("continue")
                    with self.block(f"for {d} in {others}:"):
                        self.found(plan, f"({c}, {d})")
                return
            with self.block(f"for {c} in {pool}:"):
                self.bind(first.name, c)
                if first.check is not None:
                    self.env_for(first.check)
                    with self.block(f"if not {self.test(first.check)}:"):
                        src.line("continue")
                with self.block(f"for {d} in {others}:"):
                    self.bind(second.name, d)
                    if second.check is not None:
                        self.env_for(second.check)
                        with self.block(f"if not {self.test(second.check)}:"):
                            src.line("continue")
                    self.costs(plan)
                    if plan.resolves is not None:
                        what = f"env[{plan.resolves!r}]"
                        with self.block(f"if not {self.activatable(what)}:"):
                            src.line("continue")
                    self.found(plan, f"({c}, {d})")

    def card_counter(self, act: Any, a: str) -> None:
        """A card drawn from a collection, then a kind of counter on it (`_bind` for
        the two): each card once, of its card type, holding counters, its check;
        each kind on it once, in the order first placed, its check; the costs;
        the activation condition."""
        plan = act.plan
        card, counter = plan.params
        self.env_for(card.source)
        items = self.items(card.source)
        c, state, k = self.tmp(), self.tmp(), self.tmp()
        with self.block(f"for {c} in {self.each_once(card.source, items)}:"):
            self.src.line(f"{state} = g.cards[{c}]")
            skip = f"not {state}.counters"
            if card.card_type is not None:
                skip += f" or {state}.type != {card.card_type!r}"
            with self.block(f"if {skip}:"):
                self.src.line("continue")
            self.bind(card.name, c)
            if card.check is not None:
                self.env_for(card.check)
                with self.block(f"if not {self.test(card.check)}:"):
                    self.src.line("continue")
            with self.block(f"for {k} in dict.fromkeys(map(COUNTER_KIND, "
                            f"{state}.counters)):"):
                self.bind(counter.name, k)
                if counter.check is not None:
                    self.env_for(counter.check)
                    with self.block(f"if not {self.test(counter.check)}:"):
                        self.src.line("continue")
                self.costs(plan)
                if plan.resolves is not None:
                    what = f"env[{plan.resolves!r}]"
                    with self.block(f"if not {self.activatable(what)}:"):
                        self.src.line("continue")
                self.found(plan, f"({c}, {k})")

    def card_ability(self, act: Any, a: str) -> None:
        """A card and one of its abilities (`_bind` for the two): the cards with
        abilities the action may take, where they may lie (those the player may
        use, `Listing.users_cards`, by its plan's tables, or drawn from its `in`),
        then each ability the requirement does not rule out; narrowed, where the
        standard condition fails, to those that say themselves when they may be
        activated."""
        plan = act.plan
        card, ability = plan.params
        narrow = "'any'"
        if plan.resolves == ability.name:
            narrow = self.into(f"'own' if {self.fails} else 'resolving'")
        table = self.table[act.name]  # where such cards lie: (zone, designs)...
        with self.block(f"if {table}:"):
            if card.source is None:  # the cards the player may use, in card order
                pool = self.users_cards(table)
            else:  # those drawn from its `in`, in its order: {zone: designs}
                self.env_for(card.source)
                items, c = self.items(card.source), self.tmp()
                pool = self.into(
                    f"[{c} for {c} in {self.each_once(card.source, items)} "
                    f"if g.cards[{c}].design "
                    f"in {table}.get(g.cards[{c}].zone, ())]")
            self.abilities_of(act, a, pool, narrow)

    def users_cards(self, table: str) -> str:
        """`Listing.users_cards` of the window's `table` (zone, designs), the
        player's own zones scanned here: a local holding them in card order."""
        src, pool = self.src, self.tmp()
        zone, designs, x = self.tmp(), self.tmp(), self.tmp()
        zones = self.into("g.players[seat].zones")
        src.line(f"{pool} = []")
        with (self.block(f"for {zone}, {designs} in {table}:"),
              self.block(f"for {x} in {zones}[{zone}]:"),
              self.block(f"if g.cards[{x}].design in {designs}:")):
            src.line(f"{pool}.append({x})")
        if self.used_by_last:  # and those it last had in play, lying elsewhere
            with self.block("if g.away:"):
                src.line(f"{pool} += listing.away_cards(g, seat, {table})")
        src.line(f"{pool}.sort()")
        return pool

    def abilities_of(self, act: Any, a: str, pool: str, narrow: str) -> None:
        plan, src = act.plan, self.src
        card, ability = plan.params
        c, state, indices, k, ref = (self.tmp() for _ in range(5))
        with self.block(f"for {c} in {pool}:"):
            src.line(f"{state} = g.cards[{c}]")
            if card.card_type is not None:
                with self.block(f"if {state}.type != {card.card_type!r}:"):
                    src.line("continue")
            self.bind(card.name, c)
            if card.check is not None:
                self.env_for(card.check)
                with self.block(f"if not {self.test(card.check)}:"):
                    src.line("continue")
            src.line(f"{indices} = {a}.possible.get(({state}.design, {state}.zone))")
            with self.block(f"if {indices} is None:"):
                src.line(f"{indices} = listing.possible_for(g, {a}, 1, {state}.design, "
                         f"{state}.zone)")
            # the card's printed abilities, where what follows reads them
            printed = None
            own = plan.resolves == ability.name  # it resolves the ability taken
            if narrow != "'any'" or (ability.check is not None
                                     and _tests_modifier(ability.check)) or (
                                         own and self.standard != "None"):
                printed = self.into(f"g.engine.abilities[{state}.design]")
            if narrow != "'any'":
                with self.block(f"if {narrow} == 'own':"):
                    # those that say themselves when they may be activated
                    src.line(f"{indices} = [{k} for {k} in {indices} "
                             f"if {printed}[{k}].trigger is not None "
                             f"or {printed}[{k}].cond is not None]")
            with self.block(f"for {k} in {indices}:"):
                src.line(f"{ref} = ability_ref(AbilityRef, ({c}, {k}))")
                self.bind(ability.name, ref)
                if printed is not None:
                    self.printed[ref] = f"{printed}[{k}]"
                if ability.check is not None:
                    self.env_for(ability.check)
                    with self.block(f"if not {self.test(ability.check)}:"):
                        src.line("continue")
                self.costs(plan)
                if plan.resolves is not None:
                    what, alone = c, None
                    if own:
                        what = ref
                        if printed is not None:
                            alone = f"{printed}[{k}].standard_only"
                    with self.block(f"if not {self.activatable(what, alone)}:"):
                        src.line("continue")
                self.found(plan, f"({c}, {ref})")


def _shape(plan: ir.ActionPlan) -> str:
    """How a window lists an action: "bare" (no parameter), "drawn" (one, drawn
    from a collection), "card_ability" (a card, then one of its abilities),
    "card_counter" (a card drawn from a collection, then a kind of counter on it),
    "two_drawn" (two drawn, the second's collection not naming the first), or
    through the general binder ("other")."""
    params = plan.params
    if not params:
        return "bare"
    if len(params) == 1:
        return "drawn" if params[0].source is not None else "other"
    if len(params) != 2:
        return "other"
    first, second = params
    if (second.type == "counter" and second.source is None
            and first.source is not None
            and first.type not in ("ability", "counter", "player", "players")):
        return "card_counter"
    if second.type == "ability" and first.type not in (
            "ability", "counter", "player", "players"):
        return "card_ability"
    if (first.source is not None and second.source is not None
            and not ir_reads(second.source, first.name)
            and second.type not in ("ability", "counter")):
        return "two_drawn"
    return "other"


def _tests_modifier(e: ir.Expr) -> bool:
    """Whether an expression tests a value for an ability's modifier (`is`)."""
    if isinstance(e, ir.Is) and e.kind == "modifier":
        return True
    return any(_tests_modifier(v) for v in ir.operands(e))


def ir_reads(e: ir.Expr, name: str) -> bool:
    """Whether an expression reads `name` from the environment."""
    if isinstance(e, (ir.Name, ir.NameOr)):
        return e.name == name
    return any(ir_reads(v, name) for v in ir.operands(e))


def _reads_env(e: ir.Expr, known: dict[str, str]) -> bool:
    """Whether the code written for `e` may read the environment (`env`): a name no
    local holds (`known`), a value read as `attr` reads any (an uncertain kind, an
    event's field), a card's stat (`card_stat` where the card lacks it), a term
    called, a `where` whose element is named in the environment."""
    if isinstance(e, ir.Name):
        return e.name not in known
    if isinstance(e, (ir.NameOr, ir.EventField, ir.DynAttr, ir.TermCall, ir.CardStat)):
        return True
    if isinstance(e, ir.Active):
        return e.bound
    if isinstance(e, ir.Where) and e.slot is None:
        return True
    if isinstance(e, (ir.CardField, ir.CardSeat, ir.DieField, ir.PlayerZone,
                      ir.PlayerField)) and not e.sure:
        return True
    return any(_reads_env(v, known) for v in ir.operands(e))


def _is_bool(e: ir.Expr) -> bool:
    """Whether `e`'s value is a bool for certain."""
    if isinstance(e, ir.With):  # a term written in place is what its body is
        return _is_bool(e.body)
    if isinstance(e, ir.Const):
        return type(e.value) is bool
    if isinstance(e, ir.Is):
        return e.kind != "pawn"
    if isinstance(e, (ir.ChainField, ir.BattleField)):
        return e.name in ("open", "ongoing")
    return isinstance(e, (ir.Compare, ir.Not, ir.And, ir.Or, ir.In, ir.InOwnZone,
                          ir.Exists))


def _is_distinct(e: ir.Expr) -> bool:
    """Whether no item of `e`'s value repeats, for certain (a zone's cards: a card
    is in one zone; the players)."""
    if isinstance(e, ir.PlayerZone):
        return e.sure
    if isinstance(e, ir.Where):
        return _is_distinct(e.base)
    if isinstance(e, ir.With):
        return _is_distinct(e.body)
    return isinstance(e, (ir.PlayersZone, ir.Players, ir.Join))


def _is_fresh(e: ir.Expr) -> bool:
    """Whether `e`'s value is a new list, no other's (the game's zones are not)."""
    if isinstance(e, ir.With):
        return _is_fresh(e.body)
    if isinstance(e, ir.Builtin):
        return e.func == "concat"
    return isinstance(e, (ir.Where, ir.PlayersZone, ir.Players, ir.Join))


def _is_list(e: ir.Expr) -> bool:
    """Whether `e`'s value is a list for certain (of the game's, or its own)."""
    if isinstance(e, ir.PlayerZone):
        return e.sure
    if isinstance(e, ir.GameField):
        return e.name == "victims"  # the game's list of victims declared
    if isinstance(e, ir.With):
        return _is_list(e.body)
    if isinstance(e, ir.Builtin):
        return e.func == "concat"
    return isinstance(e, (ir.Where, ir.PlayersZone, ir.Players, ir.Join))


def _is_int(e: ir.Expr) -> bool:
    """Whether `e`'s value is an int for certain (a count, a number written)."""
    if isinstance(e, ir.Const):
        return type(e.value) is int
    return isinstance(e, ir.Builtin) and e.func == "count"


def _literal(v: str) -> bool:
    return v in ("True", "False") or v.lstrip("-").isdigit() or v.startswith("'")


__all__ = ["HELPERS", "Source", "WindowWriter", "Writer", "compiled"]
