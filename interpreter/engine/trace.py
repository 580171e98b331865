"""Traces: the nodes and edges of the flow graph a game moves through.

A traced game (`Game.new(..., trace=True)`) records each decision at the node
where it is asked, and each transition as the edge of the flow graph it takes,
named by the edge's `id` (`kotc graph EDITION --format json` numbers them). The
edges come from `FlowTables`, compiled once per engine from the edition's graph:
a move the graph has no edge for is recorded with `edge=None`, which the tests
and the fuzzer's invariant "every transition taken is an edge of the graph" refuse.

A window whose policy asks nobody (no player has anything to take there) is
passed, not skipped: a move past it records the edges through it, found in the
tables as the one shortest way by edges that no action and no rule's guard labels
(`FlowTables.route`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from kotc.flowgraph.flow import FlowGraph

# edges a move may pass on its own: what no action takes, and what is not the
# endgame check's (the check is entered where it found something, by its edges)
_PASSABLE = frozenset({"next", "pass", "turn", "otherwise", "return"})


@dataclass(frozen=True, slots=True)
class Edge:
    """One edge of the flow graph, as the tables hold it."""

    id: int
    source: str
    target: str
    kind: str
    action: str | None
    label: str
    cite: str | None = None  # the rule the edge cites, as events cite theirs


@dataclass(frozen=True, slots=True)
class Transition:
    """A move from one node to another along an edge (`edge` None: the graph
    has no edge for it, which is a fault)."""

    edge: int | None
    source: str
    target: str
    kind: str
    action: str | None = None
    at_event: int = 0  # how many events the game had logged as it moved
    cite: str | None = None

    def to_json(self) -> dict[str, Any]:
        """As a line of `kotc play --format json`: an event-shaped record, citing
        the rule its edge cites."""
        return {"kind": "transition", "data": {
            "edge": self.edge, "from": self.source, "to": self.target,
            "by": self.kind, "action": self.action}, "cite": self.cite}


@dataclass(frozen=True, slots=True)
class DecisionAt:
    """A decision asked at a node: who decided, and the action taken."""

    node: str
    player: int
    taken: str
    at_event: int = 0  # how many events the game had logged, its `decided` last


Record = Transition | DecisionAt


class FlowTables:
    """An edition's flow graph as tables: each node's edges out, numbered.

    Args:
        fg: the edition's compiled flow graph.
    """

    def __init__(self, fg: FlowGraph):
        self.nodes = frozenset(fg.graph.nodes)
        self.out: dict[str, list[Edge]] = {n: [] for n in fg.graph.nodes}
        for u, v, d in fg.graph.edges(data=True):
            cite = d.get("cite")
            self.out[u].append(Edge(d["id"], u, v, d["kind"], d.get("action"),
                                    d.get("label", ""),
                                    str(cite) if cite is not None else None))
        self._routes: dict[tuple[str, str, str | None], tuple[Edge, ...] | None] = {}

    def action_edge(self, source: str, action: str) -> Edge | None:
        """The edge by which `action`, taken at `source`, leaves it (a loop, a
        call into a sub-flow, the game's end), if the graph has one."""
        for e in self.out.get(source, ()):
            if e.action == action:
                return e
        return None

    def route(self, source: str, target: str, kind: str | None = None
              ) -> tuple[Edge, ...] | None:
        """The edges from `source` to `target`: the one edge between them (of
        `kind`, when given), or else the shortest way through nodes passed on
        their own (`_PASSABLE` edges); None when the graph has neither."""
        key = (source, target, kind)
        if key in self._routes:
            return self._routes[key]
        direct = [e for e in self.out.get(source, ()) if e.target == target
                  and e.action is None and kind in (None, e.kind)]
        found: tuple[Edge, ...] | None = (direct[0],) if direct else None
        if found is None and kind is None:
            found = self._shortest(source, target)
        self._routes[key] = found
        return found

    def _shortest(self, source: str, target: str) -> tuple[Edge, ...] | None:
        seen = {source}
        queue: deque[tuple[str, tuple[Edge, ...]]] = deque([(source, ())])
        while queue:
            node, path = queue.popleft()
            for e in self.out.get(node, ()):
                if e.action is not None or e.kind not in _PASSABLE or e.target in seen:
                    continue
                if e.target == target:
                    return (*path, e)
                seen.add(e.target)
                queue.append((e.target, (*path, e)))
        return None


class Trace:
    """What a traced game records, in order; and where in the graph it stands.

    Args:
        tables: the edition's flow tables.
        at: the node play starts from.
    """

    def __init__(self, tables: FlowTables, events: list[Any], at: str = "start"):
        self.tables = tables
        self.events = events  # the game's log, which records are placed in
        self.records: list[Record] = []
        self.faults: list[Transition] = []  # the moves no edge of the graph makes
        self.at = at
        # an action taken, whose edge is the next move
        self.acting: str | None = None

    def move(self, target: str, kind: str | None = None) -> None:
        """Play moves on to `target` (of an edge of `kind`, when given); a move to
        where play already stands is none, but for a loop of `kind`."""
        source = self.at
        if target == source and kind is None:
            return
        acting, self.acting = self.acting, None
        if acting is not None:
            e = self.tables.action_edge(source, acting)
            if e is not None and e.target == target:
                self._take((e,))
                return
        route = self.tables.route(source, target, kind)
        if route is None:
            fault = Transition(None, source, target, kind or "unknown", acting,
                               len(self.events))
            self.records.append(fault)
            self.faults.append(fault)
            self.at = target
            return
        self._take(route)

    def act(self, action: str) -> None:
        """An action taken where play stands: its loop, recorded now, or the edge
        it leaves by (into a sub-flow, to the game's end), recorded as play moves
        there."""
        e = self.tables.action_edge(self.at, action)
        if e is not None and e.target == e.source:
            self._take((e,))
            self.acting = None
        else:
            self.acting = action

    def ends_by_action(self, target: str) -> bool:
        """Whether the action taken last leaves where play stands for `target`."""
        if self.acting is None:
            return False
        e = self.tables.action_edge(self.at, self.acting)
        return e is not None and e.target == target

    def decided(self, player: int, taken: str) -> None:
        """A decision answered where play stands (an action taken before it may
        still be under way: its edge is the next move)."""
        self.records.append(DecisionAt(self.at, player, taken, len(self.events)))

    def _take(self, edges: tuple[Edge, ...]) -> None:
        n = len(self.events)
        for e in edges:
            self.records.append(Transition(e.id, e.source, e.target, e.kind, e.action,
                                           n, e.cite))
        self.at = edges[-1].target

    def transitions(self) -> list[Transition]:
        """The transitions recorded, in order."""
        return [r for r in self.records if isinstance(r, Transition)]

    def place(self, node: str) -> None:
        """Play stands at `node` without having moved there: a position built
        by hand starts there."""
        self.at = node
        self.acting = None

    def log_lines(self) -> list[dict[str, Any]]:
        """The game's log as `kotc play --format json` writes it: each event as
        plain JSON, a `decide` one with the node where it was asked (`node`),
        and each transition, where it happened among them, as a `transition`
        record: the edge's id, its ends, its kind (`by`) and the action."""
        moves: dict[int, list[Transition]] = {}
        nodes: dict[int, str] = {}
        for r in self.records:
            if isinstance(r, Transition):
                moves.setdefault(r.at_event, []).append(r)
            else:
                nodes[r.at_event - 1] = r.node
        lines: list[dict[str, Any]] = []
        for i, event in enumerate(self.events):
            lines += [t.to_json() for t in moves.get(i, ())]
            line: dict[str, Any] = event.plain_json()
            if i in nodes:
                line["data"]["node"] = nodes[i]
            lines.append(line)
        lines += [t.to_json() for t in moves.get(len(self.events), ())]
        return lines


__all__ = ["DecisionAt", "Edge", "FlowTables", "Trace", "Transition"]
