"""A game as one seat might believe it to be: hidden cards dealt anew.

OpenSpiel's `resample_from_infostate`: a game consistent with everything a seat
knows (what it sees, `view`, and what it remembers, `Knowledge`), the cards it
cannot tell apart dealt anew at random, and no generator that knows the real
future. A bot that searches on such games (ISMCTS, determinized search) cannot
peek.

The cards are dealt anew by identity, not by place: every place keeps its card's
slot (its id, zone, position, orientation, counters), and the identities (name,
design, printed and current stats) of the unknown cards of one owner are shuffled
among that owner's unknown places. So the seat's view is the same in the
resampled game, a zone keeps its size, and programs under way keep the cards
they hold (whatever those turn out to be). A card that a chain link or the battle
under way holds keeps its identity: its effect or its place in a team is already
under way.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from kotc.engine.game import Game, Namer
from kotc.engine.view import can_see
from kotc.runtime.dice import Dice
from kotc.runtime.values import AbilityRef

from .knowledge import Knowledge

# what a card's identity is: shuffled among the places of unknown cards
IDENTITY = ("name", "type", "design", "printed", "stats", "timed")


def unknown_cards(game: Game, knowledge: Knowledge, seat: int) -> list[int]:
    """The cards `seat` can neither see nor tell apart by memory: those a
    resample deals anew."""
    engaged = _engaged(game)
    return [
        c.id for c in game.cards
        if c.zone and not c.pawn and c.id not in engaged
        and not can_see(game, seat, c.id) and not knowledge.knows(game, seat, c.id)
    ]


def resample(game: Game, knowledge: Knowledge, seat: int, rng: random.Random,
             dice: Dice | None = None) -> Game:
    """A copy of `game` with the cards `seat` cannot tell apart dealt anew.

    Args:
        game: the game as it is.
        knowledge: what each seat remembers of it.
        seat: whose beliefs the copy is drawn from.
        rng: draws the new deal (and, unless `dice` is given, seeds the copy's
            generator).
        dice: the copy's dice (default: a generator seeded from `rng`, so the
            copy rolls and shuffles nothing the real game will).

    Returns:
        The new game; `game` is not changed.
    """
    g = game.clone()
    g.rng = dice if dice is not None else Dice(rng.getrandbits(63))
    groups: dict[int, list[int]] = defaultdict(list)
    for card in unknown_cards(g, knowledge, seat):
        groups[g.cards[card].owner].append(card)
    holds = {z.name: set(z.holds) for z in g.engine.rs.zones.values() if z.holds}
    for _, cards in sorted(groups.items()):
        pool = [tuple(getattr(g.cards[c], f) for f in IDENTITY) for c in cards]
        rng.shuffle(pool)
        # places that hold only some types (a trap zone: spells) are dealt first,
        # each from the identities left that it may hold; then the others
        restricted = [c for c in cards if g.cards[c].zone in holds]
        free = [c for c in cards if g.cards[c].zone not in holds]
        dealt: dict[int, tuple[Any, ...]] = {}
        for card in restricted:
            allowed = holds[g.cards[card].zone]
            fits = [i for i, identity in enumerate(pool) if identity[1] in allowed]
            # none left that fits (cannot happen in a game the engine played): as is
            i = rng.choice(fits) if fits else None
            dealt[card] = pool.pop(i) if i is not None else _identity(g, card, pool)
        for card, identity in zip(free, pool, strict=True):
            dealt[card] = identity
        for card, identity in dealt.items():
            c = g.cards[card]
            for field, value in zip(IDENTITY, identity, strict=True):
                setattr(c, field, value)
    g.namer = Namer.of(g.engine, g.cards)
    g.marked = {c.id for c in g.cards if c.timed or c.tags}
    return g


def _identity(g: Game, card: int, pool: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """A card's own identity, taken out of the pool."""
    mine = tuple(getattr(g.cards[card], f) for f in IDENTITY)
    pool.remove(mine)
    return mine


def _engaged(game: Game) -> set[int]:
    """Cards whose identity play under way already holds: the sources of the
    chain's links, the cards of the battle under way."""
    held: set[int] = set()
    if game.chain is not None:
        for link in game.chain.links:
            source = link["source"]
            if isinstance(source, AbilityRef):
                held.add(source.card)
            elif type(source) is int:
                held.add(source)
    b = game.battle
    if b is not None:
        held.update(b.attack_team)
        held.update(b.defense_team)
        if type(b.victim) is int:
            held.add(b.victim)
    return held
