"""The kotc language: the one factory of the textX metamodel for rule files.

`kotc_language` is registered with textX (`textx check editions/17th.kotc`); its
model processor runs the whole of kotc's loading and validation on the checked
file, so `textx check` reports what `kotc check` reports. kotc's own loader
parses through the same metamodel (`metamodel()`), with the processor standing
aside because the loader validates the merged edition itself.
"""

from __future__ import annotations

import contextvars
import functools
from pathlib import Path

from textx import TextXSemanticError, language, metamodel_from_file

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"
EDITIONS_DIR = ROOT / "editions"

# Set while kotc's loader parses, so the model processor does not load again.
_loading = contextvars.ContextVar("kotc_loading", default=False)


def _check_model(model, metamodel) -> None:
    """Validate a file checked through textX: raise its first problem, located,
    with every other problem listed in the message."""
    from .load import RulesetError, load_path

    path = model._tx_filename
    if _loading.get() or path is None:
        return
    try:
        load_path(path, use_cache=False)
    except RulesetError as err:
        first, *rest = err.diagnostics
        message = "\n".join([first.message] + [str(d) for d in rest])
        raise TextXSemanticError(message, line=first.origin.line, col=first.origin.col,
                                 filename=first.origin.file) from None


@language("kotc", "*.kotc")
def kotc_language():
    """Keeper of the Cards rulesets: one rulebook edition per file."""
    mm = metamodel_from_file(str(RULES_DIR / "kotc.tx"), autokwd=True)
    mm.register_model_processor(_check_model)
    return mm


@functools.lru_cache(maxsize=1)
def _metamodel():
    return kotc_language.metamodel()


def parse(text: str, path: str):
    """Parse one rule file's text with the kotc metamodel (no validation)."""
    token = _loading.set(True)
    try:
        return _metamodel().model_from_str(text, file_name=path)
    finally:
        _loading.reset(token)


@language("kotc-card", "*.kcard")
def kotc_card_language():
    """Keeper of the Cards card designs, written as printed."""
    return metamodel_from_file(str(RULES_DIR / "card.tx"), autokwd=True)


@language("kotc-deck", "*.kdeck")
def kotc_deck_language():
    """Keeper of the Cards decks: card counts for one edition."""
    return metamodel_from_file(str(RULES_DIR / "deck.tx"), autokwd=True)


@language("kotc-scenario", "*.kscn")
def kotc_scenario_language():
    """Keeper of the Cards rulings: a position, the actions, what must follow."""
    return metamodel_from_file(str(RULES_DIR / "scenario.tx"), autokwd=True)


@functools.cache
def _other(name: str):
    return {"card": kotc_card_language, "deck": kotc_deck_language,
            "scenario": kotc_scenario_language}[name].metamodel()


def parse_other(kind: str, text: str, path: str):
    """Parse a card file (`kind="card"`), a deck file (`"deck"`) or a scenario
    file (`"scenario"`)."""
    return _other(kind).model_from_str(text, file_name=path)
