"""The compiled programs of one ruleset and its cards: blocks by number, and
expressions as functions, run by the backend chosen.

`Programs.block` lowers a program to the intermediate form (`lower.py`) and
gives back a runtime block (`kotc.runtime.vm.Block`) whose `go` is the backend's:
the reference interpreter's (`interp.py`), or a function the code generator
writes for it when it first runs (`codegen.py`). `Programs.expr` does the same for
an expression, as a function `(game, env) -> value`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kotc.dsl import Ruleset, ast
from kotc.runtime.vm import Block, Frame

from . import ir
from .builtins import as_items_of
from .codegen import WindowWriter, Writer, compiled
from .interp import Interpreter
from .lower import CARD, PLAYER, Lowering, keyword_names, param_kind

BACKENDS = ("generated", "reference")

Eval = Callable[[Any, dict[str, Any]], Any]


@dataclass(frozen=True)
class WatchSpec:
    """A watch as the engine runs it: the event it waits for, when it ends, its
    condition and key (read where the watch's environment and `event` are bound),
    the program its holder may run, and the rule it is for."""

    event: str
    until: str
    cond: Eval | None
    key: Eval
    body: Block
    cite: ast.Citation | None


class Programs:
    """Every compiled block of one ruleset (and its cards), by number.

    Args:
        ruleset: the rules.
        printed: the names of the stats printed on the cards compiled with it.
        backend: "generated" (the default) or "reference".
    """

    def __init__(self, ruleset: Ruleset, printed: frozenset[str] = frozenset(),
                 backend: str = "generated"):
        if backend not in BACKENDS:
            raise ValueError(f"no backend {backend!r} (backends: {', '.join(BACKENDS)})")
        self.rs = ruleset
        self.backend = backend
        self.card_types = set(ruleset.card_types)
        self.modifiers = set(ruleset.modifiers)
        self.zones = set(ruleset.zones)
        self.stats = set(ruleset.stats)
        # every name a card's `stats` may hold: the edition's stats and those printed
        # on the cards in play (`Game.put` keeps to these)
        self.card_keys = frozenset(self.stats | printed)
        self.counter_kinds = {c.name: c.counter_kind for c in ruleset.counters.values()}
        self.counter_labels = {c.name: c.label for c in ruleset.counters.values()}
        cost = ruleset.setting("cards", "cost")
        self.cost_stat = cost.stat if cost else None
        self.lowering = Lowering(ruleset, self.card_keys)
        self.blocks: list[Block] = []
        self._watches: dict[int, WatchSpec] = {}
        # each term written as an expression: its parameters and its body, read in
        # an environment of its own (for a term not written in place)
        self.term_bodies = {
            t.name: t for t in ruleset.terms.values() if t.value is not None
        }
        self.term_forms: dict[str, tuple[tuple[str, ...], ir.Expr]] = {}
        for term in self.term_bodies.values():
            names = {"you": PLAYER, **{p.name: param_kind(p.type, self.card_types)
                                       for p in term.params}}
            scope = self.lowering.scope(names)
            assert term.value is not None
            self.term_forms[term.name] = (
                tuple(p.name for p in term.params), self.lowering.expr(term.value, scope))
        self.interpreter = Interpreter(self.blocks, self.term_forms)
        # generated expression functions, by their form's text (`Const(0)` and
        # `Const(False)` are equal forms, but not the same code)
        self._fns: dict[str, Eval] = {}
        # the terms as functions (for a term not written in place)
        self.terms: dict[str, tuple[tuple[str, ...], Eval]] = {}
        for name, (params, body) in self.term_forms.items():
            self.terms[name] = (params, self.fn(body, f"term {name}"))
        # the standard activation condition, read where `you`, the ability and its
        # card (`source`) are bound; a written window reads it in place
        std = ruleset.setting("actions", "standard_activation")
        self.standard_form = None if std is None else self.lowering.expr(
            std.cond, self.lowering.scope({"you": PLAYER, "source": CARD,
                                           "ability": None}))
        self.keyword_blocks: dict[str, Block] = {}
        # each keyword's parameters, in order (a watched call's event holds them)
        self.keyword_params: dict[str, tuple[str, ...]] = {}
        for kw in ruleset.keywords.values():
            self.keyword_params[kw.name] = tuple(p.name for p in kw.params)
            self.keyword_blocks[kw.name] = self.block(
                kw.body, kw.cite, f"keyword {kw.name}",
                keyword_names(kw, self.card_types))

    # --- blocks ---------------------------------------------------------------------

    def block(self, stmts: tuple[ast.Stmt, ...], cite: ast.Citation | None, where: str,
              names: Mapping[str, str | None] | None = None) -> Block:
        """A program, its environment starting with `names` (`you` by default)."""
        form = self.lowering.program(stmts, cite, where, names or {"you": PLAYER})
        self._made()
        return self.blocks[form.id]

    def flow_block(self, flow: str, stmts: tuple[ast.Stmt, ...],
                   cite: ast.Citation | None, where: str) -> Block:
        """A program of a flow itself (a battle step's part), `you` its first
        player: it keeps the flow's record without telling."""
        form = self.lowering.flow_program(flow, stmts, cite, where, {"you": PLAYER})
        self._made()
        return self.blocks[form.id]

    def internal(self, stmts: tuple[ir.Stmt, ...], cite: ast.Citation | None,
                 where: str) -> Block:
        """A block of the intermediate form's statements, as the engine makes them."""
        form = self.lowering.internal(stmts, cite, where)
        self._made()
        return self.blocks[form.id]

    def _made(self) -> None:
        """Runtime blocks for the blocks lowered since the last."""
        forms = self.lowering.blocks
        for form in forms[len(self.blocks):]:
            # a program that never waits may run with no frame of its own
            # (`Block.in_place`), one made only for what is left where a statement
            # before its last pushes: a keyword's does (`Game.call_keyword`), a
            # step's (`Runner`), an `if`'s branch
            in_place = self._first_run(form) if form.frameless else None
            self.blocks.append(Block(form, self._go(form), in_place))

    def _go(self, form: ir.Block) -> Callable[[Any, Frame], int]:
        if self.backend == "reference":
            return self.interpreter.go

        def first_go(g: Any, f: Frame) -> int:
            # written when first run: most of a ruleset's and its cards' blocks
            # never run in a given game
            block = self.blocks[form.id]
            block.go = self._written(form)
            return block.go(g, f)

        return first_go

    def _writer(self) -> Writer:
        params = {name: form[0] for name, form in self.term_forms.items()}
        return Writer(self.blocks, self.fn, self._simple, self.terms, params,
                      self.counter_kinds)

    def _written(self, form: ir.Block) -> Callable[[Any, Frame], int]:
        """A block's `go`, written as one function."""
        writer = self._writer()
        writer.body(form)
        where = f"block {form.id}: {form.where}"
        return compiled("go", "g, f", writer.src.text(), where, writer.namespace())

    def _simple(self, form: ir.Block) -> Callable[[Any, dict[str, Any]], int]:
        """The statements of a frameless block, as a function `(game, env)` run with
        no frame of its own (a `for each`'s simple body, a keyword's program, a
        step's, an `if`'s branch): `NEXT`, or `PUSHED` where a statement pushed a
        frame (one before the last leaves the rest of the block in a frame, under
        what it pushed)."""
        if self.backend == "reference":
            run = self.interpreter.run_in_place
            return lambda g, env: run(form, g, env)
        writer = self._writer()
        writer.frameless_body(form, self.blocks[form.id])
        where = f"block {form.id}: {form.where}, in place"
        return compiled("run", "g, env", writer.src.text(), where, writer.namespace())

    def _first_run(self, form: ir.Block) -> Callable[[Any, dict[str, Any]], int]:
        """A frameless block's `in_place`, written when first run."""
        def first_run(g: Any, env: dict[str, Any]) -> int:
            run = self.blocks[form.id].in_place = self._simple(form)
            return run(g, env)

        return first_run

    def watch(self, number: int) -> WatchSpec:
        """The watch lowered as number `number` (see `ir.Watch`), its condition and
        key as functions."""
        spec = self._watches.get(number)
        if spec is None:
            form = self.lowering.watches[number]
            where = f"watch when {form.event}"
            spec = self._watches[number] = WatchSpec(
                form.event, form.until,
                None if form.cond is None else self.fn(form.cond, where),
                self.fn(form.key, where), self.blocks[form.body.id], form.cite,
            )
        return spec

    # --- expressions ----------------------------------------------------------------

    def expr(self, e: ast.Expr, names: Mapping[str, str | None] | None = None) -> Eval:
        """The expression as a function `(game, env) -> value`, read where the
        environment binds `names` (`you` by default)."""
        scope = self.lowering.scope(names or {"you": PLAYER})
        return self.fn(self.lowering.expr(e, scope))

    def fn(self, form: ir.Expr, where: str = "expression") -> Eval:
        """An expression of the intermediate form as a function `(game, env) ->
        value`: the interpreter's, or one written for it (once per form)."""
        if self.backend == "reference":
            return self.interpreter.fn(form)
        key = repr(form)
        made = self._fns.get(key)
        if made is None:
            writer = self._writer()
            result = writer.value(form)
            writer.src.line(f"return {result}")
            made = self._fns[key] = compiled("value", "g, env", writer.src.text(),
                                              where, writer.namespace())
        return made

    def closure(self, e: ast.Expr) -> Eval:
        """`expr`, for the listing's written code (which gives no names)."""
        return self.expr(e)

    def window(self, listing: Any, acts: list[Any]) -> Callable[..., Any]:
        """The function listing a window's actions, written for it (see
        `codegen.WindowWriter`)."""
        params = {name: form[0] for name, form in self.term_forms.items()}
        writer = WindowWriter(self.blocks, self.fn, self._simple, self.terms, params,
                              self.counter_kinds)
        writer.window(listing, acts, self.standard_form)
        where = "window " + ", ".join(a.name for a in acts)
        return compiled("window", "listing, g, seat", writer.src.text(), where,
                        writer.namespace())

    def zones_read(self, e: ast.Node) -> set[str]:
        """The zone names an expression reads (so the game knows when to re-check it)."""
        return {
            part for path in ast.paths(e) for part in path.parts if part in self.zones
        }


# The elements of a value that may be one card or a collection (the public name).
as_list = as_items_of

__all__ = ["BACKENDS", "Programs", "WatchSpec", "as_list"]
