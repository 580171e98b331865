"""Reading a card's printed abilities with an edition's phrases.

Each activation condition, cost and sentence must match one phrase of the
edition. How sentences make sub-abilities is the edition's data
(`sub_abilities`): where a target selection holds for the rest of the ability
(the 11th and 12th), a sentence that matches a target phrase starts a
sub-ability and the effect sentences after it act on its targets; where each
sentence designates its own targets (the 13th on), each sentence is one
sub-ability, and one that selects no targets runs the edition's program for
that instead (it has none). The edition's `clauses` part one sentence into its
target selection and its effects ("Target up to 1 on-field minion; destroy
it."). Where an edition prints conditions and costs as plain sentences at the
head of an ability (the 11th rulebook's "Activate when ..."), the leading
sentences are read as them when they match. The result tells the engine which
programs a card runs and with which numbers and counters.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable
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
class StatedCounter:
    """A named counter's effect, as the card that places it states it: the counter
    kind its counters are (`kind`, the card's own), the label printed ("fire
    counter"), the effect read, and the edition's `from_card` counter it is one
    of (`template`: how it is popped)."""

    kind: str
    label: str
    effect: Reading
    template: ast.Counter
    text: Text

    def rule(self) -> ast.Counter:
        """The counter kind as a rule: the template's, popped for the stated
        effect, with the numbers the card printed; the effect selects no targets,
        and `this` is the card the counter is on."""
        lets: list[ast.Stmt] = [
            ast.Let(name, ast.IntLit(value), origin=self.text.origin)
            for name, value in self.effect.numbers.items()]
        lets.append(ast.Let("targets", ast.NoneLit(), origin=self.text.origin))
        lets.append(ast.Let("this", ast.Path(("host",)), origin=self.text.origin))
        t = self.template
        return ast.Counter(ident=self.kind, label=self.label,
                           counter_kind=t.counter_kind, trigger=t.trigger,
                           from_card=True, body=(*lets, *self.effect.phrase.body),
                           cite=t.cite,
                           origin=self.text.origin)


@dataclass(frozen=True)
class AbilityReading:
    name: str | None
    condition: Reading | None
    cost: Reading | None
    subs: tuple[SubAbility, ...]
    # the named counters whose effect the ability's sentences state
    stated: tuple[StatedCounter, ...] = ()
    # a card's first paragraph, where an edition prints caveats: the caveats (then
    # it is no ability: nothing to activate)
    caveats: tuple[Reading, ...] = ()


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
    """Read every ability of a card; problems are located at the printed text.

    The named counters the card states the effect of (`StatedCounter`) are read
    first, so that its sentences may place them by the names it gives."""
    reader = _Reader(ruleset)
    stated = [reader.stated(card, a) for a in card.abilities]
    reader.know(s for ss in stated for s in ss)
    readings = []
    for i, (a, ss) in enumerate(zip(card.abilities, stated, strict=True)):
        caveats = reader.caveats(a) if i == 0 else ()
        readings.append(AbilityReading(a.name, None, None, (), caveats=caveats)
                        if caveats else reader.ability(a, ss))
    return readings, reader.problems


def card_caveats(card: CardDesign, ruleset: Ruleset) -> dict[str, int]:
    """The caveats a card is printed with, by the names of the edition's caveat
    phrases that read them, each with the number it prints for `[x]` (0 where its
    phrase has none)."""
    readings, _ = read_card(card, ruleset)
    return {c.phrase.name: c.numbers.get("x", 0) for r in readings for c in r.caveats}


def stated_counters(designs: Iterable[CardDesign],
                    ruleset: Ruleset) -> list[ast.Counter]:
    """The counter kinds the cards state the effects of, as counter rules (each
    card's its own), in the cards' order: what an edition with `from_card`
    counters plays with besides its own."""
    reader = _Reader(ruleset)
    found: dict[str, ast.Counter] = {}
    for card in designs:
        for a in card.abilities:
            for sc in reader.stated(card, a):
                found.setdefault(sc.kind, sc.rule())
    return list(found.values())


def with_stated_counters(ruleset: Ruleset, designs: Iterable[CardDesign]) -> Ruleset:
    """The ruleset with the counter kinds `designs` state (see `stated_counters`),
    or the ruleset itself where they state none."""
    extra = stated_counters(designs, ruleset)
    if not extra:
        return ruleset
    sections = dict(ruleset.sections)
    sections["counters"] = {**sections.get("counters", {}),
                            **{c.key: c for c in extra}}
    return dataclasses.replace(ruleset, sections=sections)


class _Reader:
    def __init__(self, ruleset: Ruleset):
        self.rs = ruleset
        self.problems: list[Unread] = []
        self.by_kind: dict[str, list[ast.Phrase]] = {}
        for p in ruleset.phrases:
            self.by_kind.setdefault(p.phrase_kind, []).append(p)
        # the counters a card's text may name: the edition's (but the `from_card`
        # ones, which stand for those a card names and states the effect of)
        own = [c for c in ruleset.counters.values() if not c.from_card]
        self.counter_names = {c.label.lower(): c.name for c in own}
        self.counter_labels = tuple(c.label for c in own)
        self.wording = wording(ruleset)
        self.untargeted = _untargeted(ruleset)
        clauses = ruleset.setting("phrases", "clauses")
        self.joiners = clauses.joiners if clauses else ()
        # the sentences that state a named counter's effect (see `stated`)
        self.statements: set[ast.Origin] = set()

    def stated(self, card: CardDesign, a: AbilityText) -> tuple[StatedCounter, ...]:
        """The named counters an ability's sentences state the effect of (a
        counter phrase's text), each effect read with the effect phrases."""
        found = []
        for sentence in a.sentences:
            for p in self.by_kind.get("counter", ()):
                m = match(p.text, sentence.text, (), self.wording)
                template = self.rs.counters.get(p.name)
                if m is None or template is None:
                    continue
                self.statements.add(sentence.origin)  # no effect of the ability
                name, _ = m.words["name"]
                effect, at = m.words["effect"]
                piece = sentence.part(at, at + len(effect))
                read = self.attempt_kinds(piece, ("effect",))
                if read is None:
                    self.problems.append(self.why_not(
                        piece, self.phrases_of(("effect",)), "effect"))
                    break
                # the name with the word the phrase prints after it ("counter")
                after = re.match(r"\s*([\w-]+)", p.text.split("[name]", 1)[1])
                label = f"{name} {after.group(1) if after else ''}".strip().lower()
                kind = f"{_slug(name)}_of_{_slug(card.name)}"
                found.append(StatedCounter(kind, label, read, template, sentence))
                break
        return tuple(found)

    def caveats(self, a: AbilityText) -> tuple[Reading, ...]:
        """The caveats of a card's first paragraph: read as caveat phrases when it
        is a paragraph of sentences alone (no name, condition or cost) whose first
        reads as one; then every sentence of it is a caveat, or unread."""
        if (a.name or a.condition or a.cost or not a.sentences
                or self.attempt(a.sentences[0], "caveat") is None):
            return ()
        read = [self.read(s, ("caveat",), "caveat") for s in a.sentences]
        return tuple(r for r in read if r is not None)

    def know(self, stated: Iterable[StatedCounter]) -> None:
        """Read the names of the card's stated counters as counters' names."""
        for s in stated:
            self.counter_names[s.label] = s.kind
            self.counter_labels += (s.label,)

    def ability(self, a: AbilityText,
                stated: tuple[StatedCounter, ...] = ()) -> AbilityReading:
        condition = self.read(a.condition, ("condition",), "activation condition")
        cost = self.read(a.cost, ("cost",), "activation cost")
        sentences = [s for s in a.sentences if s.origin not in self.statements]
        if a.condition is None and sentences:
            condition = self.attempt(sentences[0], "condition")
            sentences = sentences[condition is not None:]
        if a.cost is None and sentences:
            cost = self.attempt(sentences[0], "cost")
            sentences = sentences[cost is not None:]
        subs: list[SubAbility] = []
        for sentence in sentences:
            readings = self.sentence(sentence)
            if not readings:
                continue
            if self.untargeted is not None:  # the sentence is a sub-ability
                head, *rest = readings
                if head.phrase.phrase_kind == "target":
                    subs.append(SubAbility(head, tuple(rest)))
                else:
                    none = Reading(self.untargeted, {}, None, sentence)
                    subs.append(SubAbility(none, tuple(readings)))
                continue
            for reading in readings:  # a selection holds until the next one
                if reading.phrase.phrase_kind == "target":
                    subs.append(SubAbility(reading, ()))
                elif subs:
                    subs[-1] = SubAbility(subs[-1].target,
                                          subs[-1].effects + (reading,))
                else:
                    subs.append(SubAbility(None, (reading,)))
        return AbilityReading(a.name, condition, cost, tuple(subs), stated)

    def sentence(self, text: Text) -> list[Reading]:
        """A sentence read whole, or as clauses parted by the edition's `clauses`:
        a target selection or an effect first, effects after it. Nothing read when
        no parting reads every clause: each clause no phrase reads is reported
        (the whole sentence, if it has one clause or every clause reads alone)."""
        kinds = ("target", "effect")
        whole = self.attempt_kinds(text, kinds)
        if whole is not None:
            return [whole]
        cuts = self.cuts(text.text)
        parted = self.parted(text, cuts, 0, kinds)
        if parted is not None:
            return parted
        bounds = [0, *(i for c in cuts for i in c), len(text.text)]
        spans = [(a, b) for a, b in zip(bounds[::2], bounds[1::2], strict=True)]
        unread = [(a, b, kinds if a == 0 else ("effect",)) for a, b in spans
                  if self.clause(text, a, b, kinds if a == 0 else ("effect",)) is None]
        if len(spans) == 1 or not unread:
            unread = [(0, len(text.text), kinds)]
        for a, b, clause_kinds in unread:
            piece = text if (a, b) == (0, len(text.text)) else _trimmed(text, a, b)
            what = "effect" if clause_kinds == ("effect",) else "sentence"
            self.problems.append(self.why_not(piece, self.phrases_of(clause_kinds),
                                              what))
        return []

    def cuts(self, printed: str) -> list[tuple[int, int]]:
        """Where the edition's joiners stand in a sentence: (start, end) of each."""
        found = {(m.start(), m.end()) for j in self.joiners
                 for m in re.finditer(re.escape(j), printed)}
        return sorted(found)

    def parted(self, text: Text, cuts: list[tuple[int, int]], start: int,
               kinds: tuple[str, ...]) -> list[Reading] | None:
        """`text` from `start` on, as a clause of one of `kinds` and effect clauses
        after it, parted at joiners (the first parting that reads)."""
        for cut_start, cut_end in cuts:
            if cut_start <= start:
                continue
            first = self.clause(text, start, cut_start, kinds)
            if first is None:
                continue
            rest = self.clause(text, cut_end, len(text.text), ("effect",))
            after = [rest] if rest is not None else self.parted(
                text, cuts, cut_end, ("effect",))
            if after is not None:
                return [first, *after]
        return None

    def clause(self, text: Text, start: int, end: int,
               kinds: tuple[str, ...]) -> Reading | None:
        """The clause `text[start:end]` read as a sentence of its own (a clause
        before a joiner ends where the sentence would, with '.')."""
        piece = _trimmed(text, start, end)
        if not piece.text:
            return None
        if not piece.text.endswith("."):
            piece = Text(piece.text + ".", piece.origin, piece.raw)
        return self.attempt_kinds(piece, kinds)

    def phrases_of(self, kinds: tuple[str, ...]) -> list[ast.Phrase]:
        return [p for k in kinds for p in self.by_kind.get(k, ())]

    def attempt_kinds(self, text: Text, kinds: tuple[str, ...]) -> Reading | None:
        """A text read as a phrase of one of `kinds`, or None (nothing reported)."""
        for kind in kinds:
            found = self.attempt(text, kind)
            if found is not None:
                return found
        return None

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
        closest = _closest(text.text, phrases, self.wording)
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


def _slug(name: str) -> str:
    """A name as a rule's name: "Fire Imp" -> "fire_imp".

    >>> _slug("Old Man's Fire")
    'old_man_s_fire'
    """
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "card"


def _trimmed(text: Text, start: int, end: int) -> Text:
    """`text[start:end]` without the spaces around it, located where it is."""
    piece = text.text[start:end]
    start += len(piece) - len(piece.lstrip())
    end = start + len(piece.strip())
    return text.part(start, end)


def _untargeted(rs: Ruleset) -> ast.Phrase | None:
    """Where each sentence designates its own targets, what a sentence that
    selects none runs in place of a selection, as a target phrase of no printed
    text; None where a selection holds for the rest of the ability."""
    rule = rs.setting("phrases", "sub_abilities")
    if rule is None or not rule.own_targets:
        return None
    return ast.Phrase(ident="no_targets", phrase_kind="target", body=rule.body,
                      cite=rule.cite, origin=rule.origin)


def _closest(printed: str, phrases: list[ast.Phrase],
             wording: Wording) -> ast.Phrase | None:
    """The phrase most like a printed text, as printed or as the phrases write it
    ("it" for "the targets"), if any is close enough."""
    scored = [(difflib.SequenceMatcher(None, form, p.text).ratio(), -i, p)
              for form in dict.fromkeys((_as_template(printed),
                                         _as_template(printed, wording)))
              for i, p in enumerate(phrases)]
    best = max(scored, default=None, key=lambda x: x[:2])
    return best[2] if best is not None and best[0] >= 0.6 else None


def _as_template(text: str, wording: Wording | None = None) -> str:
    """A printed text as the phrases write it, to compare with them: numbers as
    placeholders, a text that stands for another (`wording.same`) as that one, a
    clause's first letter capitalised as a sentence's is.

    >>> _as_template("Draw 2 cards.")
    'Draw [x] cards.'
    >>> _as_template("petrify it.", Wording((("the targets", "it"),)))
    'Petrify the targets.'
    """
    text = re.sub(r"\b\d+\b", "[x]", text)
    for group in wording.same if wording else ():
        others = "|".join(re.escape(t) for t in group[1:])
        if others:
            text = re.sub(rf"\b(?:{others})\b(?!')", group[0], text,
                          flags=re.IGNORECASE)
    return text[:1].upper() + text[1:]
