"""kotc as a PettingZoo AEC environment.

::

    from kotc.pettingzoo import env

    table = env(edition=EDITION, players=2)  # a shipped edition, or a rule file
    table.reset(seed=1)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            action = None
        else:  # a random legal action
            action = table.action_space(agent).sample(observation["action_mask"])
        table.step(action)

The agents are `player_0`, `player_1`...: one per seat; the one selected is the
seat that decides. Each observation is a dict, as PettingZoo's classic games
give them: `observation`, the seat's view as a float32 tensor
(`kotc.bots.observe`), and `action_mask`, 1 for each legal action of the fixed
action space (`kotc.bots.encoding`); the mask is all 0 for a seat not deciding.
Dice, shuffles and random picks come from the game's generator, seeded by
`reset(seed=...)`. Rewards come at the end: the winners share the win, each
other seat loses 1/(n-1) (two players: +1 and -1; no winner: 0). A seat
eliminated before the end plays no more and is told its reward with the
others'.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from kotc.bots import BotGame, Table
from kotc.engine.game import DEFAULT_MAX_TURNS
from kotc.engine.view import view
from kotc.runtime.limits import LIMITS

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # the `bots` extra brings them
    raise ImportError(
        "kotc.pettingzoo needs PettingZoo: pip install 'kotc[bots]'"
    ) from err

RENDER_MODES = ("ansi", "human")
# no stat, HP or count in a game goes past the engine's bound on a stat
BOUND = float(LIMITS["stat_value"][0])


def env(edition: str, players: int = 2, decks: list[str] | None = None,
        max_turns: int = DEFAULT_MAX_TURNS, render_mode: str | None = None) -> Any:
    """A kotc game as a PettingZoo AEC environment, wrapped as PettingZoo's own
    environments are (steps out of turn refused).

    Args:
        edition: a shipped edition's name or a rule file's path.
        players: how many play.
        decks: deck files (`EDITION/DECK` names a starter deck); default: the
            edition's first two starter decks. Seats take them in turn.
        max_turns: the game ends (by agreement) after this many turns.
        render_mode: `ansi` (`render()` returns the table as a watcher sees it)
            or `human` (printed after each step).

    Raises:
        RulesetError: the edition or a deck file cannot be read, or a deck is
            not legal under it.
        ValueError: the edition is not played by that many players, or an
            unknown render mode.
    """
    return wrappers.OrderEnforcingWrapper(
        raw_env(edition, players, decks, max_turns, render_mode))


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """The environment `env` wraps."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "kotc_v0",
                "is_parallelizable": False}

    def __init__(self, edition: str, players: int = 2,
                 decks: list[str] | None = None, max_turns: int = DEFAULT_MAX_TURNS,
                 render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)}, "
                             f"not '{render_mode}'")
        self.render_mode = render_mode
        self.table = Table.make(edition, decks, players, max_turns)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        size = self.table.observation.size
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.space.size,), np.int8),
        })
        self._action_space = spaces.Discrete(self.table.space.size)
        self.game: BotGame | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.game = BotGame.new(self.table, seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """The agent of the deciding seat (once over, the first agent left)."""
        assert self.game is not None
        if self.game.is_over:
            self.agent_selection = self.agents[0] if self.agents else ""
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        game = self.game
        deciding = not game.is_over and game.current_player == seat
        mask = game.legal_mask() if deciding else np.zeros(self.table.space.size, np.int8)
        return {"observation": game.observation_tensor(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        self.game.apply(int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.is_over:
            returns = self.game.returns()
            for a in self.agents:
                self.rewards[a] = returns[self.possible_agents.index(a)]
            self.terminations = dict.fromkeys(self.agents, True)
        self._cumulative_rewards[agent] = 0.0
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str:
        """The table as a watcher sees it (no hidden card named)."""
        if self.game is None or self.game.game is None:
            return ""
        seen = view(self.game.game, None)
        lines = [f"turn {seen['turn']}, player {seen['active']}'s, {seen['phase']}"]
        lines += [f"player {p['seat']}: {p['hp']} HP, "
                  + ", ".join(f"{z} {len(cards)}" for z, cards in p["zones"].items())
                  for p in seen["players"]]
        return "\n".join(lines)

    def close(self) -> None:
        self.game = None
