"""A game's event log as a person reads it: turns, phases, actions, dice, damage,
the result, each line with the rule that caused it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .game import Event, Game


def account(
    game: Game,
    events: Iterable[Event] | None = None,
    cite: Callable[[str], str] = lambda c: f"  [{c}]",
) -> list[str]:
    """Readable lines for the events (all of the game's by default)."""
    lines = []
    for e in game.events if events is None else events:
        text = _line(game, e)
        if text is not None:
            lines.append(text + (cite(e.cite) if e.cite else ""))
    return lines


def _card(game: Game, card) -> str:
    if isinstance(card, int) and 0 <= card < len(game.cards):
        return f"{game.cards[card].name}#{card}"
    return str(card)


def _line(game: Game, e: Event) -> str | None:
    d = e.data
    match e.kind:
        case "turn":
            return f"\n== Turn {d['turn']}: player {d['player']} =="
        case "phase":
            return f"-- {d['phase']} phase"
        case "skip":
            return f"   (skipped {d.get('phase') or d.get('step')})"
        case "first_player":
            return f"Player {d['player']} goes first"
        case "action":
            return f"   player {d['player']}: {d['action']}"
        case "decide" if d.get("choice") not in ("act", "end", "pass"):
            return f"     player {d['player']} chooses {d['action']}"
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
        case "link":
            return f"     chain link {d['link']} (player {d['player']})"
        case "resolve":
            return f"     resolving link {d['link']}"
        case "pop":
            host = _card(game, d["card"])
            return f"     player {d['player']} pops {d['counter']} on {host}"
        case "place":
            return f"     {d['n']} {d['counter']} on {_card(game, d['card'])}"
        case "eliminated":
            return f"   player {d['player']} is out ({d['reason']})"
        case "game_over":
            if d["winner"] is not None:
                by = f" by {d['criterion']}" if d["criterion"] else ""
                return f"\nGame over ({d['condition']}): player {d['winner']} wins{by}"
            return f"\nGame over ({d['condition']}): tie between {d['tied']}"
    return None


def _victim(game: Game, victim) -> str:
    from .values import Seat

    return f"player {int(victim)}" if isinstance(victim, Seat) else _card(game, victim)
