"""Card abilities as programs: a card's printed text, read with the edition's
phrases (`kotc_dsl.reading`), compiled into blocks the machine can run.

An ability has an activation condition (a trigger, a condition, or the
edition's standard one), activation modifiers (ghost-play, hex-play), a cost
program, and a resolution program: each sub-ability's target phrase, then its
effect phrases, each with the numbers and counter printed on the card.
"""

from __future__ import annotations

from dataclasses import dataclass

from kotc_dsl import Ruleset, ast
from kotc_dsl.cards import CardDesign
from kotc_dsl.reading import AbilityReading, Reading, read_card

from .programs import NEXT, Block, Programs


@dataclass
class CompiledAbility:
    name: str | None
    trigger: ast.Trigger | None
    trigger_cond: object | None
    cond: object | None
    modifiers: frozenset[str]
    cost: Block | None
    resolution: Block
    cite: ast.Citation | None


def compile_card(
    card: CardDesign, rs: Ruleset, programs: Programs
) -> list[CompiledAbility]:
    """The abilities of a card design, ready to run; unreadable text is an error."""
    readings, problems = read_card(card, rs)
    if problems:
        raise ValueError("; ".join(str(p) for p in problems))
    return [_ability(r, card, programs) for r in readings]


def _ability(r: AbilityReading, card: CardDesign, programs: Programs) -> CompiledAbility:
    where = f"card {card.name!r}"
    trigger = cond = trigger_cond = None
    modifiers: frozenset[str] = frozenset()
    cite = None
    if r.condition is not None:
        phrase = r.condition.phrase
        trigger, modifiers, cite = (
            phrase.trigger,
            frozenset(phrase.modifiers),
            phrase.cite,
        )
        if trigger is not None and trigger.cond is not None:
            trigger_cond = _with_numbers(programs.expr(trigger.cond), r.condition)
        if phrase.cond is not None:
            cond = _with_numbers(programs.expr(phrase.cond), r.condition)
    cost = None
    if r.cost is not None:
        cost = _phrase_block([r.cost], programs, f"{where} cost")
    pieces: list[Reading] = []
    for sub in r.subs:
        if sub.target is not None:
            pieces.append(sub.target)
        pieces.extend(sub.effects)
    resolution = _phrase_block(pieces, programs, where)
    return CompiledAbility(
        r.name, trigger, trigger_cond, cond, modifiers, cost, resolution, cite
    )


def _with_numbers(ev, reading: Reading):
    numbers = dict(reading.numbers)
    if reading.counter:
        numbers["counter"] = reading.counter

    def evaluate(g, env):
        return ev(g, {**env, **numbers})

    return evaluate


def _phrase_block(readings: list[Reading], programs: Programs, where: str) -> Block:
    """One block: for each printed piece, bind its numbers, then run its program."""
    stmts = []
    cite = readings[0].phrase.cite if readings else None
    for reading in readings:
        stmts.append(_binder(reading))
        phrase = reading.phrase
        stmts.extend(programs.stmt(s, phrase.cite, where) for s in phrase.body)
    block = Block(len(programs.blocks), stmts, cite, where)
    programs.blocks.append(block)
    return block


def _binder(reading: Reading):
    values = dict(reading.numbers)
    if reading.counter:
        values["counter"] = reading.counter

    def bind(g, f):
        f.env.update(values)
        return NEXT

    return bind
