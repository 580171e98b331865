"""Bounds on the work one rule may ask of the engine: how large a stat may grow,
how many dice one roll may throw, how many rounds one `repeat` may run.

A rule file can ask for anything its grammar allows (`roll 1000 * 1000 * 1000
dice`, a card with `sp 1000000000000`); played, that exhausts memory or never
ends. No edition's rulebook comes near these numbers, so each bound is far past
play and far below harm; an edition may state tighter ones (`kotc.dsl.limits`).
Where the value is written as a number the check happens as the file is checked
(`kotc.dsl.cards`, for a card's stats); where it is computed, here, as the game
runs: the step raises `LimitExceeded`, which names the bound, the value and the
rule that asked, and ends the game as an error, never a traceback or a hang.

The checks are the methods of an engine's `Bounds`, called from the few
primitives and statements that do the work (rolling dice, a repeat, setting a
stat, the loops of a step), so the engine keeps one line for each.
"""

from __future__ import annotations

from typing import Any, NoReturn

from kotc.dsl import Ruleset
from kotc.dsl.limits import DEFAULT_LIMITS, bounds

__all__ = ["LIMITS", "Bounds", "LimitExceeded", "check_dice", "check_repeat",
           "check_stat"]

# kotc's own bounds: name -> (bound, what it bounds); a value past one is refused
LIMITS: dict[str, tuple[int, str]] = DEFAULT_LIMITS


class LimitExceeded(ValueError):
    """A rule asked for more than a bound; its message says which bound (and the
    rule that states it, when an edition does), the value asked for, and the rule
    that asked (its citation)."""

    def __init__(self, limit: str, value: int, cite: Any, bound: int | None = None,
                 stated: Any = None) -> None:
        most, what = LIMITS[limit]
        bound = most if bound is None else bound
        rule = f" by {cite}" if cite is not None else ""
        source = f", stated by {stated}" if stated is not None else ""
        super().__init__(f"{what} asked{rule} is {_shown(value)}, past the bound of "
                         f"{bound:,} ({limit}{source}); the game stops here")
        self.limit, self.value, self.cite = limit, value, cite
        self.bound, self.stated = bound, stated

    def __reduce__(self) -> tuple[type[LimitExceeded], tuple[Any, ...]]:
        # raised in a pool's worker, it is pickled back to the run: rebuilt from
        # what it was made of (the default would pass the message as `limit`)
        return type(self), (self.limit, self.value, self.cite, self.bound, self.stated)


def _shown(value: int) -> str:
    text = f"{value:,}"
    return text if len(text) <= 30 else f"a number of {len(str(abs(value)))} digits"


class Bounds:
    """The bounds in force under one ruleset: kotc's, or tighter ones the edition
    states (`kotc.dsl.limits`). An engine keeps one; the primitives and programs
    that do the work call its checks."""

    __slots__ = ("values", "stated")

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        found = bounds(ruleset)
        self.values = {name: b.value for name, b in found.items()}
        self.stated = {name: b.rule.cite for name, b in found.items()
                       if b.rule is not None}

    # each check: one test where the value is within its bound (the common case);
    # a bool or None, what the rule computes, is not checked

    def _refuse(self, limit: str, value: int, cite: Any) -> NoReturn:
        raise LimitExceeded(limit, value, cite, self.values[limit],
                            self.stated.get(limit))

    def check_dice(self, n: Any, cite: Any) -> None:
        """Refuse a roll of more dice than `dice_per_roll`.

        Raises:
            LimitExceeded: past the bound.
        """
        if type(n) is int and abs(n) > self.values["dice_per_roll"]:
            self._refuse("dice_per_roll", n, cite)

    def check_repeat(self, n: Any, cite: Any, g: Any = None) -> None:
        """Refuse a repeat of more rounds than `repeat_rounds`; for game `g`, count
        its rounds as the work of the step (`check_work`).

        Raises:
            LimitExceeded: past a bound.
        """
        if type(n) is not int:
            return
        if abs(n) > self.values["repeat_rounds"]:
            self._refuse("repeat_rounds", n, cite)
        if g is not None and n > 0:
            self.check_work(g, n, cite)

    def check_work(self, g: Any, rounds: int, cite: Any) -> None:
        """Count `rounds` more loop rounds (of a `for each` or a `repeat`) run since
        game `g`'s last decision, and refuse more in all than `work_per_step`: 25
        nested loops over the players are each small, together 2^25 rounds.

        Raises:
            LimitExceeded: past the bound.
        """
        if g.work_at != g.applied:  # a decision since: counted anew
            g.work_at, g.work = g.applied, 0
        g.work += rounds
        if g.work > self.values["work_per_step"]:
            self._refuse("work_per_step", g.work, cite)

    def check_stat(self, value: Any, cite: Any) -> None:
        """Refuse a stat set beyond `stat_value` either way.

        Raises:
            LimitExceeded: past the bound.
        """
        if type(value) is int and abs(value) > self.values["stat_value"]:
            self._refuse("stat_value", value, cite)


# kotc's own bounds, for what no ruleset states
_DEFAULT = Bounds()
check_dice = _DEFAULT.check_dice
check_repeat = _DEFAULT.check_repeat
check_stat = _DEFAULT.check_stat
