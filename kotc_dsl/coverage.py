"""Which parts of an edition a set of cards puts to use, and which it leaves idle.

Starter decks exist so that games and tests exercise every keyword and counter
an edition defines. Given an edition and the readings of some cards, this module
says what those cards use:

- keywords: called by a phrase program the cards read as, or transitively by a
  keyword, a value term, an action performed or a counter's effect on the way;
- counters: placed, stripped, popped or referred to, a `[counter]` placeholder
  counting as the counter the card names there, and a `from_card` counter as
  used by a card that states the effect of a counter of its own;
- value terms (`enemy`, `on_field`...): referred to by those programs;
- activation modifiers (ghost-play, hex-play): given by a condition phrase read;
- glossary terms the language builds in (`Each`, `Target`, `It`...): their label
  printed in some card's ability text, in any case.

Only keywords and counters decide whether coverage is complete; the other kinds
are reported for the designer's information.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass

from . import ast
from .cards import CardDesign
from .legality import judge_card
from .phrasing import normalize
from .reading import AbilityReading, Reading
from .ruleset import Ruleset
from .types import FUNCTIONS

# The placeholder a phrase program uses for the counter a card names.
_COUNTER_HOLE = "counter"


@dataclass(frozen=True)
class Usage:
    """One kind of an edition's vocabulary: the names the cards use, those they
    leave unused, and of these the ones the rules' own flow uses all the same
    (`by_rules`: every game exercises them, so no card need)."""

    kind: str
    used: tuple[str, ...]
    unused: tuple[str, ...]
    by_rules: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return len(self.used) + len(self.unused)

    @property
    def idle(self) -> tuple[str, ...]:
        """The names no game exercises: unused by the cards and by the rules."""
        return tuple(n for n in self.unused if n not in self.by_rules)


@dataclass(frozen=True)
class Coverage:
    """What some cards use of one edition, kind by kind."""

    edition: str
    keywords: Usage
    counters: Usage
    value_terms: Usage
    modifiers: Usage
    builtin_terms: Usage

    @property
    def kinds(self) -> tuple[Usage, ...]:
        return (self.keywords, self.counters, self.value_terms, self.modifiers,
                self.builtin_terms)

    @property
    def complete(self) -> bool:
        """Whether every keyword and every counter is used, by the cards or by the
        rules' own flow."""
        return not self.keywords.idle and not self.counters.idle


def coverage(rs: Ruleset, readings: Iterable[AbilityReading]) -> Coverage:
    """What the cards read as `readings` use of the edition `rs`.

    Args:
        rs: the edition.
        readings: the abilities of the cards, as `reading.read_card` reads them.

    Returns:
        Used and unused names for keywords, counters, value terms, activation
        modifiers and built-in glossary terms, each in the edition's order.
    """
    walker = _Walker(rs)
    texts: list[str] = []
    modifiers: set[str] = set()
    for ability in readings:
        for r in _pieces(ability):
            texts.append(r.text.text)
            modifiers.update(r.phrase.modifiers)
            walker.visit(r.phrase, r.counter)
        for stated in ability.stated:  # a card's own counter is one of its template
            walker.counters.add(stated.template.name)
    walker.drain()
    terms = rs.terms
    value_terms = [n for n, t in terms.items() if t.value is not None]
    builtins = [n for n, t in terms.items() if t.builtin is not None]
    printed = {n for n in builtins if any(_mentions(terms[n].label, t) for t in texts)}
    rules = _rules_walk(rs)
    return Coverage(
        rs.name,
        _usage("keywords", rs.keywords, walker.keywords, rules.keywords),
        _usage("counters", rs.counters, walker.counters, rules.counters),
        _usage("value terms", value_terms, walker.terms, rules.terms),
        _usage("activation modifiers", rs.modifiers, modifiers),
        _usage("glossary terms", builtins, printed),
    )


def used_by_the_rules(rs: Ruleset) -> tuple[set[str], set[str]]:
    """The keywords and counters the rules' own flow calls, places or reads,
    whatever the cards: in the phases' and setup's programs, the actions and the
    battle's parts and the checks (damage kept as counters that combat places).
    Every game uses these; no card need."""
    rules = _rules_walk(rs)
    return rules.keywords, rules.counters


def _rules_walk(rs: Ruleset) -> _Walker:
    """What the rules' own flow uses (`used_by_the_rules`), value terms too."""
    rules = _Walker(rs)
    for phase in rs.phases:
        rules.visit(phase.run)
        for variant in phase.variants:
            rules.visit(variant.body)
    for program in (*rs.setup_steps, *rs.actions.values(), *rs.battle_parts.values(),
                    *rs.checks):
        rules.visit(program)
    rules.drain()
    return rules


def card_readings(cards: Iterable[CardDesign], rs: Ruleset) -> list[AbilityReading]:
    """Every ability of the cards, read as the edition reads them (refurbished)."""
    return [a for card in cards for a in judge_card(card, rs).readings]


def _usage(kind: str, names: Iterable[str], used: set[str],
           by_rules: Collection[str] = ()) -> Usage:
    names = list(names)
    unused = tuple(n for n in names if n not in used)
    return Usage(kind, tuple(n for n in names if n in used), unused,
                 tuple(n for n in unused if n in by_rules))


def _pieces(ability: AbilityReading) -> Iterator[Reading]:
    for r in (ability.condition, ability.cost):
        if r is not None:
            yield r
    for sub in ability.subs:
        if sub.target is not None:
            yield sub.target
        yield from sub.effects
    for stated in ability.stated:  # the effect a named counter's card states
        yield stated.effect


def _mentions(label: str, text: str) -> bool:
    """Whether a glossary label is printed in a text, as a word, in any inflection.

    >>> _mentions("Attack", "When an enemy on-field minion attacks:")
    True
    >>> _mentions("It", "Bounce the targets.")
    False
    >>> _mentions("Exactly [x] cards", "Target exactly 2 cards in play.")
    True
    """
    body = re.sub(r"\\\[(?:x|y|z)\\\]", r"\\d+", re.escape(normalize(label)))
    return re.search(rf"\b{body}(?:s|d|ed|es|ing)?\b", normalize(text),
                     re.IGNORECASE) is not None


class _Walker:
    """Follows programs through the rules they call, collecting what they use."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.keywords: set[str] = set()
        self.counters: set[str] = set()
        self.terms: set[str] = set()
        self.actions: set[str] = set()
        self.pending: list[ast.Node] = []

    def visit(self, node: ast.Node | tuple[ast.Node, ...],
              bound_counter: str | None = None) -> None:
        for n in _nodes(node):
            self.note(n, bound_counter)

    def drain(self) -> None:
        """Walk every rule reached so far, and those they reach in turn."""
        while self.pending:
            self.visit(self.pending.pop())

    def note(self, n: ast.Node, bound_counter: str | None) -> None:
        if isinstance(n, ast.Call):
            self.reach(self.keywords, n.keyword, self.rs.keywords)
        elif isinstance(n, (ast.Place, ast.Strip, ast.Pop)):
            name = bound_counter if n.counter == _COUNTER_HOLE else n.counter
            self.reach(self.counters, name, self.rs.counters)
        elif isinstance(n, ast.Perform):
            self.reach(self.actions, n.action, self.rs.actions)
        elif isinstance(n, ast.FuncCall):
            self.reach(self.terms, n.func, self.rs.terms)
            wanted = FUNCTIONS.get(n.func, ((),))[0]
            for kind, arg in zip(wanted, n.args, strict=False):
                if kind == "counter" and isinstance(arg, ast.Path):
                    name = arg.parts[0]
                    self.reach(self.counters,
                               bound_counter if name == _COUNTER_HOLE else name,
                               self.rs.counters)
        elif isinstance(n, ast.Binary) and n.op == "is" and isinstance(n.right, ast.Path):
            self.reach(self.counters, n.right.parts[0], self.rs.counters)

    def reach(self, seen: set[str], name: str | None,
              table: Mapping[str, ast.Node]) -> None:
        if name is None or name not in table or name in seen:
            return
        seen.add(name)
        self.pending.append(table[name])


def _nodes(node: object) -> Iterator[ast.Node]:
    """Every AST node inside `node` (itself included), depth first."""
    if isinstance(node, tuple):
        for item in node:
            yield from _nodes(item)
        return
    if not isinstance(node, ast.Node):
        return
    yield node
    for f in dataclasses.fields(node):
        if f.name not in ("origin", "cite"):
            yield from _nodes(getattr(node, f.name))
