"""Each edition's flow graph, compared with what its rulebook's Turn Order says."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from kotc.dsl import ast, edition_files, load_edition
from kotc.dsl.unparse import unparse_expr
from kotc.engine.decks import default_decks
from kotc.engine.game import Game
from kotc.flowgraph.build import compile_ruleset
from kotc.flowgraph.checks import check_flow
from kotc.flowgraph.flow import FlowGraph

EDITIONS = sorted(edition_files())
FIXTURES = Path(__file__).parent / "fixtures"
FIRST_TURN = "game.turn == 1 and you == game.first_player"


@pytest.fixture(scope="module")
def flows() -> dict[str, FlowGraph]:
    return {name: compile_ruleset(load_edition(name)) for name in EDITIONS}


def moves(fg: FlowGraph, node: str, kind: str | None = None,
          anytime: bool = False) -> dict[str, list[str]]:
    """Targets of `node`'s edges (of one kind), with their labels; the actions
    open at any time only when asked for."""
    out: dict[str, list[str]] = {}
    for step in fg.successors(node):
        if kind in (None, step.kind) and step.anytime == anytime:
            out.setdefault(step.target, []).append(step.label)
    return out


@pytest.mark.parametrize("name", EDITIONS)
def test_every_shipped_edition_passes_the_graph_checks(flows, name):
    assert check_flow(flows[name]) == []


@pytest.mark.parametrize("name", EDITIONS)
def test_every_node_and_edge_has_a_citation_and_a_position(flows, name):
    fg = flows[name]
    for node, d in fg.graph.nodes(data=True):
        assert d["cite"] is not None, node
        assert d["origin"].line > 0 and d["origin"].file.endswith(".kotc"), node
    for u, v, d in fg.graph.edges(data=True):
        assert d["cite"] is not None, (u, v, d["kind"])
        assert d["origin"].line > 0, (u, v, d["kind"])


@pytest.mark.parametrize("name, order", [
    ("11th", ["Resource Phase", "Action Phase", "Battle Phase", "Recovery Phase"]),
    ("12th", ["Resource Phase", "Action Phase", "Battle Phase", "Recovery Phase"]),
    ("13th", ["Draw Phase", "Resource Phase", "Action Phase", "Battle Phase",
              "Recovery Phase"]),
    ("17th", ["Draw Phase", "Resource Phase", "Action Phase", "Battle Phase",
              "Recovery Phase"]),
])
def test_phase_order(flows, name, order):
    fg = flows[name]
    assert fg.phase_order() == order
    # and the flow really walks them in that order, then back to the start
    path = [fg.node(n)["label"] for n in fg.paths("turn:start", "phase:recovery")[0]
            if fg.node(n)["role"] == "phase"]
    assert path == order
    # the last phase's window (or the others' after it) leads to the next turn
    last = fg.predecessors("turn:start")
    assert {u for u, step in last if step.kind == "turn"} <= {
        "phase:recovery/actions", "phase:recovery/others",
        "endgame:check"}  # and the active player's leaving the game


@pytest.mark.parametrize("name", ["13th", "17th"])
def test_first_player_skips_the_first_draw_phase_by_a_guarded_edge(flows, name):
    fg = flows[name]
    # the phase begins, and is skipped at once
    (skip,) = [s for s in fg.successors("phase:draw") if s.kind == "skip"]
    assert skip.target == "phase:resource"
    assert unparse_expr(skip.guard) == FIRST_TURN
    assert skip.label == f"skip Draw Phase when {FIRST_TURN}"
    assert skip.cite.section == "Turn Order" and skip.cite.edition == "13th"
    # otherwise the turn starts with the Draw Phase, which draws one card
    assert "phase:draw" in moves(fg, "turn:start", "next")
    assert fg.node("phase:draw")["detail"] == ["draw(you, 1)"]


@pytest.mark.parametrize("name", ["11th", "12th"])
def test_no_draw_phase_to_skip_before_the_13th(flows, name):
    fg = flows[name]
    assert "phase:draw" not in fg
    assert not [e for e in fg.edges(kind="skip") if fg.node(e[0])["subflow"] == "turn"]


@pytest.mark.parametrize("name", ["11th", "12th"])
def test_resource_choice_and_its_first_turn_exception(flows, name):
    fg = flows[name]
    src = next(n for n in ("phase:resource/before", "phase:resource") if n in fg)
    out = {s.kind: s for s in fg.successors(src)}
    exception, usual = out["guard"], out["otherwise"]
    assert unparse_expr(exception.guard) == FIRST_TURN
    assert exception.label == f"when {FIRST_TURN}"
    assert usual.label == "otherwise" and usual.guard is None
    # as usual: place 0-2 resources, draw two minus that many (the 11th first ends
    # what lasted until the end of the last turn)
    assert fg.node(usual.target)["detail"][-3:] == [
        "choose 0..2 from you.hand as placed by you", "place_resource(placed)",
        "draw(you, 2 - count(placed))"]
    # the exception: the first player either places one card or draws one
    # (a decision its program makes as it runs, among its lines)
    assert fg.node(exception.target)["detail"][0].startswith("either by you")


@pytest.mark.parametrize("name", ["13th", "17th"])
def test_sowing_has_no_first_turn_exception_after_the_12th(flows, name):
    fg = flows[name]
    assert [s.kind for s in fg.successors("phase:resource")
            if s.kind != "endgame" and not s.anytime] == ["next"]
    assert fg.node("phase:resource")["detail"][1] == "sow(sown)"


def test_the_11th_exchanges_with_the_reserves_in_the_resource_phase(flows):
    fg = flows["11th"]
    entry, window = "phase:resource", "phase:resource/actions"
    # the exchange is a loop, before the placing (in the window before the
    # programs) and after it: any number of times, at any time in the phase
    before = "phase:resource/before"
    assert set(moves(fg, entry)) - {"endgame:check"} == {before}
    assert moves(fg, before, "action") == {before: ["exchange"]}
    assert fg.node(before)["kind"] == "window"
    assert fg.node(before)["policy"] == "active"
    assert set(moves(fg, before)) - {"endgame:check"} == {
        before, "phase:resource/when1", "phase:resource/run"}
    # every program of the phase (first turn or not) leads to the window...
    for program in ("phase:resource/when1", "phase:resource/run"):
        assert window in moves(fg, program)
    # ...where the exchange is open again
    assert moves(fg, window, "action") == {window: ["exchange"]}
    edges = list(fg.edges(action="exchange"))
    assert len(edges) == 2
    assert {d["cite"].section for _, _, d in edges} == {"Turn Order"}
    assert "phase:action" in moves(fg, "phase:resource/others", "pass")
    assert fg.node(window)["kind"] == "window" and fg.node(entry)["kind"] == "step"


@pytest.mark.parametrize("name", ["12th", "13th", "17th"])
def test_no_exchange_after_the_11th(flows, name):
    assert not list(flows[name].edges(action="exchange"))


@pytest.mark.parametrize("name, chaining", [
    ("12th", ["activate", "activate_trap", "cast"]),
    ("13th", ["activate", "cast"]),
    ("17th", ["activate", "activate_spell", "cast"]),
])
def test_chain_subflow(flows, name, chaining):
    fg = flows[name]
    assert "chain" in fg.subflows
    assert fg.nodes("chain")[:4] == ["chain:open", "chain:respond", "chain:resolve",
                                     "chain:close"]
    assert [fg.node(n)["kind"] for n in fg.nodes("chain")[:4]] == [
        "step", "window", "stack", "return"]
    assert fg.node("chain:resolve")["resolution"] == "last_in_first_out"
    # the Action Phase's chaining actions open the chain...
    opened = moves(fg, "phase:action/actions", "call")
    assert sorted(opened["chain:open"]) == chaining
    # ...every player may respond in turn, links resolve newest first...
    assert "pop" in moves(fg, "chain:respond", "respond")["chain:respond"]
    assert moves(fg, "chain:respond", "next") == {"chain:resolve": ["all pass in a row"]}
    assert moves(fg, "chain:resolve", "resolve") == {"chain:resolve": ["links remain"]}
    assert "no chaining while resolving" in fg.node("chain:resolve")["detail"]
    # ...and the closed chain returns to the phase that opened it
    assert moves(fg, "chain:close", "return")["phase:action/actions"] == [
        "chain closed"]


def test_the_11th_has_no_chain_so_its_actions_resolve_at_once(flows):
    fg = flows["11th"]
    assert "chain" not in fg.subflows
    assert not list(fg.edges(kind="call", action="cast"))
    window = "phase:action/actions"
    assert moves(fg, window, "action")[window] == [
        "summon", "cast", "set_trap", "activate", "activate_trap"]


def test_the_chain_comes_from_the_data_not_the_edition():
    """The 12th without its chain rules compiles like an edition with no chain."""
    ruleset = copy.copy(load_edition("12th"))
    ruleset.sections = {**ruleset.sections, "chain": {}}
    fg = compile_ruleset(ruleset)
    assert "chain" not in fg.subflows
    window = "phase:action/actions"
    assert "cast" in moves(fg, window, "action")[window]
    assert check_flow(fg) == []


@pytest.mark.parametrize("name", EDITIONS)
def test_giving_up_is_open_in_the_phases_not_between_battle_steps(flows, name):
    fg = flows[name]
    giving_up = load_edition(name).concessions
    callers = {u for u, _, d in fg.graph.edges(data=True) if d.get("action") in giving_up}
    # the phases' own windows: the active player's, or a round of every player
    # where the phase says so (wow-core); never the others' windows nor a battle's
    asked = {n for n in fg.nodes("turn", "window")
             if fg.node(n)["policy"] in ("active", "round")}
    assert callers and callers <= asked


@pytest.mark.parametrize("name", ["12th", "13th", "17th"])
def test_counters_pop_at_any_time_into_the_chain(flows, name):
    fg = flows[name]
    callers = {u for u, _, d in fg.edges(kind="call", action="pop") if d["anytime"]}
    # from every window of the phases and of the battle
    assert callers == {n for n in fg.nodes(role="window")
                       if fg.node(n)["subflow"] in ("turn", "battle")
                       and fg.node(n)["policy"] != "active" or n.endswith("/actions")}
    # the chain returns wherever it was opened from
    assert callers - {"phase:action/actions"} <= set(
        moves(fg, "chain:close", "return", True)) | set(
        moves(fg, "chain:close", "return"))


def test_the_11th_pops_counters_at_any_time_without_a_chain(flows):
    fg = flows["11th"]
    loops = {u for u, v, d in fg.edges(kind="action", action="pop") if u == v}
    assert {f"{n}/actions" for n in fg.nodes(role="phase")} <= loops


@pytest.mark.parametrize("name, steps", [
    ("11th", ["attack_formation", "defense_formation", "roll", "allocate",
              "leftover_attack", "leftover_defense"]),
    ("12th", ["attack_formation", "defense_formation", "battle_dice", "battle_damage"]),
    ("13th", ["attack_formation", "defense_formation", "damage_allocation"]),
    ("17th", ["attack_formation", "defense_formation", "damage_allocation"]),
])
def test_battle_steps(flows, name, steps):
    fg = flows[name]
    ids = [f"battle:{s}" for s in steps]
    assert [n for n in fg.nodes("battle", "battle_step")] == ids
    assert moves(fg, "phase:battle/actions", "call") == {ids[0]: ["battle"]}
    # each step, then a window between it and the next, policy `round`
    for a, b in zip(ids, ids[1:], strict=False):
        assert moves(fg, a, "next") == {f"{a}/window": [""]}
        assert b in moves(fg, f"{a}/window", "pass")
        assert fg.node(f"{a}/window")["policy"] == "round"
    assert fg.node(ids[0])["kind"] == "step" and fg.node(ids[0])["atomic"]
    assert fg.node("battle:end")["kind"] == "return"
    assert moves(fg, "battle:end", "return") == {"phase:battle/actions": ["battle over"]}


def test_battle_steps_say_what_they_do(flows):
    assert flows["13th"].node("battle:damage_allocation")["detail"] == [
        "roll_dice, allocate, leftover_attack"]
    assert flows["12th"].node("battle:battle_damage")["detail"] == [
        "allocate, leftover_attack, leftover_defense"]


def test_endgame(flows):
    fg = flows["11th"]
    assert moves(fg, "endgame:check", "end") == {"game_over": ["One player remains"]}
    assert sorted(moves(fg, "endgame:check", "lose")["endgame:lose"]) == [
        "An empty deck", "Forfeiting", "Hitpoints reduced to 0"]
    fg = flows["17th"]
    assert len(moves(fg, "endgame:check", "end")["game_over"]) == 4
    assert fg.node("game_over")["detail"][1] == "2. The player with the most HP"
    # every node of play may meet an endgame condition
    for node in fg.nodes("turn") + fg.nodes("battle") + fg.nodes("chain"):
        if node != "turn:start":
            assert "endgame:check" in moves(fg, node, "endgame"), node


def test_setup_runs_its_steps_then_the_first_turn(flows):
    fg = flows["17th"]
    order = [fg.node(n)["label"] for n in fg.paths("start", "turn:start")[0]]
    assert order[0] == "New game" and order[-1] == "Start of turn"
    assert any("mulligan" in fg.node(n)["rule"] for n in fg.nodes("setup")
               if fg.node(n)["rule"])
    assert "ultra_points at_most 10" in fg.node("start")["detail"]


def test_queries(flows):
    fg = flows["13th"]
    assert fg.find("Draw Phase") == "phase:draw"
    with pytest.raises(KeyError):
        fg.find("Upkeep Phase")
    # three steps, a window after each, and the battle's end
    assert fg.subflow("battle").number_of_nodes() == 7
    # the only ways from the start of the turn into the Action Phase
    routes = [[fg.node(n)["label"] for n in p] for p in fg.paths("turn:start",
                                                                 "phase:action")]
    assert sorted(routes) == [
        ["Start of turn", "Draw Phase", "Draw Phase: actions", "Draw Phase: the others",
         "Resource Phase", "Resource Phase: actions", "Resource Phase: the others",
         "Action Phase"],
        ["Start of turn", "Draw Phase", "Resource Phase", "Resource Phase: actions",
         "Resource Phase: the others", "Action Phase"]]
    (into,) = [s for u, s in fg.predecessors("phase:draw")
               if not s.anytime and s.kind != "resume"]
    assert into.kind == "next" and isinstance(into.cite, ast.Citation)


def test_an_action_that_ends_the_game_leads_to_game_over():
    fg = compile_ruleset(load_edition(FIXTURES / "concede.kotc"))
    assert moves(fg, "phase:main/actions", "end") == {"game_over": ["concede"]}
    assert check_flow(fg) == []


@pytest.mark.parametrize("name", EDITIONS)
def test_a_game_is_at_nodes_of_its_graph_in_the_phase_and_step_it_names(flows, name):
    """At each decision of a played game: its node is one of the flow graph's, its
    phase is that of the turn's activation, and its step that of the battle
    under way (none outside a battle)."""
    rs = load_edition(name)
    g = Game.new(rs, default_decks(rs)[0], seed=1, players=2)
    rng = random.Random(1)
    concessions = g.engine.referee.concessions
    while not g.is_over:
        assert g.node in flows[name], g.node
        phases = [a for a in g.stack if a.flow == "turn" and a.node.name[:6] == "phase:"]
        battles = [a for a in g.stack if a.flow == "battle" and a.call is None]
        if phases:
            assert g.phase == phases[-1].node.name[6:].partition("/")[0]
        if not battles:
            assert g.step == ""
        elif battles[-1].stage != 0 and battles[-1].node.kind != "return":
            # a step skipped at its beginning: the next's
            assert g.step == battles[-1].node.name[7:].partition("/")[0]
        legal = g.legal_actions()
        kept = [a for a in legal if not (a.kind == "act" and a.value[0] in concessions)]
        g.apply(rng.choice(kept or legal))
