"""Draw a flow graph as DOT, the way a rules designer would on a whiteboard.

One cluster per subflow; parallel edges (several actions between the same two
nodes) merge into one arrow listing them; the many "the game may end here"
edges become one arrow from each cluster to the endgame check; citations and
file positions become tooltips (SVG `<title>`), each line once; a node shows its
citation under its title, and a picture with no tooltips (PNG) each arrow's under
its label; a legend says what the styles drawn mean. Node ids are generated (`n0`,
`n1`...) because the graph's own ids contain `:`, which DOT tools mishandle.

A single subflow is drawn with its neighbours as dashed stubs: the node that
called into it by name (so "returns to the node that opened it" stays
visible), any other subflow as one box.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import graphviz
import networkx as nx
from kotc.dsl.ast import Citation

from .flow import SUBFLOWS, UNDRAWN_KINDS, FlowGraph, NodeData, where

# An edge's attributes as drawn: a flow graph's (`EdgeData`), or a diff's, which
# adds the edge's `status`.
EdgeAttrs = Mapping[str, Any]
# DOT attributes by name, as written into the DOT text
DotAttrs = dict[str, str]
# a DOT style as a legend row's key: its attributes, sorted
_StyleKey = tuple[tuple[str, str], ...]

TITLES = {"setup": "Setup", "turn": "Turn", "battle": "Battle", "chain": "Chain",
          "endgame": "End of the game"}
FLOWS = ("setup", "turn", "battle", "chain", "all")
PLAY = ("turn", "battle", "chain")

_FONT = "Helvetica"
_NODE_STYLE: dict[str, DotAttrs] = {
    "start": dict(shape="box", style="rounded,filled", fillcolor="#e8e8e8"),
    "setup_step": dict(shape="box", style="rounded,filled", fillcolor="#f4f4f4"),
    "turn_start": dict(shape="box", style="rounded,filled,bold", fillcolor="#fff2b3"),
    "phase": dict(shape="box", style="rounded,filled,bold", fillcolor="#cfe2f3"),
    "program": dict(shape="box", style="rounded,filled", fillcolor="#eaf2fa"),
    "choice": dict(shape="box", style="rounded,filled", fillcolor="#f5f9fd"),
    "window": dict(shape="box", style="rounded,filled", fillcolor="#cfe2f3"),
    "battle_step": dict(shape="box", style="rounded,filled", fillcolor="#fde3c8"),
    "battle_end": dict(shape="box", style="rounded,filled", fillcolor="#fde3c8"),
    "chain_open": dict(shape="box", style="rounded,filled", fillcolor="#e4dcf3"),
    "chain_respond": dict(shape="box", style="rounded,filled", fillcolor="#e4dcf3"),
    "chain_resolve": dict(shape="box", style="rounded,filled", fillcolor="#e4dcf3"),
    "chain_close": dict(shape="box", style="rounded,filled", fillcolor="#e4dcf3"),
    "endgame_check": dict(shape="box", style="rounded,filled", fillcolor="#f8d7d7"),
    "checks": dict(shape="box", style="rounded,filled", fillcolor="#f8d7d7"),
    "eliminated": dict(shape="box", style="rounded,filled", fillcolor="#f8d7d7"),
    "game_over": dict(shape="box", style="rounded,filled,bold", fillcolor="#f4b6b6",
                      peripheries="2"),
    "anytime": dict(shape="note", style="filled", fillcolor="#fffbe6"),
    "stub": dict(shape="box", style="rounded,dashed", color="#888888",
                 fontcolor="#555555"),
}
_EDGE_STYLE = {
    "next": {},
    "turn": dict(style="bold"),
    "guard": dict(color="#1f5fa8", fontcolor="#1f5fa8"),
    "otherwise": dict(color="#1f5fa8", fontcolor="#1f5fa8"),
    "skip": dict(style="dashed", color="#1f5fa8", fontcolor="#1f5fa8"),
    "choice": dict(color="#1f5fa8", fontcolor="#1f5fa8"),
    "action": dict(color="#555555", fontcolor="#333333"),
    "call": dict(style="bold", color="#7a3db8", fontcolor="#7a3db8"),
    "return": dict(style="dashed", color="#7a3db8", fontcolor="#7a3db8"),
    "respond": dict(color="#7a3db8", fontcolor="#7a3db8"),
    "pass": dict(color="#555555", fontcolor="#333333"),
    "resolve": dict(color="#7a3db8", fontcolor="#7a3db8"),
    "end": dict(color="#b22222", fontcolor="#b22222"),
    "lose": dict(style="dashed", color="#b22222", fontcolor="#b22222"),
    "over": dict(style="dotted", color="#b22222", fontcolor="#b22222"),
    "recheck": dict(color="#b22222", fontcolor="#b22222"),
    "checks": dict(style="dotted", color="#b22222", fontcolor="#b22222"),
    "endgame": dict(style="dotted", color="#b22222", fontcolor="#b22222"),
}
_STATUS_STYLE = {
    "added": dict(color="#1a8f2e", fontcolor="#1a8f2e", penwidth="2.5"),
    "removed": dict(color="#c62828", fontcolor="#c62828", style="dashed", penwidth="2"),
    "changed": dict(color="#e08a00", fontcolor="#b06a00", penwidth="2.5"),
}
_LIST_KINDS = {"action", "respond", "call"}  # merged labels read as a list

# What each node role, edge kind and diff mark means, in the legend's words.
_ROLE_MEANING = {
    "start": "where the game begins",
    "setup_step": "a setup step",
    "turn_start": "a turn begins",
    "phase": "a phase begins",
    "program": "a program runs",
    "choice": "one of several programs",
    "window": "players may act",
    "battle_step": "a battle step",
    "battle_end": "the battle is over",
    "chain_open": "a chain opens",
    "chain_respond": "players respond",
    "chain_resolve": "links resolve",
    "chain_close": "the chain closes",
    "endgame_check": "the endgame is checked",
    "checks": "checked before anyone is asked",
    "eliminated": "a player is out",
    "game_over": "the game is over",
    "anytime": "actions open at any time",
    "stub": "another part of the game",
}
_KIND_MEANING = {
    "next": "then",
    "turn": "the next turn",
    "guard": "when the condition holds",
    "otherwise": "when no condition holds",
    "skip": "skipped when the condition holds",
    "choice": "a player chooses",
    "action": "actions taken",
    "call": "enters a part of the game",
    "return": "back to where it was entered",
    "respond": "a response",
    "pass": "every player asked has passed",
    "resolve": "resolution",
    "end": "it ends: by a player, or by a condition",
    "lose": "a player loses",
    "over": "a safety limit ends the game",
    "recheck": "checked again",
    "checks": "checked before anyone is asked",
    "endgame": "the game may end here",
}
_MARK_MEANING = {"added": "added", "removed": "removed", "changed": "changed"}


# --- what to draw ----------------------------------------------------------------


@dataclass
class _Arrow:
    tail: str
    head: str
    kind: str
    labels: list[str] = field(default_factory=list)
    tips: list[str] = field(default_factory=list)
    status: str | None = None
    ltail: str | None = None
    # in a diff: each label's own mark (an arrow listing actions may list some added,
    # some removed, some kept)
    marks: dict[str, str | None] = field(default_factory=dict)
    cites: list[str] = field(default_factory=list)

    def add(self, label: str, tip: str, status: str | None, cite: str | None) -> None:
        """One more edge drawn by this arrow: its label, tooltip and citation, each
        listed once however many edges share it."""
        if label and label not in self.labels:
            self.labels.append(label)
            self.marks[label] = status
        elif label and self.marks.get(label) != status:
            self.marks[label] = None
        if tip not in self.tips:
            self.tips.append(tip)
        if cite and cite not in self.cites:
            self.cites.append(cite)


def _view(graph: nx.MultiDiGraph, flow: str) -> tuple[dict[str, NodeData], list[_Arrow]]:
    """The nodes to draw (real, stand-in and stub) and the merged arrows between them.

    Actions open at any time would put an arrow on every phase; they are drawn
    once, from one "any time" box.
    """
    if flow == "all":
        shown: dict[str, NodeData] = {n: d for n, d in graph.nodes(data=True)}
    else:
        subflows = {flow} | ({"endgame"} if flow in PLAY else set())
        shown = {n: d for n, d in graph.nodes(data=True) if d["subflow"] in subflows}
    nodes = dict(shown)

    def ends(u: str, v: str, d: EdgeAttrs) -> tuple[str, str]:
        """Any-time edges start (or return) at the box, when drawn at all."""
        if not d.get("anytime"):
            return u, v
        caller, other = (v, u) if d["kind"] == "return" else (u, v)
        if caller not in shown and (other == caller or other not in shown):
            return u, v  # neither end is drawn: the edge is dropped below
        box = _anytime_box(graph, caller, nodes)
        if d["kind"] == "return":
            return u, box
        return box, box if d["kind"] == "action" else v

    def stub(outside: str, opener: bool) -> str:
        od = graph.nodes[outside] if outside in graph else nodes[outside]
        if opener:
            key, label = f"stub:{outside}", od["label"]
        else:
            key, label = f"stub:{od['subflow']}", TITLES.get(od["subflow"], od["subflow"])
        nodes.setdefault(key, {"label": label, "role": "stub", "subflow": None,
                               "detail": [], "cite": od.get("cite"),
                               "origin": od.get("origin"), "status": None})
        return key

    arrows: dict[tuple[str, str, str, str | None], _Arrow] = {}
    endings: dict[str, _Arrow] = {}
    for u, v, d in graph.edges(data=True):
        if d["kind"] in UNDRAWN_KINDS:
            continue
        tail, head = ends(u, v, d)
        inside = [x in nodes and nodes[x]["role"] != "stub" for x in (tail, head)]
        if not any(inside):
            continue
        if d["kind"] == "endgame":
            # From the cluster's last node, so the check ranks below it; a node
            # removed in a diff only when the whole cluster is.
            sub = graph.nodes[u]["subflow"]
            gone = graph.nodes[u].get("status") == "removed"
            if all(inside) and (not gone or sub not in endings):
                # from the cluster as a whole, where the check is outside it
                # (Graphviz cannot clip an arrow to a cluster that holds its head)
                whole = None if graph.nodes[v]["subflow"] == sub else f"cluster_{sub}"
                endings[sub] = _Arrow(tail, head, "endgame", ["any change of state"],
                                      [_tip("an endgame condition may be met", d)],
                                      "removed" if gone else None, ltail=whole)
            continue
        opener = d["kind"] in ("call", "return")
        if not inside[0]:
            tail = stub(tail, opener and d["kind"] == "call")
        if not inside[1]:
            head = stub(head, opener and d["kind"] == "return")
        # In a diff, an arrow from the any-time box or to a stub stands for many
        # edges: one arrow, marked only when every edge it stands for has the
        # same mark (a step renamed inside the battle leaves "battle over" as is).
        # Lists of actions share one arrow whatever their marks: each label then
        # carries its own (two arrows on one self-loop would draw over each other).
        status = d.get("status")
        merged = d.get("anytime") or not all(inside) or d["kind"] in _LIST_KINDS
        key = (tail, head, d["kind"], "any" if merged else status)
        arrow = arrows.setdefault(key, _Arrow(tail, head, d["kind"], status=status))
        if arrow.status != status:
            arrow.status = None
        cite = _short(d.get("cite"))
        arrow.add(d["label"], _tip(d["label"] or d["kind"], d), status, cite)
    return nodes, list(arrows.values()) + list(endings.values())


def _anytime_box(graph: nx.MultiDiGraph, node: str, nodes: dict[str, NodeData]) -> str:
    """The one "any time" box, made on first use; it says where it stands for."""
    where = {"turn": "phase", "battle": "battle step"}
    box = nodes.setdefault("anytime", {"label": "Any time", "role": "anytime",
                                       "subflow": None, "detail": [], "cite": None,
                                       "origin": None, "status": None, "over": []})
    over = where.get(graph.nodes[node]["subflow"], graph.nodes[node]["subflow"])
    if over not in box["over"]:
        box["over"].append(over)
        box["detail"] = [f"in every {' and every '.join(box['over'])}"]
    return "anytime"


# --- DOT text --------------------------------------------------------------------


def to_dot(fg: FlowGraph, flow: str = "all", static: bool = False) -> str:
    """DOT source of `fg`, one subflow or `all`; `static` for a picture with no
    tooltips (PNG), whose arrows then show the rules they cite.

    Raises:
        ValueError: for a flow that is not one of `FLOWS`, or that the edition
            lacks (an edition without chain rules has no chain to draw).
    """
    title = f"{fg.edition} edition: {'whole game' if flow == 'all' else flow}"
    return write_dot(fg.graph, flow, title, fg.edition, static)


def write_dot(graph: nx.MultiDiGraph, flow: str, title: str,
              edition: str = "this graph", static: bool = False) -> str:
    """DOT text for a flow multigraph whose nodes may carry a diff `status`, with a
    legend of what its shapes, colours and lines mean.

    Raises:
        ValueError: as `to_dot`.
    """
    if flow not in FLOWS:
        raise ValueError(f"unknown flow {flow!r} (choose from {', '.join(FLOWS)})")
    if flow != "all" and not any(d["subflow"] == flow for _, d in graph.nodes(data=True)):
        raise ValueError(f"{edition} has no {flow} flow: its rules describe none")
    nodes, arrows = _view(graph, flow)
    ids = {n: f"n{i}" for i, n in enumerate(nodes)}
    lines = [
        "digraph flow {",
        f"  graph [{_attrs(dict(label=title, labelloc='t', fontsize='18', fontname=_FONT, compound='true', rankdir='TB', nodesep='0.35', ranksep='0.45', newrank='true'))}];",  # noqa: E501
        f"  node [{_attrs(dict(fontname=_FONT, fontsize='11', margin='0.12,0.06'))}];",
        f"  edge [{_attrs(dict(fontname=_FONT, fontsize='9', arrowsize='0.7'))}];",
    ]
    by_cluster: dict[str | None, list[str]] = {}
    for n, d in nodes.items():
        by_cluster.setdefault(d["subflow"], []).append(n)
    for sub in [*SUBFLOWS, None]:
        members = by_cluster.get(sub)
        if not members:
            continue
        indent = "  " if sub is None else "    "
        if sub is not None:
            lines.append(f"  subgraph cluster_{sub} {{")
            lines.append(f"    graph [{_attrs(_cluster_style(sub))}];")
        for n in members:
            lines.append(f"{indent}{ids[n]} [{_attrs(_node_attrs(nodes[n]))}];")
        if sub is not None:
            lines.append("  }")
    for a in arrows:
        tail, head = a.tail, a.head
        if a.kind == "return":  # written caller first, so the caller ranks above
            tail, head = head, tail
        lines.append(f"  {ids[tail]} -> {ids[head]} [{_attrs(_edge_attrs(a, static))}];")
    lines += _legend(nodes, arrows, len(ids))
    lines.append("}")
    return "\n".join(lines) + "\n"


# how an arrow's line looks, in the legend's table (which cannot draw lines)
_LINE_SAMPLE = {"dashed": "- - -▶", "dotted": "·····▶", "bold": "━━━▶"}


def _legend(nodes: dict[str, NodeData], arrows: list[_Arrow], first: int) -> list[str]:
    """One node, numbered `first`: a table saying what the drawing's node styles,
    arrow styles and diff marks mean, only those it uses."""
    roles = list(dict.fromkeys(d["role"] for d in nodes.values()))
    kinds = list(dict.fromkeys(a.kind for a in arrows))
    marks = set([d.get("status") for d in nodes.values()] + [a.status for a in arrows]
                + [m for a in arrows for m in a.marks.values()])
    # roles or kinds drawn alike share a row: the legend explains what can be seen
    node_rows: dict[_StyleKey, list[str]] = {}
    for role in roles:
        style = _NODE_STYLE.get(role, {})
        node_rows.setdefault(tuple(sorted(style.items())), []).append(
            _ROLE_MEANING.get(role, role))
    edge_rows: dict[_StyleKey, list[str]] = {}
    for kind, style in [(k, _EDGE_STYLE.get(k, {})) for k in kinds] + [
            (m, _STATUS_STYLE[m]) for m in _MARK_MEANING if m in marks]:
        meaning = _KIND_MEANING.get(kind) or _MARK_MEANING.get(kind, kind)
        edge_rows.setdefault(tuple(sorted(style.items())), []).append(meaning)
    rows = []
    for key, meanings in node_rows.items():
        fill = dict(key).get("fillcolor", "#ffffff")
        rows.append(f'<TR><TD BGCOLOR="{fill}" BORDER="1" WIDTH="40"> </TD>'
                    f'<TD ALIGN="LEFT">{_esc("; ".join(meanings))}</TD></TR>')
    if any(d.get("reactions") for d in nodes.values()):
        rows.append(f'<TR><TD><FONT COLOR="{_REACTION_COLOUR}" POINT-SIZE="8">after: X'
                    f'</FONT></TD><TD ALIGN="LEFT"><FONT COLOR="{_REACTION_COLOUR}">'
                    'a counter that acts before or after the step</FONT></TD></TR>')
    for key, meanings in edge_rows.items():
        style = dict(key)
        line = next((v for k, v in _LINE_SAMPLE.items() if k in style.get("style", "")),
                    "———▶")
        colour = style.get("color", "#000000")
        rows.append(f'<TR><TD><FONT COLOR="{colour}">{line}</FONT></TD>'
                    f'<TD ALIGN="LEFT"><FONT COLOR="{colour}">'
                    f'{_esc("; ".join(meanings))}</FONT></TD></TR>')
    table = ('<<TABLE BORDER="1" COLOR="#cccccc" CELLBORDER="0" CELLSPACING="2" '
             'CELLPADDING="2"><TR><TD COLSPAN="2"><B>Legend</B></TD></TR>'
             + "".join(rows) + "</TABLE>>")
    attrs = dict(shape="plaintext", fontsize="9", label=table, tooltip="legend")
    return [f"  n{first} [{_attrs(attrs)}];"]


def _cluster_style(sub: str) -> DotAttrs:
    return dict(label=TITLES.get(sub, sub), style="rounded", color="#aaaaaa",
                fontname=_FONT, fontsize="14", labeljust="l")


def _node_attrs(d: NodeData) -> DotAttrs:
    attrs = dict(_NODE_STYLE.get(d["role"], {}))
    attrs["label"] = _html_label(d)
    attrs["tooltip"] = _node_tip(d)
    status = d.get("status")
    if status:
        attrs.update(_STATUS_STYLE[status])
        styles = [attrs.get("style", ""), _STATUS_STYLE[status].get("style", "")]
        attrs["style"] = ",".join(x for x in styles if x)
        attrs.pop("fontcolor", None)
    return attrs


def _edge_attrs(a: _Arrow, static: bool = False) -> DotAttrs:
    attrs = dict(_EDGE_STYLE.get(a.kind, {}))
    if a.labels:
        sep = ", " if a.kind in _LIST_KINDS else "\n"
        text = sep.join(a.labels)
        attrs["label"] = "\n".join(textwrap.wrap(text, 34)) if sep == ", " else "\n".join(
            "\n".join(textwrap.wrap(x, 34)) for x in a.labels)
        if a.kind in _LIST_KINDS and any(m != a.status for m in a.marks.values()):
            attrs["label"] = _marked_list(a)
    if static and a.cites:  # no tooltips in a picture: the rules it cites, below
        cites = a.cites[:2] + (["…"] if len(a.cites) > 2 else [])
        plain = attrs.get("label", "")
        if plain.startswith("<"):
            attrs["label"] = plain[:-1] + f"<BR/>{_cite_font(cites)}>"
        else:
            body = "<BR/>".join(_esc(x) for x in plain.split("\n")) if plain else ""
            attrs["label"] = f"<{body}{'<BR/>' if body else ''}{_cite_font(cites)}>"
    attrs["tooltip"] = "\n".join(a.tips)
    if a.ltail:
        attrs["ltail"] = a.ltail
    if a.tail == a.head:
        attrs["dir"] = "forward"
    if a.kind == "recheck":
        attrs["constraint"] = "false"
    if a.kind == "return":
        attrs["dir"] = "back"
    if a.status:
        attrs.update(_STATUS_STYLE[a.status])
    return attrs


def _marked_list(a: _Arrow) -> str:
    """An HTML label listing actions, each in its own diff colour: `+` added, `−`
    removed, `~` changed, plain when kept."""
    sign = {"added": "+", "removed": "−", "changed": "~"}
    words = []
    for label in a.labels:
        mark = a.marks.get(label)
        text = _esc(f"{sign[mark]}{label}" if mark else label)
        colour = _STATUS_STYLE[mark]["fontcolor"] if mark else None
        words.append((len(label) + 1, f'<FONT COLOR="{colour}">{text}</FONT>' if colour
                      else text))
    lines: list[str] = []
    line: list[str] = []
    width = 0
    for size, word in words:  # wrapped at 34 characters, as plain labels are
        if line and width + size > 34:
            lines.append(", ".join(line) + ",")
            line, width = [], 0
        line.append(word)
        width += size + 2
    lines.append(", ".join(line))
    return "<" + "<BR/>".join(lines) + ">"


def _short(cite: object) -> str | None:
    """A citation as a drawing shows it: edition and section, and whether it is an
    interpretation (whose words are in the tooltip and in `kotc show`)."""
    if cite is None:
        return None
    if not isinstance(cite, Citation):
        return str(cite)
    text = f"{cite.edition} §{cite.section}"
    return text + " (interpretation)" if cite.interpretation else text


def _cite_font(cites: list[str]) -> str:
    return ('<FONT POINT-SIZE="8" COLOR="#666666">'
            + "<BR/>".join(_esc(c) for c in cites) + "</FONT>")


_MAX_LINES = 7
_WIDTH = 46


def _html_label(d: NodeData) -> str:
    """Title in bold, the program below in small type, wrapped and capped."""
    title = _esc(d["label"])
    was = d.get("was")
    head = "" if d["role"] == "choice" else f"<B>{title}</B>"
    if was and was.get("label") and was["label"] != d["label"]:
        head += f'<BR/><FONT POINT-SIZE="9">was: {_esc(was["label"])}</FONT>'
    cite = _short(d.get("cite"))
    if cite is not None and d["role"] not in ("stub", "anytime"):
        head += f"<BR/>{_cite_font([cite])}"
    wrapped: list[str] = []
    for line in d.get("detail", []):
        wrapped += textwrap.wrap(line, _WIDTH, subsequent_indent="  ") or [""]
    if len(wrapped) > _MAX_LINES:
        wrapped = wrapped[:_MAX_LINES - 1] + ["…"]
    acting = _reaction_lines(d)
    if not wrapped and not acting:
        return f"<{head or title}>"
    body = '<BR ALIGN="LEFT"/>'.join(_esc(x) for x in wrapped) + '<BR ALIGN="LEFT"/>'
    if acting:  # the counters acting here, in the legend's colour for them
        body += (f'<FONT COLOR="{_REACTION_COLOUR}">'
                 + "".join(f"{_esc(x)}<BR ALIGN=\"LEFT\"/>" for x in acting) + "</FONT>")
    sep = "<BR/>" if head else ""
    return f'<{head}{sep}<FONT POINT-SIZE="9">{body}</FONT>>'


_REACTION_COLOUR = "#7b2cbf"


def _reaction_lines(d: NodeData) -> list[str]:
    """`before: Medic Counter`, `after: Taunt Counter, Assassin Counter`."""
    by_timing: dict[str, list[str]] = {}
    for r in d.get("reactions", []):
        by_timing.setdefault(r["timing"], []).append(r["title"])
    return [f"{timing}: {', '.join(titles)}" for timing, titles in sorted(
        by_timing.items(), key=lambda item: item[0] != "before")]


def _node_tip(d: NodeData) -> str:
    lines = [d["label"], *d.get("detail", [])]
    for r in d.get("reactions", []):
        acts = f"{r['timing']} it, {r['title']} acts"
        lines.append(f"{acts}: {r['cite']}" if r["cite"] else acts)
    for note, cite in d.get("notes", []):
        lines.append(f"{note}: {cite}" if cite else note)
    lines.append(_where(d))
    if d.get("was"):
        lines.append(f"was: {d['was'].get('label')} ({d['was'].get('where')})")
    return "\n".join(x for x in lines if x)


def _tip(label: str, d: EdgeAttrs) -> str:
    guarded = d.get("guard") is not None and d["label"] != label
    guard = f" [{d['label']}]" if guarded else ""
    return f"{label}{guard}: {_where(d)}"


def _where(d: Mapping[str, Any]) -> str:
    """`NAME §Turn Order, editions/NAME.kotc:35:3`."""
    parts = []
    if d.get("cite") is not None:
        parts.append(str(d["cite"]))
    origin = d.get("origin")
    if origin is not None and origin.line:
        parts.append(where(origin))
    return ", ".join(parts)


def _esc(s: str) -> str:
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _attrs(attrs: Mapping[str, object]) -> str:
    return ", ".join(f"{k}={_quote(str(v))}" for k, v in attrs.items())


def _quote(v: str) -> str:
    """DOT quoting; an HTML label (`<...>`) passes through as is."""
    if v.startswith("<") and v.endswith(">"):
        return v
    escaped = v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


# --- files -----------------------------------------------------------------------


class RenderError(RuntimeError):
    """A file `kotc graph` cannot make: a format it does not write, or `dot` failing."""


class DotMissing(RenderError):
    """Graphviz's `dot` program is not installed; DOT text can still be written."""


# The formats `kotc graph --help` offers: `dot` knows many more, but some of them
# open a window (gtk, x11) or exist only on one system (cgimage) rather than make a
# file, so only these are promised.
FILE_FORMATS = ("svg", "png", "dot", "gv")


def file_format(path: Path) -> str:
    """The format a file is written in, by its suffix (none: DOT).

    Raises:
        RenderError: for a suffix that is not one of `FILE_FORMATS`.
    """
    fmt = path.suffix.lstrip(".").lower() or "dot"
    if fmt not in FILE_FORMATS:
        known = ", ".join(f".{f}" for f in FILE_FORMATS)
        raise RenderError(f"{path}: cannot write a .{fmt} file (choose {known})")
    return fmt


def render(dot: str, fmt: str, path: Path) -> bytes:
    """`dot`'s rendering of the DOT text as `fmt` (for the file at `path`, which
    messages name), its failures as `RenderError`."""
    try:
        rendered: bytes = graphviz.Source(dot).pipe(format=fmt)
        return rendered
    except graphviz.ExecutableNotFound:
        raise DotMissing(
            f"writing {path.name} needs Graphviz's `dot` program: install it "
            "(`apt-get install graphviz`, `brew install graphviz`) or write a .dot file"
        ) from None
    except graphviz.CalledProcessError as err:
        said = (err.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        why = f": {said[0]}" if said else ""
        raise RenderError(f"{path}: Graphviz's `dot` failed{why}") from None
