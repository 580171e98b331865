"""Rules are data: no edition name or edition test appears in the Python code.

The difference between two editions lives in `editions/`; `kotc_dsl/` and
`interpreter/` must never say `"17th"` or `if edition == ...`. Two detectors:
string constants that look like an edition name (found with `ast`), and
comparisons of an edition (or a ruleset's number) with a literal (found with a
regular expression over the code, comments and string contents blanked out).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("kotc_dsl", "interpreter")

EDITION_NAME = re.compile(r"^\d+(st|nd|rd|th)$")
# `edition == "17th"`, `ruleset.edition in ("12th", 13)`, `rs.number >= 13`; not
# `for edition in editions` and not a comparison with a variable.
_OPERATOR = r"\s*(?:==|!=|<=|>=|<|>|\bnot\s+in\b|\bin\b)\s*[\"'\d(\[{]"
EDITION_TEST = re.compile(
    r"(?<!for )\b(?:\w+\.)*\w*edition\w*(?:\.\w+)*" + _OPERATOR
    + r"|\.number" + _OPERATOR
)
_HEADER = re.compile(r'^\s*edition\s+"([^"]+)"', re.MULTILINE)


def shipped_edition_names() -> set[str]:
    """The names the shipped edition files give themselves."""
    return {m.group(1) for p in (ROOT / "editions").glob("*.kotc")
            for m in _HEADER.finditer(p.read_text(encoding="utf-8"))}


def code_only(source: str) -> list[str]:
    """The source's lines with comments and string contents blanked (same positions).

    >>> code_only('x = "17th"  # edition == 1')
    ['x = "']
    """
    grid = [list(line) for line in source.splitlines()]
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.COMMENT, tokenize.STRING):
            continue
        (row, col), (end_row, end_col) = tok.start, tok.end
        keep = '"' if tok.type == tokenize.STRING else " "
        for r in range(row, end_row + 1):
            line = grid[r - 1]
            start = col if r == row else 0
            stop = end_col if r == end_row else len(line)
            line[start:stop] = " " * (stop - start)
        if tok.type == tokenize.STRING:
            grid[row - 1][col] = keep
    return ["".join(line).rstrip() for line in grid]


def edition_literals(path: Path, names: set[str] = frozenset()) -> list[str]:
    """Every edition-like string constant in a Python file, as `file:line: ...`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if is_text and (EDITION_NAME.match(node.value) or node.value in names):
            found.append(f"{path}:{node.lineno}: edition name {node.value!r}")
    return found


def edition_tests(path: Path) -> list[str]:
    """Every comparison of an edition with a literal in a Python file."""
    found = []
    for number, line in enumerate(code_only(path.read_text(encoding="utf-8")), 1):
        match = EDITION_TEST.search(line)
        if match:
            found.append(f"{path}:{number}: edition test `{match.group(0).strip()}`")
    return found


def scan(paths: list[Path], names: set[str] = frozenset()) -> list[str]:
    return [hit for p in paths for hit in edition_literals(p, names) + edition_tests(p)]


def python_files() -> list[Path]:
    return sorted(p for d in SCANNED for p in (ROOT / d).rglob("*.py"))


def test_the_scan_covers_the_loader():
    files = {p.relative_to(ROOT).as_posix() for p in python_files()}
    assert {"kotc_dsl/load.py", "kotc_dsl/validate.py"} <= files


def test_no_edition_name_or_edition_test_in_python_code():
    hits = scan(python_files(), shipped_edition_names())
    assert not hits, "edition-specific Python code:\n" + "\n".join(hits)


def test_the_interpreter_names_no_shipped_edition_even_in_prose():
    # it plays whatever editions ship: not even its help, docstrings or comments
    # name one (the help's examples are filled in with the shipped names)
    names = shipped_edition_names()
    assert names
    word = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, names)) + r")(?![\w])")
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "interpreter").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if word.search(line)
    ]
    assert not hits, "the interpreter names an edition:\n" + "\n".join(hits)


# --- the detector itself ----------------------------------------------------------

PLANTED = '''\
"""A module whose docstring may say `if edition == "17th"` without harm."""

PIERCING_SINCE = "13th"


def damage(ruleset, edition):
    # edition == "12th" in a comment is harmless too
    if ruleset.name == "17th":
        return 2
    if edition in ("12th", "13th"):
        return 1
    if ruleset.number >= 13:
        return 3
    return {"Thirteenth": 4}.get(edition, 0)
'''

CLEAN = '''\
"""Loads every edition; says "17th" only inside prose."""


def names(editions, wanted):
    for edition in editions:
        if edition == wanted or edition in wanted:
            yield edition.name
    label = f"{len(editions)}th"
    return label
'''


def test_detector_catches_planted_edition_code(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(PLANTED, encoding="utf-8")
    hits = scan([planted], {"Thirteenth"})
    lines = sorted(int(h.split(":")[1]) for h in hits)
    # "13th" (3), "17th" (8), "12th", "13th" and the test (10), the number
    # test (12), "Thirteenth" (14); nothing from the docstring or the comment
    assert lines == [3, 8, 10, 10, 10, 12, 14], hits


def test_detector_ignores_prose_loops_and_comparisons_with_variables(tmp_path):
    clean = tmp_path / "clean.py"
    clean.write_text(CLEAN, encoding="utf-8")
    assert scan([clean], {"Thirteenth"}) == []
