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

    >>> name = min(p.name for p in DECKS_DIR.iterdir() if p.is_dir() and p.name[0] != "_")
    >>> files = starter_deck_files(name)
    >>> files == sorted((DECKS_DIR / name).glob("*.kdeck")) and len(files) > 0
    True
    >>> starter_deck_files(f"../{DECKS_DIR.name}/{name}")
    []
    """
    folders = {p.name: p for p in DECKS_DIR.iterdir() if p.is_dir()}
    folder = folders.get(edition)
    return sorted(folder.glob("*.kdeck")) if folder else []


def shipped_edition(rule_file: str | Path) -> str | None:
    """The shipped edition whose rule file `rule_file` is (its name, as its starter
    decks are filed), or None for any other file, whatever edition it names.

    >>> shipped = sorted(EDITIONS_DIR.glob("*.kotc"))[0]
    >>> shipped_edition(shipped) == shipped.stem
    True
    >>> shipped_edition(Path("house") / shipped.name) is None
    True
    """
    path = Path(rule_file)
    try:
        shipped = path.resolve().parent == EDITIONS_DIR.resolve() and path.is_file()
    except OSError:
        return None
    return path.stem if shipped else None


def ruleset_starter_deck_files(files: tuple[str, ...] | list[str]) -> list[Path]:
    """The starter decks a ruleset made of rule files `files` (newest first) plays
    with when none are named: those of the newest shipped edition among them, so an
    edition edited on top of a shipped one plays with that one's cards; none when
    no file is a shipped edition's (a house file named as a shipped one is not).
    """
    for file in files:
        name = shipped_edition(file)
        if name is not None:
            return starter_deck_files(name)
    return []


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
