"""The engine's dice: the values `random` gives, a script first, and a saved state
that rolls on as the original."""

from __future__ import annotations

import random

import pytest
from kotc.runtime.dice import Dice


@pytest.mark.parametrize("seed", [0, 1, 7, 2024, 10**9 + 7])
def test_a_seeded_roll_is_randint_1_6_of_the_same_seed(seed):
    # seeded games replay the same whatever way a roll is drawn
    dice, reference = Dice(seed), random.Random(seed)
    assert [dice.roll() for _ in range(2000)] == [
        reference.randint(1, 6) for _ in range(2000)
    ]


def test_a_script_is_rolled_first_then_the_seed_goes_on():
    dice = Dice(3, [6, 6, 1])
    reference = random.Random(3)
    rolled = [dice.roll() for _ in range(6)]
    assert rolled[:3] == [6, 6, 1]
    assert rolled[3:] == [reference.randint(1, 6) for _ in range(3)]


def test_a_copy_and_a_restored_state_roll_as_the_original():
    dice = Dice(11)
    for _ in range(5):
        dice.roll()
    twin, restored = dice.copy(), Dice.from_json(dice.to_json())
    ahead = [dice.roll() for _ in range(50)]
    assert [twin.roll() for _ in range(50)] == ahead
    assert [restored.roll() for _ in range(50)] == ahead
