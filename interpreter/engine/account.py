"""A game's event log as a person reads it: turns, phases, actions, dice, damage,
the result, each line with the rule that caused it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kotc.runtime.values import Seat, card_label

from .game import Event, Game
from .view import can_see, may_look, unnamed

EVERYTHING = "everything"  # `account`'s reader who may know every card


def account(
    game: Game,
    events: Iterable[Event] | None = None,
    cite: Callable[[str], str] = lambda c: f"  [{c}]",
    reader: int | None | str = EVERYTHING,
) -> list[str]:
    """Readable lines for the events (all of the game's by default).

    `reader` is who reads them: a seat, or None for a watcher, reads "a card" for
    each card they may not look at (`view.can_see`) where it lies now, or where
    a move put it, except in the line of a reveal; by default every card is
    named."""
    return [
        text + (cite(why) if why else "") for text, why in entries(game, events, reader)
    ]


def entries(
    game: Game,
    events: Iterable[Event] | None = None,
    reader: int | None | str = EVERYTHING,
) -> list[tuple[str, str | None]]:
    """The account's lines apart from their citations: `(line, citation or None)`,
    for a reader who asks for the rule behind a line only when they want it (see
    `account` for `reader`)."""
    found = []
    for e in game.events if events is None else events:
        text = _line(game, e)
        if text is None:
            continue
        if reader != EVERYTHING and e.kind != "reveal":
            text = _hide(game, text, reader, e)
        found.append((text, e.cite))
    return found


def _hide(game: Game, text: str, reader: int | None, e: Event) -> str:
    """The line with each card the reader may not look at named "a card". A moved
    card is judged where the move put it (it may have moved on since, as a card
    drawn and then played); any other, where it lies now."""

    def seen(card: int) -> bool:
        if e.kind == "move" and e.data.get("card") == card and "player" in e.data:
            c, zone, holder = game.cards[card], e.data["to"], int(e.data["player"])
            here = c.zone == zone and c.controller == holder
            face_up = c.face_up if here else game.engine.face_up[zone]
            return may_look(game, reader, zone, holder, face_up)
        return can_see(game, reader, card)

    return unnamed(game, text, seen)


def _card(game: Game, card) -> str:
    if isinstance(card, int) and 0 <= card < len(game.cards):
        return card_label(game.cards[card].name, card)
    return str(card)


# events the account leaves out: each is told by the line of another event
_SILENT = frozenset({"activate", "battle_end"})


def _line(game: Game, e: Event) -> str | None:
    d = e.data
    match e.kind:
        case "turn":
            return f"\n== Turn {d['turn']}: player {d['player']} =="
        case "phase":
            return f"-- {d['phase']} phase"
        case "skip":
            return f"   (skipped {d.get('phase') or d.get('step')})"
        case "roll_off":
            rolls = ", ".join(f"player {p} {t}" for p, t in d["totals"].items())
            return f"Roll-off: {rolls}"
        case "first_player":
            return f"Player {d['player']} goes first"
        case "action":
            return f"   player {d['player']}: {d['action']}"
        case "decide":
            if d.get("choice") in ("act", "end", "pass"):
                return None  # an `action` line tells it, or nothing happened
            return f"     player {d['player']} chooses {d['action']}"
        case "pay":
            n = d.get("resources")
            paid = f"{d['hp']} HP" if "hp" in d else f"{n} resource" + "s" * (n != 1)
            return f"     player {d['player']} pays {paid}"
        case "move":
            to = f"player {int(d['player'])}'s {d['to']}" if "player" in d else d["to"]
            return f"     {_card(game, d['card'])} to {to}"
        case "stat":
            return f"     {_card(game, d['card'])} {d['stat']} is now {d['value']}"
        case "shuffle":
            return f"     player {int(d['player'])} shuffles their {d['zone']}"
        case "reveal":
            return f"     revealed: {_cards(game, d['cards'])}"
        case "see":
            return f"     player {int(d['player'])} sees {_cards(game, d['cards'])}"
        case "give":
            return f"     {_card(game, d['card'])} goes to player {int(d['to'])}"
        case "roll":
            return f"     player {d['player']} rolls {d['dice']}"
        case "reroll":
            return f"     a die is re-rolled: {d['value']}"
        case "hp":
            sign = "+" if d["change"] > 0 else ""
            return f"     player {d['player']} HP {sign}{d['change']} -> {d['hp']}"
        case "attack":
            team = ", ".join(_card(game, c) for c in d["team"])
            return f"   battle: {team} attack {_victim(game, d['victim'])}"
        case "defend":
            team = ", ".join(_card(game, c) for c in d["team"]) or "nobody"
            return f"   player {d['defender']} defends with {team}"
        case "formation":
            team = ", ".join(_card(game, c) for c in d["team"])
            return f"     the team's formation order is now {team}"
        case "link":
            return f"     chain link {d['link']} (player {d['player']})"
        case "resolve":
            return f"     resolving link {d['link']}"
        case "pop":
            host = _card(game, d["card"])
            return f"     player {d['player']} pops {d['counter']} on {host}"
        case "place":
            return f"     {d['n']} {d['counter']} on {_card(game, d['card'])}"
        case "stop":
            if d.get("activating"):
                return "     (the ability fails: its cost or targets cannot be had)"
            return "     (the ability has no further effect)"
        case "zombie":
            return f"   player {d['player']} has no HP left and plays on, a zombie"
        case "turn_lost":
            return f"   player {d['player']} is out: the rest of its turn is not played"
        case "eliminated":
            return f"   player {d['player']} is out ({d['reason']})"
        case "game_over":
            if d["winner"] is not None:
                by = f" by {d['criterion']}" if d["criterion"] else ""
                return f"\nGame over ({d['condition']}): player {d['winner']} wins{by}"
            return f"\nGame over ({d['condition']}): tie between {d['tied']}"
    if e.kind in _SILENT:
        return None
    # any other event, the rules' own included: its kind and what it names
    return f"     {e.kind}: " + ", ".join(_field(game, k, v) for k, v in d.items())


def _field(game: Game, key: str, value) -> str:
    """An event's field as read: `player 1`, a card by name and number."""
    if isinstance(value, Seat):
        seat = f"player {int(value)}"
        return seat if key == "player" else f"{key} {seat}"
    if key in ("card", "host", "target", "source"):
        return f"{key} {_card(game, value)}"
    if key == "cards" and isinstance(value, list):
        return f"{key} {_cards(game, value)}"
    return f"{key} {value}"


def _cards(game: Game, cards: list) -> str:
    return ", ".join(_card(game, c) for c in cards) or "none"


def _victim(game: Game, victim) -> str:
    return f"player {int(victim)}" if isinstance(victim, Seat) else _card(game, victim)
