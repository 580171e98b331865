"""The integer action space: a stable layout, a bijection at each decision, typed
fields, a mask, and clear refusals."""

from __future__ import annotations

import random

import pytest
from kotc.bots import ActionSpec, BotGame, Table
from kotc.runtime.actions import IllegalAction


def test_every_option_has_its_own_integer_and_decodes_to_its_fields(edition):
    for players in (2, 3):
        game = BotGame.new(edition, players=players, seed=3, max_turns=12)
        rng = random.Random(3)
        while not game.is_over:
            options = game.options()
            legal = game.legal_actions()
            assert legal == sorted(set(legal)) and legal, "sorted, distinct, not empty"
            assert len(legal) == len({game.space.index(game.space.spec(game.game, a))
                                      for a in game.game.legal_actions()})
            for i, action in options.items():
                spec = game.spec(i)
                assert spec == game.space.spec(game.game, action)
                assert game.space.index(spec) == i
                if action.kind == "act":
                    assert spec.verb == action.value[0]
            mask = game.legal_mask()
            assert mask.shape == (game.space.size,) and mask.sum() == len(legal)
            assert all(mask[i] == 1 for i in legal)
            game.apply(rng.choice(legal))


def test_the_layout_depends_on_the_rules_cards_and_seats_only(edition):
    a = Table.make(edition, players=2).space
    b = Table.make(edition, players=2).space
    assert [(x.key, x.start, x.sizes) for x in a.blocks] == \
        [(x.key, x.start, x.sizes) for x in b.blocks]
    assert Table.make(edition, players=3).space.size > a.size  # more cards, seats


def test_typed_fields_name_the_verb_and_its_arguments(edition):
    space = Table.make(edition, players=2).space
    for verb, fields in space.verbs.items():
        spec = ActionSpec("act", verb, tuple(range(1, 1 + fields.count("card"))),
                          ability=0 if "ability" in fields else None,
                          counter=space.counters[0] if "counter" in fields else None,
                          player=1 if "player" in fields else None)
        assert space.spec_at(space.index(spec)) == spec
    assert space.spec_at(space.index(ActionSpec("die", value=6))).value == 6
    assert space.spec_at(0) == ActionSpec("end")


def test_an_integer_out_of_place_is_refused_with_what_is_legal(edition):
    game = BotGame.new(edition, seed=1)
    illegal = next(i for i in range(game.space.size) if i not in game.options())
    with pytest.raises(IllegalAction, match="not legal now; legal: "):
        game.apply(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        game.spec(game.space.size)
    with pytest.raises(ValueError, match="outside the action space"):
        game.space.index(ActionSpec("option", value=10_000))
