"""Located diagnostics: every problem a user sees reads `file:line:col: message`."""

from __future__ import annotations

from dataclasses import dataclass

from .ast import Origin


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem in one place."""

    origin: Origin
    message: str

    def __str__(self) -> str:
        if self.origin.line == 0:  # a name with no place in a file (an edition's)
            return f"{self.origin.file}: {self.message}"
        return f"{self.origin}: {self.message}"


class RulesetError(Exception):
    """A rule file (or set of files) that cannot be loaded; carries every problem."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(set(diagnostics), key=_sort_key)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def _sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.origin.file, d.origin.line, d.origin.col, d.message)
