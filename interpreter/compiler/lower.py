"""Lowering: the validated syntax tree of a ruleset's programs to the intermediate
form (`ir`).

Names are resolved where they are read: an element of a `where`, a term's
parameter, a global (`active`, `players`, the contexts `game`, `chain`,
`battle`), or a name of the program's environment. An attribute read is
resolved by what the value it is read from is known to be: a card (its stat, a
field of its own, a seat), a player (a zone, a field), several players (a zone
of each), an event (a field); where that is known for certain (the element of a
`where` over a zone, `you`, `this`), the read is `sure`, else the backends check
the value and read any other kind as `services.attr` does. What is not known is
a `DynAttr`. Terms are written in place (`With`), a few deep.

Blocks are numbered in the order they are lowered, a block before the blocks
inside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from kotc.dsl import Ruleset, ast
from kotc.dsl.types import ANY_COUNTER, BUILTIN_EVENTS, LOG_EVENTS
from kotc.dsl.unparse import unparse
from kotc.runtime.state import CardState

from . import ir

Cite = ast.Citation | None

# the kinds of value an attribute may be resolved on
CARD, CARDS, PLAYER, PLAYERS, EVENT = "card", "cards", "player", "players", "event"
DIE, DICE = "die", "dice"
# the kind of each element of a collection of a kind
ELEMENT_KINDS = {CARDS: CARD, PLAYERS: PLAYER, DICE: DIE}

# a card's own fields, read from its state (its seats and printed stats apart)
CARD_FIELDS = frozenset(CardState.__slots__) - {
    "owner", "controller", "last_controller", "printed", "stats",
}
PLAYER_FIELDS = frozenset({"hp", "eliminated", "decked_out", "agreed"})
COUNTER_KINDS = ("proactive", "reactive", "inert")
ELEMENT_NAMES = ("card", "player", "die")

# what the contexts' fields are: (kind, whether a value of it is sure to be one)
GAME_FIELDS: dict[str, tuple[str | None, bool]] = {"first_player": (PLAYER, True)}
CHAIN_FIELDS: dict[str, tuple[str | None, bool]] = {"last_actor": (PLAYER, False)}
# what a field of the battle's record is, by the type its declaration gives it
# (`record attacker: player, ...`): none while no battle is under way, but a
# team, a list of cards, which is empty then
RECORD_KINDS: dict[str, tuple[str | None, bool]] = {
    "player": (PLAYER, False), "card": (CARD, False), "cards": (CARDS, True),
    "dice": (DICE, False),
}
# what builtins return: (kind, whether sure)
BUILTIN_KINDS = {
    "top": (CARDS, False), "bottom": (CARDS, False), "left_of": (PLAYER, True),
    "enemies": (PLAYERS, True),
}
# a term written in place inside terms, at most this deep (a term may use itself)
INLINE_DEPTH = 4


def param_kind(type_name: str, card_types: Iterable[str]) -> str | None:
    """The kind of value a parameter of this type holds."""
    if type_name == "card" or type_name in card_types:
        return CARD
    if type_name in (CARDS, PLAYER, PLAYERS):
        return type_name
    return None


# what is known of a name's value: its kind (or None) and whether that is sure
Known = tuple[str | None, bool]
UNKNOWN: Known = (None, False)
# names the engine binds to a card or a player, always one
SURE_NAMES = frozenset({"you", "this", "host"})

@dataclass(frozen=True)
class PrimitiveCall:
    """How a statement that only calls a primitive is lowered: the primitive (a
    method of `Game`), the statement's fields it takes in order with how each is
    read (`ir.VALUE`, `ir.LIST`, `ir.EACH`), and whether it takes the citation."""

    name: str
    operands: tuple[tuple[str, str], ...]
    cited: bool = True


# the statements that read their operands and call one primitive: one row each
PRIMITIVES: dict[type[ast.Stmt], PrimitiveCall] = {
    ast.Give: PrimitiveCall("give", (("what", ir.EACH), ("player", ir.VALUE))),
    ast.Banish: PrimitiveCall("banish", (("what", ir.EACH),)),
    ast.Reroll: PrimitiveCall("reroll", (("die", ir.EACH),)),
    ast.Mark: PrimitiveCall(
        "mark", (("what", ir.EACH), ("tag", ir.VALUE), ("until", ir.VALUE)), cited=False),
    ast.Shuffle: PrimitiveCall("shuffle", (("what", ir.LIST),)),
    ast.Negate: PrimitiveCall("negate", (("what", ir.LIST),)),
    ast.Skip: PrimitiveCall("skip_step", (("step", ir.VALUE),)),
}



@dataclass(frozen=True)
class Scope:
    """Where an expression is read: the names its environment may bind (and what
    is known of each), and the names bound by the expression itself (`locals`:
    name -> (slot, kind, sure)). In a term written in place (`term`), the
    environment is the term's own: its names are all locals."""

    names: Mapping[str, Known]
    locals: Mapping[str, tuple[str, str | None, bool]]
    term: bool = False
    depth: int = 0

    def bound(self, name: str) -> bool:
        """Whether the environment may bind `name`."""
        return not self.term and name in self.names


class Lowering:
    """Lowers one ruleset's programs, and those of the cards compiled with it."""

    def __init__(self, ruleset: Ruleset, card_keys: frozenset[str]):
        self.rs = ruleset
        self.stats = frozenset(ruleset.stats)
        self.zones = frozenset(ruleset.zones)
        self.card_types = frozenset(ruleset.card_types)
        self.modifiers = frozenset(ruleset.modifiers)
        self.counter_kinds = {c.name: c.counter_kind for c in ruleset.counters.values()}
        # every name a card's stats may hold: the edition's and those printed
        self.card_keys = card_keys
        self.terms = {t.name: t for t in ruleset.terms.values() if t.value is not None}
        cost = ruleset.setting("cards", "cost")
        self.cost_stat = cost.stat if cost else None
        record = ruleset.battle_record
        self.battle_fields: dict[str, Known] = {
            f.name: RECORD_KINDS.get(f.type, UNKNOWN)
            for f in (record.fields if record is not None else ())
        }
        self.blocks: list[ir.Block] = []
        self.watches: list[ir.Watch] = []  # by number (`ir.Watch.number`)
        self._slots = 0
        # the flow whose own program is being lowered (a battle's part): its
        # record's fields are set silently (`ir.SetRecord`)
        self.own_flow: str | None = None

    # --- programs -------------------------------------------------------------------

    def program(self, stmts: tuple[ast.Stmt, ...], cite: ast.Citation | None,
                where: str, names: Mapping[str, str | None]) -> ir.Block:
        """A program: its statements, in an environment that holds `names` (and
        what its statements bind)."""
        return self.block(stmts, cite, where, self.scope(names, stmts))

    def flow_program(self, flow: str, stmts: tuple[ast.Stmt, ...],
                     cite: ast.Citation | None, where: str,
                     names: Mapping[str, str | None]) -> ir.Block:
        """A program of the flow `flow` itself (a battle step's part), which keeps
        its record without telling (see `ir.SetRecord`)."""
        self.own_flow = flow
        try:
            return self.program(stmts, cite, where, names)
        finally:
            self.own_flow = None

    def scope(self, names: Mapping[str, str | None],
              stmts: tuple[ast.Stmt, ...] = (), sure: frozenset[str] = SURE_NAMES,
              ) -> Scope:
        """The scope of a program that starts with `names` bound and runs `stmts`:
        the names they bind too. What is known of a name is known of every value
        bound to it (a `let` of a zone's cards, the items of a `for each` over
        them); else nothing. `sure`: the names whose values are of their kind for
        certain (by default those the engine binds, `SURE_NAMES`)."""
        start: dict[str, Known] = {
            n: (k, n in sure and k is not None) for n, k in names.items()
        }
        known = dict(start)
        for _ in range(3):  # a binding may read a name bound before it
            found: dict[str, set[Known]] = {n: {k} for n, k in start.items()}
            scope = Scope(known, {})
            for name, value in self._bindings(stmts, scope):
                found.setdefault(name, set()).add(value)
            agreed = {n: (next(iter(k)) if len(k) == 1 else UNKNOWN)
                      for n, k in found.items()}
            if agreed == known:
                break
            known = agreed
        return Scope(known, {})

    def _bindings(self, stmts: tuple[ast.Stmt, ...],
                  scope: Scope) -> Iterable[tuple[str, Known]]:
        """The names the statements bind (at any depth), each with what is known
        of the value bound."""
        for s in stmts:
            if isinstance(s, ast.Let):
                _, kind, sure = self.lower(s.value, scope)
                yield s.name, (kind, sure)
            elif isinstance(s, ast.ForEach):
                _, kind, sure = self.lower(s.what, scope)
                element = ELEMENT_KINDS.get(kind or "")
                yield s.name, (element, sure) if element else UNKNOWN
            elif isinstance(s, ast.Roll):
                for group in s.groups:  # the dice rolled: a list, of dice
                    if len(group.target.parts) == 1:
                        yield group.target.parts[0], (DICE, True)
            elif isinstance(s, ast.ChooseDie):
                yield s.name, (DIE, False)  # the die chosen, or none
            elif isinstance(s, (ast.Choose, ast.Pick, ast.CreatePawn)):
                yield s.name, UNKNOWN
            for value in vars(s).values():
                if isinstance(value, tuple) and value and isinstance(value[0], ast.Stmt):
                    yield from self._bindings(value, scope)
                elif isinstance(value, tuple) and value and isinstance(value[0], tuple):
                    for block in value:  # `either`'s options
                        yield from self._bindings(block, scope)

    def block(self, stmts: tuple[ast.Stmt, ...], cite: ast.Citation | None,
              where: str, sc: Scope) -> ir.Block:
        number = len(self.blocks)
        self.blocks.append(None)  # type: ignore[arg-type]  # numbered before its own
        body = tuple(self.stmt(s, cite, where, sc) for s in stmts)
        made = ir.Block(number, body, cite, where)
        self.blocks[number] = made
        return made

    def internal(self, stmts: tuple[ir.Stmt, ...], cite: ast.Citation | None,
                 where: str) -> ir.Block:
        """A block of the engine's own statements (a reaction, a link made)."""
        made = ir.Block(len(self.blocks), stmts, cite, where)
        self.blocks.append(made)
        return made

    # --- expressions ----------------------------------------------------------------

    def expr(self, e: ast.Expr, sc: Scope) -> ir.Expr:
        return self.lower(e, sc)[0]

    def lower(self, e: ast.Expr, sc: Scope) -> tuple[ir.Expr, str | None, bool]:
        """`e` lowered, with the kind of value it is known to be (or None), and
        whether that is sure."""
        if isinstance(e, (ast.IntLit, ast.BoolLit)):
            return ir.Const(e.value), None, False
        if isinstance(e, ast.NoneLit):
            return ir.Const(None), None, False
        if isinstance(e, ast.Path):
            return self.path(e.parts, sc)
        if isinstance(e, ast.FuncCall):
            return self.call(e, sc)
        if isinstance(e, ast.Unary):
            return ir.Not(self.expr(e.operand, sc)), None, False
        if isinstance(e, ast.Filtered):
            return self.where(e, sc)
        assert isinstance(e, ast.Binary), e
        op = e.op
        if op == "is":
            return self.is_(e, sc), None, False
        if op == "and":
            return ir.And(self.expr(e.left, sc), self.expr(e.right, sc)), None, False
        if op == "or":
            return ir.Or(self.expr(e.left, sc), self.expr(e.right, sc)), None, False
        if op == "in":
            return self.in_(e, sc), None, False
        left, lk, lsure = self.lower(e.left, sc)
        right, rk, rsure = self.lower(e.right, sc)
        if op in ("+", "-", "*", "/"):
            kind, sure = None, False
            if op in ("+", "-") and lk == rk == CARDS:
                kind, sure = CARDS, lsure and rsure
                left_zones, right_zones = zones_read(left), zones_read(right)
                if op == "+" and left_zones and right_zones and not (
                        left_zones & right_zones):
                    parts = [p for side in (left, right)
                             for p in (side.parts if isinstance(side, ir.Join)
                                       else (side,))]
                    return ir.Join(tuple(parts)), CARDS, True
            return ir.Arith(op, left, right), kind, sure
        exists = existence(op, left, right)
        if exists is not None:
            return exists, None, False
        return ir.Compare(op, left, right), None, False

    def path(self, parts: tuple[str, ...], sc: Scope) -> tuple[ir.Expr, str | None, bool]:
        head, *rest = parts
        value: ir.Expr
        kind: str | None
        local = sc.locals.get(head)
        if local is not None:
            value, kind, sure = ir.Local(local[0]), local[1], local[2]
        elif head == "active":
            value, kind, sure = ir.Active(bound=sc.bound(head)), PLAYER, True
        elif head == "players":
            value, kind, sure = ir.Players(), PLAYERS, True
        elif head in ("game", "chain", "battle"):
            if not rest:
                return ir.Builtin("context", (ir.Const(head),)), None, False
            field, rest = rest[0], rest[1:]
            fields: Mapping[str, Known] = {
                "game": GAME_FIELDS, "chain": CHAIN_FIELDS,
                "battle": self.battle_fields}[head]
            kind, sure = fields.get(field, (None, False))
            made = {"game": ir.GameField, "chain": ir.ChainField,
                    "battle": ir.BattleField}[head]
            value = made(field)
        elif sc.term:
            value, kind, sure = ir.Builtin("unbound", (ir.Const(head),)), None, False
        else:
            kind, sure = sc.names.get(head, UNKNOWN)
            value = ir.Name(head, bound=sure and head in SURE_NAMES)
        for name in rest:
            value, kind, sure = self.attribute(value, kind, sure, name, sc)
        return value, kind, sure

    def attribute(self, v: ir.Expr, kind: str | None, sure: bool, name: str,
                  sc: Scope) -> tuple[ir.Expr, str | None, bool]:
        """`v.name`, resolved by what `v` is known to be."""
        dynamic = ir.DynAttr(v, name, not sc.term)
        if kind == CARD:
            if name in self.card_keys:
                return ir.CardStat(v, name, sure), None, False
            if name in ("controller", "owner"):
                return ir.CardSeat(v, name, sure), PLAYER, sure
            if sc.bound(name):  # a name bound to a stat may stand for it
                return dynamic, None, False
            if name == "last_controller":
                return ir.CardSeat(v, name, sure), PLAYER, sure
            if name in CARD_FIELDS and name.isidentifier():
                return ir.CardField(v, name, sure), None, False
            return dynamic, None, False
        if kind == PLAYER:
            if name in self.zones:
                return ir.PlayerZone(v, name, sure), CARDS, sure
            if name == "left" or name in PLAYER_FIELDS:
                left = name == "left"
                return ir.PlayerField(v, name, sure), PLAYER if left else None, left
            return dynamic, None, False
        if kind == PLAYERS and sure and name in self.zones:
            return ir.PlayersZone(v, name), CARDS, True
        if kind == EVENT:
            return ir.EventField(v, name), None, False
        if kind == DIE and name in ("value", "roller"):
            roller = name == "roller"
            return ir.DieField(v, name, sure), PLAYER if roller else None, roller and sure
        return dynamic, None, False

    def call(self, e: ast.FuncCall, sc: Scope) -> tuple[ir.Expr, str | None, bool]:
        term = self.terms.get(e.func)
        if term is not None:
            return self.term(term, e.args, sc)
        if e.func == "cost":  # the stat cards are priced by, known here
            return ir.CardCost(self.expr(e.args[0], sc), self.cost_stat), None, False
        args: list[ir.Expr] = []
        for i, a in enumerate(e.args):
            bare = (
                (i == 1 and e.func in ("placed_by", "counters_on", "tagged", "has_caveat",
                                       "caveat_x")
                 or i == 0 and e.func == "past")
                and isinstance(a, ast.Path)
                and len(a.parts) == 1
            )
            if bare:  # a counter or tag named bare, or a name bound to one
                assert isinstance(a, ast.Path)
                name = a.parts[0]
                local = sc.locals.get(name)
                if local is not None:
                    args.append(ir.Local(local[0]))
                elif sc.bound(name):
                    args.append(ir.NameOr(name, name))
                else:
                    args.append(ir.Const(name))
            else:
                args.append(self.expr(a, sc))
        kind, sure = BUILTIN_KINDS.get(e.func, (None, False))
        return ir.Builtin(e.func, tuple(args)), kind, sure

    def term(self, term: ast.Term, args: tuple[ast.Expr, ...],
             sc: Scope) -> tuple[ir.Expr, str | None, bool]:
        """A term: written in place, its arguments and the caller's `you` bound to
        locals first; a call, deeper than `INLINE_DEPTH`."""
        lowered = [self.lower(a, sc) for a in args]
        values = [value for value, _, _ in lowered]
        if sc.depth >= INLINE_DEPTH:
            return ir.TermCall(term.name, tuple(values)), None, False
        you = self.slot()
        slots = [you]
        locals_: dict[str, tuple[str, str | None, bool]] = {"you": (you, PLAYER, False)}
        bound: list[ir.Expr] = [ir.NameOr("you", None)] if not sc.term else [
            ir.Local(sc.locals["you"][0]) if "you" in sc.locals else ir.Const(None)]
        for param, (value, kind, sure) in zip(term.params, lowered, strict=False):
            slot = self.slot()
            slots.append(slot)
            bound.append(value)
            # a parameter is what its argument is known for certain to be, where
            # that is the parameter's own kind
            want = param_kind(param.type, self.card_types)
            locals_[param.name] = (slot, want, sure and want is not None and kind == want)
        inner = Scope({}, locals_, term=True, depth=sc.depth + 1)
        assert term.value is not None
        body, kind, sure = self.lower(term.value, inner)
        if you not in locals_read(body):  # the caller's `you`, bound where read
            slots, bound = slots[1:], bound[1:]
        return ir.With(tuple(slots), tuple(bound), body), kind, sure

    def where(self, e: ast.Filtered, sc: Scope) -> tuple[ir.Expr, str | None, bool]:
        base, kind, sure = self.lower(e.base, sc)
        element = ELEMENT_KINDS.get(kind or "")
        if element is None:
            # known only when read: the first element names them all, in the env
            hidden = {k: v for k, v in sc.locals.items() if k not in ELEMENT_NAMES}
            inner = replace(sc, locals=hidden,
                            names={**sc.names, **dict.fromkeys(ELEMENT_NAMES, UNKNOWN)})
            return ir.Where(base, self.expr(e.cond, inner), None, ""), kind, False
        slot = self.slot()
        inner = replace(sc, locals={**sc.locals, element: (slot, element, sure)})
        cond = self.expr(e.cond, inner)
        return ir.Where(base, cond, slot, element), kind, sure

    def in_(self, e: ast.Binary, sc: Scope) -> ir.Expr:
        left, right = e.left, e.right
        if (
            isinstance(left, ast.Path)
            and len(left.parts) == 1
            and isinstance(right, ast.Path)
            and len(right.parts) == 3
            and right.parts[0] == left.parts[0]
            and right.parts[1] == "controller"
            and right.parts[2] in self.zones
            and "controller" not in self.card_keys
        ):
            local = sc.locals.get(left.parts[0])
            if local is not None and local[1] == CARD and local[2]:
                # a card is in one zone list, its controller's: its state says
                return ir.InOwnZone(ir.Local(local[0]), right.parts[2])
        return ir.In(self.expr(left, sc), self.expr(right, sc))

    def is_(self, e: ast.Binary, sc: Scope) -> ir.Expr:
        value, kind, sure = self.lower(e.left, sc)
        assert isinstance(e.right, ast.Path)
        name = e.right.parts[0]
        if name in self.card_types:
            if kind == CARD and sure:  # a card for certain: its type alone says
                return ir.Is("card_type", value, name)
            return ir.Is("type", value, name)
        if name == "pawn":
            return ir.Is("pawn", value, name)
        if name == "player":
            return ir.Is("player", value, name)
        if name in self.modifiers:
            return ir.Is("modifier", value, name)
        if name in COUNTER_KINDS:
            return ir.Is("counter_kind", value, name)
        return ir.Is("name", value, name)

    def slot(self) -> str:
        self._slots += 1
        return f"_v{self._slots}"

    # --- statements -----------------------------------------------------------------

    def stmt(self, s: ast.Stmt, cite: ast.Citation | None, where: str,
             sc: Scope) -> ir.Stmt:
        call = PRIMITIVES.get(type(s))
        if call is not None:
            return self.primitive(s, call, cite, sc)
        lower = getattr(self, f"stmt_{type(s).__name__}")
        made: ir.Stmt = lower(s, cite, where, sc)
        return made

    def primitive(self, s: ast.Stmt, call: PrimitiveCall, cite: Cite,
                  sc: Scope) -> ir.Stmt:
        """A statement of the table `PRIMITIVES`: its operands lowered (a field that
        is no expression, a name or a time, is a constant)."""
        operands = []
        for name, _read in call.operands:
            v = getattr(s, name)
            operands.append(self.expr(v, sc) if isinstance(v, ast.Expr) else ir.Const(v))
        reads = tuple(read for _name, read in call.operands)
        return ir.Primitive(cite, call.name, tuple(operands), reads, call.cited)

    def owner_zone(self, dest: ast.Expr, sc: Scope) -> tuple[ir.Expr, str]:
        """A destination `x.y.zone`: the seat it belongs to, and the zone's name."""
        assert isinstance(dest, ast.Path)
        owner = self.expr(ast.Path(dest.parts[:-1], origin=dest.origin), sc)
        return owner, dest.parts[-1]

    def counter(self, name: str) -> ir.Expr:
        """A counter's kind: a kind's name (or `any`), or a name bound to one."""
        if name in self.counter_kinds or name == ANY_COUNTER:
            return ir.Const(name)
        return ir.Name(name)

    def stmt_Move(self, s: ast.Move, cite: Cite, where: str,
                 sc: Scope) -> ir.Stmt:
        owner, zone = self.owner_zone(s.dest, sc)
        return ir.Move(cite, self.expr(s.what, sc), owner, zone, s.mods)

    def stmt_Exhaust(self, s: ast.Exhaust, cite: Cite, where: str,
                    sc: Scope) -> ir.Stmt:
        return ir.Exhaust(cite, self.expr(s.what, sc), not s.unexhaust)

    def stmt_Fatigue(self, s: ast.Fatigue, cite: Cite, where: str,
                    sc: Scope) -> ir.Stmt:
        return ir.Fatigue(cite, self.expr(s.what, sc), True)

    def stmt_Unfatigue(self, s: ast.Unfatigue, cite: Cite, where: str,
                      sc: Scope) -> ir.Stmt:
        return ir.Fatigue(cite, self.expr(s.what, sc), False)

    def change(self, target: ast.Path, value: ast.Expr, sign: int, until: str | None,
               cite: Cite, sc: Scope) -> ir.Stmt:
        owner = self.expr(ast.Path(target.parts[:-1], origin=target.origin), sc)
        field = target.parts[-1]
        # a name bound to a stat (`which`) stands for that stat
        dynamic = field not in self.stats
        return ir.Change(cite, owner, field, dynamic, self.expr(value, sc), sign, until)

    def stmt_AddOp(self, s: ast.AddOp, cite: Cite, where: str,
                  sc: Scope) -> ir.Stmt:
        sign = 1 if s.op == "add" else -1
        return self.change(s.target, s.amount, sign, s.until, cite, sc)

    def stmt_SetOp(self, s: ast.SetOp, cite: Cite, where: str,
                  sc: Scope) -> ir.Stmt:
        parts = s.target.parts
        if len(parts) == 2 and parts[0] == self.own_flow:
            return ir.SetRecord(cite, parts[0], parts[1], self.expr(s.value, sc))
        return self.change(s.target, s.value, 0, s.until, cite, sc)

    def stmt_Roll(self, s: ast.Roll, cite: Cite, where: str,
                 sc: Scope) -> ir.Stmt:
        groups = tuple(
            ir.RollGroup(self.expr(g.count, sc), self.opt(g.who, sc),
                         g.target.parts[0] if len(g.target.parts) == 1 else None,
                         g.target.parts[1] if len(g.target.parts) == 2 else None)
            for g in s.groups)
        return ir.Roll(cite, groups)

    def stmt_Place(self, s: ast.Place, cite: Cite, where: str,
                  sc: Scope) -> ir.Stmt:
        return ir.Place(cite, self.expr(s.count, sc), self.counter(s.counter),
                        self.expr(s.target, sc))

    def stmt_Strip(self, s: ast.Strip, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        if s.counter == ANY_COUNTER:
            return ir.StripAny(cite, self.expr(s.count, sc), self.expr(s.target, sc))
        return ir.Strip(cite, self.expr(s.count, sc), self.counter(s.counter),
                        self.expr(s.target, sc))

    def stmt_Pop(self, s: ast.Pop, cite: Cite, where: str,
                sc: Scope) -> ir.Stmt:
        return ir.Pop(cite, self.counter(s.counter), self.expr(s.target, sc))

    def stmt_Reveal(self, s: ast.Reveal, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        return ir.Reveal(cite, self.expr(s.what, sc))

    def stmt_See(self, s: ast.See, cite: Cite, where: str,
                sc: Scope) -> ir.Stmt:
        who = self.expr(s.who, sc) if s.who is not None else None
        return ir.See(cite, self.expr(s.what, sc), who)

    def opt(self, e: ast.Expr | None, sc: Scope) -> ir.Expr | None:
        return None if e is None else self.expr(e, sc)

    def stmt_Choose(self, s: ast.Choose, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        single = isinstance(s.count.n, ast.IntLit) and s.count.n.value == 1
        return ir.Choose(
            cite, self.expr(s.what, sc), s.name, self.opt(s.count.lo, sc),
            self.opt(s.count.hi, sc), self.opt(s.count.n, sc), s.count.any, single,
            self.opt(s.chooser, sc), s.random, s.prompt or f"choose for '{s.name}'",
        )

    def stmt_Either(self, s: ast.Either, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        options = tuple(self.block(o, cite, where, sc) for o in s.options)
        # an option reads as its rule words it, else as its statements
        written = s.labels or (None,) * len(s.options)
        labels = tuple(
            f"option {i + 1}: {label or _gist(o)}"
            for i, (label, o) in enumerate(zip(written, s.options, strict=True)))
        return ir.Either(cite, options, labels, self.opt(s.who, sc))

    def stmt_ForEach(self, s: ast.ForEach, cite: Cite, where: str,
                    sc: Scope) -> ir.Stmt:
        what = self.expr(s.what, sc)
        body = self.block(s.body, cite, where, sc)
        return ir.ForEach(cite, s.name, what, body, self.opt(s.chooser, sc))

    def stmt_If(self, s: ast.If, cite: Cite, where: str,
               sc: Scope) -> ir.Stmt:
        cond = self.expr(s.cond, sc)
        then = self.block(s.then, cite, where, sc)
        other = self.block(s.otherwise, cite, where, sc) if s.otherwise else None
        return ir.If(cite, cond, then, other)

    def stmt_May(self, s: ast.May, cite: Cite, where: str,
                sc: Scope) -> ir.Stmt:
        return ir.May(cite, self.block(s.body, cite, where, sc), self.opt(s.who, sc))

    def stmt_Emit(self, s: ast.Emit, cite: Cite, where: str,
                 sc: Scope) -> ir.Stmt:
        params = [p.name for p in self.rs.events[s.event].params]
        args = tuple((p, self.expr(a, sc)) for p, a in zip(params, s.args, strict=False))
        return ir.Emit(cite, s.event, args)

    def stmt_Let(self, s: ast.Let, cite: Cite, where: str,
                sc: Scope) -> ir.Stmt:
        return ir.Let(cite, s.name, self.expr(s.value, sc))

    def stmt_Repeat(self, s: ast.Repeat, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        times = self.expr(s.times, sc)
        return ir.Repeat(cite, times, self.block(s.body, cite, where, sc))

    def stmt_Prevent(self, s: ast.Prevent, cite: Cite, where: str,
                    sc: Scope) -> ir.Stmt:
        return ir.Prevent(cite)

    def stmt_Stop(self, s: ast.Stop, cite: Cite, where: str,
                 sc: Scope) -> ir.Stmt:
        return ir.Stop(cite, self.expr(s.cond, sc))

    def stmt_Perform(self, s: ast.Perform, cite: Cite, where: str,
                    sc: Scope) -> ir.Stmt:
        args = tuple(self.expr(a, sc) for a in s.args)
        return ir.Perform(cite, s.action, args, s.mods, self.opt(s.who, sc))

    def stmt_CreatePawn(self, s: ast.CreatePawn, cite: Cite, where: str,
                       sc: Scope) -> ir.Stmt:
        owner, zone = self.owner_zone(s.zone, sc)
        printed = tuple((v.stat, self.expr(v.value, sc)) for v in s.printed)
        return ir.CreatePawn(cite, owner, zone, s.name, self.opt(s.source, sc), printed)

    def stmt_Pick(self, s: ast.Pick, cite: Cite, where: str,
                 sc: Scope) -> ir.Stmt:
        return ir.Pick(cite, s.name, self.expr(s.lo, sc), self.expr(s.hi, sc),
                       self.opt(s.chooser, sc))

    def stmt_Pay(self, s: ast.Pay, cite: Cite, where: str,
                sc: Scope) -> ir.Stmt:
        return ir.Pay(cite, self.expr(s.amount, sc), s.kind)

    def stmt_Note(self, s: ast.Note, cite: Cite, where: str,
                  sc: Scope) -> ir.Stmt:
        event = self.rs.events.get(s.event)
        names = (list(BUILTIN_EVENTS[s.event]) if event is None
                 else [p.name for p in event.params])
        return ir.Note(cite, s.event, tuple(
            (name, self.expr(a, sc)) for name, a in zip(names, s.args, strict=False)))

    def stmt_Order(self, s: ast.Order, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        flow, field = s.target.parts
        return ir.Order(cite, flow, field, self.expr(s.chooser, sc), s.prompt)

    def stmt_Watch(self, s: ast.Watch, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        inner = Scope({**sc.names, "event": (EVENT, False)}, sc.locals, sc.term, sc.depth)
        cond = s.trigger.cond
        made = ir.Watch(
            cite, len(self.watches), s.trigger.events[0], s.until,
            None if cond is None else self.expr(cond, inner),
            self.expr(s.times, sc), self.expr(s.keys, sc), self.expr(s.key, inner),
            self.block(s.body, cite, where, inner),
        )
        self.watches.append(made)
        return made

    def stmt_After(self, s: ast.After, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        return ir.After(cite, s.flow, self.block(s.body, cite, where, sc))

    def stmt_Link(self, s: ast.Link, cite: Cite, where: str,
                  sc: Scope) -> ir.Stmt:
        body = s.body
        if s.recheck is not None:  # as it resolves: still legal, or interrupted
            here = s.origin
            interrupted = ast.Log("interrupted", (
                ast.LogArg(value=ast.Path(("you",), origin=here), origin=here),
                ast.LogArg(text=where.removeprefix("action "), origin=here),
            ), origin=here)
            body = (ast.If(s.recheck, s.body, (interrupted,), origin=here),)
        return ir.Link(cite, self.block(body, cite, where, sc), self.opt(s.source, sc))

    def stmt_Begin(self, s: ast.Begin, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        record = self.rs.battle_record
        kinds = {f.name: f.type for f in (record.fields if record else ())}
        return ir.Begin(cite, s.flow, tuple(
            (fv.name, kinds[fv.name], self.expr(fv.value, sc)) for fv in s.fields))

    def stmt_EndGame(self, s: ast.EndGame, cite: Cite, where: str,
                    sc: Scope) -> ir.Stmt:
        return ir.EndGame(cite)

    def stmt_Reset(self, s: ast.Reset, cite: Cite, where: str,
                  sc: Scope) -> ir.Stmt:
        return ir.Reset(cite, self.expr(s.what, sc), s.stats)

    def stmt_Expire(self, s: ast.Expire, cite: Cite, where: str,
                   sc: Scope) -> ir.Stmt:
        return ir.Expire(cite, s.until)

    def stmt_Resolve(self, s: ast.Resolve, cite: Cite, where: str,
                    sc: Scope) -> ir.Stmt:
        what = self.expr(s.what, sc)
        then = self.block(s.then, cite, f"{where} then", sc) if s.then else None
        return ir.Resolve(cite, what, then)

    def stmt_Call(self, s: ast.Call, cite: Cite, where: str,
                 sc: Scope) -> ir.Stmt:
        kw = self.rs.keywords[s.keyword]
        given: dict[str, ir.Expr | None] = dict.fromkeys(p.name for p in kw.params)
        for a, p in zip(s.args, kw.params, strict=False):
            if (
                p.type == "stat"
                and isinstance(a, ast.Path)
                and len(a.parts) == 1
                and a.parts[0] in self.stats
            ):  # a bare stat name passed for a `stat` parameter: that name
                given[p.name] = ir.Const(a.parts[0])
            else:
                given[p.name] = self.expr(a, sc)
        required = tuple(p.name for p in kw.params if not p.optional)
        # its environment, made by the call: the player it runs as (`by`, else the
        # caller's), its parameters, the keyword it is within
        you = ir.Name("you", bound=True) if s.who is None else self.expr(s.who, sc)
        env = (("you", you), *given.items(), ("__within", ir.Const(s.keyword)))
        return ir.Call(cite, s.keyword, env, required, kw.cost)

    def stmt_Drop(self, s: ast.Drop, cite: Cite, where: str,
                  sc: Scope) -> ir.Stmt:
        flow, field = s.target.parts
        what = None if s.all else self.opt(s.what, sc)
        return ir.Drop(cite, flow, field, what)

    def stmt_Append(self, s: ast.Append, cite: Cite, where: str,
                    sc: Scope) -> ir.Stmt:
        flow, field = s.target.parts
        return ir.Append(cite, flow, field, self.expr(s.what, sc))

    def stmt_Form(self, s: ast.Form, cite: Cite, where: str,
                  sc: Scope) -> ir.Stmt:
        flow, field = s.target.parts
        what = self.expr(s.what, sc)
        return ir.Form(cite, flow, field, what, self.expr(s.chooser, sc),
                       self.opt(s.least, sc), s.prompt, s.done, s.event,
                       not reads_picked(what, field))

    def stmt_Log(self, s: ast.Log, cite: Cite, where: str,
                 sc: Scope) -> ir.Stmt:
        fields = tuple(
            (name, kind, self.opt(a.value, sc), a.text)
            for (name, kind), a in zip(LOG_EVENTS[s.event].items(), s.args, strict=True))
        return ir.Log(cite, s.event, fields)

    def stmt_EndFlow(self, s: ast.EndFlow, cite: Cite, where: str,
                     sc: Scope) -> ir.Stmt:
        return ir.EndFlow(cite, s.flow)

    def stmt_ChooseDie(self, s: ast.ChooseDie, cite: Cite, where: str,
                       sc: Scope) -> ir.Stmt:
        holes = tuple(
            (name, self.expr(ast.Path((name,), origin=s.origin), sc))
            for name in dict.fromkeys(re.findall(r"\{(\w+)\}", s.label))
            if name != "value")
        return ir.ChooseDie(cite, self.expr(s.what, sc), s.name, s.prompt, s.label,
                            holes, self.opt(s.chooser, sc))


    # --- listing plans --------------------------------------------------------------

    def action_plan(self, a: ast.Action) -> ir.ActionPlan:
        """How listings fill an action's parameters (see `ir.ActionPlan`)."""
        names: dict[str, str | None] = {"you": PLAYER}
        names.update({p.name: param_kind(p.type, self.card_types) for p in a.params})
        # a listing binds a parameter of a card type only to a card of that type
        # (its type is tested first): what reads it reads a card for certain
        typed = frozenset(p.name for p in a.params if p.type in self.card_types)
        scope = self.scope(names, sure=SURE_NAMES | typed)
        checks = staged_checks(a)
        params = tuple(
            ir.ParamPlan(p.name, p.type, p.type if p.type in self.card_types else None,
                         None if p.source is None else self.expr(p.source, scope),
                         None if check is None else self.expr(check, scope))
            for p, check in zip(a.params, checks, strict=False)
        )
        costs = []
        for s in a.body:  # the payments it starts with: its cost
            if not isinstance(s, ast.Pay):
                break
            costs.append((s.kind, self.expr(s.amount, scope)))
        own = {p.name for p in a.params}
        resolves = next((s.what.parts[0] for s in a.body
                         if isinstance(s, ast.Resolve) and isinstance(s.what, ast.Path)
                         and len(s.what.parts) == 1 and s.what.parts[0] in own), None)
        requires = None if a.requires is None else self.expr(a.requires, scope)
        return ir.ActionPlan(a.name, params, requires, tuple(costs), resolves,
                             self.counter_kinds_taken(a))

    def counter_kinds_taken(self, a: ast.Action) -> frozenset[str] | None:
        """The kinds of counters an action may take off a card (as `pop` does): all
        those its requirement's tests of the kind let through (`kind is
        proactive`). None: it takes no counter."""
        param = next(
            (p.name for p in a.params[1:] if p.type == "counter" and p.source is None),
            None,
        )
        if param is None:
            return None
        kinds = set(self.counter_kinds)
        for part in conjuncts(a.requires):
            negated = isinstance(part, ast.Unary) and part.op == "not"
            test = part.operand if isinstance(part, ast.Unary) and negated else part
            if not (isinstance(test, ast.Binary) and test.op == "is"
                    and isinstance(test.left, ast.Path) and test.left.parts == (param,)
                    and isinstance(test.right, ast.Path)):
                continue
            name = test.right.parts[0]
            if name in self.card_types or name in self.modifiers or name in (
                    "pawn", "player"):
                continue  # `is` reads those first: not a test of the kind
            if name in COUNTER_KINDS:
                passing = {k for k in kinds if self.counter_kinds[k] == name}
            elif name in self.counter_kinds:
                passing = {name}
            else:
                continue  # not a test this look can read
            kinds = kinds - passing if negated else passing
        return frozenset(kinds)


# a count compared with these numbers is a test of whether a collection holds
# anything (True) or nothing (False)
_EXISTENCE = {(">", 0): True, (">=", 1): True, ("!=", 0): True,
              ("==", 0): False, ("<", 1): False, ("<=", 0): False}


def existence(op: str, left: ir.Expr, right: ir.Expr) -> ir.Expr | None:
    """`count(xs) > 0` (or `>= 1`, `!= 0`) as a test of whether `xs` holds
    anything, which stops at the first element it finds; `count(xs) == 0` (or
    `< 1`, `<= 0`) as its negation. None: no such comparison."""
    if not (isinstance(left, ir.Builtin) and left.func == "count"
            and isinstance(right, ir.Const) and type(right.value) is int):
        return None
    holds = _EXISTENCE.get((op, right.value))
    if holds is None:
        return None
    found = any_of(left.args[0])
    return found if holds else ir.Not(found)


def any_of(what: ir.Expr) -> ir.Expr:
    """Whether `what` holds anything: collections joined hold something where one
    of them does (read in order, up to the first that does)."""
    if isinstance(what, ir.With):  # a term written in place: what its body holds
        return ir.With(what.slots, what.values, any_of(what.body))
    if isinstance(what, ir.Builtin) and what.func == "concat":
        return ir.Or(any_of(what.args[0]), any_of(what.args[1]))
    if isinstance(what, ir.Join):
        found = any_of(what.parts[-1])
        for part in reversed(what.parts[:-1]):
            found = ir.Or(any_of(part), found)
        return found
    return ir.Exists(what)


def reads_picked(e: ir.Expr, field: str) -> bool:
    """Whether `e` may read what a pick of `form battle.FIELD` changes: the list
    formed (`battle.FIELD`, or a field of that name read of any value), the
    recent events (which a pick may note), or a term not written in place (what
    it reads is not seen here)."""
    if isinstance(e, (ir.BattleField, ir.DynAttr)) and e.name == field:
        return True
    if isinstance(e, ir.GameField) and e.name == "recent" or isinstance(e, ir.TermCall):
        return True
    return any(reads_picked(v, field) for v in ir.operands(e))


def locals_read(e: Any) -> set[str]:
    """The locals (`ir.Local` slots) an expression of the form reads, at any depth."""
    found: set[str] = set()
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, ir.Local):
            found.add(x.slot)
        elif isinstance(x, tuple):
            stack.extend(x)
        elif isinstance(x, ir.Expr):
            stack.extend(getattr(x, f.name) for f in fields(x))
    return found


def zones_read(e: ir.Expr) -> frozenset[str]:
    """The names of the zones whose cards `e` is, where it is a zone of a player
    (or of each of several) for certain, or such zones joined; else none."""
    if isinstance(e, ir.PlayerZone) and e.sure or isinstance(e, ir.PlayersZone):
        return frozenset((e.zone,))
    if isinstance(e, ir.Join):
        return frozenset().union(*(zones_read(p) for p in e.parts))
    return frozenset()


def conjuncts(e: ast.Expr | None) -> list[ast.Expr]:
    """The parts of an expression joined by `and` (none for no expression)."""
    if e is None:
        return []
    if isinstance(e, ast.Binary) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def staged_checks(a: ast.Action) -> list[ast.Expr | None]:
    """The parts of `requires` joined by `and`, each to be checked as soon as the
    last parameter it reads is bound (so a bad first choice is dropped early):
    per parameter, the conjunction of its parts, or None."""
    stages: list[list[ast.Expr]] = [[] for _ in range(max(len(a.params), 1))]
    if a.requires is not None:
        index = {p.name: i for i, p in enumerate(a.params)}
        for part in conjuncts(a.requires):
            read = [index[path.parts[0]] for path in ast.paths(part)
                    if path.parts[0] in index]
            stages[max(read, default=0)].append(part)
    out: list[ast.Expr | None] = []
    for checks in stages:
        joined: ast.Expr | None = None
        for check in checks:
            joined = check if joined is None else ast.Binary("and", joined, check)
        out.append(joined)
    return out


def _gist(stmts: tuple[ast.Stmt, ...], width: int = 60) -> str:
    """An option of an `either` as a player reads it: its statements on one line,
    cut short past `width` characters."""
    text = "; ".join(" ".join(unparse(st).split()) for st in stmts)
    return text if len(text) <= width else text[: width - 3].rstrip() + "..."


def keyword_names(kw: ast.Keyword, card_types: Iterable[str]) -> dict[str, Any]:
    """The names a keyword's program starts with: `you` and its parameters."""
    names: dict[str, Any] = {"you": PLAYER}
    for p in kw.params:
        names[p.name] = param_kind(p.type, card_types)
    return names


__all__ = ["CARD", "CARDS", "EVENT", "Lowering", "PLAYER", "PLAYERS", "Scope",
           "conjuncts", "keyword_names", "param_kind", "staged_checks"]
