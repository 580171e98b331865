"""The documentation: every code block of every page runs as the page says, the
language reference covers every grammar rule, and the site builds strictly."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from docrunner import Failure, Page, blocks, matches  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "design" not in p.parts
               and p.name != "simulation.md")
# each grammar file's rules are documented on its language's page
REFERENCE = {"card.tx": "cards.md", "deck.tx": "decks.md", "scenario.tx": "scenarios.md"}
RULE = re.compile(r"^([A-Z][A-Za-z0-9_]*)\s*:", re.MULTILINE)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_code_block_of_the_page_runs_as_it_says(page, tmp_path):
    ran = Page(page, tmp_path, Path(sys.executable).parent).run()
    assert ran == len(blocks(page.read_text(encoding="utf-8"))) > 0


def test_a_block_that_does_not_do_what_the_page_says_fails(tmp_path):
    page = tmp_path / "wrong.md"
    page.write_text("```console\n$ kotc check 17th\n2 files checked, 0 errors\n```\n",
                    encoding="utf-8")
    with pytest.raises(Failure, match="not as the page says"):
        Page(page, tmp_path, Path(sys.executable).parent).run()
    page.write_text("```text\nanything\n```\n", encoding="utf-8")
    with pytest.raises(Failure, match="cannot be run"):
        Page(page, tmp_path, Path(sys.executable).parent).run()


def test_output_lines_match_with_ellipses():
    assert matches(["a", "b", "c"], ["a", "...", "c"])
    assert matches(["a", "c"], ["a", "...", "c"])
    assert not matches(["a", "b"], ["a", "c"])


def grammar_rules(tx: Path) -> list[str]:
    text = re.sub(r"/\*.*?\*/", "", tx.read_text(encoding="utf-8"), flags=re.DOTALL)
    return RULE.findall(text)


@pytest.mark.parametrize("tx", sorted((ROOT / "rules").glob("*.tx")),
                         ids=lambda p: p.name)
def test_every_grammar_rule_is_in_the_language_reference(tx):
    page = DOCS / "reference" / REFERENCE.get(tx.name, "rules.md")
    documented = set(re.findall(r"^\| `([A-Za-z0-9_]+)` \|", page.read_text("utf-8"),
                                re.MULTILINE))
    missing = [r for r in grammar_rules(tx) if r not in documented]
    assert not missing, f"{page.name} does not document {tx.name}'s rules: {missing}"


@pytest.mark.skipif(shutil.which("mkdocs") is None and not (
    Path(sys.executable).parent / "mkdocs").exists(),
    reason="mkdocs is not installed (pip install -e '.[docs]')")
def test_the_site_builds_strictly_with_the_languages_coloured(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                           "-d", str(site)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    tutorial = (site / "tutorial" / "index.html").read_text(encoding="utf-8")
    assert '<span class="k">keyword</span>' in tutorial  # the kotc lexer at work
    assert (site / "reference" / "scenarios" / "index.html").exists()


@pytest.mark.skipif(shutil.which("mkdocs") is None and not (
    Path(sys.executable).parent / "mkdocs").exists(),
    reason="mkdocs is not installed (pip install -e '.[docs]')")
def test_a_simulation_page_joins_the_nav_when_present(tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(DOCS, copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "docs" / "simulation.md").write_text("# Simulation results\n", "utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                           "-d", str(tmp_path / "site")], cwd=copy,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Simulation results" in home
