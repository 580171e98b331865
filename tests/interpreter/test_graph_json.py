"""`kotc graph EDITION --format json`: the flow graph games move through, as
networkx node-link data, every node of a game-agnostic kind and every edge
numbered."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from kotc.dsl import edition_files, load_edition
from kotc.flowgraph.build import compile_ruleset
from kotc.flowgraph.flow import NODE_KINDS, WINDOW_POLICIES

EDITIONS = sorted(edition_files())


@pytest.mark.parametrize("edition", EDITIONS)
def test_graph_json_is_the_graph_as_node_link_data(kotc, edition):
    code, out, err = kotc("graph", edition, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    fg = compile_ruleset(load_edition(edition))
    read = nx.node_link_graph(data, edges="edges")
    assert list(read.nodes) == list(fg.graph.nodes)
    assert sorted((u, v, d["id"]) for u, v, d in read.edges(data=True)) == sorted(
        (u, v, d["id"]) for u, v, d in fg.graph.edges(data=True))
    assert data["graph"]["edition"] == edition
    # edges numbered once each, as traces name them
    ids = [e["id"] for e in data["edges"]]
    assert sorted(ids) == list(range(len(ids)))
    for node in data["nodes"]:
        assert node["kind"] in NODE_KINDS, node["id"]
        if node["kind"] == "window":
            assert node["policy"] in WINDOW_POLICIES, node["id"]
    for edge in data["edges"]:
        assert edge["cite"] is None or edge["cite"]["text"].startswith(
            edge["cite"]["edition"])
        assert edge["origin"] is None or ".kotc:" in edge["origin"]
    kinds = {n["kind"] for n in data["nodes"]}
    assert {"step", "window", "return", "check", "end"} <= kinds


def test_graph_json_writes_guards_as_in_the_rules(kotc):
    _, out, _ = kotc("graph", "13th", "--format", "json")
    data = json.loads(out)
    (skip,) = [e for e in data["edges"] if e["kind"] == "skip"
               and e["source"] == "phase:draw"]
    assert skip["guard"] == "game.turn == 1 and you == game.first_player"
    assert skip["target"] == "phase:resource"
    nodes = {n["id"]: n for n in data["nodes"]}
    assert nodes["chain:resolve"]["kind"] == "stack"
    assert nodes["chain:resolve"]["resolution"] == "last_in_first_out"
    assert nodes["chain:respond"]["policy"] == "round"
    assert nodes["phase:action/actions"]["policy"] == "active"
    assert nodes["phase:action/others"]["policy"] == "others"


def test_graph_json_to_a_file(kotc, tmp_path):
    out = tmp_path / "flow.json"
    code, printed, err = kotc("graph", "12th", "--format", "json", "-o", str(out))
    assert code == 0, err
    assert printed == ""
    assert json.loads(out.read_text())["graph"]["edition"] == "12th"


@pytest.mark.parametrize("extra", [["--diff", "12th", "13th"],
                                   ["12th", "--flow", "turn"]])
def test_graph_json_is_one_whole_graph(kotc, extra):
    code, out, err = kotc("graph", *extra, "--format", "json")
    assert code == 2 and out == ""
    assert "--format json writes one edition's whole graph" in err


def test_graph_help_teaches_json(kotc):
    code, out, _ = kotc("graph", "--help")
    assert code == 0
    assert "node-link" in " ".join(out.split())
