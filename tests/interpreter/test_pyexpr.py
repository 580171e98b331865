"""Expressions compiled to Python source evaluate as their closures do.

A small table is built by hand: two minions of seat 0 on the field (one with a
weakness counter placed by seat 1, one marked), one of seat 1, a card in hand.
Each test evaluates expressions, generated, against the values the rules mean,
including the corners: nothing in an order comparison, `in` a single value, `+`
and `-` on lists, `where` binding and restoring its element name, terms with
their own names, bare counter and tag names, the forms of `is`, unbound names.
Random expressions a few levels deep must evaluate as the closures do (hypothesis).
Then whole seeded games under each edition, played once with generated code and
once with the closures, must match decision by decision.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kotc.compiler.programs import Programs, as_list
from kotc.dsl import ast, load_edition
from kotc.dsl.ast import Origin
from kotc.dsl.cards import CardDesign, StatValue
from kotc.engine import game as game_module
from kotc.engine.decks import default_decks
from kotc.engine.game import Engine, Game, card_pool
from kotc.play.agents import RandomAgent
from kotc.runtime.state import Battle, Chain
from kotc.runtime.values import AbilityRef, DieRef, Seat

HERE = Origin("<test>", 0, 0)
EDITION = "17th"


def p(*parts: str) -> ast.Path:
    return ast.Path(tuple(parts))


def n(value: int) -> ast.IntLit:
    return ast.IntLit(value)


def b(op: str, left: ast.Expr, right: ast.Expr) -> ast.Binary:
    return ast.Binary(op, left, right)


def call(func: str, *args: ast.Expr) -> ast.FuncCall:
    return ast.FuncCall(func, tuple(args))


class ClosurePrograms(Programs):
    """The reference: every expression as nested closures."""

    expr = Programs.closure

    def items(self, e):
        value = self.closure(e)
        return lambda g, env: as_list(value(g, env))


_CLOSURES: dict[int, ClosurePrograms] = {}


def closures(g: Game) -> ClosurePrograms:
    rs = g.engine.rs
    if id(rs) not in _CLOSURES:
        _CLOSURES[id(rs)] = ClosurePrograms(rs)
    return _CLOSURES[id(rs)]


@pytest.fixture(scope="module")
def table():
    rs = load_edition(EDITION)
    kind = next(t for t in rs.card_types.values() if t.name != "spell")
    designs = [
        CardDesign(
            name,
            kind.name,
            rs.number,
            tuple(StatValue(s, value, HERE) for s in kind.stats),
            (),
            None,
            HERE,
        )
        for name, value in (("Small", 1), ("Big", 4))
    ]
    g = Game.position(rs, designs)
    field = rs.setting("battle", "team").zone
    small = g.put("Small", 0, field, counters=[["weakness", 1]], tags={"berzerk": None})
    big = g.put("Big", 0, field, exhausted=True)
    theirs = g.put("Big", 1, field)
    held = g.put("Small", 0, "hand")
    stat = kind.stats[-1]
    return g, field, stat, small, big, theirs, held


def ev(g: Game, e: ast.Expr, env: dict | None = None, programs: Programs | None = None):
    """Evaluate `e` with generated code; the closures must agree (value and type)."""
    env = {"you": Seat(0)} if env is None else env
    fn = (programs or g.engine.programs).expr(e)
    assert hasattr(fn, "source"), "generated, not a closure"
    got = fn(g, env)
    reference = closures(g).expr(e)(g, dict(env))
    assert got == reference and type(got) is type(reference)
    return got


def test_literals_and_names(table):
    g = table[0]
    assert ev(g, n(3)) == 3
    assert ev(g, ast.BoolLit(False)) is False
    assert ev(g, ast.NoneLit()) is None
    assert ev(g, p("you")) == Seat(0)
    assert ev(g, p("active")) == Seat(g.active)
    assert ev(g, p("active"), {"active": Seat(1)}) == Seat(1)
    assert ev(g, p("players")) == [Seat(0), Seat(1)]
    # the players as a value are a list of the caller's own, not the game's
    g.engine.programs.expr(p("players"))(g, {}).clear()
    assert g.seats_in_game() == [Seat(0), Seat(1)]


def test_an_unbound_name_is_a_runtime_error(table):
    g = table[0]
    with pytest.raises(RuntimeError, match="'ghost' is not bound here"):
        g.engine.programs.expr(p("ghost", "hp"))(g, {})


def test_attributes_of_cards_seats_dice_and_nothing(table):
    g, field, stat, small, big, theirs, held = table
    env = {"you": Seat(0), "c": small, "d": big, "die": DieRef(0), "none": None}
    assert ev(g, p("c", stat), env) == 1
    assert ev(g, p("d", stat), env) == 4
    assert ev(g, p("c", "controller"), env) == Seat(0)
    assert type(ev(g, p("c", "owner"), env)) is Seat
    assert type(ev(g, p("c", "last_controller"), env)) is Seat
    assert ev(g, p("d", "exhausted"), env) is True
    assert ev(g, p("c", "exhausted"), env) is False
    assert ev(g, p("c", "printed"), env) == g.cards[small].printed
    assert ev(g, p("you", field), env) is g.players[0].zones[field]
    assert ev(g, p("you", "hand"), env) == [held]
    assert ev(g, p("you", "hp"), env) == g.players[0].hp
    assert ev(g, p("you", "left"), env) == Seat(1)
    assert ev(g, p("you", "left", field), env) == [theirs]
    assert ev(g, p("none", stat), env) is None
    assert ev(g, p("c", "controller", field, stat), env) == [1, 4]
    assert ev(g, p("players", field), env) == [small, big, theirs]  # flattened
    assert ev(g, p("game", "turn"), env) == g.turn
    assert ev(g, p("event", "target"), {"event": {"target": big}}) == big
    ability = AbilityRef(small, 0)
    assert ev(g, p("a", "card", stat), {"a": ability}) == 1
    g.dice = [(5, 1)]
    assert ev(g, p("die", "value"), env) == 5
    assert ev(g, p("die", "owner"), env) == Seat(1)


def test_a_contexts_fields_and_an_events_read_as_game_attr_reads_them(table):
    g, field, stat, small, big, theirs, held = table
    fields = [("battle", x) for x in ("ongoing", "attack_team", "defense_team",
                                       "attacker", "defender", "victim")]
    fields += [("chain", x) for x in ("open", "length", "resolving", "last_actor")]
    fields += [("game", x) for x in ("first_player", "first_turn", "turn")]
    battle, chain = g.battle, g.chain
    try:
        for g.battle, g.chain in [
            (None, None),
            (
                Battle(attacker=1, defender=None, attack_team=[theirs],
                       defense_team=[small, big], victim=big),
                Chain(links=[1, 2], resolving=True, last_actor=0),
            ),
        ]:
            for head, name in fields:
                ev(g, p(head, name))
            assert ev(g, b("in", p("c"), p("battle", "attack_team")), {"c": theirs}) is (
                g.battle is not None
            )
    finally:
        g.battle, g.chain = battle, chain
    # an event's fields: from its dict, and as `Game.attr` reads anything else
    for event in ({"target": big}, {}, Seat(1), big, None):
        for e in (p("event", "target"), p("event", "target", stat)):
            _same_as_closures(g, e, {"event": event})  # a value, or the same error


def test_a_name_bound_to_a_stat_reads_that_stat(table):
    g, field, stat, small, *_ = table
    assert ev(g, p("c", "which"), {"c": small, "which": stat}) == 1
    # even a card field's name, when bound to a stat, stands for the stat
    assert ev(g, p("c", "exhausted"), {"c": small, "exhausted": stat}) == 1
    assert ev(g, p("c", "exhausted"), {"c": small, "exhausted": 7}) is False


def test_order_comparisons_with_nothing_in_them_do_not_hold(table):
    g = table[0]
    env = {"none": None, "two": 2}
    for op in ("<", "<=", ">", ">="):
        assert ev(g, b(op, p("none"), n(3)), env) is False
        assert ev(g, b(op, n(3), p("none")), env) is False
        assert ev(g, b(op, p("none"), p("none")), env) is False
        assert ev(g, b(op, n(3), ast.NoneLit()), env) is False
    assert ev(g, b("<", p("two"), n(3)), env) is True
    assert ev(g, b(">=", p("two"), n(3)), env) is False
    assert ev(g, b("<=", n(2), p("two")), env) is True
    assert ev(g, b("==", p("none"), ast.NoneLit()), env) is True
    assert ev(g, b("!=", p("two"), n(2)), env) is False


def test_arithmetic(table):
    g = table[0]
    env = {"seven": 7}
    assert ev(g, b("+", p("seven"), n(2)), env) == 9
    assert ev(g, b("-", p("seven"), n(2)), env) == 5
    assert ev(g, b("*", p("seven"), n(2)), env) == 14
    assert ev(g, b("/", p("seven"), n(2)), env) == 3
    assert ev(g, b("/", p("seven"), n(0)), env) == 0
    seat = ev(g, b("+", p("you"), n(1)))
    assert seat == 1 and type(seat) is int  # a seat plus a number is a number
    # a count and a number are ints: added, taken and compared with no test
    left = b(">", b("-", n(2), call("count", p("xs"))), n(0))
    assert "type(2)" not in g.engine.programs.expr(left).source
    assert "is not None" not in g.engine.programs.expr(left).source
    for xs in ([], [1], [1, 2, 3], None, 5):
        ev(g, left, {"xs": xs})
    assert ev(g, b("+", ast.BoolLit(True), n(1))) == 2


def test_plus_and_minus_on_lists(table):
    g, field, stat, small, big, theirs, held = table
    env = {"xs": [small, big], "ys": [big, theirs], "c": held, "none": None}
    assert ev(g, b("+", p("xs"), p("ys")), env) == [small, big, theirs]
    assert ev(g, b("+", p("xs"), p("c")), env) == [small, big, held]
    assert ev(g, b("+", p("c"), p("xs")), env) == [held, small, big]
    assert ev(g, b("+", p("xs"), p("none")), env) == [small, big]
    assert ev(g, b("-", p("xs"), p("ys")), env) == [small]
    assert ev(g, b("-", p("xs"), p("none")), env) == [small, big]
    assert ev(g, b("-", p("xs"), p("c")), env) == [small, big]
    fresh = g.engine.programs.expr(b("+", p("xs"), p("none")))(g, env)
    assert fresh is not env["xs"]  # a new list, never the bound one
    # the cards of different zones share none: joined as they are
    zones = b("+", p("players", field), p("players", "hand"))
    assert ev(g, zones) == [small, big, theirs, held]
    assert "_plus" not in g.engine.programs.expr(zones).source
    same_zone = b("+", p("players", field), p("players", field))
    assert ev(g, same_zone) == [small, big, theirs]  # `_plus` keeps each card once


def test_in_a_list_and_in_a_single_value(table):
    g, field, stat, small, big, *_ = table
    env = {"you": Seat(0), "c": small, "d": big, "xs": [small], "t": (big,)}
    assert ev(g, b("in", p("c"), p("xs")), env) is True
    assert ev(g, b("in", p("d"), p("xs")), env) is False
    assert ev(g, b("in", p("d"), p("t")), env) is True
    assert ev(g, b("in", p("c"), p("c")), env) is True  # not a list: equality
    assert ev(g, b("in", p("c"), p("d")), env) is False
    assert ev(g, b("in", p("c"), p("you", field)), env) is True


def test_in_reads_its_right_side_first(table):
    g = table[0]
    fn = g.engine.programs.expr(b("in", p("left"), p("right")))
    with pytest.raises(RuntimeError, match="'right'"):
        fn(g, {})


def test_and_or_not_give_bools_and_short_circuit(table):
    g = table[0]
    env = {"two": 2, "empty": []}
    assert ev(g, b("and", p("two"), n(3)), env) is True
    assert ev(g, b("or", p("empty"), n(0)), env) is False
    assert ev(g, b("or", p("empty"), p("two")), env) is True
    assert ev(g, ast.Unary("not", p("empty")), env) is True
    # the right side is not read when the left decides
    assert ev(g, b("and", ast.BoolLit(False), p("unbound")), env) is False
    assert ev(g, b("or", p("two"), p("unbound")), env) is True
    with pytest.raises(RuntimeError, match="'unbound'"):
        g.engine.programs.expr(b("and", p("two"), p("unbound")))(g, env)


def test_and_or_not_copy_no_temporary_and_a_term_in_place_knows_its_env(table):
    """Each side of an and/or sets its result itself, a not reads its operand's
    expression; a term written in place knows its env holds only `you`, its
    parameters and a where's element: `active` and a bare tag's name are not
    looked for there."""
    g, field, stat, small, big, theirs, held = table
    either = b("or", b("and", p("a", "exhausted"), p("b", "exhausted")),
               ast.Unary("not", call("tagged", p("a"), p("berzerk"))))
    source = g.engine.programs.expr(either).source
    assert not re.search(r"^ *_\d+ = _\d+$", source, re.M), source
    for a, c in ((small, big), (big, small), (theirs, big), (big, big)):
        ev(g, either, {"you": Seat(0), "a": a, "b": c})
    programs = Programs(g.engine.rs)
    body = b("and", call("tagged", p("c"), p("berzerk")), b("==", p("active"), p("you")))
    programs.term_bodies["calm"] = ast.Term(
        ident="calm", params=(ast.Param("c", "int"),), value=body
    )
    programs.terms["calm"] = (("c",), Programs.closure(programs, body))
    calm = call("calm", p("d"))
    source = programs.expr(calm).source
    assert "calm" not in source and "env.get('berzerk'" not in source
    assert "'active' in" not in source
    for env in ({"you": Seat(0), "d": small}, {"you": Seat(1), "d": small},
                {"you": Seat(0), "d": big, "berzerk": "x", "active": Seat(1)}):
        assert programs.expr(calm)(g, dict(env)) is programs.closure(calm)(g, env)


def test_where_binds_the_element_and_restores_the_name(table):
    g, field, stat, small, big, theirs, held = table
    strong = ast.Filtered(p("you", field), b(">", p("card", stat), n(2)))
    env = {"you": Seat(0)}
    assert ev(g, strong, env) == [big]
    assert "card" not in env  # not bound before: not bound after
    env = {"you": Seat(0), "card": held}
    assert ev(g, strong, env) == [big]
    assert env["card"] == held  # bound before: the same binding after
    others = ast.Filtered(p("players"), b("!=", p("player"), p("you")))
    assert ev(g, others) == [Seat(1)]
    assert ev(g, ast.Filtered(p("none"), ast.BoolLit(True)), {"none": None}) == []
    one = ast.Filtered(p("c"), b("==", p("card"), p("c")))
    assert ev(g, one, {"c": small}) == [small]  # a single card is filtered as a list
    g.dice = [(2, 0), (6, 0)]
    dice = ast.Filtered(p("ds"), b(">", p("die", "value"), n(3)))
    assert ev(g, dice, {"ds": [DieRef(0), DieRef(1)]}) == [DieRef(1)]
    nested = ast.Filtered(
        p("players"),
        ast.Unary(
            "not",
            call(
                "is_empty",
                ast.Filtered(p("player", field), b("==", p("card", stat), n(1))),
            ),
        ),
    )
    assert ev(g, nested) == [Seat(0)]


def test_a_where_over_cards_or_players_reads_them_as_the_closures_do(table):
    # such a where reads its element from a local and its state once (see
    # `_e_Filtered`): the same values as any other where
    g, field, stat, small, big, theirs, held = table
    everything = b("+", p("players", field), p("you", "hand"))
    tired = ast.Filtered(everything, p("card", "exhausted"))
    assert ev(g, tired) == [big]
    # a card field's name bound to a stat stands for the stat here too
    assert ev(g, tired, {"you": Seat(0), "exhausted": stat}) == [small, big, theirs, held]
    # `card in seat.zone`, answered by the card's state
    home = ast.Filtered(everything, b("in", p("card"), p("card", "controller", field)))
    assert ev(g, home) == [small, big, theirs]
    mine = ast.Filtered(everything, b("in", p("card"), p("you", field)))
    assert ev(g, mine) == [small, big]
    held_here = ast.Filtered(everything, b("in", p("card"), p("you", "hand")))
    assert ev(g, held_here) == [held]
    # the outer element stays bound in a local across an inner where on the same name
    shadowed = ast.Filtered(
        everything,
        b(
            "and",
            ast.Unary("not", call("is_empty", ast.Filtered(p("you", "hand"), p("card")))),
            b("==", p("card", "controller"), p("you")),
        ),
    )
    assert ev(g, shadowed) == [small, big, held]
    # a list of cards and players is read the general way
    assert ev(g, ast.Filtered(p("mixed"), ast.BoolLit(True)), {"mixed": [small, Seat(1)]})
    alive = ast.Filtered(p("players"), b(">", p("player", "hp"), n(0)))
    assert ev(g, alive) == [Seat(0), Seat(1)]
    env = {"you": Seat(0), "player": "before"}
    assert ev(g, alive, env) == [Seat(0), Seat(1)] and env["player"] == "before"


# a `where` written as a loop of one test (no name bound in `env` per element)
_ONE_TEST = re.compile(r"for (_\d+) in _\d+:\n\s+if .+:\n\s+_\d+\.append\(\1\)")


def test_a_where_over_cards_written_as_a_loop_of_one_test(table):
    # a condition of card reads, comparisons and `and`/`or`/`not` is written as a
    # loop of one test (see `Gen.one_test`), with the same values and the
    # same failures as the closures
    g, field, stat, small, big, theirs, held = table
    everything = b("+", p("players", field), p("you", "hand"))

    def where(cond, env=None):
        e = ast.Filtered(everything, cond)
        assert _ONE_TEST.search(g.engine.programs.expr(e).source)
        return ev(g, e, env)

    assert where(b("and", p("card", "exhausted"), b("==", p("card", "controller"),
                                                     p("you")))) == [big]
    assert where(b(">", p("card", stat), n(1))) == [big, theirs]
    assert where(ast.Unary("not", b("is", p("card"), p(g.cards[small].type)))) == []
    assert where(b("in", p("card"), p("card", "controller", field))) == [
        small, big, theirs]
    # a mark, by its name or by a name bound to one
    tagged = ast.FuncCall("tagged", (p("card"), p("berzerk")))
    assert where(tagged) == [small]
    assert where(ast.Unary("not", tagged)) == [big, theirs, held]
    assert where(tagged, {"you": Seat(0), "berzerk": "other"}) == []
    # a name read only where the condition gets to it: unbound, it fails there only
    assert where(b("or", ast.BoolLit(True), p("ghost"))) == [small, big, theirs, held]
    with pytest.raises(RuntimeError, match="'ghost' is not bound"):
        g.engine.programs.expr(ast.Filtered(everything, b("==", p("ghost"), n(1))))(
            g, {"you": Seat(0)})
    # an order comparison reads both its sides, even when the first is nothing:
    # one that might fail is left to the loop, which does
    for cond in (
        b("<", p("none"), p("ghost")),
        b("<", ast.NoneLit(), p("ghost")),
        b("<", p("none"), b("==", p("ghost"), n(1))),
    ):
        late = ast.Filtered(everything, cond)
        assert not _ONE_TEST.search(g.engine.programs.expr(late).source)
        with pytest.raises(RuntimeError, match="'ghost' is not bound"):
            g.engine.programs.expr(late)(g, {"you": Seat(0), "none": None})


def test_a_where_keeping_the_card_equal_to_a_value_finds_it_with_no_loop(table):
    g, field, stat, small, big, theirs, held = table
    zones = b("+", p("players", field), p("players", "hand"))
    for cond in (b("==", p("card"), p("this")), b("==", p("this"), p("card")),
                 b("==", p("card"), n(big)), b("==", p("card"), ast.NoneLit())):
        e = ast.Filtered(zones, cond)
        assert ".count(" in g.engine.programs.expr(e).source
        for this in (held, theirs, Seat(small), True, None, "held", [held]):
            _same_as_closures(g, e, {"this": this})
        _same_as_closures(g, e, {})  # unbound: the same failure
        _same_as_closures(g, ast.Filtered(p("players", "casting"), cond), {})


def test_a_where_over_zone_lists_tests_no_types(table):
    # the cards of the players' zones are card ids, and so are those of a `where`
    # over them: no test of their types, in a loop of one test or in the general loop
    g, field, stat, small, big, theirs, held = table
    zones = b("+", p("players", field), p("players", "hand"))
    for cond in (p("card", "exhausted"), b("==", p("card", "controller"), p("you")),
                 b("==", p("card", "controller"), p("ghost")),
                 b("==", p("card", "exhausted"), p("exhausted"))):
        twice = ast.Filtered(ast.Filtered(zones, ast.Unary("not", p("card", "fatigued"))),
                             cond)
        for e in (ast.Filtered(zones, cond), twice):
            source = g.engine.programs.expr(e).source
            assert "type(" not in source, source
            for env in ({"you": Seat(1)}, {"you": Seat(0), "exhausted": stat}, {}):
                _same_as_closures(g, e, env)


def test_a_where_binds_its_element_in_env_only_when_something_may_read_it(table):
    g, field, stat, small, big, theirs, held = table
    everything = b("+", p("players", field), p("you", "hand"))
    plain = ast.Filtered(everything, b(">", p("card", stat), n(2)))
    fn = g.engine.programs.expr(plain)
    assert "env['card'] =" not in fn.source  # read from a local: nothing to bind
    env = {"you": Seat(0), "card": held}
    assert ev(g, plain, env) == [big, theirs] and env["card"] == held
    # `Game.attr` asked for a field named like the element may read that name
    through_attr = ast.Filtered(everything, b(">", p("a", "card", stat), n(0)))
    fn = g.engine.programs.expr(through_attr)
    assert "env['card'] =" in fn.source
    ability = AbilityRef(small, 0)
    assert ev(g, through_attr, {"you": Seat(0), "a": ability}) == [
        small,
        big,
        theirs,
        held,
    ]


def test_a_name_is_read_once_on_a_path_and_again_where_the_first_read_may_not_run(
    table,
):
    g, field, stat, small, big, *_ = table
    twice = b("or", b("==", p("c", stat), n(9)), b("==", p("c", stat), n(1)))
    assert g.engine.programs.expr(twice).source.count("env['c']") == 1
    assert ev(g, twice, {"c": small}) is True
    # the first read is under a test that fails: the second must read for itself
    guarded = b("or", b("and", p("flag"), p("c", stat)), p("c", stat))
    assert g.engine.programs.expr(guarded).source.count("env['c']") == 2
    assert ev(g, guarded, {"flag": 0, "c": small}) is True
    # nor where the branch that read it has just closed, with nothing written since
    after = b("==", b("and", p("flag"), p("c", stat)), p("c", stat))
    assert ev(g, after, {"flag": 0, "c": small}) is False
    # a where's element name means each element inside it, not what it meant outside
    same = b("==", p("card"), p("c"))
    outside = b("and", same, call("count", ast.Filtered(p("xs"), same)))
    assert ev(g, outside, {"card": small, "c": small, "xs": [big, Seat(1)]}) is False


def test_an_attribute_is_read_once_where_an_earlier_read_runs_on_every_path(table):
    g, field, stat, small, big, theirs, held = table
    target = p("event", "target")
    twice = b("and", b("in", target, p("xs")), b("!=", target, p("you")))
    source = g.engine.programs.expr(twice).source
    assert source.count(".get('target')") == 1, source
    for event in ({"target": big}, {"target": held}, {}):
        ev(g, twice, {"event": event, "xs": [big, None], "you": Seat(1)})
    # read first in a branch only: read again after it
    late = b("and", b("or", p("f"), b("==", target, n(0))), b("==", target, p("c")))
    assert g.engine.programs.expr(late).source.count(".get('target')") == 2
    for f in (0, 1):
        ev(g, late, {"event": {"target": small}, "f": f, "c": small})


def test_a_card_field_no_stat_can_shadow_is_read_from_the_card(table):
    g, field, stat, small, big, *_ = table
    fn = g.engine.programs.expr(ast.Filtered(p("you", field), p("card", "exhausted")))
    assert "stats['exhausted']" not in fn.source  # only a name bound to a stat
    assert fn(g, {"you": Seat(0)}) == [big]
    # a controller read from a card is a seat: its zones need no test of type, and
    # anything else's controller is read the general way
    ev(g, p("e", "controller", field), {"e": {"controller": None}})
    before = len(g.cards)
    with pytest.raises(ValueError, match="no stat"):
        g.put("Small", 0, field, stats={"exhausted": 1})
    assert len(g.cards) == before  # refused before anything was placed


def test_where_restores_the_name_when_the_condition_fails(table):
    g, field, *_ = table
    broken = ast.Filtered(p("you", field), p("unbound"))
    env = {"you": Seat(0), "card": "before"}
    with pytest.raises(RuntimeError):
        g.engine.programs.expr(broken)(g, env)
    assert env == {"you": Seat(0), "card": "before"}


def test_terms_see_only_you_and_their_parameters(table):
    g, field, stat, small, big, theirs, held = table
    programs = Programs(g.engine.rs)
    assert ev(g, call("yours", p("c")), {"you": Seat(0), "c": small}, programs) is True
    assert ev(g, call("yours", p("c")), {"you": Seat(1), "c": small}, programs) is False
    programs.terms["peek"] = (("x",), programs.expr(p("secret")))
    programs.terms["echo"] = (("x",), programs.expr(p("x")))
    peek = programs.expr(call("peek", n(1)))
    with pytest.raises(RuntimeError, match="'secret'"):
        peek(g, {"you": Seat(0), "secret": 1})
    # an argument past the term's parameters is never evaluated
    echo = programs.expr(call("echo", n(5), p("unbound")))
    assert echo(g, {"you": Seat(0)}) == 5


def test_a_term_written_in_place_sees_only_you_and_its_parameters(table):
    g, field, stat, small, big, theirs, held = table
    programs = Programs(g.engine.rs)

    def term(name: str, params: tuple[str, ...], value: ast.Expr) -> None:
        programs.term_bodies[name] = ast.Term(
            ident=name, params=tuple(ast.Param(x, "int") for x in params), value=value
        )
        programs.terms[name] = (params, None)  # known while its own body is compiled
        programs.terms[name] = (params, Programs.closure(programs, value))

    yours = call("yours", p("c"))
    assert "yours" not in programs.expr(yours).source  # written in place
    assert ev(g, yours, {"you": Seat(0), "c": small}, programs) is True
    assert ev(g, yours, {"you": Seat(1), "c": small}, programs) is False
    term("peek", ("x",), p("secret"))
    peek = programs.expr(call("peek", n(1)))
    assert "peek" not in peek.source
    with pytest.raises(RuntimeError, match="'secret'"):
        peek(g, {"you": Seat(0), "secret": 1})  # the caller's names are not the term's
    read_first = programs.expr(b("and", p("secret"), call("peek", n(1))))
    with pytest.raises(RuntimeError, match="'secret'"):
        read_first(g, {"you": Seat(0), "secret": 1})  # nor what the caller read
    term("leak", ("x",), p("card"))
    leak = programs.expr(ast.Filtered(p("players", field), call("leak", n(1))))
    with pytest.raises(RuntimeError, match="'card'"):
        leak(g, {"you": Seat(0)})  # nor the element of a where it is called in
    term("echo", ("x", "y"), b("+", p("x"), n(1)))
    echo = programs.expr(call("echo", n(5)))
    assert echo(g, {"you": Seat(0)}) == 6
    term("second", ("x", "y"), p("y"))  # a parameter given no argument is not bound
    with pytest.raises(RuntimeError, match="'y'"):
        programs.expr(call("second", n(5)))(g, {"you": Seat(0), "y": 1})
    # a term whose body needs its env gets its own: a name bound to a stat in the
    # caller's env is not bound in the term's
    term("tired", ("c",), p("c", "exhausted"))
    tired = programs.expr(call("tired", p("d")))
    assert tired(g, {"you": Seat(0), "d": big, "exhausted": stat}) is True
    term("mine", ("c",), call("yours", p("c")))  # a term in a term
    mine = programs.expr(ast.Filtered(p("players", field), call("mine", p("card"))))
    assert mine(g, {"you": Seat(1)}) == [theirs]
    term("loop", ("c",), call("loop", p("c")))  # recursion: written in place a few deep
    programs.terms["loop"] = (("c",), lambda g, env: env["c"])
    assert programs.expr(call("loop", n(7)))(g, {"you": Seat(0)}) == 7
    # given the card of a `where`, in its loop of one test: as the term's env reads
    everything = b("+", p("players", field), p("players", "hand"))
    term("fresh", ("c",), b("and", ast.Unary("not", p("c", "exhausted")),
                            ast.FuncCall("tagged", (p("c"), p("berzerk")))))
    term("ours", ("c",), b("==", p("c", "controller"), p("you")))
    term("stranger", ("c",), b("==", p("c", "owner"), p("other")))
    term("other_you", ("you",), b("in", p("you"), p("you", "controller", field)))
    for name, written in [("yours", True), ("fresh", True), ("ours", True),
                          ("stranger", False), ("other_you", True), ("mine", False)]:
        e = ast.Filtered(everything, call(name, p("card")))
        assert bool(_ONE_TEST.search(programs.expr(e).source)) is written, name
        for env in ({"you": Seat(0)}, {"you": Seat(1), "exhausted": stat},
                    {"berzerk": "other", "other": Seat(0)}):
            got = _outcome(programs.expr(e), g, dict(env))
            assert got == _outcome(programs.closure(e), g, dict(env)), (name, env)


def test_counter_and_tag_names_may_be_written_bare(table):
    g, field, stat, small, big, *_ = table
    env = {"you": Seat(0), "c": small, "d": big}
    assert ev(g, call("counters_on", p("c"), p("weakness")), env) == 1
    assert ev(g, call("counters_on", p("d"), p("weakness")), env) == 0
    assert ev(g, call("placed_by", p("c"), p("weakness"), p("you")), env) == 0
    assert ev(g, call("placed_by", p("c"), p("weakness"), ast.NoneLit()), env) == 1
    assert ev(g, call("tagged", p("c"), p("berzerk")), env) is True
    assert ev(g, call("tagged", p("d"), p("berzerk")), env) is False
    # a bound name stands for the counter it holds
    env["weakness"] = "sword"
    assert ev(g, call("counters_on", p("c"), p("weakness")), env) == 0


def test_builtins(table):
    g, field, stat, small, big, theirs, held = table
    env = {"you": Seat(0), "xs": [small, big], "none": None, "a": AbilityRef(big, 0)}
    assert ev(g, call("count", p("xs")), env) == 2
    assert ev(g, call("count", p("none")), env) == 0
    assert ev(g, call("count", p("a")), env) == 1  # an ability is one thing
    assert ev(g, call("count", p("you")), env) == 1
    assert ev(g, call("is_empty", p("xs")), env) is False
    assert ev(g, call("is_empty", p("none")), env) is True
    assert ev(g, call("is_empty", p("a")), env) is False
    assert ev(g, call("top", n(1), p("xs")), env) == [big]
    # the top of a pile is its end, taken first; more than there are takes all
    assert ev(g, call("top", n(5), p("xs")), env) == [big, small]
    assert ev(g, call("bottom", n(1), p("xs")), env) == [small]
    assert ev(g, call("top", n(0), p("xs")), env) == []
    taken = ev(g, call("bottom", n(5), p("xs")), env)
    taken.clear()  # a list of its own
    assert env["xs"] == [small, big]
    assert ev(g, call("max", n(2), n(7)), env) == 7
    assert ev(g, call("enemies", p("you")), env) == [Seat(1)]
    assert ev(g, call("total", p("you", field, stat)), env) == 5


def test_is_forms(table):
    g, field, stat, small, big, *_ = table
    rs = g.engine.rs
    kind = g.cards[small].type
    spell = next(t for t in rs.card_types if t != kind)
    env = {"you": Seat(0), "c": small, "none": None, "k": "weakness"}
    assert ev(g, b("is", p("c"), p(kind)), env) is True
    assert ev(g, b("is", p("c"), p(spell)), env) is False
    assert ev(g, b("is", p("you"), p(kind)), env) is False
    assert ev(g, b("is", p("none"), p(kind)), env) is False
    assert ev(g, b("is", p("c"), p("pawn")), env) is False
    assert ev(g, b("is", p("you"), p("player")), env) is True
    assert ev(g, b("is", p("c"), p("player")), env) is False
    kinds = g.engine.programs.counter_kinds
    other = next(k for k in ("proactive", "reactive", "inert") if k != kinds["weakness"])
    assert ev(g, b("is", p("k"), p(kinds["weakness"])), env) is True
    assert ev(g, b("is", p("k"), p(other)), env) is False
    assert ev(g, b("is", p("k"), p("weakness")), env) is True  # any other name: equal
    assert ev(g, b("is", p("k"), p("sword")), env) is False


def test_an_abilitys_modifiers_are_read_once_where_a_later_test_may_use_them():
    rs = load_edition(EDITION)
    decks, _ = default_decks(rs)
    designs = card_pool(decks)
    g = Game.position(rs, designs)
    able = next(d.name for d in designs if g.engine.abilities[d.name])
    card = g.put(able, 0, rs.setting("battle", "team").zone)
    mods = sorted(g.engine.abilities[able][0].modifiers) or ["ghost_play"]
    other = next(m for m in sorted(rs.modifiers) if m not in mods)
    env = {"you": Seat(0), "ability": AbilityRef(card, 0), "no": False}
    both = b("or", b("is", p("ability"), p(other)), b("is", p("ability"), p(mods[0])))
    assert ev(g, both, env) is (mods[0] in g.engine.abilities[able][0].modifiers)
    assert g.engine.programs.expr(both).source.count(".modifiers") == 1
    # the ability read first, its modifiers inside a branch that may not run: read
    # again after it
    branch = b("or", b("and", b("==", p("ability"), p("no")),
                       b("is", p("ability"), p(other))),
               b("is", p("ability"), p(mods[0])))
    assert ev(g, branch, env) is ev(g, both, env)
    assert g.engine.programs.expr(branch).source.count(".modifiers") == 2


def test_one_function_per_expression(table):
    g, field, stat, *_ = table
    e = ast.Filtered(p("you", field), b("and", p("card", stat), ast.Unary("not", n(0))))
    fn = g.engine.programs.expr(e)
    assert "_k" not in fn.source  # no closures nor other functions inside


def test_an_unknown_operator_fails_when_compiled_as_before(table):
    g = table[0]
    with pytest.raises(KeyError):
        g.engine.programs.expr(b("%", n(1), n(2)))
    with pytest.raises(KeyError):
        closures(g).expr(b("%", n(1), n(2)))


# Random expressions over a small table, written and as closures: the same value
# (and type), the same error, the same names bound after. Names: `a` a number,
# `f` zero, `c` and `d` cards, `xs` a list of them, `you` a seat, `none` None,
# `ghost` unbound; `card` and `player` inside a `where`. Each expression reads a
# few of them, so that it often reads one in two places.
_NAMES = ["a", "f", "c", "d", "xs", "you", "none", "ghost", "card"]
_FIELDS = ("exhausted", "controller", "owner", "last_controller", "fatigued", "zone")
_SOURCES = [p("xs"), p("players", "battlefield"), p("you", "hand"), p("players"),
            b("+", p("players", "battlefield"), p("players", "hand"))]


def _leaves(stat: str, names: list[str], paths: bool):
    name = st.sampled_from(names)
    plain = [
        st.integers(0, 2).map(ast.IntLit),
        st.booleans().map(ast.BoolLit),
        st.just(ast.NoneLit()),
        name.map(lambda x: p(x)),
    ]
    if not paths:
        return st.one_of(*plain)
    return st.one_of(
        *plain,
        st.tuples(name, st.sampled_from((stat, *_FIELDS))).map(lambda t: p(*t)),
        st.tuples(st.sampled_from(["you", "players", "player"]),
                  st.sampled_from(("battlefield", "hand"))).map(lambda t: p(*t)),
        st.sampled_from([p("c", "controller", "battlefield"),
                         p("card", "controller", "battlefield"), p("players")]),
    )


@st.composite
def _expression(draw, leaves, forms: list[str], ops: list[str], depth: int = 4):
    """A tree a few levels deep: branches inside branches, as the generator's
    bookkeeping of what was read where needs."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(leaves)
    form = draw(st.sampled_from(forms))

    def inner():
        return draw(_expression(leaves, forms, ops, depth - 1))

    if form == "binary":
        return b(draw(st.sampled_from(ops)), inner(), inner())
    if form == "not":
        return ast.Unary("not", inner())
    if form == "where":
        return ast.Filtered(draw(st.sampled_from(_SOURCES)), inner())
    return call(draw(st.sampled_from(["count", "is_empty", "yours"])), inner())


def _outcome(fn, g, env):
    try:
        return ("value", fn(g, env), env)
    except Exception as error:  # the same failure, or the same value
        return ("error", type(error), env)


def _same_as_closures(g, e: ast.Expr, env: dict) -> None:
    # the value, and the value as the items a statement acts on
    for how in ("expr", "items"):
        written = getattr(g.engine.programs, how)(e)
        got = _outcome(written, g, dict(env))
        want = _outcome(getattr(closures(g), how)(e), g, dict(env))
        assert got[0] == want[0], written.source
        assert got[1] == want[1] and type(got[1]) is type(want[1]), written.source
        assert got[2] == want[2], written.source  # names bound after: as before


def _env(table, data) -> dict:
    g, field, stat, small, big, theirs, held = table
    env = {"a": 2, "f": 0, "c": small, "d": theirs, "xs": [small, big, held],
           "you": Seat(data.draw(st.integers(0, 1))), "none": None}
    if data.draw(st.booleans()):
        env["card"] = big  # an element name bound before a `where`
    return env


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_random_branching_expressions_evaluate_as_their_closures(table, data):
    # `and`, `or`, `not` and comparisons over a name or two and falsy literals
    names = data.draw(st.lists(st.sampled_from(["a", "f", "none", "c"]), min_size=1,
                               max_size=2))
    leaves = _leaves(table[2], names, paths=False)
    ops = ["and", "or", "==", "in", "<"]
    e = data.draw(_expression(leaves, ["binary"] * 3 + ["not"], ops))
    _same_as_closures(table[0], e, _env(table, data))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_random_expressions_evaluate_as_their_closures(table, data):
    # every form the generator writes: paths, `where`, terms, builtins
    names = data.draw(st.lists(st.sampled_from(_NAMES), min_size=1, max_size=3))
    leaves = _leaves(table[2], names, paths=True)
    ops = ["and", "or", "==", "!=", "<", ">=", "+", "-", "in"]
    forms = ["binary"] * 4 + ["not", "where", "call"]
    e = data.draw(_expression(leaves, forms, ops))
    _same_as_closures(table[0], e, _env(table, data))


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_generated_code_plays_seeded_games_exactly_as_the_closures(edition, monkeypatch):
    # the same games, decision by decision, with every expression of the rules and
    # of the cards evaluated by generated code and by the reference closures
    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    designs = card_pool(decks)
    generated = Engine(rs, designs)
    monkeypatch.setattr(game_module, "Programs", ClosurePrograms)
    reference = Engine(rs, designs)

    def transcript(engine: Engine, seed: int) -> list:
        g = Game.new(rs, decks, seed=seed, players=2 + seed % 2, engine=engine)
        agents = [RandomAgent(seed + i) for i in range(3)]
        seen = []
        while not g.is_over:
            seen.append([a.label for a in g.legal_actions()])
            g.apply(agents[g.current_player].act(g))
        return [seen, g.log_json(), g.result]

    for seed in range(3):
        assert transcript(generated, seed) == transcript(reference, seed)
