"""The statements battle steps' parts are written with mean the same under both
backends: dice rolled at once in groups go where each group is kept, rolled by
its player, and are announced the last first; `choose die` offers one option per
value, lowest first, labelled from the names bound; a keyword called `by` a
player runs as that player; `drop` takes one item, or all, out of a list the
battle's record keeps, and a part's `set` of its record is silent where an
effect's is logged; `form` offers at each pick the candidates not in the list,
read once where no pick can change them."""

from __future__ import annotations

import pytest
from kotc.compiler import ir, services
from kotc.compiler.lower import PLAYER, reads_picked
from kotc.dsl import ast, load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import Engine, Game, card_pool
from kotc.engine.referee import new_battle
from kotc.runtime.values import Seat, card_label
from kotc.runtime.vm import Frame, run

BACKENDS = ("reference", "generated")


def p(*parts: str) -> ast.Path:
    return ast.Path(tuple(parts))


def _table(edition: str, backend: str) -> tuple[Game, Engine, list[int]]:
    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    engine = Engine(rs, card_pool(decks), backend)
    g = Game.position(rs, list(engine.pool))
    g.engine = engine
    names = sorted(engine.designs)
    cards = [g.put(names[i], 0, "hand") for i in range(3)]
    return g, engine, cards


def _run(g: Game, engine: Engine, stmts: tuple, env: dict, flow: str | None = None):
    names = {**dict.fromkeys(env), "you": PLAYER}
    if flow is None:
        block = engine.programs.block(stmts, None, "test", names)
    else:
        block = engine.programs.flow_block(flow, stmts, None, "test")
    g.frames.append(Frame(block, env))
    return run(g)


@pytest.mark.parametrize("backend", BACKENDS)
def test_choose_die_offers_each_value_once_lowest_first(backend):
    g, engine, cards = _table("11th", backend)
    env = {"you": Seat(0), "c": cards[0]}
    roll = ast.Roll((ast.RollGroup(ast.IntLit(12), p("ds")),))
    pick = ast.ChooseDie(p("ds"), "d", "pick a die", "hit {value} on {c}",
                         chooser=ast.FuncCall("left_of", (p("you"),)))
    _run(g, engine, (roll, pick), env)
    d = g.decision
    assert d is not None and d.player == 1 and d.prompt == "pick a die"
    values = [g.dice[a.value][0] for a in d.options]
    assert values == sorted(set(values)) and len(values) > 1
    # each option is the first die of its value, named by value and by the card
    for a in d.options:
        value = g.dice[a.value][0]
        assert a.kind == "die"
        assert a.value == next(x for x in env["ds"] if g.dice[x][0] == value)
        assert a.label == f"hit {value} on {card_label(g.cards[cards[0]].name, cards[0])}"
    g.apply(d.options[-1])
    assert env["d"] == d.options[-1].value


@pytest.mark.parametrize("backend", BACKENDS)
def test_dice_rolled_at_once_go_where_they_are_kept_by_their_rollers(backend):
    g, engine, cards = _table("11th", backend)
    g.battle = new_battle(0)
    env = {"you": Seat(0)}
    them = ast.FuncCall("left_of", (p("you"),))
    roll = ast.Roll((ast.RollGroup(ast.IntLit(2), p("battle", "attack_dice")),
                     ast.RollGroup(ast.IntLit(3), p("ds"), who=them)))
    _run(g, engine, (roll,), env, "battle")
    mine, theirs = g.battle.attack_dice, env["ds"]
    assert [g.dice[d][1] for d in mine] == [0, 0]
    assert [g.dice[d][1] for d in theirs] == [1, 1, 1]
    # each group logged as rolled by its roller, in order
    assert [(e.kind, e.data["player"], len(e.data["dice"])) for e in g.events] == [
        ("roll", 0, 2), ("roll", 1, 3)]


def test_dice_are_announced_last_first_with_their_rollers():
    announced = []

    class Table:
        def fire(self, name, fields, env, cite):
            announced.append((name, fields["die"], fields["roller"]))

    services.announce(Table(), [([0, 1], Seat(0)), ([2], Seat(1))], {}, None)
    assert announced == [("rolled", 2, 1), ("rolled", 1, 0), ("rolled", 0, 0)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_keyword_called_by_a_player_runs_as_that_player(backend):
    # the 11th's `place_resource` moves its target to `you.resource_zone`
    g, engine, cards = _table("11th", backend)
    env = {"you": Seat(0), "c": cards[0], "e": cards[1]}
    mine = ast.Call("place_resource", (p("c"),))
    theirs = ast.Call("place_resource", (p("e"),),
                      who=ast.FuncCall("left_of", (p("you"),)))
    _run(g, engine, (mine, theirs), env)
    assert (g.cards[cards[0]].controller, g.cards[cards[0]].zone) == (0, "resource_zone")
    assert (g.cards[cards[1]].controller, g.cards[cards[1]].zone) == (1, "resource_zone")


@pytest.mark.parametrize("backend", BACKENDS)
def test_drop_takes_one_or_all_out_of_a_record_s_list(backend):
    g, engine, cards = _table("11th", backend)
    g.battle = new_battle(0)
    team = g.battle.attack_team = [cards[0], cards[1], cards[0]]
    env = {"you": Seat(0), "c": cards[0]}
    _run(g, engine, (ast.Drop(p("battle", "attack_team"), p("c")),), env, "battle")
    assert g.battle.attack_team == [cards[1], cards[0]]  # its first, in a new list
    assert team == [cards[0], cards[1], cards[0]]
    _run(g, engine, (ast.Drop(p("battle", "attack_team"), all=True),), env, "battle")
    assert g.battle.attack_team == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_part_sets_its_record_silently_and_an_effect_is_logged(backend):
    g, engine, cards = _table("11th", backend)
    g.battle = new_battle(0)
    env = {"you": Seat(0), "c": cards[0]}
    setting = (ast.SetOp(p("battle", "victim"), p("c")),)
    _run(g, engine, setting, env, "battle")
    assert g.battle.victim == cards[0] and not g.events
    g.battle.victim = None
    _run(g, engine, setting, env)
    assert g.battle.victim == cards[0]
    assert [e.kind for e in g.events] == ["victim"]


def _forming(g: Game, engine: Engine, what: ast.Expr) -> None:
    """`form battle.attack_team from WHAT by you`, begun: the first pick asked."""
    for seat in (0, 1):  # a deck each: no player out of the game as picks are made
        g.put(sorted(engine.designs)[0], seat, "deck")
    g.battle = new_battle(0)
    form = ast.Form(p("battle", "attack_team"), what, p("you"), "enlist", "done")
    _run(g, engine, (form,), {"you": Seat(0)}, "battle")


def _picks(g: Game) -> list[int]:
    assert g.decision is not None
    return [a.value for a in g.decision.options if a.kind == "pick"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_form_s_candidates_that_no_pick_changes_are_kept_from_its_start(backend):
    g, engine, cards = _table("11th", backend)
    _forming(g, engine, p("you", "hand"))
    assert _picks(g) == cards
    g.apply(next(a for a in g.decision.options if a.value == cards[1]))
    assert _picks(g) == [cards[0], cards[2]]
    # a game saved between picks keeps them (its state's format says so)
    there = Game.from_json(g.to_json(), engine)
    assert _picks(there) == [cards[0], cards[2]]
    for game in (g, there):
        game.apply(next(a for a in game.decision.options if a.value == cards[2]))
        assert _picks(game) == [cards[0]]
    assert there.to_json() == g.to_json()


@pytest.mark.parametrize("backend", BACKENDS)
def test_form_s_candidates_that_read_the_list_formed_are_read_at_each_pick(backend):
    # the hand's cards while the team has fewer than two: none once it has two
    g, engine, cards = _table("11th", backend)
    small = ast.Binary("<", ast.FuncCall("count", (p("battle", "attack_team"),)),
                       ast.IntLit(2))
    _forming(g, engine, ast.Filtered(p("you", "hand"), small))
    for card in cards[:2]:
        g.apply(next(a for a in g.decision.options if a.value == card))
    assert g.decision is None and g.battle.attack_team == cards[:2]


def test_form_s_candidates_are_kept_unless_they_read_what_a_pick_changes():
    team = ir.BattleField("attack_team")
    assert not reads_picked(ir.PlayerZone(ir.Name("you"), "hand", False), "attack_team")
    assert not reads_picked(ir.BattleField("defense_team"), "attack_team")
    assert reads_picked(ir.Builtin("count", (team,)), "attack_team")
    context = ir.Builtin("context", (ir.Const("battle"),))
    assert reads_picked(ir.DynAttr(context, "attack_team", True), "attack_team")
    assert reads_picked(ir.GameField("recent"), "attack_team")
