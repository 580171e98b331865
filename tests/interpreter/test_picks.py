"""`picks`: the pick actions a game's namer keeps for its cards and players."""

from __future__ import annotations

import gc

from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import Game, Namer
from kotc.play.agents import RandomAgent, play
from kotc.runtime.actions import Action, picks
from kotc.runtime.values import AbilityRef, Seat


def _namer() -> Namer:
    return Namer(None, (("Zapper", "Zapper"), ("Goblin", "Goblin")))


def test_a_card_or_player_listed_again_is_the_same_action_labelled():
    namer = _namer()
    first = picks([1, Seat(1)], namer)
    again = picks((Seat(1), 1), namer)
    assert first[0] is again[1] and first[1] is again[0]
    assert [a.label for a in first] == ["Goblin#1", "player 1"]
    assert first[0] == Action("pick", 1) and first[1] == Action("pick", Seat(1))
    assert first[0] != first[1]  # a player is not the card of its number
    assert type(first[1].value) is Seat


def test_other_values_are_made_anew_with_their_labels_left_to_the_namer():
    namer = _namer()
    out_of_range, number = picks([7, 7], namer)
    assert out_of_range is not number and out_of_range._label is None
    assert picks([True], namer)[0].value is True  # not the card 1
    unhashable = picks([[0, 1]], namer)[0]
    assert unhashable.kind == "pick" and unhashable.value == [0, 1]
    assert picks([AbilityRef(0, 0)], namer)[0] is not picks([AbilityRef(0, 0)], namer)[0]


def test_a_played_game_is_freed_when_dropped_and_its_clone_shares_the_picks():
    rs = load_edition("17th")
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=2, players=2)
    play(g, [RandomAgent(2), RandomAgent(3)])
    assert g.namer.picked  # choices were made
    assert g.clone().namer.picked is g.namer.picked
    gc.collect()
    gc.disable()
    try:
        del g
        assert gc.collect() == 0  # no cycle: freed as dropped
    finally:
        gc.enable()


def test_games_of_the_same_cards_share_their_engine_s_namer():
    rs = load_edition("17th")
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=1, players=2)
    other = Game.new(rs, decks, seed=2, players=2, engine=g.engine)
    assert other.namer is g.namer
    assert Game.from_json(g.to_json(), g.engine).namer is g.namer
    mirror = Game.new(rs, [decks[0], decks[0]], seed=1, players=2, engine=g.engine)
    assert mirror.namer is not g.namer  # other cards
