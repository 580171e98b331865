"""A watch (`watch EVENT ... until ... { ... }`): an effect its player holds until a
stated time. Held across decisions, it is part of the game's state: saved and
restored, and cloned, a game goes on as it would have."""

from __future__ import annotations

import random
from pathlib import Path

from kotc.dsl import load_edition
from kotc.dsl.cards import load_cards
from kotc.engine.game import Deck, Engine, Game, card_pool

CARDS = Path(__file__).parents[1] / "scenarios" / "cards" / "rerolls.kscn"


def _designs(tmp_path: Path) -> dict:
    # the ruling file's cards, as a card file
    text = CARDS.read_text(encoding="utf-8")
    cards = [line for line in text.split("\nscenario ")[0].splitlines()
             if not line.startswith("//")]
    path = tmp_path / "rerolls.kcard"
    path.write_text("\n".join(cards), encoding="utf-8")
    return {d.name: d for d in load_cards(path)}


def test_a_held_watch_survives_json_and_clone_at_every_step(tmp_path):
    rs = load_edition("11th")
    cards = _designs(tmp_path)
    deck = [cards["Gambler"]] * 20 + [cards["Brute"]] * 20
    decks = [Deck(list(deck)), Deck(list(deck))]
    engine = Engine(rs, card_pool(decks))
    g = Game.new(rs, decks, seed=3, players=2, engine=engine, max_turns=20)
    rng, held = random.Random(3), 0
    while not g.is_over:
        held += bool(g.watches)
        text = g.to_json()
        restored, clone = Game.from_json(text, engine), g.clone()
        assert restored.to_json() == text == clone.to_json()
        legal = [a for a in g.legal_actions() if a.label != "forfeit"]
        # the Gambler's LUCK taken whenever offered, the rest at random (and no
        # player gives the game up)
        lucky = [a for a in legal if "LUCK" in str(a.label)]
        action = lucky[0] if lucky else rng.choice(legal)
        for x in (restored, clone):
            x.apply(action)
        g.apply(action)
        assert restored.to_json() == g.to_json() == clone.to_json()
    assert held, "no watch was held: the game tested nothing"
    assert any(e.kind == "reroll" for e in g.events), "no die was re-rolled"
