"""What the rulings exercise of each edition: flow-graph nodes and edges, keywords
and counters, and what no scenario reaches.

A scenario run is traced (`TracedGame`): the engine records each edge of the
flow graph play takes (`kotc.engine.trace`). A node is exercised when play
passed it, an edge when play moved along it. Edges that merely say "the game may
end here" and "play resumes" (`endgame` and `resume` kinds, from and to every
node) are left out; the edges out of the endgame check count when a game ended
by that condition, or a player lost by it.

A keyword is exercised when its program ran, a counter when one was popped (an
inert counter, which cannot be popped, when one was placed).
"""

from __future__ import annotations

from dataclasses import dataclass

from kotc.dsl import Ruleset
from kotc.flowgraph.build import CHECK, GAME_OVER, compile_ruleset
from kotc.flowgraph.flow import ENDGAME_KINDS


@dataclass(frozen=True)
class Part:
    """One kind of thing to cover: how many there are, and those not exercised."""

    kind: str
    total: int
    missed: tuple[str, ...]

    @property
    def covered(self) -> int:
        return self.total - len(self.missed)

    def to_json(self) -> dict:
        return {"total": self.total, "covered": self.covered, "missed": list(self.missed)}


@dataclass(frozen=True)
class EditionCoverage:
    edition: str
    runs: int
    parts: tuple[Part, ...]

    def to_json(self) -> dict:
        return {"edition": self.edition, "runs": self.runs,
                **{p.kind: p.to_json() for p in self.parts}}


def edition_coverage(rs: Ruleset, records: list[dict]) -> EditionCoverage:
    """How much of `rs` the scenario runs recorded in `records` exercise."""
    fg = compile_ruleset(rs)
    graph = fg.graph
    nodes: set[str] = set()
    edges: set[tuple] = set()
    usage: dict[str, int] = {}
    placed: set[str] = set()
    ids = {d["id"]: (u, v, k) for u, v, k, d in graph.edges(keys=True, data=True)}
    for rec in records:
        nodes.update(rec["nodes"])
        edges.update(ids[e] for e in rec["edges"]
                     if graph.edges[ids[e]]["kind"] not in ENDGAME_KINDS)
        ends = {c.name: c.title for c in rs.end_conditions}
        loses = {c.name: c.title for c in rs.lose_conditions}
        for name in rec["conditions"]:
            nodes.update((CHECK, GAME_OVER))
            edges.update(_labelled(graph, CHECK, GAME_OVER, ends.get(name)))
        if rec.get("chain_lengths") and max(rec["chain_lengths"]) > 1:
            edges.update((u, v, k) for u, v, k, d in graph.edges(keys=True, data=True)
                         if u == v == "chain:resolve")
        for name in rec["eliminated"]:
            nodes.update((CHECK, "endgame:lose"))
            edges.update(_labelled(graph, CHECK, "endgame:lose", loses.get(name)))
            edges.update(graph.out_edges("endgame:lose", keys=True))
        for k, n in rec["usage"].items():
            usage[k] = usage.get(k, 0) + n
        placed |= {p for p in rec["placed"] if p}
    all_edges = [(u, v, k, d) for u, v, k, d in graph.edges(keys=True, data=True)
                 if d["kind"] not in ENDGAME_KINDS]
    missed_edges = [_edge_text(u, v, d) for u, v, k, d in all_edges
                    if (u, v, k) not in edges]
    counters = rs.counters
    missed_counters = [c.name for c in counters.values()
                       if f"counter {c.name}" not in usage
                       and not (c.counter_kind == "inert" and c.name in placed)]
    return EditionCoverage(rs.name, len(records), (
        Part("nodes", graph.number_of_nodes(),
             tuple(n for n in graph.nodes if n not in nodes)),
        Part("edges", len(all_edges), tuple(missed_edges)),
        Part("keywords", len(rs.keywords),
             tuple(k for k in rs.keywords if k not in usage)),
        Part("counters", len(counters), tuple(missed_counters)),
    ))


def _labelled(graph, u: str, v: str, label: str | None) -> set[tuple]:
    return {(u, v, k) for k, d in graph.get_edge_data(u, v, default={}).items()
            if label is not None and d["label"] == label}


def _edge_text(u: str, v: str, d: dict) -> str:
    how = d.get("action") or d.get("label") or d["kind"]
    return f"{u} -> {v} ({how})"


def coverage_report(cov: EditionCoverage) -> list[str]:
    """Readable lines: each kind's count, then what is not exercised."""
    lines = [f"Coverage of the {cov.edition} edition by {cov.runs} scenario "
             f"run{'' if cov.runs == 1 else 's'}:"]
    for part in cov.parts:
        words = {"nodes": "flow-graph nodes", "edges": "flow-graph edges"}
        lines.append(f"  {words.get(part.kind, part.kind)}: {part.covered}/{part.total}"
                     f" exercised")
        for m in part.missed:
            lines.append(f"    not exercised: {m}")
    return lines
