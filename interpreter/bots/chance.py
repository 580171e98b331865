"""Chance as decisions: each random event of a game, its outcomes listed.

In normal play a game's dice, shuffles and random picks come from its seeded
generator (`kotc.runtime.dice.Dice`), and a ruling scripts the dice it names;
both go through the same calls (`roll`, `shuffle`, `sample`, `randint`).
`ExplicitChance` answers those same calls from outside instead: each random
event is a chance decision among equally likely outcomes, answered by the
outcomes given to it in order. When they run out, the game's step stops with
`ChanceNeeded`, which says what is being decided and how many outcomes there
are; the caller (`kotc.bots.BotGame`, an OpenSpiel chance node) picks one and
plays the step again from where it began, with one outcome more. Nothing about
the future lies in the game then: a clone knows no die or shuffle to come.

A shuffle of n cards is n - 1 such decisions (Fisher-Yates: which of the first
i + 1 cards goes to place i, for i from n - 1 down to 1); a random pick of k
items is k decisions (which of those left); a die is one decision of six.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kotc.runtime.dice import FACES, Dice

# the kinds of chance event, as `ChanceEvent.kind` names them
DIE, SHUFFLE, PICK, COUNT = "die", "shuffle", "pick", "count"


@dataclass(frozen=True)
class ChanceEvent:
    """One chance decision: its kind and how many outcomes it has, all equally
    likely (outcome i of a die is the face `FACES[i]`)."""

    kind: str
    outcomes: int

    def probabilities(self) -> list[tuple[int, float]]:
        """Each outcome with its probability, as OpenSpiel lists chance outcomes."""
        p = 1.0 / self.outcomes
        return [(i, p) for i in range(self.outcomes)]

    def label(self, outcome: int) -> str:
        """An outcome as a person reads it (`die shows 4`)."""
        if self.kind == DIE:
            return f"die shows {FACES[outcome]}"
        if self.kind == SHUFFLE:
            return f"shuffle: card {outcome + 1} of the first {self.outcomes} goes on"
        if self.kind == PICK:
            return f"random pick: item {outcome + 1} of {self.outcomes}"
        return f"random count: {outcome} above the least"


class ChanceNeeded(Exception):
    """A game reached a chance event and its `ExplicitChance` had no outcome left
    for it: the step must be played again with one more outcome."""

    def __init__(self, event: ChanceEvent):
        super().__init__(f"a chance decision is needed: {event.kind} of {event.outcomes}")
        self.event = event


class ExplicitChance(Dice):
    """Dice with no generator: every random event is a chance decision answered
    by `outcomes`, in order (see the module's docstring). A scripted die (a
    ruling's) is still taken first, as `Dice` takes it.

    Args:
        outcomes: the outcomes chosen so far, each an index into its event's.
        script: die faces to take before any chance decision.
    """

    def __init__(self, outcomes: list[int] | None = None,
                 script: list[int] | None = None):
        # no `Dice.__init__`: there is no generator to seed
        self.script = list(script or [])
        self.outcomes = list(outcomes or [])
        self.taken = 0  # how many outcomes the game has used

    def _decide(self, kind: str, n: int) -> int:
        if n <= 1:
            return 0  # one outcome: no decision
        if self.taken < len(self.outcomes):
            outcome = self.outcomes[self.taken]
            if not 0 <= outcome < n:
                raise ValueError(
                    f"chance outcome {outcome} is not one of the {n} of a {kind}"
                )
            self.taken += 1
            return outcome
        raise ChanceNeeded(ChanceEvent(kind, n))

    def roll(self) -> int:
        if self.script:
            return self.script.pop(0)
        return FACES[self._decide(DIE, len(FACES))]

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._decide(SHUFFLE, i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: list[Any], k: int) -> list[Any]:
        pool = list(items)
        return [pool.pop(self._decide(PICK, len(pool))) for _ in range(k)]

    def randint(self, lo: int, hi: int) -> int:
        return lo + self._decide(COUNT, hi - lo + 1)

    @property
    def spent(self) -> bool:
        """Whether the game has used every outcome given."""
        return self.taken == len(self.outcomes)

    def copy(self) -> ExplicitChance:
        d = ExplicitChance(self.outcomes[self.taken:], self.script)
        return d

    def to_json(self) -> dict[str, Any]:
        """As a seeded generator's record (a saved game restores as one): explicit
        chance is a way of playing, not part of a game's state."""
        return Dice(0, self.script).to_json()
