"""Rulesets as JSON: every edition serializes, and the data says what the rules say."""

from __future__ import annotations

import json

import pytest
from kotc.dsl import ast, edition_files, load_edition
from kotc.dsl.errors import RulesetError
from kotc.dsl.serialize import rule_to_dict, ruleset_to_dict


def loaded(name: str):
    try:
        return load_edition(name)
    except RulesetError as err:
        pytest.skip(f"edition {name} does not load:\n{err}")


@pytest.mark.parametrize("name", sorted(edition_files()))
def test_every_edition_serializes_to_json(name):
    ruleset = loaded(name)
    data = json.loads(json.dumps(ruleset_to_dict(ruleset)))
    assert data["edition"] == ruleset.name
    assert data["number"] == ruleset.number
    assert data["lineage"] == list(ruleset.lineage)
    assert list(data["sections"]) == list(ast.SECTIONS)
    rules = [r for section in data["sections"].values() for r in section]
    assert len(rules) == len(ruleset.rules())
    assert [r["key"] for r in rules] == [r.key for r in ruleset.rules()]
    for rule in rules:
        assert {"kind", "name", "key", "citation", "origin"} <= set(rule)
        assert rule["citation"]["edition"] in ruleset.lineage
        assert rule["origin"].rsplit(":", 2)[0].endswith(".kotc")


def test_fields_programs_and_citations():
    keyword = ast.Keyword(
        ident="silo", label="Silo",
        params=(ast.Param("target", "card"),),
        body=(ast.Move(ast.Path(("target",)), ast.Path(("target", "owner", "granary")),
                       ("exhausted", "face_down")),),
        cite=ast.Citation("Keywords", "", "17th"),
        origin=ast.Origin("x.kotc", 3, 5),
    )
    assert rule_to_dict(keyword) == {
        "kind": "keyword", "name": "silo", "key": "keyword silo", "type": "Keyword",
        "override": False, "label": "Silo",
        "params": [{"name": "target", "type": "card", "optional": False, "source": None}],
        "cost": False,
        "body": "move target to target.owner.granary exhausted face_down",
        "citation": {"edition": "17th", "section": "Keywords", "interpretation": None},
        "origin": "x.kotc:3:5",
    }


def test_nested_citations_ranges_and_expressions():
    phase = ast.Phase(
        ident="draw", label="Draw",
        skips=(ast.SkipWhen(ast.Path(("game", "first_turn")),
                            ast.Citation("Turn Order", "only once", "13th")),),
        cite=None,
    )
    data = rule_to_dict(phase, origin=lambda o: "here")
    assert data["skips"] == [{"cond": "game.first_turn", "citation": {
        "edition": "13th", "section": "Turn Order", "interpretation": "only once"}}]
    assert data["citation"] is None and data["origin"] == "here"
    assert rule_to_dict(ast.DeckSizeRule(ast.Range(40, None)))["size"] == {
        "lo": 40, "hi": None}


def test_section_subset():
    ruleset = loaded(sorted(edition_files())[0])
    data = ruleset_to_dict(ruleset, sections=("zones",))
    assert list(data["sections"]) == ["zones"]
    assert len(data["sections"]["zones"]) == len(ruleset.rules("zones"))
