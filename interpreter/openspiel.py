"""kotc as OpenSpiel games.

Importing this module registers each shipped edition as an OpenSpiel Python game
named `kotc_<edition>` (`kotc_17th`...), as OpenSpiel's own Python games and its
pokerkit wrapper are registered::

    import pyspiel
    import kotc.openspiel  # noqa: F401 (registers the games)

    game = pyspiel.load_game("kotc_17th", {"players": 3})

Parameters (each optional):

- `players`: how many play (default 2);
- `decks`: deck files separated by commas, `EDITION/DECK` naming a starter deck
  (default: the edition's first two starter decks); seats take them in turn;
- `rules`: a rule file to play instead of the edition itself (house rules that
  extend it, say); the decks must be legal under it;
- `max_turns`: the game ends by agreement after this many turns (default 300).

The game is sequential, zero-sum, with terminal rewards, imperfect information
and explicit chance: every die, shuffle and random pick is a chance node, its
equally likely outcomes listed (`kotc.bots.chance`), so a state, and a clone of
it, holds nothing of the future. Actions are the integers of `kotc.bots`'
action space; observations are the seat's `view` as text and as a tensor; the
information state adds the number of moves so far and the seat's own past
actions. `resample_from_infostate` deals anew the cards the player cannot tell
apart (`kotc.bots.resample`), so OpenSpiel's ISMCTS bot searches without
peeking.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from kotc.bots import EXPLICIT, BotGame, Table
from kotc.dsl import Ruleset, load_edition
from kotc.dsl.load import edition_files
from kotc.engine.game import DEFAULT_MAX_TURNS

try:
    import numpy as np
    import pyspiel
except ImportError as err:  # the `bots` extra brings it
    raise ImportError(
        "kotc.openspiel needs OpenSpiel: pip install 'kotc[bots]'"
    ) from err

DEFAULTS: dict[str, Any] = {
    "players": 2, "decks": "", "rules": "", "max_turns": DEFAULT_MAX_TURNS,
}


def game_type(edition: str, ruleset: Ruleset) -> pyspiel.GameType:
    """The OpenSpiel game type of an edition: its name, and its players' range
    (the ruleset's `players` setting; at most 8 where it sets no upper bound)."""
    allowed = ruleset.setting("setup", "players")
    lo = allowed.count.lo if allowed and allowed.count.lo else 2
    hi = allowed.count.hi if allowed and allowed.count.hi else max(lo, 8)
    return pyspiel.GameType(
        short_name=f"kotc_{edition}",
        long_name=f"{ruleset.game} ({edition} edition)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=DEFAULTS,
    )


class KotcGame(pyspiel.Game):
    """An edition of a game's rules as an OpenSpiel game (one subclass per
    shipped edition is registered: `EDITION` names it)."""

    EDITION = ""  # set by each registered subclass

    def __init__(self, params: dict[str, Any] | None = None):
        self.params = {**DEFAULTS, **(params or {})}
        self.table = _table(str(self.params["rules"]) or self.EDITION,
                            str(self.params["decks"]), int(self.params["players"]),
                            int(self.params["max_turns"]))
        players = self.table.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.space.size,
            # a die's six faces, or a shuffle's or random pick's places
            max_chance_outcomes=max(6, self.table.space.cards),
            num_players=players,
            min_utility=-1.0 / (players - 1) if players > 1 else 0.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.table.engine.max_decisions,
        )
        super().__init__(_TYPES[self.EDITION], info, self.params)

    def new_initial_state(self) -> KotcState:
        return KotcState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> KotcObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KotcObserver(self.table, perfect_recall)


class KotcState(pyspiel.State):
    """A game in progress: a `kotc.bots.BotGame` played with explicit chance."""

    def __init__(self, game: KotcGame, bot: BotGame | None = None):
        super().__init__(game)
        self.bot = bot if bot is not None else BotGame.new(game.table, chance=EXPLICIT)

    def current_player(self) -> int:
        return self.bot.current_player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.bot.current_player:
            return []
        return self.bot.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.bot.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.bot.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.bot.label(action)

    def is_terminal(self) -> bool:
        return self.bot.is_over

    def returns(self) -> list[float]:
        return self.bot.returns()

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any) -> KotcState:
        """A state `player_id` cannot tell from this one, its unseen cards dealt anew
        (`kotc.bots.resample`), drawn with `probability_sampler`."""
        rng = random.Random(int(probability_sampler() * 2**53))
        copy: KotcState = self.clone()  # the framework's history, and this state's
        copy.bot = self.bot.resample(player_id, rng)
        return copy

    def __str__(self) -> str:
        """The whole state, as a watcher and each seat see it (for debugging)."""
        bot = self.bot
        seen = [bot.observation_string(s) for s in range(bot.table.players)]
        chance = f"\nchance: {bot.pending.event}" if bot.pending else ""
        return f"move {len(bot.history)}{chance}\n" + "\n".join(seen)


class KotcObserver:
    """An observer, as OpenSpiel's Python games give them: `tensor` and its named
    views in `dict` (`kotc.bots.observe`), `set_from` and `string_from`."""

    def __init__(self, table: Table, perfect_recall: bool):
        self.layout = table.observation
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = self.layout.views(self.tensor)

    def set_from(self, state: KotcState, player: int) -> None:
        bot = state.bot
        self.layout.fill(bot.observed_game(), player, self.tensor)

    def string_from(self, state: KotcState, player: int) -> str:
        bot = state.bot
        text = bot.observation_string(player)
        if self.perfect_recall:
            mine = [str(a) for p, a in bot.moves if p == player]
            text += f"\nmoves {len(bot.moves)}; mine: {' '.join(mine) or '-'}"
        return text


@functools.lru_cache(maxsize=32)
def _table(rules: str, decks: str, players: int, max_turns: int) -> Table:
    """The table of a game's parameters, made once per process (OpenSpiel makes a
    game anew for each state it deserializes)."""
    named = [d.strip() for d in decks.split(",") if d.strip()]
    return Table.make(load_edition(rules), named or None, players, max_turns)


_TYPES: dict[str, pyspiel.GameType] = {}


def register() -> list[str]:
    """Register `kotc_<edition>` for each shipped edition not yet registered;
    returns the names of all of them."""
    names = []
    registered = {t.short_name for t in pyspiel.registered_games()}
    for edition in edition_files():
        name = f"kotc_{edition}"
        names.append(name)
        if name in registered:
            continue
        _TYPES[edition] = game_type(edition, load_edition(edition))
        cls = type(f"Kotc{edition.capitalize()}Game", (KotcGame,), {"EDITION": edition})
        pyspiel.register_game(_TYPES[edition], cls)
    return names


GAMES = register()
