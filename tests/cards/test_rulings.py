"""The card-text rulings live with the other rulings, in `tests/scenarios/cards/`
(so `kotc test` and `tests/test_scenarios.py` play them): here, that every edition
has rulings on how its card text is read."""

from __future__ import annotations

from pathlib import Path

import pytest
from kotc.dsl.scenarios import load_scenarios

CARD_RULINGS = Path(__file__).resolve().parents[1] / "scenarios" / "cards"


@pytest.mark.parametrize("file", ["counters_removed.kscn", "sub_abilities.kscn"])
def test_every_edition_has_card_text_rulings(file):
    editions = {e for s in load_scenarios(CARD_RULINGS / file) for e in s.editions}
    assert editions == {"11th", "12th", "13th", "17th"}


def test_no_card_ruling_is_left_beside_the_card_tests():
    assert not list(Path(__file__).parent.rglob("*.kscn"))
