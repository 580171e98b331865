"""Shared for the bot tests: the shipped editions, and random play of a BotGame."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from kotc.bots import BotGame
from kotc.dsl.load import edition_files

EDITIONS = sorted(edition_files())


def _play_randomly(game: BotGame, rng: random.Random, steps: int = 10_000) -> int:
    """Play random legal actions (and chance outcomes) until the end or `steps`;
    returns how many were taken."""
    taken = 0
    while not game.is_over and taken < steps:
        game.apply(rng.choice(game.legal_actions()))
        taken += 1
    return taken


@pytest.fixture(params=EDITIONS)
def edition(request: pytest.FixtureRequest) -> str:
    """Each shipped edition."""
    return str(request.param)


@pytest.fixture
def play_randomly() -> Callable[..., int]:
    return _play_randomly
