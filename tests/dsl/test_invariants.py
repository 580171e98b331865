"""The `invariants` section: parsed, inherited, overridden and removed like any other
section, type-checked as conditions, written back by `unparse`, and checked in
games by `kotc.checking.invariants` with located, readable violations."""

from __future__ import annotations

from pathlib import Path

import pytest
from kotc.checking.fuzz import table_for
from kotc.checking.invariants import Invariants, Monitor
from kotc.dsl import RulesetError, ast, load_edition, load_path
from kotc.dsl.unparse import unparse_rule
from kotc.engine.game import Game

HOUSE = '''\
edition "house" number 18 extends "17th"
  contents { "Pawns", "Endgame" }

invariants {
  override invariant hp_never_negative "HP stays at 5 or more"
    for each p in players: p.hp >= 5                  @ "Endgame"
  remove invariant pawns_only_on_battlefield          @ "Pawns"
  invariant two_players "Two players at the table" count(players) == 2  @ "Endgame"
}
'''


def write(tmp_path: Path, text: str, name: str = "house.kotc") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_editions_state_their_rulebooks_invariants():
    twelfth = {i.name: i for i in load_edition("12th").invariants}
    wanted = {"hp_never_negative", "level_floor", "minion_stats_not_negative"}
    assert wanted <= set(twelfth)
    assert twelfth["hp_never_negative"].cite.section == "Endgame"
    thirteenth = {i.name: i for i in load_edition("13th").invariants}
    assert "minion_stats_not_negative" not in thirteenth  # 13th: no offense/defense
    assert thirteenth["level_floor"].cite.edition == "13th"  # its floor is 0
    seventeenth = {i.name for i in load_edition("17th").invariants}
    assert "pawns_only_on_battlefield" in seventeenth


def test_invariants_are_overridden_removed_and_added(tmp_path):
    rs = load_path(write(tmp_path, HOUSE), use_cache=False)
    found = {i.name: i for i in rs.invariants}
    assert "pawns_only_on_battlefield" not in found
    assert found["hp_never_negative"].title == "HP stays at 5 or more"
    whole = found["two_players"]
    assert whole.element is None and whole.domain is None


def test_unparse_writes_an_invariant_back_as_written(tmp_path):
    rs = load_path(write(tmp_path, HOUSE), use_cache=False)
    text = unparse_rule(rs.get("invariants", "invariant hp_never_negative"))
    assert text == ('override invariant hp_never_negative "HP stays at 5 or more" '
                    'for each p in players: p.hp >= 5 @ "Endgame"')


@pytest.mark.parametrize("rule, where, words", [
    ('invariant a "A" for each p in players: p.hp @ "Endgame"', 4, "must be bool"),
    ('invariant b "B" for each p in 3: true @ "Endgame"', 4,
     "must range over a collection, not int"),
    ('invariant c "C" for each c in players.hand: c.nonsense > 0 @ "Endgame"', 4,
     "has no attribute 'nonsense'"),
    ('invariant d "D" true @ "Nowhere"', 4, "not a section"),
])
def test_a_bad_invariant_is_located(tmp_path, rule, where, words):
    text = f'edition "bad" number 18 extends "17th"\n  contents {{ "Endgame" }}\n' \
           f'invariants {{\n  {rule}\n}}\n'
    with pytest.raises(RulesetError) as err:
        load_path(write(tmp_path, text, "bad.kotc"), use_cache=False)
    (problem,) = err.value.diagnostics
    assert problem.origin.line == where and words in problem.message


def test_a_broken_invariant_names_the_player_the_values_and_the_rule(tmp_path):
    rs = load_path(write(tmp_path, HOUSE), use_cache=False)
    table = table_for(rs)
    g = Game.new(rs, table.decks, seed=1, players=2, engine=table.engine)
    g.players[1].hp = 3
    (v,) = Monitor(g).check()
    assert (v.invariant, v.where) == ("hp_never_negative", "player 1")
    assert v.detail == "`p.hp >= 5` fails (p.hp = 3)"
    assert v.cite == "house §Endgame" and v.origin.endswith("house.kotc:5:3")


def test_an_invariant_that_cannot_be_evaluated_is_reported(tmp_path):
    rs = load_path(write(tmp_path, HOUSE), use_cache=False)
    table = table_for(rs)
    g = Game.new(rs, table.decks, seed=1, players=2, engine=table.engine)
    checks = Invariants.of(table.engine).own
    rule, domain, _cond, shown, text = checks[-1]

    def fails(g, env):
        raise KeyError("no such thing")

    checks[-1] = (rule, domain, fails, shown, text)
    (v,) = Monitor(g).check()
    assert v.invariant == "two_players"
    assert v.detail == "cannot be checked (KeyError: 'no such thing')"


def test_invariant_is_a_named_rule():
    assert issubclass(ast.Invariant, ast.Named) and ast.Invariant.kind == "invariant"


def test_a_counter_on_a_resource_breaks_the_rulebook_and_the_engine_invariant():
    rs = load_edition("12th")
    table = table_for(rs)
    g = Game.new(rs, table.decks, seed=1, players=2, engine=table.engine)
    card = g.players[0].zones["hand"][0]
    g.players[0].zones["hand"].remove(card)
    g.players[0].zones["granary"].append(card)
    g.cards[card].zone = "granary"
    g.cards[card].counters.append(["weakness", 1])
    g.counters_in_play["weakness"] = 1  # as the engine counts a counter placed
    found = {v.invariant: v for v in Monitor(g).check()}
    assert set(found) == {"counter_hosts", "counters_only_on_minions"}
    assert found["counters_only_on_minions"].cite == "12th §Counters"
    assert f"#{card} (player 0's granary)" in found["counter_hosts"].where
