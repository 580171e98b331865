"""A deck's named piles, and a card's "in play since its controller's turn began".

A ruleset names the piles a deck list may hold beside its main cards (`pile NAME
size RANGE apart|from_deck into ZONE`); the reserves are the pile named
`reserves`. A house edition of the 17th gives each deck a one-card `champion`
pile that starts on the battlefield and is not counted in the deck size.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from kotc.compiler.builtins import BUILTINS
from kotc.dsl import check_paths, load_path
from kotc.dsl.cards import load_deck
from kotc.dsl.legality import judge_deck
from kotc.dsl.shipped import DECKS_DIR
from kotc.engine.decks import checked_deck
from kotc.engine.game import Game
from kotc.play.agents import RandomAgent
from kotc.runtime.events import Given, Moved, PawnMade, TurnBegan

HOUSE = '''edition "house" number 17 extends "17th"
  source "house rules"
setup {
  pile champion size 1 apart into battlefield @ "Setup and Deck Building"
}
'''

WARDENS = (DECKS_DIR / "17th" / "wardens.kdeck").read_text(encoding="utf-8")


def deck_text(pile: str) -> str:
    """The Wardens starter deck with `pile` added before its closing brace."""
    head, _, _ = WARDENS.rpartition("}")
    return head.replace('edition "17th"', 'edition "house.kotc"') + pile + "}\n"


@pytest.fixture
def house(tmp_path: Path) -> Path:
    (tmp_path / "house.kotc").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "wardens.kcard").write_text(
        (DECKS_DIR / "17th" / "wardens.kcard").read_text(encoding="utf-8"),
        encoding="utf-8")
    return tmp_path


def judged(house: Path, pile: str) -> list[str]:
    path = house / "deck.kdeck"
    path.write_text(deck_text(pile), encoding="utf-8")
    deck, cards = load_deck(path)
    return [f.message for f in judge_deck(deck, cards, load_path(house / "house.kotc"))
            .findings]


def test_a_pile_of_the_size_named_is_legal_and_not_counted_in_the_deck(house):
    assert judged(house, '  champion { 1 "Shield Maiden" }\n') == []


def test_a_pile_of_another_size_is_illegal(house):
    assert judged(house, '  champion { 2 "Shield Maiden" }\n') == [
        "the champion pile has 2 cards; the house edition needs 1"]


def test_a_pile_the_ruleset_requires_cannot_be_left_out(house):
    assert judged(house, "") == [
        "the champion pile has 0 cards; the house edition needs 1"]


def test_a_pile_the_ruleset_does_not_name_is_illegal(house):
    piles = '  champion { 1 "Shield Maiden" }\n  sidekick { 1 "Field Medic" }\n'
    assert judged(house, piles) == [
        "the house edition has no pile 'sidekick' (its piles: champion)"]


def test_a_pile_holds_only_what_its_zone_holds(house):
    assert judged(house, '  champion { 1 "Counterspell" }\n') == [
        "'Counterspell' in the champion pile is a spell; its zone, battlefield, holds "
        "minion"]


def test_a_pile_listed_twice_is_refused_where_it_is_written(house):
    path = house / "deck.kdeck"
    path.write_text(deck_text('  champion { 1 "Shield Maiden" }\n'
                              '  champion { 1 "Field Medic" }\n'), encoding="utf-8")
    with pytest.raises(Exception, match="the pile 'champion' is listed twice"):
        load_deck(path)


def test_kotc_check_refuses_a_pile_into_an_unknown_zone(tmp_path):
    bad = tmp_path / "bad.kotc"
    bad.write_text(HOUSE.replace("into battlefield", "into champion_row"),
                   encoding="utf-8")
    _, problems = check_paths([bad])
    assert any("unknown zone 'champion_row'" in p.message for p in problems)


def test_kotc_check_refuses_the_reserves_named_twice(tmp_path):
    bad = tmp_path / "bad.kotc"
    bad.write_text(HOUSE.replace("  pile champion", '  reserves size 0..5 apart @ "Setup '
                                 'and Deck Building"\n  pile reserves'), encoding="utf-8")
    _, problems = check_paths([bad])
    assert any("the reserves pile is named twice" in p.message for p in problems)


def test_a_piles_card_starts_in_its_zone(house):
    path = house / "deck.kdeck"
    path.write_text(deck_text('  champion { 1 "Field Medic" }\n'), encoding="utf-8")
    rs = load_path(house / "house.kotc")
    deck = checked_deck(path, rs)
    g = Game.new(rs, [deck, deck], seed=3)
    for seat in (0, 1):
        field = [g.cards[c].name for c in g.players[seat].zones["battlefield"]]
        assert "Field Medic" in field
        assert len(g.players[seat].zones["deck"]) + len(g.players[seat].zones["hand"]) \
            == 40


def test_since_turn_start_follows_arrivals_and_turns(house):
    """`since_turn_start(card)` holds of a card in play exactly when it has been in
    its zone, under its controller, since that player's latest turn began: checked
    against the event log at every step of seeded games."""
    path = house / "deck.kdeck"
    path.write_text(deck_text('  champion { 1 "Field Medic" }\n'), encoding="utf-8")
    rs = load_path(house / "house.kotc")
    deck = checked_deck(path, rs)
    since = BUILTINS["since_turn_start"]
    arrivals = checked = 0
    for seed in range(4):
        g = Game.new(rs, [deck, deck], seed=seed, max_turns=12)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        arrived: dict[int, int] = {}  # card -> index of the event it arrived by
        began: dict[int, int] = {}  # seat -> index of its latest turn's start
        seen = 0
        while not g.is_over:
            g.apply(agents[g.current_player].act(g))
            for i, e in enumerate(g.events[seen:], seen):
                if isinstance(e, Moved) and e.to == "battlefield" or isinstance(
                        e, (Given, PawnMade)):
                    arrived[e.card] = i
                    arrivals += 1
                elif isinstance(e, TurnBegan):
                    began[e.player] = i
            seen = len(g.events)
            for p in g.players:
                for c in p.zones["battlefield"]:
                    fresh = arrived.get(c, -1) > began.get(g.cards[c].controller, -1)
                    assert since(g, c) is (not fresh), (seed, g.cards[c].name)
                    checked += 1
            for c in g.players[0].zones["hand"]:
                assert since(g, c) is False  # no zone in play
    assert arrivals > 10 and checked > 100
