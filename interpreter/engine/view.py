"""What one player sees of a game: the observation a bot or a person decides on.

The state (`Game.to_json`) holds every card, the deck's order and the other
players' hands included; a player deciding on it would be cheating. Each zone of
the ruleset says who may look at its cards (its knowledge):

- `public`: everyone sees the cards lying face up; a card lying face down, only
  the zone's player;
- `private`: only the zone's player;
- `restricted`: nobody, not even the zone's player.

A card one may see carries its printed text too (`abilities`, `flavor`): a
person reads it before choosing, a bot may match it. Of a card one may not see,
the others know that it is there (a zone's size)
and, in a zone whose cards exhaust, whether it is exhausted; not its name, nor
its id (ids follow the deck lists, so an id would tell the card).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict

from kotc.runtime.values import AbilityRef, Seat, card_label

if TYPE_CHECKING:
    from .game import Game


class AbilityView(TypedDict):
    name: str | None
    text: str


class _CardFields(TypedDict):
    id: int
    name: str
    type: str
    owner: int
    stats: dict[str, Any]
    exhausted: bool


class CardView(_CardFields, total=False):
    """A card the seat may look at; the keys below are there only when so (a card
    face down, fatigued, a pawn...) or when the card's design prints them."""

    fatigued: bool
    face_down: bool
    pawn: bool
    counters: list[list[Any]]  # [kind, placer]
    marks: list[str]
    abilities: list[AbilityView]
    flavor: str


class HiddenCard(TypedDict, total=False):
    """A card the seat may not look at: `exhausted` in a zone whose cards exhaust."""

    hidden: bool
    exhausted: bool


class PlayerView(TypedDict):
    seat: int
    hp: int
    zombie: bool
    eliminated: bool
    zones: dict[str, list[CardView | HiddenCard]]


class _LinkFields(TypedDict):
    link: int
    player: int


class LinkView(_LinkFields, total=False):
    """A link of the chain: `source` where it comes from a card, `negated` when so."""

    source: str
    negated: bool


class BattleView(TypedDict):
    attacker: int
    defender: int | None
    victim: dict[str, int] | int | None
    attack_team: list[int]
    defense_team: list[int]
    attack_dice: list[int]
    defense_dice: list[int]


class _DecisionFields(TypedDict):
    player: int
    prompt: str


class DecisionView(_DecisionFields, total=False):
    """Who decides, on what; `options` only to the player deciding."""

    options: list[str]


class View(TypedDict):
    """The game as a seat sees it (see `view`)."""

    seat: int | None
    turn: int
    active: int
    phase: str
    step: str
    players: list[PlayerView]
    chain: list[LinkView] | None
    battle: BattleView | None
    decision: DecisionView | None
    result: dict[str, Any] | None


def can_see(game: Game, seat: int | None, card: int) -> bool:
    """Whether `seat` may look at the card where it lies now (None: a watcher who
    is not playing, who sees only what all players see)."""
    c = game.cards[card]
    if not c.zone:  # removed from the game: it was last seen by all
        return True
    return may_look(game, seat, c.zone, c.controller, c.face_up)


def may_look(game: Game, seat: int | None, zone: str, holder: int, face_up: bool) -> bool:
    """Whether `seat` may look at a card lying in `holder`'s `zone`, face up or not."""
    knowledge = game.engine.knowledge[zone]
    if knowledge == "restricted":
        return False
    if knowledge == "public" and face_up:
        return True
    return seat is not None and holder == seat


_CARD_ID = re.compile(r"#(\d+)")


def unnamed(game: Game, text: str, seen: Callable[[int], bool]) -> str:
    """The text with each card not `seen` named "a card" (cards are named by
    `card_label`, whose `#id` this finds)."""
    for found in set(_CARD_ID.findall(text)):
        card = int(found)
        if card < len(game.cards) and not seen(card):
            text = text.replace(card_label(game.cards[card].name, card), "a card")
    return text


def view(game: Game, seat: int | None) -> View:
    """The game as `seat` sees it, as plain JSON data (None: as a watcher sees it).

    `players` gives each player's HP and zones; a zone lists the cards the seat
    may look at (with their printed text) and stands in `{"hidden": true}` (with
    `exhausted` where cards of the zone exhaust) for each other. `decision`
    says who decides and on what; `options`, the labels of the legal actions,
    only to the player deciding.

    Raises:
        ValueError: no such seat in this game.
    """
    if seat is not None and not 0 <= seat < len(game.players):
        raise ValueError(f"no seat {seat}: the seats are 0..{len(game.players) - 1}")
    exhaustible = game.engine.exhaustible
    players: list[PlayerView] = []
    for p in game.players:
        zones: dict[str, list[CardView | HiddenCard]] = {}
        for zone, cards in p.zones.items():
            shown: list[CardView | HiddenCard] = []
            for card in cards:
                if can_see(game, seat, card):
                    shown.append(_card(game, card))
                elif zone in exhaustible:
                    exhausted = game.cards[card].exhausted
                    shown.append({"hidden": True, "exhausted": exhausted})
                else:
                    shown.append({"hidden": True})
            zones[zone] = shown
        players.append(
            {
                "seat": p.seat,
                "hp": p.hp,
                "zombie": game.is_zombie(p.seat),
                "eliminated": p.eliminated,
                "zones": zones,
            }
        )
    data: View = {
        "seat": seat,
        "turn": game.turn,
        "active": game.active,
        "phase": game.phase,
        "step": game.step,
        "players": players,
        "chain": _chain(game, seat),
        "battle": _battle(game),
        "decision": None,
        "result": game.result,
    }
    d = game.decision
    if d is not None and not game.is_over:
        prompt = d.prompt  # it may name a card: the deciding player's, say
        if seat != d.player:
            prompt = unnamed(game, prompt, lambda card: can_see(game, seat, card))
        decision: DecisionView = {"player": d.player, "prompt": prompt}
        if seat == d.player:
            decision["options"] = [str(a) for a in d.options]
        data["decision"] = decision
    return data


def _card(game: Game, card: int) -> CardView:
    c = game.cards[card]
    shown: CardView = {
        "id": c.id,
        "name": c.name,
        "type": c.type,
        "owner": c.owner,
        "stats": dict(c.stats),
        "exhausted": c.exhausted,
    }
    if c.fatigued:
        shown["fatigued"] = True
    if not c.face_up:
        shown["face_down"] = True
    if c.pawn:
        shown["pawn"] = True
    if c.counters:
        shown["counters"] = [[kind, placer] for kind, placer in c.counters]
    if c.tags:
        shown["marks"] = sorted(c.tags)
    design = game.engine.designs.get(c.design) if c.design else None
    if design is not None:  # its printed text: the same for everyone who sees it
        if design.abilities:
            shown["abilities"] = [
                {"name": a.name, "text": a.text} for a in design.abilities
            ]
        if design.flavor:
            shown["flavor"] = design.flavor
    return shown


def _chain(game: Game, seat: int | None) -> list[LinkView] | None:
    """The chain's links in order: who made each, and from what card."""
    if game.chain is None:
        return None
    links = []
    for i, link in enumerate(game.chain.links, 1):
        source = link["source"]
        card = source.card if isinstance(source, AbilityRef) else source
        entry: LinkView = {"link": i, "player": link["actor"]}
        if isinstance(card, int) and not isinstance(card, Seat):
            entry["source"] = (
                game.cards[card].name if can_see(game, seat, card) else "a hidden card"
            )
        if link["negated"]:
            entry["negated"] = True
        links.append(entry)
    return links


def _battle(game: Game) -> BattleView | None:
    """The battle under way: its players, teams in formation order, victim, dice."""
    b = game.battle
    if b is None:
        return None
    return {
        "attacker": b.attacker,
        "defender": b.defender,
        "victim": _victim(b.victim),
        "attack_team": list(b.attack_team),
        "defense_team": list(b.defense_team),
        "attack_dice": [game.dice[d][0] for d in b.attack_dice],
        "defense_dice": [game.dice[d][0] for d in b.defense_dice],
    }


def _victim(victim: Seat | int | None) -> dict[str, int] | int | None:
    if isinstance(victim, Seat):
        return {"player": int(victim)}
    return victim
