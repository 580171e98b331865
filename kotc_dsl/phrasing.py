"""Matching printed card text against text patterns from the rules.

Rule files write texts with placeholders: `[x]`, `[y]`, `[z]` (or a bare `x`,
`y`, `z` word, as the later rulebooks print them) for numbers, and `[counter]`
for a counter's printed name. The rulebooks allow "it" where a text says "the
targets" (or "each target") of a single target; matching treats them alike. A
card prints "1 card" where the template says "[x] cards", so the noun after a
number may drop its plural "s".
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_NUMBER_HOLE = re.compile(r"\[(x|y|z)\]|\b(x|y|z)\b")
_COUNTER_HOLE = "[counter]"
# Pass as `counters` to accept any capitalised "... Counter" name.
ANY_COUNTER = ("<any counter>",)
_IT = re.compile(r"\bit\b|\bthe targets\b|\beach target\b(?!')", re.IGNORECASE)
# The first plural-looking word after a number: "cards", "minions", "resources".
_PLURAL = re.compile(r"\b(?!(?:this|its|is|was|has|his|as|us)\b)([A-Za-z][A-Za-z-]+?)s\b")


@dataclass(frozen=True)
class Match:
    """The values a text's placeholders took: numbers by name, the counter's name."""

    numbers: dict[str, int]
    counter: str | None = None


def normalize(text: str) -> str:
    """Collapse whitespace and print arrows one way, so layout never matters."""
    text = text.replace("->", "→")
    return re.sub(r"\s+", " ", text).strip()


@functools.lru_cache(maxsize=4096)
def _pattern(template: str, counters: tuple[str, ...], whole: bool) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    template = normalize(template)
    tokens = list(_NUMBER_HOLE.finditer(template))
    counter_at = template.find(_COUNTER_HOLE)
    cuts = [(m.start(), m.end(), m.group(1) or m.group(2)) for m in tokens]
    if counter_at >= 0:
        cuts.append((counter_at, counter_at + len(_COUNTER_HOLE), "counter"))
    after_number = False
    for start, end, name in sorted(cuts):
        parts.append(_literal(template[pos:start], after_number))
        after_number = name != "counter"
        if name == "counter" and counters == ANY_COUNTER:
            parts.append(r"(?P<counter>(?:[A-Z][\w-]* )+Counter)s?")
        elif name == "counter":
            longest_first = sorted(counters, key=len, reverse=True)
            names = "|".join(re.escape(c) for c in longest_first)
            parts.append(rf"(?P<counter>{names or '(?!)'})s?")
        else:
            parts.append(rf"(?P<{name}>\d+)")
        pos = end
    parts.append(_literal(template[pos:], after_number))
    body = "".join(parts)
    return re.compile(rf"^{body}$" if whole else body, re.IGNORECASE)


def _literal(text: str, after_number: bool = False) -> str:
    """Escape literal text; let "it", "the targets" and "each target" stand for one
    another, and
    (after a number) the first plural noun stand for its singular too.

    >>> bool(re.fullmatch(_literal(" cards.", True), " card."))
    True
    """
    plural = _PLURAL.search(text) if after_number else None
    cut = plural.end(1) if plural else -1
    out, pos = [], 0
    for m in _IT.finditer(text):
        out.append(_escape(text[pos:m.start()], cut - pos))
        out.append(r"(?:it|the targets|each target)")
        pos = m.end()
    out.append(_escape(text[pos:], cut - pos))
    return "".join(out)


def _escape(text: str, optional_s_at: int) -> str:
    """Escape text, making the "s" at one position (if inside it) optional."""
    if not 0 <= optional_s_at < len(text):
        return re.escape(text)
    head, tail = text[:optional_s_at], text[optional_s_at + 1:]
    return f"{re.escape(head)}s?{re.escape(tail)}"


def match(template: str, text: str, counters: tuple[str, ...] = ()) -> Match | None:
    """Match a whole printed text against a template."""
    m = _pattern(template, counters, True).match(normalize(text))
    return _found(m)


def search(template: str, text: str) -> Match | None:
    """Find a template anywhere inside a printed text (legality lists)."""
    m = _pattern(template, (), False).search(normalize(text))
    return _found(m)


def substitute(old: str, new: str, text: str) -> str:
    """Replace every occurrence of the `old` template in `text` with `new`, carrying
    the numbers across; a noun after a 1 stays singular.

    >>> substitute("x of your resources", "x cards in your granary",
    ...            "Target up to 1 of your resources.")
    'Target up to 1 card in your granary.'
    """
    pattern = _pattern(old, (), False)

    def repl(m: re.Match[str]) -> str:
        found = {k: v for k, v in m.groupdict().items() if v is not None}
        out: list[str] = []
        pos = 0
        template = normalize(new)
        for h in _NUMBER_HOLE.finditer(template):
            value = found.get(h.group(1) or h.group(2), h.group(0))
            out.append(_singular(template[pos:h.start()]) if pos and out[-1] == "1"
                       else template[pos:h.start()])
            out.append(value)
            pos = h.end()
        tail = template[pos:]
        out.append(_singular(tail) if out and out[-1] == "1" else tail)
        return "".join(out)

    return pattern.sub(repl, normalize(text))


def _singular(text: str) -> str:
    """The text after a 1 with its first plural noun made singular; "1 of your
    cards" keeps its plural."""
    if text.lstrip().startswith("of "):
        return text
    return _PLURAL.sub(lambda m: m.group(1), text, count=1)


def _found(m: re.Match[str] | None) -> Match | None:
    if m is None:
        return None
    groups = {k: v for k, v in m.groupdict().items() if v is not None}
    counter = groups.pop("counter", None)
    return Match({k: int(v) for k, v in groups.items()}, counter)
