"""The kotc languages' textX metamodels, and parsing with them.

One factory, `metamodel(kind)`, builds the metamodel of each language kotc reads:
rule files (`kotc`), card files (`card`), deck files (`deck`) and rulings
(`scenario`), from the grammars in `rules/`. kotc's loader parses through these;
`registration` registers the same languages with textX (`textx check`), adding
the whole-edition checks that kotc's loader runs itself.
"""

from __future__ import annotations

import functools
from typing import Any, TypeAlias

from textx import metamodel_from_file
from textx.metamodel import TextXMetaModel

from .shipped import EDITIONS_DIR, RULES_DIR

__all__ = ["EDITIONS_DIR", "RULES_DIR", "TextXModel", "metamodel", "parse", "parse_other"]

# textX ships no type information, so to the type checker its metamodels
# (`TextXMetaModel`) and the models they parse are `Any`: this module is where they
# enter kotc. A parsed model is named `TextXModel`; the loaders (`convert` for rule
# files, `cards`, `scenarios`) turn it into kotc's own typed data.
TextXModel: TypeAlias = Any

# the root grammar of each language, in `rules/`
GRAMMARS = {"kotc": "kotc.tx", "card": "card.tx", "deck": "deck.tx",
            "scenario": "scenario.tx"}


def metamodel(kind: str) -> TextXMetaModel:
    """A new metamodel of one of kotc's languages (a key of `GRAMMARS`): its grammar,
    with keywords kept out of names (`autokwd`)."""
    return metamodel_from_file(str(RULES_DIR / GRAMMARS[kind]), autokwd=True)


@functools.cache
def _shared(kind: str) -> TextXMetaModel:
    return metamodel(kind)


def parse(text: str, path: str) -> TextXModel:
    """Parse one rule file's text with the kotc metamodel (no validation)."""
    return _shared("kotc").model_from_str(text, file_name=path)


def parse_other(kind: str, text: str, path: str) -> TextXModel:
    """Parse a card file (`kind="card"`), a deck file (`"deck"`) or a scenario
    file (`"scenario"`)."""
    return _shared(kind).model_from_str(text, file_name=path)
