"""Broken flows are caught, each at the rule file line that causes it.

Every fixture extends `tiny.kotc` (a small playable edition) and breaks one
thing; the file name says what.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from kotc.cli import main as cli
from kotc.dsl import load_path
from kotc.flowgraph.build import compile_ruleset
from kotc.flowgraph.checks import check_flow, check_ruleset

FIXTURES = Path(__file__).parent / "fixtures"


def problems(name: str) -> list[tuple[str, int, str]]:
    found = check_ruleset(load_path(FIXTURES / f"{name}.kotc"))
    return [(Path(d.origin.file).name, d.origin.line, d.message) for d in found]


def test_the_base_fixture_is_playable():
    assert problems("tiny") == []


def test_unreachable_phase():
    ((file, line, message),) = problems("unreachable_skipped_phase")
    assert (file, line) == ("unreachable_skipped_phase.kotc", 5)
    assert message.startswith("unreachable: turn node 'Upkeep Phase' can never be "
                              "reached from the start (`skip when true` at ")
    assert message.endswith("unreachable_skipped_phase.kotc:6:5 always holds)")


def test_unreachable_battle():
    """One report where the unreachable region starts, not one per step."""
    assert problems("unreachable_battle") == [(
        "tiny.kotc", 39,
        "unreachable: battle node 'Fight' can never be reached from the start "
        "(no phase opens an action that begins a battle); 1 node after it neither")]


def test_dead_end():
    assert problems("dead_end_no_next_turn") == [(
        "dead_end_no_next_turn.kotc", 6,
        "dead end: the flow stops at turn node 'Cleanup Phase': no `next_turn` rule "
        "in the turn section says who plays next")]


def test_chain_that_never_returns():
    assert problems("chain_never_resolves") == [
        ("chain_never_resolves.kotc", 5,
         "the chain entered from turn node 'Main Phase: actions' by play never returns "
         "there "
         "(the chain section has no `resolve` rule)"),
        ("chain_never_resolves.kotc", 6,
         "dead end: the flow stops at chain node 'Responses': the chain section has "
         "no `resolve` rule"),
    ]


def test_game_that_never_ends():
    assert problems("game_never_ends") == [(
        "game_never_ends.kotc", 2,
        "the game can never end: nothing leads to game over (no `condition` rule in "
        "the endgame section)")]


def test_game_over_unreachable_from_a_trap():
    """A region play can enter but never leave, made by hand in the graph."""
    fg = compile_ruleset(load_path(FIXTURES / "tiny.kotc"))
    fg.graph.add_node("turn:limbo", label="Limbo", role="phase", subflow="setup",
                      detail=[], cite=None, origin=fg.node("phase:main")["origin"],
                      rule=None, notes=[], stuck=None, hint=None)
    fg.graph.add_edge("setup:shuffle", "turn:limbo", kind="next", label="")
    fg.graph.add_edge("turn:limbo", "turn:limbo", kind="action", label="wait")
    messages = [d.message for d in check_flow(fg)]
    assert messages == [
        "dead end: the flow stops at setup node 'Limbo', which only loops back to itself",
        "game over cannot be reached from setup node 'Limbo'"]


@pytest.mark.parametrize("name, line", [
    ("dead_end_no_next_turn", 6), ("chain_never_resolves", 6), ("game_never_ends", 2)])
def test_kotc_check_reports_them_located(capsys, name, line):
    code = cli.main(["check", str(FIXTURES / f"{name}.kotc")])
    out = capsys.readouterr().out
    assert code == 2
    assert f"{name}.kotc:{line}:" in out
    assert "1 file checked" in out


def test_a_file_without_phases_has_no_flow_to_check(tmp_path):
    path = tmp_path / "zones_only.kotc"
    path.write_text('edition "zones_only" number 1 game "Test"\n  contents { "Fields" }\n'
                    'zones {\n  zone deck "Deck" restricted ordered face_down'
                    '  @ "Fields"\n}\n', encoding="utf-8")
    ruleset = load_path(path, use_cache=False)
    assert check_ruleset(ruleset) == []
    # compiled anyway, its flow is broken: the turn has nowhere to go
    assert check_flow(compile_ruleset(ruleset))
