"""The reference interpreter of the intermediate form: what each expression and
statement means, evaluated directly.

It is plain on purpose: the code generator (`codegen.py`) writes the same meaning
as Python for speed, and the tests play games under both and require the same
events. Statements that wait for a decision run as `services` (one place for
both); simple statements call the game's primitives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kotc.runtime.events import Revealed, Seen
from kotc.runtime.values import DieRef, Seat, seat_of
from kotc.runtime.vm import NEXT, PUSHED, Block, Frame, leave_rest, leave_rounds

from . import ir, services
from .builtins import BUILTINS, as_items_of, element_name

Game = Any
Env = dict[str, Any]
Locals = dict[str, Any]


class Interpreter:
    """Evaluates one ruleset's intermediate form; `blocks` are the runtime blocks
    by number (what a statement pushes), `terms` the terms' bodies (for a term
    not written in place)."""

    def __init__(self, blocks: list[Block], terms: dict[str, tuple[tuple[str, ...],
                                                                    ir.Expr]]):
        self.blocks = blocks
        self.terms = terms
        self._eval: dict[type, Callable[..., Any]] = {
            cls: getattr(self, f"e_{cls.__name__}")
            for cls in _subclasses(ir.Expr)
        }
        self._exec: dict[type, Callable[..., int]] = {
            cls: getattr(self, f"s_{cls.__name__}")
            for cls in _subclasses(ir.Stmt)
        }

    # --- expressions ----------------------------------------------------------------

    def fn(self, e: ir.Expr) -> Callable[[Game, Env], Any]:
        """`e` as a function of the game and an environment."""
        evaluate = self.evaluate
        return lambda g, env: evaluate(e, g, env, {})

    def evaluate(self, e: ir.Expr, g: Game, env: Env, loc: Locals) -> Any:
        return self._eval[type(e)](e, g, env, loc)

    def e_Const(self, e: ir.Const, g: Game, env: Env, loc: Locals) -> Any:
        return e.value

    def e_Name(self, e: ir.Name, g: Game, env: Env, loc: Locals) -> Any:
        if e.bound:
            return env[e.name]
        try:
            return env[e.name]
        except KeyError:
            return services.unbound(e.name)

    def e_NameOr(self, e: ir.NameOr, g: Game, env: Env, loc: Locals) -> Any:
        return env.get(e.name, e.default)

    def e_Local(self, e: ir.Local, g: Game, env: Env, loc: Locals) -> Any:
        return loc[e.slot]

    def e_Active(self, e: ir.Active, g: Game, env: Env, loc: Locals) -> Any:
        if e.bound and "active" in env:
            return env["active"]
        return seat_of(g.active)

    def e_Players(self, e: ir.Players, g: Game, env: Env, loc: Locals) -> Any:
        return g.in_game[:]

    def e_GameField(self, e: ir.GameField, g: Game, env: Env, loc: Locals) -> Any:
        return services.game_field(g, e.name)

    def e_ChainField(self, e: ir.ChainField, g: Game, env: Env, loc: Locals) -> Any:
        return services.chain_field(g, e.name)

    def e_BattleField(self, e: ir.BattleField, g: Game, env: Env, loc: Locals) -> Any:
        return services.battle_field(g, e.name)

    def e_CardStat(self, e: ir.CardStat, g: Game, env: Env, loc: Locals) -> Any:
        v = self.evaluate(e.card, g, env, loc)
        if e.sure or type(v) is int:
            return services.card_stat(g, v, e.stat, env)
        return services.attr(g, v, e.stat, env)

    def e_CardCost(self, e: ir.CardCost, g: Game, env: Env, loc: Locals) -> Any:
        if e.stat is None:
            return 0
        return g.cards[self.evaluate(e.card, g, env, loc)].stats.get(e.stat, 0)

    def e_CardField(self, e: ir.CardField, g: Game, env: Env, loc: Locals) -> Any:
        v = self.evaluate(e.card, g, env, loc)
        if e.sure or type(v) is int:
            return getattr(g.cards[v], e.name)
        return services.attr(g, v, e.name, env)

    def e_CardSeat(self, e: ir.CardSeat, g: Game, env: Env, loc: Locals) -> Any:
        v = self.evaluate(e.card, g, env, loc)
        if e.sure or type(v) is int:
            return seat_of(getattr(g.cards[v], e.name))
        return services.attr(g, v, e.name, env)

    def e_DieField(self, e: ir.DieField, g: Game, env: Env, loc: Locals) -> Any:
        v = self.evaluate(e.die, g, env, loc)
        if e.sure or type(v) is DieRef:
            die = g.dice[v]
            return die[0] if e.name == "value" else seat_of(die[1])
        return services.attr(g, v, e.name, env)

    def e_PlayerZone(self, e: ir.PlayerZone, g: Game, env: Env, loc: Locals) -> Any:
        v = self.evaluate(e.player, g, env, loc)
        if e.sure or type(v) is Seat:
            return g.players[v].zones[e.zone]
        return services.attr(g, v, e.zone, env)

    def e_PlayersZone(self, e: ir.PlayersZone, g: Game, env: Env, loc: Locals) -> Any:
        zone, players = e.zone, g.players
        return [c for s in self.evaluate(e.players, g, env, loc)
                for c in players[s].zones[zone]]

    def e_Join(self, e: ir.Join, g: Game, env: Env, loc: Locals) -> Any:
        return [c for part in e.parts for c in self.evaluate(part, g, env, loc)]

    def e_PlayerField(self, e: ir.PlayerField, g: Game, env: Env, loc: Locals) -> Any:
        v = self.evaluate(e.player, g, env, loc)
        if e.sure or type(v) is Seat:
            if e.name == "left":
                return seat_of(g.next_seat(v))
            return getattr(g.players[v], e.name)
        return services.attr(g, v, e.name, env)

    def e_EventField(self, e: ir.EventField, g: Game, env: Env, loc: Locals) -> Any:
        v = self.evaluate(e.event, g, env, loc)
        if isinstance(v, dict):
            return v.get(e.name)
        return services.attr(g, v, e.name, env)

    def e_DynAttr(self, e: ir.DynAttr, g: Game, env: Env, loc: Locals) -> Any:
        v = self.evaluate(e.value, g, env, loc)
        return services.attr(g, v, e.name, env if e.own_env else {})

    def e_Builtin(self, e: ir.Builtin, g: Game, env: Env, loc: Locals) -> Any:
        if e.func == "context":
            return services.Context(g, e.args[0].value)  # type: ignore[attr-defined]
        if e.func == "unbound":
            return services.unbound(e.args[0].value)  # type: ignore[attr-defined]
        args = [self.evaluate(a, g, env, loc) for a in e.args]
        return BUILTINS[e.func](g, *args)

    def e_TermCall(self, e: ir.TermCall, g: Game, env: Env, loc: Locals) -> Any:
        params, body = self.terms[e.term]
        inner = {"you": env.get("you")}
        for p, a in zip(params, e.args, strict=False):
            inner[p] = self.evaluate(a, g, env, loc)
        return self.evaluate(body, g, inner, {})

    def e_With(self, e: ir.With, g: Game, env: Env, loc: Locals) -> Any:
        inner = dict(loc)
        for slot, value in zip(e.slots, e.values, strict=False):
            inner[slot] = self.evaluate(value, g, env, loc)
        return self.evaluate(e.body, g, env, inner)

    def e_Not(self, e: ir.Not, g: Game, env: Env, loc: Locals) -> Any:
        return not self.evaluate(e.operand, g, env, loc)

    def e_And(self, e: ir.And, g: Game, env: Env, loc: Locals) -> Any:
        return bool(self.evaluate(e.left, g, env, loc)) and bool(
            self.evaluate(e.right, g, env, loc))

    def e_Or(self, e: ir.Or, g: Game, env: Env, loc: Locals) -> Any:
        return bool(self.evaluate(e.left, g, env, loc)) or bool(
            self.evaluate(e.right, g, env, loc))

    def e_Compare(self, e: ir.Compare, g: Game, env: Env, loc: Locals) -> Any:
        a = self.evaluate(e.left, g, env, loc)
        b = self.evaluate(e.right, g, env, loc)
        if e.op == "==":
            return a == b
        if e.op == "!=":
            return a != b
        return services.order(e.op, a, b)

    def e_Arith(self, e: ir.Arith, g: Game, env: Env, loc: Locals) -> Any:
        a = self.evaluate(e.left, g, env, loc)
        b = self.evaluate(e.right, g, env, loc)
        if e.op == "+":
            return services.plus(a, b)
        if e.op == "-":
            return services.minus(a, b)
        if e.op == "*":
            return a * b
        return a // b if b else 0

    def e_In(self, e: ir.In, g: Game, env: Env, loc: Locals) -> Any:
        collection = self.evaluate(e.collection, g, env, loc)
        return services.contains(collection, self.evaluate(e.item, g, env, loc))

    def e_InOwnZone(self, e: ir.InOwnZone, g: Game, env: Env, loc: Locals) -> Any:
        return g.cards[self.evaluate(e.card, g, env, loc)].zone == e.zone

    def e_Is(self, e: ir.Is, g: Game, env: Env, loc: Locals) -> Any:
        x = self.evaluate(e.value, g, env, loc)
        kind = e.kind
        if kind == "type":
            return services.is_type(g, x, e.name)
        if kind == "card_type":
            return g.cards[x].type == e.name
        if kind == "pawn":
            return g.cards[x].pawn
        if kind == "player":
            return isinstance(x, Seat)
        if kind == "modifier":
            return services.has_modifier(g, x, e.name)
        if kind == "counter_kind":
            return g.engine.programs.counter_kinds.get(x) == e.name
        return x == e.name

    def e_Exists(self, e: ir.Exists, g: Game, env: Env, loc: Locals) -> Any:
        if isinstance(e.what, ir.Where):  # up to the first element it keeps
            return bool(self.kept(e.what, g, env, loc, first=True))
        return bool(as_items_of(self.evaluate(e.what, g, env, loc)))

    def e_Where(self, e: ir.Where, g: Game, env: Env, loc: Locals) -> Any:
        return self.kept(e, g, env, loc, first=False)

    def kept(self, e: ir.Where, g: Game, env: Env, loc: Locals,
             first: bool) -> list[Any]:
        """The elements a `where` keeps, in order (`first`: up to the first)."""
        items = as_items_of(self.evaluate(e.base, g, env, loc))
        if not items:
            return []
        cond, out = e.cond, []
        if e.slot is not None:
            inner = dict(loc)
            for x in items:
                inner[e.slot] = x
                if self.evaluate(cond, g, env, inner):
                    out.append(x)
                    if first:
                        break
            return out
        # the element's name, by the first element's kind, bound in the environment
        var = element_name(items[0])
        missing = object()
        saved = env.get(var, missing)
        try:
            for x in items:
                env[var] = x
                if self.evaluate(cond, g, env, loc):
                    out.append(x)
                    if first:
                        break
        finally:
            if saved is missing:
                env.pop(var, None)
            else:
                env[var] = saved
        return out

    # --- statements -----------------------------------------------------------------

    def go(self, g: Game, f: Frame) -> int:
        """Run a block from its frame's position on (see `kotc.runtime.vm`)."""
        stmts, frames, run = f.block.stmts, g.frames, self._exec
        pc = f.pc
        while pc < len(stmts):
            st = stmts[pc]
            code = run[type(st)](st, g, f)
            if code:
                return code
            if frames[-1] is not f:  # it fired something that pushed a frame
                f.pc = pc + 1
                return PUSHED
            pc += 1
            f.pc = pc
        return NEXT

    def run_simple(self, g: Game, f: Frame, stmts: Sequence[ir.Stmt]) -> None:
        run = self._exec
        for st in stmts:
            run[type(st)](st, g, f)

    def value(self, e: ir.Expr, g: Game, f: Frame) -> Any:
        return self.evaluate(e, g, f.env, {})

    def items(self, e: ir.Expr, g: Game, f: Frame) -> Any:
        return as_items_of(self.evaluate(e, g, f.env, {}))

    def s_Primitive(self, st: ir.Primitive, g: Game, f: Frame) -> int:
        args, each = [], -1
        for k, (e, read) in enumerate(zip(st.operands, st.reads, strict=True)):
            v = self.value(e, g, f)
            if read == ir.VALUE:
                args.append(v)
            else:
                args.append(list(as_items_of(v)))
                if read == ir.EACH:
                    each = k
        if st.cited:
            args.append(st.cite)
        call = getattr(g, st.name)
        if each < 0:
            call(*args)
        else:
            for x in args[each]:
                call(*args[:each], x, *args[each + 1:])
        return NEXT

    def s_Move(self, st: ir.Move, g: Game, f: Frame) -> int:
        seat = self.value(st.owner, g, f)
        for c in list(self.items(st.what, g, f)):
            g.move(c, seat, st.zone, st.mods, st.cite)
        return NEXT

    def s_Exhaust(self, st: ir.Exhaust, g: Game, f: Frame) -> int:
        g.set_exhausted(self.items(st.what, g, f), st.flag, st.cite)
        return NEXT

    def s_Fatigue(self, st: ir.Fatigue, g: Game, f: Frame) -> int:
        g.fatigue(self.items(st.what, g, f), st.flag, st.cite)
        return NEXT

    def s_Change(self, st: ir.Change, g: Game, f: Frame) -> int:
        owner = self.value(st.owner, g, f)
        field = f.env.get(st.field, st.field) if st.dynamic else st.field
        value = self.value(st.value, g, f)
        if st.sign:
            delta = st.sign * value
            for o in as_items_of(owner):
                g.change(o, field, delta, st.until, st.cite)
        else:
            for o in as_items_of(owner):
                g.assign(o, field, value, st.until, st.cite)
        return NEXT

    def s_Place(self, st: ir.Place, g: Game, f: Frame) -> int:
        n, kind = self.value(st.count, g, f), self.value(st.kind, g, f)
        for c in self.items(st.target, g, f):
            g.place_counters(c, kind, n, f.env["you"], st.cite)
        return NEXT

    def s_Strip(self, st: ir.Strip, g: Game, f: Frame) -> int:
        n, kind = self.value(st.count, g, f), self.value(st.kind, g, f)
        for c in self.items(st.target, g, f):
            g.strip_counters(c, kind, n, st.cite)
        return NEXT

    def s_Reveal(self, st: ir.Reveal, g: Game, f: Frame) -> int:
        cards = list(self.items(st.what, g, f))
        g.events.append(Revealed(cards, services.text(st.cite)))
        return NEXT

    def s_See(self, st: ir.See, g: Game, f: Frame) -> int:
        seer = f.env["you"] if st.who is None else self.value(st.who, g, f)
        cards = list(self.items(st.what, g, f))
        g.events.append(Seen(seer, cards, services.text(st.cite)))
        return NEXT

    def s_Let(self, st: ir.Let, g: Game, f: Frame) -> int:
        v = self.value(st.value, g, f)
        f.env[st.name] = list(v) if isinstance(v, list) else v
        return NEXT

    def s_Prevent(self, st: ir.Prevent, g: Game, f: Frame) -> int:
        services.prevent(g, f.env, st.cite)
        return NEXT

    def s_CreatePawn(self, st: ir.CreatePawn, g: Game, f: Frame) -> int:
        seat = self.value(st.owner, g, f)
        values = {stat: self.value(v, g, f) for stat, v in st.printed}
        source = None if st.source is None else self.value(st.source, g, f)
        f.env[st.name] = g.create_pawn(seat, st.zone, source, values, st.cite)
        return NEXT

    def s_Pay(self, st: ir.Pay, g: Game, f: Frame) -> int:
        if not f.env.get("__free"):
            you = f.env["you"]
            g.pay(you, self.value(st.amount, g, f), st.kind, st.cite)
        return NEXT

    def s_Note(self, st: ir.Note, g: Game, f: Frame) -> int:
        if st.event in g.referee.listened:
            g.referee.note(g, st.event, {p: self.value(e, g, f) for p, e in st.fields})
        return NEXT

    def s_Watch(self, st: ir.Watch, g: Game, f: Frame) -> int:
        g.watch(st.number, self.value(st.times, g, f), self.value(st.keys, g, f),
                dict(f.env))
        return NEXT

    def s_After(self, st: ir.After, g: Game, f: Frame) -> int:
        f.pc += 1
        services.after_flow(g, st.flow, self.blocks[st.body.id], f.env)
        return PUSHED

    def s_Link(self, st: ir.Link, g: Game, f: Frame) -> int:
        source = None if st.source is None else self.value(st.source, g, f)
        g.referee.link(g, st.body.id, f.env, source)
        return NEXT

    def s_Begin(self, st: ir.Begin, g: Game, f: Frame) -> int:
        services.begin_flow(g, st, [self.value(e, g, f) for _, _, e in st.fields])
        return NEXT

    def s_EndGame(self, st: ir.EndGame, g: Game, f: Frame) -> int:
        g.end_game("an effect ended the game", st.cite)
        return NEXT

    def s_Reset(self, st: ir.Reset, g: Game, f: Frame) -> int:
        g.reset_stats(self.items(st.what, g, f), st.stats)
        return NEXT

    def s_Expire(self, st: ir.Expire, g: Game, f: Frame) -> int:
        g.expire(st.until)
        return NEXT

    def s_BindNumbers(self, st: ir.BindNumbers, g: Game, f: Frame) -> int:
        f.env.update(st.values)
        return NEXT

    def s_KeepTargets(self, st: ir.KeepTargets, g: Game, f: Frame) -> int:
        f.env[st.key] = {k: v for k, v in f.env.items() if k[:1] not in "_#"}
        return NEXT

    def s_RestoreTargets(self, st: ir.RestoreTargets, g: Game, f: Frame) -> int:
        f.env.update(f.env[st.key])
        return NEXT

    def s_HandOver(self, st: ir.HandOver, g: Game, f: Frame) -> int:
        g.frames[-2].env.update({k: v for k, v in f.env.items() if k[:1] == "#"})
        return NEXT

    def s_MakeLink(self, st: ir.MakeLink, g: Game, f: Frame) -> int:
        g.referee.make_link(g, f)
        return NEXT

    def s_Call(self, st: ir.Call, g: Game, f: Frame) -> int:
        kenv = {p: None if a is None else self.value(a, g, f) for p, a in st.args}
        return services.call(g, f, st, kenv)

    def s_SetRecord(self, st: ir.SetRecord, g: Game, f: Frame) -> int:
        services.set_record(g, st.flow, st.field, self.value(st.value, g, f))
        return NEXT

    def s_Drop(self, st: ir.Drop, g: Game, f: Frame) -> int:
        what = None if st.what is None else self.value(st.what, g, f)
        services.drop(g, st, what)
        return NEXT

    def s_Append(self, st: ir.Append, g: Game, f: Frame) -> int:
        services.append(g, st, self.value(st.what, g, f))
        return NEXT

    def s_Log(self, st: ir.Log, g: Game, f: Frame) -> int:
        values = [None if e is None else self.value(e, g, f) for _, _, e, _ in st.fields]
        services.log(g, st, values)
        return NEXT

    def s_EndFlow(self, st: ir.EndFlow, g: Game, f: Frame) -> int:
        services.end_flow(g, st.flow)
        return NEXT

    def s_Form(self, st: ir.Form, g: Game, f: Frame) -> int:
        least = None if st.least is None else self.fn(st.least)
        return services.form(g, f, st, self.fn(st.what), self.fn(st.chooser), least)

    def s_ChooseDie(self, st: ir.ChooseDie, g: Game, f: Frame) -> int:
        chooser = None if st.chooser is None else self.fn(st.chooser)
        holes = tuple((name, self.fn(e)) for name, e in st.holes)
        return services.choose_die(g, f, st, self.fn(st.what), chooser, holes)

    def s_Emit(self, st: ir.Emit, g: Game, f: Frame) -> int:
        fields = {p: self.value(a, g, f) for p, a in st.args}
        f.pc += 1
        g.emit(st.event, fields, f.env, st.cite)
        return PUSHED

    def s_Resolve(self, st: ir.Resolve, g: Game, f: Frame) -> int:
        f.pc += 1
        then = None if st.then is None else self.blocks[st.then.id]
        g.resolve(self.value(st.what, g, f), f.env, st.cite, then)
        return PUSHED

    def s_Roll(self, st: ir.Roll, g: Game, f: Frame) -> int:
        env = f.env
        rolled = []
        for group in st.groups:
            n = self.value(group.count, g, f)
            who = env["you"] if group.who is None else self.value(group.who, g, f)
            rolled.append((services.rolled(g, group, g.roll(n, who, st.cite), env), who))
        f.pc += 1
        services.announce(g, rolled, env, st.cite)
        return PUSHED

    def s_Pop(self, st: ir.Pop, g: Game, f: Frame) -> int:
        f.pc += 1
        target = self.value(st.target, g, f)
        g.pop_counter(target, self.value(st.kind, g, f), f.env["you"], st.cite)
        return PUSHED

    def s_If(self, st: ir.If, g: Game, f: Frame) -> int:
        block = st.then if self.value(st.cond, g, f) else st.otherwise
        if block is None:
            return NEXT
        if block.inline:
            return self.in_place(block, g, f)
        f.pc += 1
        if block.frameless:  # with no frame of its own
            return self.run_in_place(block, g, f.env)
        g.frames.append(Frame(self.blocks[block.id], f.env))
        return PUSHED

    def in_place(self, block: ir.Block, g: Game, f: Frame) -> int:
        """An `inline` block run in the place of the statement at the frame's
        position: simple statements, the last of which may be a tail (which moves
        the frame past that statement, if it pushes)."""
        stmts = block.stmts
        if not stmts:
            return NEXT
        self.run_simple(g, f, stmts[:-1])
        return self._exec[type(stmts[-1])](stmts[-1], g, f)

    def run_in_place(self, block: ir.Block, g: Game, env: Env) -> int:
        """A frameless block run with no frame of its own (`vm.Block.in_place`):
        its statements in turn; where one before the last pushes, the rest of the
        block is left in a frame of its own, under what it pushed."""
        f = Frame(self.blocks[block.id], env)
        frames, run, stmts = g.frames, self._exec, block.stmts
        for i, st in enumerate(stmts):
            height = len(frames)
            if run[type(st)](st, g, f):
                if i + 1 == len(stmts):
                    return PUSHED
                return leave_rest(g, height, f.block, env, i + 1)
        return NEXT

    def s_Repeat(self, st: ir.Repeat, g: Game, f: Frame) -> int:
        n = self.value(st.times, g, f)
        g.engine.bounds.check_repeat(n, st.cite, g)
        if st.body.simple:
            for _ in range(n):
                self.run_simple(g, f, st.body.stmts)
            return NEXT
        if n == 1 and st.body.inline:  # one round, in this frame's place
            return self.in_place(st.body, g, f)
        f.pc += 1
        if st.body.frameless:  # each round with no frame of its own
            height = len(g.frames)
            for left in range(n, 0, -1):
                if self.run_in_place(st.body, g, f.env):
                    leave_rounds(g, height, self.blocks[st.body.id], f.env, left - 1)
                    return PUSHED
            return NEXT
        if n > 0:
            g.frames.append(Frame(self.blocks[st.body.id], f.env, ["repeat", n]))
        return PUSHED

    def s_CallBody(self, st: ir.CallBody, g: Game, f: Frame) -> int:
        return int(g.referee.call_body(g, f, st.keyword, st.params))

    def s_React(self, st: ir.React, g: Game, f: Frame) -> int:
        return int(g.referee.react(g, f, st.timing))

    def s_ForEach(self, st: ir.ForEach, g: Game, f: Frame) -> int:
        body = st.body
        inline = None
        if body.simple:
            stmts = body.stmts

            def inline(g: Game, env: Env) -> None:
                self.run_simple(g, Frame(self.blocks[body.id], env), stmts)

        chooser = None if st.chooser is None else self.fn(st.chooser)
        return services.for_each(g, f, st, self.fn(st.what), chooser,
                                 self.blocks[body.id], inline)

    def s_Choose(self, st: ir.Choose, g: Game, f: Frame) -> int:
        fns = [None if e is None else self.fn(e)
               for e in (st.what, st.lo, st.hi, st.n, st.chooser)]
        return services.choose(g, f, st, fns)

    def s_Either(self, st: ir.Either, g: Game, f: Frame) -> int:
        who = None if st.who is None else self.fn(st.who)
        return services.either(g, f, st, who, [self.blocks[b.id] for b in st.options])

    def s_May(self, st: ir.May, g: Game, f: Frame) -> int:
        who = None if st.who is None else self.fn(st.who)
        return services.may(g, f, st, who, self.blocks[st.body.id])

    def s_Perform(self, st: ir.Perform, g: Game, f: Frame) -> int:
        who = None if st.who is None else self.fn(st.who)
        return services.perform(g, f, st, [self.fn(a) for a in st.args], who)

    def s_Pick(self, st: ir.Pick, g: Game, f: Frame) -> int:
        chooser = None if st.chooser is None else self.fn(st.chooser)
        return services.pick(g, f, st, self.fn(st.lo), self.fn(st.hi), chooser)

    def s_Order(self, st: ir.Order, g: Game, f: Frame) -> int:
        return services.order_list(g, f, st, self.fn(st.chooser))

    def s_StripAny(self, st: ir.StripAny, g: Game, f: Frame) -> int:
        return services.strip_any(g, f, st, self.fn(st.count), self.fn(st.target))

    def s_Stop(self, st: ir.Stop, g: Game, f: Frame) -> int:
        return services.stop(g, f, st, self.fn(st.cond))


def _subclasses(cls: type) -> list[type]:
    """The concrete classes under `cls`."""
    found: list[type] = []
    sub: type
    for sub in cls.__subclasses__():
        found.append(sub)
        found += _subclasses(sub)
    return found


__all__ = ["Interpreter"]
