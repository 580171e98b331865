"""Whole-ruleset validation: citations, references between rules, effect types.

Runs on a merged `Ruleset`, so a 17th-edition rule may refer to a zone the 13th
defines, and a rule that refers to something its edition removed is caught.
Every problem is collected (not just the first) and located at the node that
causes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from . import ast
from .errors import Diagnostic
from .limits import DEFAULT_LIMITS
from .ruleset import Ruleset
from .suggest import hint
from .types import (
    ANY_COUNTER,
    BASE_TYPES,
    BATTLE_FIELDS,
    BUILTIN_CONSTRUCTS,
    BUILTIN_EVENTS,
    CARD_ATTRS,
    CONTEXT_ATTRS,
    ELEMENT_NAME,
    EVENT_COMMON,
    FLOWS,
    FUNCTIONS,
    GAME_LISTS,
    GLOBAL_NAMES,
    LOG_EVENTS,
    PLAYER_ATTRS,
    RECORD_TYPES,
    accepts,
    collection_of,
)

# What a phrase's placeholders mean inside its program.
PHRASE_HOLES = {"x": "int", "y": "int", "z": "int", "counter": "counter"}
# The placeholders of a counter phrase: the name a card gives, the effect it states.
COUNTER_PHRASE_HOLES = ("name", "effect")


def validate(ruleset: Ruleset) -> list[Diagnostic]:
    """Every problem in the ruleset, located."""
    checker = Checker(ruleset)
    checker.run()
    return checker.problems


# The largest count a rule may write for dice rolled at once or a repeat.
MAX_WRITTEN_COUNT = 1000
# The deepest an expression may nest: far past any rule, within what Python
# compiles (the engine writes each expression as nested Python).
MAX_EXPR_DEPTH = 100


@dataclass
class Scope:
    """Names visible to a program, and what kind of program it is."""

    names: dict[str, str]
    event_fields: dict[str, str] | None = None
    would: bool = False
    keyword: str | None = None
    calls: set[str] = field(default_factory=set)

    def with_names(self, **more: str) -> Scope:
        return Scope(
            {**self.names, **more},
            self.event_fields,
            self.would,
            self.keyword,
            self.calls,
        )


class Checker:
    """Walks every rule once; `problems` collects what is wrong."""

    def __init__(self, ruleset: Ruleset):
        self.rs = ruleset
        self.problems: list[Diagnostic] = []
        self.zones = ruleset.zones
        self.stats = ruleset.stats
        self.card_types = ruleset.card_types
        self.counters = ruleset.counters
        self.keywords = ruleset.keywords
        self.terms = ruleset.terms
        self.actions = ruleset.actions
        self.events = ruleset.events
        self.phase_names = {p.name for p in ruleset.phases}
        self.step_names = {s.name for s in ruleset.battle_steps}
        self.part_names = set(ruleset.battle_parts)
        record = ruleset.battle_record
        # what programs read of the contexts: the battle's record too
        self.context_attrs = {
            **CONTEXT_ATTRS,
            "game": {**CONTEXT_ATTRS["game"],
                     **{n: GAME_LISTS[n] for n in ruleset.kept_lists if n in GAME_LISTS}},
            "battle": {**CONTEXT_ATTRS["battle"],
                       **{f.name: f.type for f in (record.fields if record else ())}},
        }
        self.keyword_calls: dict[str, set[str]] = {}
        self.term_types: dict[str, str] = {}
        self.expanding: list[str] = []
        self.phrase_top: tuple = ()  # the statements `stop` may be (see stmt_Stop)

    def error(self, node: ast.Node, message: str) -> None:
        self.problems.append(Diagnostic(node.origin, message))

    def too_deep(self, rule: ast.Rule) -> bool:
        """Whether an expression of `rule` nests deeper than `MAX_EXPR_DEPTH`
        (reported where that expression starts): the engine writes each as nested
        Python, which Python reads only so deep. Walked without recursion."""
        stack: list[tuple[object, int, ast.Expr | None]] = [(rule, 0, None)]
        while stack:
            node, depth, top = stack.pop()
            if isinstance(node, ast.Expr):
                top = top or node
                depth += 1
                if depth > MAX_EXPR_DEPTH and top is not None:
                    self.error(top, f"an expression nested more than {MAX_EXPR_DEPTH} "
                                    f"deep (a chain of `and`/`or` terms counts one "
                                    f"level a term); split it with `let`")
                    return True
            elif not isinstance(node, ast.Stmt | ast.Rule | ast.Node):
                if isinstance(node, tuple):
                    stack.extend((x, depth, top) for x in node)
                continue
            else:
                top, depth = None, 0
            for value in vars(node).values():
                if isinstance(value, ast.Node | tuple):
                    stack.append((value, depth, top))
        return False

    # --- driver ------------------------------------------------------------------

    def run(self) -> None:
        for rule in self.rs.rules():
            if self.too_deep(rule):
                continue  # the checks below walk it by recursion
            self.citation(rule, rule.cite, rule.key)
            self.ranges(rule)
            check = getattr(self, f"rule_{type(rule).__name__}", None)
            if check is not None:
                check(rule)
        self.keyword_cycles()

    def citation(self, node: ast.Node, cite: ast.Citation | None, what: str) -> None:
        if cite is None:
            self.error(node, f'{what} has no citation (add `@ "<rulebook section>"`)')
            return
        if not self.rs.cites(cite.edition, cite.section):
            contents = self.rs.contents.get(cite.edition, ())
            self.error(
                cite,
                f"cites '{cite.section}', which is not a section of the "
                f"{cite.edition} rulebook's contents" + hint(cite.section, contents),
            )

    def ranges(self, rule: ast.Rule) -> None:
        for value in vars(rule).values():
            if (
                isinstance(value, ast.Range)
                and value.hi is not None
                and value.lo > value.hi
            ):
                self.error(
                    value,
                    f"range {value.lo}..{value.hi} is empty: its lower "
                    f"bound is above its upper bound",
                )

    def rule_CopiesRule(self, rule: ast.CopiesRule) -> None:
        if rule.cap < 1:
            self.error(rule, f"copies at_most {rule.cap} per name: a deck could hold "
                             f"no card at all; the least is 1")

    def rule_Limit(self, rule: ast.Limit) -> None:
        most, what = DEFAULT_LIMITS[rule.name]
        if not 1 <= rule.value <= most:
            self.error(rule, f"limit {rule.name} ({what}) is {rule.value:,}: an edition "
                             f"may state from 1 to kotc's own bound, {most:,}")

    def ref(self, node: ast.Node, name: str, table: Iterable[str], what: str) -> bool:
        if name in table:
            return True
        known = ", ".join(sorted(table)) or "none"
        self.error(node, f"unknown {what} '{name}' (known: {known}){hint(name, table)}")
        return False

    def scope(self, **more: str) -> Scope:
        return Scope({**GLOBAL_NAMES, **more})

    # --- section rules -----------------------------------------------------------

    def rule_SetupStep(self, r: ast.SetupStep) -> None:
        self.block(r.body, self.scope())

    def rule_IndicatorRule(self, r: ast.IndicatorRule) -> None:
        if r.need == "required" and r.verdict is None:
            self.error(r, "a required Edition Indicator names the status of a card "
                          "showing none: `edition_indicator required invalid`")
        if r.need == "optional" and r.verdict is not None:
            self.error(r, f"an optional Edition Indicator makes no card {r.verdict}")

    def rule_CardType(self, r: ast.CardType) -> None:
        for s in r.stats:
            self.ref(r, s, self.stats, "stat")

    def rule_CostRule(self, r: ast.CostRule) -> None:
        self.ref(r, r.stat, self.stats, "stat")

    def rule_PileRule(self, r: ast.PileRule) -> None:
        if r.zone is not None:
            self.ref(r, r.zone, self.zones, "zone")
        if r.name == "reserves" and self.rs.setting("setup", "reserves") is not None:
            self.error(r, "the reserves pile is named twice: by `reserves size ...` "
                          "and by `pile reserves ...`; keep one")

    def rule_PawnRule(self, r: ast.PawnRule) -> None:
        self.ref(r, r.type, self.card_types, "card type")
        self.ref(r, r.zone, self.zones, "zone")

    def rule_Zone(self, r: ast.Zone) -> None:
        if r.name in PLAYER_ATTRS:
            self.error(
                r,
                f"zone '{r.name}' has the name of a player attribute, so "
                f"`you.{r.name}` could never reach it",
            )
        for t in r.holds:
            self.ref(r, t, self.card_types, "card type")
        if "face_up" in r.flags and "face_down" in r.flags:
            self.error(r, f"zone '{r.name}' is both face_up and face_down")
        if len(set(r.flags)) != len(r.flags):
            self.error(r, f"zone '{r.name}' repeats a flag")

    def rule_Phase(self, r: ast.Phase) -> None:
        for s in r.skips:
            self.citation(s, s.cite or r.cite, f"skip of phase '{r.name}'")
            self.bool_expr(s.cond, self.scope())
        for v in r.variants:
            self.bool_expr(v.cond, self.scope())
            self.block(v.body, self.scope())
        self.block(r.run, self.scope())
        for a in r.opens:
            self.ref(r, a, self.actions, "action")
        for extra in r.windows[1:]:
            self.error(extra, f"phase '{r.name}' has one window; this is a second")

    def rule_Kept(self, r: ast.Kept) -> None:
        if r.name not in GAME_LISTS:
            self.error(r, f"the game keeps no list '{r.name}'; a ruleset may keep "
                          f"{', '.join(sorted(GAME_LISTS))}")

    def rule_Action(self, r: ast.Action) -> None:
        scope = self.params(r.params, self.scope())
        if r.requires is not None:
            self.bool_expr(r.requires, scope)
        self.block(r.body, scope)
        chaining = self.rs.setting("chain", "chaining")
        if self.rs.has_chain and r.name not in (chaining.actions if chaining else ()):
            for link in _links(r.body):
                self.error(link, f"action '{r.name}' puts a link on the chain, but the "
                                 "chain section's `chaining` does not list it")

    def rule_StandardActivation(self, r: ast.StandardActivation) -> None:
        self.bool_expr(r.cond, self.scope(source="card", ability="ability"))

    def rule_BattleStep(self, r: ast.BattleStep) -> None:
        if len(set(r.ops)) != len(r.ops):
            self.error(r, f"battle step '{r.name}' repeats a part")
        for op in r.ops:
            self.ref(r, op, self.part_names, "battle part")

    def rule_BattlePart(self, r: ast.BattlePart) -> None:
        self.block(r.body, self.scope())

    def rule_BattleRecord(self, r: ast.BattleRecord) -> None:
        seen: set[str] = set()
        for f in r.fields:
            if f.name in seen or f.name in CONTEXT_ATTRS["battle"]:
                self.error(f, f"the battle's record has '{f.name}' already")
            elif f.name not in BATTLE_FIELDS:
                self.error(f, f"a battle keeps no field '{f.name}'; its record may "
                              f"declare {', '.join(sorted(BATTLE_FIELDS))}")
            seen.add(f.name)
            self.ref(f, f.type, RECORD_TYPES, "type of a record's field")

    def rule_StepWindows(self, r: ast.StepWindows) -> None:
        steps = [s.name for s in self.rs.battle_steps]
        for step in r.steps:
            if step not in steps:
                self.error(r, f"windows after '{step}': no battle step of that name "
                              f"(steps: {', '.join(steps) or 'none'})")
        if len(set(r.steps)) != len(r.steps):
            self.error(r, "windows after a step named twice")

    def rule_SimultaneousSteps(self, r: ast.SimultaneousSteps) -> None:
        order = [s.name for s in self.rs.battle_steps]
        for step in r.steps:
            self.ref(r, step, order, "battle step")
        at = [order.index(s) for s in r.steps if s in order]
        if len(at) == len(r.steps) and (
            len(at) < 2 or at != list(range(at[0], at[0] + len(at)))
        ):
            self.error(r, "simultaneous steps must be two or more consecutive battle "
                          "steps, in order")

    def rule_DicePer(self, r: ast.DicePer) -> None:
        self.ref(r, r.stat, self.stats, "stat")

    def rule_DropLeavers(self, r: ast.DropLeavers) -> None:
        for name in r.fields:
            if self.context_attrs["battle"].get(name) != "cards":
                self.error(r, f"drop leavers from '{name}': no list of cards the "
                              f"battle's record declares")

    def rule_Anytime(self, r: ast.Anytime) -> None:
        for a in r.actions:
            self.ref(r, a, self.actions, "action")

    def rule_ChainingActions(self, r: ast.ChainingActions) -> None:
        for a in r.actions:
            self.ref(r, a, self.actions, "action")

    def rule_ResolutionOrder(self, r: ast.ResolutionOrder) -> None:
        if r.top_link and self.rs.setting("chain", "respond") is None:
            self.error(r, "`resolve top_link then respond from active` needs a "
                          "`respond ...` rule in the chain section: the responses it "
                          "goes back to")

    def rule_CounterHosts(self, r: ast.CounterHosts) -> None:
        self.ref(r, r.zone, self.zones, "zone")

    def rule_Counter(self, r: ast.Counter) -> None:
        if r.name == ANY_COUNTER:
            self.error(r, f"'{ANY_COUNTER}' stands for counters of every kind; name "
                          f"the counter otherwise")
        scope = self.scope(host="card")
        if r.counter_kind == "reactive" and r.trigger is None:
            self.error(r, f"reactive counter '{r.name}' needs a trigger (`when ...`)")
        if r.counter_kind != "reactive" and r.trigger is not None:
            self.error(
                r.trigger,
                f"only reactive counters have triggers; '{r.name}' is {r.counter_kind}",
            )
        if r.trigger is not None:
            scope = self.trigger(r.trigger, scope)
        if r.from_card and r.body:
            self.error(
                r, f"counter '{r.name}' takes its effect from the card; it has no body"
            )
        if r.counter_kind == "inert" and r.body:
            self.error(r, f"inert counter '{r.name}' cannot have an effect")
        self.block(r.body, scope)

    def rule_Keyword(self, r: ast.Keyword) -> None:
        scope = self.params(r.params, self.scope())
        scope.keyword = r.name
        scope.calls = self.keyword_calls.setdefault(r.name, set())
        self.block(r.body, scope)

    def rule_Check(self, r: ast.Check) -> None:
        self.block(r.body, self.scope())

    def rule_Term(self, r: ast.Term) -> None:
        if r.builtin is not None and r.builtin not in BUILTIN_CONSTRUCTS:
            self.ref(r, r.builtin, BUILTIN_CONSTRUCTS, "language construct")
        if r.value is not None:
            self.term_type(r)

    def term_type(self, term: ast.Term) -> str:
        """The type of a term's value; a term defined through itself is an error."""
        if term.name in self.term_types:
            return self.term_types[term.name]
        if term.name in self.expanding:
            cycle = " -> ".join(
                self.expanding[self.expanding.index(term.name) :] + [term.name]
            )
            self.error(term, f"term '{term.name}' is defined through itself ({cycle})")
            return "any"
        self.expanding.append(term.name)
        try:
            t = self.expr(term.value, self.params(term.params, self.scope()))
        finally:
            self.expanding.pop()
        self.term_types[term.name] = t
        return t

    def rule_EventDecl(self, r: ast.EventDecl) -> None:
        if r.name in self.keywords or r.name in BUILTIN_EVENTS:
            self.error(
                r,
                f"event '{r.name}' has the name of an event that already exists "
                f"(every keyword call and engine primitive is an event)",
            )
        self.params(r.params, self.scope())

    def rule_EndCondition(self, r: ast.EndCondition) -> None:
        self.end_rule(r, self.scope())

    def rule_LoseCondition(self, r: ast.LoseCondition) -> None:
        self.end_rule(r, self.scope(player="player"))

    def end_rule(self, r, scope: Scope) -> None:
        if r.event is not None:
            self.ref(r, r.event, self.all_events(), "event")
        else:
            self.bool_expr(r.cond, scope)

    def rule_Criterion(self, r: ast.Criterion) -> None:
        scope = self.scope(player="player")
        if r.keep:
            self.bool_expr(r.cond, scope)
        else:
            self.typed(r.value, scope, "int", "a criterion's `highest` value")

    def rule_Invariant(self, r: ast.Invariant) -> None:
        scope = self.scope()
        if r.domain is not None:
            t = self.expr(r.domain, scope)
            element = collection_of(t)
            if element is None and t != "any":
                self.error(
                    r.domain,
                    f"invariant '{r.name}' must range over a collection, not {t}",
                )
            scope = scope.with_names(**{r.element: element or "any"})
        self.bool_expr(r.cond, scope)

    def rule_Phrase(self, r: ast.Phrase) -> None:
        holes = set(re.findall(r"\[(\w+)\]", r.text))
        if r.phrase_kind == "counter":
            self.counter_phrase(r, holes)
            return
        if r.phrase_kind == "caveat":
            if holes - {"x"} or r.body or r.trigger is not None or r.cond is not None \
                    or r.modifiers:
                self.error(r, f"caveat phrase '{r.name}' is a printed text and its "
                              f"name: no placeholder but [x], no program, trigger or "
                              f"condition (the rules that name it say what it does; "
                              f"caveat_x(card, {r.name}) reads its number)")
            return
        for hole in sorted(holes - PHRASE_HOLES.keys()):
            self.error(
                r,
                f"phrase text has an unknown placeholder [{hole}] "
                f"(known: {', '.join(f'[{h}]' for h in PHRASE_HOLES)})",
            )
        names = {h: PHRASE_HOLES[h] for h in holes if h in PHRASE_HOLES}
        scope = self.scope(this="card", **names)
        for m in r.modifiers:
            self.ref(r, m, self.rs.modifiers, "activation modifier")
        if r.phrase_kind == "condition":
            if r.body:
                self.error(
                    r,
                    f"condition phrase '{r.name}' has a program; conditions "
                    f"take `when ...` or `if ...`",
                )
            if r.trigger is not None:
                self.trigger(r.trigger, scope)
            elif r.cond is not None:
                self.bool_expr(r.cond, scope)
            return
        if r.trigger is not None or r.cond is not None or r.modifiers:
            self.error(r, "only condition phrases take `when`, `if` or `with`")
        if not r.body:
            self.error(r, f"{r.phrase_kind} phrase '{r.name}' needs a program")
        if r.phrase_kind == "effect":
            scope = scope.with_names(targets="cards")
        self.phrase_top = r.body
        self.block(r.body, scope)
        self.phrase_top = ()
        if r.phrase_kind == "target" and not any(
            isinstance(s, ast.Choose) and s.name == "targets" for s in r.body
        ):
            self.error(r, f"target phrase '{r.name}' must choose `... as targets`")

    def counter_phrase(self, r: ast.Phrase, holes: set[str]) -> None:
        """A card's statement of a named counter's effect: `[name]` and `[effect]`
        in its text, no program of its own, named for a `from_card` counter."""
        wanted = set(COUNTER_PHRASE_HOLES)
        if holes != wanted:
            self.error(r, f"a counter phrase's text has the placeholders [name] and "
                          f"[effect], and no other (it has "
                          f"{', '.join(f'[{h}]' for h in sorted(holes)) or 'none'})")
        if r.body or r.trigger is not None or r.cond is not None or r.modifiers:
            self.error(r, f"counter phrase '{r.name}' has no program, trigger or "
                          f"condition: the effect is the one the card states")
        counter = self.rs.counters.get(r.name)
        if counter is None or not counter.from_card:
            stated = sorted(c.name for c in self.rs.counters.values() if c.from_card)
            self.error(r, f"counter phrase '{r.name}' names no `from_card` counter of "
                          f"the edition (those: {', '.join(stated) or 'none'})")

    def rule_SubAbilities(self, r: ast.SubAbilities) -> None:
        if not r.own_targets:
            if r.body:
                self.error(r, "`sub_abilities each_ability` takes no program: a "
                              "sentence with no target selection keeps the ability's")
            return
        if not r.body:
            self.error(r, "`sub_abilities each_sentence` needs a program: what a "
                          "sentence that selects no targets runs (`let targets = "
                          "none`)")
            return
        self.block(r.body, self.scope(this="card"))
        if not any(isinstance(s, (ast.Choose, ast.Let)) and s.name == "targets"
                   for s in r.body):
            self.error(r, "the program of a sentence that selects no targets must "
                          "bind `targets` (`let targets = none`)")

    def rule_Clauses(self, r: ast.Clauses) -> None:
        for joiner in r.joiners:
            if not joiner.strip() or "." in joiner:
                self.error(r, f"clauses are parted by a text with no '.' in it, "
                              f"not {joiner!r}")

    # --- parameters, triggers, events ------------------------------------------------

    def param_type(self, p: ast.Param) -> str:
        if p.type in BASE_TYPES:
            return p.type
        if p.type in self.card_types:
            return "card"
        known = ", ".join(sorted(BASE_TYPES | set(self.card_types)))
        self.error(
            p, f"unknown type '{p.type}' for parameter '{p.name}' (known: {known})"
        )
        return "any"

    def params(self, params: tuple[ast.Param, ...], scope: Scope) -> Scope:
        names = dict(scope.names)
        seen: set[str] = set()
        optional_seen = False
        for p in params:
            if p.name in seen:
                self.error(p, f"parameter '{p.name}' is declared twice")
            seen.add(p.name)
            if optional_seen and not p.optional:
                self.error(
                    p,
                    f"parameter '{p.name}' is required but follows an optional "
                    f"one; put optional parameters last",
                )
            optional_seen = optional_seen or p.optional
            if p.source is not None:
                source = self.expr(p.source, Scope(names))
                if collection_of(source) is None and source != "any":
                    self.error(
                        p.source,
                        f"parameter '{p.name}' must come from a collection, not {source}",
                    )
            names[p.name] = self.param_type(p)
        return Scope(names, scope.event_fields, scope.would, scope.keyword, scope.calls)

    def all_events(self) -> dict[str, dict[str, str]]:
        """Every event a trigger may name, with its fields."""
        found: dict[str, dict[str, str]] = dict(BUILTIN_EVENTS)
        for name, kw in self.keywords.items():
            found[name] = {p.name: self.plain_type(p.type) for p in kw.params}
        for name, ev in self.events.items():
            found[name] = {p.name: self.plain_type(p.type) for p in ev.params}
        return found

    def plain_type(self, t: str) -> str:
        return "card" if t in self.card_types else t

    def trigger(self, t: ast.Trigger, scope: Scope) -> Scope:
        if t.timing in ("before", "after"):
            steps = self.step_names | self.phase_names
            for e in t.events:
                self.ref(t, e, steps, "battle step or phase")
            fields: dict[str, str] = dict(EVENT_COMMON)
        else:
            events = self.all_events()
            fields = {}
            for i, e in enumerate(t.events):
                if not self.ref(t, e, events, "event"):
                    continue
                own = events[e]
                fields = (
                    dict(own)
                    if i == 0
                    else {
                        k: _wider(v, own[k])
                        for k, v in fields.items()
                        if k in own and _wider(v, own[k])
                    }
                )
            fields.update(EVENT_COMMON)
        inner = Scope({**scope.names, "event": "event"}, fields, t.timing == "would")
        if t.cond is not None:
            self.bool_expr(t.cond, inner)
        return inner

    # --- statements --------------------------------------------------------------

    def block(self, stmts: tuple, scope: Scope) -> None:
        scope = Scope(
            dict(scope.names), scope.event_fields, scope.would, scope.keyword, scope.calls
        )
        for s in stmts:
            check = getattr(self, f"stmt_{type(s).__name__}")
            bound = check(s, scope)
            if bound:
                scope.names.update(bound)

    def stmt_Move(self, s: ast.Move, sc: Scope) -> None:
        self.typed(s.what, sc, "cards", "what `move` moves")
        self.typed(s.dest, sc, "zone", "a `move` destination")
        self.exclusive(
            s,
            s.mods,
            ("top", "bottom"),
            ("exhausted", "unexhausted"),
            ("face_up", "face_down"),
        )

    def exclusive(self, node: ast.Node, mods: tuple, *groups: tuple) -> None:
        for group in groups:
            if sum(m in group for m in mods) > 1:
                self.error(node, f"`{' and '.join(group)}` cannot both apply")

    def stmt_Exhaust(self, s: ast.Exhaust, sc: Scope) -> None:
        self.typed(s.what, sc, "cards", "what is exhausted")

    def stmt_Fatigue(self, s, sc) -> None:
        self.typed(s.what, sc, "cards", "what is fatigued")

    stmt_Unfatigue = stmt_Fatigue

    def stmt_AddOp(self, s: ast.AddOp, sc: Scope) -> None:
        self.typed(s.amount, sc, "int", f"the amount to {s.op}")
        self.assignable(s.target, sc)

    def stmt_SetOp(self, s: ast.SetOp, sc: Scope) -> None:
        target = self.assignable(s.target, sc)
        if target:
            self.typed(s.value, sc, target, f"the new value of {s.target}")

    def assignable(self, target: ast.Path, sc: Scope) -> str | None:
        """The type of a stat, HP, event field or battle slot that may be changed."""
        t = self.expr(target, sc)
        head = target.parts[0]
        if head == "event":
            if not sc.would:
                self.error(
                    target,
                    "event fields can only be changed before the event "
                    "happens (in a `when would ...` trigger)",
                )
            return t
        last = target.parts[-1]
        stat = last in self.stats or sc.names.get(last) == "stat"
        if len(target.parts) >= 2 and (stat or last == "hp"):
            return t
        if self.record_field(target) is not None:
            return t
        self.error(
            target,
            f"'{target}' cannot be changed: only stats, HP, event fields "
            f"and the battle's record can",
        )
        return None

    def record_field(self, target: ast.Path) -> str | None:
        """The type of a field of the battle's record (`battle.victim`), or None."""
        if len(target.parts) != 2 or target.parts[0] != "battle":
            return None
        head, name = target.parts
        if name in CONTEXT_ATTRS[head]:
            return None  # what the engine says of it (`ongoing`), not a field
        return self.context_attrs[head].get(name)

    def kept_list(self, target: ast.Path, what: str) -> str | None:
        """The element type of a list a record or the game keeps (`battle.attack_team`,
        `game.victims`), which a program may add to; None, and an error, for
        anything else."""
        if len(target.parts) == 2 and target.parts[0] == "game":
            # a list the rules keep (`keep victims per phase`)
            kept = target.parts[1] in GAME_LISTS
            t = self.context_attrs["game"].get(target.parts[1]) if kept else None
        else:
            t = self.record_field(target)
        element = None if t is None else collection_of(t)
        if element is None:
            self.error(target, f"{what}: '{target}' is no list a record or the game "
                               f"keeps")
        return element

    def stmt_Append(self, s: ast.Append, sc: Scope) -> None:
        element = self.kept_list(s.target, "append")
        if element is not None:
            self.typed(s.what, sc, element, f"what is appended to {s.target}")

    def stmt_Form(self, s: ast.Form, sc: Scope) -> None:
        element = self.kept_list(s.target, "form")
        if element is not None:
            self.typed(s.what, sc, "cards", f"the candidates for {s.target}")
        self.typed(s.chooser, sc, "player", "who forms the list")
        if s.least is not None:
            self.typed(s.least, sc, "int", "the fewest members")
        if s.event is not None:
            self.ref(s, s.event, {**BUILTIN_EVENTS, **self.events}, "event")

    def stmt_Log(self, s: ast.Log, sc: Scope) -> None:
        if not self.ref(s, s.event, LOG_EVENTS, "event of the log"):
            return
        fields = LOG_EVENTS[s.event]
        if len(s.args) != len(fields):
            self.error(s, f"event '{s.event}' has {len(fields)} fields "
                          f"({', '.join(fields)}), given {len(s.args)}")
            return
        for (name, kind), a in zip(fields.items(), s.args, strict=True):
            if kind == "text":
                if a.text is None:
                    self.error(a, f"field '{name}' of '{s.event}' is a text, written "
                                  f"in quotes")
            elif a.value is None:
                self.error(a, f"field '{name}' of '{s.event}' is a {kind}, not a text")
            elif kind != "value":
                self.typed(a.value, sc, kind, f"field '{name}' of '{s.event}'")

    def stmt_EndFlow(self, s: ast.EndFlow, sc: Scope) -> None:
        if s.flow != "battle":
            self.error(s, f"`end {s.flow}`: only a battle (`end battle`) or the game "
                          f"(`end game`) ends so")
        elif not self.step_names:
            self.error(s, "`end battle` needs battle steps in the `battle` section")

    def stmt_Roll(self, s: ast.Roll, sc: Scope) -> dict:
        bound = {}
        for group in s.groups:
            self.typed(group.count, sc, "int", "how many dice to roll")
            self.bounded(group.count, "dice rolled at once")
            if group.who is not None:
                self.typed(group.who, sc, "player", "who rolls")
            if len(group.target.parts) == 1:
                bound[group.target.parts[0]] = "dice"
            elif self.record_field(group.target) != "dice":
                self.error(group.target, f"dice are rolled as a name or a record's "
                                         f"dice, not '{group.target}'")
        return bound

    def bounded(self, e: ast.Expr, what: str) -> None:
        """A count written as a number stays within what a game can play out (a
        rule that rolls or repeats a billion times never gives the turn back)."""
        if isinstance(e, ast.IntLit) and not 0 <= e.value <= MAX_WRITTEN_COUNT:
            self.error(e, f"{e.value} {what}: a written count must be from 0 to "
                          f"{MAX_WRITTEN_COUNT}")

    def stmt_Reroll(self, s, sc) -> None:
        self.typed(s.die, sc, "dice", "what is re-rolled")

    def counter_ref(self, node: ast.Node, name: str, sc: Scope) -> None:
        if sc.names.get(name) == "counter":
            return
        if name == ANY_COUNTER and not isinstance(node, ast.Place):
            return  # counters of any kind: taken off, counted, never placed
        self.ref(node, name, self.counters, "counter")

    def stmt_Place(self, s: ast.Place, sc: Scope) -> None:
        self.typed(s.count, sc, "int", "how many counters")
        self.counter_ref(s, s.counter, sc)
        self.typed(s.target, sc, "cards", "where counters go")

    stmt_Strip = stmt_Place

    def stmt_Pop(self, s: ast.Pop, sc: Scope) -> None:
        self.counter_ref(s, s.counter, sc)
        self.typed(s.target, sc, "card", "the counter's host")

    def stmt_Give(self, s: ast.Give, sc: Scope) -> None:
        self.typed(s.what, sc, "cards", "what changes controller")
        self.typed(s.player, sc, "player", "the new controller")

    def stmt_Reveal(self, s, sc) -> None:
        self.typed(s.what, sc, "cards", "what is revealed")

    def stmt_See(self, s: ast.See, sc: Scope) -> None:
        self.typed(s.what, sc, "cards", "what is seen")
        if s.who is not None:
            self.typed(s.who, sc, "player", "who sees")

    def stmt_Choose(self, s: ast.Choose, sc: Scope) -> dict:
        t = self.expr(s.what, sc)
        element = collection_of(t)
        if element is None and t != "any":
            self.error(s.what, f"choose needs a collection to choose from, not {t}")
        for bound in (s.count.lo, s.count.hi, s.count.n):
            if bound is not None:
                self.typed(bound, sc, "int", "how many to choose")
        if s.chooser is not None:
            self.typed(s.chooser, sc, "player", "who chooses")
        single = isinstance(s.count.n, ast.IntLit) and s.count.n.value == 1
        if single and element is not None:
            return {s.name: element}  # `choose exactly 1` names the one chosen
        return {s.name: "cards" if t == "zone" else t}

    def stmt_ChooseDie(self, s: ast.ChooseDie, sc: Scope) -> dict:
        self.typed(s.what, sc, "dice", "the dice to choose from")
        if s.chooser is not None:
            self.typed(s.chooser, sc, "player", "who chooses")
        for hole in re.findall(r"\{(\w+)\}", s.label):
            if hole != "value" and hole not in sc.names:
                self.error(s, f"the label names '{{{hole}}}', which is no name here "
                              f"(`{{value}}` is the die's)")
        return {s.name: "die"}

    def stmt_Drop(self, s: ast.Drop, sc: Scope) -> None:
        t = self.record_field(s.target)
        if t is None or collection_of(t) is None:
            self.error(s.target, f"drop: '{s.target}' is no list a record keeps")
        elif s.what is not None:
            self.typed(s.what, sc, collection_of(t) or t,
                       f"what is dropped from {s.target}")

    def stmt_Either(self, s: ast.Either, sc: Scope) -> None:
        if s.who is not None:
            self.typed(s.who, sc, "player", "who chooses")
        for option in s.options:
            self.block(option, sc)

    def stmt_ForEach(self, s: ast.ForEach, sc: Scope) -> None:
        t = self.expr(s.what, sc)
        element = collection_of(t)
        if element is None:
            if t != "any":
                self.error(s.what, f"for each needs a collection, not {t}")
            element = "any"
        if s.chooser is not None:
            self.typed(s.chooser, sc, "player", "who orders")
        self.block(s.body, sc.with_names(**{s.name: element}))

    def stmt_If(self, s: ast.If, sc: Scope) -> None:
        self.bool_expr(s.cond, sc)
        then, otherwise = self.narrowed(s.cond, sc)
        self.block(s.then, then)
        self.block(s.otherwise, otherwise)

    def narrowed(self, cond: ast.Expr, sc: Scope) -> tuple[Scope, Scope]:
        """The scopes of an `if`'s branches: where it asks whether a victim named
        bare is a player (`if target is player`), it is a player in the first and
        a card in the other; else both are the `if`'s own."""
        if (
            isinstance(cond, ast.Binary) and cond.op == "is"
            and isinstance(cond.left, ast.Path) and len(cond.left.parts) == 1
            and isinstance(cond.right, ast.Path) and cond.right.parts == ("player",)
            and sc.names.get(cond.left.parts[0]) == "victim"
        ):
            name = cond.left.parts[0]
            return (replace(sc, names={**sc.names, name: "player"}),
                    replace(sc, names={**sc.names, name: "card"}))
        return sc, sc

    def stmt_May(self, s: ast.May, sc: Scope) -> None:
        if s.who is not None:
            self.typed(s.who, sc, "player", "who decides")
        self.block(s.body, sc)

    def stmt_Emit(self, s: ast.Emit, sc: Scope) -> None:
        if self.ref(s, s.event, self.events, "event"):
            self.arguments(
                s, self.events[s.event].params, s.args, sc, f"event '{s.event}'"
            )

    def stmt_Shuffle(self, s, sc) -> None:
        self.typed(s.what, sc, "cards", "what is shuffled (in place)")

    def stmt_Let(self, s: ast.Let, sc: Scope) -> dict:
        return {s.name: self.expr(s.value, sc)}

    def stmt_Repeat(self, s: ast.Repeat, sc: Scope) -> None:
        self.typed(s.times, sc, "int", "how many times")
        self.bounded(s.times, "repeats")
        self.block(s.body, sc)

    def stmt_Prevent(self, s, sc) -> None:
        if not sc.would:
            self.error(
                s,
                "`prevent event` only works before the event happens "
                "(in a `when would ...` trigger)",
            )

    def stmt_Stop(self, s: ast.Stop, sc: Scope) -> None:
        self.bool_expr(s.cond, sc)
        if not any(s is top for top in self.phrase_top):
            self.error(
                s,
                "`stop` ends the ability a phrase is part of: it stands only at the "
                "top of a phrase's program",
            )

    def stmt_Negate(self, s, sc) -> None:
        self.typed(s.what, sc, "cards", "what is negated")

    def stmt_Skip(self, s: ast.Skip, sc: Scope) -> None:
        self.ref(s, s.step, self.step_names | self.phase_names, "battle step or phase")

    def stmt_Perform(self, s: ast.Perform, sc: Scope) -> None:
        if self.ref(s, s.action, self.actions, "action"):
            params = self.actions[s.action].params
            if len(s.args) > len(params):
                self.error(
                    s,
                    f"action '{s.action}' takes {len(params)} arguments, "
                    f"given {len(s.args)}",
                )
            for p, a in zip(params, s.args, strict=False):
                self.typed(a, sc, self.param_type(p), f"argument '{p.name}'")
        if s.who is not None:
            self.typed(s.who, sc, "player", "who acts")
        inline = self.rs.setting("chain", "deployed_spells_inline")
        if "inline" in s.mods and inline is None:
            self.error(s, f"`perform {s.action}(...) inline` resolves it inside the "
                          "ability that performs it, not as a link of the chain: the "
                          "chain section must say so (`deployed_spells inline`)")

    def stmt_CreatePawn(self, s: ast.CreatePawn, sc: Scope) -> dict:
        self.typed(s.zone, sc, "zone", "where the pawn appears")
        if s.source is not None:
            self.typed(s.source, sc, "card", "what the pawn copies")
        for value in s.printed:
            if value.stat != "ultra_points":
                self.ref(value, value.stat, self.stats, "stat")
            self.typed(value.value, sc, "int", f"the pawn's {value.stat}")
        return {s.name: "card"}

    def stmt_Mark(self, s: ast.Mark, sc: Scope) -> None:
        self.typed(s.what, sc, "cards", "what is marked")
        self.ref(s, s.tag, self.rs.tags, "tag")

    def stmt_Pick(self, s: ast.Pick, sc: Scope) -> dict:
        self.typed(s.lo, sc, "int", "the lowest number")
        self.typed(s.hi, sc, "int", "the highest number")
        if s.chooser is not None:
            self.typed(s.chooser, sc, "player", "who picks")
        return {s.name: "int"}

    def stmt_Pay(self, s: ast.Pay, sc: Scope) -> None:
        self.typed(s.amount, sc, "int", f"how many {s.kind} to pay")

    def stmt_Note(self, s: ast.Note, sc: Scope) -> None:
        if s.event in BUILTIN_EVENTS:
            fields = BUILTIN_EVENTS[s.event]
            if len(s.args) != len(fields):
                self.error(s, f"event '{s.event}' has {len(fields)} fields "
                              f"({', '.join(fields)}), given {len(s.args)}")
            for (name, kind), a in zip(fields.items(), s.args, strict=False):
                self.typed(a, sc, kind, f"field '{name}' of '{s.event}'")
        elif self.ref(s, s.event, self.events, "event"):
            self.arguments(s, self.events[s.event].params, s.args, sc,
                           f"event '{s.event}'")

    def stmt_Order(self, s: ast.Order, sc: Scope) -> None:
        t = self.record_field(s.target)
        if t is None or collection_of(t) is None:
            self.error(s.target, f"order: '{s.target}' is no list a record keeps")
        self.typed(s.chooser, sc, "player", "who orders the list")

    def stmt_Watch(self, s: ast.Watch, sc: Scope) -> None:
        self.typed(s.times, sc, "int", "how many times each")
        self.typed(s.keys, sc, "int", "for how many")
        inner = self.trigger(s.trigger, sc)
        self.expr(s.key, inner)
        self.block(s.body, inner)

    def stmt_After(self, s: ast.After, sc: Scope) -> None:
        if s.flow not in FLOWS:
            self.error(s, f"`after {s.flow}`: a program waits so only for a "
                          f"sub-flow ({', '.join(FLOWS)})")
        elif s.flow == "battle" and not self.step_names:
            self.error(s, "`after battle` needs battle steps in the `battle` section")
        self.block(s.body, sc)

    def stmt_Link(self, s: ast.Link, sc: Scope) -> None:
        if not self.rs.has_chain:
            self.error(s, "`link { ... }` puts a program on the chain, but the "
                          "edition has no chain rules")
        if s.rechecked and s.recheck is None:
            self.error(s, "`link rechecked` checks again the `requires` of the "
                          "action it is written in, where it reads the action's "
                          "parameters: this one is in no action with such a "
                          "`requires`")
        if s.recheck is not None:
            self.bool_expr(s.recheck, sc)
        if s.source is not None:
            self.typed(s.source, sc, "card", "the card a link is of")
        self.block(s.body, sc)

    def stmt_Begin(self, s: ast.Begin, sc: Scope) -> None:
        if s.flow != "battle":
            self.error(s, f"`begin {s.flow}`: only a battle is begun so (`begin "
                          f"battle with ...`); a chain begins as an ability resolves")
            return
        if not self.step_names:
            self.error(s, "`begin battle` needs battle steps in the `battle` section")
            return
        record = self.rs.battle_record
        fields = {f.name: f.type for f in (record.fields if record else ())}
        given: set[str] = set()
        for fv in s.fields:
            if fv.name not in fields:
                self.error(fv, f"the battle's record has no field '{fv.name}' "
                               f"(it declares {', '.join(fields) or 'none'})")
            elif fv.name in given:
                self.error(fv, f"`begin battle` sets '{fv.name}' twice")
            else:
                self.typed(fv.value, sc, fields[fv.name], f"the battle's {fv.name}")
            given.add(fv.name)
        if "attacker" not in given:
            self.error(s, "`begin battle` names its attacker (`begin battle with "
                          "attacker = you`): the battle's parts run as that player")

    def stmt_Banish(self, s, sc) -> None:
        self.typed(s.what, sc, "cards", "what is removed from the game")

    def stmt_EndGame(self, s, sc) -> None:
        return None

    def stmt_Reset(self, s: ast.Reset, sc: Scope) -> None:
        for st in s.stats:
            self.ref(s, st, self.stats, "stat")
        self.typed(s.what, sc, "cards", "what is reset")

    def stmt_Expire(self, s, sc) -> None:
        return None

    def stmt_Resolve(self, s, sc) -> None:
        t = self.expr(s.what, sc)
        if t not in ("card", "ability", "any"):
            self.error(
                s.what, f"type error: `resolve` takes a card or an ability, not {t}"
            )
        if s.then:
            self.block(s.then, sc)

    def stmt_Call(self, s: ast.Call, sc: Scope) -> None:
        if not self.ref(s, s.keyword, self.keywords, "keyword"):
            return
        sc.calls.add(s.keyword)
        self.arguments(
            s, self.keywords[s.keyword].params, s.args, sc, f"keyword '{s.keyword}'"
        )
        if s.who is not None:
            self.typed(s.who, sc, "player", "who the keyword runs as")

    def arguments(
        self, node: ast.Node, params: tuple, args: tuple, sc: Scope, what: str
    ) -> None:
        required = sum(not p.optional for p in params)
        if not required <= len(args) <= len(params):
            want = (
                str(len(params))
                if required == len(params)
                else f"{required}-{len(params)}"
            )
            self.error(node, f"{what} takes {want} arguments, given {len(args)}")
            return
        for p, a in zip(params, args, strict=False):
            self.typed(a, sc, self.param_type(p), f"argument '{p.name}' of {what}")

    def keyword_cycles(self) -> None:
        for name in self.keyword_calls:
            stack, seen = list(self.keyword_calls[name]), set()
            while stack:
                callee = stack.pop()
                if callee == name:
                    self.error(self.keywords[name], f"keyword '{name}' calls itself")
                    break
                if callee not in seen:
                    seen.add(callee)
                    stack.extend(self.keyword_calls.get(callee, ()))

    # --- expressions -------------------------------------------------------------

    def typed(self, e: ast.Expr, sc: Scope, wanted: str, what: str) -> str:
        if wanted == "stat" and isinstance(e, ast.Path) and len(e.parts) == 1:
            if sc.names.get(e.parts[0]) != "stat":
                self.ref(e, e.parts[0], self.stats, "stat")
            return "stat"
        t = self.expr(e, sc)
        if t != "any" and not accepts(wanted, t):
            self.error(e, f"type error: {what} must be {wanted}, not {t}")
        return t

    def bool_expr(self, e: ast.Expr, sc: Scope) -> None:
        self.typed(e, sc, "bool", "a condition")

    def expr(self, e: ast.Expr, sc: Scope) -> str:
        return getattr(self, f"expr_{type(e).__name__}")(e, sc)

    def expr_IntLit(self, e, sc) -> str:
        return "int"

    def expr_BoolLit(self, e, sc) -> str:
        return "bool"

    def expr_NoneLit(self, e, sc) -> str:
        return "none"

    def expr_Path(self, e: ast.Path, sc: Scope) -> str:
        head, *rest = e.parts
        if head not in sc.names:
            known = ", ".join(sorted(sc.names))
            self.error(e, f"unknown name '{head}' (known here: {known})"
                          + hint(head, sc.names))
            return "any"
        t = sc.names[head]
        for i, part in enumerate(rest):
            nxt = self.attribute(t, part, sc)
            if nxt is None:
                where = ".".join(e.parts[: i + 1])
                names = {*PLAYER_ATTRS, *CARD_ATTRS, *self.zones, *self.stats, "printed",
                         *(n for a in CONTEXT_ATTRS.values() for n in a),
                         *(sc.event_fields or {})}
                self.error(e, f"'{where}' ({t}) has no attribute '{part}'" + hint(
                    part, [n for n in names if self.attribute(t, n, sc)]))
                return "any"
            t = nxt
        return t

    def attribute(self, t: str, name: str, sc: Scope) -> str | None:
        if t == "any":
            return "any"
        if t == "event":
            return (sc.event_fields or {}).get(name)
        if t == "player":
            return PLAYER_ATTRS.get(name) or ("zone" if name in self.zones else None)
        if t == "players":
            if name in self.zones:
                return "cards"
            return {"hp": "ints"}.get(name)
        if t == "card":
            if name in self.stats or sc.names.get(name) == "stat":
                return "int"
            if name == "printed":
                return "printed"
            return CARD_ATTRS.get(name)
        if t == "printed":
            return "int" if name in self.stats or name == "ultra_points" else None
        if t in ("cards", "zone"):
            if name in self.stats or sc.names.get(name) == "stat":
                return "ints"
            return {"owner": "players", "controller": "players"}.get(name)
        return self.context_attrs.get(t, {}).get(name)

    def expr_Unary(self, e: ast.Unary, sc: Scope) -> str:
        self.bool_expr(e.operand, sc)
        return "bool"

    def expr_Binary(self, e: ast.Binary, sc: Scope) -> str:
        op = e.op
        if op in ("and", "or"):
            self.bool_expr(e.left, sc)
            self.bool_expr(e.right, sc)
            return "bool"
        if op == "is":
            return self.is_test(e, sc)
        left, right = self.expr(e.left, sc), self.expr(e.right, sc)
        if "any" in (left, right):
            return "bool" if op in ("==", "!=", "<", "<=", ">", ">=", "in") else "any"
        if op in ("==", "!="):
            if not (accepts(left, right) or accepts(right, left)):
                self.error(e, f"type error: cannot compare {left} with {right}")
            return "bool"
        if op in ("<", "<=", ">", ">="):
            self.need(e, left, right, "int", op)
            return "bool"
        if op == "in":
            # A single card or player on the right counts as a collection of one.
            element = collection_of(right) or (
                right if right in ("card", "player") else None
            )
            if element is None or not accepts(element, left):
                self.error(
                    e,
                    f"type error: `{left} in {right}` (right side must be a "
                    f"collection of {left})",
                )
            return "bool"
        if op == "+" and collection_of(left) and collection_of(right):
            if collection_of(left) != collection_of(right):
                self.error(e, f"type error: cannot join {left} and {right}")
            return "cards" if left in ("zone", "card") else left
        if op == "-" and collection_of(left) and accepts(left, right):
            return "cards" if left == "zone" else left
        self.need(e, left, right, "int", op)
        return "int"

    def need(self, e: ast.Binary, left: str, right: str, wanted: str, op: str) -> None:
        if left != wanted or right != wanted:
            self.error(
                e,
                f"type error: `{op}` needs {wanted} on both sides, "
                f"not {left} and {right}",
            )

    def is_test(self, e: ast.Binary, sc: Scope) -> str:
        left = self.expr(e.left, sc)
        if not (isinstance(e.right, ast.Path) and len(e.right.parts) == 1):
            self.error(e.right, "`is` needs a plain name on its right")
            return "bool"
        name = e.right.parts[0]
        choices = {
            "card": set(self.card_types) | {"pawn"},
            "victim": set(self.card_types) | {"player"},
            "phase": self.phase_names,
            "step": self.step_names,
            "ability": set(self.rs.modifiers),
            "counter": set(self.counters) | {"proactive", "reactive", "inert"},
            "cause": set(self.keywords) | set(self.actions),
        }.get(left)
        if choices is None:
            if left != "any":
                self.error(e, f"type error: `is` cannot test a {left}")
            return "bool"
        self.ref(e.right, name, choices, f"name for `{left} is`")
        return "bool"

    def expr_Filtered(self, e: ast.Filtered, sc: Scope) -> str:
        t = self.expr(e.base, sc)
        element = collection_of(t)
        if element is None:
            if t != "any":
                self.error(e, f"type error: `where` filters a collection, not {t}")
            return "any"
        self.bool_expr(e.cond, sc.with_names(**{ELEMENT_NAME[element]: element}))
        return "cards" if t == "zone" else t

    def expr_FuncCall(self, e: ast.FuncCall, sc: Scope) -> str:
        if e.func in self.terms:
            term = self.terms[e.func]
            if term.value is None:
                self.error(
                    e, f"term '{e.func}' names a language construct; it has no value"
                )
                return "any"
            self.arguments(e, term.params, e.args, sc, f"term '{e.func}'")
            return self.term_type(term)
        if e.func not in FUNCTIONS:
            names = set(FUNCTIONS) | set(self.terms)
            known = ", ".join(sorted(names))
            self.error(e, f"unknown function '{e.func}' (known: {known})"
                          + hint(e.func, names))
            return "any"
        params, result = FUNCTIONS[e.func]
        if len(e.args) != len(params):
            self.error(
                e, f"{e.func}() takes {len(params)} arguments, given {len(e.args)}"
            )
            return result
        for wanted, a in zip(params, e.args, strict=True):
            if wanted == "counter" and isinstance(a, ast.Path) and len(a.parts) == 1:
                self.counter_ref(a, a.parts[0], sc)
                continue
            if wanted == "tag" and isinstance(a, ast.Path) and len(a.parts) == 1:
                self.ref(a, a.parts[0], self.rs.tags, "tag")
                continue
            if wanted == "step" and isinstance(a, ast.Path) and len(a.parts) == 1:
                self.ref(a, a.parts[0], self.step_names | self.part_names,
                         "battle step or part")
                continue
            if wanted == "caveat" and isinstance(a, ast.Path) and len(a.parts) == 1:
                caveats = [p.name for p in self.rs.phrases if p.phrase_kind == "caveat"]
                self.ref(a, a.parts[0], caveats, "caveat")
                continue
            self.typed(a, sc, wanted, f"argument of {e.func}()")
        if e.func == "concat":
            return self.joined(e, sc)
        return result

    def joined(self, e: ast.FuncCall, sc: Scope) -> str:
        """The type of `concat(xs, ys)`: players and cards are victims; else the
        list that admits both."""
        a, b = (self.expr(x, sc) for x in e.args)
        elements = {collection_of(a), collection_of(b)}
        if elements <= {"player", "card", "victim"} and len(elements) > 1:
            return "victims"
        return _wider(a, b) or "any"


def _wider(a: str, b: str) -> str | None:
    """The type that admits both, for a field two events share; None if neither does."""
    if accepts(a, b):
        return a
    if accepts(b, a):
        return b
    return None


def _links(tree: object) -> list[ast.Link]:
    """The `link { ... }` statements of a program, at any depth (not inside one)."""
    if isinstance(tree, ast.Link):
        return [tree]
    if isinstance(tree, tuple):
        return [link for x in tree for link in _links(x)]
    if isinstance(tree, ast.Stmt):
        return [link for v in vars(tree).values() for link in _links(v)]
    return []
