"""Expressions compiled to Python source: one function per expression.

`Programs.closure` turns an expression into a tree of closures, one call per
node, and every rule check pays for those calls. `compile_expr` writes the whole
tree as the body of one Python function instead: each node's value goes
to a local, in the order the closures evaluate them, so what is read, what
raises and what short-circuits stay the same. Attribute steps test the runtime
type inline for the common cases (a stat or controller of a card id, a zone or
field of a seat, a field of an event), following the first lines of `Game.attr`,
and call it for everything else; a context's fields (`battle.attack_team`) are
read from the game as `_Context.get` reads them. A `where` over card ids or the
players binds each element in a local too, with its card's state or its player
read once, so the condition's steps on it need no test of its type; a card's
state also answers `card in seat.zone` (a card is in one zone list: its
controller's, of its zone). Where
such a condition is only reads of the card, names and comparisons (`_Test`),
the whole `where` is one plain loop of one test. A form not written here is kept
as its closure (a constant of the function's namespace), so anything the
closures can evaluate, this can.

What is known when the code is written is used: a name no card's stats can hold
is read from the card alone; a seat's zone or field is known by its name; a
name read from `env` on every path to a later read is read once (as are an
ability's modifiers); an element nothing could read from `env` is not bound
there; a term's body is written in place; the cards of different zones are
joined without a look for repeats; the players are read in the game's own list
where they are only read.
"""

from __future__ import annotations

import contextlib
import keyword
import re
from typing import Any

from kotc.dsl import ast
from kotc.runtime.state import SEAT_FIELDS, CardState
from kotc.runtime.values import Seat, seat_of

from .builtins import BUILTINS, as_items_of, element_name

_MISSING = object()  # an env name with no saved binding (`where` restores it)

# The same code serves every expression that reads the same: compiled once.
_CODE: dict[str, Any] = {}


def compile_expr(programs, e: ast.Expr, items: bool = False):
    """The function `(g, env) -> value` that evaluates `e` as `programs.closure` does;
    with `items`, the value as `as_items_of` makes it a list or tuple of items."""
    gen = Gen(programs)
    gen.emit(f"return {gen.result(e, items)}")
    return write_function(gen, "_expr", "g, env", "<kotc expression>")


def write_function(gen: Gen, name: str, params: str, filename: str):
    """The function whose body `gen` wrote, its code compiled once per source."""
    source = f"def {name}({params}):\n" + "\n".join(gen.lines) + "\n"
    code = _CODE.get(source)
    if code is None:
        code = _CODE[source] = compile(source, filename, "exec")
    namespace = dict(gen.helpers())
    namespace.update(gen.consts)
    exec(code, namespace)
    fn = namespace[name]
    fn.source = source  # for tests and for reading what the code became
    return fn


def _plus(a, b):
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        first = as_items_of(a)
        try:
            seen = set(first)  # cards, players, dice: all hashable, compared as ints
        except TypeError:
            seen = first
        return list(first) + [x for x in as_items_of(b) if x not in seen]
    return a + b


def _minus(a, b):
    if isinstance(a, (list, tuple)):
        drop = as_items_of(b)
        if len(drop) > 4:
            with contextlib.suppress(TypeError):  # unhashable: keep the list
                drop = set(drop)
        return [x for x in a if x not in drop]
    return a - b


_ORDER = ("<", "<=", ">", ">=")

ELEMENT_NAMES = ("card", "player", "die")  # what `element_name` may bind

# what `_Context.get` returns for these, read straight from the game
_CONTEXT_READS = {
    ("game", "phase"): "g.phase",
    ("game", "step"): "g.step",
    ("game", "turn"): "g.turn",
    ("game", "first_player"): "seat_of(g.first_player)",
    ("game", "first_turn"): "g.turn == 1",
    ("chain", "open"): "g.chain is not None",
    ("chain", "length"): "0 if g.chain is None else len(g.chain.links)",
    ("chain", "resolving"): "False if g.chain is None else g.chain.resolving",
    ("chain", "last_actor"): "None if g.chain is None else seat_of(g.chain.last_actor)",
    ("battle", "ongoing"): "g.battle is not None",
}

# the context reads that may hold a card or a seat (the others hold neither), and
# those that hold a bool
_CONTEXT_HOLDERS = frozenset(
    ["first_player", "last_actor", "attacker", "defender", "victim"]
)
_CONTEXT_TESTS = frozenset(["first_turn", "open", "ongoing"])


def _context_read(head: str, name: str) -> str | None:
    """What reads `head.name` of a context as `_Context.get` does, straight from
    the game (a battle's field from its record); None to leave it to `Game.attr`."""
    read = _CONTEXT_READS.get((head, name))
    if read is not None or head != "battle" or not _is_name(name):
        return read
    value = f"g.battle.{name}"
    if name in ("attacker", "defender"):
        value = f"(None if {value} is None else seat_of({value}))"
    return f"{'[]' if name.endswith('team') else 'None'} if g.battle is None else {value}"

# a card's own fields, read straight from its state (those `Game._card_attr`
# treats apart are left to it)
_CARD_FIELDS = frozenset(CardState.__slots__) - SEAT_FIELDS - {
    "printed",
    "ultra_points",
}


class Gen:
    """The statements of one function body, its temporaries and its constants."""

    def __init__(self, programs):
        self.p = programs
        self.lines: list[str] = []
        # names already read from `env` on every path to the line being written
        # (and an ability's modifiers, by ("modifiers", its local)): name ->
        # (local, depth); leaving the block an entry was made in (writing less
        # deep: a branch's end, before an `else:`) ends it (see `depth`)
        self.read: dict[str | tuple, tuple[str, int]] = {}
        self._depth = 1
        self.consts: dict[str, Any] = {}
        self.count = 0
        self.bools: set[str] = set()  # locals that hold a bool
        self.ints: set[str] = set()  # locals that hold an int (not a bool)
        self.opaque: set[str] = set()  # locals that hold neither a card id nor a seat
        self.seat_lists: set[str] = set()  # locals that hold `players`, a list of seats
        self.seats: set[str] = set()  # locals that hold a seat
        self.dicts: set[str] = set()  # locals that most likely hold a dict
        self.fresh: set[str] = set()  # locals that hold a new list, no one else's
        # locals that hold a list of card ids (a zone list holds nothing else)
        self.card_lists: set[str] = set()
        # locals that hold the cards of some zones of every player, a new list: the
        # zones (a card is in one zone list, so two such lists share no card)
        self.zone_lists: dict[str, frozenset[str]] = {}
        self.inlining = 0  # how many terms deep the body being written is
        # in a `where` over card ids or the players: the element's name -> the
        # local holding it, and that local -> the local holding its card's state,
        # or its player (see `_e_Filtered`)
        self.bound: dict[str, str] = {}
        self.card_state: dict[str, str] = {}
        self.seat_state: dict[str, str] = {}
        # the names `env` may hold, where its maker knows them all (None: any name)
        self.env_names: frozenset[str] | None = None

    def helpers(self) -> dict[str, Any]:
        return {
            "Seat": Seat,
            "seat_of": seat_of,
            "_MISSING": _MISSING,
            "as_items_of": as_items_of,
            "element_name": element_name,
            "_plus": _plus,
            "_minus": _minus,
        }

    # --- writing ---------------------------------------------------------------------

    @property
    def depth(self) -> int:
        """How deep in blocks the next line is written."""
        return self._depth

    @depth.setter
    def depth(self, depth: int) -> None:
        if depth < self._depth and self.read:  # blocks left: what they read ends
            self.read = {k: v for k, v in self.read.items() if v[1] <= depth}
        self._depth = depth

    def emit(self, line: str) -> None:
        self.lines.append("    " * self._depth + line)

    def tmp(self) -> str:
        self.count += 1
        return f"_{self.count}"

    def const(self, obj: Any) -> str:
        name = f"_k{len(self.consts)}"
        self.consts[name] = obj
        return name

    def into(self, expr: str) -> str:
        t = self.tmp()
        self.emit(f"{t} = {expr}")
        return t

    def test_into(self, expr: str) -> str:
        """`into` for an expression whose value is always a bool."""
        t = self.into(expr)
        self.bools.add(t)
        return t

    def opaque_into(self, expr: str) -> str:
        t = self.into(expr)
        self.opaque.add(t)
        return t

    def may_hold(self, name: str) -> bool:
        """Whether `env` may hold `name` (see `env_names`)."""
        return self.env_names is None or name in self.env_names

    def is_int(self, v: str) -> bool:
        """Whether the atom `v` holds an int (not a bool) for certain."""
        return v in self.ints or v.lstrip("-").isdigit()

    def owned(self, v: str, after: int) -> bool:
        """Whether `v` is a temporary made after temporary number `after` that no
        later line may read: no name is bound to it, nor a read kept in it."""
        return (
            v[:1] == "_"
            and v[1:].isdigit()
            and int(v[1:]) > after
            and v not in self.bound.values()
            and all(known[0] != v for known in self.read.values())
            and v not in self.card_state
            and v not in self.card_state.values()
            and v not in self.seat_state
        )

    def taken(self, v: str, after: int, start: int) -> str | None:
        """What the last line written sets `v` to, that line dropped, where `v` is
        `owned` and no other line from line `start` names it: what reads `v` may
        read the expression instead. None otherwise."""
        set_to = "    " * self._depth + f"{v} = "
        if not self.lines[start:] or not self.lines[-1].startswith(set_to):
            return None
        expr = self.lines[-1][len(set_to) :]
        if not self.owned(v, after) or any(
            v in _TMP.findall(line) for line in [expr, *self.lines[start:-1]]
        ):
            return None
        self.lines.pop()
        return expr

    def into_owned(self, v: str, t: str, after: int, start: int) -> bool:
        """Whether `v`, a bool, is now `t`: where `v` is `owned`, every line written
        from line `start` names `t` for it (no copy of it to make)."""
        if v not in self.bools or not self.owned(v, after):
            return False
        def named(m):
            return t if m[0] == v else m[0]

        self.lines[start:] = [_TMP.sub(named, line) for line in self.lines[start:]]
        return True

    def truth(self, atom: str) -> str:
        """`bool(atom)`, written as a test; nothing to do for a known bool."""
        return atom if atom in self.bools else f"True if {atom} else False"

    # --- expressions -----------------------------------------------------------------

    def result(self, e: ast.Expr, items: bool = False) -> str:
        """What evaluates `e` as its function returns it (see `compile_expr`): an
        atom, or an expression of one."""
        result = self.value(e)
        if result in self.seat_lists:  # `players` as it is: a list of the caller's own
            result = f"list({result})"
        return self.items_of(result) if items else result

    def items_of(self, v: str) -> str:
        """What makes the value `v` the items a statement acts on, as `as_items_of`
        does: a list as it is, one card or player in a tuple (no call)."""
        if v in self.fresh or v in self.card_lists:
            return v
        return (
            f"{v} if type({v}) is list else ({v},) if type({v}) is int or type({v})"
            f" is Seat else as_items_of({v})"
        )

    def value(self, e: ast.Expr) -> str:
        """Emit what evaluates `e`; return an atom (a local or a literal) holding it."""
        method = getattr(self, f"_e_{type(e).__name__}", None)
        if method is None:
            return self.closure(e)
        return method(e)

    def closure(self, e: ast.Expr) -> str:
        """A sub-expression left to its closure, called where its value is needed."""
        return self.into(f"{self.const(self.p.closure(e))}(g, env)")

    def _e_IntLit(self, e) -> str:
        v = e.value
        if type(v) in (int, bool):
            return repr(v)
        return self.const(v)

    _e_BoolLit = _e_IntLit

    def _e_NoneLit(self, e) -> str:
        return "None"

    def _e_Path(self, e: ast.Path) -> str:
        head, *rest = e.parts
        read = _context_read(head, rest[0]) if rest else None
        if read is not None:  # `game.phase`, `chain.open`: as `_Context.get` reads
            holds = rest[0] in _CONTEXT_HOLDERS  # a card or a seat, maybe
            v = self.into(read) if holds else self.opaque_into(read)
            if rest[0] in _CONTEXT_TESTS:
                self.bools.add(v)
            rest = rest[1:]
        else:
            v = self.head(head)
        for a in rest:
            v = self.attr(v, a)
        return v

    def head(self, name: str) -> str:
        if name == "active":
            if not self.may_hold("active"):
                t = self.into("seat_of(g.active)")
                self.seats.add(t)
                return t
            return self.into("env['active'] if 'active' in env else seat_of(g.active)")
        if name == "players":  # the game's own list: only read here (see `result`)
            t = self.opaque_into("g.in_game")
            self.seat_lists.add(t)
            return t
        if name in ("game", "chain", "battle"):
            return self.opaque_into(f"g.context({name!r})")
        local = self.bound.get(name)
        if local is not None:
            return local
        known = self.read.get(name)
        if known is not None:
            return known[0]
        t = self.tmp()
        if name == "event":  # what a reaction's condition reads: the event's fields
            self.dicts.add(t)
        self.emit("try:")
        self.emit(f"    {t} = env[{name!r}]")
        self.emit("except KeyError:")
        message = f"'{name}' is not bound here"
        self.emit(f"    raise RuntimeError({message!r}) from None")
        self.read[name] = (t, self.depth)
        return t

    def attr(self, v: str, name: str) -> str:
        """`v.name` (see `read_attr`), read once where an earlier read of it runs on
        every path to here: nothing an expression does changes it (but a name a
        `where` binds may name a stat: an element's name is read each time)."""
        key = ("attr", v, name)
        known = self.read.get(key)
        if known is not None:
            return known[0]
        t = self.read_attr(v, name)
        if name not in ELEMENT_NAMES and t not in self.fresh:
            self.read[key] = (t, self.depth)
        return t

    def env_reads(self) -> dict:
        """What of `read` is read from `env` alone (names, an ability's modifiers),
        not from the game, which a statement may change."""
        return {k: v for k, v in self.read.items() if k[0] != "attr"}

    def read_attr(self, v: str, name: str) -> str:
        """`g.attr(v, name, env)`, with its card-id and seat cases written out where
        the name makes them likely; any other value still goes to `Game.attr`."""
        n = repr(name)
        general = f"g.attr({v}, {n}, env)"
        if v in self.seat_lists and name in self.p.zones:
            # every player has every zone: `players.hand` is all their hands, joined
            t, s = self.tmp(), self.tmp()
            self.emit(f"{t} = []")
            self.emit(f"for {s} in {v}:")
            self.emit(f"    {t} += g.players[{s}].zones[{n}]")
            self.opaque.add(t)
            self.fresh.add(t)
            self.card_lists.add(t)
            self.zone_lists[t] = frozenset([name])
            return t
        if v in self.opaque:  # a context or a list of seats: neither case applies
            return self.into(general)
        # an element of a `where` whose card or player is at hand: no test of type
        state, player = self.card_state.get(v), self.seat_state.get(v)
        if state is not None or player is not None:
            t = self.tmp()
            if state is not None:
                self.card_read(v, state, name, t)
                if name in SEAT_FIELDS and name not in self.p.card_keys:
                    self.seats.add(t)  # as `card_read` wrote it: `seat_of(...)`
            else:
                self.seat_read(v, player, name, t)
            return t
        if v in self.seats:  # a seat for certain: its player, with no test of type
            t = self.tmp()
            self.seat_read(v, self.into(f"g.players[{v}]"), name, t)
            return t
        t, c = self.tmp(), self.tmp()
        card = name in self.p.stats or name in SEAT_FIELDS
        seat = name not in SEAT_FIELDS
        field = name in _CARD_FIELDS and name not in self.p.stats and name.isidentifier()
        tested = v in self.dicts
        if tested:  # an event's fields, most likely: as `Game.attr` reads a dict
            self.emit(f"if type({v}) is dict:")
            self.emit(f"    {t} = {v}.get({n})")
        if card or field:  # a card id: its stats, then as Game._card_attr reads
            self.emit(f"{'elif' if tested else 'if'} type({v}) is int:")
            self.emit(f"    {c} = g.cards[{v}]")
            self.depth += 1
            self.card_read(v, c, name, t)
            self.depth -= 1
            tested = True
        if seat:
            self.emit(f"{'elif' if tested else 'if'} type({v}) is Seat:")
            self.emit(f"    {c} = g.players[{v}]")
            self.depth += 1
            self.seat_read(v, c, name, t)
            self.depth -= 1
        self.emit("else:")
        self.emit(f"    {t} = {general}")
        return t

    def seat_read(self, v: str, player: str, name: str, t: str) -> None:
        """Emit `t = v.name` for seat `v` whose player is `player`, as `Game.attr`
        reads a seat: a zone (every player has each of the edition's zones, and
        no other), else the player's field."""
        n = repr(name)
        if name in self.p.zones:
            self.emit(f"{t} = {player}.zones[{n}]")
        elif name == "left":
            self.emit(f"{t} = g.left_of({v})")
        elif _is_name(name):
            self.emit(f"{t} = {player}.{name}")
        else:
            self.emit(f"{t} = getattr({player}, {n})")

    def card_read(self, v: str, state: str, name: str, t: str) -> None:
        """Emit `t = v.name` for card id `v` whose card is `state`: a stat, then
        as `Game.attr` reads (a field; a name bound to a stat, such as `which`,
        is that stat; anything else, `Game.attr` itself). A name no card's stats
        can hold (`Programs.card_keys`) is not looked for among them."""
        n = repr(name)
        tests: list[tuple[str, str]] = []  # (condition, assignment), in order
        stats = f"{state}.stats"
        if name in self.p.card_keys:
            stats = self.into(stats)
            tests.append((f"{n} in {stats}", f"{t} = {stats}[{n}]"))
        if name in SEAT_FIELDS:
            last = f"{t} = seat_of({state}.{name})"
        elif name in _CARD_FIELDS and name not in self.p.stats and name.isidentifier():
            named = f"env[{n}]"  # a name bound to a stat names it
            if self.may_hold(name):
                tests.append(
                    (
                        f"{n} in env and isinstance({named}, str) and {named} in {stats}",
                        f"{t} = {stats}[{named}]",
                    )
                )
            last = f"{t} = {state}.{name}"
        else:
            last = f"{t} = g.attr({v}, {n}, env)"
        for i, (test, assign) in enumerate(tests):
            self.emit(f"{'elif' if i else 'if'} {test}:")
            self.emit(f"    {assign}")
        if tests:
            self.emit("else:")
            self.emit(f"    {last}")
        else:
            self.emit(last)

    def in_zone(self, e: ast.Binary) -> str | None:
        """`card in seat.zone` for a card whose state is at hand (see
        `_e_Filtered`): a card is in exactly one zone list, its controller's for
        the zone it is in, so its own state answers without a look through the
        list. None where this does not apply."""
        left, right = e.left, e.right
        if not (
            isinstance(left, ast.Path)
            and len(left.parts) == 1
            and isinstance(right, ast.Path)
            and len(right.parts) >= 2
            and right.parts[-1] in self.p.zones
        ):
            return None
        x = self.bound.get(left.parts[0])
        state = self.card_state.get(x)
        if state is None:
            return None
        zone, t, r = repr(right.parts[-1]), self.tmp(), self.tmp()
        self.bools.add(t)
        if right.parts[:-1] == (left.parts[0], "controller") and (
            "controller" not in self.p.card_keys
        ):  # `card in card.controller.zone`: the card's zone is all to ask
            self.emit(f"{t} = {state}.zone == {zone}")
            return t
        seat = self.value(ast.Path(right.parts[:-1]))
        if seat in self.opaque:
            return None  # `players.zone` and the like: the list it is
        test = f"{state}.zone == {zone} and {state}.controller == {seat}"
        if seat in self.seats:
            self.emit(f"{t} = {test}")
            return t
        self.emit(f"if type({seat}) is Seat:")
        self.emit(f"    {t} = {test}")
        self.emit("else:")
        self.emit(f"    {r} = g.attr({seat}, {zone}, env)")
        listed = f"{x} in {r} if isinstance({r}, (list, tuple)) else {x} == {r}"
        self.emit(f"    {t} = {listed}")
        return t

    def _e_FuncCall(self, e: ast.FuncCall) -> str:
        p = self.p
        if e.func in p.terms:
            return self.term_call(e)
        bare = None
        if e.func in ("placed_by", "counters_on", "tagged") and len(e.args) >= 2:
            # the second argument may be a counter or tag name written bare
            name = e.args[1]
            if isinstance(name, ast.Path) and len(name.parts) == 1:
                bare = name.parts[0]
        fn = BUILTINS[e.func]
        args = []
        for i, a in enumerate(e.args):
            if i == 1 and bare is not None:
                if bare in self.bound:  # what `env` holds for it
                    args.append(self.bound[bare])
                elif self.may_hold(bare):
                    args.append(self.into(f"env.get({bare!r}, {bare!r})"))
                else:  # not bound: the name itself
                    args.append(repr(bare))
            else:
                args.append(self.value(a))
        if e.func == "count" and len(args) == 1:
            (x,) = args
            t = self.into(f"len({x}) if type({x}) is list else {self.const(fn)}(g, {x})")
            self.ints.add(t)  # a length
            return t
        # a card whose state is at hand is read from it
        card = self.card_state.get(args[0], f"g.cards[{args[0]}]") if args else None
        if e.func == "cost" and len(args) == 1:  # as `Game.cost_of` reads
            stat = p.cost_stat
            return self.into(f"{card}.stats.get({stat!r}, 0)" if stat else "0")
        if e.func == "tagged" and len(args) == 2:  # as `Game.is_tagged` reads
            return self.test_into(f"{args[1]} in {card}.tags")
        if e.func in ("top", "bottom") and len(args) == 2:  # as the builtins slice
            n, xs = args
            cards = f"({xs} if type({xs}) is list else list({xs}))"
            taken = f"{cards}[-{n}:][::-1]" if e.func == "top" else f"{cards}[:{n}]"
            if e.func == "top" and n == "1":  # one card: nothing to reverse
                taken = f"{cards}[-1:]"
            if not (n.isdigit() and int(n) > 0):
                taken = f"{taken} if {n} > 0 else []"
            t = self.into(taken)
            self.fresh.add(t)
            return t
        if e.func == "is_empty" and len(args) == 1:
            (x,) = args
            return self.into(
                f"not {x} if type({x}) is list else {self.const(fn)}(g, {x})"
            )
        return self.into(f"{self.const(fn)}(g, {', '.join(args)})")

    def term_call(self, e: ast.FuncCall) -> str:
        """A term: its own env holding `you` and its parameters, read when called
        (a term may be compiled before the terms it uses). Written in place up to
        a few terms deep (see `inline_term`)."""
        if self.inlining < _INLINE_DEPTH:
            inlined = self.inline_term(e)
            if inlined is not None:
                return inlined
        params, body, inner = self.tmp(), self.tmp(), self.tmp()
        self.emit(f"{params}, {body} = {self.const(self.p.terms)}[{e.func!r}]")
        self.emit(f"{inner} = {{'you': env.get('you')}}")
        depth = self.depth
        for i, a in enumerate(e.args):
            # zip(params, args): an argument past the last parameter is not evaluated
            self.emit(f"if len({params}) > {i}:")
            self.depth += 1
            self.emit(f"{inner}[{params}[{i}]] = {self.value(a)}")
        self.depth = depth
        return self.into(f"{body}(g, {inner})")

    def inline_term(self, e: ast.FuncCall) -> str | None:
        """The term's body written here, with `you` and its parameters in locals.
        Where the body reads `env`, it gets the term's own: a dict made as the
        call would make it, the body's `env` renamed to it. None for a term
        that is not an expression (nothing written then)."""
        term = self.p.term_bodies.get(e.func)
        if term is None:
            return None
        you = self.tmp()
        names = {"you": you}
        for param, arg in zip(term.params, e.args, strict=False):
            names[param.name] = self.value(arg)
        start, depth, outer, read = len(self.lines), self.depth, self.bound, self.read
        held = self.env_names
        # the term's own env holds these, and what a `where` in it binds
        self.bound, self.read = names, {}
        self.env_names = frozenset(names).union(ELEMENT_NAMES)
        self.inlining += 1
        try:
            result = self.value(term.value)
        finally:
            self.inlining -= 1
            self.bound, self.read, self.env_names = outer, read, held
        body = self.lines[start:]
        own = self.tmp()
        uses_env = any(ENV_NAME.search(line) for line in body)
        if uses_env:
            self.lines[start:] = [ENV_NAME.sub(own, line) for line in body]
        prefix = []
        if uses_env or result == you or any(you in _words(line) for line in body):
            prefix.append(f"{you} = env.get('you')")
        if uses_env:
            fields = ", ".join(f"{k!r}: {v}" for k, v in names.items())
            prefix.append(f"{own} = {{{fields}}}")
        self.lines[start:start] = ["    " * depth + line for line in prefix]
        return result

    def _e_Unary(self, e: ast.Unary) -> str:
        after, start = self.count, len(self.lines)
        v = self.value(e.operand)
        expr = self.taken(v, after, start)
        t = self.into(f"not {v}" if expr is None else f"not ({expr})")
        self.bools.add(t)
        return t

    def _e_Binary(self, e: ast.Binary) -> str:
        op = e.op
        if op == "is":
            return self.is_(e)
        if op in ("and", "or"):
            # each side's bool set in `t` itself where it is a temporary of its own
            t = self.tmp()
            after, start = self.count, len(self.lines)
            v = self.value(e.left)
            if not self.into_owned(v, t, after, start):
                self.emit(f"{t} = {self.truth(v)}")
            self.emit(f"if {'' if op == 'and' else 'not '}{t}:")
            self.depth += 1
            after, start = self.count, len(self.lines)
            v = self.value(e.right)
            if not self.into_owned(v, t, after, start):
                self.emit(f"{t} = {self.truth(v)}")
            self.depth -= 1
            self.bools.add(t)
            return t
        if op == "in":
            fast = self.in_zone(e)
            if fast is not None:
                return fast
            r = self.value(e.right)
            x = self.value(e.left)
            return self.test_into(
                f"{x} in {r} if isinstance({r}, (list, tuple)) else {x} == {r}"
            )
        if op not in ("+", "-", "==", "!=", "*", "/", *_ORDER):
            return self.closure(e)
        a, b = self.value(e.left), self.value(e.right)
        zones_a, zones_b = self.zone_lists.get(a), self.zone_lists.get(b)
        if op == "+" and zones_a and zones_b and zones_a.isdisjoint(zones_b):
            # no card of one is in the other: `_plus` would keep them all
            t = self.opaque_into(f"{a} + {b}")
            self.fresh.add(t)
            self.card_lists.add(t)
            self.zone_lists[t] = zones_a | zones_b
            return t
        if op in ("+", "-"):  # two ints, most often; a side known to be one is
            tests = [f"type({v}) is int" for v in (a, b) if not self.is_int(v)]
            if not tests:
                t = self.into(f"{a} {op} {b}")
                self.ints.add(t)
                return t
            other = "_plus" if op == "+" else "_minus"
            return self.into(
                f"{a} {op} {b} if {' and '.join(tests)} else {other}({a}, {b})"
            )
        if op == "/":
            return self.into(f"{a} // {b} if {b} else 0")
        if op == "*":
            return self.into(f"{a} * {b}")
        if op in ("==", "!="):
            return self.test_into(f"{a} {op} {b}")
        # an order comparison with nothing in it (no such card) does not hold
        checks = []
        for side in (a, b):
            if side == "None":
                return self.test_into("False")
            if side.startswith("_") and side not in self.ints:  # else an int or bool
                checks.append(f"{side} is not None")
        return self.test_into(" and ".join([*checks, f"{a} {op} {b}"]))

    def is_(self, e: ast.Binary) -> str:
        p = self.p
        x = self.value(e.left)
        name = e.right.parts[0]
        n = repr(name)
        if name in p.card_types:
            return self.test_into(f"g.card_is_type({x}, {n})")
        if name == "pawn":
            return self.into(f"g.cards[{x}].pawn")
        if name == "player":
            return self.test_into(f"isinstance({x}, Seat)")
        if name in p.modifiers:  # as `Game.ability_has` reads an ability's modifiers
            # read once for the ability where a later test may use them (see `read`)
            key = ("modifiers", x)
            known = self.read.get(key)
            if known is None:
                mods = self.into(
                    f"g.engine.abilities[g.cards[{x}[0]].design][{x}[1]].modifiers"
                )
                self.read[key] = (mods, self.depth)
            else:
                mods = known[0]
            return self.test_into(f"{n} in {mods}")
        if name in ("proactive", "reactive", "inert"):
            return self.test_into(f"{self.const(p.counter_kinds)}.get({x}) == {n}")
        return self.test_into(f"{x} == {n}")

    def _e_Filtered(self, e: ast.Filtered) -> str:
        """`base where cond`: each element bound to its name (`card`, `player`,
        `die`, by the first element) while `cond` is read, the name's binding
        restored after. When every element is a card id, the loop is written
        apart: it reads `card` from a local, and each card's state once; where
        that is known when the code is written (`card_lists`), with no test."""
        base = self.value(e.base)
        out = self.tmp()
        self.fresh.add(out)  # a new list, whichever way it is made
        if base in self.seat_lists:  # `players`: a list of seats, none of them bound
            self.filter_loop(e.cond, base, out, "'player'", kind="seat")
            return out
        cards = base in self.card_lists
        if cards:
            items = base
            self.card_lists.add(out)
        else:
            items = self.into(f"{base} if type({base}) is list else as_items_of({base})")
        self.emit(f"if not {items}:")
        self.emit(f"    {out} = []")
        other = _equal_to_card(e.cond) if cards else None
        if other is not None:  # `card == this`: the cards equal to it, found in C
            self.emit("else:")
            self.depth += 1
            v = self.value(other)  # read once: nothing the loop does could change it
            n = self.into(f"{items}.count({v})")
            # (equal card ids are alike: the first, as many times as it is there)
            self.emit(f"{out} = [{items}[{items}.index({v})]] * {n} if {n} else []")
            self.depth -= 1
            return out
        # each card's state looked up where the condition reads it: as few steps
        # as a lookup of all of them in C (`map`, `zip`), and faster
        x, states = self.tmp(), self.tmp()
        test = _Test(self, x, f"{states}[{x}]")
        written = test.truth(e.cond)
        if written is not None and states in written:
            test.before.insert(0, f"{states} = g.cards")
        all_ints = [] if cards else [f"set(map(type, {items})) == {{int}}"]
        if written is not None and test.guards:
            # the one test where what it assumes of `env` holds (as it does but
            # for names unbound, or bound to a stat's name), the loop otherwise
            self.emit("else:")
            self.depth += 1
            for line in test.before:
                self.emit(line)
            self.emit(f"if {' and '.join(all_ints + test.guards)}:")
            self.depth += 1
            self.one_test(out, x, items, written)
            self.depth -= 1
        else:
            self.emit(f"elif {all_ints[0]}:" if all_ints else "else:")
            self.depth += 1
            if written is not None:
                for line in test.before:
                    self.emit(line)
                self.one_test(out, x, items, written)
            else:
                self.filter_loop(e.cond, items, out, "'card'", kind="card")
            self.depth -= 1
            if cards:
                return out
        self.emit("else:")
        self.depth += 1
        if cards:
            self.filter_loop(e.cond, items, out, "'card'", kind="card")
        else:
            var = self.into(f"element_name({items}[0])")
            self.filter_loop(e.cond, items, out, var, kind=None)
        self.depth -= 1
        if written is not None and test.guards:
            self.depth -= 1
        return out

    def one_test(self, out: str, x: str, items: str, written) -> None:
        """The loop of a `where` over card ids, for a condition `_Test` wrote as a
        Python expression (`written`). What the condition reads of `env` or of
        the game apart from the cards is read before the loop (`_Test.before`):
        none of it can change while the condition is read, nor fail to be read.
        A plain loop, not a list comprehension, which is a function of its own
        made and called each time (for a few cards, most of its cost)."""
        self.emit(f"{out} = []")
        self.emit(f"for {x} in {items}:")
        self.emit(f"    if {written}:")
        self.emit(f"        {out}.append({x})")

    def filter_loop(self, cond, items: str, out: str, var: str, kind) -> None:
        """The loop of a `where`: the element bound to the name `var` holds. With
        `kind` "card" or "seat", every element is one: the name is read from a
        local, and what it names (a card's state, a player) once per element; and
        when nothing in the condition could read the name from `env`, the name is
        not bound there at all."""
        saved, x = self.tmp(), self.tmp()
        start = len(self.lines)
        self.emit(f"{saved} = env.get({var}, _MISSING)")
        self.emit(f"{out} = []")
        self.emit("try:")
        self.emit(f"    for {x} in {items}:")
        self.emit(f"        env[{var}] = {x}")
        outer, read = self.bound, self.read
        # the element's name means each element now (and, in a loop of unknown
        # kind, so may any element name)
        self.read = {k: v for k, v in read.items() if k not in ELEMENT_NAMES}
        if kind == "card":
            cs = self.tmp()
            self.emit(f"        {cs} = g.cards[{x}]")
            self.bound, self.card_state[x] = {**outer, "card": x}, cs
        elif kind == "seat":
            ps = self.tmp()
            self.emit(f"        {ps} = g.players[{x}]")
            self.bound, self.seat_state[x] = {**outer, "player": x}, ps
        else:  # the element's name is known only when the loop runs: none stays bound
            self.bound = {k: v for k, v in outer.items() if k not in ELEMENT_NAMES}
        self.depth += 2
        self.emit(f"if {self.value(cond)}:")
        self.emit(f"    {out}.append({x})")
        self.depth -= 2
        self.bound, self.read = outer, read
        body = self.lines[start + 5 :]
        if kind is not None and not any(_reads_name(line, var) for line in body):
            # no binding to make or restore: the loop alone, one level out
            del self.lines[start:]
            self.emit(f"{out} = []")
            self.emit(f"for {x} in {items}:")
            self.lines.extend(line[4:] for line in body)
            return
        self.emit("finally:")
        self.emit(f"    if {saved} is _MISSING:")
        self.emit(f"        env.pop({var}, None)")
        self.emit("    else:")
        self.emit(f"        env[{var}] = {saved}")


class KeptGen(Gen):
    """A `Gen` that keeps, for each constant, how another engine makes its own
    (`recipes`; see `programs.made`): a statement or branch of a block by its
    path, a closure of an expression, an attribute of the programs, the frame
    class; the same object for what is the ruleset's or the module's (a cite, a
    literal, a builtin)."""

    def __init__(self, programs):
        super().__init__(programs)
        self.recipes: dict[str, tuple] = {}

    def const(self, obj: Any, recipe: tuple | None = None) -> str:
        p = self.p
        if recipe is None:
            if p is not None and obj is p.terms:
                recipe = ("attr", "terms")
            elif p is not None and obj is p.counter_kinds:
                recipe = ("attr", "counter_kinds")
            else:
                recipe = ("same", obj)
        name = super().const(obj)
        self.recipes[name] = recipe
        return name

    def closure(self, e: ast.Expr) -> str:
        return self.into(f"{self.const(self.p.closure(e), ('closure', e))}(g, env)")


class _Test:
    """A `where` condition over a card as one Python expression, for a loop of
    one test (see `Gen.one_test`): `card` is the element `x`, its
    state what the expression `state` reads; a stat, field or controller of it
    reads as `Gen.card_read` does; other names and `game` reads are read before
    the loop into locals (`before`). A term given the card is written in place
    (`term`). A form it does not write gives None. Where only its truth is asked
    (`truth`), `and`, `or` and `not` keep Python's own meaning; the value of a
    comparison is a bool, as the closures make it."""

    def __init__(self, gen: Gen, x: str, state: str):
        self.gen, self.x, self.state = gen, x, state
        self.before: list[str] = []
        # what the expression assumes of what is read before the loop: that a
        # name is bound, that a field's name is not (it could be bound to a stat's)
        self.guards: list[str] = []
        self.safe = True  # whether what was last written cannot fail when read
        # in a term's body: the parameters given the card, and the local holding
        # the term's `you` (its env holds these names, and no other)
        self.term: tuple[frozenset[str], str] | None = None

    def local(self, expr: str) -> str:
        t = self.gen.tmp()
        self.before.append(f"{t} = {expr}")
        return t

    def truth(self, e: ast.Expr) -> str | None:
        if isinstance(e, ast.FuncCall):
            return self.term_call(e, self.truth)
        if isinstance(e, ast.Unary) and e.op == "not":
            inner = self.truth(e.operand)
            return None if inner is None else f"(not {inner})"
        if isinstance(e, ast.Binary) and e.op in ("and", "or"):
            left, right = self.truth(e.left), self.truth(e.right)
            if left is None or right is None:
                return None
            return f"({left} {e.op} {right})"
        return self.value(e)

    def value(self, e: ast.Expr) -> str | None:
        self.safe = True
        if isinstance(e, (ast.IntLit, ast.BoolLit)):
            return repr(e.value) if type(e.value) in (int, bool) else None
        if isinstance(e, ast.NoneLit):
            return "None"
        if isinstance(e, ast.Path):
            return self.path(e.parts)
        if isinstance(e, ast.FuncCall):
            return self.term_call(e, self.value)
        if not isinstance(e, ast.Binary):
            return None
        if e.op == "in":
            return self.in_zone(e)
        if e.op == "is":
            return self.is_type(e)
        if e.op not in ("==", "!=", *_ORDER):
            return None
        a, safe_a = self.value(e.left), self.safe
        b, safe_b = self.value(e.right), self.safe
        if a is None or b is None:
            return None
        self.safe = safe_a and safe_b
        if e.op in ("==", "!="):
            return f"({a} {e.op} {b})"
        # An order comparison reads both sides, then holds only if neither is None.
        # Written with its tests of None first, it may skip a side: only one that
        # cannot fail may be skipped.
        if a == "None" or b == "None":
            return "False" if (safe_b if a == "None" else safe_a) else None
        if not safe_b and not _is_literal(a):
            return None
        checks = [f"{v} is not None" for v in (a, b) if not _is_literal(v)]
        return f"({' and '.join([*checks, f'{a} {e.op} {b}'])})"

    def term_call(self, e: ast.FuncCall, write) -> str | None:
        """A call: a term given the card (`yours(card)`) is its body written here
        (by `write`: `truth` or `value`), its parameters the card and its `you`
        read once, before the loop; a builtin, as `tagged` writes it."""
        body = self.gen.p.term_bodies.get(e.func)
        if body is None:
            return self.tagged(e)
        if self.term is not None or not all(map(self.is_card, e.args)):
            return None  # a term in a term, or given more than the card
        params = frozenset(p.name for p, _ in zip(body.params, e.args, strict=False))
        self.term = (params, self.local("env.get('you')"))
        try:
            return write(body.value)
        finally:
            self.term = None

    def is_card(self, e: ast.Expr) -> bool:
        """Whether `e` is the card: `card`, or in a term, a parameter given it."""
        if not (isinstance(e, ast.Path) and len(e.parts) == 1):
            return False
        return e.parts[0] in self.term[0] if self.term else e.parts[0] == "card"

    def path(self, parts: tuple) -> str | None:
        head, *rest = parts
        if self.is_card(ast.Path((head,))):
            if not rest:
                return self.x
            return self.card_field(rest[0]) if len(rest) == 1 else None
        if self.term is not None:
            if head == "you" and not rest:
                return self.term[1]
            if head not in ("game", "chain", "battle"):
                return None  # unbound in the term's env: left to the loop
        read = _context_read(head, rest[0]) if len(rest) == 1 else None
        if read is not None:  # `game.turn`: the same all through the loop
            return self.local(read)
        if rest or head in ("active", "players", "game", "chain", "battle"):
            return None
        gen = self.gen
        local = gen.bound.get(head)
        if local is None:
            known = gen.read.get(head)
            local = known[0] if known is not None else None
        if local is not None:
            return local
        # read once, before the loop; unbound, the loop reads it (and fails only
        # where it gets to it)
        v = self.local(f"env.get({head!r}, _MISSING)")
        self.guards.append(f"{v} is not _MISSING")
        self.safe = False
        return v

    def card_field(self, name: str) -> str | None:
        """`card.name`, as `Gen.card_read` reads it."""
        gen, state, n = self.gen, self.state, repr(name)
        if name in SEAT_FIELDS:
            last = f"seat_of({state}.{name})"
        elif name in _CARD_FIELDS and name not in gen.p.stats and name.isidentifier():
            if name == "card":
                return None
            if self.term is not None:  # the term's env: only its names are bound
                if name in self.term[0] or name == "you":
                    return None
            elif gen.may_hold(name):  # a name bound to a stat names it: the loop reads
                # (the loop reads it bound at all: a test in C, and it never is)
                self.guards.append(f"{n} not in env")
            last = f"{state}.{name}"
        elif name in gen.p.card_keys and name != "card" and self.term is None:
            # a stat the card lacks: as `Game.attr` finds it (it may fail)
            attr, env = self.local("g.attr"), self.local("env")
            last = f"{attr}({self.x}, {n}, {env})"
            self.safe = False
        else:
            return None
        if name in gen.p.card_keys:
            return f"({state}.stats[{n}] if {n} in {state}.stats else {last})"
        return last

    def in_zone(self, e: ast.Binary) -> str | None:
        """`card in card.controller.zone`: the card's own zone (see `Gen.in_zone`)."""
        left, right = e.left, e.right
        if (
            self.is_card(left)
            and isinstance(right, ast.Path)
            and len(right.parts) == 3
            and self.is_card(ast.Path(right.parts[:1]))
            and right.parts[1] == "controller"
            and right.parts[2] in self.gen.p.zones
            and "controller" not in self.gen.p.card_keys
        ):
            self.safe = True
            return f"({self.state}.zone == {right.parts[2]!r})"
        return None

    def tagged(self, e: ast.FuncCall) -> str | None:
        """`tagged(card, petrified)`: a mark on the card, as `Gen` writes the call
        (the tag's name read once, before the loop: a name bound to one names it)."""
        if (
            e.func == "tagged"
            and e.func not in self.gen.p.terms
            and len(e.args) == 2
            and self.is_card(e.args[0])
            and isinstance(e.args[1], ast.Path)
            and len(e.args[1].parts) == 1
            and not self.is_card(e.args[1])
        ):
            bare = e.args[1].parts[0]
            if self.term is None and self.gen.may_hold(bare):
                tag = self.local(f"env.get({bare!r}, {bare!r})")
            elif self.term is not None and (bare in self.term[0] or bare == "you"):
                return None
            else:  # not bound in the env: the name itself
                tag = repr(bare)
            self.safe = True
            return f"({tag} in {self.state}.tags)"
        return None

    def is_type(self, e: ast.Binary) -> str | None:
        """`card is minion`: its type, as `Game.card_is_type` reads a card's."""
        name = e.right.parts[0]
        if self.is_card(e.left) and name in self.gen.p.card_types:
            self.safe = True
            return f"({self.state}.type == {name!r})"
        return None


def _equal_to_card(cond: ast.Expr) -> ast.Expr | None:
    """For a `where` condition `card == x` (or `x == card`), with `x` a name other
    than an element's, or a literal: `x`; else None."""
    if not (isinstance(cond, ast.Binary) and cond.op == "=="):
        return None
    for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if isinstance(side, ast.Path) and side.parts == ("card",) and (
            isinstance(other, (ast.IntLit, ast.NoneLit))
            or isinstance(other, ast.Path)
            and len(other.parts) == 1
            and other.parts[0] not in ELEMENT_NAMES
        ):
            return other
    return None


def _is_name(name: str) -> bool:
    """Whether `name` may be written as an attribute: `x.name`."""
    return name.isidentifier() and not keyword.iskeyword(name)


def _is_literal(v: str) -> bool:
    return v in ("True", "False") or v.lstrip("-").isdigit()


_INLINE_DEPTH = 4  # terms written in place inside terms, at most (a term may recurse)

_WORD = re.compile(r"\w+")
_TMP = re.compile(r"(?<![\w'])_\d+(?![\w'])")  # a temporary (see `Gen.tmp`)
ENV_NAME = re.compile(r"(?<![\w'])env(?![\w'])")  # the name `env`, not the string


def _words(line: str) -> set[str]:
    return set(_WORD.findall(line))


def _reads_name(line: str, var: str) -> bool:
    """Whether a generated line may read the name `var` (written as a literal)
    from `env`: by name, through a closure given `env`, or through `Game.attr`
    asked for a field of that name (a field's name may be bound to a stat)."""
    return (
        "(g, env)" in line
        or f"env[{var}]" in line
        or f"env.get({var}" in line
        or f"{var}, env)" in line
    )
