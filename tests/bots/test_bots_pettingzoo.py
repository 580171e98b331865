"""kotc as a PettingZoo AEC environment: PettingZoo's own API test passes for every
edition, with 2 and 3 players (a few turns each, a bounded number of cycles)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed "
                    "(pip install 'kotc[bots]')")

from kotc.pettingzoo import env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402


@pytest.mark.parametrize("players", [2, 3])
def test_api_test(edition, players):
    with warnings.catch_warnings():
        # as for PettingZoo's own card and board games: a dict observation
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(env(edition=edition, players=players, max_turns=8), num_cycles=60)


def test_a_loop_plays_a_seeded_game_to_its_end(edition):
    table = env(edition=edition, players=2, max_turns=30)
    finals = {}
    for _ in range(2):
        table.reset(seed=5)
        rng = np.random.default_rng(5)
        rewards = {a: 0.0 for a in table.possible_agents}
        steps = 0
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            rewards[agent] += reward
            if terminated or truncated:
                action = None
            else:
                mask = observation["action_mask"]
                assert mask.any() and observation["observation"].dtype == np.float32
                action = int(rng.choice(np.flatnonzero(mask)))
            table.step(action)
            steps += 1
        assert sum(rewards.values()) == pytest.approx(0)
        finals[steps] = rewards
    assert len(finals) == 1, "one seed, one game"


def test_a_bad_render_mode_is_refused(edition):
    with pytest.raises(ValueError, match="render_mode is one of ansi, human"):
        env(edition=edition, render_mode="movie")
