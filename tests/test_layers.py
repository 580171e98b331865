"""The package's layers, as a reader sees them: one import name, imports at the
top of each module (none hidden in a function to dodge a cycle), and no module
importing another's private names. `lint-imports` (run by `.ci/run`) checks the
layer order itself against the contract in `pyproject.toml`."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import kotc
import pytest

PACKAGE = Path(kotc.__file__).resolve().parent
DSL = Path(kotc.dsl.__file__).resolve().parent
# the repository folders the package is built from
FOLDERS = ("interpreter", "kotc_dsl", "rules", "editions", "decks")
SOURCES = sorted(PACKAGE.rglob("*.py")) + sorted(DSL.rglob("*.py"))


def _is_kotc(node: ast.ImportFrom | ast.Import) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "kotc"
    return any(a.name.split(".")[0] == "kotc" for a in node.names)


def local_imports(tree: ast.AST) -> list[int]:
    """Lines of imports of kotc's own modules inside a function or method."""
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [n.lineno for n in ast.walk(fn)
                      if isinstance(n, (ast.Import, ast.ImportFrom)) and _is_kotc(n)]
    return sorted(set(found))


def private_imports(tree: ast.AST) -> list[str]:
    """Private names imported from another of kotc's modules."""
    return [f"{n.lineno}: {a.name}" for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and _is_kotc(n)
            for a in n.names if a.name.startswith("_") and a.name != "__future__"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_imports_are_at_the_top_and_public(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert local_imports(tree) == []
    assert private_imports(tree) == []


def test_the_checks_find_what_they_look_for():
    tree = ast.parse("from .x import _hidden\ndef f():\n"
                     "    from kotc.engine import game\n    import json\n")
    assert local_imports(tree) == [3]
    assert private_imports(tree) == ["1: _hidden"]


def test_the_wheel_holds_only_the_kotc_import_name_and_its_data(tmp_path):
    # built from a copy of the sources, so the build leaves nothing in the checkout
    root = Path(__file__).resolve().parents[1]
    for name in ("pyproject.toml", "README.md", *FOLDERS):
        copy = shutil.copytree if (root / name).is_dir() else shutil.copy
        copy(root / name, tmp_path / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", str(tmp_path / "dist"), str(tmp_path)],
                   check=True, capture_output=True)
    (wheel,) = (tmp_path / "dist").glob("kotc-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"kotc", wheel.name.split("-py3")[0]
                                                + ".dist-info"}
    for data in ("kotc/rules/kotc.tx", "kotc/editions/17th.kotc",
                 "kotc/decks/17th/wardens.kdeck", "kotc/decks/17th/wardens.kcard",
                 "kotc/py.typed"):
        assert data in names
