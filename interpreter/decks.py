"""Decks for games: from deck files, or plain generated ones for benchmarks.

A vanilla deck holds minions with no abilities, their stats drawn from the
edition's own data: the card type that is not a spell, its stats, which stat is
the cost and which one counts battle dice.
"""

from __future__ import annotations

import random
from pathlib import Path

from kotc_dsl import Ruleset
from kotc_dsl.ast import Origin
from kotc_dsl.cards import CardDesign, StatValue, load_deck

from .game import Deck

_NOWHERE = Origin("<vanilla>", 0, 0)


def deck_from_file(path: str | Path) -> tuple[str, Deck]:
    """The edition a deck file names, and its cards expanded by count."""
    deck, cards = load_deck(path)
    expand = lambda entries: [cards[e.name] for e in entries for _ in range(e.count)]  # noqa: E731
    return deck.edition, Deck(expand(deck.entries), expand(deck.reserves))


def vanilla_deck(rs: Ruleset, size: int | None = None, seed: int = 0) -> Deck:
    """A deck of ability-less minions of levels 1-4, legal in size for the edition."""
    rng = random.Random(seed)
    size_rule = rs.setting("setup", "deck_size")
    size = size or (size_rule.size.lo if size_rule else 40)
    minion = next(t for t in rs.card_types.values() if t.name != "spell")
    cost = rs.setting("cards", "cost").stat
    dice = rs.setting("battle", "dice_per").stat
    designs = []
    for level in range(1, 5):
        attack = rng.randint(0, level)
        stats = []
        for s in minion.stats:
            value = (
                level if s == cost else attack if s == dice else 2 * (level - attack) + 1
            )
            stats.append(StatValue(s, value, _NOWHERE))
        designs.append(
            CardDesign(
                f"Vanilla {level}",
                minion.name,
                rs.number,
                tuple(stats),
                (),
                None,
                _NOWHERE,
            )
        )
    return Deck([designs[i % 4] for i in range(size)])
