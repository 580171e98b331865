"""`BotGame`: a game as a bot plays it.

The names a bot needs, apart from the engine's internals: who decides
(`current_player`), the legal actions as integers of a fixed space and as a mask,
each action's typed fields (`spec`), observations for a seat as text and as a
tensor, chance decisions (`chance_outcomes`) when chance is explicit, the
returns, and copies that are fair to a seat (`resample`).

Chance is played one of two ways:

- `sampled` (normal play): dice, shuffles and random picks come from the game's
  seeded generator, inside each step, as `kotc.Game` plays them;
- `explicit`: each of them is a chance decision (`current_player == CHANCE`),
  its equally likely outcomes listed, answered by `apply` like any action
  (OpenSpiel's chance nodes). The game then holds no generator: nothing in it, or
  in a clone of it, knows a die or shuffle to come. (See `kotc.bots.chance`.)
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from kotc.dsl import Ruleset, load_edition
from kotc.dsl.shipped import deck_file
from kotc.engine.decks import game_decks
from kotc.engine.game import DEFAULT_MAX_TURNS, Deck, Engine, Game, card_pool
from kotc.runtime.actions import Action, IllegalAction
from kotc.runtime.dice import Dice

from .chance import ChanceEvent, ChanceNeeded, ExplicitChance
from .encoding import ActionSpace, ActionSpec
from .knowledge import Knowledge, places
from .observe import ObservationSpec, observation_string
from .resample import resample

# OpenSpiel's player ids for a chance decision and for a game that is over
CHANCE = -1
TERMINAL = -4
SAMPLED, EXPLICIT = "sampled", "explicit"


@dataclass(frozen=True)
class Table:
    """What every game of one kind shares: the rules and cards compiled, the
    decks by seat, the limits, and the action and observation layouts."""

    engine: Engine
    decks: tuple[Deck, ...]  # as given: seats take them in turn
    players: int
    max_turns: int
    space: ActionSpace
    observation: ObservationSpec

    @staticmethod
    def make(edition: str | Ruleset, decks: list[Deck] | list[str] | None = None,
             players: int = 2, max_turns: int = DEFAULT_MAX_TURNS) -> Table:
        """The table for games of an edition.

        Args:
            edition: a shipped edition's name, a rule file's path, or a `Ruleset`.
            decks: `Deck`s, or deck files (`EDITION/DECK` names a starter deck);
                default: the edition's first two starter decks (or a generated
                one). Seats take them in turn.
            players: how many play.
            max_turns: the game ends (by agreement) after this many turns.

        Raises:
            RulesetError: the edition or a deck file cannot be read, or a deck is
                not legal under the edition.
            ValueError: the edition is not played by that many players.
        """
        rs = load_edition(edition) if isinstance(edition, str) else edition
        if not decks:
            chosen, _ = game_decks(rs, None)
        elif all(isinstance(d, Deck) for d in decks):
            chosen = [d for d in decks if isinstance(d, Deck)]
        else:
            chosen, _ = game_decks(rs, [str(deck_file(str(d))) for d in decks])
        engine = Engine.shared(rs, card_pool(list(chosen)))
        dealt = sum(len(d.cards) + len(d.set_aside)
                    for d in (chosen[s % len(chosen)] for s in range(players)))
        space = ActionSpace(engine, players, dealt)
        return Table(engine, tuple(chosen), players, max_turns, space,
                     ObservationSpec(engine, players, space.cards))

    @functools.cached_property
    def empty(self) -> Game:
        """The table before a game is set up: no card dealt (what is observed while
        the setup awaits chance). Only read, never played."""
        return Game.position(self.engine.rs, list(self.engine.pool), self.players,
                             max_turns=self.max_turns)

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self  # shared by the games of the table, never changed

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what makes it (a process pool, or OpenSpiel, sends it so): the
        compiled engine is found again, or compiled, where it is unpickled."""
        return (Table.make, (self.engine.rs, list(self.decks), self.players,
                             self.max_turns))

    def new_game(self, seed: int, dice: Dice | None = None) -> Game:
        """A game of this table set up (it raises `ChanceNeeded` with explicit
        dice that run out)."""
        return Game.new(self.engine.rs, list(self.decks), seed=seed, players=self.players,
                        max_turns=self.max_turns, dice=dice, engine=self.engine)


@dataclass
class _Pending:
    """A step stopped at a chance decision: what it started from (None: the game's
    setup), the action it takes, and the outcomes chosen so far."""

    base: Game | None
    action: Action | None
    outcomes: list[int]
    event: ChanceEvent


class BotGame:
    """One game, as a bot plays it (see the module's docstring).

    Make one with `BotGame.new`; `apply` takes integers of `space`.
    """

    def __init__(self, table: Table, game: Game | None, knowledge: Knowledge,
                 chance: str, pending: _Pending | None = None,
                 moves: list[tuple[int, int]] | None = None, seed: int = 0):
        self.table = table
        self.game = game  # None only while an explicit setup awaits chance
        self.knowledge = knowledge
        self.chance = chance
        self.pending = pending
        # (who, integer) of each action taken; CHANCE took each chance outcome
        self.moves: list[tuple[int, int]] = moves or []
        self.seed = seed
        self._legal: dict[int, Action] | None = None

    @classmethod
    def new(cls, edition: str | Ruleset | Table,
            decks: list[Deck] | list[str] | None = None, players: int = 2,
            seed: int = 0, max_turns: int = DEFAULT_MAX_TURNS,
            chance: str = SAMPLED) -> BotGame:
        """A new game, set up and at its first decision (a chance decision, when
        chance is explicit).

        Args:
            edition: as `Table.make` takes it, or a `Table` (then `decks`,
                `players` and `max_turns` are the table's).
            decks: as `Table.make` takes them.
            players: how many play.
            seed: seeds the generator (sampled chance).
            max_turns: a limit on the game's length, in turns.
            chance: `sampled` or `explicit` (see the module's docstring).

        Raises:
            ValueError: an unknown `chance`, or as `Table.make` raises.
        """
        if chance not in (SAMPLED, EXPLICIT):
            raise ValueError(f"chance is '{SAMPLED}' or '{EXPLICIT}', not '{chance}'")
        table = edition if isinstance(edition, Table) else Table.make(
            edition, decks, players, max_turns)
        bot = cls(table, None, Knowledge(table.players), chance, seed=seed)
        if chance == SAMPLED:
            bot._settled(table.new_game(seed), None, None)
        else:
            bot._play(None, None, [])
        return bot

    # --- who decides, and on what --------------------------------------------------

    @property
    def history(self) -> list[int]:
        """The integers applied so far, chance outcomes included."""
        return [a for _, a in self.moves]

    @property
    def space(self) -> ActionSpace:
        return self.table.space

    @property
    def is_over(self) -> bool:
        return self.pending is None and self.game is not None and self.game.is_over

    @property
    def is_chance(self) -> bool:
        return self.pending is not None

    @property
    def current_player(self) -> int:
        """The deciding seat, `CHANCE` at a chance decision, `TERMINAL` once over."""
        if self.pending is not None:
            return CHANCE
        assert self.game is not None
        player = self.game.current_player
        return TERMINAL if player is None else player

    def options(self) -> dict[int, Action]:
        """The legal actions of the deciding seat, by their integers, ascending
        (empty at a chance decision and once over)."""
        if self.pending is not None or self.game is None:
            return {}
        if self._legal is None:
            self._legal = self.space.legal(self.game, self.game.legal_actions())
        return self._legal

    def legal_actions(self) -> list[int]:
        """The integers that may be applied now: the deciding seat's actions, or
        the outcomes of a chance decision."""
        if self.pending is not None:
            return list(range(self.pending.event.outcomes))
        return list(self.options())

    def legal_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action of the deciding seat, over the whole space."""
        mask = np.zeros(self.space.size, np.int8)
        mask[list(self.options())] = 1
        return mask

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance decision under way, with their probabilities.

        Raises:
            ValueError: no chance decision is under way.
        """
        if self.pending is None:
            raise ValueError("no chance decision is under way")
        return self.pending.event.probabilities()

    def spec(self, action: int) -> ActionSpec:
        """The typed fields an integer stands for."""
        return self.space.spec_at(action)

    def label(self, action: int) -> str:
        """An action as a person reads it: the legal option's label where it is
        one, else what its integer stands for."""
        if self.pending is not None:
            return self.pending.event.label(action)
        option = self.options().get(action)
        return option.label if option is not None else str(self.spec(action))

    # --- playing ------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Take a legal action (or a chance outcome) by its integer.

        Raises:
            IllegalAction: the integer is not legal now; the message lists what is.
        """
        action = int(action)
        pending = self.pending
        if pending is not None:
            if not 0 <= action < pending.event.outcomes:
                raise IllegalAction(
                    f"{action} is not an outcome of this chance decision "
                    f"(0..{pending.event.outcomes - 1})"
                )
            self.moves.append((CHANCE, action))
            self._play(pending.base, pending.action, pending.outcomes + [action])
            return
        option = self.options().get(action)
        if option is None:
            assert self.game is not None
            if self.game.is_over:
                raise IllegalAction("the game is over")
            legal = ", ".join(f"{i} ({self.label(i)})" for i in list(self.options())[:8])
            raise IllegalAction(f"action {action} is not legal now; legal: {legal}")
        game = self.game
        assert game is not None
        self.moves.append((game.decision.player if game.decision else TERMINAL, action))
        if self.chance == SAMPLED:
            before = places(game)
            events = game.apply(option)
            self._legal = None
            self.knowledge.update(game, before, events)
        else:
            self._play(game, option, [])

    def _play(self, base: Game | None, action: Action | None,
              outcomes: list[int]) -> None:
        """Play a step with explicit chance from where it began, with the outcomes
        chosen so far; stop at the next chance decision, or settle."""
        dice = ExplicitChance(outcomes)
        try:
            if base is None:
                game = self.table.new_game(self.seed, dice)
            else:
                assert action is not None
                game = base.clone()
                game.rng = dice
                game.apply(action)
        except ChanceNeeded as need:
            self.pending = _Pending(base, action, outcomes, need.event)
            self._legal = None
            return
        self._settled(game, base, action)

    def _settled(self, game: Game, base: Game | None, action: Action | None) -> None:
        self.pending = None
        self._legal = None
        if base is None:
            self.knowledge.update(game, None, game.events)
        else:
            # the step's events are those the base had not logged
            self.knowledge.update(game, places(base), game.events[len(base.events):])
        self.game = game

    # --- what a seat observes -------------------------------------------------------

    def observation_string(self, seat: int) -> str:
        """What `seat` observes, as text (see `kotc.bots.observe`)."""
        return observation_string(self.observed_game(), seat)

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """What `seat` observes, as a flat float32 array of
        `table.observation.size`."""
        return self.table.observation.tensor(self.observed_game(), seat)

    def observed_game(self) -> Game:
        """The game the seats observe (only read it): at a chance decision, the
        game as it was before the step that awaits chance (nothing of the step is
        seen until it is done); before the setup, an empty table."""
        if self.pending is None and self.game is not None:
            return self.game
        if self.pending is not None and self.pending.base is not None:
            return self.pending.base
        return self.table.empty

    def returns(self) -> list[float]:
        """Each seat's return: 0 until the game is over; then the winners share
        the win and each other seat loses 1/(n-1) (zero-sum: two players +1 and
        -1, a tie 0 for all)."""
        n = self.table.players
        if not self.is_over:
            return [0.0] * n
        assert self.game is not None
        return outcome_returns(self.game.result, n)

    # --- copies ---------------------------------------------------------------------

    def clone(self) -> BotGame:
        """An exact copy: with sampled chance it holds the same generator, and so
        the same future (a bot's search wants `resample`)."""
        copy = BotGame(self.table, self.game.clone() if self.game is not None else None,
                       self.knowledge.copy(), self.chance,
                       None if self.pending is None else _Pending(
                           self.pending.base, self.pending.action,
                           list(self.pending.outcomes), self.pending.event),
                       list(self.moves), self.seed)
        copy._legal = self._legal
        return copy

    def resample(self, seat: int, rng: random.Random | int) -> BotGame:
        """A copy consistent with everything `seat` knows, the cards it cannot tell
        apart dealt anew and a new generator: nothing in it predicts the real
        game's dice, shuffles or hidden cards (OpenSpiel's
        `resample_from_infostate`). Made where `seat` decides, as a search does;
        made where another seat decides, that seat's options stay those the real
        game listed (the copy's own decisions are listed from its cards).

        Raises:
            ValueError: at a chance decision (resample where a seat decides).
        """
        if self.pending is not None or self.game is None:
            raise ValueError("resample where a seat decides, not at a chance decision")
        rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        dice = ExplicitChance() if self.chance == EXPLICIT else None
        game = resample(self.game, self.knowledge, seat, rng, dice)
        return BotGame(self.table, game, self.knowledge.copy(), self.chance,
                       None, list(self.moves), self.seed)

    # --- saving -----------------------------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        return (BotGame.from_json, (self.to_json(), self.table))

    # `copy.deepcopy` (OpenSpiel's clone of a Python state) clones: the table and
    # compiled rules are shared, the game copied as `Game.clone` copies it
    def __deepcopy__(self, memo: dict[int, Any]) -> BotGame:
        return self.clone()

    def to_json(self) -> str:
        """The game as JSON: the engine's state, the chance mode, what each seat
        knows, the moves so far, and a chance decision under way."""
        data: dict[str, Any] = {
            "chance": self.chance,
            "seed": self.seed,
            "moves": self.moves,
            "knowledge": self.knowledge.to_json(),
            "game": None if self.game is None else self.game.to_json(),
        }
        if self.pending is not None:
            p = self.pending
            data["pending"] = {
                "base": None if p.base is None else p.base.to_json(),
                "action": None if p.action is None else p.action.to_json(),
                "outcomes": p.outcomes,
            }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, table: Table) -> BotGame:
        """The game `to_json` wrote, on the table it was played at.

        Raises:
            ValueError: the text is not such a game, or one of another table.
        """
        try:
            data = json.loads(text)
            engine = table.engine
            game = None if data["game"] is None else Game.from_json(data["game"], engine)
            bot = cls(table, game, Knowledge.from_json(data["knowledge"]),
                      data["chance"], None, [(int(p), int(a)) for p, a in data["moves"]],
                      int(data["seed"]))
            p = data.get("pending")
        except (KeyError, TypeError, json.JSONDecodeError) as err:
            raise ValueError(
                f"not a saved bot game ({type(err).__name__}: {err})") from None
        if p is not None:
            base = None if p["base"] is None else Game.from_json(p["base"], engine)
            action = None if p["action"] is None else _listed(base, p["action"])
            bot._play(base, action, [int(o) for o in p["outcomes"]])
        return bot


def outcome_returns(result: dict[str, Any] | None, players: int) -> list[float]:
    """Returns from a game's result: winners share the win, others lose 1/(n-1)
    each; no winner, no return. Zero-sum, within [-1/(n-1), 1]."""
    if not result or players < 2:
        return [0.0] * players
    winner, tied = result.get("winner"), result.get("tied") or []
    winners = [int(winner)] if winner is not None else [int(s) for s in tied]
    if not winners or len(winners) == players:
        return [0.0] * players
    share = 1.0 / (players - 1)
    win = (players - len(winners)) * share / len(winners)
    return [win if s in winners else -share for s in range(players)]


def _listed(base: Game | None, written: dict[str, Any]) -> Action:
    """The option of `base`'s decision that a saved action names."""
    action = Action.from_json(written)
    if base is not None:
        for option in base.legal_actions():
            if option == action:
                return option
    return action

