"""Card designs and decks as plain data, read from `.kcard` and `.kdeck` files.

A card keeps its printed text (each condition, cost and sentence, located), so
legality can match the rulebooks' exact texts and `reading.py` can read it with
an edition's phrases. Nothing here depends on an edition: that is `legality.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from textx import TextXError, get_location

from .ast import Origin
from .errors import Diagnostic, RulesetError
from .language import parse_other
from .limits import DEFAULT_LIMITS
from .load import SUFFIX, find_edition
from .phrasing import normalize
from .shipped import deck_file
from .suggest import syntax_hint


@dataclass(frozen=True)
class Text:
    """One printed piece of an ability: a condition, a cost or a sentence; `raw`
    is the text as written (its layout), where `text` is spaced as the phrase
    tables are."""

    text: str
    origin: Origin
    raw: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        return self.text

    def part(self, start: int, end: int) -> Text:
        r"""The piece `text[start:end]`, located where it is written.

        >>> t = Text("Target it; destroy it.", Origin("c.kcard", 3, 5),
        ...          "Target it;\n  destroy it.")
        >>> str(t.part(11, 22).origin)
        'c.kcard:4:3'
        """
        at = _raw_offsets(self.raw)[start] if self.raw else start
        before = self.raw[:at] if self.raw else ""
        line = self.origin.line + before.count("\n")
        col = at - before.rfind("\n") if "\n" in before else self.origin.col + at
        return Text(self.text[start:end], Origin(self.origin.file, line, col),
                    self.raw[at:] if self.raw else "")


def _raw_offsets(raw: str) -> list[int]:
    """For each character of `normalize(raw)`, where it is in `raw`: runs of
    whitespace are one space, an arrow `->` one `→`, the ends stripped."""
    out: list[int] = []
    i = 0
    while i < len(raw):
        if raw[i].isspace():
            j = i
            while j < len(raw) and raw[j].isspace():
                j += 1
            if out and j < len(raw):
                out.append(i)
            i = j
            continue
        out.append(i)
        i += 2 if raw.startswith("->", i) else 1
    return out


@dataclass(frozen=True)
class AbilityText:
    name: str | None
    condition: Text | None
    cost: Text | None
    sentences: tuple[Text, ...]
    origin: Origin

    @property
    def pieces(self) -> tuple[Text, ...]:
        head = tuple(t for t in (self.condition, self.cost) if t is not None)
        return head + self.sentences

    @property
    def text(self) -> str:
        return " ".join(t.text for t in self.pieces)


@dataclass(frozen=True)
class StatValue:
    stat: str
    value: int
    origin: Origin


@dataclass(frozen=True)
class CardDesign:
    """A card as designed: type, Edition Indicator, printed stats, abilities."""

    name: str
    type: str
    design_edition: int | None
    stats: tuple[StatValue, ...]
    abilities: tuple[AbilityText, ...]
    flavor: str | None
    origin: Origin

    def stat(self, name: str) -> int | None:
        return next((s.value for s in self.stats if s.stat == name), None)

    @cached_property
    def printed(self) -> dict[str, int]:
        """The printed stats by name, made once: each card of the design copies it."""
        return {s.stat: s.value for s in self.stats}

    @property
    def text(self) -> str:
        """The whole ability text, as legality lists are matched against it."""
        return " ".join(a.text for a in self.abilities)


@dataclass(frozen=True)
class Entry:
    count: int
    name: str
    origin: Origin


@dataclass(frozen=True)
class Pile:
    """A named pile of a deck list, set apart from its main cards (the reserves)."""

    name: str
    entries: tuple[Entry, ...]
    origin: Origin


@dataclass(frozen=True)
class DeckList:
    """A deck file: its edition, its card files, and how many of each card, in its
    main part and in each named pile."""

    name: str
    edition: str
    card_files: tuple[str, ...]
    entries: tuple[Entry, ...]
    piles: tuple[Pile, ...]
    origin: Origin
    path: str

    @property
    def set_aside(self) -> tuple[Entry, ...]:
        """The entries of every pile, pile by pile."""
        return tuple(e for p in self.piles for e in p.entries)

    @property
    def all_entries(self) -> tuple[Entry, ...]:
        """The main entries, then every pile's."""
        return self.entries + self.set_aside


# More copies of one card than any deck holds: a count past it is a mistake, refused
# before anything is made of it (a game of 10^14 cards would exhaust memory).
MAX_COPIES = 1000
# The largest printed stat: far past any card, far below a roll of dice or a
# count that exhausts memory (`sp 1000000000000` is refused where it is written;
# the engine holds stats computed in play to the same bound: `kotc.dsl.limits`).
MAX_STAT_VALUE = DEFAULT_LIMITS["stat_value"][0]


def _origin(obj, path: str) -> Origin:
    loc = get_location(obj)
    return Origin(path, loc["line"], loc["col"])


def _spans_lines(name: str) -> bool:
    """Whether a name read from a file holds a line break (printed, it could pass
    for a line of kotc's own)."""
    return "\n" in name or "\r" in name


def file_problem(path: Path, near: str) -> str | None:
    """Why `path` is not a file to read (`not found beside <near>`, or the system's
    reason), or None: `Path.is_file` raises for a name the system refuses, such as
    one too long, where it should say no."""
    try:
        return None if path.is_file() else f"not found beside {near}"
    except OSError as err:
        return f"cannot be read: {err.strerror or err}"


def _parse(kind: str, path: Path):
    try:
        data = path.read_bytes()
    except OSError as err:
        problem = Diagnostic(Origin(str(path), 1, 1),
                             f"cannot read {kind} file: {err.strerror}")
        raise RulesetError([problem]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        # Point at the first byte that is not UTF-8, counting lines and characters.
        before = data[:err.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        problem = Diagnostic(Origin(str(path), line, col),
                             f"cannot read {kind} file: byte 0x{data[err.start]:02x} "
                             f"is not UTF-8")
        raise RulesetError([problem]) from None
    try:
        return parse_other(kind, text, str(path))
    except TextXError as err:
        message = _plain(str(getattr(err, "message", err)).split(" => ")[0])
        origin = Origin(str(path), err.line or 1, err.col or 1)
        message += syntax_hint(text, origin.line, origin.col, message)
        raise RulesetError([Diagnostic(origin, f"syntax error: {message}")]) from None


# The card grammar's patterns for the printed pieces of an ability, in words.
_PIECES = {
    r"'[^{}.:→]*:'": "an activation condition (ending in ':')",
    r"'[^{}.:→]*?(→|->)'": "an activation cost (ending in '→')",
    r"'[^{}.:→]+\.'": "a sentence (ending in '.')",
}


def _plain(message: str) -> str:
    """A parser message with the grammar's text patterns named for people."""
    for pattern, words in _PIECES.items():
        message = message.replace(pattern, words)
    return message


def printed_text(obj, path: str) -> Text | None:
    """A printed text of a parsed card (a sentence, a condition, a cost), spaced
    as the phrase tables are, with where it is written; None for none."""
    if obj is None:
        return None
    return Text(normalize(obj.text), _origin(obj, path), obj.text)


def load_cards(path: str | Path) -> list[CardDesign]:
    """Read a card file.

    Raises:
        RulesetError: on a syntax error, a card named twice, a stat given twice.
    """
    path = Path(path)
    model = _parse("card", path)
    problems: list[Diagnostic] = []
    cards: list[CardDesign] = []
    seen: set[str] = set()
    for c in model.cards:
        origin = _origin(c, str(path))
        if _spans_lines(c.name):
            problems.append(Diagnostic(origin, f"a card's name is one line, not "
                                               f"{c.name.count(chr(10)) + 1}"))
        if c.name in seen:
            problems.append(Diagnostic(origin, f"card '{c.name}' is defined twice"))
        seen.add(c.name)
        stats, editions, abilities, flavor = [], [], [], None
        for part in c.parts:
            kind = type(part).__name__
            if kind == "Indicator":
                editions.append(part.edition)
            elif kind == "Flavor":
                flavor = part.text
            elif kind == "StatValue":
                if any(s.stat == part.stat for s in stats):
                    problems.append(Diagnostic(_origin(part, str(path)),
                                               f"card '{c.name}' gives {part.stat} "
                                               f"twice"))
                if abs(part.value) > MAX_STAT_VALUE:
                    problems.append(Diagnostic(_origin(part, str(path)), (
                        f"card '{c.name}': {part.stat} {part.value} is past the "
                        f"largest stat a card may print ({MAX_STAT_VALUE:,})")))
                stats.append(StatValue(part.stat, part.value, _origin(part, str(path))))
            else:
                abilities.append(AbilityText(
                    part.name or None, printed_text(part.condition, str(path)),
                    printed_text(part.cost, str(path)),
                    tuple(printed_text(s, str(path)) for s in part.sentences),
                    _origin(part, str(path))))
        if len(editions) > 1:
            problems.append(Diagnostic(origin,
                                       f"card '{c.name}' has two Edition Indicators"))
        cards.append(CardDesign(c.name, c.type, editions[0] if editions else None,
                                tuple(stats), tuple(abilities), flavor, origin))
    if problems:
        raise RulesetError(problems)
    return cards


def deck_edition_file(deck: DeckList) -> Path | None:
    """The rule file of the edition a deck names, found as its card files are:
    beside the deck first (a `.kotc` path relative to it, or an edition named by a
    file there), then among the shipped editions; None when there is none.

    A name is never a path: `edition "../../etc/hostname"` names no edition.
    """
    here = Path(deck.path).parent
    if deck.edition.endswith(SUFFIX):
        candidate = here / deck.edition
        return candidate if file_problem(candidate, "") is None else None
    return find_edition(deck.edition, here)


def load_deck(path: str | Path) -> tuple[DeckList, dict[str, CardDesign]]:
    """Read a deck file (or a shipped starter deck named `EDITION/DECK`, see
    `shipped.deck_file`) and the card files it names (relative to it).

    Raises:
        RulesetError: for syntax errors, missing card files, unknown card names,
            counts below 1 or above `MAX_COPIES`.
    """
    path = deck_file(path)
    model = _parse("deck", path).deck
    entry = lambda e: Entry(e.count, e.name, _origin(e, str(path)))  # noqa: E731
    piles = tuple(Pile(p.name, tuple(map(entry, p.entries)), _origin(p, str(path)))
                  for p in model.piles)
    deck = DeckList(model.name, model.edition, tuple(model.files),
                    tuple(map(entry, model.entries)), piles,
                    _origin(model, str(path)), str(path))
    problems: list[Diagnostic] = [
        Diagnostic(where, "a name is one line: this one spans several")
        for name, where in [(deck.name, deck.origin)]
        + [(e.name, e.origin) for e in deck.all_entries]
        if _spans_lines(name)]
    seen: set[str] = set()
    for p in piles:
        if p.name in seen:
            problems.append(Diagnostic(p.origin, f"the pile '{p.name}' is listed twice; "
                                                 f"list its cards in one"))
        seen.add(p.name)
    cards: dict[str, CardDesign] = {}
    for name in deck.card_files:
        card_path = path.parent / name
        problem = file_problem(card_path, "the deck")
        if problem:
            problems.append(Diagnostic(deck.origin, f"card file '{name}' {problem}"))
            continue
        try:
            for card in load_cards(card_path):
                cards.setdefault(card.name, card)
        except RulesetError as err:
            problems.extend(err.diagnostics)
    for e in deck.all_entries:
        if e.name not in cards and not problems:
            problems.append(Diagnostic(e.origin, f"no card named '{e.name}' in "
                                                 f"{', '.join(deck.card_files)}"))
        if not 1 <= e.count <= MAX_COPIES:
            problems.append(Diagnostic(e.origin, f"'{e.name}': a count must be from 1 "
                                                 f"to {MAX_COPIES}, not {e.count}"))
    if problems:
        raise RulesetError(problems)
    return deck, cards
