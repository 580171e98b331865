"""The table's pieces: stable keys, questions in the rulebook's words, `look`."""

from __future__ import annotations

import doctest

from kotc import Game, RandomAgent, starter_decks
from kotc.play import table as table_module
from kotc.play.table import Keys, find_card, question
from kotc.runtime.actions import Action
from kotc.runtime.values import AbilityRef, DieRef, Seat


def test_the_helpers_examples_hold():
    assert doctest.testmod(table_module).failed == 0


def test_an_action_keeps_its_key_and_no_other_action_takes_it():
    keys = Keys(["agree_to_end"])
    summon = Action("act", ("summon", (38,)), "summon Exile#38")
    cast = Action("act", ("cast", (38,)), "cast Exile#38")
    activate = Action("act", ("activate", (13, AbilityRef(13, 1))), "activate X#13 B")
    first = [keys.of(a) for a in (summon, cast, activate)]
    assert first == ["s38", "c38", "a13:2"]
    assert keys.of(Action("pick", 38, "Exile#38")) == "38"
    assert keys.of(Action("pick", Seat(1), "player 1")) == "p1"
    assert keys.of(Action("die", DieRef(4), "inflict 4")) == "r4"
    assert keys.of(Action("act", ("agree_to_end", ()), "agree_to_end")) == "agree_to_end"
    assert [keys.of(Action(k)) for k in ("yes", "no", "done", "end", "pass")] == [
        "y", "n", "d", "e", "p"]
    # asked again later, in another order: the same keys
    assert [keys.of(a) for a in (activate, cast, summon)] == first[::-1]
    # a name whose initial is taken gets a longer prefix, not another's key
    assert keys.of(Action("act", ("pop", (38, "damage")), "pop")) == "po38"
    assert keys.of(Action("act", ("shuffle", ()), "shuffle")) == "sh"


def test_two_actions_that_would_share_a_key_get_two():
    keys = Keys()
    one = Action("act", ("pop", (7, "damage")), "pop X#7 damage")
    two = Action("act", ("pop", (7, "shield")), "pop X#7 shield")
    assert keys.of(one) == "po7"  # `p` is pass's
    assert keys.of(two) == "po7.2"


def test_questions_say_where_and_how_many():
    g = Game.new("17th", starter_decks("17th"), seed=2)
    bots = [RandomAgent(1), RandomAgent(2)]
    asked = set()
    while not g.is_over and len(asked) < 40:
        text = question(g, g.decision)
        assert "'" not in text.split(":")[0]  # no internal names where it is asked
        asked.add(text)
        g.apply(bots[g.current_player].act(g))
    assert any(q.startswith("Mulligan") and "do it?" in q for q in asked)
    assert any("Resource Phase" in q and "sown: choose up to 1" in q for q in asked)
    assert any(q.startswith("Action Phase") and "end the phase" in q for q in asked)


def test_look_finds_a_card_by_number_or_name():
    g = Game.new("17th", starter_decks("17th"), seed=2)
    view = g.view(0)
    card = view["players"][0]["zones"]["hand"][0]
    assert find_card(view, str(card["id"]))[0] == card
    assert find_card(view, f"#{card['id']}")[0] == card
    assert find_card(view, card["name"].upper())[0]["name"] == card["name"]
    assert find_card(view, "no such card")[0] is None
    theirs = g.players[1].zones["hand"][0]
    found, why = find_card(view, str(theirs))
    assert found is None and "you can see" in why  # the other hand stays unseen
