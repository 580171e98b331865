"""What changed between two editions: rules added, removed, changed and renamed.

Rules are matched per section by key (`zone grave`, `setting hp_floor`). A rule
present on both sides changed when its content differs; citations, `override`
and file positions do not count, since every edition cites its own rulebook.
A removed and an added rule of the same kind whose content is equal but for
the name are reported as one rename (`zone graveyard` -> `zone grave`).

`flow_diff` does the same for two compiled flow graphs, node by node and edge by
edge, for `kotc graph --diff`.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypedDict

import networkx as nx
from kotc.dsl import Ruleset, ast
from kotc.dsl.serialize import CitationDict
from kotc.dsl.unparse import unparse, unparse_rule

from .flow import EdgeData, FlowGraph, NodeData, where

__all__ = ["EditionDiff", "RuleChange", "diff_rulesets", "flow_diff"]

ADDED, REMOVED, CHANGED, RENAMED = "added", "removed", "changed", "renamed"
_MARK = {ADDED: "+", REMOVED: "-", CHANGED: "~", RENAMED: ">"}
_IGNORED = frozenset({"origin", "cite", "override", "run_cite", "opens_cite"})


@dataclass
class RuleChange:
    """One rule's change; `old` is None when added, `new` None when removed."""

    section: str
    status: str
    old: ast.Rule | None
    new: ast.Rule | None
    fields: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def rule(self) -> ast.Rule:
        rule = self.new if self.new is not None else self.old
        assert rule is not None, "a change has a rule on one side at least"
        return rule

    @property
    def title(self) -> str:
        """`zone grave`, or `zone graveyard -> grave` for a rename."""
        if self.status == RENAMED:
            assert self.old is not None and self.new is not None, "a rename has both"
            return f"{self.old.key} -> {self.new.name}"
        return self.rule.key


@dataclass
class EditionDiff:
    """The differences from edition `old` to edition `new`, section by section."""

    old: str
    new: str
    header: list[tuple[str, str, str]]
    sections: dict[str, list[RuleChange]]

    def changes(self, status: str | None = None) -> list[RuleChange]:
        return [c for cs in self.sections.values() for c in cs
                if status in (None, c.status)]

    def find(self, section: str, key: str) -> RuleChange | None:
        """The change to the rule `key` (either side's key) in `section`."""
        for c in self.sections.get(section, []):
            if key in {getattr(c.old, "key", None), getattr(c.new, "key", None)}:
                return c
        return None


# --- comparing rulesets -----------------------------------------------------------


def diff_rulesets(old: Ruleset, new: Ruleset) -> EditionDiff:
    """Compare two editions rule by rule.

    Args:
        old: the edition compared from.
        new: the edition compared to.

    Returns:
        An `EditionDiff` with every section that has a change.
    """
    header = [(name, str(getattr(old, name) or ""), str(getattr(new, name) or ""))
              for name in ("number", "source", "summary")
              if getattr(old, name) != getattr(new, name)]
    sections: dict[str, list[RuleChange]] = {}
    for section in ast.SECTIONS:
        changes = _diff_section(section, old.sections.get(section, {}),
                                new.sections.get(section, {}))
        if changes:
            sections[section] = changes
    return EditionDiff(old.name, new.name, header, sections)


def _diff_section(section: str, old: dict[str, ast.Rule],
                  new: dict[str, ast.Rule]) -> list[RuleChange]:
    removed = [r for k, r in old.items() if k not in new]
    added = [r for k, r in new.items() if k not in old]
    changes = []
    for key, rule in new.items():
        if key in old and _content(old[key]) != _content(rule):
            changes.append(RuleChange(section, CHANGED, old[key], rule,
                                      _field_changes(old[key], rule)))
    for r in list(removed):
        twin = next((a for a in added if _same_but_name(r, a)), None)
        if twin is not None:
            removed.remove(r)
            added.remove(twin)
            changes.append(RuleChange(section, RENAMED, r, twin, _field_changes(r, twin)))
    changes += [RuleChange(section, REMOVED, r, None) for r in removed]
    changes += [RuleChange(section, ADDED, None, a) for a in added]
    order = {k: i for i, k in enumerate([*old, *new])}
    return sorted(changes, key=lambda c: (c.rule.kind, order.get(c.rule.key, 0)))


def _content(node: object) -> object:
    """A node with every citation and `override` flag cleared, for comparison."""
    if isinstance(node, tuple):
        return tuple(_content(x) for x in node)
    if isinstance(node, ast.Citation):
        return None
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {f.name: _content(getattr(node, f.name)) for f in dataclasses.fields(node)
               if f.name != "origin" and f.init}
    if "override" in changes:
        changes["override"] = False
    return dataclasses.replace(node, **changes)


def _same_but_name(a: ast.Rule, b: ast.Rule) -> bool:
    if type(a) is not type(b) or not isinstance(a, ast.Named) \
            or not isinstance(b, ast.Named):
        return False
    return _content(dataclasses.replace(a, ident="", label="")) == _content(
        dataclasses.replace(b, ident="", label=""))


def _field_changes(a: ast.Rule, b: ast.Rule) -> list[tuple[str, str, str]]:
    """(field, old, new) for each field that differs; the name is in the title."""
    out = []
    for f in dataclasses.fields(a):
        if f.name in _IGNORED or f.name == "ident":
            continue
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if _content(va) != _content(vb):
            out.append((f.name, _text(va), _text(vb)))
    return out


def _text(value: object) -> str:
    if value is None or value == ():
        return "(none)"
    if isinstance(value, tuple) and not all(isinstance(x, ast.Stmt) for x in value):
        return ", ".join(_text(x) for x in value)
    if isinstance(value, ast.Node | tuple):
        try:
            return unparse(value)
        except (KeyError, TypeError, ValueError):
            return str(value)
    return str(value)


def rule_text(rule: ast.Rule) -> str:
    """A rule as written, without `override` and citation."""
    return unparse_rule(rule, citation=False).removeprefix("override ")


def _cite(rule: ast.Rule | None) -> str:
    return str(rule.cite) if rule is not None and rule.cite is not None else ""


# --- output ------------------------------------------------------------------------


class SideDict(TypedDict):
    """One side of a change in `to_dict`: the rule's key, text, citation, origin."""

    key: str
    text: str
    cite: CitationDict | None
    origin: str


# `from` is a keyword, hence the functional form
FieldDict = TypedDict("FieldDict", {"field": str, "from": str, "to": str})
ChangeDict = TypedDict("ChangeDict", {
    "status": str, "kind": str, "name": str, "from": SideDict | None,
    "to": SideDict | None, "fields": list[FieldDict]})
DiffDict = TypedDict("DiffDict", {
    "from": str, "to": str, "header": list[FieldDict],
    "sections": dict[str, list[ChangeDict]]})


class Style(Protocol):
    """Colours text by style names (`"bold"`, `"green"`), as a Console's `style`."""

    def __call__(self, text: str, *styles: str) -> str: ...


def _plain_style(text: str, *styles: str) -> str:
    return text


def _plain_code(text: str) -> str:
    return text


def to_dict(diff: EditionDiff) -> DiffDict:
    """A JSON-ready form: every change with both sides' text, citation and origin."""

    def side(rule: ast.Rule | None) -> SideDict | None:
        if rule is None:
            return None
        cite = rule.cite
        return {"key": rule.key, "text": rule_text(rule),
                "cite": None if cite is None else {
                    "edition": cite.edition, "section": cite.section,
                    "interpretation": cite.interpretation or None},
                "origin": where(rule.origin)}

    return {
        "from": diff.old, "to": diff.new,
        "header": [{"field": f, "from": a, "to": b} for f, a, b in diff.header],
        "sections": {s: [{"status": c.status, "kind": c.rule.kind, "name": c.rule.name,
                          "from": side(c.old), "to": side(c.new),
                          "fields": [{"field": f, "from": a, "to": b}
                                     for f, a, b in c.fields]}
                         for c in cs]
                     for s, cs in diff.sections.items()},
    }


def to_json(diff: EditionDiff) -> str:
    return json.dumps(to_dict(diff), indent=2, ensure_ascii=False)


def _counts(changes: list[RuleChange]) -> str:
    found = [(s, sum(c.status == s for c in changes)) for s in _MARK]
    return ", ".join(f"{n} {s}" for s, n in found if n)


def _short(text: str) -> bool:
    return "\n" not in text and len(text) <= 70


def to_text(diff: EditionDiff, style: Style = _plain_style,
            code: Callable[[str], str] = _plain_code) -> str:
    """Plain or coloured text; `style(text, *names)` colours (a Console's `style`),
    `code(text)` colours a rule's text (as the language's lexer does)."""
    colour = {ADDED: "green", REMOVED: "red", CHANGED: "yellow", RENAMED: "cyan"}
    lines = [style(f"{diff.old} -> {diff.new}: {_counts(diff.changes()) or 'no changes'}",
                   "bold")]
    for name, a, b in diff.header:
        lines.append(f"  {name}: {a} -> {b}")
    for section, changes in diff.sections.items():
        lines += ["", style(f"{section} ({_counts(changes)})", "bold")]
        for c in changes:
            mark = style(f"{_MARK[c.status]} {c.status:<7}", colour[c.status])
            lines.append(f"  {mark} {c.title}")
            lines += _text_body(c, style, code)
    return "\n".join(lines) + "\n"


def _text_body(c: RuleChange, style: Style,
               code: Callable[[str], str] = _plain_code) -> list[str]:
    pad = "      "
    cites = " -> ".join(x for x in (_side_cite(c.old), _side_cite(c.new)) if x)
    body = []
    if c.status in (ADDED, REMOVED):
        text = rule_text(c.rule)
        body += [pad + line for line in code(text).splitlines()[:6]]
        if len(text.splitlines()) > 6:
            body.append(pad + "...")
    else:
        for name, a, b in c.fields:
            if _short(a) and _short(b):
                body.append(f"{pad}{name}: {a} -> {b}")
            else:
                body.append(f"{pad}{name}:")
                body += [pad + "  " + _colour_diff_line(x, style)
                         for x in _unified(a, b)]
    body.append(pad + style(cites, "dim"))
    return body


def _side_cite(rule: ast.Rule | None) -> str:
    if rule is None:
        return ""
    return f"{_cite(rule)} ({where(rule.origin)})"


def _unified(a: str, b: str) -> list[str]:
    return [x for x in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="",
                                            n=1)
            if not x.startswith(("---", "+++", "@@"))]


def _colour_diff_line(line: str, style: Style) -> str:
    if line.startswith("+"):
        return style(line, "green")
    if line.startswith("-"):
        return style(line, "red")
    return line


def to_markdown(diff: EditionDiff) -> str:
    """Markdown for a pull request or a changelog: one list per section."""
    lines = [f"# {diff.old} -> {diff.new}", "", _counts(diff.changes()) or "no changes"]
    if diff.header:
        lines.append("")
        lines += [f"- {name}: {a} -> {b}" for name, a, b in diff.header]
    for section, changes in diff.sections.items():
        lines += ["", f"## {section}", ""]
        for c in changes:
            cites = " -> ".join(x for x in (_md_cite(c.old), _md_cite(c.new)) if x)
            lines.append(f"- **{c.status}** `{c.title}` ({cites})")
            if c.status in (ADDED, REMOVED):
                text = rule_text(c.rule)
                if _short(text):
                    lines.append(f"  - `{text}`")
                continue
            for name, a, b in c.fields:
                if _short(a) and _short(b):
                    lines.append(f"  - {name}: `{a}` -> `{b}`")
                else:
                    lines += [f"  - {name}:", "", "    ```diff"]
                    lines += ["    " + x for x in _unified(a, b)] + ["    ```", ""]
    return "\n".join(lines) + "\n"


def _md_cite(rule: ast.Rule | None) -> str:
    if rule is None:
        return ""
    return f"{_cite(rule)}, `{where(rule.origin)}`"


# --- comparing flow graphs -------------------------------------------------------


def flow_diff(old: FlowGraph, new: FlowGraph) -> nx.MultiDiGraph:
    """One graph with both editions' flows; nodes and edges carry a `status`.

    `added` and `removed` mark what only one side has; `changed` marks a node
    whose label, program or cited section differs (its `was` holds the old
    label and position), or an edge whose label or guard differs.
    """
    g = nx.MultiDiGraph()
    for n, d in new.graph.nodes(data=True):
        status = None
        if n not in old:
            status = ADDED
        elif _node_face(old.node(n)) != _node_face(d):
            status = CHANGED
        g.add_node(n, **d, status=status)
        if status == CHANGED:
            was = old.node(n)
            g.nodes[n]["was"] = {"label": was["label"], "where": where(was["origin"])}
    for n, d in old.graph.nodes(data=True):
        if n not in new:
            g.add_node(n, **d, status=REMOVED)
    old_edges, new_edges = _edge_table(old), _edge_table(new)
    for key, (u, v, d) in new_edges.items():
        status = None
        if key not in old_edges:
            status = ADDED
        elif old_edges[key][2]["label"] != d["label"]:
            status = CHANGED
        g.add_edge(u, v, **{**d, "status": status})
    for key, (u, v, d) in old_edges.items():
        if key not in new_edges:
            g.add_edge(u, v, **{**d, "status": REMOVED})
    return g


def _node_face(d: NodeData) -> tuple[str, tuple[str, ...], str | None]:
    cite = d.get("cite")
    return d["label"], tuple(d["detail"]), cite.section if cite else None


# an edge's identity: its ends, kind, action (or condition), whether it is an
# anytime action's, and its number among edges alike in all that
_EdgeKey = tuple[str, str, str, str, bool, int]


def _edge_table(fg: FlowGraph) -> dict[_EdgeKey, tuple[str, str, EdgeData]]:
    """Edges by identity: ends, kind, and the action (or the condition's label)."""
    table: dict[_EdgeKey, tuple[str, str, EdgeData]] = {}
    for u, v, d in fg.edges():
        which = d["action"] or (d["label"] if d["kind"] in ("end", "lose") else "")
        n = 0
        while (u, v, d["kind"], which, d["anytime"], n) in table:
            n += 1
        table[(u, v, d["kind"], which, d["anytime"], n)] = (u, v, d)
    return table


# --- kotc diff ---------------------------------------------------------------------


