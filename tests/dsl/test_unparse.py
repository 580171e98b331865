"""Unparsing: every rule of every edition reads back as the same tree."""

from __future__ import annotations

import dataclasses
import doctest
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from kotc.dsl import ast, edition_files, load_edition
from kotc.dsl import unparse as unparse_module
from kotc.dsl.errors import RulesetError
from kotc.dsl.load import lineage, parse_file
from kotc.dsl.unparse import (
    _EXPRESSIONS,
    _SYNTAX,
    quote,
    template_fields,
    unparse,
    unparse_expr,
    unparse_program,
    unparse_rule,
)

SCRATCH = tempfile.TemporaryDirectory(prefix="kotc-unparse-")


def reparse(section: str, rule_text: str, edition: str = "T") -> ast.Rule:
    """Parse one rule inside a minimal edition; the edition name fills citations."""
    text = f'edition {quote(edition)} number 1\n{section} {{\n{rule_text}\n}}\n'
    path = Path(SCRATCH.name) / "roundtrip.kotc"
    path.write_text(text, encoding="utf-8")
    (_, rules, _), = parse_file(path).sections
    (rule,) = rules
    return rule


def reparse_stmts(program: str) -> tuple[ast.Stmt, ...]:
    rule = reparse("keywords", f'keyword k "K" () {{\n{program}\n}}')
    return rule.body


def loaded(name: str):
    try:
        return load_edition(name)
    except RulesetError as err:
        pytest.skip(f"edition {name} does not load:\n{err}")


# --- every shipped edition ---------------------------------------------------------


@pytest.mark.parametrize("name", sorted(edition_files()))
def test_every_rule_of_every_edition_round_trips(name):
    ruleset = loaded(name)
    checked = 0
    for section, rules in ruleset.sections.items():
        for rule in rules.values():
            edition = rule.cite.edition if rule.cite else name
            text = unparse_rule(rule)
            assert reparse(section, text, edition) == rule, text
            checked += 1
    assert checked == len(ruleset.rules()) > 0


@pytest.mark.parametrize("name", sorted(edition_files()))
def test_rules_as_written_round_trip(name):
    """Each file's own rules, before merging: removals and positions included."""
    ruleset = loaded(name)
    for edition_file in lineage(edition_files()[ruleset.name]):
        for section, rules, _ in edition_file.sections:
            for rule in rules:
                text = unparse_rule(rule)
                assert reparse(section, text, edition_file.name) == rule, text


@pytest.mark.parametrize("name", sorted(edition_files()))
def test_programs_round_trip_as_statements(name):
    ruleset = loaded(name)
    programs = [r.body for r in ruleset.rules() if getattr(r, "body", ())]
    assert programs
    for program in programs:
        text = unparse_program(program)
        assert reparse_stmts(text) == program, text


# --- the syntax table against the trees ----------------------------------------------

SYNTAX_CLASSES = [
    cls for cls in vars(ast).values()
    if isinstance(cls, type) and issubclass(cls, ast.Node) and not cls.__subclasses__()
    and not issubclass(cls, ast.Expr) and cls is not ast.EditionFile
]
# Not written: a citation's edition is its file's; a phrase's text is its label.
IMPLICIT = {ast.Citation: {"edition"}, ast.Phrase: {"label"}, ast.Limit: {"label"},
            ast.BattlePart: {"label"}, ast.PileRule: {"label"}}


@pytest.mark.parametrize("cls", SYNTAX_CLASSES, ids=lambda c: c.__name__)
def test_every_statement_and_rule_has_a_syntax(cls):
    assert any(c in _SYNTAX for c in cls.__mro__), f"add {cls.__name__} to _SYNTAX"


@pytest.mark.parametrize(
    "cls", [c for c in vars(ast).values() if isinstance(c, type)
            and issubclass(c, ast.Expr) and not c.__subclasses__()],
    ids=lambda c: c.__name__)
def test_every_expression_has_a_writer(cls):
    assert cls in _EXPRESSIONS, f"add {cls.__name__} to _EXPRESSIONS"


@pytest.mark.parametrize(
    "cls", [c for c in _SYNTAX if isinstance(_SYNTAX[c], str)], ids=lambda c: c.__name__)
def test_templates_write_every_field(cls):
    """A field the template forgets would vanish silently from `show` and `diff`."""
    fields = {f.name for f in dataclasses.fields(cls)} - {"origin", "override"}
    fields -= IMPLICIT.get(cls, set())
    if issubclass(cls, ast.Rule):
        fields.discard("cite")  # appended by unparse_rule when the template lacks it
    assert fields <= template_fields(_SYNTAX[cls]), cls.__name__
    assert template_fields(_SYNTAX[cls]) <= fields | {"cite"}, cls.__name__


def test_pick_and_pawn_values():
    hi = ast.Binary("+", P(("a",)), ast.IntLit(2))
    stmt = ast.Pick("n", ast.IntLit(1), hi, P(("you",)))
    assert unparse(stmt) == "pick n in 1..a + 2 by you"
    pawn = ast.CreatePawn(P(("you", "battlefield")), "p", None,
                          (ast.PawnValue("sp", ast.IntLit(3)),))
    assert unparse(pawn) == "create pawn in you.battlefield as p with sp = 3"
    assert reparse_stmts(unparse(stmt) + "\n" + unparse(pawn)) == (stmt, pawn)


# --- examples a reader can check -----------------------------------------------------

P = ast.Path


def path(text: str) -> ast.Path:
    return P(tuple(text.split(".")))


@pytest.mark.parametrize("stmt, text", [
    (ast.Move(path("target"), path("target.owner.granary"), ("exhausted", "face_down")),
     "move target to target.owner.granary exhausted face_down"),
    (ast.Exhaust(path("source")), "exhaust source"),
    (ast.Exhaust(path("x"), unexhaust=True), "unexhaust x"),
    (ast.AddOp("subtract", ast.IntLit(2), path("host.sp"), "recovery"),
     "subtract 2 from host.sp until recovery"),
    (ast.Choose(ast.Count(any=True), path("you.hand"), "c", random=True),
     "choose any from you.hand as c randomly"),
    (ast.Choose(ast.Count(lo=ast.IntLit(0), hi=ast.IntLit(2)), path("you.hand"), "c",
                chooser=path("you")),
     "choose 0..2 from you.hand as c by you"),
    (ast.Perform("deploy", (path("x"),), ("free", "inline"), path("you")),
     "perform deploy(x) free inline by you"),
    (ast.Emit("forfeited", (path("you"),)), "emit forfeited(you)"),
    (ast.Banish(path("x")), "remove x from game"),
    (ast.Order(path("battle.attack_team"), path("battle.attacker"), "formation order"),
     'order battle.attack_team by battle.attacker asking "formation order"'),
    (ast.Note("enlisted", (path("target"),)), "note enlisted(target)"),
    (ast.Log("no_battle", (ast.LogArg(text="no team"),)), 'log no_battle("no team")'),
    (ast.Log("attack", (ast.LogArg(value=path("a")), ast.LogArg(value=path("t")),
                        ast.LogArg(value=path("v")))), "log attack(a, t, v)"),
    (ast.Append(path("x"), path("game.victims")), "append x to game.victims"),
    (ast.Form(path("battle.attack_team"), path("xs"), path("you"), "enlist", "done",
              least=ast.IntLit(1), event="enlisted"),
     'form battle.attack_team from xs by you at_least 1 asking "enlist" done "done" '
     'noting enlisted'),
    (ast.EndFlow("battle"), "end battle"),
    (ast.Begin("battle", (ast.FieldValue("attacker", path("you")),
                          ast.FieldValue("forced", ast.BoolLit(True)))),
     "begin battle with attacker = you, forced = true"),
    (ast.After("battle", (ast.Reveal(path("x")),)), "after battle {\n  reveal x\n}"),
    (ast.Choose(ast.Count(n=ast.IntLit(1)), path("xs"), "v", chooser=path("you"),
                prompt="declare the victim"),
     'choose exactly 1 from xs as v by you asking "declare the victim"'),
])
def test_statement_text(stmt, text):
    assert unparse(stmt) == text
    assert reparse_stmts(text) == (stmt,)


def test_blocks_are_indented_and_else_if_stays_flat():
    inner = ast.If(path("b"), (ast.Reveal(path("y")),), (ast.Shuffle(path("z")),))
    stmt = ast.If(path("a"), (ast.Repeat(ast.IntLit(2), (ast.Reveal(path("x")),)),),
                  (inner,))
    text = unparse(stmt)
    assert text == (
        "if a {\n"
        "  repeat 2 {\n"
        "    reveal x\n"
        "  }\n"
        "} else if b {\n"
        "  reveal y\n"
        "} else {\n"
        "  shuffle z\n"
        "}"
    )
    assert reparse_stmts(text) == (stmt,)


def test_override_citation_and_interpretation_are_written():
    rule = ast.StartingHpRule(
        35, override=True, cite=ast.Citation("Setup", "ties re-roll", "T"))
    assert unparse(rule) == (
        'override starting_hp 35 @ "Setup" interpretation "ties re-roll"')
    assert unparse_rule(rule, citation=False) == "override starting_hp 35"


def test_actions_open_throughout_a_phase_keep_their_place_among_the_others():
    text = ('phase p "P" { run { draw(you, 1) } opens a, b throughout  opens c '
            '@ "Turn" }')
    rule = reparse("turn", text)
    assert (rule.opens, rule.throughout, rule.opens_first) == (
        ("a", "b", "c"), ("a", "b"), ("a", "b"))
    assert reparse("turn", unparse_rule(rule)) == rule
    # with no program to open them before, the phase's one window has them
    assert reparse("turn", 'phase p "P" { opens a throughout }').opens_first == ()


def test_strings_with_quotes_survive():
    cite = ast.Citation("Bans", "read as written", "T")
    rule = ast.Ban(text='Say "hi" and \'bye\'', cite=cite)
    assert reparse("legality", unparse(rule)) == rule
    rule = ast.Ban(text='Say "hi"', cite=None)
    assert unparse(rule) == "ban 'Say \"hi\"'"


def test_removal_names():
    def removal(kind, name):
        return unparse(ast.Removal(removed_kind=kind, removed_name=name))

    assert removal("zone", "deck") == "remove zone deck"
    assert removal("zone", "*") == "remove zone *"
    assert removal("text", "Pay 1.") == 'remove text "Pay 1."'


# --- expressions: any tree reads back as itself -------------------------------------

NAMES = st.sampled_from(["a", "b", "card", "host", "you", "hp", "owner"])
atoms = st.one_of(
    st.integers(-20, 99).map(ast.IntLit),
    st.booleans().map(ast.BoolLit),
    st.just(ast.NoneLit()),
    st.lists(NAMES, min_size=1, max_size=3).map(lambda p: P(tuple(p))),
)


def compound(inner):
    ops = st.sampled_from(["or", "and", "==", "!=", "<", "in", "is", "+", "-", "*", "/"])
    return st.one_of(
        st.builds(ast.Binary, ops, inner, inner),
        st.builds(ast.Unary, st.just("not"), inner),
        st.builds(ast.Filtered, inner, inner),
        st.builds(ast.FuncCall, st.sampled_from(["count", "total"]),
                  st.lists(inner, max_size=3).map(tuple)),
    )


expressions = st.recursive(atoms, compound, max_leaves=12)


@given(expressions)
def test_any_expression_round_trips(expr):
    text = unparse_expr(expr)
    (stmt,) = reparse_stmts(f"let v = {text}")
    assert stmt.value == expr, text


@given(expressions, expressions)
def test_expressions_round_trip_inside_counts(lo, hi):
    stmt = ast.Choose(ast.Count(lo=lo, hi=hi), P(("you",)), "c")
    assert reparse_stmts(unparse(stmt)) == (stmt,), unparse(stmt)


def test_parentheses_only_where_needed():
    a, b, c = P(("a",)), P(("b",)), P(("c",))
    assert unparse(ast.Binary("+", ast.Binary("+", a, b), c)) == "a + b + c"
    assert unparse(ast.Binary("*", ast.Binary("+", a, b), c)) == "(a + b) * c"
    assert unparse(ast.Binary("or", a, ast.Binary("and", b, c))) == "a or b and c"
    assert unparse(ast.Unary("not", ast.Binary("==", a, b))) == "not a == b"
    assert unparse(ast.Unary("not", ast.Binary("and", a, b))) == "not (a and b)"
    assert unparse(ast.FuncCall("count", (ast.Filtered(a, b),))) == "count(a where b)"


def test_doctests():
    result = doctest.testmod(unparse_module)
    assert result.attempted > 0 and result.failed == 0


def test_unparse_rejects_what_it_cannot_write():
    with pytest.raises(TypeError):
        unparse(object())

