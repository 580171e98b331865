"""The kotc language: one factory for the textX metamodel of rule files.

Everything that parses rule files goes through `metamodel()`; `kotc_language`
registers the same grammar with textX (`textx check editions/17th.kotc`), with a
model processor that runs the whole of kotc's validation, so `textx check`
reports what `kotc check` reports.
"""

from __future__ import annotations

import functools
from pathlib import Path

from textx import TextXSemanticError, language, metamodel_from_file

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"
EDITIONS_DIR = ROOT / "editions"


@functools.lru_cache(maxsize=1)
def metamodel():
    """The bare metamodel (grammar only); built once per process."""
    return metamodel_from_file(str(RULES_DIR / "kotc.tx"), autokwd=True)


def _check_model(model, metamodel) -> None:
    """Model processor for `textx check`: load the file as kotc does, raise the first
    problem located, with every other problem listed in its message."""
    from .load import RulesetError, load_path

    path = model._tx_filename
    if path is None:
        return
    try:
        load_path(path, use_cache=False)
    except RulesetError as err:
        first, *rest = err.diagnostics
        message = first.message
        if rest:
            message += "\n" + "\n".join(str(d) for d in rest)
        raise TextXSemanticError(
            message, line=first.origin.line, col=first.origin.col,
            filename=first.origin.file,
        ) from None


@language("kotc", "*.kotc")
def kotc_language():
    """Keeper of the Cards rulesets: one rulebook edition per file."""
    mm = metamodel_from_file(str(RULES_DIR / "kotc.tx"), autokwd=True)
    mm.register_model_processor(_check_model)
    return mm
