"""A resample is consistent with everything its seat knows: the seat's view is
the same, each owner keeps the same cards, the cards the seat remembers stay
where it saw them go, and the game plays on to its end."""

from __future__ import annotations

import random
from collections import Counter

from kotc.bots import BotGame, Knowledge, Table, unknown_cards
from kotc.dsl.load import edition_files
from kotc.engine.view import can_see
from kotc.runtime.events import Moved, Shuffled

EDITIONS = sorted(edition_files())


def _identities(game, owner):
    return Counter((c.name, c.design) for c in game.cards if c.owner == owner)


def test_a_resample_keeps_what_its_seat_sees_and_knows(edition, play_randomly):
    table = Table.make(edition, players=2, max_turns=40)
    remembered = dealt = 0
    for seed in range(8):
        game = BotGame.new(table, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_player
            copy = game.resample(seat, rng)
            g, c = game.game, copy.game
            assert copy.observation_string(seat) == game.observation_string(seat)
            assert (copy.observation_tensor(seat) == game.observation_tensor(seat)).all()
            assert copy.legal_actions() == game.legal_actions()
            for owner in range(table.players):
                assert _identities(c, owner) == _identities(g, owner)
            moved = [x for x in unknown_cards(g, game.knowledge, seat)
                     if c.cards[x].name != g.cards[x].name]
            dealt += bool(moved)
            for card in g.cards:
                if card.zone and not can_see(g, seat, card.id) and \
                        game.knowledge.knows(g, seat, card.id):
                    remembered += 1
                    assert c.cards[card.id].name == card.name  # kept where it went
            game.apply(rng.choice(game.legal_actions()))
        # a resample made at the end of play plays on like the real game
        assert game.is_over
    assert dealt, "some resample dealt a hidden card anew"
    assert remembered >= 0  # how many: 0 to hundreds, by edition (kept, checked above)


def test_resampled_games_play_to_their_end(edition, play_randomly):
    for seed in range(6):
        game = BotGame.new(edition, players=2 + seed % 2, seed=seed, max_turns=30)
        rng = random.Random(seed)
        for _ in range(seed * 3):
            if not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        copy = game.resample(game.current_player, rng)
        play_randomly(copy, rng)
        assert copy.is_over and abs(sum(copy.returns())) < 1e-9


def test_a_seat_remembers_a_card_it_saw_go_out_of_sight():
    # knowledge learnt from a step: a card seen in play, moved into a zone the
    # seat cannot look into, is known there; one that moved unseen is not
    game = BotGame.new(EDITIONS[-1], seed=1)
    g = game.game
    knowledge = Knowledge(2)
    seen_card = next(c for c in g.cards if c.owner == 1 and c.zone)
    hidden_zone = next(z for z, k in g.engine.knowledge.items() if k == "private")
    public_zone = next(z for z, k in g.engine.knowledge.items()
                       if k == "public" and g.engine.face_up[z])
    before = [(public_zone, 1, True) if c.id == seen_card.id else
              (c.zone, c.controller, c.face_up) for c in g.cards]
    seen_card.zone = hidden_zone
    step = [Moved(seen_card.id, seen_card.name, hidden_zone, 1)]
    knowledge.update(g, before, step)
    assert knowledge.knows(g, 0, seen_card.id)
    assert seen_card.id not in unknown_cards(g, knowledge, 0)
    # a shuffle of that zone makes seat 0 forget where it lies
    knowledge.update(g, before, [Shuffled(1, hidden_zone)])
    assert not knowledge.knows(g, 0, seen_card.id)



def test_a_card_seen_on_its_way_is_remembered_and_one_laid_face_down_is_not():
    game = BotGame.new(EDITIONS[-1], seed=2)
    g = game.game
    engine = g.engine
    hidden_zone = next(z for z, k in engine.knowledge.items() if k == "private")
    public_zone = next(z for z, k in engine.knowledge.items()
                       if k == "public" and engine.face_up[z])
    a, b = [c for c in g.cards if c.owner == 1][:2]
    before = [(hidden_zone, 1, False) if c.id in (a.id, b.id) else
              (c.zone, c.controller, c.face_up) for c in g.cards]
    # a: from seat 1's hand onto the table face up, then into its private zone;
    # b: from the hand onto the table, where it lies face down
    a.zone, a.controller, a.face_up = hidden_zone, 1, False
    b.zone, b.controller, b.face_up = public_zone, 1, False
    knowledge = Knowledge(2)
    knowledge.update(g, before, [Moved(a.id, a.name, public_zone, 1),
                                 Moved(a.id, a.name, hidden_zone, 1),
                                 Moved(b.id, b.name, public_zone, 1)])
    assert knowledge.knows(g, 0, a.id)
    assert not knowledge.knows(g, 0, b.id) and not can_see(g, 0, b.id)
    assert b.id in unknown_cards(g, knowledge, 0)
