"""Players that choose actions: random (seeded), first-legal, and scripted; `play`,
which lets them decide in turn; and `agent_maker`, the agent a command names
(one of these, or one of the user's own, `MODULE:NAME`)."""

from __future__ import annotations

import importlib
import os
import random
import sys
from collections.abc import Callable, Iterable
from typing import Any

from kotc.runtime.actions import Action, IllegalAction


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
    giving_up = game.referee.concessions
    keep = [a for a in legal if not (a.kind == "act" and a.value[0] in giving_up)]
    return keep or legal


class AgentError(Exception):
    """An agent failed to decide: its `act` raised `error`, or chose an action the
    game refused (`error` is then the `IllegalAction`)."""

    def __init__(self, seat: int, agent: Any, error: Exception):
        super().__init__(f"player {seat}'s agent: {type(error).__name__}: {error}")
        self.seat, self.agent, self.error = seat, agent, error


def play(game, agents: list) -> None:
    """Let each seat's agent decide until the game is over.

    Raises:
        AgentError: an agent's `act` raised, or chose an illegal action.
    """
    while not game.is_over:
        seat = game.current_player
        agent = agents[seat]
        try:
            action = agent.act(game)
        except Exception as err:
            raise AgentError(seat, agent, err) from err
        try:
            game.apply(action)
        except IllegalAction as err:  # the engine's own errors are not the agent's
            raise AgentError(seat, agent, err) from err


def agent_maker(spec: str) -> Callable[[int], Any]:
    """What makes an agent named on the command line, given a seed: `random`,
    `first`, or `MODULE:NAME`, a class or function of a module (importable, or a
    `.py` file in the current directory) that, called with a seed, returns an
    object with `act(game) -> action`.

    Raises:
        ValueError: no such module or name, or the name is not callable; and, from
            the maker, an agent that cannot be made from a seed or cannot act.
    """
    if spec == "random":
        return RandomAgent
    if spec == "first":
        return lambda seed: FirstLegalAgent()
    module, colon, name = spec.partition(":")
    if not (colon and module and name):
        raise ValueError(
            f"unknown agent '{spec}': write random, first, or MODULE:NAME (a class "
            "or function of a module that makes an agent from a seed)"
        )
    if os.getcwd() not in sys.path:  # as `python -m` would: the current directory
        sys.path.insert(0, os.getcwd())
    try:
        found = importlib.import_module(module)
    except Exception as err:  # not found, or it fails as it is read
        raise ValueError(
            f"agent '{spec}': cannot import {module}: {type(err).__name__}: {err}"
        ) from None
    maker = getattr(found, name, None)
    if not callable(maker):
        raise ValueError(f"agent '{spec}': {module} has no class or function {name}")

    def make(seed: int) -> Any:
        try:
            agent = maker(seed)
        except Exception as err:
            raise ValueError(
                f"agent '{spec}': {name}(seed) failed: {type(err).__name__}: {err}"
            ) from None
        if not callable(getattr(agent, "act", None)):
            raise ValueError(f"agent '{spec}': what {name}(seed) makes has no act(game)")
        return agent

    return make


def make_agents(specs: list[str], seed: int, players: int, human=None) -> list:
    """An agent per seat, of the kinds given in turn (one kind: every seat), each
    made with a seed of its own; `human` makes the agent of a seat where a person
    plays."""
    agents = []
    for seat in range(players):
        spec = specs[seat % len(specs)]
        if spec == "human":
            agents.append(human())
        else:
            agents.append(agent_maker(spec)(seed * 1000 + seat))
    return agents

