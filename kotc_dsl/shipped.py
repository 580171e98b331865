"""Where kotc's shipped data lies: the grammars, the editions and the starter decks.

They are package data: the repository's `rules/`, `editions/` and `decks/` folders
install as the resource packages `kotc.rules`, `kotc.editions` and `kotc.decks`
(see `pyproject.toml`), and are found through `importlib.resources`, so an
installed wheel, an editable install and the test suite find them alike. They
must lie on a file system (textX opens the grammars by path, and a grammar
imports its neighbours), which every install kotc supports does.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _folder(package: str) -> Path:
    found = files(package)
    if not isinstance(found, Path):  # a zipped install: textX cannot open grammars
        raise RuntimeError(f"kotc's {package} must be installed as files, not zipped")
    return found


RULES_DIR = _folder("kotc.rules")
EDITIONS_DIR = _folder("kotc.editions")
DECKS_DIR = _folder("kotc.decks")


def starter_deck_files(edition: str) -> list[Path]:
    """The starter deck files shipped for a shipped edition, in name order; none for
    any other name (an edition's name is never used as a path).

    >>> [p.name for p in starter_deck_files("17th")]
    ['raiders.kdeck', 'wardens.kdeck']
    >>> starter_deck_files("../17th")
    []
    """
    folders = {p.name: p for p in DECKS_DIR.iterdir() if p.is_dir()}
    folder = folders.get(edition)
    return sorted(folder.glob("*.kdeck")) if folder else []


def all_starter_deck_files() -> list[Path]:
    """Every shipped starter deck file, edition by edition."""
    return sorted(DECKS_DIR.glob("*/*.kdeck"))


def deck_file(name: str | Path) -> Path:
    """The deck file a command was given: the path as it is when a file is there,
    else the shipped starter deck it names as `EDITION/DECK` (`17th/wardens`), so
    an installed kotc's decks can be named without knowing where they lie.

    >>> deck_file("17th/wardens").name
    'wardens.kdeck'
    >>> str(deck_file("my.kdeck"))
    'my.kdeck'
    """
    path = Path(name)
    if path.exists() or len(path.parts) != 2:
        return path
    edition, deck = path.parts
    found = [p for p in starter_deck_files(edition) if p.stem == path.stem
             or p.name == deck]
    return found[0] if found else path
