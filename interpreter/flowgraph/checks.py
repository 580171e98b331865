"""Checks on a compiled flow graph, part of `kotc check`.

A ruleset can load cleanly and still describe a game that cannot be played:
a battle no phase ever starts, a turn with no way to the next one, a chain that
never resolves, a game that never ends. Each check reports a `Diagnostic` at the
rule that caused it, so the message reads `file:line:col: ...` like any other
error in a rule file. Where a whole region fails (every battle step is
unreachable), only the node where it starts is reported.
"""

from __future__ import annotations

import networkx as nx
from kotc.dsl import Diagnostic, Ruleset

from .build import compile_ruleset
from .flow import CALL_KIND, RETURN_KIND, EdgeData, FlowGraph

__all__ = ["check_flow", "check_ruleset"]

_HUBS = frozenset({"endgame_check", "checks"})


def check_ruleset(ruleset: Ruleset) -> list[Diagnostic]:
    """Compile `ruleset` and check its flow; the hook `kotc check` calls.

    A rule file with no phases at all (only zones, or only cards) describes no
    game flow, so there is nothing to check; one phase is enough to be a game.
    """
    if not ruleset.phases:
        return []
    return check_flow(compile_ruleset(ruleset))


def check_flow(fg: FlowGraph) -> list[Diagnostic]:
    """Every flow problem of `fg`, located and sorted.

    Checks that every node is reachable from the start, that game over is
    reachable from every node, that the flow has no dead end, and that every
    chain or battle returns to the node that entered it.
    """
    problems = [Diagnostic(origin, message) for origin, message in fg.gaps]
    problems += _game_can_end(fg)
    problems += _reachable(fg)
    # What follows from an unreachable node is already said; check the rest.
    live = nx.descendants(fg.rules_graph(), fg.start) | {fg.start}
    problems += _can_finish(fg, live)
    problems += _dead_ends(fg, live)
    problems += _returns(fg, live)
    return sorted(set(problems), key=lambda d: (d.origin.file, d.origin.line,
                                                d.origin.col, d.message))


def _describe(fg: FlowGraph, node: str) -> str:
    d = fg.node(node)
    return f"{d['subflow']} node '{d['label']}'"


def _first_nodes(fg: FlowGraph, region: set[str], sources: bool) -> list[str]:
    """The nodes where a region starts (or, with `sources=False`, where it ends)."""
    sub = nx.DiGraph(fg.rules_graph().subgraph(region))
    cond = nx.condensation(sub)
    degree = cond.in_degree if sources else cond.out_degree
    order = {n: i for i, n in enumerate(fg.graph)}
    picks = []
    for comp, deg in degree():
        if deg == 0:
            members = cond.nodes[comp]["members"]
            picks.append(min(members, key=order.__getitem__))
    return sorted(picks, key=order.__getitem__)


def _game_can_end(fg: FlowGraph) -> list[Diagnostic]:
    if fg.rules_graph().in_degree(fg.game_over):
        return []
    hint = fg.node(fg.game_over).get("hint")
    return [Diagnostic(fg.origin, "the game can never end: nothing leads to game over"
                       + (f" ({hint})" if hint else ""))]


def _reachable(fg: FlowGraph) -> list[Diagnostic]:
    rules = fg.rules_graph()
    seen = nx.descendants(rules, fg.start) | {fg.start}
    lost = set(rules) - seen - {fg.game_over}
    problems = []
    for node in _first_nodes(fg, lost, sources=True) if lost else []:
        d = fg.node(node)
        after = len(nx.descendants(rules.subgraph(lost), node))
        message = (f"unreachable: {_describe(fg, node)} can never be reached "
                   "from the start")
        if d.get("hint"):
            message += f" ({d['hint']})"
        if after:
            message += f"; {after} node{'s' if after > 1 else ''} after it neither"
        problems.append(Diagnostic(d["origin"], message))
    return problems


def _can_finish(fg: FlowGraph, live: set[str]) -> list[Diagnostic]:
    rules = fg.rules_graph()
    if not rules.in_degree(fg.game_over):
        return []  # reported once by _game_can_end
    ending = nx.ancestors(rules, fg.game_over) | {fg.game_over}
    trapped = live - ending
    return [Diagnostic(fg.node(n)["origin"],
                       f"game over cannot be reached from {_describe(fg, n)}")
            for n in (_first_nodes(fg, trapped, sources=False) if trapped else [])]


def _dead_ends(fg: FlowGraph, live: set[str]) -> list[Diagnostic]:
    """Nodes play cannot leave. The endgame check is exempt: play resumes after it."""
    flow = fg.flow_graph()
    problems = []
    for node in fg.graph:
        if node == fg.game_over or node not in live or fg.node(node)["role"] in _HUBS:
            continue
        onward = [v for v in flow.successors(node) if v != node] if node in flow else []
        if onward:
            continue
        d = fg.node(node)
        message = f"dead end: the flow stops at {_describe(fg, node)}"
        if d.get("stuck"):
            message += f": {d['stuck']}"
        elif node in flow and flow.has_edge(node, node):
            message += ", which only loops back to itself"
        problems.append(Diagnostic(d["origin"], message))
    return problems


def _returns(fg: FlowGraph, live: set[str]) -> list[Diagnostic]:
    """Every call into a subflow can come back to the node it left.

    Reported at the subflow's entry, whose rules are where the way back is missing.
    """
    flow = fg.flow_graph()
    calls: dict[tuple[str, str], list[EdgeData]] = {}
    for u, v, d in fg.edges(kind=CALL_KIND):
        if u in live:
            calls.setdefault((u, v), []).append(d)
    problems = []
    for (caller, entry), edges in calls.items():
        subflow = fg.node(entry)["subflow"]
        inside = flow.subgraph(fg.nodes(subflow))
        reach = nx.descendants(inside, entry) | {entry}
        if any(flow.has_edge(r, caller) and any(
                d["kind"] == RETURN_KIND for d in flow.get_edge_data(r, caller).values())
               for r in reach):
            continue
        actions = ", ".join(sorted({a for d in edges if (a := d["action"])}))
        why = next((fg.node(n)["stuck"] for n in reach if fg.node(n).get("stuck")), None)
        message = (f"the {subflow} entered from {_describe(fg, caller)} by {actions} "
                   f"never returns there")
        if why:
            message += f" ({why})"
        problems.append(Diagnostic(fg.node(entry)["origin"], message))
    return problems
