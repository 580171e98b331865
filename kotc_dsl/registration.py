"""kotc's languages registered with textX, so `textx check` and editors know them.

A rule file checked through textX runs kotc's whole loading and validation (the
merged edition, every cross-reference): `textx check editions/17th.kotc` reports
what `kotc check` reports, its first problem located and the others listed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import textx
from textx import TextXSemanticError
from textx.metamodel import TextXMetaModel

from .language import TextXModel, metamodel
from .load import RulesetError, load_path

Factory = Callable[[], TextXMetaModel]


class Language(Protocol):
    """What textX's `language` decorator makes of a metamodel factory (its
    `LanguageDesc`): the entry points in pyproject.toml name these."""

    name: str
    pattern: str | None
    description: str
    metamodel: Factory


# textX's `language`, with the types it has (textX ships none: see `language.py`).
language: Callable[[str, str], Callable[[Factory], Language]] = textx.language


def _check_model(model: TextXModel, _metamodel: TextXMetaModel) -> None:
    """Validate a file checked through textX: raise its first problem, located,
    with every other problem listed in the message."""
    path = model._tx_filename
    if path is None:
        return
    try:
        load_path(path, use_cache=False)
    except RulesetError as err:
        first, *rest = err.diagnostics
        message = "\n".join([first.message] + [str(d) for d in rest])
        raise TextXSemanticError(message, line=first.origin.line, col=first.origin.col,
                                 filename=first.origin.file) from None


@language("kotc", "*.kotc")
def kotc_language() -> TextXMetaModel:
    """kotc rulesets: one edition of a game's rulebook per file."""
    mm = metamodel("kotc")
    mm.register_model_processor(_check_model)
    return mm


@language("kotc-card", "*.kcard")
def kotc_card_language() -> TextXMetaModel:
    """kotc card designs, written as printed."""
    return metamodel("card")


@language("kotc-deck", "*.kdeck")
def kotc_deck_language() -> TextXMetaModel:
    """kotc decks: card counts for one edition."""
    return metamodel("deck")


@language("kotc-scenario", "*.kscn")
def kotc_scenario_language() -> TextXMetaModel:
    """kotc rulings: a position, the actions, what must follow."""
    return metamodel("scenario")
