"""Matching printed card text against text patterns from the rules.

Rule files write texts with placeholders: `[x]`, `[y]`, `[z]` (or a bare `x`,
`y`, `z` word, as the later rulebooks print them) for numbers, `[counter]`
for a counter's printed name, and, where a card states a named counter's
effect, `[name]` for the name it gives and `[effect]` for the effect's text.
Which printed texts stand for one another ("it" for "the targets", as the
12th's "It" allows) and how listed texts are found (in any case, inside longer
words) is each edition's data, handed here as a `Wording`. A card prints "1
card" where the template says "[x] cards", so the noun after a number may drop
its plural "s"; a phrase is read in any case, as a sentence's first word is
capitalised and the same word inside one is not.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

_NUMBER_HOLE = re.compile(r"\[(x|y|z)\]|\b(x|y|z)\b")
_COUNTER_HOLE = "[counter]"
# Holes for printed words: a name a card gives (a word or a few), and the rest of
# the text (an effect a card states, to be read with the effect phrases).
_WORD_HOLES = {"[name]": "name", "[effect]": "effect"}
_WORD_PATTERNS = {"name": r"(?P<name>[A-Za-z][A-Za-z'-]*(?: [A-Za-z][A-Za-z'-]*){0,2}?)",
                  "effect": r"(?P<effect>\S.*)"}
# Pass as `counters` to accept any capitalised "... Counter" name.
ANY_COUNTER = ("<any counter>",)
# The first plural-looking word after a number: "cards", "minions", "resources".
_PLURAL = re.compile(r"\b(?!(?:this|its|is|was|has|his|as|us)\b)([A-Za-z][A-Za-z-]+?)s\b")


@dataclass(frozen=True)
class Wording:
    """How an edition matches texts: groups of texts that stand for one another
    (each group's first is the one the rules write), and, for the texts its
    legality lists name, whether case is ignored and whether a text may be found
    inside a longer word ("in-play card" in "in-play cards")."""

    same: tuple[tuple[str, ...], ...] = ()
    ignoring_case: bool = False
    inside_words: bool = False


PLAIN = Wording()


@dataclass(frozen=True)
class Match:
    """The values a text's placeholders took: numbers by name, the counter's name,
    and the printed words of `[name]` and `[effect]`, each with where it starts in
    the (normalized) text."""

    numbers: dict[str, int]
    counter: str | None = None
    words: dict[str, tuple[str, int]] = field(default_factory=dict)


def normalize(text: str) -> str:
    """Collapse whitespace and print arrows one way, so layout never matters."""
    text = text.replace("->", "→")
    return re.sub(r"\s+", " ", text).strip()


@functools.lru_cache(maxsize=4096)
def _pattern(template: str, counters: tuple[str, ...], whole: bool,
             wording: Wording = PLAIN, ignoring_case: bool = True) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    template = normalize(template)
    tokens = list(_NUMBER_HOLE.finditer(template))
    counter_at = template.find(_COUNTER_HOLE)
    cuts = [(m.start(), m.end(), m.group(1) or m.group(2)) for m in tokens]
    if counter_at >= 0:
        cuts.append((counter_at, counter_at + len(_COUNTER_HOLE), "counter"))
    for hole, name in _WORD_HOLES.items():
        at = template.find(hole)
        if at >= 0:
            cuts.append((at, at + len(hole), name))
    after_number = False
    for start, end, name in sorted(cuts):
        parts.append(_literal(template[pos:start], after_number, wording.same))
        after_number = name not in ("counter", *_WORD_PATTERNS)
        if name in _WORD_PATTERNS:
            parts.append(_WORD_PATTERNS[name])
        elif name == "counter" and counters == ANY_COUNTER:
            parts.append(r"(?P<counter>(?:[A-Z][\w-]* )+Counter)s?")
        elif name == "counter":
            longest_first = sorted(counters, key=len, reverse=True)
            names = "|".join(re.escape(c) for c in longest_first)
            parts.append(rf"(?P<counter>{names or '(?!)'})s?")
        else:
            parts.append(rf"(?P<{name}>\d+)")
        pos = end
    parts.append(_literal(template[pos:], after_number, wording.same))
    body = "".join(parts)
    if whole:
        body = rf"^{body}$"
    elif not wording.inside_words:
        # a listed text found only as whole words: no letter just before or after
        body = rf"(?<![A-Za-z]){body}(?![A-Za-z])"
    return re.compile(body, re.IGNORECASE if ignoring_case else 0)


def _same_text(same: tuple[tuple[str, ...], ...]) -> re.Pattern[str] | None:
    """A pattern finding any text of the groups that stand for one another."""
    texts = sorted({t for group in same for t in group}, key=len, reverse=True)
    if not texts:
        return None
    return re.compile("|".join(rf"\b{re.escape(t)}\b(?!')" for t in texts),
                      re.IGNORECASE)


def _literal(text: str, after_number: bool = False,
             same: tuple[tuple[str, ...], ...] = ()) -> str:
    """Escape literal text; let the texts of a group of `same` stand for one
    another, and (after a number) the first plural noun stand for its singular too.

    >>> bool(re.fullmatch(_literal(" cards.", True), " card."))
    True
    >>> bool(re.fullmatch(_literal("Bounce the targets.", False,
    ...                            (("the targets", "it"),)), "Bounce it."))
    True
    """
    plural = _PLURAL.search(text) if after_number else None
    cut = plural.end(1) if plural else -1
    out, pos = [], 0
    finder = _same_text(same)
    for m in finder.finditer(text) if finder else ():
        group = next(g for g in same if m.group(0).lower() in (t.lower() for t in g))
        out.append(_escape(text[pos:m.start()], cut - pos))
        out.append("(?:" + "|".join(re.escape(t) for t in group) + ")")
        pos = m.end()
    out.append(_escape(text[pos:], cut - pos))
    return "".join(out)


def _escape(text: str, optional_s_at: int) -> str:
    """Escape text, making the "s" at one position (if inside it) optional."""
    if not 0 <= optional_s_at < len(text):
        return re.escape(text)
    head, tail = text[:optional_s_at], text[optional_s_at + 1:]
    return f"{re.escape(head)}s?{re.escape(tail)}"


def match(template: str, text: str, counters: tuple[str, ...] = (),
          wording: Wording = PLAIN) -> Match | None:
    """Match a whole printed text against a phrase's template, in any case."""
    m = _pattern(template, counters, True, wording).match(normalize(text))
    return _found(m)


def search(template: str, text: str, wording: Wording = PLAIN) -> Match | None:
    """Find a listed text inside a printed text (legality lists), as the edition's
    wording says texts are found."""
    m = _pattern(template, (), False, wording, wording.ignoring_case).search(
        normalize(text))
    return _found(m)


def substitute(old: str, new: str, text: str, wording: Wording = PLAIN) -> str:
    """Replace every occurrence of the `old` template in `text` with `new`, carrying
    the numbers across. A noun the old text has too keeps the number the card
    printed it in; another noun after a 1 is made singular.

    >>> substitute("x of your resources", "x cards in your granary",
    ...            "Target up to 1 of your resources.")
    'Target up to 1 card in your granary.'
    >>> anycase = Wording(ignoring_case=True)
    >>> substitute("summon x level y pawns", "craft x level y pawns",
    ...            "Summon 2 level 1 pawns.", anycase)
    'Craft 2 level 1 pawns.'
    >>> substitute("summon x level y pawns", "craft x level y pawns",
    ...            "Summon 1 level 3 pawn.", anycase)
    'Craft 1 level 3 pawn.'
    """
    pattern = _pattern(old, (), False, wording, wording.ignoring_case)
    old_words = set(re.findall(r"[A-Za-z][A-Za-z-]*", normalize(old).lower()))

    def repl(m: re.Match[str]) -> str:
        found = {k: v for k, v in m.groupdict().items() if v is not None}
        printed = m.group(0).lower()
        out: list[str] = []
        pos = 0
        template = normalize(new)

        def after_one(part: str) -> str:
            return _singular(part, old_words) if out and out[-1] == "1" else part

        for h in _NUMBER_HOLE.finditer(template):
            value = found.get(h.group(1) or h.group(2), h.group(0))
            out.append(after_one(template[pos:h.start()]))
            out.append(value)
            pos = h.end()
        out.append(after_one(template[pos:]))
        done = _as_printed("".join(out), old_words, printed)
        # a text matched with its first letter capitalised (a sentence's start)
        # keeps it so
        if m.group(0)[:1].isupper() and done[:1].islower():
            done = done[0].upper() + done[1:]
        return done

    return pattern.sub(repl, normalize(text))


def _singular(text: str, old_words: set[str]) -> str:
    """The text after a 1 with its first plural noun made singular; "1 of your
    cards" keeps its plural, and so does a noun the old text has too (it keeps the
    number the card printed it in: `_as_printed`)."""
    if text.lstrip().startswith("of "):
        return text

    def one(m: re.Match[str]) -> str:
        return m.group(0) if m.group(0).lower() in old_words else m.group(1)

    return _PLURAL.sub(one, text, count=1)


def _as_printed(text: str, old_words: set[str], printed: str) -> str:
    """`text` with each plural noun that the old text has too made singular where
    the card printed it singular ("summon 1 level 3 pawn")."""

    def one(m: re.Match[str]) -> str:
        plural = m.group(0)
        singular = re.search(rf"\b{re.escape(m.group(1).lower())}\b", printed)
        if plural.lower() in old_words and singular and plural.lower() not in printed:
            return m.group(1)
        return plural

    return _PLURAL.sub(one, text)


def _found(m: re.Match[str] | None) -> Match | None:
    if m is None:
        return None
    groups = {k: v for k, v in m.groupdict().items() if v is not None}
    counter = groups.pop("counter", None)
    words = {k: (groups.pop(k), m.start(k)) for k in _WORD_PATTERNS if k in groups}
    return Match({k: int(v) for k, v in groups.items()}, counter, words)
