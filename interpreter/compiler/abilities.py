"""Card abilities as programs: a card's printed text, read with the edition's
phrases (`kotc.dsl.reading`), compiled into blocks the machine can run.

An ability has an activation condition (a trigger, a condition, or the
edition's standard one), activation modifiers (ghost-play, hex-play), a cost
program, and a resolution program: each sub-ability's target phrase, then its
effect phrases, each with the numbers and counter printed on the card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kotc.dsl import Ruleset, ast
from kotc.dsl.cards import CardDesign
from kotc.dsl.legality import read_as
from kotc.dsl.reading import AbilityReading, Reading, read_card
from kotc.runtime.vm import Block

from . import ir
from .lower import CARD, EVENT, PLAYER, Scope, keyword_names
from .programs import Eval, Programs

Check = Callable[[Any, dict[str, Any]], bool]  # (game, env) -> whether it holds


@dataclass
class CompiledAbility:
    name: str | None
    trigger: ast.Trigger | None
    trigger_cond: Eval | None
    cond: Eval | None
    modifiers: frozenset[str]
    cost: Block | None
    resolution: Block
    cite: ast.Citation | None
    affordable: Check | None = None  # whether the printed cost can be paid
    # where targets are chosen on activation (`targets on_activation`): the target
    # selections, run after the cost; `resolution` then holds only the effects
    targeting: Block | None = None
    # it says nothing of when it may be activated (no trigger, no condition) and
    # has no printed cost to check: the standard activation condition alone
    # decides whether it may be (`Listing.condition_met`), as a window reads it
    standard_only: bool = field(init=False)

    def __post_init__(self) -> None:
        self.standard_only = (self.trigger is None and self.cond is None
                              and self.affordable is None)


def compile_card(
    card: CardDesign, rs: Ruleset, programs: Programs
) -> list[CompiledAbility]:
    """The abilities of a card design, ready to run; unreadable text is an error."""
    readings, problems = read_card(read_as(card, rs), rs)  # as the card check reads it
    if problems:
        raise ValueError("; ".join(str(p) for p in problems))
    early = rs.setting("chain", "targets_on_activation") is not None
    # a paragraph of caveats is no ability: the rules that name them read them
    return [_ability(r, card, programs, early) for r in readings if not r.caveats]


def _ability(
    r: AbilityReading, card: CardDesign, programs: Programs, early: bool = False
) -> CompiledAbility:
    where = f"card {card.name!r}"
    trigger: ast.Trigger | None = None
    cond: Eval | None = None
    trigger_cond: Eval | None = None
    modifiers: frozenset[str] = frozenset()
    cite = None
    if r.condition is not None:
        phrase = r.condition.phrase
        trigger, modifiers, cite = (
            phrase.trigger,
            frozenset(phrase.modifiers),
            phrase.cite,
        )
        names = _names(r.condition)
        if trigger is not None and trigger.cond is not None:
            trigger_cond = _with_numbers(
                programs.expr(trigger.cond, {**names, "event": EVENT}), r.condition)
        if phrase.cond is not None:
            cond = _with_numbers(programs.expr(phrase.cond, names), r.condition)
    cost: Block | None = None
    affordable: Check | None = None
    if r.cost is not None:
        cost = _phrase_block([r.cost], programs, f"{where} cost")
        affordable = _with_numbers(
            _payments(r.cost.phrase.body, programs, 0, _names(r.cost)), r.cost)
    targeting = None
    if early and any(sub.target is not None for sub in r.subs):
        targeting, resolution = _targets_first(r, programs, where)
    else:
        pieces: list[Reading] = []
        for sub in r.subs:
            if sub.target is not None:
                pieces.append(sub.target)
            pieces.extend(sub.effects)
        resolution = _phrase_block(pieces, programs, where)
    return CompiledAbility(
        r.name, trigger, trigger_cond, cond, modifiers, cost, resolution, cite,
        affordable, targeting,
    )


def _targets_first(r: AbilityReading, programs: Programs,
                   where: str) -> tuple[Block, Block]:
    """The target selections of every sub-ability as one block, run on activation,
    and the effects as another, run as the link resolves. What each selection
    binds (`targets`, and any name it chose along the way) is kept apart per
    sub-ability and handed to the link; each sub-ability's effects read their own."""
    scope = _scope(programs, [piece for sub in r.subs
                              for piece in ([sub.target] if sub.target else [])
                              + list(sub.effects)])
    select: list[ir.Stmt] = []
    effects: list[ir.Stmt] = []
    for i, sub in enumerate(r.subs):
        if sub.target is not None:
            kept = f"#targets{i}"  # no name of the language has a '#'
            select.extend(_phrase_stmts(sub.target, programs, where, scope))
            select.append(ir.KeepTargets(None, kept))
            effects.append(ir.RestoreTargets(None, kept))
        for reading in sub.effects:
            effects.extend(_phrase_stmts(reading, programs, where, scope))
    select.append(ir.HandOver(None))
    cite = r.subs[0].target.phrase.cite if r.subs and r.subs[0].target else None
    targeting = programs.internal(tuple(select), cite, f"{where} targets")
    cite = next((e.phrase.cite for sub in r.subs for e in sub.effects), cite)
    resolution = programs.internal(tuple(effects), cite, where)
    return targeting, resolution


def _names(reading: Reading) -> dict[str, str | None]:
    """The names a printed piece's program starts with: `you`, `this`, and the
    numbers (and counter) printed with it."""
    names: dict[str, str | None] = {"you": PLAYER, "this": CARD}
    names.update(dict.fromkeys(reading.numbers))
    if reading.counter:
        names["counter"] = None
    return names


def _scope(programs: Programs, readings: list[Reading]) -> Scope:
    """The scope the pieces of one ability run in: one environment for all."""
    names: dict[str, str | None] = {}
    stmts: tuple[ast.Stmt, ...] = ()
    for reading in readings:
        names.update(_names(reading))
        stmts += reading.phrase.body
    return programs.lowering.scope(names, stmts)


def _phrase_stmts(reading: Reading, programs: Programs, where: str,
                  scope: Scope) -> list[ir.Stmt]:
    """A printed piece: bind its numbers, then run its phrase's program."""
    phrase = reading.phrase
    body = [programs.lowering.stmt(s, phrase.cite, where, scope) for s in phrase.body]
    return [ir.BindNumbers(None, tuple(_numbers(reading).items())), *body]


def _numbers(reading: Reading) -> dict[str, Any]:
    values: dict[str, Any] = dict(reading.numbers)
    if reading.counter:
        values["counter"] = reading.counter
    return values


def _payments(stmts: tuple[ast.Stmt, ...], programs: Programs, depth: int,
              names: dict[str, Any]) -> Check | None:
    """A check that every `pay` a cost program makes (directly or through the
    keywords it calls) can be paid in full: a cost that cannot be paid means the
    ability cannot be activated. A payment that depends on a choice the cost
    itself makes is not known in advance, and counts as payable."""
    checks: list[Check] = []
    for s in stmts:
        if isinstance(s, ast.Pay):
            amount, kind = programs.expr(s.amount, names), s.kind
            checks.append(_payment(amount, kind))
        elif isinstance(s, ast.Call) and depth < 4:
            kw = programs.rs.keywords[s.keyword]
            inner = _payments(kw.body, programs, depth + 1,
                              keyword_names(kw, programs.card_types))
            if inner is None:
                continue
            args = [
                (p.name, programs.expr(a, names))
                for p, a in zip(kw.params, s.args, strict=False)
            ]
            checks.append(_called(inner, args))

    if not checks:
        return None  # nothing paid: nothing to check

    def payable(g: Any, env: dict[str, Any]) -> bool:
        try:
            for check in checks:  # noqa: SIM110 (a plain loop: read at every listing)
                if not check(g, env):
                    return False
            return True
        except RuntimeError:  # reads a name the cost binds by choosing
            return True

    return payable


def _payment(amount: Eval, kind: str) -> Check:
    """A check that a `pay` of `amount` (of `kind`) can be paid in full."""
    return lambda g, env: _can_pay(g, env["you"], amount(g, env), kind)


def _called(inner: Check, args: list[tuple[str, Eval]]) -> Check:
    """A keyword's payments checked with its arguments bound."""
    return lambda g, env: inner(
        g, {"you": env["you"], **{n: ev(g, env) for n, ev in args}})


def _can_pay(g: Any, seat: int, amount: int, kind: str) -> bool:
    if kind == "hp":
        return bool(g.players[seat].hp >= amount)
    return bool(g.unexhausted_resources(seat) >= amount)


def _with_numbers(ev: Eval | None, reading: Reading) -> Eval | None:
    """`ev` with the numbers a printed phrase reads bound (None stays None)."""
    numbers: dict[str, Any] = dict(reading.numbers)
    if reading.counter:
        numbers["counter"] = reading.counter
    if ev is None or not numbers:
        return ev

    def evaluate(g: Any, env: dict[str, Any]) -> Any:
        return ev(g, {**env, **numbers})

    return evaluate


def _phrase_block(readings: list[Reading], programs: Programs, where: str) -> Block:
    """One block: for each printed piece, bind its numbers, then run its program."""
    scope = _scope(programs, readings)
    stmts: list[ir.Stmt] = []
    cite = readings[0].phrase.cite if readings else None
    for reading in readings:
        stmts.extend(_phrase_stmts(reading, programs, where, scope))
    return programs.internal(tuple(stmts), cite, where)
