"""Decks for games: from deck files, or plain generated ones for benchmarks.

A vanilla deck holds minions with no abilities, their stats drawn from the
edition's own data: the card type that is not a spell, its stats, which stat is
the cost and which one counts battle dice.
"""

from __future__ import annotations

import random
from pathlib import Path

from kotc_dsl import Diagnostic, Ruleset, RulesetError
from kotc_dsl.ast import Origin
from kotc_dsl.cards import CardDesign, StatValue, load_deck
from kotc_dsl.legality import DeckVerdict, judge_deck

from .game import Deck

_NOWHERE = Origin("<vanilla>", 0, 0)
_PASSING = ("legal", "refurbished")  # the statuses a deck check passes


def deck_from_file(path: str | Path) -> tuple[str, Deck]:
    """The edition a deck file names, and its cards expanded by count."""
    deck, cards = load_deck(path)
    expand = lambda entries: [cards[e.name] for e in entries for _ in range(e.count)]  # noqa: E731
    return deck.edition, Deck(expand(deck.entries), expand(deck.reserves))


def check_deck_file(path: str | Path, rs: Ruleset, edition: str | None = None) -> None:
    """Refuse a deck that `kotc deck check` would not pass under `rs`: a game played
    with it (61 cards, a banned card) shows nothing about the edition's rules.

    `edition` is the edition as the user named it (a name or a .kotc path), for the
    command the message suggests.

    Raises:
        RulesetError: the deck file cannot be read, or the deck is not legal (located
            at the deck, with every reason).
    """
    deck, cards = load_deck(path)
    verdict = judge_deck(deck, cards, rs)
    if verdict.legal:
        return
    hint = f"kotc deck check {path} --edition {edition or rs.name}"
    raise RulesetError([Diagnostic(deck.origin, (
        f"deck \"{deck.name}\" is not legal under the {rs.name} edition: "
        f"{'; '.join(_reasons(verdict))} (`{hint}` says more)"))])


def _reasons(verdict: DeckVerdict, shown: int = 3) -> list[str]:
    """What makes a deck illegal: the deck rules it breaks, then the first few cards
    that may not be played, each with its first reason (the deck check has them all)."""
    reasons = [f.message for f in verdict.findings if f.status not in _PASSING]
    cards = [c for c in verdict.cards if not c.playable]
    for card in cards[:shown]:
        why = next(f.message for f in card.findings if f.status == card.status)
        reasons.append(f"'{card.card.name}' is {card.status} ({why})")
    if len(cards) > shown:
        reasons.append(f"{len(cards) - shown} more cards may not be played")
    return reasons


def vanilla_deck(rs: Ruleset, size: int | None = None, seed: int = 0) -> Deck:
    """A deck of ability-less minions of levels 1-4, legal in size for the edition.

    Raises:
        ValueError: the edition lacks what the deck is made from (a card type other
            than spell, the stat that is the cost, the stat counting battle dice).
    """
    rng = random.Random(seed)
    size_rule = rs.setting("setup", "deck_size")
    size = size or (size_rule.size.lo if size_rule else 40)
    minion = next((t for t in rs.card_types.values() if t.name != "spell"), None)
    cost, dice = rs.setting("cards", "cost"), rs.setting("battle", "dice_per")
    lacks = [what for what, rule in (("a card type other than spell", minion),
                                     ("the `cost` setting of its cards", cost),
                                     ("the `dice_per` setting of its battles", dice))
             if rule is None]
    if lacks:
        raise ValueError(f"cannot make a deck for the {rs.name} edition: it lacks "
                         f"{_listed(lacks)}")
    cost, dice = cost.stat, dice.stat
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


def _listed(items: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)
