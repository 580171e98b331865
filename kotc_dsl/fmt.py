"""Canonical text for rule, card and deck files: what `kotc fmt` writes.

A rule file is written through the unparser (`unparse.py`), rule by rule, so
its layout is the language's one way of writing each rule: sections in the
order written, two spaces of indent, a citation that ends its line set at
column 53 when it fits (two spaces after the code when that is longer), and
lines longer than 90 columns broken before a citation, a `where`, an `and`/`or`
or after a comma. Card and deck files are
written from their parse the same way every time.

Comments are kept. A comment on its own line before a rule stays before it; a
comment inside a rule or after its code on the same line moves to just before
that rule (the unparser writes the rule itself). One blank line between rules
is kept where there was one or more; sections are one blank line apart.

The formatted text is parsed again and must give the same rules, cards or deck
as the original: if it would not, `FormatError` says so and nothing is written.
Formatting formatted text changes nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textx import TextXError, get_location

from . import ast
from .convert import convert_edition
from .errors import Diagnostic, RulesetError
from .language import parse, parse_other
from .suggest import grammar_keywords
from .unparse import quote, unparse_rule

__all__ = ["FORMATTED", "FormatError", "format_file", "format_text"]

WIDTH = 90
CITE_COLUMN = 52  # 0-based: a single-line rule's `@` in the 53rd column
INDENT = "  "
FORMATTED = {".kotc": "rules", ".kcard": "card", ".kdeck": "deck"}


class FormatError(Exception):
    """The text cannot be formatted (it does not parse), or formatting it would
    change what it means (a bug in the formatter: nothing is written)."""


# --- comments ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Comment:
    line: int  # 1-based, where it starts
    text: str  # as written, `//` or `/* */` included


def scan(text: str, quotes: str = "\"'") -> tuple[list[Comment], set[int]]:
    """The comments of `text`, and the lines that hold code (anything that is not
    blank or a comment). Strings in `quotes` are skipped whole.

    >>> scan('a "//x" // one\\n/* two\\n */ b')
    ([Comment(line=1, text='// one'), Comment(line=2, text='/* two\\n */')], {1, 3})
    """
    comments: list[Comment] = []
    code: set[int] = set()
    i, line, n = 0, 1, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            comments.append(Comment(line, text[i:end].rstrip()))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            comments.append(Comment(line, text[i:end]))
            line += text.count("\n", i, end)
            i = end
        elif ch in quotes:
            code.add(line)
            j = i + 1
            while j < n and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            line += text.count("\n", i, j)
            i = j + 1
        elif ch.isspace():
            i += 1
        else:
            code.add(line)
            i += 1
    return comments, code


def attach(anchors: Sequence[int], comments: list[Comment],
           code: set[int]) -> tuple[dict[int, list[Comment]], list[Comment]]:
    """Which anchor (by index into `anchors`, the lines where the things written
    anew start) each comment is written before; and the comments after the last.

    A comment inside an anchor's span (from its line to the last line of code
    before the next anchor) goes before that anchor; one between spans, before
    the next anchor."""
    spans = []
    for i, start in enumerate(anchors):
        stop = anchors[i + 1] if i + 1 < len(anchors) else max(code | {start}) + 1
        end = max((x for x in code if start <= x < stop), default=start)
        spans.append((start, end))
    before: dict[int, list[Comment]] = {}
    after: list[Comment] = []
    for c in comments:
        for i, (_, end) in enumerate(spans):
            if c.line <= end:
                before.setdefault(i, []).append(c)
                break
        else:
            after.append(c)
    return before, after


def _comment_lines(comments: list[Comment], indent: str,
                   blank: frozenset[int] | set[int] = frozenset(),
                   anchor: int | None = None) -> list[str]:
    """The comments as lines at `indent`; a blank line kept (one) where `blank`
    lines stood between two of them, or between the last and `anchor`'s line."""
    out: list[str] = []
    for i, c in enumerate(comments):
        first, *rest = c.text.splitlines()
        out.append(indent + first.strip())
        out += [line.rstrip() for line in rest]
        end = c.line + c.text.count("\n")
        upto = comments[i + 1].line if i + 1 < len(comments) else anchor
        if upto is not None and any(end < b < upto for b in blank):
            out.append("")
    return out


def _blank_lines(text: str) -> set[int]:
    return {i for i, line in enumerate(text.splitlines(), 1) if not line.strip()}


def _blank_before(line: int, comments: list[Comment], blank: set[int]) -> bool:
    first = min([c.line for c in comments] + [line])
    return first - 1 in blank


# --- breaking long lines -----------------------------------------------------------

_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|\S+')
# where a full line is best ended, by the word that would start the next one (at
# the outermost level of parentheses); higher is better
_BREAK_BEFORE = {"@": 6, "requires": 5, "when": 5, "where": 4, "if": 3,
                 "interpretation": 3, "and": 3, "or": 3, "then": 3, "with": 2}


def layout(line: str, width: int = WIDTH) -> list[str]:
    """One line of the unparser's output laid out: a citation that ends its line
    at column 53 where it fits (else two spaces after the code); a line longer
    than `width` broken (continuations indented two more) before a citation,
    `requires`, `where`, `and`... or after a comma, at the outermost parentheses
    where it can.

    >>> layout('  deck 40..60 @ "Setup"')
    ['  deck 40..60                                       @ "Setup"']
    """
    indent = line[: len(line) - len(line.lstrip())]
    tokens = _TOKEN.findall(line)
    if not tokens:
        return [line]
    cite = _cite_at(tokens)
    if cite is not None and tokens[-1] != "{":
        head = indent + " ".join(tokens[:cite])
        tail = " ".join(tokens[cite:])
        if len(head) < CITE_COLUMN - 1 and CITE_COLUMN + len(tail) <= width:
            return [head.ljust(CITE_COLUMN) + tail]
        if len(head) + 2 + len(tail) <= width:  # past the column: two spaces
            return [f"{head}  {tail}"]
    if len(line) <= width:
        return [indent + " ".join(tokens)]
    return _broken(tokens, indent, width)


def _cite_at(tokens: list[str]) -> int | None:
    """The index of a rule's citation (`@ "Section"`) among the tokens, if any."""
    for i, t in enumerate(tokens):
        if t == "@" and i + 1 < len(tokens) and tokens[i + 1][:1] in "\"'":
            return i
    return None


def _ranks(tokens: list[str]) -> list[float]:
    """For each token, how good a place it is to start a new line: the word it
    is, and how deep in parentheses (0: never, as between `@` and its section,
    inside an overriding rule's head, or before a block's brace)."""
    ranks: list[float] = [0.0] * len(tokens)
    depth = 0
    # `override KIND NAME "Label"`: kept together, up to its label if it has one
    head = 0
    if tokens[0] == "override":
        quoted_at = [i for i, t in enumerate(tokens[:4]) if t[:1] in "\"'"]
        head = quoted_at[0] if quoted_at else 2
    for i, t in enumerate(tokens):
        quoted = t[:1] in "\"'"
        if i:
            before = tokens[i - 1]
            word = 1.5 if t in grammar_keywords() else 1
            r = float(_BREAK_BEFORE.get(t, word)) if depth == 0 else 0.5
            if depth and t in ("and", "or"):
                r = 0.8
            if before.endswith(",") and before[:1] not in "\"'":
                r = max(r, 2 if depth == 0 else 0.9)
            cited = i >= 2 and tokens[i - 2] in ("@", "interpretation")
            if before[:1] in "\"'" and cited:
                r = max(r, 6)  # after a citation (or its interpretation)
            if t in ("{", "}") or (quoted and before in ("@", "interpretation")):
                r = 0
            if i <= head:  # an overriding rule's head stays on one line
                r = 0
            ranks[i] = r
        if not quoted:
            depth += t.count("(") - t.count(")")
    return ranks


def _broken(tokens: list[str], indent: str, width: int) -> list[str]:
    ranks = _ranks(tokens)
    lines: list[str] = []
    start, pad = 0, indent
    i = start
    while i < len(tokens):
        text = pad + " ".join(tokens[start : i + 1])
        cuts = [j for j in range(start + 1, i + 1) if ranks[j]]
        if len(text) > width and cuts:
            cut = max(cuts, key=lambda j: (ranks[j], j))
            lines.append(pad + " ".join(tokens[start:cut]))
            start, pad = cut, indent + INDENT
            i = max(i, start)
            continue
        i += 1
    lines.append(pad + " ".join(tokens[start:]))
    return lines


_OPENS = re.compile(r"\{$")


def joined_blocks(lines: list[str], width: int = WIDTH) -> list[str]:
    """Blocks of one simple statement written on their opening line, where the
    whole fits: `if x {`, `  y`, `}` becomes `if x { y }`.

    >>> joined_blocks(["  if a {", "    b", "  } else {", "    c", "  }"])
    ['  if a { b } else { c }']
    """
    out = list(lines)
    changed = True
    while changed:
        changed = False
        for i in range(len(out) - 2):
            head = out[i]
            if not head.endswith("{") or not _simple(out[i + 1]):
                continue
            close = out[i + 2].strip()
            parts = [head, out[i + 1].strip(), close]
            span = 3
            if close != "}":  # `} else {`: joined only with the block it opens
                if not (close.startswith("} ") and close.endswith("{")
                        and i + 4 < len(out) and _simple(out[i + 3])
                        and out[i + 4].strip() == "}"):
                    continue
                parts += [out[i + 3].strip(), "}"]
                span = 5
            merged = " ".join(parts)
            if len(merged) <= width:
                out[i : i + span] = [merged]
                changed = True
                break
    return out


def _simple(line: str) -> bool:
    body = line.strip()
    return bool(body) and "{" not in body and "}" not in body and "//" not in body


# --- rule files ----------------------------------------------------------------------


def _header(f: ast.EditionFile) -> list[str]:
    head = f"edition {quote(f.name)} number {f.number}"
    if f.game:
        head += f" game {quote(f.game)}"
    if f.base:
        head += f" extends {quote(f.base)}"
    lines = [head]
    if f.source:
        lines.append(f"{INDENT}source {quote(f.source)}")
    if f.summary:
        lines.append(f"{INDENT}summary {quote(f.summary)}")
    inline = f"{INDENT}contents {{ {', '.join(quote(c) for c in f.contents)} }}"
    if f.contents and len(inline) <= WIDTH:
        lines.append(inline)
    elif f.contents:
        lines.append(f"{INDENT}contents {{")
        row = ""
        for i, name in enumerate(f.contents):
            item = quote(name) + ("," if i + 1 < len(f.contents) else "")
            if row and len(INDENT * 2 + row + " " + item) > WIDTH:
                lines.append(INDENT * 2 + row)
                row = item
            else:
                row = f"{row} {item}" if row else item
        lines.append(INDENT * 2 + row)
        lines.append(f"{INDENT}}}")
    return lines


def _rule_lines(rule: ast.Rule) -> list[str]:
    text = [INDENT + line for line in unparse_rule(rule).splitlines()]
    out = []
    for line in joined_blocks(text):
        out += layout(line)
    return out


def _format_rules(text: str, path: str) -> str:
    parsed = _parse_rules(text, path)
    comments, code = scan(text)
    blank = _blank_lines(text)
    items: list[tuple[int, str, Any]] = [(1, "header", parsed)]
    for section, rules, origin in parsed.sections:
        items.append((origin.line, "section", section))
        items += [(r.origin.line, "rule", r) for r in rules]
        items.append((-1, "end", section))
    anchors = [line for line, kind, _ in items if kind != "end"]
    before, after = attach(anchors, comments, code)
    out: list[str] = []
    n = 0
    for line, kind, what in items:
        if kind == "end":
            out.append("}")
            continue
        attached = before.get(n, [])
        n += 1
        if kind == "header":
            out += _comment_lines(attached, "", blank, line)
            out += _header(what)
        elif kind == "section":
            out.append("")
            out += _comment_lines(attached, "", blank, line)
            out.append(f"{what} {{")
        else:
            first_in_section = out[-1].endswith("{") and not out[-1].startswith(" ")
            if not first_in_section and _blank_before(line, attached, blank):
                out.append("")
            out += _comment_lines(attached, INDENT, blank, line)
            out += _rule_lines(what)
    if after:
        out.append("")
        out += _comment_lines(after, "")
    return "\n".join(out) + "\n"


def _parse_rules(text: str, path: str) -> ast.EditionFile:
    try:
        model = parse(text, path)
    except TextXError as err:
        where = f"{err.filename or path}:{err.line or 1}:{err.col or 1}"
        message = str(getattr(err, "message", err)).split(" => ")[0]
        message = re.sub(r"^.*?:\d+:\d+:\s*", "", message)
        raise FormatError(f"{where}: syntax error: {message}") from None
    try:
        return convert_edition(model, path)
    except RulesetError as err:
        raise FormatError("\n".join(str(d) for d in err.diagnostics)) from None


def _same_rules(a: ast.EditionFile, b: ast.EditionFile) -> bool:
    def gist(f: ast.EditionFile) -> tuple[Any, ...]:
        return (f.name, f.number, f.game, f.base, f.source, f.summary, f.contents,
                tuple((s, rules) for s, rules, _ in f.sections))

    return gist(a) == gist(b)


# --- card and deck files -------------------------------------------------------------

_SPACES = re.compile(r"\s+")


def _prose(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _line_of(obj: Any) -> int:
    return int(get_location(obj)["line"])


def _card_lines(card: Any) -> list[str]:
    stats = []
    abilities: list[str] = []
    flavor = None
    for part in card.parts:
        kind = type(part).__name__
        if kind == "Indicator":
            stats.append(f"edition {part.edition}")
        elif kind == "StatValue":
            stats.append(f"{part.stat} {part.value}")
        elif kind == "Flavor":
            flavor = f"{INDENT}flavor {quote(part.text)}"
        else:
            name = f" {quote(part.name)}" if part.name else ""
            abilities.append(f"{INDENT}ability{name} {{")
            for piece in (part.condition, part.cost):
                if piece is not None:
                    abilities.append(INDENT * 2 + _prose(piece.text))
            sentences = " ".join(_prose(s.text) for s in part.sentences)
            abilities.append(INDENT * 2 + sentences)
            abilities.append(f"{INDENT}}}")
    lines = [f"card {quote(card.name)} {card.type} {{"]
    if stats:
        lines.append(INDENT + "  ".join(stats))
    lines += abilities
    if flavor:
        lines.append(flavor)
    return [*lines, "}"]


def _format_cards(text: str, path: str) -> str:
    model = _parse_other("card", text, path)
    comments, code = scan(text, quotes='"')
    blank = _blank_lines(text)
    anchors = [_line_of(c) for c in model.cards]
    if not anchors:
        return "\n".join(_comment_lines(comments, "")) + ("\n" if comments else "")
    before, after = attach(anchors, comments, code)
    out: list[str] = []
    for i, card in enumerate(model.cards):
        if i:
            out.append("")
        out += _comment_lines(before.get(i, []), "", blank, anchors[i])
        out += _card_lines(card)
    if after:
        out += ["", *_comment_lines(after, "")]
    return "\n".join(out) + "\n"


def _format_deck(text: str, path: str) -> str:
    deck = _parse_other("deck", text, path).deck
    comments, code = scan(text, quotes='"')
    entries = [*deck.entries, *(e for p in deck.piles for e in p.entries)]
    anchors = [_line_of(deck)] + [_line_of(e) for e in entries]
    anchors = sorted(set(anchors))
    before, after = attach(anchors, comments, code)
    by_line = {line: before.get(i, []) for i, line in enumerate(anchors)}
    files = ", ".join(quote(f) for f in deck.files)
    out = _comment_lines(by_line.pop(_line_of(deck), []), "", _blank_lines(text),
                         _line_of(deck))
    out.append(f"deck {quote(deck.name)} edition {quote(deck.edition)} cards {files} {{")
    for e in deck.entries:
        out += _comment_lines(by_line.pop(_line_of(e), []), INDENT)
        out.append(f"{INDENT}{e.count} {quote(e.name)}")
    for pile in deck.piles:
        out.append(f"{INDENT}{pile.name} {{")
        for e in pile.entries:
            out += _comment_lines(by_line.pop(_line_of(e), []), INDENT * 2)
            out.append(f"{INDENT * 2}{e.count} {quote(e.name)}")
        out.append(f"{INDENT}}}")
    out.append("}")
    if after:
        out += ["", *_comment_lines(after, "")]
    return "\n".join(out) + "\n"


def _parse_other(kind: str, text: str, path: str) -> Any:
    try:
        return parse_other(kind, text, path)
    except TextXError as err:
        where = f"{path}:{err.line or 1}:{err.col or 1}"
        message = str(getattr(err, "message", err)).split(" => ")[0]
        raise FormatError(f"{where}: syntax error: {message}") from None


def _gist_other(kind: str, text: str, path: str) -> Any:
    """What a card or deck file means, for comparing two texts of it."""
    model = _parse_other(kind, text, path)
    if kind == "deck":
        d = model.deck
        return (d.name, d.edition, tuple(d.files),
                tuple((e.count, e.name) for e in d.entries),
                tuple((p.name, tuple((e.count, e.name) for e in p.entries))
                      for p in d.piles))
    cards = []
    for c in model.cards:
        parts: list[tuple[Any, ...]] = []
        for p in c.parts:
            kind_ = type(p).__name__
            if kind_ == "Ability":
                pieces = [p.condition, p.cost, *p.sentences]
                parts.append((kind_, p.name, tuple(
                    _prose(x.text) if x is not None else None for x in pieces)))
            else:
                parts.append(tuple(getattr(p, field, None)
                                   for field in ("edition", "stat", "value", "text")))
                parts[-1] = (kind_, *parts[-1])
        stats = sorted(x for x in parts if x[0] != "Ability" and x[0] != "Flavor")
        others = [x for x in parts if x[0] in ("Ability", "Flavor")]
        cards.append((c.name, c.type, tuple(stats), tuple(others)))
    return tuple(cards)


# --- the API ---------------------------------------------------------------------------


def format_text(text: str, path: str) -> str:
    """The canonical text of a rule (.kotc), card (.kcard) or deck (.kdeck) file.

    Args:
        text: the file's text.
        path: its path: the suffix says which language; messages name it.

    Returns:
        The formatted text (ending in one newline).

    Raises:
        FormatError: the text does not parse; or the formatted text would not
            mean the same (nothing is to be written then).
    """
    kind = FORMATTED.get(Path(path).suffix)
    if kind is None:
        known = ", ".join(FORMATTED)
        raise FormatError(f"{path}: kotc fmt formats {known} files")
    if kind == "rules":
        out = _format_rules(text, path)
        same: Callable[[], bool] = lambda: _same_rules(  # noqa: E731
            _parse_rules(text, path), _parse_rules(out, path))
    else:
        out = _format_cards(text, path) if kind == "card" else _format_deck(text, path)
        same = lambda: _gist_other(kind, text, path) == _gist_other(  # noqa: E731
            kind, out, path)
    if not same():
        raise FormatError(f"{path}: formatting would change what the file means; "
                          "it is left as it is (please report this)")
    return out


def format_file(path: Path) -> tuple[str, str]:
    """The file's text and its canonical text.

    Raises:
        FormatError: see `format_text`; OSError: the file cannot be read.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise FormatError(f"{path}: not a UTF-8 text file ({err.reason})") from None
    return text, format_text(text, str(path))


def diagnostics(err: FormatError) -> list[Diagnostic]:
    """A format error as located problems, for the command line's usual output."""
    found = []
    for line in str(err).splitlines():
        m = re.match(r"^(.*?):(\d+):(\d+): (.*)$", line)
        if m:
            file, ln, col, message = m.groups()
            found.append(Diagnostic(ast.Origin(file, int(ln), int(col)), message))
        else:
            file, _, message = line.partition(": ")
            found.append(Diagnostic(ast.Origin(file, 0, 0), message or line))
    return found
