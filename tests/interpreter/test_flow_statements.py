"""The flows' own statements at play: a program that waits for the battle under
way (`after battle { ... }`, the 17th's Berzerk Counter) is part of the game's
state, saved and restored with it, and begins its battle (`begin battle with
...`) once that battle is over."""

from __future__ import annotations

import random

from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import Game, card_pool


def _take(g: Game, word: str) -> None:
    labels = [str(a) for a in g.legal_actions()]
    g.apply(next(i for i, label in enumerate(labels) if word in label))


def _berzerk_popped_in_a_battle() -> Game:
    """Player 0 attacks player 1, who may defend; after the attack is declared,
    player 2 pops its minion's Berzerk Counter against player 0."""
    rs = load_edition("17th")
    g = Game.position(rs, card_pool(default_decks(rs)[0]), players=3, seed=1,
                      dice=[1, 3])
    g.put("Berzerker", 0, "battlefield")
    g.put("Berzerker", 2, "battlefield", counters=[["berzerk", 2]])
    g.put("Berzerker", 1, "battlefield")
    for seat in range(3):
        for _ in range(3):
            g.put("Berzerker", seat, "deck")
    g.start("battle")
    g.advance()
    for word in ("battle", "Berzerker#0", "player 1", "pop Berzerker#1 berzerk",
                 "pass", "pass", "pass", "Attack an enemy player", "player 0"):
        _take(g, word)
    return g


def test_an_attack_that_waits_for_the_battle_under_way_is_saved_with_the_game():
    g = _berzerk_popped_in_a_battle()
    kinds = [e.kind for e in g.events]
    assert "attack_waits" in kinds and "forced_attack" not in kinds
    assert g.battle is not None and not g.battle.forced  # the first battle goes on
    there = Game.from_json(g.to_json(), g.engine)
    assert there.to_json() == g.to_json()
    start = len(g.events)
    rng = random.Random(5)
    while not g.is_over and g.turn < 4:
        i = rng.randrange(len(g.legal_actions()))
        assert [e.to_json() for e in there.apply(i)] == [
            e.to_json() for e in g.apply(i)]
    later = [e for e in g.events[start:] if e.kind in ("battle_end", "forced_attack")]
    # the battle under way ends, then the Berzerker attacks player 0
    assert [e.kind for e in later[:2]] == ["battle_end", "forced_attack"]
    assert later[1].data == {"attacker": 2, "victim": 0}
