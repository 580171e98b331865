"""Many seeded games between agents, tallied: one game's record (`one_game`, a
plain dict a worker process can send back) and the summary of many (`summary`).
Each process makes its ruleset, decks and engine once (`setup`)."""

from __future__ import annotations

import gc
import statistics
from collections import Counter

from kotc.dsl import load_edition
from kotc.engine.decks import game_decks
from kotc.engine.game import Engine, Game, card_pool

from .agents import AgentError, make_agents, play


def one_game(
    edition: str, deck_paths, seed: int, players: int, max_turns: int, agents: list
) -> dict:
    rs, decks, engine = setup(edition, deck_paths)
    game = Game.new(
        rs, decks, seed=seed, players=players, max_turns=max_turns, engine=engine
    )
    try:
        play(game, make_agents(agents, seed, players))
    except AgentError as err:  # told, not raised: a worker's report must pickle
        return {"seed": seed, "error": str(err)}
    return {
        "winner": game.result["winner"],
        "first": game.first_player,
        "turns": game.turn,
        "decisions": game.applied,
        "usage": game.usage,
        "condition": game.result["condition"],
    }


# what each process plays with: (edition, deck files) -> (ruleset, decks, engine)
SETUPS: dict = {}


def setup(edition: str, deck_paths) -> tuple:
    """The ruleset, decks and engine games are played with, made once per process
    (each worker plays many games; parsing the deck files anew for each game took
    longer than playing it)."""
    key = (edition, tuple(deck_paths or ()))
    made = SETUPS.get(key)
    if made is None:
        rs = load_edition(edition)
        decks, _ = game_decks(rs, deck_paths, edition)
        engine = Engine.shared(rs, card_pool(decks))
        made = SETUPS[key] = (rs, decks, engine)
        # they last as long as the process: the collector's full passes, which
        # walk every object kept, leave them out (a long run spent about 4% of
        # its time walking them)
        gc.freeze()
    return made


def summary(results: list[dict], players: int, seconds: float) -> dict:
    wins = Counter(r["winner"] for r in results)
    first_wins = sum(1 for r in results if r["winner"] == r["first"])
    usage: Counter = Counter()
    games_using: Counter = Counter()
    for r in results:
        usage.update(r["usage"])
        games_using.update(r["usage"].keys())
    turns = [r["turns"] for r in results]
    n = len(results)
    return {
        "games": n,
        "win_rate": {str(s): wins.get(s, 0) / n for s in range(players)},
        "ties": wins.get(None, 0) / n,
        "first_player_win_rate": first_wins / n,
        "turns": {"mean": statistics.mean(turns), "min": min(turns), "max": max(turns)},
        "ended_by": dict(Counter(r["condition"] for r in results)),
        "chain_lengths": {
            k.split()[-1]: v for k, v in usage.items() if k.startswith("chain length")
        },
        "keywords": {
            k: v
            for k, v in usage.items()
            if not k.startswith(("counter ", "chain length"))
        },
        "counters": {
            k.split()[1]: v for k, v in usage.items() if k.startswith("counter ")
        },
        "decisions": sum(r["decisions"] for r in results),
        "seconds": round(seconds, 2),
    }

