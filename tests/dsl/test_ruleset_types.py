"""The Ruleset's typed views agree with the syntax trees they type."""

from __future__ import annotations

import sys
import typing

import pytest
from kotc.dsl import Ruleset, ast


def _setting_classes() -> dict[str, type[ast.Setting]]:
    """Every setting rule of `ast`, by the setting name it answers to."""
    return {cls.setting: cls for cls in vars(ast).values()
            if isinstance(cls, type) and issubclass(cls, ast.Setting)
            and cls is not ast.Setting}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="typing.get_overloads is 3.11+")
def test_each_setting_name_is_typed_as_its_rule_class():
    typed: dict[str, object] = {}
    for overload in typing.get_overloads(Ruleset.setting):
        hints = typing.get_type_hints(overload)
        (name,) = typing.get_args(hints["name"])
        typed[name] = hints["return"]
    expected = {name: cls | None for name, cls in _setting_classes().items()}
    assert typed == expected
