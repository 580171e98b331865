"""Bounds on the work one rule may ask of the engine: how large a stat may grow,
how many dice one roll may throw, how many rounds one `repeat` may run.

A rule file can ask for anything its grammar allows (`roll 1000 * 1000 * 1000
dice`, a card with `sp 1000000000000`); played, that exhausts memory or never
ends. No edition's rulebook comes near these numbers, so each bound is far past
play and far below harm. Where the value is written as a number the check
happens as the file is checked (`kotc.dsl.legality`, for a card's stats); where
it is computed, here, as the game runs: the step raises `LimitExceeded`, which
names the bound, the value and the rule that asked, and ends the game as an
error, never a traceback or a hang.

The checks are plain functions, called from the few primitives that do the
work (rolling dice, a repeat, setting a stat), so the engine keeps one line for
each.
"""

from __future__ import annotations

from typing import Any

from kotc.dsl.cards import MAX_STAT_VALUE

__all__ = ["LIMITS", "LimitExceeded", "check_dice", "check_repeat", "check_stat"]

# name -> (bound, what it bounds); a value past the bound is refused.
LIMITS: dict[str, tuple[int, str]] = {
    "stat_value": (MAX_STAT_VALUE, "a stat's value"),
    "dice_per_roll": (10_000, "the dice of one roll"),
    "repeat_rounds": (100_000, "the rounds of one repeat"),
}


class LimitExceeded(ValueError):
    """A rule asked for more than a bound of `LIMITS`; its message says which
    bound, the value asked for, and the rule (its citation)."""

    def __init__(self, limit: str, value: int, cite: Any) -> None:
        bound, what = LIMITS[limit]
        rule = f" by {cite}" if cite is not None else ""
        super().__init__(f"{what} asked{rule} is {_shown(value)}, past the bound of "
                         f"{bound:,} ({limit}); the game stops here")
        self.limit, self.value, self.cite = limit, value, cite

    def __reduce__(self) -> tuple[type[LimitExceeded], tuple[str, int, Any]]:
        # raised in a pool's worker, it is pickled back to the run: rebuilt from
        # what it was made of (the default would pass the message as `limit`)
        return type(self), (self.limit, self.value, self.cite)


def _shown(value: int) -> str:
    text = f"{value:,}"
    return text if len(text) <= 30 else f"a number of {len(str(abs(value)))} digits"


def _check(limit: str, value: Any, cite: Any, floor: int | None = 0) -> None:
    if type(value) is not int:  # a bool or None: what the rule computes, unchecked
        return
    bound = LIMITS[limit][0]
    if value > bound or (floor is not None and value < -bound):
        raise LimitExceeded(limit, value, cite)


def check_dice(n: Any, cite: Any) -> None:
    """Refuse a roll of more dice than `dice_per_roll`.

    Raises:
        LimitExceeded: past the bound.
    """
    _check("dice_per_roll", n, cite)


def check_repeat(n: Any, cite: Any) -> None:
    """Refuse a repeat of more rounds than `repeat_rounds`.

    Raises:
        LimitExceeded: past the bound.
    """
    _check("repeat_rounds", n, cite)


def check_stat(value: Any, cite: Any) -> None:
    """Refuse a stat set beyond `stat_value` either way.

    Raises:
        LimitExceeded: past the bound.
    """
    _check("stat_value", value, cite)
