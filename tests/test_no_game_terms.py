"""The engine plays whatever game its rules describe: no Python names a game.

A ruleset's header names its game (`edition "11th" number 11 game "..."`); the
code under `interpreter/` and `kotc_dsl/` must read it from there, never say it.
And the second game's words (a hero, an ally, priority as that game says it: the
terms its issue lists) appear nowhere in the engine's Python, code or prose, so
that game is played from its rule files alone.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from test_no_edition_literals import python_files

ROOT = Path(__file__).resolve().parents[1]
_HEADER = re.compile(r'^\s*edition\s+"[^"]+"\s+number\s+\d+\s+game\s+"([^"]+)"',
                     re.MULTILINE)

# the second game's terms: its name and the words of its core rules that name
# its cards, keywords and turn structure (rules 101, 301-302, 407, 601-602)
SECOND_GAME_TERMS = (
    "Warcraft", "WoW", "hero", "heroes", "ally", "allies", "protector", "protect",
    "elusive", "ferocity", "priority",
)


def shipped_games() -> set[str]:
    """The games the shipped rule files name in their headers."""
    return {m.group(1) for p in (ROOT / "editions").glob("*.kotc")
            for m in _HEADER.finditer(p.read_text(encoding="utf-8"))}


def game_literals(path: Path, games: set[str]) -> list[str]:
    """Every string constant of a Python file that names one of `games`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            named = [g for g in games if g in node.value]
            found += [f"{path}:{node.lineno}: names the game {g!r}" for g in named]
    return found


def term_mentions(path: Path, terms: tuple[str, ...]) -> list[str]:
    """Every line of a Python file that says one of `terms` as a word, in any case."""
    word = re.compile(r"\b(?:" + "|".join(map(re.escape, terms)) + r")\b", re.IGNORECASE)
    return [f"{path}:{n}: {line.strip()}"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if word.search(line)]


def test_every_shipped_ruleset_names_a_game():
    assert shipped_games(), "no shipped rule file names its game in its header"


def test_no_python_string_names_a_game():
    games = shipped_games()
    hits = [h for p in python_files() for h in game_literals(p, games)]
    assert not hits, "a game named in Python:\n" + "\n".join(hits)


def test_the_engine_never_says_the_second_games_terms():
    hits = [h for p in python_files() for h in term_mentions(p, SECOND_GAME_TERMS)]
    assert not hits, "the second game's terms in Python:\n" + "\n".join(hits)


# --- the detectors themselves -------------------------------------------------------

PLANTED = '''\
"""Plays Some Game."""

TITLE = "Some Game (11th edition)"


def lose(card):
    # a hero destroyed loses the game
    return card.kind == "Ally"
'''


def test_detectors_catch_planted_names(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(PLANTED, encoding="utf-8")
    # the docstring is a constant too: prose in a docstring names the game
    assert [int(h.split(":")[1]) for h in game_literals(planted, {"Some Game"})] == [1, 3]
    assert [int(h.split(":")[1]) for h in term_mentions(planted, SECOND_GAME_TERMS)] \
        == [7, 8]
