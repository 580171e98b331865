"""What a saved game must hold before it is played on: seats, cards, zones and
stats of the kinds and ranges the engine reads.

`Game.from_json` restores what `to_json` wrote; a state edited by hand or cut
short (a card in zone 1.5, a controller of 2**63, a stat of None) would restore
and then crash the engine mid-game. `check_state` refuses it first, saying
where.
"""

from __future__ import annotations

from typing import Any

from kotc.runtime.limits import LIMITS

__all__ = ["check_state"]

_BOUND = LIMITS["stat_value"][0]
_SEAT_FIELDS = ("owner", "controller", "last_controller")


def _is_int(value: Any, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi


def check_state(data: dict[str, Any], zones: set[str]) -> None:
    """Refuse a saved game whose seats, cards, zones or stats are not ones the
    engine could have written; `zones` are the names of the edition's zones.

    Raises:
        ValueError: naming the first field that is wrong.
    """

    def wrong(where: str, value: Any) -> ValueError:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return ValueError(f"not a whole game state: {where} is {shown}")

    players, cards = data["players"], data["cards"]
    if type(players) is not list or not players:
        raise wrong("players", players)
    if type(cards) is not list:
        raise wrong("cards", cards)
    seats, ids = len(players) - 1, len(cards) - 1
    for name in ("turn", "max_turns"):
        if not _is_int(data[name], 0, _BOUND):
            raise wrong(name, data[name])
    for name in ("active", "first_player"):
        if data[name] is not None and not _is_int(data[name], 0, seats):
            raise wrong(name, data[name])
    for i, p in enumerate(players):
        if type(p) is not dict or p["seat"] != i or type(p["seat"]) is not int:
            raise wrong(f"player {i}", p)
        if not _is_int(p["hp"], -_BOUND, _BOUND):
            raise wrong(f"player {i}'s hp", p["hp"])
        if type(p["zones"]) is not dict:
            raise wrong(f"player {i}'s zones", p["zones"])
        for zone, held in p["zones"].items():
            if zone not in zones or type(held) is not list:
                raise wrong(f"player {i}'s zone {zone!r}", held)
            for card in held:
                if not _is_int(card, 0, ids):
                    raise wrong(f"a card in player {i}'s {zone}", card)
    for i, c in enumerate(cards):
        if type(c) is not dict or c["id"] != i:
            raise wrong(f"card {i}", c)
        for name in _SEAT_FIELDS:
            if c[name] is not None and not _is_int(c[name], 0, seats):
                raise wrong(f"card {i}'s {name}", c[name])
        if c["zone"] not in zones and c["zone"] != "":  # "": in none (set aside)
            raise wrong(f"card {i}'s zone", c["zone"])
        for name in ("printed", "stats"):
            if type(c[name]) is not dict:
                raise wrong(f"card {i}'s {name}", c[name])
            for stat, value in c[name].items():
                if not _is_int(value, -_BOUND, _BOUND):
                    raise wrong(f"card {i}'s {name} {stat}", value)
