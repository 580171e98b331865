"""Battle settings the engine reads, so that a rule removed is a rule gone: a card
that leaves its zone during a battle leaves its team where the battle section says
so (`drop leavers from attack_team, defense_team`: the 17th's Battles; the 11th to
13th by interpretation),
and a player or minion is declared the victim once per Battle Phase where the
`victims` term says so (it leaves out `game.victims`, those declared since the
phase began)."""

from __future__ import annotations

import pytest
from edited_rules import without_rule
from kotc import Game, RandomAgent
from kotc.dsl import ast, load_edition, load_path
from kotc.dsl.types import BATTLE_FIELDS, GAME_LISTS
from kotc.engine.decks import default_decks
from kotc.runtime.state import Battle


def _without(rs, key: str):
    return without_rule(rs, "battle", key)


def _without_withdrawing(rs):
    return _without(rs, "setting drop_leavers")


def _in_battle(rs, seed: int = 3, declared: bool = False) -> Game:
    """A seeded game played on until a battle has an attacking team (and, with
    `declared`, a victim)."""
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=seed)
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    for _ in range(3000):
        b = g.battle
        if b is not None and b.attack_team and (b.victim is not None or not declared):
            return g
        g.apply(agents[g.current_player].act(g))
    pytest.fail("no battle with an attacking team")


@pytest.mark.parametrize("edition", ["11th", "17th"])
def test_a_card_leaving_play_leaves_its_team_where_the_rules_say(edition):
    rs = load_edition(edition)
    assert rs.setting("battle", "drop_leavers") is not None
    for rules, withdrawn in ((rs, True), (_without_withdrawing(rs), False)):
        g = _in_battle(rules)
        card = g.battle.attack_team[0]
        hand = next(z for z in rules.zones if z == "hand")
        g.move(card, g.cards[card].controller, hand, (), None)
        assert (card not in g.battle.attack_team) is withdrawn, rules.name


def test_the_choice_is_labelled_where_the_rulebook_is_silent():
    cite = load_edition("11th").setting("battle", "drop_leavers").cite
    assert cite.interpretation and cite.section == "Battles"
    cite = load_edition("17th").setting("battle", "drop_leavers").cite
    assert cite.interpretation is None and cite.edition == "17th"


# the 11th's victims, but any number of times per Battle Phase
_AS_OFTEN = """edition "victims_as_often" number 90 extends "11th"
keywords {
  override term victims "Possible victims" (attacker: player) =
    concat(players where player != attacker,
    players.creature_zone where card.controller != attacker and card is creature)
    @ "Battles"
}
"""


def test_a_victim_is_declared_once_per_battle_phase_where_the_rules_say(tmp_path):
    path = tmp_path / "victims_as_often.kotc"
    path.write_text(_AS_OFTEN, encoding="utf-8")
    victims = ast.FuncCall("victims", (ast.Path(("battle", "attacker")),))
    for rules, once in ((load_edition("11th"), True),
                        (load_path(path, use_cache=False), False)):
        g = _in_battle(rules, declared=True)
        declared = g.battle.victim
        assert declared in g.victims
        possible = g.engine.programs.expr(victims)(g, {"you": None})
        assert (declared in possible) is not once, rules.name


def test_the_fields_a_record_may_declare_are_those_the_engine_keeps():
    """`kotc.dsl.types.BATTLE_FIELDS` (what `check` lets a record declare) names
    fields of the engine's `Battle`; each shipped record declares only those."""
    assert set(Battle.__slots__) >= BATTLE_FIELDS
    for name in ("11th", "12th", "13th", "17th"):
        record = load_edition(name).battle_record
        assert record is not None
        assert {f.name for f in record.fields} <= BATTLE_FIELDS


def _into_next_phase(g: Game, seed: int = 3) -> None:
    """Play on until another phase begins."""
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    phase, turn = g.phase, g.turn
    for _ in range(3000):
        if (g.phase, g.turn) != (phase, turn):
            return
        g.apply(agents[g.current_player].act(g))
    pytest.fail("no next phase")


def test_the_victims_are_kept_per_phase_where_the_rules_say():
    """`keep victims per phase` (the 11th's turn section, inherited): the victims
    declared are forgotten as the next phase begins; without the rule, kept."""
    rs = load_edition("11th")
    assert "victims" in rs.kept_lists
    for rules, emptied in ((rs, True), (without_rule(rs, "turn", "keep victims"), False)):
        g = _in_battle(rules, declared=True)
        declared = g.battle.victim
        _into_next_phase(g)
        assert (declared not in g.victims) is emptied, emptied


def test_the_lists_a_ruleset_may_keep_are_those_the_game_keeps():
    assert set(GAME_LISTS) <= set(Game.__slots__)
