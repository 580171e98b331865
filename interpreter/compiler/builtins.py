"""The functions rule expressions may call (`count`, `total`, `top`...; `cost` is
lowered to a read of its stat, `ir.CardCost`), and how a value that may be one
item or a collection is listed: shared by the reference interpreter (`interp`),
the code generator (`codegen`) and the statements both call (`services`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kotc.runtime.values import AbilityRef, DieRef, Seat


def as_items_of(value: Any) -> list[Any] | tuple[Any, ...]:
    """The items of a value that may be one item or a collection (None: none)."""
    if type(value) is list:  # most often: a zone's cards, a `where`'s
        return value
    if value is None:
        return ()
    if isinstance(value, (list, tuple)) and not isinstance(value, AbilityRef):
        return value
    return (value,)


def element_name(x: Any) -> str:
    if isinstance(x, Seat):
        return "player"
    if isinstance(x, DieRef):
        return "die"
    return "card"


Builtin = Callable[..., Any]  # `(game, *arguments) -> value`
Game = Any  # the game (`kotc.engine.game.Game`), which this layer does not import


def _count(g: Game, xs: Any) -> int:
    return len(as_items_of(xs))


def _as_items(xs: Any) -> list[Any]:
    """A list to slice: a list as it is (a slice copies only what it takes)."""
    return xs if type(xs) is list else list(xs)


def _first(g: Game, xs: Any) -> Any:
    items = as_items_of(xs)
    return items[0] if items else None


def _total(g: Game, xs: Any) -> int:
    return sum(g.value_of(x) for x in as_items_of(xs))


# The functions that are operations of the game, by the name of the game's method:
# generated code calls the method itself.
GAME_METHODS: dict[str, str] = {
    "placed_by": "counters_placed",
    "left_of": "left_of",
}


def _method(name: str) -> Builtin:
    return lambda g, *args: getattr(g, name)(*args)


BUILTINS: dict[str, Builtin] = {
    **{func: _method(method) for func, method in GAME_METHODS.items()},
    "count": _count,
    "total": _total,
    "top": lambda g, n, xs: _as_items(xs)[-n:][::-1] if n > 0 else [],
    "bottom": lambda g, n, xs: _as_items(xs)[:n] if n > 0 else [],
    "max": lambda g, a, b: max(a, b),
    "min": lambda g, a, b: min(a, b),
    "half_up": lambda g, a: -(-a // 2),
    "is_empty": lambda g, xs: not as_items_of(xs),
    "counters_on": lambda g, c, k: g.counters_placed(c, k, None),
    "enemies": lambda g, p: [s for s in g.seats_in_game() if s != p],
    "dice_for": lambda g, team: g.referee.dice_for(g, team),
    "first": _first,
    "past": lambda g, name: g.referee.passed(g, name),
    "concat": lambda g, xs, ys: list(as_items_of(xs)) + list(as_items_of(ys)),
    "has_caveat": lambda g, c, k: k in g.engine.caveats.get(g.cards[c].design, ()),
    "caveat_x": lambda g, c, k: g.engine.caveats.get(g.cards[c].design, {}).get(k, 0),
    "tagged": lambda g, c, t: g.is_tagged(c, t),
    "since_turn_start": lambda g, c: g.cards[c].zone in g.engine.in_play
    and c not in g.arrived,
}
