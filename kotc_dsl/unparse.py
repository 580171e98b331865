"""Turn syntax trees back into kotc text: `kotc show` prints it, `kotc diff` compares it.

The output is the language's own syntax, so it reads like the rule files and
parses back to an equal tree. Expressions get parentheses only where precedence
(or a `where` that would swallow what follows) requires them. Most nodes are
written from a template that mirrors their grammar rule (see `_SYNTAX`); the few
whose shape differs from their grammar have a function instead.

Templates: words are literal; `{field}` writes a field by its type; `{field:spec}`
writes it as `q` (quoted string), `name` (bare when an identifier), `,` (comma
list), `sum` (an expression where the grammar takes only a sum), `block` (an
indented program), `args` or `params` (parenthesised lists);
`{flag?word|other}` writes `word` when the flag is set (the field name when no
word is given), else `other`; `[...]` is dropped unless every field in it is set.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
import textwrap
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeAlias

from . import ast

__all__ = ["quote", "unparse", "unparse_expr", "unparse_program", "unparse_rule"]

INDENT = "  "

# Binding strength, loosest first; an operand binding more loosely than its
# position allows is parenthesised.
OR, AND, NOT, COMPARE, SUM, PRODUCT, FILTERED, ATOM = range(1, 9)
_BINARY = {
    "or": OR, "and": AND,
    "==": COMPARE, "!=": COMPARE, "<=": COMPARE, ">=": COMPARE, "<": COMPARE,
    ">": COMPARE, "in": COMPARE, "is": COMPARE,
    "+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT,
}
_IDENT = re.compile(r"[^\W\d]\w*")


# --- public API ------------------------------------------------------------------


def unparse(node: ast.Node | ast.Block) -> str:
    """kotc text for a rule, statement, expression, or program (a tuple of statements).

    >>> unparse(ast.Binary("+", ast.IntLit(1), ast.Path(("you", "hp"))))
    '1 + you.hp'
    """
    if isinstance(node, tuple):
        return unparse_program(node)
    if isinstance(node, ast.Expr):
        return unparse_expr(node)
    if isinstance(node, ast.Rule):
        return unparse_rule(node)
    return _node(node)


def unparse_expr(expr: ast.Expr) -> str:
    """An expression with the fewest parentheses that keep its meaning.

    >>> a, b, c = (ast.Path((n,)) for n in "abc")
    >>> unparse_expr(ast.Binary("-", a, ast.Binary("-", b, c)))
    'a - (b - c)'
    >>> unparse_expr(ast.Binary("and", ast.Filtered(a, b), c))
    '(a where b) and c'
    """
    return _expr(expr)[0]


def unparse_program(stmts: ast.Block) -> str:
    """Statements one per line, nested blocks indented; no enclosing braces."""
    return "\n".join(_node(s) for s in stmts)


def unparse_rule(rule: ast.Rule, citation: bool = True) -> str:
    """A rule as written in its section, `override` and citation included.

    Args:
        rule: any rule of a section, a `Removal` included.
        citation: False leaves out the rule's own `@ "..."` (nested citations stay),
            for displays that show the citation their own way.
    """
    if not citation:
        rule = dataclasses.replace(rule, cite=None)
    text = _node(rule)
    if rule.cite is not None and not _writes_citation(rule):
        text += " " + _node(rule.cite)
    return f"override {text}" if rule.override else text


def quote(text: str) -> str:
    """A STRING literal for `text`, choosing the quote that needs no escape.

    >>> quote('Exhaust [x] cards.'), quote('the "chain"')
    ('"Exhaust [x] cards."', '\\'the "chain"\\'')
    """
    if '"' in text and "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', '\\"') + '"'


# --- expressions -----------------------------------------------------------------


def _expr(e: ast.Expr) -> tuple[str, int, bool]:
    """Text, binding strength, and whether it ends in an open `where` condition."""
    writer = _EXPRESSIONS.get(type(e))
    if writer is None:
        raise TypeError(f"cannot unparse expression {e!r}")
    return writer(e)


def _binary(e: ast.Binary) -> tuple[str, int, bool]:
    strength = _BINARY[e.op]
    if strength == COMPARE:  # not associative: both sides are sums
        left_needs, right_needs = SUM, SUM
    else:  # left-associative
        left_needs, right_needs = strength, strength + 1
    left = _operand(e.left, left_needs, followed=True)[0]
    right, open_end = _operand(e.right, right_needs, followed=False)
    return f"{left} {e.op} {right}", strength, open_end


def _unary(e: ast.Unary) -> tuple[str, int, bool]:
    operand, open_end = _operand(e.operand, COMPARE, followed=False)
    return f"{e.op} {operand}", NOT, open_end


def _filtered(e: ast.Filtered) -> tuple[str, int, bool]:
    base = _operand(e.base, ATOM, followed=True)[0]
    return f"{base} where {_operand(e.cond, OR, followed=False)[0]}", FILTERED, True


def _atom(text: Callable[[Any], str]) -> Callable[[Any], tuple[str, int, bool]]:
    return lambda e: (text(e), ATOM, False)


_EXPRESSIONS: dict[type[ast.Expr], Callable[[Any], tuple[str, int, bool]]] = {
    ast.Binary: _binary,
    ast.Unary: _unary,
    ast.Filtered: _filtered,
    ast.FuncCall: _atom(lambda e: f"{e.func}{_args(e.args)}"),
    ast.Path: _atom(lambda e: ".".join(e.parts)),
    ast.BoolLit: _atom(lambda e: "true" if e.value else "false"),
    ast.NoneLit: _atom(lambda e: "none"),
    ast.IntLit: _atom(lambda e: str(e.value)),
}


def _operand(e: ast.Expr, needs: int, followed: bool) -> tuple[str, bool]:
    """An operand, parenthesised if it binds too loosely for its place, or if more
    text follows it and its trailing `where` condition would take that text in."""
    text, strength, open_end = _expr(e)
    if strength < needs or (followed and open_end):
        return f"({text})", False
    return text, open_end


def _args(args: tuple[ast.Expr, ...]) -> str:
    return "(" + ", ".join(unparse_expr(a) for a in args) + ")"


def _sum(e: ast.Expr) -> str:
    """An expression where the grammar takes only a sum (the bounds of a count)."""
    return _operand(e, SUM, followed=True)[0]


# --- statements and rules whose shape differs from their grammar ------------------


def _block(stmts: ast.Block) -> str:
    return _braces([_node(s) for s in stmts])


def _braces(lines: list[str]) -> str:
    if not lines:
        return "{ }"
    return "{\n" + textwrap.indent("\n".join(lines), INDENT) + "\n}"


def _if(s: ast.If) -> str:
    text = f"if {unparse_expr(s.cond)} {_block(s.then)}"
    if len(s.otherwise) == 1 and isinstance(s.otherwise[0], ast.If):
        return f"{text} else {_if(s.otherwise[0])}"
    return f"{text} else {_block(s.otherwise)}" if s.otherwise else text


def _either(s: ast.Either) -> str:
    who = f" by {unparse_expr(s.who)}" if s.who is not None else ""
    labels = s.labels or (None,) * len(s.options)
    return f"either{who} " + " or ".join(
        (f"{quote(label)} " if label else "") + _block(b)
        for label, b in zip(labels, s.options, strict=True))


def _add(s: ast.AddOp) -> str:
    prep = "to" if s.op == "add" else "from"
    return _fill(f"{{op}} {{amount}} {prep} {{target}} [until {{until}}]", s)


def _watch(s: ast.Watch) -> str:
    cond = s.trigger.cond
    when = f"watch {s.trigger.events[0]}" + (
        f" if {unparse_expr(cond)}" if cond is not None else "")
    return (f"{when} until {s.until} at_most {unparse_expr(s.times)} times each for "
            f"{unparse_expr(s.keys)} of {unparse_expr(s.key)} {_block(s.body)}")


def _log(s: ast.Log) -> str:
    args = ", ".join(unparse_expr(a.value) if a.value is not None else quote(a.text or "")
                     for a in s.args)
    return f"log {s.event}({args})"


def _count(c: ast.Count) -> str:
    if c.any:
        return "any"
    if c.n is not None:
        return f"exactly {_sum(c.n)}"
    if c.lo is None or c.hi is None:  # the grammar gives `any`, `exactly` or both
        raise TypeError(f"cannot unparse count {c!r}")
    return f"{_sum(c.lo)}..{_sum(c.hi)}"


def _param(p: ast.Param) -> str:
    text = f"{p.name}: {p.type}{'?' if p.optional else ''}"
    return text if p.source is None else f"{text} in {unparse_expr(p.source)}"


def _setup_step(r: ast.SetupStep) -> str:
    if r.first_player_dice is not None:
        last = f"first_player by roll {r.first_player_dice} dice highest"
    else:
        last = _block(r.body)
    return _fill("step {ident} {label:q} {position} {cite}", r) + " " + last


def _phase(r: ast.Phase) -> str:
    parts = [_node(s) for s in r.skips]
    if r.run or r.run_cite is not None:
        parts.append(" ".join(filter(None, ["run", _opt(r.run_cite), _block(r.run)])))
    parts += [_node(v) for v in r.variants]
    # one `opens` for each run of actions open throughout or not, in order; the
    # citation goes on the last (it is the one read back)
    groups = [(early, list(names)) for early, names in
              itertools.groupby(r.opens, lambda a: a in r.throughout)]
    for k, (early, names) in enumerate(groups, 1):
        parts.append(" ".join(filter(None, [
            "opens", ", ".join(names), "throughout" if early else "",
            _opt(r.opens_cite) if k == len(groups) else ""])))
    parts += [_node(w) for w in r.windows]
    head = _fill("phase {ident} {label:q} {position} {cite}", r)
    return f"{head} {_braces(parts)}"


def _opt(node: ast.Node | None) -> str:
    return "" if node is None else _node(node)


# --- the syntax table --------------------------------------------------------------

# A template, or a function that writes the class the table files it under (a
# dict's type cannot tie each value's parameter to its key, hence `Any`).
Syntax = str | Callable[[Any], str]

_SYNTAX: dict[type[ast.Node], Syntax] = {
    # common
    ast.Citation: "@ {section:q} [interpretation {interpretation:q}]",
    ast.Range: str,
    ast.Position: "{where} {anchor}",
    ast.Param: _param,
    ast.Count: _count,
    ast.Trigger: "when {timing} {events:,} [if {cond}]",
    ast.SkipWhen: "skip when {cond} {cite}",
    ast.Variant: "when {cond} {cite} {body:block}",
    # statements
    ast.Move: "move {what} to {dest} {mods}",
    ast.Exhaust: "{unexhaust?unexhaust|exhaust} {what}",
    ast.Fatigue: "fatigue {what}",
    ast.AddOp: _add,
    ast.SetOp: "set {target} to {value} [until {until}]",
    ast.Roll: "roll {groups:,}",
    ast.RollGroup: "{count} dice [by {who}] as {target}",
    ast.Reroll: "reroll {die}",
    ast.Watch: _watch,
    ast.Place: "place {count} {counter} on {target}",
    ast.Strip: "strip {count} {counter} from {target}",
    ast.Pop: "pop {counter} from {target}",
    ast.Give: "give {what} to {player}",
    ast.Reveal: "reveal {what}",
    ast.See: "see {what} [by {who}]",
    ast.Choose: "choose {count} from {what} as {name} [by {chooser}] {random?randomly} "
                "[asking {prompt:q}]",
    ast.ChooseDie: "choose die from {what} as {name} [by {chooser}] asking {prompt:q} "
                   "labelled {label:q}",
    ast.Either: _either,
    ast.ForEach: "for each {name} in {what} [ordered_by {chooser}] {body:block}",
    ast.If: _if,
    ast.May: "may [by {who}] {body:block}",
    ast.Emit: "emit {event}{args:args}",
    ast.Shuffle: "shuffle {what}",
    ast.Let: "let {name} = {value}",
    ast.Repeat: "repeat {times} {body:block}",
    ast.Prevent: "prevent event",
    ast.Stop: "stop if {cond}",
    ast.Negate: "negate {what}",
    ast.Skip: "skip {step}",
    ast.Perform: "perform {action}{args:args} {mods} [by {who}]",
    ast.CreatePawn: "create pawn in {zone} as {name} [copying {source}] "
                    "[with {printed:,}]",
    ast.PawnValue: "{stat} = {value}",
    ast.Mark: "mark {what} as {tag} [until {until}]",
    ast.Pick: "pick {name} in {lo:sum}..{hi:sum} [by {chooser}]",
    ast.Pay: "pay {amount} {kind}",
    ast.After: "after {flow} {body:block}",
    ast.Begin: "begin {flow} [with {fields:,}]",
    ast.FieldValue: "{name} = {value}",
    ast.Banish: "remove {what} from game",
    ast.EndGame: "end game",
    ast.Reset: "reset {stats:,} of {what}",
    ast.Unfatigue: "unfatigue {what}",
    ast.Expire: "expire changes until {until}",
    ast.Resolve: "resolve {what} [then {then:block}]",
    ast.Call: "{keyword}{args:args} [by {who}]",
    ast.Drop: "drop {all?all} [{what}] from {target}",
    ast.Append: "append {what} to {target}",
    ast.Form: "form {target} from {what} by {chooser} [at_least {least:sum}] "
              "asking {prompt:q} done {done:q} [noting {event}]",
    ast.Log: _log,
    ast.LogArg: "[{text:q}] [{value}]",
    ast.EndFlow: "end {flow}",
    ast.Note: "note {event}{args:args}",
    ast.Order: "order {target} by {chooser} asking {prompt:q}",
    # rules: `override` and a trailing citation are added by `unparse_rule`
    ast.Removal: "remove {removed_kind} {removed_name:name}",
    ast.PlayersRule: "players {count} [recommended {recommended}]",
    ast.DeckSizeRule: "deck size {size}",
    ast.ReservesRule: "reserves size {size} {source}",
    ast.PileRule: "pile {ident} size {size} {source} into {zone}",
    ast.UltraPointsRule: "ultra_points at_most {cap}",
    ast.CopiesRule: "copies at_most {cap} per name",
    ast.IndicatorRule: "edition_indicator {need} [{verdict}]",
    ast.StartingHpRule: "starting_hp {hp}",
    ast.SetupOrder: "steps each_player from {start}",
    ast.SetupStep: _setup_step,
    ast.CardType: "card_type {ident} {label:q} [stats {stats:,}]",
    ast.Stat: "stat {ident} {label:q} [floor {floor}]",
    ast.CostRule: "cost {stat}",
    ast.UltraPointsStat: "ultra_points {label:q} default {default}",
    ast.PawnRule: "pawns are {type} only_in {zone}",
    ast.Tag: "tag {ident} {label:q}",
    ast.Zone: "zone {ident} {label:q} {knowledge} {flags} [holds {holds:,}]",
    ast.Phase: _phase,
    ast.TurnPassing: "next_turn {direction}",
    ast.Kept: "keep {ident} per phase",
    ast.Anytime: "anytime {actions:,}",
    ast.Action: "action {ident} {label:q} [{params:params}] [requires {requires}] {cite} "
                "{body:block}",
    ast.StandardActivation: "standard_activation {cond}",
    ast.UsedBy: "used_by last_controller",
    ast.UnpayableCosts: "unpayable_costs not_offered",
    ast.Modifier: "modifier {ident} {label:q}",
    ast.BattleStep: "step {ident} {label:q} {position} {cite} does {ops:,}",
    ast.BattlePart: "part {ident} {cite} {body:block}",
    ast.BattleRecord: "record {fields:,}",
    ast.RecordField: "{name}: {type}",
    ast.DicePer: "dice_per {stat}",
    ast.DropLeavers: "drop leavers from {fields:,}",
    ast.StepWindows: lambda r: (
        f"windows after {', '.join(r.steps)} round from attacker until all_pass "
        f"after_action {r.after}" if r.steps else "windows after_each_step"),
    ast.NewChainAfterResolving: "new_chain after_resolving",
    ast.TargetsOnActivation: "targets on_activation",
    ast.SimultaneousSteps: "simultaneous {steps:,}",
    ast.ChainingActions: "chaining {actions:,}",
    ast.ResponseOrder: lambda r: (
        f"respond {r.direction} {'from_left_of' if r.left else 'from'} last_actor "
        "until all_pass"),
    ast.ResolutionOrder: lambda r: (
        "resolve top_link then respond from active" if r.top_link
        else "resolve last_in_first_out"),
    ast.Link: lambda r: " ".join(filter(None, [
        "link", "rechecked" if r.rechecked else "",
        f"from {unparse_expr(r.source)}" if r.source is not None else "",
        _block(r.body)])),
    ast.PhaseWindow: "window round from active until all_pass after_action {after} "
                     "{cite}",
    ast.NoChainWhileResolving: "no_chaining_while_resolving",
    ast.DeployedInline: "deployed_spells inline",
    ast.PoppedWhileResolving: "popped_while_resolving {how}",
    ast.Counter: "counter {ident} {label:q} {counter_kind} {trigger} {from_card?} {cite} "
                 "[{body:block}]",
    ast.PoppedBy: "popped_by placer",
    ast.CounterHosts: "counters_on {zone}",
    ast.Keyword: "keyword {ident} {label:q} {cost?} {params:params} {cite} {body:block}",
    ast.Check: "check {ident} {label:q} {cite} {body:block}",
    ast.Term: "term {ident} {label:q} [{params:params}] [= {value}] [builtin {builtin}]",
    ast.EventDecl: "event {ident} {label:q} {params:params}",
    ast.EndCondition: "condition {ident} {label:q} [when {cond}] [on {event}]",
    ast.LoseCondition: "lose {ident} {label:q} [when {cond}] [on {event}]",
    ast.HpFloor: "hp_floor {floor}",
    ast.Zombies: "zombies play_on",
    ast.Limit: "limit {ident} {value}",
    ast.Criterion: "criterion {ident} {label:q} [keep {cond}] [highest {value}]",
    ast.CleanSlate: "clean_slate {edition} {verdict}",
    ast.Refurbish: "{verb} {text:q} as {new:q}",
    ast.RevisedLevel: "revised_level {text:q} since {edition}",
    ast.Ban: "ban {text:q}",
    ast.RevisedCost: "revised_cost {text:q} since {edition}",
    ast.VariableLimit: "limit {text:q} {variable} at_most {max}",
    ast.TextsMatch: "texts_match {options}",
    ast.SameText: "reads {others:q,} as {text:q}",
    ast.SubAbilities: "sub_abilities {scope} {cite} [{body:block}]",
    ast.Clauses: "clauses parted_by {joiners:q,}",
    ast.Phrase: "{phrase_kind} {ident} {text:q} {trigger} [if {cond}] "
                "[with {modifiers:,}] {cite} [{body:block}]",
    ast.Invariant: "invariant {ident} {label:q} [for each {element} in {domain}:] {cond}",
}


def _syntax_of(node: ast.Node) -> Syntax:
    for cls in type(node).__mro__:
        syntax = _SYNTAX.get(cls)
        if syntax is not None:
            return syntax
    raise TypeError(f"no kotc syntax for {type(node).__name__}")


def _writes_citation(rule: ast.Rule) -> bool:
    """Whether a rule's syntax places its citation itself (before a block)."""
    syntax = _syntax_of(rule)
    if isinstance(syntax, str):
        return "cite" in template_fields(syntax)
    return syntax in (_setup_step, _phase)


def _node(node: ast.Node) -> str:
    if isinstance(node, ast.Expr):
        return unparse_expr(node)
    syntax = _syntax_of(node)
    return _fill(syntax, node) if isinstance(syntax, str) else syntax(node)


# --- templates --------------------------------------------------------------------

_TOKEN = re.compile(r"\[|\]|[^\s\[\]]+")
_PIECE = re.compile(r"\{([^}]*)\}|([^{]+)")

# A parsed template: a word is a tuple of pieces, a piece `(field_spec, None)` or
# `(None, literal)`; an optional group is a list of words and groups.
Piece: TypeAlias = tuple[str, None] | tuple[None, str]
Word: TypeAlias = tuple[Piece, ...]
Group: TypeAlias = list["Word | Group"]


@functools.cache
def _parse_template(template: str) -> tuple[Word | Group, ...]:
    stack: list[Group] = [[]]
    for token in _TOKEN.findall(template):
        if token == "[":
            stack.append([])
        elif token == "]":
            group = stack.pop()
            stack[-1].append(group)
        else:
            stack[-1].append(_word(token))
    if len(stack) != 1:
        raise ValueError(f"unbalanced [ ] in template {template!r}")
    return tuple(stack[0])


def _word(token: str) -> Word:
    """The pieces of one word of a template: its `{field}` specs and literal text."""
    return tuple((m[1], None) if m[2] is None else (None, m[2])
                 for m in _PIECE.finditer(token))


def template_fields(template: str) -> set[str]:
    """The fields a template writes; tests check them against the trees' fields."""
    return {_field_name(spec) for spec in _specs(_parse_template(template))}


def _specs(items: Iterable[Word | Group]) -> Iterator[str]:
    for item in items:
        if isinstance(item, list):
            yield from _specs(item)
        else:
            yield from (spec for spec, _ in item if spec)


def _field_name(spec: str) -> str:
    return re.split(r"[?:]", spec, maxsplit=1)[0]


def _fill(template: str, node: ast.Node) -> str:
    return _join(_parse_template(template), node)


def _join(items: Iterable[Word | Group], node: ast.Node) -> str:
    words: list[str] = []
    for item in items:
        if isinstance(item, list):
            needed = [_field_name(s) for s in _specs(item) if "?" not in s]
            if all(_is_set(getattr(node, name)) for name in needed):
                words.append(_join(item, node))
        else:
            words.append("".join(piece[1] if piece[0] is None else _field(piece[0], node)
                                 for piece in item))
    return " ".join(w for w in words if w)


def _is_set(value: object) -> bool:
    return value is not None and value is not False and value not in ((), "")


def _field(spec: str, node: ast.Node) -> str:
    name, flag, choices = spec.partition("?")
    if flag:
        yes, _, no = choices.partition("|")
        return (yes or name) if getattr(node, name) else no
    name, _, form = spec.partition(":")
    return _FORMS[form](getattr(node, name))


def _plain(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, tuple):
        return " ".join(_plain(v) for v in value)
    if isinstance(value, ast.Node):
        return _node(value)
    return str(value)


def _name(value: str) -> str:
    return value if value == "*" or _IDENT.fullmatch(value) else quote(value)


_FORMS: dict[str, Callable[[Any], str]] = {
    "": _plain,
    "q": quote,
    "name": _name,
    ",": lambda items: ", ".join(_plain(v) for v in items),
    "q,": lambda items: ", ".join(quote(v) for v in items),
    "sum": _sum,
    "block": _block,
    "args": _args,
    "params": lambda params: "(" + ", ".join(_param(p) for p in params) + ")",
}
