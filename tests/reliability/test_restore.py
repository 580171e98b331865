"""`Game.from_json` refuses inconsistent states with the documented ValueError
(issue 26, item 12), and restores every state a game passes through."""

from __future__ import annotations

import json

import pytest
from kotc import Game, load_edition, starter_decks
from kotc.play.agents import RandomAgent


@pytest.fixture(scope="module")
def game():
    rs = load_edition("17th")
    g = Game.new(rs, starter_decks("17th"), seed=3, max_turns=4)
    agents = [RandomAgent(1), RandomAgent(2)]
    for _ in range(60):
        if g.is_over:
            break
        g.apply(agents[g.current_player].act(g))
    return g


def test_every_state_of_a_game_restores(game):
    rs = load_edition("17th")
    g = Game.new(rs, starter_decks("17th"), seed=5, max_turns=3, engine=game.engine)
    agent = RandomAgent(7)
    for _ in range(80):
        if g.is_over:
            break
        again = Game.from_json(g.to_json(), g.engine)
        assert again.to_json() == g.to_json()
        g.apply(agent.act(g))


def _edited(game, edit) -> str:
    data = json.loads(game.to_json())
    edit(data)
    return json.dumps(data)


def _hand(data):
    return data["players"][0]["zones"]["hand"]


BROKEN = {
    "a card in zone 1.5": lambda d: _hand(d).append(1.5),
    "a card past the last": lambda d: _hand(d).append(10**6),
    "a controller of 2**63": lambda d: d["cards"][0].update(controller=2**63),
    "a stat of None": lambda d: d["cards"][0]["stats"].update(sp=None),
    "a stat of a string": lambda d: d["cards"][0]["stats"].update(sp="7"),
    "a zone of no name": lambda d: d["cards"][0].update(zone="nowhere"),
    "an active seat of -1": lambda d: d.update(active=-1),
    "a seat of true": lambda d: d["players"][0].update(seat=True),
    "no players": lambda d: d.update(players=[]),
    "a huge turn": lambda d: d.update(turn=10**30),
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_an_inconsistent_state_is_refused(game, what):
    with pytest.raises(ValueError, match="not a (consistent|whole) game state"):
        Game.from_json(_edited(game, BROKEN[what]), game.engine)


def test_deeply_nested_text_is_refused(game):
    with pytest.raises(ValueError, match="not a game state"):
        Game.from_json("[" * 100_000 + "]" * 100_000, game.engine)
