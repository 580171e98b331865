"""Decks for games: from deck files, or plain generated ones for benchmarks.

A vanilla deck holds minions with no abilities, their stats drawn from the
edition's own data: the card type that is not a spell, its stats, which stat is
the cost and which one counts battle dice.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from kotc.dsl import Diagnostic, Ruleset, RulesetError
from kotc.dsl.ast import Origin
from kotc.dsl.cards import CardDesign, DeckList, Entry, StatValue, load_deck
from kotc.dsl.legality import DeckVerdict, judge_deck
from kotc.dsl.shipped import ruleset_starter_deck_files, starter_deck_files

from .game import Deck

_NOWHERE = Origin("<vanilla>", 0, 0)


def starter_decks(edition: str) -> list[Deck]:
    """The starter decks shipped for an edition (named as `kotc editions` lists it),
    in the order of their file names; none for an edition that ships none."""
    return [deck_from_file(p)[1] for p in starter_deck_files(edition)]


def default_decks(rs: Ruleset) -> tuple[list[Deck], list[str]]:
    """The decks a game of `rs` is played with when none are named, and their
    names: the first two starter decks of the shipped edition it is (or is edited
    from), each judged legal under `rs`, or a generated vanilla deck for an
    edition that ships none.

    Raises:
        RulesetError: a starter deck is not legal under `rs`.
        ValueError: no deck can be made for the edition.
    """
    files = ruleset_starter_deck_files(rs.files)[:2]
    if not files:
        return [vanilla_deck(rs)], ["vanilla"]
    return [checked_deck(f, rs) for f in files], [f.stem for f in files]


def deck_from_file(path: str | Path) -> tuple[str, Deck]:
    """The edition a deck file names, and its cards expanded by count."""
    deck, cards = load_deck(path)
    return deck.edition, _expanded(deck, cards)


def checked_deck(path: str | Path, rs: Ruleset, edition: str | None = None) -> Deck:
    """A deck file's cards, once `check_deck_file` has passed it (read once).

    Raises:
        RulesetError: as `check_deck_file`.
    """
    deck, cards = load_deck(path)
    _refuse_illegal(path, deck, cards, rs, edition)
    return _expanded(deck, cards)


def _expanded(deck: DeckList, cards: dict[str, CardDesign]) -> Deck:
    expand: Callable[[tuple[Entry, ...]], list[CardDesign]]
    expand = lambda entries: [cards[e.name] for e in entries for _ in range(e.count)]  # noqa: E731
    return Deck(expand(deck.entries), {p.name: expand(p.entries) for p in deck.piles})


def check_deck_file(path: str | Path, rs: Ruleset, edition: str | None = None) -> None:
    """Refuse a deck that `kotc deck check` would not pass under `rs`: a game played
    with it (61 cards, a banned card) shows nothing about the edition's rules, and
    one with a card kotc could not read cannot be played.

    `edition` is the edition as the user named it (a name or a .kotc path), for the
    command the message suggests.

    Raises:
        RulesetError: the deck file cannot be read, or the deck is not legal (located
            at the deck, with every reason).
    """
    deck, cards = load_deck(path)
    _refuse_illegal(path, deck, cards, rs, edition)


def _refuse_illegal(path: str | Path, deck: DeckList, cards: dict[str, CardDesign],
                    rs: Ruleset, edition: str | None) -> None:
    verdict = judge_deck(deck, cards, rs)
    if verdict.legal and not verdict.unread_cards:
        return
    hint = f"kotc deck check {path} --edition {edition or rs.name}"
    raise RulesetError([Diagnostic(deck.origin, (
        f"deck \"{deck.name}\" is not legal under the {rs.name} edition: "
        f"{'; '.join(_reasons(verdict))} (`{hint}` says more)"))])


def _reasons(verdict: DeckVerdict, shown: int = 3) -> list[str]:
    """What keeps a deck from a game: the deck rules it breaks, then the first few
    cards that may not be played or were not read, each with its first reason (the
    deck check has them all)."""
    reasons = [f.message for f in verdict.findings]
    cards = [c for c in verdict.cards if not c.playable or not c.read]
    for card in cards[:shown]:
        if not card.playable:
            why = next(f.message for f in card.findings if f.status == card.status)
            reasons.append(f"'{card.card.name}' is {card.status} ({why})")
        else:
            reasons.append(f"'{card.card.name}' was not read ({card.unread[0].message})")
    if len(cards) > shown:
        reasons.append(f"{len(cards) - shown} more cards may not be played")
    return reasons


def vanilla_deck(rs: Ruleset, size: int | None = None, seed: int = 0) -> Deck:
    """A deck of ability-less minions of levels 1-4, legal in size for the edition.

    Raises:
        ValueError: the edition lacks what the deck is made from (the stat that is
            the cost, the stat counting battle dice, a card type with both).
    """
    rng = random.Random(seed)
    size_rule = rs.setting("setup", "deck_size")
    size = size or (size_rule.size.lo if size_rule else 40)
    cost, dice = rs.setting("cards", "cost"), rs.setting("battle", "dice_per")
    # the cards that fight: a type printing the stat battle dice are counted by
    minion = next((t for t in rs.card_types.values() if dice and cost
                   and {dice.stat, cost.stat} <= set(t.stats)), None)
    lacks = [what for what, rule in (("the `cost` setting of its cards", cost),
                                     ("the `dice_per` setting of its battles", dice))
             if rule is None] or ([] if minion else ["a card type printing the stats "
                                                     "its cost and battle dice read"])
    if lacks:
        raise ValueError(f"cannot make a deck for the {rs.name} edition: it lacks "
                         f"{_listed(lacks)}")
    assert cost is not None and dice is not None and minion is not None  # none lacks
    cost_stat, dice_stat = cost.stat, dice.stat
    designs = []
    for level in range(1, 5):
        attack = rng.randint(0, level)
        stats = []
        for s in minion.stats:
            value = (
                level if s == cost_stat else attack if s == dice_stat
                else 2 * (level - attack) + 1
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


def game_decks(rs: Ruleset, paths: list[str] | None,
               edition: str | None = None) -> tuple[list[Deck], list[str]]:
    """The decks of a game: the files named, each first judged legal under `rs`
    (`edition`, as typed, is what the message suggests checking it with), or the
    edition's starter decks, or a generated one.

    Raises:
        RulesetError: a deck file cannot be read, or is not legal under `rs`.
        ValueError: no deck can be made for the edition.
    """
    if not paths:
        return default_decks(rs)
    files = [Path(p) for p in paths]
    decks = []
    for f in files:
        decks.append(checked_deck(f, rs, edition))
    return decks, [f.stem for f in files]

