"""Seeded games play exactly as recorded (see `seeded.py`): options offered, events
logged and final states, per edition, for two and three players and vanilla decks."""

from __future__ import annotations

import json

from seeded import RECORD, differences, digests


def test_seeded_games_play_as_recorded():
    recorded = json.loads(RECORD.read_text())
    now = digests()
    assert set(now) == set(recorded)
    assert differences(recorded, now) == []


def test_a_changed_game_is_named():
    # the comparison can fail: one digest altered is found, by edition, group and seed
    recorded = json.loads(RECORD.read_text())
    altered = json.loads(RECORD.read_text())
    altered["17th"]["starter-2p"][3] = "0" * 16
    assert differences(recorded, altered) == ["17th starter-2p seed 3"]
