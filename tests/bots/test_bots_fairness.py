"""Fair search: a copy made for a seat predicts neither the game's next dice nor
its hidden cards better than chance, where an exact clone predicts them all.

Over many seeded games, at a decision after a few random steps, the next die
the real game would roll and the next card its deciding seat would draw are
compared with those of the seat's resample and of an exact clone. A fair
resample agrees as often as chance does (a die one time in six; a card as often
as a card drawn at random from those the seat cannot tell apart has the same
name); the clone agrees every time, which shows the comparison can tell.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from kotc.bots import BotGame, Table, unknown_cards

GAMES = 150


def _top(game: BotGame, seat: int, zone: str) -> str:
    """The name of the card on top of the seat's deck: its next draw."""
    g = game.game
    return g.cards[g.players[seat].zones[zone][-1]].name


def _bound(expected: float, variance: float) -> float:
    """Four standard deviations above what chance gives."""
    return expected + 4 * math.sqrt(max(variance, 1e-9))


def test_a_resample_predicts_no_die_and_no_draw(edition):
    table = Table.make(edition, players=2, max_turns=30)
    start = table.engine.start_zone
    dice = Counter()  # agreements of the next die: fair, exact
    draws = Counter()  # agreements of the next draw
    chance_draws, variance, compared = 0.0, 0.0, 0
    for seed in range(GAMES):
        game = BotGame.new(table, seed=seed)
        rng = random.Random(seed)
        for _ in range(seed % 4):
            if not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        seat = game.current_player
        fair = game.resample(seat, random.Random(10_000 + seed))
        exact = game.clone()
        real_die = game.game.rng.copy().roll()
        dice["fair"] += fair.game.rng.copy().roll() == real_die
        dice["exact"] += exact.game.rng.copy().roll() == real_die
        dice["n"] += 1
        deck = game.game.players[seat].zones[start]
        if not deck:
            continue
        top = _top(game, seat, start)
        draws["fair"] += _top(fair, seat, start) == top
        draws["exact"] += _top(exact, seat, start) == top
        # what chance gives: a card drawn from those of the seat it cannot tell apart
        g = game.game
        pool = [g.cards[c].name for c in unknown_cards(g, game.knowledge, seat)
                if g.cards[c].owner == seat]
        p = pool.count(top) / len(pool)
        chance_draws += p
        variance += p * (1 - p)
        compared += 1
    assert dice["n"] > GAMES * 0.8 and compared > GAMES * 0.5
    assert dice["exact"] == dice["n"] and draws["exact"] == compared  # a clone peeks
    n = dice["n"]
    assert dice["fair"] <= _bound(n / 6, n * (1 / 6) * (5 / 6)), dice
    assert draws["fair"] <= _bound(chance_draws, variance), (draws, chance_draws)
    # and no worse than chance either: the resample is not rigged against the truth
    assert draws["fair"] >= chance_draws - 4 * math.sqrt(variance), (draws, chance_draws)
