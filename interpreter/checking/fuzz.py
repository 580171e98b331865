"""Random exploration of a ruleset's games, every invariant checked at each step.

`exploration(table)` builds a hypothesis `RuleBasedStateMachine` that starts a
seeded game, plays a random stretch of it to reach a random position, then takes
random legal actions (one at a time, or in seeded bursts), checking every
invariant of `kotc.checking.invariants` after every step. The stateful tests run it
for each shipped edition; `kotc fuzz` runs it on any ruleset. A failing run
leaves its `Trail`: the seed and every action from the start of the game, which
replays the violation exactly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import note
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)
from kotc.dsl import Ruleset
from kotc.dsl.shipped import ruleset_starter_deck_files
from kotc.engine.decks import checked_deck, deck_from_file, vanilla_deck
from kotc.engine.game import Deck, Engine, Game, card_pool, check_players

from .invariants import Monitor, Violation


@dataclass
class Table:
    """What the explored games are played with: ruleset, decks, players, limits.

    `deck_files` are the deck files the decks were read from (empty for the
    generated vanilla deck), so a counterexample can name them.
    """

    ruleset: Ruleset
    decks: list[Deck]
    deck_files: list[Path]
    engine: Engine
    players: int = 2
    max_turns: int = 60
    seed_base: int = 0


def starter_deck_files(ruleset: Ruleset) -> list[Path]:
    """The starter decks of the nearest shipped edition of the ruleset's lineage
    (found by its file, never by a name a file gives itself), so an edited edition
    plays with the cards of the one it extends."""
    return ruleset_starter_deck_files(ruleset.files)[:2]


def table_for(ruleset: Ruleset, deck_files: list[Path] | None = None, players: int = 2,
              max_turns: int = 60, seed_base: int = 0,
              backend: str = "generated") -> Table:
    """A table for a ruleset: the given deck files, or its lineage's starter decks,
    or a generated vanilla deck; its engine runs the rules' programs by `backend`
    (see `kotc.engine.game.Engine`).

    Raises:
        OSError, RulesetError: a deck file cannot be read or does not parse.
        ValueError: the ruleset is not played by that many players.
    """
    check_players(ruleset, players)
    files = list(deck_files) if deck_files else starter_deck_files(ruleset)
    # starter decks are judged under the edited rules, as named ones are by the CLI
    decks = ([deck_from_file(f)[1] for f in files] if deck_files
             else [checked_deck(f, ruleset) for f in files]) or [vanilla_deck(ruleset)]
    engine = Engine.shared(ruleset, card_pool(decks), backend)
    return Table(ruleset, decks, files, engine, players, max_turns, seed_base)


@dataclass
class Trail:
    """A game from its seed to a broken invariant: every action, in order, as
    `(seat, index among the legal actions, label)`."""

    seed: int
    players: int
    max_turns: int
    actions: list[tuple[int, int, str]] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)

    def replay(self, table: Table) -> tuple[Game, list[Violation]]:
        """Play the trail again; returns the game and what broke at its last step."""
        g = Game.new(table.ruleset, table.decks, seed=self.seed, players=self.players,
                     max_turns=self.max_turns, engine=table.engine, trace=True)
        monitor = Monitor(g)
        found = monitor.check()
        for _seat, index, _label in self.actions:
            found = monitor.apply(g.legal_actions()[index])
        return g, found


def _quiet(legal: list, giving_up: set) -> list:
    """The legal actions without concessions, unless nothing else is left."""
    keep = [a for a in legal if not (a.kind == "act" and a.value[0] in giving_up)]
    return keep or legal


def exploration(table: Table, warmup: int = 300, burst: int = 40,
                seeds: int = 10_000) -> type[RuleBasedStateMachine]:
    """A state machine exploring the table's games.

    Args:
        table: the ruleset and decks to play.
        warmup: at most this many random steps before hypothesis takes over, so
            runs start from positions deep in a game.
        burst: at most this many random steps taken in a row.
        seeds: game seeds are drawn from `table.seed_base` up to this many more.

    Returns:
        A `RuleBasedStateMachine` subclass; its `failures` collects the trail of
        every failing run, the last one being the shrunk counterexample.
    """
    giving_up = table.engine.referee.concessions

    class Exploration(RuleBasedStateMachine):
        failures: list[Trail] = []

        def __init__(self):
            super().__init__()
            self.game: Game | None = None
            self.monitor: Monitor | None = None
            self.trail: Trail | None = None
            self.broken: list[Violation] = []

        @property
        def live(self) -> bool:
            return self.game is not None and not self.game.is_over and not self.broken

        @initialize(seed=st.integers(0, seeds), steps=st.integers(0, warmup))
        def start(self, seed: int, steps: int) -> None:
            self._new_game(seed, steps)

        def _new_game(self, seed: int, steps: int) -> None:
            seed += table.seed_base
            self.game = Game.new(table.ruleset, table.decks, seed=seed,
                                 players=table.players, max_turns=table.max_turns,
                                 engine=table.engine, trace=True)
            self.trail = Trail(seed, table.players, table.max_turns)
            self.monitor = Monitor(self.game)
            self.broken = self.monitor.check()
            self._play(random.Random(seed), steps)

        # One rule, always enabled: with a rule per kind of step, each enabled only
        # in some states, hypothesis drew a disabled one often enough to throw away
        # some two runs in five, each after playing into its game.
        @rule(data=st.data())
        def step(self, data) -> None:
            """A new game once one is over; otherwise an action hypothesis picks, or a
            burst of random ones."""
            if self.game.is_over:
                self._new_game(data.draw(st.integers(0, seeds), label="seed"),
                               data.draw(st.integers(0, warmup), label="warmup"))
            elif data.draw(st.booleans(), label="burst"):
                steps = data.draw(st.integers(1, burst), label="steps")
                self._play(random.Random(data.draw(st.integers(0, 2**16), label="seed")),
                           steps)
            else:
                legal = self.game.legal_actions()
                index = data.draw(st.integers(0, len(legal) - 1), label="action")
                note(f"take '{legal[index]}'")
                self._take(index)

        def _play(self, rng: random.Random, steps: int) -> None:
            for _ in range(steps):
                if not self.live:
                    return
                legal = self.game.legal_actions()
                self._take(legal.index(rng.choice(_quiet(legal, giving_up))))

        def _take(self, index: int) -> None:
            g = self.game
            action = g.legal_actions()[index]
            self.trail.actions.append((g.current_player, index, str(action)))
            self.broken = self.monitor.apply(action)

        @invariant()
        def invariants_hold(self) -> None:
            if self.broken:
                self.trail.violations = list(self.broken)
                type(self).failures.append(self.trail)
                raise AssertionError(report(self.trail))

    Exploration.__name__ = f"Exploration_{_identifier(table.ruleset.name)}"
    return Exploration


def shrink(table: Table, trail: Trail, seconds: float = 20.0,
           tick: Callable[[], None] | None = None) -> Trail:
    """A shorter trail from the same seed that breaks one of the same invariants.

    Removes stretches of actions, halving their length down to one (delta
    debugging); an action index past the legal actions of its new position wraps
    around. Stops when no stretch can go or the time is up.

    Args:
        table: the table the trail was played on.
        trail: a failing trail.
        seconds: the time budget.
        tick: called after each attempt (a progress bar).
    """
    want = {v.invariant for v in trail.violations}
    deadline = time.monotonic() + seconds
    best = trail
    chunk = max(len(best.actions) // 2, 1)
    while time.monotonic() < deadline:
        i = 0
        while i < len(best.actions) and time.monotonic() < deadline:
            indices = [a[1] for a in best.actions]
            shorter = _attempt(table, best, indices[:i] + indices[i + chunk:], want)
            if tick is not None:
                tick()
            if shorter is not None and len(shorter.actions) < len(best.actions):
                best = shorter
            else:
                i += chunk
        if chunk == 1:
            break
        chunk = max(chunk // 2, 1)
    return best


def _attempt(table: Table, trail: Trail, indices: list[int],
             want: set[str]) -> Trail | None:
    """Play `indices` from the trail's seed; the trail up to the first broken
    invariant if it is one of `want`, else None."""
    g = Game.new(table.ruleset, table.decks, seed=trail.seed, players=trail.players,
                 max_turns=trail.max_turns, engine=table.engine, trace=True)
    monitor = Monitor(g)
    found = monitor.check()
    taken: list[tuple[int, int, str]] = []
    for i in indices:
        if found or g.is_over:
            break
        legal = g.legal_actions()
        index = i % len(legal)
        taken.append((g.current_player, index, str(legal[index])))
        found = monitor.apply(legal[index])
    if found and {v.invariant for v in found} & want:
        return Trail(trail.seed, trail.players, trail.max_turns, taken, found)
    return None


def report(trail: Trail) -> str:
    """A failing trail in words: what broke, then how to get there."""
    lines = [str(v) for v in trail.violations]
    lines.append(f"after {len(trail.actions)} actions from the start of a game "
                 f"with seed {trail.seed} ({trail.players} players)")
    return "\n".join(lines)


def _identifier(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)


__all__ = [
    "Table", "Trail", "exploration", "report", "shrink", "starter_deck_files",
    "table_for",
]
