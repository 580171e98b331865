"""Translate a textX model of one rule file into the plain trees of `ast`.

This is the only module that reads textX objects; everything downstream sees
frozen dataclasses with origins. Most nodes translate field by field; the few
whose shape differs from the grammar have a converter of their own below.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from textx import get_location, get_model

from . import ast

Converter = Callable[[Any, "Context"], Any]


class Context:
    """What a conversion needs besides the node: the file and its edition."""

    def __init__(self, path: str, edition: str):
        self.path = path
        self.edition = edition

    def origin(self, obj: Any) -> ast.Origin:
        loc = get_location(obj)
        return ast.Origin(loc.get("filename") or self.path, loc["line"], loc["col"])


def _tx_name(obj: Any) -> str:
    return type(obj).__name__


def convert(obj: Any, ctx: Context) -> Any:
    """Convert any textX value: objects by class, lists to tuples, scalars as-is."""
    if isinstance(obj, list):
        return tuple(convert(x, ctx) for x in obj)
    if not hasattr(obj, "_tx_attrs"):
        return obj
    name = _tx_name(obj)
    special = _SPECIAL.get(name)
    if special is not None:
        return special(obj, ctx)
    cls = getattr(ast, name, None)
    if cls is None or not dataclasses.is_dataclass(cls):
        raise KeyError(f"no syntax tree class for grammar rule {name!r}")
    return _generic(cls, obj, ctx)


def _generic(cls: type, obj: Any, ctx: Context, **given: Any) -> Any:
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in given or f.name == "origin":
            continue
        if hasattr(obj, f.name):
            value = _value(getattr(obj, f.name), ctx)
            if value is None and f.default == ():
                value = ()
            elif value == "" and f.default is None:
                value = None  # textX leaves an absent optional ID or STRING empty
            kwargs[f.name] = value
    kwargs.update(given)
    return cls(**kwargs, origin=ctx.origin(obj))


def _value(v: Any, ctx: Context) -> Any:
    if v is None:
        return None
    if _tx_name(v) == "Block":
        return convert(v.stmts, ctx)
    if _tx_name(v) == "Params":
        return convert(v.params, ctx)
    return convert(v, ctx)


def _block(v: Any, ctx: Context) -> tuple:
    return () if v is None else convert(v.stmts, ctx)


def _named(cls: type) -> Converter:
    """Rules whose grammar `name` and `label` become `ident` and `label`."""

    def conv(obj: Any, ctx: Context) -> Any:
        return _generic(
            cls, obj, ctx, ident=obj.name, label=getattr(obj, "label", "") or ""
        )

    return conv


# --- expressions -----------------------------------------------------------------


def _left_assoc(first: Any, rest: list, ctx: Context, origin_obj: Any) -> ast.Expr:
    expr = convert(first, ctx)
    for tail in rest:
        expr = ast.Binary(
            tail.op, expr, convert(tail.right, ctx), origin=ctx.origin(origin_obj)
        )
    return expr


def _chain(op: str) -> Converter:
    def conv(obj: Any, ctx: Context) -> ast.Expr:
        parts = [convert(o, ctx) for o in obj.operands]
        expr = parts[0]
        for p in parts[1:]:
            expr = ast.Binary(op, expr, p, origin=ctx.origin(obj))
        return expr

    return conv


def _not(obj: Any, ctx: Context) -> ast.Expr:
    inner = convert(obj.operand, ctx)
    return ast.Unary("not", inner, origin=ctx.origin(obj)) if obj.negated else inner


def _compare(obj: Any, ctx: Context) -> ast.Expr:
    left = convert(obj.left, ctx)
    if not obj.op:
        return left
    return ast.Binary(obj.op, left, convert(obj.right, ctx), origin=ctx.origin(obj))


def _filtered(obj: Any, ctx: Context) -> ast.Expr:
    base = convert(obj.base, ctx)
    if obj.cond is None:
        return base
    return ast.Filtered(base, convert(obj.cond, ctx), origin=ctx.origin(obj))


def _bool(obj: Any, ctx: Context) -> ast.Expr:
    return ast.BoolLit(obj.value == "true", origin=ctx.origin(obj))


# --- statements ------------------------------------------------------------------


def _either(obj: Any, ctx: Context) -> ast.Stmt:
    options = tuple(_block(o.body, ctx) for o in obj.options)
    labels = tuple(o.label or None for o in obj.options)
    who = convert(obj.who, ctx) if obj.who else None
    return ast.Either(options, who, labels if any(labels) else (),
                      origin=ctx.origin(obj))


def _if(obj: Any, ctx: Context) -> ast.Stmt:
    otherwise: tuple = ()
    if obj.elseif is not None:
        otherwise = (convert(obj.elseif, ctx),)
    elif obj.otherwise is not None:
        otherwise = _block(obj.otherwise, ctx)
    return ast.If(
        convert(obj.cond, ctx), _block(obj.then, ctx), otherwise, origin=ctx.origin(obj)
    )


def _stat_change(cls: type) -> Converter:
    def conv(obj: Any, ctx: Context) -> ast.Stmt:
        until = obj.duration.until if obj.duration else None
        return _generic(cls, obj, ctx, until=until)

    return conv


def _watch(obj: Any, ctx: Context) -> ast.Watch:
    trigger = ast.Trigger(None, (obj.event,), _opt(obj.cond, ctx), origin=ctx.origin(obj))
    return ast.Watch(
        trigger, obj.duration.until, convert(obj.times, ctx), convert(obj.keys, ctx),
        convert(obj.key, ctx), _block(obj.body, ctx), origin=ctx.origin(obj),
    )


# --- rules -----------------------------------------------------------------------


def _citation(obj: Any, ctx: Context) -> ast.Citation:
    return ast.Citation(
        obj.section, obj.interpretation or None, ctx.edition, origin=ctx.origin(obj)
    )


def _range(obj: Any, ctx: Context) -> ast.Range:
    if not obj.dots:
        hi: int | None = obj.lo
    else:
        hi = obj.hi if obj.hi != 0 or _has_hi(obj) else None
    return ast.Range(obj.lo, hi, origin=ctx.origin(obj))


def _has_hi(obj: Any) -> bool:
    """textX leaves an absent optional INT at 0; tell `2..0` from `2..`."""
    text = get_model(obj)._tx_parser.input[obj._tx_position : obj._tx_position_end]
    return not text.rstrip().endswith("..")


def _removal(obj: Any, ctx: Context) -> ast.Removal:
    return ast.Removal(
        removed_kind=obj.kind,
        removed_name=obj.name,
        cite=_opt(obj.cite, ctx),
        origin=ctx.origin(obj),
    )


def _opt(v: Any, ctx: Context) -> Any:
    return None if v is None else convert(v, ctx)


def _setup_step(obj: Any, ctx: Context) -> ast.SetupStep:
    dice = obj.first.dice if obj.first is not None else None
    return _generic(
        ast.SetupStep,
        obj,
        ctx,
        ident=obj.name,
        label=obj.label or "",
        body=_block(obj.body, ctx),
        first_player_dice=dice,
    )


def _phase(obj: Any, ctx: Context) -> ast.Phase:
    skips, variants, opens, throughout = [], [], [], []
    windows = []
    run: tuple = ()
    run_cite = opens_cite = None
    for part in obj.parts:
        kind = _tx_name(part)
        if kind == "SkipWhen":
            skips.append(_generic(ast.SkipWhen, part, ctx))
        elif kind == "Variant":
            variants.append(_generic(ast.Variant, part, ctx))
        elif kind == "Run":
            run, run_cite = _block(part.body, ctx), _opt(part.cite, ctx)
        elif kind == "PhaseWindow":
            windows.append(_generic(ast.PhaseWindow, part, ctx))
        else:
            opens.extend(part.actions)
            if part.throughout:
                throughout.extend(part.actions)
            opens_cite = _opt(part.cite, ctx)
    return ast.Phase(
        ident=obj.name,
        label=obj.label,
        skips=tuple(skips),
        variants=tuple(variants),
        run=run,
        run_cite=run_cite,
        opens=tuple(opens),
        opens_cite=opens_cite,
        throughout=tuple(throughout),
        windows=tuple(windows),
        position=_opt(obj.position, ctx),
        cite=_opt(obj.cite, ctx),
        override=obj.override,
        origin=ctx.origin(obj),
    )


def _link(obj: Any, ctx: Context) -> ast.Link:
    """`link [rechecked] { ... }`: what is rechecked is the part of the `requires`
    of the action it is written in that reads its parameters (its targets' and
    choices' legality), not the part that says when it may be taken."""
    recheck = None
    if obj.rechecked:
        holder = getattr(obj, "parent", None)
        while holder is not None and _tx_name(holder) != "Action":
            holder = getattr(holder, "parent", None)
        if holder is not None and holder.requires is not None:
            recheck = _of_params(convert(holder.requires, ctx),
                                 {p.name for p in _params(holder)})
    return ast.Link(body=_block(obj.body, ctx), rechecked=obj.rechecked,
                    recheck=recheck, source=_opt(obj.source, ctx),
                    origin=ctx.origin(obj))


def _params(action: Any) -> list[Any]:
    return list(action.params.params) if action.params is not None else []


def _of_params(cond: ast.Expr, names: set[str]) -> ast.Expr | None:
    """The parts of `cond` joined by `and` that read one of `names`, joined again
    (None: no part does)."""
    def parts(e: ast.Expr) -> list[ast.Expr]:
        if isinstance(e, ast.Binary) and e.op == "and":
            return parts(e.left) + parts(e.right)
        return [e]

    kept = [p for p in parts(cond) if any(path.parts[0] in names
                                          for path in ast.paths(p))]
    if not kept:
        return None
    joined = kept[0]
    for p in kept[1:]:
        joined = ast.Binary("and", joined, p, origin=p.origin)
    return joined


def _phrase(obj: Any, ctx: Context) -> ast.Phrase:
    return _generic(
        ast.Phrase,
        obj,
        ctx,
        ident=obj.name,
        label="",
        phrase_kind=obj.kind,
        body=_block(obj.body, ctx),
    )


def _counter(obj: Any, ctx: Context) -> ast.Counter:
    return _generic(
        ast.Counter,
        obj,
        ctx,
        ident=obj.name,
        label=obj.label,
        counter_kind=obj.kind,
        body=_block(obj.body, ctx),
    )


def _text_rule(cls: type, **fields: str) -> Converter:
    """Legality rules: `fields` maps dataclass fields to grammar attributes."""

    def conv(obj: Any, ctx: Context) -> Any:
        given = {k: getattr(obj, v) for k, v in fields.items()}
        return _generic(cls, obj, ctx, **given)

    return conv


_SPECIAL: dict[str, Converter] = {
    "Or": _chain("or"),
    "And": _chain("and"),
    "Not": _not,
    "Compare": _compare,
    "Sum": lambda o, c: _left_assoc(o.left, o.rest, c, o),
    "Product": lambda o, c: _left_assoc(o.left, o.rest, c, o),
    "Filtered": _filtered,
    "Paren": lambda o, c: convert(o.expr, c),
    "BoolLit": _bool,
    "NoneLit": lambda o, c: ast.NoneLit(origin=c.origin(o)),
    "Either": _either,
    "If": _if,
    "AddOp": _stat_change(ast.AddOp),
    "Mark": _stat_change(ast.Mark),
    "Watch": _watch,
    "SetOp": _stat_change(ast.SetOp),
    "Prevent": lambda o, c: ast.Prevent(origin=c.origin(o)),
    "Citation": _citation,
    "Range": _range,
    "Removal": _removal,
    "SetupStep": _setup_step,
    "Phase": _phase,
    "Link": _link,
    "Counter": _counter,
    "Phrase": _phrase,
    "Refurbish": _text_rule(ast.Refurbish, text="old", verb="kind"),
    "RevisedLevel": _text_rule(ast.RevisedLevel),
    "Ban": _text_rule(ast.Ban),
    "RevisedCost": _text_rule(ast.RevisedCost),
    "VariableLimit": _text_rule(ast.VariableLimit),
}
for _cls in (
    ast.CardType,
    ast.Stat,
    ast.Zone,
    ast.Action,
    ast.Modifier,
    ast.BattleStep,
    ast.BattlePart,
    ast.Keyword,
    ast.Check,
    ast.Term,
    ast.EventDecl,
    ast.EndCondition,
    ast.LoseCondition,
    ast.Criterion,
    ast.Tag,
    ast.PileRule,
    ast.Invariant,
    ast.Limit,
):
    _SPECIAL[_cls.__name__] = _named(_cls)


SECTION_RULES = {
    "SetupSection": "setup",
    "AnatomySection": "cards",
    "ZonesSection": "zones",
    "TurnSection": "turn",
    "ActionsSection": "actions",
    "BattleSection": "battle",
    "ChainSection": "chain",
    "CountersSection": "counters",
    "KeywordsSection": "keywords",
    "EventsSection": "events",
    "EndgameSection": "endgame",
    "ChecksSection": "checks",
    "LegalitySection": "legality",
    "PhrasesSection": "phrases",
    "InvariantsSection": "invariants",
    "LimitsSection": "limits",
}


def convert_edition(model: Any, path: str) -> ast.EditionFile:
    """Convert a parsed edition file to an `ast.EditionFile`."""
    ctx = Context(path, model.name)
    sections = tuple(
        (SECTION_RULES[_tx_name(s)], convert(s.rules, ctx), ctx.origin(s))
        for s in model.sections
    )
    base = model.base
    return ast.EditionFile(
        name=model.name,
        number=model.number,
        game=model.game or None,
        base=base.name if base else None,
        base_origin=ctx.origin(base) if base else None,
        source=model.source,
        summary=model.summary,
        contents=tuple(model.contents),
        sections=sections,
        path=path,
        origin=ctx.origin(model),
    )
