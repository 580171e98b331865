"""Reading a card's printed abilities with an edition's phrases.

Each activation condition, cost and sentence must match one phrase of the
edition; a sentence that matches a target phrase starts a sub-ability, and the
effect sentences after it act on its targets. Where an edition prints conditions
and costs as plain sentences at the head of an ability (the 11th rulebook's
"Activate when ..."), the leading sentences are read as them when they match.
The result tells the engine which programs a card runs and with which numbers
and counters.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from . import ast
from .cards import AbilityText, CardDesign, Text
from .errors import Diagnostic
from .phrasing import ANY_COUNTER, Match, Wording, match
from .ruleset import Ruleset


@dataclass(frozen=True)
class Reading:
    """A printed piece read as a phrase, with its numbers and its counter."""

    phrase: ast.Phrase
    numbers: dict[str, int]
    counter: str | None
    text: Text


@dataclass(frozen=True, order=True)
class Unread(Diagnostic):
    """A printed part no rule of the edition reads: where, why, the text itself,
    and the edition's closest phrase (with its citation), if any is close."""

    text: str = ""
    closest: ast.Phrase | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SubAbility:
    target: Reading | None
    effects: tuple[Reading, ...]


@dataclass(frozen=True)
class AbilityReading:
    name: str | None
    condition: Reading | None
    cost: Reading | None
    subs: tuple[SubAbility, ...]


def wording(rs: Ruleset) -> Wording:
    """How the edition matches texts: its `reads ... as` rules (phrases) and how
    its legality lists find their texts (`texts_match`)."""
    groups: dict[str, list[str]] = {}
    for r in rs.rules("phrases"):
        if isinstance(r, ast.SameText):  # all that stand for one text stand together
            groups.setdefault(r.text, [r.text]).extend(r.others)
    same = tuple(tuple(dict.fromkeys(g)) for g in groups.values())
    found = rs.setting("legality", "texts_match")
    options = found.options if found else ()
    return Wording(same, "ignoring_case" in options, "inside_words" in options)


def read_card(card: CardDesign, ruleset: Ruleset) -> tuple[list[AbilityReading],
                                                          list[Unread]]:
    """Read every ability of a card; problems are located at the printed text."""
    reader = _Reader(ruleset)
    readings = [reader.ability(a) for a in card.abilities]
    return readings, reader.problems


class _Reader:
    def __init__(self, ruleset: Ruleset):
        self.rs = ruleset
        self.problems: list[Unread] = []
        self.by_kind: dict[str, list[ast.Phrase]] = {}
        for p in ruleset.phrases:
            self.by_kind.setdefault(p.phrase_kind, []).append(p)
        self.counter_names = {c.label.lower(): c.name for c in ruleset.counters.values()}
        self.counter_labels = tuple(c.label for c in ruleset.counters.values())
        self.wording = wording(ruleset)

    def ability(self, a: AbilityText) -> AbilityReading:
        condition = self.read(a.condition, ("condition",), "activation condition")
        cost = self.read(a.cost, ("cost",), "activation cost")
        sentences = list(a.sentences)
        if a.condition is None and sentences:
            condition = self.attempt(sentences[0], "condition")
            sentences = sentences[condition is not None:]
        if a.cost is None and sentences:
            cost = self.attempt(sentences[0], "cost")
            sentences = sentences[cost is not None:]
        subs: list[SubAbility] = []
        for sentence in sentences:
            reading = self.read(sentence, ("target", "effect"), "sentence")
            if reading is None:
                continue
            if reading.phrase.phrase_kind == "target":
                subs.append(SubAbility(reading, ()))
            elif subs:
                subs[-1] = SubAbility(subs[-1].target, subs[-1].effects + (reading,))
            else:
                subs.append(SubAbility(None, (reading,)))
        return AbilityReading(a.name, condition, cost, tuple(subs))

    def attempt(self, text: Text, kind: str) -> Reading | None:
        """A sentence read as a condition or cost phrase, or None (nothing reported)."""
        for p in self.by_kind.get(kind, ()):
            found = match(p.text, text.text, self.counter_labels, self.wording)
            if found is not None:
                return self.reading(p, found, text)
        return None

    def read(self, text: Text | None, kinds: tuple[str, ...],
             what: str) -> Reading | None:
        if text is None:
            return None
        phrases = [p for k in kinds for p in self.by_kind.get(k, ())]
        for p in phrases:
            found = match(p.text, text.text, self.counter_labels, self.wording)
            if found is not None:
                return self.reading(p, found, text)
        self.problems.append(self.why_not(text, phrases, what))
        return None

    def reading(self, p: ast.Phrase, found: Match, text: Text) -> Reading:
        counter = self.counter_names.get(found.counter.lower()) if found.counter else None
        return Reading(p, found.numbers, counter, text)

    def why_not(self, text: Text, phrases: list[ast.Phrase], what: str) -> Unread:
        """The unread piece: why no phrase reads it, and the closest phrase."""
        close = difflib.get_close_matches(_as_template(text.text),
                                          [p.text for p in phrases], n=1, cutoff=0.6)
        closest = next((p for p in phrases if close and p.text == close[0]), None)
        why = f"no {what} phrase of the {self.rs.name} edition reads it"
        for p in phrases:
            found = match(p.text, text.text, ANY_COUNTER, self.wording)
            if found is not None and found.counter:
                known = ", ".join(sorted(self.counter_labels)) or "none"
                why = (f"the {self.rs.name} edition has no {found.counter} (its "
                       f"counters: {known})")
                closest = p
                break
        message = f"\"{text.text}\": {why}"
        if closest is not None:
            cite = f" [{closest.cite}]" if closest.cite else ""
            message += f"; closest: \"{closest.text}\"{cite}"
        return Unread(text.origin, message, text.text, closest)


def _as_template(text: str) -> str:
    """A printed text with its numbers as placeholders, to compare with phrases.

    >>> _as_template("Draw 2 cards.")
    'Draw [x] cards.'
    """
    return re.sub(r"\b\d+\b", "[x]", text)
