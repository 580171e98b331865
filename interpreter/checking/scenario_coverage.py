"""What the rulings exercise of each edition: flow-graph nodes and edges, keywords
and counters, and what no scenario reaches.

A scenario run records the flow-graph nodes play passed (`TracedGame`), the
opened action that led to each move, whether a phase was skipped or which of its
variants ran, and the branch taken at each `either` of a phase's program. Those
records are laid over the edition's compiled flow graph: a node is exercised
when play passed it, an edge when play moved along it (an action edge only by
that action). Edges that merely say "the game may end here" (`endgame` kind,
from every node) are left out; the edges out of the endgame check count when a
game ended by that condition, or a player lost by it.

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
    for rec in records:
        walk = _expand(graph, rec["trace"])
        nodes.update(n for n, _ in walk)
        for (u, _), (v, act) in zip(walk, walk[1:], strict=False):
            for key, d in graph.get_edge_data(u, v, default={}).items():
                if d["kind"] not in ENDGAME_KINDS and d.get("action") == act:
                    edges.add((u, v, key))
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


def _moves(graph, u: str, v: str, act: str) -> bool:
    return any(d.get("action") == act
               for d in graph.get_edge_data(u, v, default={}).values())


def _labelled(graph, u: str, v: str, label: str | None) -> set[tuple]:
    return {(u, v, k) for k, d in graph.get_edge_data(u, v, default={}).items()
            if label is not None and d["label"] == label}


def _edge_text(u: str, v: str, d: dict) -> str:
    how = d.get("action") or d.get("label") or d["kind"]
    return f"{u} -> {v} ({how})"


def _expand(graph, trace: list[tuple]) -> list[tuple[str, str | None]]:
    """The graph nodes a run passed, in order, each with the action that led there.

    The engine names phases, battle steps and chain states; a phase's program
    nodes (its variants, the options of an `either`, its window) are placed from
    the notes the trace keeps.
    """
    walk: list[tuple[str, str | None]] = []
    carried: str | None = None
    program: dict[str, str] = {}  # phase node -> the program node that ran
    ends: dict[str, str] = {}  # phase node -> where its program ended
    if trace and trace[0][0] == "start" and not (len(trace) > 1
                                                 and trace[1][0].startswith("setup:")):
        trace = trace[1:]

    anchor: list[str] = []  # a phase acting through its actions open at any time

    def emit(node: str, act: str | None) -> None:
        if node not in graph:
            return
        if walk and walk[-1][0] == node and act is None:
            return
        if act is not None and anchor and walk and not _moves(graph, walk[-1][0], node,
                                                               act):
            walk.append((anchor[0], None))
        anchor.clear()
        walk.append((node, act))

    for node, act, note in trace:
        act = act or carried
        carried = None
        if note == "skip":
            carried = act
            continue
        if node == GAME_OVER and act is not None and walk:
            # An action that ends the game: its own move first, then the end.
            here = walk[-1][0]
            if any(d.get("action") == act
                   for d in graph.get_edge_data(here, here, default={}).values()):
                walk.append((here, act))
            emit(node, None)
            continue
        if node.startswith("phase:"):
            if note == "window":
                window = f"{node}/actions"
                if window in graph:
                    emit(window, act)
                elif act is not None or not walk or walk[-1][0] != ends.get(node):
                    emit(node, act)
                else:
                    # Actions open at any time give a phase with no window of its
                    # own a place to act: from the phase itself, if one is taken.
                    anchor[:] = [node]
                continue
            if note is not None and note.startswith("or"):
                base = program.get(node, node)
                emit(f"{base}/{note}", None)
                emit(f"{base}/then", None)
                ends[node] = walk[-1][0] if walk else node
                continue
            emit(node, act)
            variant = f"{node}/{note}"
            if note in ("run",) or (note or "").startswith("when"):
                if variant in graph:
                    emit(variant, None)
                    program[node] = variant
                else:
                    program[node] = node
                ends[node] = program[node]
            continue
        emit(node, act)
    return walk


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
