"""What a player sees (`Game.view`) and what they read (`account` for a reader): the
cards of zones they may not look at are there, unnamed, in every edition."""

from __future__ import annotations

import dataclasses
import json

import pytest
from kotc.dsl import load_edition
from kotc.engine.account import account
from kotc.engine.decks import default_decks
from kotc.engine.game import Game
from kotc.engine.view import can_see
from kotc.play.agents import RandomAgent

EDITIONS = ["11th", "12th", "13th", "17th"]


def positions(edition: str, seed: int, players: int = 2, every: int = 7):
    """Positions of a seeded random game, every few decisions."""
    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=seed, players=players)
    agents = [RandomAgent(seed * 10 + s) for s in range(players)]
    while not g.is_over:
        if g.applied % every == 0:
            yield g
        g.apply(agents[g.current_player].act(g))
    yield g


def shown_ids(view: dict) -> set[int]:
    return {
        c["id"]
        for p in view["players"]
        for cards in p["zones"].values()
        for c in cards
        if not c.get("hidden")
    }


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_seat_sees_its_private_cards_the_public_ones_and_no_other(edition):
    knowledge = load_edition(edition).zones
    checked = 0
    for g in positions(edition, seed=11, players=3):
        for seat in (0, 1, 2, None):
            v = g.view(seat)
            json.dumps(v)  # plain data
            for p, mine in zip(v["players"], g.players, strict=True):
                for zone, cards in p["zones"].items():
                    held = mine.zones[zone]
                    assert len(cards) == len(held)  # every card is there, seen or not
                    for card, entry in zip(held, cards, strict=True):
                        c = g.cards[card]
                        known = knowledge[zone].knowledge
                        may = known != "restricted" and (
                            (known == "public" and c.face_up) or mine.seat == seat
                        )
                        assert entry.get("hidden", False) is not may, (zone, seat)
                        if may:
                            assert entry["id"] == card and entry["name"] == c.name
                        else:  # nothing that tells which card it is
                            assert set(entry) <= {"hidden", "exhausted"}
                        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_deck_is_seen_by_nobody_and_a_hand_by_its_player_only(edition):
    g = next(p for p in positions(edition, seed=4) if p.turn >= 2)
    for seat in (0, 1):
        v = g.view(seat)
        for p in v["players"]:
            assert all(c.get("hidden") for c in p["zones"]["deck"])
            hand = p["zones"]["hand"]
            assert hand
            assert all(bool(c.get("hidden")) is (p["seat"] != seat) for c in hand)
        assert not (shown_ids(v) & set(g.players[1 - seat].zones["hand"]))


def test_only_the_deciding_player_is_shown_the_options():
    g = next(positions("17th", seed=2))
    d = g.decision
    mine, theirs = g.view(d.player), g.view(1 - d.player)
    assert mine["decision"]["options"] == [str(a) for a in g.legal_actions()]
    assert "options" not in theirs["decision"]
    assert mine["decision"]["prompt"] == theirs["decision"]["prompt"] == d.prompt


def test_the_battle_and_chain_are_shown_while_under_way():
    battles = chains = 0
    for seed in range(6):
        for g in positions("17th", seed=seed, every=1):
            v = g.view(0)
            assert (v["battle"] is None) is (g.battle is None)
            assert (v["chain"] is None) is (g.chain is None)
            if g.battle is not None:
                battles += 1
                assert v["battle"]["attack_team"] == g.battle.attack_team
            if g.chain is not None:
                chains += 1
                assert [link["link"] for link in v["chain"]] == list(
                    range(1, len(g.chain.links) + 1)
                )
    assert battles and chains


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_reader_is_not_told_the_cards_they_may_not_see(edition):
    """As `kotc play` tells a game to a person: the new events, each time the
    reader is to decide. A card moved where the reader may not look is not named
    in its move's line, even if it has moved on since (drawn, then played); in
    other lines, a card is named only where the reader may look at it now, or
    where it is revealed."""
    rs = load_edition(edition)
    zones = rs.zones
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=8)
    agents = [RandomAgent(80), RandomAgent(81)]
    told, named_cards, hidden = {0: 0, 1: 0, None: 0}, 0, 0
    while True:
        for reader in (0, 1, None):
            if not g.is_over and g.current_player != (reader or 0):
                continue
            new, told[reader] = g.events[told[reader]:], len(g.events)
            for e in new:
                (line,) = account(g, [e], reader=reader) or [""]
                for card in g.cards:
                    named = f"{card.name}#{card.id}" in line
                    if e.kind == "move" and e.data.get("card") == card.id:
                        zone, holder = e.data["to"], e.data.get("player")
                        known = zones[zone].knowledge
                        open_ = known == "public" and g.engine.face_up[zone]
                        if known == "restricted" or (not open_ and holder != reader):
                            assert not named, line
                            hidden += 1
                    elif named and e.kind != "reveal":
                        assert can_see(g, reader, card.id), line
                        named_cards += 1
        if g.is_over:
            break
        g.apply(agents[g.current_player].act(g))
    assert named_cards and hidden


def test_a_reader_reads_their_own_draws_and_not_the_others():
    rs = load_edition("17th")
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=1)
    draws = [e for e in g.events if e.kind == "move" and e.data["to"] == "hand"]
    assert {int(e.data["player"]) for e in draws} == {0, 1}
    for e in draws:
        seat = int(e.data["player"])
        name = f"{g.cards[e.data['card']].name}#{e.data['card']}"
        if e.data["card"] in g.players[seat].zones["hand"]:  # not buried again
            assert name in account(g, [e], reader=seat)[0]
            assert name not in account(g, [e], reader=1 - seat)[0]
            assert "a card to" in account(g, [e], reader=1 - seat)[0]


def test_a_view_is_of_a_seat_at_the_table():
    g = next(positions("17th", seed=2))
    with pytest.raises(ValueError, match="no seat 2"):
        g.view(2)


def test_a_prompt_names_only_the_cards_a_seat_may_see():
    g = next(positions("17th", seed=2))
    mine = g.players[g.decision.player].zones["hand"][0]
    named = f"{g.cards[mine].name}#{mine}"
    # as a card's own might
    g.decision = dataclasses.replace(g.decision, prompt=f"keep {named}?")
    assert g.view(g.decision.player)["decision"]["prompt"] == f"keep {named}?"
    assert g.view(1 - g.decision.player)["decision"]["prompt"] == "keep a card?"


def test_the_table_a_person_reads_names_what_their_seat_sees():
    from kotc.play.table import board_text

    shown = 0
    for g in positions("17th", seed=3, every=1):
        if g.battle is None or not g.battle.attack_team or g.is_over:
            continue
        lines = board_text(g.view(0), width=400).splitlines()
        assert lines[1].startswith("╭─ player 0 (you) · HP")
        (battle,) = [line for line in lines if line.startswith("battle:")]
        for card in g.battle.attack_team:  # in play, face up: named for all
            assert f"{g.cards[card].name}#{card}" in battle
        hand = g.players[1].zones["hand"]
        theirs = [" ".join(x.strip("│ ").split()) for x in lines
                  if x.startswith("│ hand ") and "unseen" in x]
        assert theirs[-1:] == ([f"hand {len(hand)} unseen"] if hand else [])
        shown += 1
    assert shown


def test_a_seat_sees_the_text_of_the_cards_it_may_look_at():
    g = next(positions("17th", seed=2))
    seat = g.decision.player
    view = g.view(seat)
    mine = view["players"][seat]["zones"]["hand"]
    designs = {c["name"]: g.engine.designs[c["name"]] for c in mine}
    with_text = [c for c in mine if designs[c["name"]].abilities]
    assert with_text
    for c in with_text:
        assert [a["text"] for a in c["abilities"]] == [
            a.text for a in designs[c["name"]].abilities]
    theirs = view["players"][1 - seat]["zones"]["hand"]
    assert theirs and all(c == {"hidden": True} for c in theirs)
