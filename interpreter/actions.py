"""Actions and decisions: every choice a player makes goes through these.

An `Action` is one legal move at a `Decision`. Its `kind` says what sort of
choice it is (`act` an opened action, `pick` a card or player, `done`, `yes`,
`no`, `option`, `pass`, `end`...), its `value` what was chosen; both are plain
JSON-friendly data, so scripted agents and scenario files can name actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kotc_dsl import ast

from .values import decode, encode


@dataclass(frozen=True)
class Action:
    kind: str
    value: Any = None
    label: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.label or (self.kind if self.value is None else f"{self.kind} {self.value}")

    def to_json(self) -> dict:
        return {"kind": self.kind, "value": encode(self.value), "label": self.label}

    @staticmethod
    def from_json(data: dict) -> Action:
        value = decode(data.get("value"))
        if isinstance(value, list):
            value = _tuples(value)
        return Action(data["kind"], value, data.get("label", ""))


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


@dataclass
class Decision:
    """Who must choose now, what kind of choice it is, and the legal actions.

    `resume` names who continues once the choice is made: the program machine
    ("vm") or a flow task. `cite` is the rule that asks for the choice.
    """

    player: int
    prompt: str
    options: list[Action]
    resume: str = "vm"
    cite: ast.Citation | None = None


class IllegalAction(Exception):
    """An action that is not legal now; the message names the rule."""
