"""Chance as decisions: listed outcomes, one path for scripted dice, the seeded
generator and outcomes chosen from outside; a game that holds no future."""

from __future__ import annotations

import random

import pytest
from kotc import Game, starter_decks
from kotc.bots import CHANCE, BotGame, ChanceNeeded, ExplicitChance
from kotc.runtime.dice import FACES, Dice


def test_a_die_is_a_chance_decision_among_the_faces():
    dice = ExplicitChance()
    with pytest.raises(ChanceNeeded) as need:
        dice.roll()
    event = need.value.event
    assert event.kind == "die" and event.outcomes == len(FACES)
    assert event.probabilities() == [(i, 1 / 6) for i in range(6)]
    assert [ExplicitChance([i]).roll() for i in range(6)] == list(FACES)


def test_scripted_dice_come_first_on_every_path():
    # a ruling's script, then the seeded generator (normal play) ...
    seeded = Dice(7, [6, 6, 1])
    assert [seeded.roll() for _ in range(3)] == [6, 6, 1]
    assert seeded.roll() == Dice(7).roll()
    # ... or, with explicit chance, the outcomes chosen from outside
    explicit = ExplicitChance([2], script=[5])
    assert [explicit.roll(), explicit.roll()] == [5, FACES[2]]
    with pytest.raises(ChanceNeeded):
        explicit.roll()


def test_a_shuffle_is_one_decision_per_place():
    cards = list(range(5))
    with pytest.raises(ChanceNeeded) as need:
        ExplicitChance([0, 0]).shuffle(list(cards))
    assert need.value.event.kind == "shuffle" and need.value.event.outcomes == 3
    # all zeros: each place takes the first card left, a rotation
    ExplicitChance([0, 0, 0, 0]).shuffle(cards)
    assert cards == [1, 2, 3, 4, 0]
    with pytest.raises(ValueError, match="not one of the 2"):
        ExplicitChance([0, 0, 0, 5]).shuffle(list(range(5)))


def test_rulings_still_script_dice_through_the_game(edition):
    # a game scripted with sixes: its first roll-off (where the setup has one) is
    # all sixes, for every player; one seeded alike but not scripted is not
    scripted = Game.new(edition, starter_decks(edition), seed=1, dice=[6] * 40)
    seeded = Game.new(edition, starter_decks(edition), seed=1)
    offs = [e.data["totals"] for e in scripted.events if e.kind == "roll_off"]
    if not offs:
        pytest.skip(f"the {edition} edition's setup rolls no dice")
    first = list(offs[0].values())
    assert len(set(first)) == 1 and first[0] % 6 == 0
    unscripted = next(e.data["totals"] for e in seeded.events if e.kind == "roll_off")
    assert unscripted != offs[0]


def test_explicit_chance_games_stop_at_each_die_and_hold_no_future(edition):
    game = BotGame.new(edition, seed=0, chance="explicit", max_turns=20)
    rng = random.Random(0)
    kinds = set()
    while not game.is_over:
        if game.current_player == CHANCE:
            kinds.add(game.pending.event.kind)
            outcomes = game.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            game.apply(rng.choice(outcomes)[0])
            continue
        clone = game.clone().game
        # nothing in the game, nor its clone, knows a die to come
        for g in (game.game, clone):
            with pytest.raises(ChanceNeeded):
                g.rng.copy().roll()
        game.apply(rng.choice(game.legal_actions()))
    assert "shuffle" in kinds  # the setup's shuffles were chance decisions too
