"""The drawings, asserted on their DOT text; SVGs rendered when `dot` is installed."""

from __future__ import annotations

import html
import re
import shutil

import graphviz
import pytest
from kotc.cli import main as cli
from kotc.cli.graph import write_file
from kotc.dsl import edition_files, load_edition
from kotc.flowgraph.build import compile_ruleset
from kotc.flowgraph.diff import flow_diff
from kotc.flowgraph.render import FLOWS, DotMissing, RenderError, to_dot, write_dot

EDITIONS = sorted(edition_files())
HAS_DOT = shutil.which("dot") is not None
_QUOTED = r'"((?:[^"\\]|\\.)*)"'


class Dot:
    """Just enough of a DOT reader for our writer's output: nodes, edges, clusters."""

    def __init__(self, text: str):
        self.text = text
        self.nodes: dict[str, dict[str, str]] = {}
        self.edges: list[tuple[str, str, dict[str, str]]] = []
        self.clusters = re.findall(r"^\s*subgraph (cluster_\w+) \{$", text, re.M)
        for line in text.splitlines():
            if m := re.match(r"^\s*(n\d+) -> (n\d+) \[(.*)\];$", line):
                attrs = self._attrs(m[3])
                if attrs.get("dir") == "back":  # drawn against the way it is written
                    self.edges.append((m[2], m[1], attrs))
                else:
                    self.edges.append((m[1], m[2], attrs))
            elif m := re.match(r"^\s*(n\d+) \[(.*)\];$", line):
                self.nodes[m[1]] = self._attrs(m[2])

    @staticmethod
    def _attrs(text: str) -> dict[str, str]:
        attrs = {k: v.replace("\\n", " ").replace('\\"', '"')
                 for k, v in re.findall(rf"(\w+)={_QUOTED}", text)}
        if m := re.search(r"label=<(.*)>, tooltip=", text):
            attrs["label"] = html.unescape(re.sub(r"<[^>]+>", " ", m[1]))
            attrs["title"] = html.unescape(re.sub(r"<[^>]+>", "", m[1].split("<BR/>")[0]))
        return attrs

    def id(self, title: str) -> str:
        (found,) = [n for n, a in self.nodes.items() if a.get("title") == title]
        return found

    def edge(self, tail: str, head: str) -> list[dict[str, str]]:
        t, h = self.id(tail), self.id(head)
        return [a for u, v, a in self.edges if (u, v) == (t, h)]

    def label(self, tail: str, head: str) -> str:
        (attrs,) = self.edge(tail, head)
        return attrs.get("label", "")


@pytest.fixture(scope="module")
def flows():
    return {name: compile_ruleset(load_edition(name)) for name in EDITIONS}


def dot(flows, edition: str, flow: str = "all") -> Dot:
    return Dot(to_dot(flows[edition], flow))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("flow", FLOWS)
def test_generated_ids_only(flows, edition, flow):
    """Statements use n0, n1...: ids with `:` break pydot and the graphviz package."""
    if flow not in {*flows[edition].subflows, "all"}:
        pytest.skip(f"{edition} has no {flow} flow")
    text = to_dot(flows[edition], flow)
    allowed = re.compile(r"^(digraph flow \{|\}|\s+\}|\s+(graph|node|edge) \[.*\];"
                         r"|\s+subgraph cluster_[a-z]+ \{|\s+n\d+( -> n\d+)? \[.*\];)$")
    assert all(allowed.match(line) for line in text.splitlines())
    ids = re.findall(r"^\s*(n\d+) \[", text, re.M)
    assert ids == [f"n{i}" for i in range(len(ids))]


def test_clusters_per_subflow(flows):
    assert dot(flows, "11th").clusters == ["cluster_setup", "cluster_turn",
                                           "cluster_battle", "cluster_endgame"]
    assert dot(flows, "17th").clusters == ["cluster_setup", "cluster_turn",
                                           "cluster_battle", "cluster_chain",
                                           "cluster_endgame"]
    assert dot(flows, "17th", "chain").clusters == ["cluster_chain", "cluster_endgame"]
    assert dot(flows, "17th", "setup").clusters == ["cluster_setup"]


@pytest.mark.parametrize("edition", ["13th", "17th"])
def test_draw_skip_is_a_labelled_dashed_edge(flows, edition):
    d = dot(flows, edition, "turn")
    (skip,) = d.edge("Draw Phase", "Resource Phase")
    assert skip["label"] == ("skip Draw Phase when game.turn == 1 and you == "
                             "game.first_player")
    assert skip["style"] == "dashed"
    assert "13th §Turn Order" in skip["tooltip"]
    assert d.edge("Start of turn", "Draw Phase")


def test_first_turn_exception_and_choice_are_drawn(flows):
    d = dot(flows, "12th", "turn")
    assert d.label("Resource Phase", "Resource Phase: exception") == (
        "when game.turn == 1 and you == game.first_player")
    assert d.label("Resource Phase", "Resource Phase: as usual") == "otherwise"
    # the exception's `either`: a decision its program makes, among its lines
    assert "either by you" in d.nodes[d.id("Resource Phase: exception")]["label"]
    assert "draw(you, 2 - count(placed))" in d.nodes[d.id("Resource Phase: as usual")][
        "label"]


def test_actions_merge_into_one_labelled_loop(flows):
    d = dot(flows, "11th", "turn")
    assert d.label("Resource Phase: actions", "Resource Phase: actions") == "exchange"
    # and before the placing, in the window before the phase's program
    assert d.label("Resource Phase: before", "Resource Phase: before") == "exchange"
    assert d.label("Action Phase: actions", "Action Phase: actions") == (
        "summon, cast, set_trap, activate, activate_trap")
    assert "cluster_chain" not in d.clusters
    assert not [a for a in d.nodes.values() if a.get("title") == "Chain"]


def test_turn_view_shows_other_subflows_as_stubs(flows):
    d = dot(flows, "12th", "turn")
    assert d.nodes[d.id("Chain")]["style"] == "rounded,dashed"
    assert d.label("Action Phase: actions", "Chain") == "cast, activate, activate_trap"
    assert "chain closed" in d.label("Chain", "Action Phase: actions")
    assert d.label("Battle Phase: actions", "Battle") == "battle"
    # a counter, or an ability whose activation condition is met (Abilities)
    assert d.label("Any time", "Chain") == "pop, activate, activate_trap, cast"
    box = " ".join(d.nodes[d.id("Any time")]["label"].split())
    assert box == "Any time in every phase"


def test_chain_view_keeps_its_openers_by_name(flows):
    d = dot(flows, "13th", "chain")
    assert d.label("Action Phase: actions", "Chain opens") == "cast, activate"
    assert d.label("Chain closes", "Action Phase: actions") == "chain closed"
    assert d.label("Responses", "Responses") == "activate, cast, pop"
    assert d.label("Resolve", "Resolve") == "links remain"
    # once a chain has resolved, a player who waited starts a new one
    assert d.label("Chain closes", "A new chain?") == "entered from a phase"
    assert d.label("A new chain?", "Chain opens") == "activate, cast, pop"
    assert d.label("A new chain?", "Action Phase: actions") == "all pass"
    assert d.label("Any time", "Chain opens") == "pop, activate, cast"
    assert " ".join(d.nodes[d.id("Any time")]["label"].split()) == (
        "Any time in every phase and every battle step")


def test_battle_view(flows):
    d = dot(flows, "11th", "battle")
    assert d.label("Battle Phase: actions",
                   "Declare the attacking team and target") == "battle"
    assert d.label("Battle over", "Battle Phase: actions") == "battle over"


def test_endgame_is_one_arrow_per_cluster(flows):
    d = dot(flows, "17th")
    endings = [a for _, _, a in d.edges if a.get("label") == "any change of state"]
    assert sorted(a["ltail"] for a in endings) == [
        "cluster_battle", "cluster_chain", "cluster_turn"]
    over = " ".join(a.get("label", "") for a in d.edge("Endgame check", "Game over"))
    assert "All players have zero HP" in over and "All players agree" in over
    assert "a safety limit on decisions" in over


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_arrow_from_a_cluster_never_ends_inside_it(flows, edition):
    # Graphviz cannot clip such an arrow to the cluster and warns on every render
    # (the checks before anyone is asked sit in the endgame's cluster, in wow-core)
    text = to_dot(flows[edition], "all")
    home, cluster = {}, None
    for line in text.splitlines():
        if m := re.match(r"^\s*subgraph (cluster_\w+) \{$", line):
            cluster = m[1]
        elif re.match(r"^\s{2}\}$", line):
            cluster = None
        elif m := re.match(r"^\s*(n\d+) \[", line):
            home[m[1]] = cluster
    clipped = [(u, v, a["ltail"]) for u, v, a in Dot(text).edges if "ltail" in a]
    assert clipped
    assert [(u, v, c) for u, v, c in clipped if home[v] == c] == []


def test_citations_and_positions_are_tooltips(flows):
    d = dot(flows, "13th", "turn")
    tip = d.nodes[d.id("Draw Phase")]["tooltip"]
    assert "13th §Turn Order" in tip
    assert re.search(r"editions/13th\.kotc:\d+:\d+$", tip)
    (skip,) = d.edge("Draw Phase", "Resource Phase")
    assert re.fullmatch(r"skip Draw Phase when .*: 13th §Turn Order, "
                        r"\S*editions/13th\.kotc:\d+:5", skip["tooltip"])


def test_diff_graph_styles(flows):
    old, new = flows["12th"], flows["13th"]
    d = Dot(write_dot(flow_diff(old, new), "all", "12th -> 13th"))
    added = d.nodes[d.id("Draw Phase")]
    removed = d.nodes[d.id("Battle Dice")]
    changed = d.nodes[d.id("Draw 5 cards")]
    same = d.nodes[d.id("Action Phase")]
    assert added["color"] == "#1a8f2e"
    assert removed["color"] == "#c62828" and "dashed" in removed["style"]
    assert changed["color"] == "#e08a00"
    assert "was: Draw 5 cards from your deck" in changed["label"]
    assert "color" not in same
    statuses = {a.get("color") for a in d.edge("Start of turn", "Resource Phase")}
    assert statuses == {"#c62828"}  # the old way in
    (skip,) = d.edge("Draw Phase", "Resource Phase")  # the new skip
    assert skip["color"] == "#1a8f2e"


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("flow", FLOWS)
def test_svg_for_every_edition_and_flow(flows, tmp_path, edition, flow):
    if flow == "chain" and "chain" not in flows[edition].subflows:
        pytest.skip(f"{edition} has no chain")
    out = tmp_path / f"{edition}-{flow}.svg"
    write_file(to_dot(flows[edition], flow), out)
    svg = out.read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    tooltips = re.findall(r'xlink:title="([^"]*)"', svg)
    assert tooltips and all("§" in t for t in tooltips if "kotc:" in t)
    assert any(f"{edition} §" in html.unescape(t) for t in tooltips)  # its own rules


def test_without_dot_svg_says_how_to_get_it_and_dot_still_works(flows, tmp_path,
                                                                 monkeypatch):
    def missing(*args, **kwargs):
        raise graphviz.ExecutableNotFound(["dot"])

    monkeypatch.setattr(graphviz.Source, "pipe", missing)
    with pytest.raises(DotMissing) as err:
        write_file(to_dot(flows["13th"]), tmp_path / "flow.svg")
    message = str(err.value)
    assert "\n" not in message and "apt-get install graphviz" in message
    write_file(to_dot(flows["13th"]), tmp_path / "flow.dot")
    assert (tmp_path / "flow.dot").read_text().startswith("digraph flow {")
    code = cli.main(["graph", "13th", "-o", str(tmp_path / "flow.png")])
    assert code == 2


def test_kotc_graph(capsys, tmp_path):
    assert cli.main(["graph", "13th", "--flow", "turn"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("digraph flow {") and "13th edition: turn" in out
    target = tmp_path / "diff.dot"
    assert cli.main(["graph", "--diff", "12th", "13th", "-o", str(target)]) == 0
    assert "12th -> 13th: whole game" in target.read_text()
    assert cli.main(["graph"]) == 2
    assert "give one EDITION, or --diff A B" in capsys.readouterr().err
    assert cli.main(["graph", "13th", "--flow", "upkeep"]) == 2
    assert cli.main(["graph", "no_such_edition"]) == 2
    assert "unknown edition" in capsys.readouterr().err


def test_no_chain_to_draw_in_an_edition_without_one(flows, capsys):
    with pytest.raises(ValueError, match="11th has no chain flow"):
        to_dot(flows["11th"], "chain")
    assert cli.main(["graph", "11th", "--flow", "chain"]) == 2
    assert "11th has no chain flow" in capsys.readouterr().err
    # a diff with an edition that has one draws it
    assert cli.main(["graph", "--diff", "11th", "12th", "--flow", "chain"]) == 0


@pytest.mark.parametrize("suffix", ["xyz", "gtk", "x11", "xlib", "cgimage"])
def test_kotc_graph_refuses_a_format_it_does_not_offer(capsys, tmp_path, suffix):
    # `dot` knows gtk and x11, but they open a window rather than write a file
    target = tmp_path / f"out.{suffix}"
    assert cli.main(["graph", "17th", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert f"kotc graph: -o: {target}: cannot write a .{suffix} file" in err
    assert ".svg" in err and ".png" in err and ".dot" in err
    assert list(tmp_path.iterdir()) == []


def test_kotc_graph_refuses_a_directory(capsys, tmp_path):
    target = tmp_path / "flow.svg"
    target.mkdir()
    assert cli.main(["graph", "17th", "-o", str(target)]) == 2
    assert f"kotc graph: -o: {target} is a directory" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["flow.svg"]


def test_write_file_refuses_a_format_it_does_not_offer(flows, tmp_path):
    with pytest.raises(RenderError, match=r"cannot write a \.xyz file"):
        write_file(to_dot(flows["13th"]), tmp_path / "flow.xyz")
    assert list(tmp_path.iterdir()) == []


def test_dot_failing_is_a_render_error_and_writes_nothing(flows, tmp_path, monkeypatch):
    def fails(*args, **kwargs):
        raise graphviz.CalledProcessError(1, ["dot"], stderr=b"Error: out of memory\n")

    monkeypatch.setattr(graphviz.Source, "pipe", fails)
    with pytest.raises(RenderError, match="`dot` failed: Error: out of memory"):
        write_file(to_dot(flows["13th"]), tmp_path / "flow.svg")
    assert list(tmp_path.iterdir()) == []


def _legend_rows(text: str) -> list[str]:
    (table,) = [line for line in text.splitlines() if 'tooltip="legend"' in line]
    cells = re.findall(r'<TD ALIGN="LEFT">(.*?)</TD>', table)
    return [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in cells]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("flow", FLOWS)
def test_the_legend_says_in_words_what_each_style_drawn_means(flows, edition, flow):
    if flow not in {*flows[edition].subflows, "all"}:
        pytest.skip(f"{edition} has no {flow} flow")
    text = to_dot(flows[edition], flow)
    rows = _legend_rows(text)
    d = Dot(text)
    drawn_fills = {a.get("fillcolor") for n, a in d.nodes.items() if "fillcolor" in a}
    legend_fills = set(re.findall(r'<TD BGCOLOR="(#[0-9a-f]+)"', text))
    assert drawn_fills <= legend_fills  # every node colour drawn is explained
    assert rows and len(rows) == len(set(rows))
    assert all("_" not in r for r in rows), rows  # words, not the engine's names


def test_a_diff_marks_each_action_of_a_shared_arrow(flows):
    text = write_dot(flow_diff(flows["12th"], flows["17th"]), "turn", "12th -> 17th")
    d = Dot(text)
    loops = d.edge("Action Phase: actions", "Action Phase: actions")
    assert len(loops) == 1  # one arrow, not two drawn over each other
    assert "summon" in loops[0]["label"]
    assert '<FONT COLOR="#c62828">−set_trap</FONT>' in text
    assert {"added", "removed"} <= {r for r in _legend_rows(text)}


@pytest.mark.parametrize("edition", EDITIONS)
def test_tooltips_list_each_line_once(flows, edition):
    for _, _, attrs in Dot(to_dot(flows[edition])).edges:
        lines = attrs["tooltip"].split("\\n") if "\\n" in attrs["tooltip"] else [
            attrs["tooltip"]]
        assert len(lines) == len(set(lines))
    raw = to_dot(flows[edition])
    for tip in re.findall(r'tooltip="((?:[^"\\]|\\.)*)"', raw):
        lines = tip.split("\\n")
        assert len(lines) == len(set(lines)), tip


def test_a_picture_shows_the_rules_its_arrows_cite(flows):
    skip = "skip Draw Phase when"
    plain = [line for line in to_dot(flows["13th"], "turn").splitlines() if skip in line]
    static = [line for line in to_dot(flows["13th"], "turn", static=True).splitlines()
              if skip in line]
    assert "13th §Turn Order" not in plain[0].split("tooltip=")[0]
    assert "13th §Turn Order" in static[0].split("tooltip=")[0]
    # and every node shows its own citation, picture or not
    assert "13th §Turn Order" in Dot(to_dot(flows["13th"], "turn")).nodes[
        Dot(to_dot(flows["13th"], "turn")).id("Draw Phase")]["label"]


def test_the_battle_shows_where_counters_act(flows):
    """A reactive counter's trigger naming a battle step draws it at that step,
    before or after, in the picture, its tooltip and the graph's JSON."""
    d = dot(flows, "17th", "battle")
    formation = " ".join(d.nodes[d.id("Attack Formation")]["label"].split())
    assert formation.endswith("after: Taunt Counter, Assassin Counter")
    allocation = " ".join(d.nodes[d.id("Damage Allocation")]["label"].split())
    assert allocation.endswith("before: Medic Counter")
    assert "before Defense Formation" not in d.text
    assert "after it, Taunt Counter acts: 17th §Counters" in d.text
    assert "a counter that acts before or after the step" in _legend_rows(d.text)
    (node,) = [n for n in flows["17th"].node_link()["nodes"]
               if n["id"] == "battle:damage_allocation"]
    (medic,) = node["reactions"]
    assert (medic["timing"], medic["counter"], medic["cite"]["section"]) == (
        "before", "medic", "Counters")
    # the 12th's counters react to no battle step: nothing is drawn for them
    assert "a counter that acts" not in to_dot(flows["12th"], "battle")
