"""JSON Schemas of what each `kotc` command prints with `--format json`.

One file per command (`check.schema.json`, `card-check.schema.json`...), and
`event.schema.json` for each line of `kotc play --format json` and of `--log`.
A script may validate what it reads against them; the tests hold every command's
output to its schema.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["COMMANDS", "schema"]

COMMANDS = ("editions", "check", "show", "diff", "card-check", "deck-check",
            "deck-coverage", "event", "simulate", "report", "test", "fuzz", "fmt",
            "graph")


def schema(command: str) -> dict[str, Any]:
    """The JSON Schema of `command`'s output (a name of `COMMANDS`).

    Raises:
        KeyError: no schema of that name.
    """
    if command not in COMMANDS:
        raise KeyError(f"no schema '{command}'; there are: {', '.join(COMMANDS)}")
    text = (resources.files(__name__) / f"{command}.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
