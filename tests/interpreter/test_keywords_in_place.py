"""A keyword called from a block's written function runs its body in place when
it would have had a frame of its own: the game ends as the referee's frame leaves
it, whether the body runs through or pushes a frame part way."""

from __future__ import annotations

import json

import pytest
from kotc.compiler.programs import Frame, run
from kotc.dsl import ast, load_edition
from kotc.engine.decks import vanilla_deck
from kotc.engine.game import Game
from kotc.runtime.values import Seat


@pytest.fixture(scope="module")
def rs():
    return load_edition("17th")


def _state(g: Game) -> dict:
    return json.loads(g.to_json())


@pytest.mark.parametrize("left", [30, 1, 0])  # cards left in the deck
def test_a_keyword_written_in_place_acts_as_its_frame(rs, left):
    deck = vanilla_deck(rs)
    g = Game.new(rs, [deck, deck], seed=3)
    deck = g.players[0].zones["deck"]
    del deck[: len(deck) - left]
    call = ast.Call("draw", (ast.Path(("you",)), ast.IntLit(2)))
    block = g.engine.programs.block((call,), None, "test draw")
    g.frames.clear()  # the frames waiting for the first decision: not run here
    by_frame = g.clone()
    env = {"you": Seat(0)}
    g.frames.append(Frame(block, dict(env)))
    run(g)
    assert "'__within': 'draw'" in block.go.source  # its body written in place
    by_frame.call_keyword("draw", {"who": Seat(0), "n": 2}, dict(env), False, None)
    run(by_frame)
    assert g.frames == by_frame.frames == []
    assert _state(g) == _state(by_frame)
    assert g.usage["draw"] == by_frame.usage["draw"]
