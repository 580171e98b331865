"""Runtime values of the effect language and their JSON form.

Cards are plain `int` ids. Players (`Seat`) and dice (`DieRef`) are `int`
subclasses, so they cost no more than ints yet stay distinguishable when a value
is written to JSON or filtered with `where`. An ability is `(card, index)`.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any


def card_label(name: str, card: int) -> str:
    """How a card is named to people: `Name#id`, in labels, prompts and the account
    alike (`view.unnamed` finds cards so)."""
    return f"{name}#{card}"


class Seat(int):
    """A player, by seat number (0 is the first seat; play goes clockwise)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Seat({int(self)})"


class _Seats(dict[int, Seat]):
    def __missing__(self, n: int) -> Seat:
        s = self[n] = Seat(n)
        return s


# Seats are made often (every `you`); one shared object per seat number costs a
# dict lookup instead of an int construction.
seat_of = _Seats().__getitem__


class DieRef(int):
    """A rolled die, by its index in the game's dice record."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"DieRef({int(self)})"


class AbilityRef(tuple[int, int]):
    """An ability: the card that carries it and its index among the card's abilities."""

    __slots__ = ()

    def __new__(cls, card: int, index: int) -> AbilityRef:
        return tuple.__new__(cls, (card, index))

    # read on every listing of activations: getters in C, not Python functions
    card = property(itemgetter(0), doc="The card that carries the ability.")
    index = property(itemgetter(1), doc="Its index among the card's abilities.")


# `ability_ref(AbilityRef, (card, index))`: an AbilityRef made in C, where a listing
# makes one for each candidate
ability_ref = tuple.__new__


def encode(value: Any) -> Any:
    """A JSON-ready form of a runtime value (tagged where an int alone is ambiguous)."""
    if isinstance(value, Seat):
        return {"seat": int(value)}
    if isinstance(value, DieRef):
        return {"die": int(value)}
    if isinstance(value, AbilityRef):
        return {"ability": [value.card, value.index]}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"map": {k: encode(v) for k, v in value.items()}}
    return value


def plain(value: Any) -> Any:
    """A JSON form for readers, not for restoring: as `encode`, but a dict is a
    plain object (its keys as text), with no wrapper to tell it from a tagged
    value. Event logs are written so (`Event.plain_json`).

    >>> plain({"player": Seat(1), "totals": {0: 3, 1: 6}})
    {'player': {'seat': 1}, 'totals': {'0': 3, '1': 6}}
    """
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and not isinstance(value, AbilityRef):
        return [plain(v) for v in value]
    return encode(value)


def decode(value: Any) -> Any:
    """The inverse of `encode`."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "seat" in value:
            return Seat(value["seat"])
        if "die" in value:
            return DieRef(value["die"])
        if "ability" in value:
            return AbilityRef(*value["ability"])
        return {k: decode(v) for k, v in value["map"].items()}
    return value
