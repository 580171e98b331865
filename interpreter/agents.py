"""Players that choose actions: random (seeded), first-legal, and scripted."""

from __future__ import annotations

import random
from collections.abc import Iterable

from .actions import Action, IllegalAction


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator.

    It does not concede (forfeit, agree to stop) unless told to or left no other
    choice: a random player who gives up at random ends most games at once.
    """

    def __init__(self, seed: int = 0, concede: bool = False):
        self.rng = random.Random(seed)
        self.concede = concede

    def act(self, game) -> Action:
        legal = game.legal_actions()
        if not self.concede:
            legal = _keep_playing(game, legal)
        return self.rng.choice(legal)


class FirstLegalAgent:
    """Always takes the first legal action that does not concede: deterministic and
    quick to reason about."""

    def act(self, game) -> Action:
        return _keep_playing(game, game.legal_actions())[0]


class ScriptedAgent:
    """Plays a list of actions in order, each named by its label or its kind.

    Raises:
        IllegalAction: when the next scripted action is not legal, or the script ran
            out while the game still wants a decision (naming that decision).
    """

    def __init__(self, script: Iterable[str | Action]):
        self.script = list(script)

    def act(self, game) -> Action:
        legal = game.legal_actions()
        if not self.script:
            d = game.decision
            raise IllegalAction(
                f"the script has no answer for player {d.player}'s decision: {d.prompt}"
            )
        want = self.script.pop(0)
        for a in legal:
            if a == want or a.label == want or (a.kind == want and a.value is None):
                return a
        raise IllegalAction(
            f"scripted '{want}' is not legal at {game.decision.prompt}; "
            f"legal: {', '.join(a.label or a.kind for a in legal)}"
        )


def _keep_playing(game, legal: list[Action]) -> list[Action]:
    """The legal actions but those that give the game up, unless nothing else is left."""
    giving_up = game.engine.referee.concessions
    keep = [a for a in legal if not (a.kind == "act" and a.value[0] in giving_up)]
    return keep or legal


def play(game, agents: list) -> None:
    """Let each seat's agent decide until the game is over."""
    while not game.is_over:
        game.apply(agents[game.current_player].act(game))
