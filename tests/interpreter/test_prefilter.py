"""The static pre-filter of abilities: false only when the facts decide it."""

from __future__ import annotations

from kotc.compiler.prefilter import could_hold
from kotc.dsl import ast

ZONES = frozenset({"hand", "battlefield", "grave"})
MODS = frozenset({"ghost_play", "hex_play"})


def p(*parts: str) -> ast.Path:
    return ast.Path(tuple(parts))


# 17th-style: ghost_play or hex_play or (source on the battlefield and ready)
REQUIRES = ast.Binary(
    "and",
    ast.Unary("not", ast.FuncCall("tagged", (p("source"), p("berzerk")))),
    ast.Binary(
        "or",
        ast.Binary(
            "or",
            ast.Binary("is", p("ability"), p("ghost_play")),
            ast.Binary("is", p("ability"), p("hex_play")),
        ),
        ast.Binary(
            "and",
            ast.Binary("in", p("source"), p("you", "battlefield")),
            ast.Unary("not", p("source", "exhausted")),
        ),
    ),
)


def holds(mods: set[str], zone: str, cond: ast.Expr = REQUIRES) -> bool:
    return could_hold(cond, "source", "ability", frozenset(mods), MODS, zone, ZONES)


def test_a_plain_ability_is_ruled_out_away_from_the_zone_the_condition_names():
    assert not holds(set(), "hand")
    assert not holds(set(), "grave")


def test_a_plain_ability_on_the_named_zone_is_left_to_the_run_time_check():
    assert holds(set(), "battlefield")


def test_a_modifier_that_the_condition_accepts_keeps_the_ability_anywhere():
    assert holds({"ghost_play"}, "hand")
    assert holds({"hex_play"}, "grave")


def test_unknown_parts_never_rule_anything_out():
    unknown = ast.Binary(">", p("source", "hp"), ast.IntLit(2))
    assert holds(set(), "hand", unknown)
    assert holds(
        set(),
        "hand",
        ast.Unary("not", ast.Binary("in", p("source"), p("you", "battlefield"))),
    )


def test_negation_of_a_decided_fact_is_decided():
    # not (ability is ghost_play): false for a ghost-play ability, wherever it is
    cond = ast.Unary("not", ast.Binary("is", p("ability"), p("ghost_play")))
    assert not holds({"ghost_play"}, "battlefield", cond)
    assert holds(set(), "battlefield", cond)
