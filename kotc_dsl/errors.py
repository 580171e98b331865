"""Located diagnostics: every problem a user sees reads `file:line:col: message`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .ast import Origin

# A word of a message longer than this is cut: longer than any path (4,096
# characters), so a 1 MiB token is not echoed whole and a file's name always is.
LONGEST_WORD = 4200
_LONG_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")


def shortened(message: str, longest: int = LONGEST_WORD) -> str:
    """`message` with each word longer than `longest` characters cut, saying how
    long it was.

    >>> shortened("unknown card '" + "x" * 5000 + "'").endswith("x... (5002 characters)")
    True
    """
    def cut(word: re.Match[str]) -> str:
        return f"{word.group()[:longest - 20]}... ({len(word.group())} characters)"

    return re.sub(rf"\S{{{longest + 1},}}", cut, message)


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem in one place, on one line: a line break in its message (a name
    quoted from a file) is shown as `\\n`, and overlong words are cut."""

    origin: Origin
    message: str

    def __post_init__(self) -> None:
        message = self.message
        if "\n" in message or "\r" in message:
            message = message.replace("\r", "\\r").replace("\n", "\\n")
        if _LONG_WORD.search(message):
            message = shortened(message)
        if message is not self.message:
            object.__setattr__(self, "message", message)

    def __str__(self) -> str:
        if self.origin.line == 0:  # a name with no place in a file (an edition's)
            return f"{self.origin.file}: {self.message}"
        return f"{self.origin}: {self.message}"


class RulesetError(Exception):
    """A rule file (or set of files) that cannot be loaded; carries every problem."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(set(diagnostics), key=_sort_key)
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    def __reduce__(self) -> tuple[type[RulesetError], tuple[list[Diagnostic]]]:
        # pickled between processes, it is rebuilt from its problems
        return type(self), (self.diagnostics,)


def _sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.origin.file, d.origin.line, d.origin.col, d.message)
