"""Many seeded games between agents: what a run plays with (`Table`), which games it
plays (`schedule`), and where: in this process, in a pool of processes, or on a
Dask cluster. Each plays the games in chunks and hands back each chunk's records
as it is done (`serial_results`, `pool_results`, `dask_results`), so that a run of
any size is written and tallied as it goes, in bounded memory.

A game is named by its seed and its rotation (how many seats the entrants are
moved on: a seat-swapped run plays each seed at every rotation), and its record
depends on nothing else: the same games give the same records whatever plays them.
"""

from __future__ import annotations

import gc
import importlib
import itertools
import logging
import multiprocessing
import signal
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kotc.dsl import Ruleset, load_edition
from kotc.engine.decks import game_decks, vanilla_deck
from kotc.engine.game import Deck, Engine, Game, card_pool, check_players
from kotc.runtime.limits import LimitExceeded

from .agents import AgentError, make_agents, play
from .records import Witness, game_record, play_parameters, table_digest

# the name a generated deck of ability-less minions goes by (`vanilla_deck`)
VANILLA = "vanilla"
# how long to wait for a Dask scheduler to answer
DASK_TIMEOUT = "20s"


@dataclass(frozen=True)
class Table:
    """What every game of a run is played with: the ruleset, and the entrants (a
    deck and an agent each, one per seat), the number of players and the turn
    limit. It pickles whole (ruleset and cards), so a process or a machine that
    plays its games needs no files of its own. `key` is its digest
    (`records.table_digest`), written in each record."""

    ruleset: Ruleset
    decks: tuple[Deck, ...]
    deck_names: tuple[str, ...]
    agents: tuple[str, ...]
    players: int
    max_turns: int
    key: str
    # how the rules' programs run (`Engine`'s backend): not in `key`, as both
    # play the same games
    backend: str = "generated"

    def seats(self, rotation: int) -> list[int]:
        """The entrant at each seat when the entrants are moved `rotation` seats on."""
        n = self.players
        return [(seat + rotation) % n for seat in range(n)]


def make_table(edition: str, deck_paths: list[str] | None, agents: list[str],
               players: int, max_turns: int, vanilla: bool = False,
               backend: str = "generated") -> Table:
    """The table of a run: the edition loaded, the decks read and checked once.

    Args:
        edition: a shipped edition's name or a rule file.
        deck_paths: deck files, one per entrant in turn (None: the edition's
            starter decks, or a generated deck where it ships none).
        agents: agent names (`agents.agent_maker`), one per entrant in turn.
        players: how many play.
        max_turns: the turn limit of each game.
        vanilla: play generated decks of ability-less minions.
        backend: how the rules' programs run ("generated" or "reference").

    Raises:
        RulesetError: the edition or a deck file does not load, or a deck is not
            legal under the edition.
        ValueError: no deck can be made, or the edition is not played by that many.
    """
    rs = load_edition(edition)
    check_players(rs, players)
    if vanilla:
        decks, names = [vanilla_deck(rs)], [VANILLA]
    else:
        decks, names = game_decks(rs, deck_paths, edition)
    entrant_decks = tuple(decks[i % len(decks)] for i in range(players))
    entrant_names = tuple(names[i % len(names)] for i in range(players))
    entrant_agents = tuple(agents[i % len(agents)] for i in range(players))
    key = table_digest(rs, entrant_decks, entrant_names, entrant_agents, players,
                       max_turns)
    return Table(rs, entrant_decks, entrant_names, entrant_agents, players, max_turns,
                 key, backend)


# --- which games ------------------------------------------------------------------------


class Recorded:
    """The games of a run already recorded (a seat-swapped run of a million seeds
    marks two million): a bit per game of the run's range of seeds, so a resumed run
    of any size is remembered in little memory."""

    def __init__(self, first_seed: int, games: int, rotations: int):
        self.first, self.games, self.rotations = first_seed, games, rotations
        self.bits = bytearray((games * rotations + 7) // 8)

    def _index(self, seed: int, rotation: int) -> int | None:
        i = seed - self.first
        if 0 <= i < self.games and 0 <= rotation < self.rotations:
            return i * self.rotations + rotation
        return None

    def add(self, seed: int, rotation: int) -> bool:
        """Mark a game; whether it is one of the run's and was not marked before."""
        i = self._index(seed, rotation)
        if i is None or self.bits[i >> 3] & (1 << (i & 7)):
            return False
        self.bits[i >> 3] |= 1 << (i & 7)
        return True

    def __contains__(self, game: tuple[int, int]) -> bool:
        i = self._index(*game)
        return i is not None and bool(self.bits[i >> 3] & (1 << (i & 7)))


def schedule(first_seed: int, games: int, rotations: int,
             recorded: Recorded | None = None) -> Iterator[tuple[int, int]]:
    """The games of a run, as (seed, rotation), seed by seed, passing over those
    already recorded."""
    for seed in range(first_seed, first_seed + games):
        for rotation in range(rotations):
            if recorded is None or (seed, rotation) not in recorded:
                yield seed, rotation


def chunks(games: Iterable[tuple[int, int]], size: int
           ) -> Iterator[list[tuple[int, int]]]:
    """The games in lists of `size` (the last may be shorter)."""
    it = iter(games)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: a few chunks per worker at least, so the work evens out, and
    at most 50, so a progress bar moves and an interrupted run loses little."""
    return max(1, min(50, games // (4 * workers) or 1))


# --- one game ------------------------------------------------------------------------


@dataclass
class _Ready:
    """A table made ready in a process: its engine, and what records are made with."""

    engine: Engine
    plays: dict[str, tuple[int, ...]]
    cites: dict[str, str]
    cards: list[list[str]]  # each entrant's distinct card names


# per process: table key and backend -> its engine and the rest, the newest last (a
# process plays one run's tables, or a few: the oldest are let go)
_READY: dict[tuple[str, str], _Ready] = {}
_KEPT = 4


def _ready(table: Table) -> _Ready:
    """The engine and the rest a table's games are played with, made once per
    process (each worker plays many games; compiling the cards takes longer than
    playing one)."""
    made = _READY.get((table.key, table.backend))
    if made is None:
        rs = table.ruleset
        engine = Engine.shared(rs, card_pool(list(table.decks)), table.backend)
        made = _READY[table.key, table.backend] = _Ready(
            engine, play_parameters(rs),
            {name: str(k.cite) for name, k in rs.keywords.items() if k.cite},
            [sorted({c.name for c in d.cards + d.set_aside}) for d in table.decks])
        while len(_READY) > _KEPT:
            del _READY[next(iter(_READY))]
        # they last as long as the process: the collector's full passes, which
        # walk every object kept, leave them out (a long run spent about 4% of
        # its time walking them)
        gc.freeze()
    return made


def play_game(table: Table, seed: int, rotation: int) -> dict[str, Any]:
    """Play one game of the run and make its record (`records.game_record`).

    Returns:
        The record; or, when an agent failed or a rule asked past a bound of
        `kotc.runtime.limits`, `{"seed", "rotation", "error"}` (told, not raised: a
        worker's answer must pickle).
    """
    ready = _ready(table)
    entrants = table.seats(rotation)
    decks = [table.decks[e] for e in entrants]
    game = Game.new(table.ruleset, decks, seed=seed, players=table.players,
                    max_turns=table.max_turns, engine=ready.engine)
    witness = Witness()
    agents = make_agents([table.agents[e] for e in entrants], seed, table.players)
    try:
        play(game, [witness.watch(a, seat) for seat, a in enumerate(agents)])
    except (AgentError, LimitExceeded) as err:
        return {"seed": seed, "rotation": rotation, "error": str(err)}
    seats = [(table.deck_names[e], table.agents[e]) for e in entrants]
    return game_record(game, witness, ready.plays, ready.cites, seats,
                       [ready.cards[e] for e in entrants], table.key, rotation)


def play_chunk(table: Table, games: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Play a chunk of games; their records in the chunk's order. Stops at a game
    that failed, its error record last."""
    records = []
    for seed, rotation in games:
        records.append(play_game(table, seed, rotation))
        if "error" in records[-1]:
            break
    return records


# --- where ----------------------------------------------------------------------------


class BackendError(Exception):
    """The workers cannot be had: Dask not installed, a scheduler not reached."""


# each chunk's records, as it is done
Results = Generator[list[dict[str, Any]], None, None]


def serial_results(table: Table, work: Iterable[list[tuple[int, int]]]) -> Results:
    """The chunks' records, played one chunk after another in this process."""
    for chunk in work:
        yield play_chunk(table, chunk)


_TABLE: list[Table] = []  # in a pool's worker: the table it plays (set as it starts)


def _start_worker(table: Table) -> None:
    # Ctrl-C at a terminal reaches the whole process group: the run that started
    # the worker stops it, so the worker itself does not print a traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _TABLE[:] = [table]


def _worker_chunk(games: list[tuple[int, int]]) -> list[dict[str, Any]]:
    return play_chunk(_TABLE[0], games)


def pool_results(table: Table, work: Iterable[list[tuple[int, int]]], workers: int
                 ) -> Results:
    """The chunks' records as each is done, played by a pool of `workers` processes.

    The table is sent to each worker once, as it starts; the chunks are handed out
    as workers ask (the queue between holds only a few). When the caller stops
    asking (an agent failed, Ctrl-C), the workers are stopped at once: the chunks
    in flight are lost, none queued is played.
    """
    with multiprocessing.Pool(workers, initializer=_start_worker,
                              initargs=(table,)) as pool:  # leaving it terminates
        yield from pool.imap_unordered(_worker_chunk, work)


def dask_results(table: Table, work: Iterable[list[tuple[int, int]]], *,
                 scheduler: str | None = None, workers: int = 2) -> Results:
    """The chunks' records as each is done, played on a Dask cluster: the one whose
    scheduler is at `scheduler` (`tcp://HOST:8786`; its workers need kotc and any
    agent's module installed), or, without one, a local cluster of `workers`
    processes started for the run and closed after it.

    The table is sent to every worker once; a few chunks per worker thread are in
    flight at a time, the next sent as one comes back. When the caller stops asking
    (an agent failed, Ctrl-C), those in flight are cancelled.

    Raises:
        BackendError: Dask is not installed (`pip install 'kotc[dask]'`), the
            scheduler cannot be reached, or a worker cannot import what the games
            need.
    """
    try:  # an optional extra: imported only by a run that asks for it (untyped)
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise BackendError("Dask is not installed; install it with "
                           "pip install 'kotc[dask]'") from None
    cluster = None
    try:
        if scheduler is None:
            # its worker processes start with Ctrl-C ignored (they inherit it): the
            # run that started them stops them, with no traceback from each
            interrupt = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                cluster = distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.ERROR)
            finally:
                signal.signal(signal.SIGINT, interrupt)
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(scheduler, timeout=DASK_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as err:
        if cluster is not None:
            cluster.close()
        where = scheduler or "a local cluster"
        raise BackendError(f"cannot reach the Dask scheduler at {where}: {err}"
                           ) from None
    pending = distributed.as_completed()
    try:
        shared = client.scatter(table, broadcast=True, hash=False)
        window = 2 * max(1, sum(client.nthreads().values()))
        todo = iter(work)
        for chunk in itertools.islice(todo, window):
            pending.add(client.submit(play_chunk, shared, chunk, pure=False))
        for future in pending:
            try:
                records = future.result()
            except ImportError as err:  # a worker without kotc, or an agent's module
                raise BackendError(f"a Dask worker cannot play the games: {err} (each "
                                   "worker needs kotc, and any agent's module, "
                                   "installed)") from None
            for chunk in itertools.islice(todo, 1):
                pending.add(client.submit(play_chunk, shared, chunk, pure=False))
            yield records
    finally:
        left = list(pending.futures)
        if left:
            client.cancel(left)
        client.close()
        if cluster is not None:
            cluster.close()

