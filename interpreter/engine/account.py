"""A game's event log as a person reads it: turns, phases, actions, dice, damage,
the result, each line with the rule that caused it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, Literal

from kotc.runtime.events import (
    Acted,
    Activated,
    Decided,
    Eliminated,
    Event,
    FirstPlayer,
    GameOver,
    Given,
    HpChanged,
    Linked,
    Moved,
    PaidHp,
    PaidResources,
    PhaseBegan,
    PhaseSkipped,
    Placed,
    Popped,
    Rerolled,
    Resolving,
    Revealed,
    Rolled,
    RolledOff,
    Seen,
    Shuffled,
    StatChanged,
    StepSkipped,
    Stopped,
    TurnBegan,
    TurnLost,
    Zombie,
)
from kotc.runtime.values import Seat, card_label

from .game import Game
from .view import can_see, may_look, unnamed

EVERYTHING: Final = "everything"  # `account`'s reader who may know every card
# who reads an account: a seat, None for a watcher, or `EVERYTHING`
Reader = int | None | Literal["everything"]


def account(
    game: Game,
    events: Iterable[Event] | None = None,
    cite: Callable[[str], str] = lambda c: f"  [{c}]",
    reader: Reader = EVERYTHING,
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
    reader: Reader = EVERYTHING,
) -> list[tuple[str, str | None]]:
    """The account's lines apart from their citations: `(line, citation or None)`,
    for a reader who asks for the rule behind a line only when they want it (see
    `account` for `reader`)."""
    found = []
    for e in game.events if events is None else events:
        text = _line(game, e)
        if text is None:
            continue
        if reader != EVERYTHING and not isinstance(e, Revealed):
            text = _hide(game, text, reader, e)
        found.append((text, e.cite))
    return found


def _hide(game: Game, text: str, reader: int | None, e: Event) -> str:
    """The line with each card the reader may not look at named "a card". A moved
    card is judged where the move put it (it may have moved on since, as a card
    drawn and then played); any other, where it lies now."""

    def seen(card: int) -> bool:
        if isinstance(e, Moved) and e.card == card:
            c, zone, holder = game.cards[card], e.to, int(e.player)
            here = c.zone == zone and c.controller == holder
            face_up = c.face_up if here else game.engine.face_up[zone]
            return may_look(game, reader, zone, holder, face_up)
        return can_see(game, reader, card)

    return unnamed(game, text, seen)


def _card(game: Game, card: object) -> str:
    if isinstance(card, int) and 0 <= card < len(game.cards):
        return card_label(game.cards[card].name, card)
    return str(card)


def _line(game: Game, e: Event) -> str | None:
    match e:
        case TurnBegan(turn=turn, player=player):
            return f"\n== Turn {turn}: player {player} =="
        case PhaseBegan(phase=phase):
            return f"-- {phase} phase"
        case PhaseSkipped(phase=name) | StepSkipped(step=name):
            return f"   (skipped {name})"
        case RolledOff(totals=totals):
            rolls = ", ".join(f"player {p} {t}" for p, t in totals.items())
            return f"Roll-off: {rolls}"
        case FirstPlayer(player=player):
            return f"Player {player} goes first"
        case Acted(player=player, action=action):
            return f"   player {player}: {action}"
        case Decided(player=player, action=action, choice=choice):
            if choice in ("act", "end", "pass"):
                return None  # an `action` line tells it, or nothing happened
            return f"     player {player} chooses {action}"
        case PaidHp(player=player, hp=hp):
            return f"     player {player} pays {hp} HP"
        case PaidResources(player=player, resources=n):
            return f"     player {player} pays {n} resource" + "s" * (n != 1)
        case Moved(card=card, to=to, player=player):
            return f"     {_card(game, card)} to player {int(player)}'s {to}"
        case StatChanged(card=card, stat=stat, value=value):
            return f"     {_card(game, card)} {stat} is now {value}"
        case Shuffled(player=player, zone=zone):
            return f"     player {int(player)} shuffles their {zone}"
        case Revealed(cards=cards):
            return f"     revealed: {_cards(game, cards)}"
        case Seen(player=player, cards=cards):
            return f"     player {int(player)} sees {_cards(game, cards)}"
        case Given(card=card, to=to):
            return f"     {_card(game, card)} goes to player {int(to)}"
        case Rolled(player=player, dice=dice):
            return f"     player {player} rolls {dice}"
        case Rerolled(value=value):
            return f"     a die is re-rolled: {value}"
        case HpChanged(player=player, hp=hp, change=change):
            sign = "+" if change > 0 else ""
            return f"     player {player} HP {sign}{change} -> {hp}"
        case Linked(player=player, link=link):
            return f"     chain link {link} (player {player})"
        case Resolving(link=link):
            return f"     resolving link {link}"
        case Popped(card=card, counter=counter, player=player):
            return f"     player {player} pops {counter} on {_card(game, card)}"
        case Placed(card=card, counter=counter, n=n):
            return f"     {n} {counter} on {_card(game, card)}"
        case Stopped(activating=activating):
            if activating:
                return "     (the ability fails: its cost or targets cannot be had)"
            return "     (the ability has no further effect)"
        case Zombie(player=player):
            return f"   player {player} has no HP left and plays on, a zombie"
        case TurnLost(player=player):
            return f"   player {player} is out: the rest of its turn is not played"
        case Eliminated(player=player, reason=reason):
            return f"   player {player} is out ({reason})"
        case GameOver(winner=winner, tied=tied, criterion=criterion, condition=why):
            if winner is not None:
                by = f" by {criterion}" if criterion else ""
                return f"\nGame over ({why}): player {winner} wins{by}"
            return f"\nGame over ({why}): tie between {tied}"
        case Activated():
            return None  # the action or link that activated it tells it
    d = e.data
    # the battle's events, as its programs log them
    match e.kind:
        case "attack":
            team = ", ".join(_card(game, c) for c in d["team"])
            return f"   battle: {team} attack {_victim(game, d['victim'])}"
        case "defend":
            team = ", ".join(_card(game, c) for c in d["team"]) or "nobody"
            return f"   player {d['defender']} defends with {team}"
        case "formation":
            team = ", ".join(_card(game, c) for c in d["team"])
            return f"     the team's formation order is now {team}"
        case "battle_end":
            return None  # the next line tells it
    # any other event, the rules' own included: its kind and what it names
    return f"     {e.kind}: " + ", ".join(_field(game, k, v) for k, v in d.items())


def _field(game: Game, key: str, value: object) -> str:
    """An event's field as read: `player 1`, a card by name and number."""
    if isinstance(value, Seat):
        seat = f"player {int(value)}"
        return seat if key == "player" else f"{key} {seat}"
    if key in ("card", "host", "target", "source"):
        return f"{key} {_card(game, value)}"
    if key == "cards" and isinstance(value, list):
        return f"{key} {_cards(game, value)}"
    return f"{key} {value}"


def _cards(game: Game, cards: Iterable[object]) -> str:
    return ", ".join(_card(game, c) for c in cards) or "none"


def _victim(game: Game, victim: object) -> str:
    return f"player {int(victim)}" if isinstance(victim, Seat) else _card(game, victim)
