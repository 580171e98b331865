"""The flow graph of one edition: states of play and the moves between them.

`FlowGraph` wraps a `networkx.MultiDiGraph` built by `compile.compile_ruleset`.
Node ids are readable (`phase:draw`, `battle:roll`, `chain:respond`) so tests,
queries and edition diffs can name them; the DOT writer replaces them with safe
generated ids. Several actions may join the same two nodes, hence a multigraph.

Node attributes: `kind` (one of `NODE_KINDS`) and the data it reads (a window's
`policy` and `offers`...), `label`, `detail` (program lines), `role` (how it is
drawn), `subflow`, `cite`, `origin`, `rule` (the key of the rule it comes from),
`notes`, `stuck` (why the flow cannot go on from here, when the data leaves a gap).
Edge attributes: `id` (its number, by which traces name it), `kind`, `label`,
`action`, `guard`, `cite`, `origin`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypedDict

import networkx as nx
from kotc.dsl import ast
from kotc.dsl.unparse import unparse_expr

SUBFLOWS = ("setup", "turn", "battle", "chain", "endgame")

# Edges an endgame check adds everywhere; they say "the game may end here" (and
# "play resumes where it was" once the check finds the game goes on), not "play goes
# on this way", so flow checks leave them out.
ENDGAME_KINDS = frozenset({"endgame", "resume"})
# Edges a drawing leaves out: every node's way back from the check, which the arrow
# into the check ("any change of state") implies; and the battles a card's effect
# begins (`begin battle with ...`) from wherever a program runs, and back (`effect`,
# `effect_return`), which no rule of the edition's flow states.
UNDRAWN_KINDS = frozenset({"resume", "effect", "effect_return"})
# Edges the engine adds for itself, which no rule of the flow states: the way back
# from the check, the safety limits that end a game, the battles effects force.
# The checks of the rules' flow leave them out (with them, every node is
# reachable and every game can end).
ENGINE_KINDS = frozenset({"resume", "over", "effect", "effect_return"})
# Edges that enter a subflow which must come back to the node they left.
CALL_KIND = "call"
RETURN_KIND = "return"

# The game-agnostic kinds of node play moves through (docs/design/engine.md, "Node
# kinds"): a step runs a program; a window is where players may act, under its
# `policy`; a stack resolves the open links under its `resolution` policy; a return
# leaves a sub-flow for the node that entered it; a check looks for the game's end;
# an end is the game over.
NODE_KINDS = ("step", "window", "stack", "return", "check", "end")
# each drawing role's kind: roles say how a node is drawn, kinds what it does
ROLE_KIND = {
    "start": "step", "setup_step": "step", "turn_start": "step", "phase": "step",
    "program": "step", "choice": "step", "window": "window", "battle_step": "step",
    "battle_end": "return", "chain_open": "step", "chain_respond": "window",
    "chain_resolve": "stack", "chain_close": "return", "endgame_check": "check",
    "checks": "check",
    "eliminated": "step", "game_over": "end",
}
# Window policies (a window's `policy`): `active` asks the active player until they
# end the window; `others` asks each other player in turn from the active player's
# left, once around; `round` asks each player in turn from a starting seat until
# all pass in a row.
WINDOW_POLICIES = ("active", "others", "round")

# A node's attributes as the graph holds them: which keys a node has depends on its
# kind and role (the module's docstring lists them), so their values are not typed
# one by one.
NodeData = dict[str, Any]


class EdgeData(TypedDict):
    """An edge's attributes (the module's docstring says what each means)."""

    id: int
    kind: str
    label: str
    action: str | None
    guard: ast.Expr | None
    cite: ast.Citation | None
    origin: ast.Origin
    anytime: bool


@dataclass(frozen=True)
class Step:
    """One move out of a node, as `successors` reports it."""

    target: str
    label: str
    kind: str
    action: str | None
    guard: ast.Expr | None
    cite: ast.Citation | None
    origin: ast.Origin
    anytime: bool = False


class FlowGraph:
    """An edition's flow: setup, the turn, battles, the chain and the game's end.

    Args:
        graph: the multigraph; `start` and `game_over` are two of its nodes.
        edition: the edition's name, for titles.
    """

    def __init__(self, graph: nx.MultiDiGraph, edition: str, start: str,
                 game_over: str, origin: ast.Origin = ast.NOWHERE):
        self.graph = graph
        self.edition = edition
        self.start = start
        self.game_over = game_over
        self.origin = origin
        self.gaps: list[tuple[ast.Origin, str]] = []

    # --- nodes -------------------------------------------------------------------

    def __contains__(self, node: str) -> bool:
        return node in self.graph

    def node(self, node: str) -> NodeData:
        """The attributes of a node."""
        data: NodeData = self.graph.nodes[node]
        return data

    def nodes(self, subflow: str | None = None, role: str | None = None) -> list[str]:
        """Node ids in insertion order, optionally of one subflow or role."""
        return [n for n, d in self.graph.nodes(data=True)
                if (subflow is None or d["subflow"] == subflow)
                and (role is None or d["role"] == role)]

    @property
    def subflows(self) -> list[str]:
        """The subflows this edition has, in drawing order (no chain in some)."""
        present = {d["subflow"] for _, d in self.graph.nodes(data=True)}
        return [s for s in SUBFLOWS if s in present]

    def subflow(self, name: str) -> nx.MultiDiGraph:
        """A read-only view of one subflow's nodes and the edges among them."""
        return self.graph.subgraph(self.nodes(name))

    def find(self, label: str) -> str:
        """The one node whose label is `label` (`"Draw Phase"`).

        Raises:
            KeyError: when no node, or more than one, has that label.
        """
        hits: list[str] = [n for n, d in self.graph.nodes(data=True)
                           if d["label"] == label]
        if len(hits) != 1:
            raise KeyError(f"{len(hits)} nodes labelled {label!r}")
        return hits[0]

    # --- edges -------------------------------------------------------------------

    def successors(self, node: str) -> list[Step]:
        """Every move out of `node`, with its label, guard and citation."""
        return [_step(v, d) for _, v, d in self.graph.out_edges(node, data=True)]

    def predecessors(self, node: str) -> list[tuple[str, Step]]:
        """Every move into `node`, as (source, step)."""
        return [(u, _step(v, d)) for u, v, d in self.graph.in_edges(node, data=True)]

    def edges(self, kind: str | None = None, action: str | None = None
              ) -> Iterator[tuple[str, str, EdgeData]]:
        """Edges as (source, target, attributes), optionally filtered."""
        for u, v, d in self.graph.edges(data=True):
            if kind in (None, d["kind"]) and action in (None, d["action"]):
                yield u, v, d

    def flow_graph(self) -> nx.MultiDiGraph:
        """The graph without endgame-check edges: how play itself moves on."""
        keep = [(u, v, k) for u, v, k, d in self.graph.edges(keys=True, data=True)
                if d["kind"] not in ENDGAME_KINDS | ENGINE_KINDS]
        return self.graph.edge_subgraph(keep)

    def rules_graph(self) -> nx.MultiDiGraph:
        """The graph without the edges the engine adds for itself (`ENGINE_KINDS`):
        what the rules say of how play moves, all nodes kept."""
        keep = nx.MultiDiGraph(self.graph.graph)
        keep.add_nodes_from(self.graph.nodes(data=True))
        keep.add_edges_from((u, v, k, d) for u, v, k, d in
                            self.graph.edges(keys=True, data=True)
                            if d["kind"] not in ENGINE_KINDS)
        return keep

    def paths(self, source: str, target: str, cutoff: int | None = None,
              flow_only: bool = True) -> list[list[str]]:
        """Simple paths from `source` to `target` (without endgame shortcuts).

        A chain or battle returns to the node that entered it, which a simple
        path has already visited; so a path that enters a subflow never leaves
        it by a return (the shared subflow's returns to other callers would
        be false routes). A path starting inside a subflow may return.
        """
        graph = self.flow_graph() if flow_only else self.graph
        if source not in graph or target not in graph:
            return []
        found = nx.all_simple_paths(nx.DiGraph(graph), source, target, cutoff=cutoff)
        return [list(p) for p in found if self._returns_unentered(p, graph)]

    @staticmethod
    def _returns_unentered(path: list[str], graph: nx.MultiDiGraph) -> bool:
        entered = False
        for u, v in zip(path, path[1:], strict=False):
            kinds = {d["kind"] for d in graph.get_edge_data(u, v).values()}
            if RETURN_KIND in kinds and CALL_KIND not in kinds and entered:
                return False
            entered = entered or (CALL_KIND in kinds and RETURN_KIND not in kinds)
        return True

    def node_link(self) -> dict[str, Any]:
        """The graph as networkx node-link data, every value plain JSON: a
        citation as its section, interpretation, edition and text; a position in
        a rule file as `file:line:col`; a guard as written in the rules.

        Returns:
            `{"directed", "multigraph", "graph", "nodes", "edges"}`, as
            `networkx.node_link_data(..., edges="edges")` writes it (and
            `networkx.node_link_graph(..., edges="edges")` reads it back); the
            graph's own data names the edition, its start and its end.
        """
        plain = nx.MultiDiGraph(edition=self.edition, start=self.start,
                                game_over=self.game_over, node_kinds=list(NODE_KINDS),
                                window_policies=list(WINDOW_POLICIES))
        for node, data in self.graph.nodes(data=True):
            plain.add_node(node, **{k: _plain(v) for k, v in data.items()})
        for u, v, key, data in self.graph.edges(keys=True, data=True):
            plain.add_edge(u, v, key, **{k: _plain(v) for k, v in data.items()})
        link: dict[str, Any] = nx.node_link_data(plain, edges="edges")
        return link

    def phase_order(self) -> list[str]:
        """The phases' labels in turn order."""
        return [self.node(n)["label"] for n in self.nodes("turn", "phase")]

    def __repr__(self) -> str:
        return (f"<FlowGraph {self.edition}: {self.graph.number_of_nodes()} nodes, "
                f"{self.graph.number_of_edges()} edges>")


def relative(path: str) -> str:
    """A rule file's path relative to the working directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def where(origin: ast.Origin) -> str:
    """`editions/NAME.kotc:35:3`, relative where possible; only the name where there
    is no place in a file (line 0: an edition's name that names none)."""
    if origin.line == 0:
        return relative(origin.file)
    return f"{relative(origin.file)}:{origin.line}:{origin.col}"


def _plain(value: object) -> object:
    """An attribute's value as plain JSON data (see `FlowGraph.node_link`)."""
    if isinstance(value, ast.Citation):
        return {"section": value.section, "interpretation": value.interpretation,
                "edition": value.edition, "text": str(value)}
    if isinstance(value, ast.Origin):
        return None if value == ast.NOWHERE else where(value)
    if isinstance(value, ast.Expr):
        return unparse_expr(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _step(target: str, d: EdgeData) -> Step:
    return Step(target, d["label"], d["kind"], d.get("action"), d.get("guard"),
                d.get("cite"), d.get("origin", ast.NOWHERE), bool(d.get("anytime")))
