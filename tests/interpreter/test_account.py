"""The account `kotc play` prints: every event of a game is told or deliberately
left to another event's line, damage and destruction included; an `either`'s
options read as what they do."""

from __future__ import annotations

import pytest
from kotc.dsl import load_edition
from kotc.engine.account import account
from kotc.engine.decks import default_decks
from kotc.engine.game import Game
from kotc.play.agents import RandomAgent, play
from kotc.runtime.events import Activated, Decided, Logged, Moved, StatChanged
from kotc.runtime.values import Seat


def _played(edition: str, seed: int) -> Game:
    rs = load_edition(edition)
    g = Game.new(rs, default_decks(rs)[0], seed=seed)
    play(g, [RandomAgent(seed), RandomAgent(seed + 1)])
    return g


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_every_event_is_told_but_those_another_line_tells(edition):
    for seed in range(3):
        g = _played(edition, seed)
        for e in g.events:
            told = account(g, [e], cite=lambda c: "")
            passed = isinstance(e, Decided) and e.choice in ("act", "end", "pass")
            # an activation is told by the action or link that makes it, a battle's
            # end by the line after it
            silent = isinstance(e, Activated) or e.kind == "battle_end"
            assert (not told) == (silent or passed), e


def test_damage_and_destruction_are_told():
    g = _played("13th", 4)
    text = "\n".join(account(g, cite=lambda c: ""))
    hurt = [e for e in g.events if isinstance(e, StatChanged) and e.stat == "hp"]
    graves = [e for e in g.events if isinstance(e, Moved) and e.to == "grave"]
    assert hurt and graves
    c = g.cards[hurt[0].card]
    assert f"{c.name}#{c.id} hp is now {hurt[0].value}" in text
    c = g.cards[graves[0].card]
    assert f"{c.name}#{c.id} to player {c.owner}'s grave" in text


def test_an_event_of_the_rules_own_is_told_by_its_fields():
    g = _played("12th", 0)
    event = Logged("decked_out", {"player": Seat(1), "card": 0}, "12th §Draw")
    line = account(g, [event])
    assert line == [f"     decked_out: player 1, card {g.cards[0].name}#0  [12th §Draw]"]


def test_an_either_offers_its_options_as_what_they_do():
    # the 12th edition's first turn: the first player sows a card or draws one
    rs = load_edition("12th")
    g = Game.new(rs, default_decks(rs)[0], seed=2)
    while not g.is_over and not any(a.kind == "option" for a in g.legal_actions()):
        g.apply(RandomAgent(0).act(g))
    labels = [a.label for a in g.legal_actions()]
    assert labels == ["option 1: Place one card as a resource", "option 2: Draw one card"]
