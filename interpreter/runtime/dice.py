"""Dice and shuffles from one seeded generator, which a test can script."""

from __future__ import annotations

import random
from typing import Any

# a die's faces, each as likely as the others: what a roll is a choice among
FACES = (1, 2, 3, 4, 5, 6)


class Dice:
    """Six-sided dice: seeded, or scripted with the values to come.

    A script is consumed first; when it runs out, the seeded generator goes on.
    The generator's whole state is saved with the game, so a restored game rolls
    exactly as the original would have.
    """

    def __init__(self, seed: int = 0, script: list[int] | None = None):
        self.random = random.Random(seed)
        self.script = list(script or [])

    def roll(self) -> int:
        if self.script:
            return self.script.pop(0)
        # `randint(1, 6)` as `random` makes it, with no calls in between: three
        # random bits, drawn again while they make 6 or 7
        getrandbits = self.random.getrandbits
        r = getrandbits(3)
        while r >= 6:
            r = getrandbits(3)
        return r + 1

    def shuffle(self, items: list[Any]) -> None:
        self.random.shuffle(items)

    def sample(self, items: list[Any], k: int) -> list[Any]:
        return self.random.sample(items, k)

    def randint(self, lo: int, hi: int) -> int:
        return self.random.randint(lo, hi)

    def copy(self) -> Dice:
        d = Dice.__new__(Dice)
        d.random = _unseeded()
        d.random.setstate(self.random.getstate())
        d.script = list(self.script)
        return d

    def to_json(self) -> dict[str, Any]:
        version, internal, gauss = self.random.getstate()
        return {"state": [version, list(internal), gauss], "script": self.script}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Dice:
        d = Dice.__new__(Dice)
        d.random = _unseeded()
        version, internal, gauss = data["state"]
        d.random.setstate((version, tuple(internal), gauss))
        d.script = list(data["script"])
        return d


def _unseeded() -> random.Random:
    """A generator whose whole state is about to be set: not seeded first (from
    the system's entropy, several times the cost of the copy itself)."""
    return random.Random.__new__(random.Random)
