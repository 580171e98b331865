"""kotc as OpenSpiel games: registered per edition, passing OpenSpiel's own random
simulation test (with serialisation), and played to the end by its MCTS bot and,
through `resample_from_infostate`, its ISMCTS bot.

Bounded for CI: one simulated game per edition and table, a few turns each
(`max_turns`), and a few simulations per search move.
"""

from __future__ import annotations

import pickle

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install 'kotc[bots]')")
kotc_openspiel = pytest.importorskip("kotc.openspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

# a few turns: random play seldom ends a game sooner, and each turn is many steps
TURNS = 6


def test_each_shipped_edition_is_registered(edition):
    assert f"kotc_{edition}" in kotc_openspiel.GAMES
    game = pyspiel.load_game(f"kotc_{edition}")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 2 and game.num_distinct_actions() > 0


@pytest.mark.parametrize("players", [2, 3])
def test_random_simulation_with_serialisation(edition, players):
    game = pyspiel.load_game(f"kotc_{edition}", {"players": players, "max_turns": TURNS})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_parameters_name_decks_and_a_rule_file(edition, tmp_path):
    base = pyspiel.load_game(f"kotc_{edition}")
    decks = base.table.decks
    assert decks, "the edition's starter decks are the default"
    house = tmp_path / "house.kotc"
    house.write_text(
        f'edition "house" number 99 extends "{edition}"\n'
        f'  source "a table\'s house rules"\n  summary "the edition, unchanged."\n'
        f'  contents {{ "Setup" }}\n', encoding="utf-8")
    game = pyspiel.load_game(f"kotc_{edition}", {"rules": str(house), "max_turns": 3})
    assert game.table.engine.rs.name == "house"
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while state.is_chance_node():  # (the same face for all would tie roll-offs on)
        state.apply_action(_chance(state, rng))
    assert state.legal_actions()
    with pytest.raises(Exception, match="no such rule file"):
        pyspiel.load_game(f"kotc_{edition}", {"rules": str(tmp_path / "none.kotc")})


def test_states_pickle_and_observe(edition):
    game = pyspiel.load_game(f"kotc_{edition}", {"max_turns": TURNS})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while state.is_chance_node():
        state.apply_action(_chance(state, rng))
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    player = state.current_player()
    tensor = state.observation_tensor(player)
    assert len(tensor) == game.observation_tensor_size() and any(tensor)
    assert state.observation_string(player) != state.observation_string(1 - player)
    assert state.information_state_string(player).startswith(
        state.observation_string(player))


def _play(game, bot, rng) -> list[float]:
    """A full game: `bot` at seat 0, random play at the others."""
    others = uniform_random.UniformRandomBot(1, rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(others.step(state))
    return state.returns()


def test_mcts_plays_full_games_against_random_play(edition):
    game = pyspiel.load_game(f"kotc_{edition}", {"max_turns": TURNS})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator,
                       random_state=rng, solve=False)
    returns = _play(game, bot, rng)
    assert sum(returns) == pytest.approx(0) and max(returns) in (0.0, 1.0)


def test_ismcts_plays_full_games_through_resample(edition):
    game = pyspiel.load_game(f"kotc_{edition}", {"max_turns": TURNS})
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6,
                           random_state=rng)
    resampled = []
    bot.set_resampler(lambda state, player: resampled.append(player) or
                      state.resample_from_infostate(
                          player, pyspiel.UniformProbabilitySampler(0.0, 1.0)))
    returns = _play(game, bot, rng)
    assert sum(returns) == pytest.approx(0)
    assert resampled and set(resampled) == {0}  # every search drew its worlds


def _chance(state, rng) -> int:
    """A chance outcome drawn by its probability."""
    outcomes = state.chance_outcomes()
    return int(rng.choice([a for a, _ in outcomes], p=[p for _, p in outcomes]))
