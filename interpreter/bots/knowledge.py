"""What each seat knows of the cards it cannot see now.

`view(seat)` shows what a seat sees at this moment. A seat also remembers: a
minion it saw destroyed lies in its owner's grave, which the seat may not look
into; a card it saw bounced is in its owner's hand. `Knowledge` keeps, per
seat, the cards it saw go out of sight and where they went, so that a
resampled game (`kotc.bots.resample`) deals anew only the cards the seat truly
cannot tell apart.

It is kept from what each step did (the events `Game.apply` returns) and where
the cards lay before it:

- a card is identified by a seat when the seat could see it where it lay before
  the step, where a move put it during the step, or when it is revealed to it
  (`reveal`, `see`); once out of sight, the seat knows where it went;
- a seat forgets a card that moves while it cannot see it (a card taken from a
  hand it cannot look into: it cannot tell which), and every card of a zone that
  is shuffled (it knows the card is in there, no longer where: the resample may
  then place it among all of its owner's unseen cards, a little more freely
  than the seat could).

Where a card moves several times in one step, a stop on the way is judged by
its zone's usual face (a move that lays it face down there is not seen); its
last place, by the face it lies with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kotc.engine.game import Game
from kotc.engine.view import may_look
from kotc.runtime.events import Event, Given, Moved, Removed, Revealed, Seen, Shuffled

# where a card lay: (zone, controller, face up); zone "" when out of the game
Place = tuple[str, int, bool]


def places(game: Game) -> list[Place]:
    """Where every card of the game lies now (what `Knowledge.update` is given
    as the places before a step)."""
    return [(c.zone, c.controller, c.face_up) for c in game.cards]


def _visible(game: Game, seat: int, place: Place) -> bool:
    zone, holder, face_up = place
    return not zone or may_look(game, seat, zone, holder, face_up)


class Knowledge:
    """Per seat, the cards it knows though it cannot see them: card -> (holder,
    zone) where it saw the card go. An entry holds while the card lies there."""

    __slots__ = ("known",)

    def __init__(self, players: int):
        self.known: list[dict[int, tuple[int, str]]] = [{} for _ in range(players)]

    def copy(self) -> Knowledge:
        k = Knowledge.__new__(Knowledge)
        k.known = [dict(d) for d in self.known]
        return k

    def knows(self, game: Game, seat: int, card: int) -> bool:
        """Whether `seat` knows which card lies where `card` lies now, without
        seeing it."""
        where = self.known[seat].get(card)
        c = game.cards[card]
        return where is not None and where == (c.controller, c.zone)

    def update(self, game: Game, before: Sequence[Place] | None,
               events: Sequence[Event]) -> None:
        """Learn what a step showed each seat.

        Args:
            game: the game after the step.
            before: where each card lay before it (`places`), or None for a game
                just set up (no card seen before).
            events: the events of the step, in order.
        """
        last_move: dict[int, int] = {}
        for i, e in enumerate(events):
            if isinstance(e, (Moved, Given, Removed)):
                last_move[e.card] = i
        seats = range(len(self.known))
        identified: list[set[int]] = [set() for _ in seats]
        forgotten: list[set[int]] = [set() for _ in seats]
        where: dict[int, tuple[int, str]] = {}  # card -> (holder, zone) so far
        if before is not None:
            for card in last_move:
                if card < len(before):
                    zone, holder, _ = before[card]
                    where[card] = (holder, zone)
                    for s in seats:
                        if _visible(game, s, before[card]):
                            identified[s].add(card)
        shuffled: list[tuple[int, str]] = []
        for i, e in enumerate(events):
            match e:
                case Moved() | Given() | Removed():
                    card = e.card
                    c = game.cards[card]
                    if isinstance(e, Moved):
                        place = (e.to, int(e.player))
                    elif isinstance(e, Given):
                        place = (c.zone, int(e.to))
                    else:
                        place = ("", c.controller)
                    # its last stop: the face it lies with; a stop on the way: its
                    # zone's usual face
                    face = c.face_up if last_move[card] == i else bool(
                        place[0] and game.engine.face_up.get(place[0], False))
                    where[card] = (place[1], place[0])
                    for s in seats:
                        if _visible(game, s, (place[0], place[1], face)):
                            identified[s].add(card)
                            forgotten[s].discard(card)
                        elif card not in identified[s]:
                            forgotten[s].add(card)
                case Shuffled(player=player, zone=zone):
                    spot = (int(player), zone)
                    shuffled.append(spot)
                    for s in seats:
                        for card in [c for c in identified[s]
                                     if _at(game, where, c) == spot]:
                            identified[s].discard(card)
                            forgotten[s].add(card)
                case Revealed(cards=cards) | Seen(cards=cards):
                    shown = [c for c in _cards(cards) if c < len(game.cards)]
                    to = seats if isinstance(e, Revealed) else [int(e.player)]
                    for s in to:
                        identified[s].update(shown)
                        forgotten[s].difference_update(shown)
        for s in seats:
            known = self.known[s]
            for holder_zone in shuffled:
                for card in [c for c, w in known.items() if w == holder_zone]:
                    del known[card]
            for card in forgotten[s]:
                known.pop(card, None)
            for card in identified[s]:
                c = game.cards[card]
                if c.zone:
                    known[card] = (c.controller, c.zone)
                else:
                    known.pop(card, None)

    def to_json(self) -> list[list[list[Any]]]:
        return [[[card, holder, zone] for card, (holder, zone) in sorted(k.items())]
                for k in self.known]

    @staticmethod
    def from_json(data: list[list[list[Any]]]) -> Knowledge:
        k = Knowledge.__new__(Knowledge)
        k.known = [{int(card): (int(holder), str(zone)) for card, holder, zone in seat}
                   for seat in data]
        return k


def _at(game: Game, where: dict[int, tuple[int, str]], card: int) -> tuple[int, str]:
    """(holder, zone) of a card as far as a step's events have moved it."""
    c = game.cards[card]
    return where.get(card, (c.controller, c.zone))


def _cards(value: Any) -> list[int]:
    """The card ids in an event's `cards` field (players and other values left out)."""
    if value is None:
        return []
    items = value if isinstance(value, (list, tuple)) else [value]
    return [int(x) for x in items
            if isinstance(x, int) and type(x) is int]
