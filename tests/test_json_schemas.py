"""Every command's `--format json` output holds to its JSON Schema
(`kotc.schemas`), on inputs other than those the schemas were drafted from."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from kotc.schemas import COMMANDS, schema

ROOT = Path(__file__).resolve().parents[1]
FUZZ = ROOT / "tests" / "interpreter" / "fixtures" / "fuzz"

RUNS = [
    ("editions", ("editions",)),
    ("check", ("check", "17th", "11th")),
    ("check", ("check", str(FUZZ / "counter_drains_hp_below_zero.kotc"), "nosuch.kotc")),
    ("show", ("show", "12th", "battle")),
    ("show", ("show", "17th")),
    ("show", ("show", "wow-core")),
    ("diff", ("diff", "11th", "17th")),
    ("card-check", ("card", "check", "decks/13th/cinder.kcard", "-e", "17th")),
    ("deck-check", ("deck", "check", "decks/17th/raiders.kdeck")),
    ("deck-check", ("deck", "check", "decks/13th/ironbark.kdeck", "-e", "11th")),
    ("deck-coverage", ("deck", "coverage", "13th")),
    ("simulate", ("simulate", "13th", "--games", "2", "--seed", "9")),
    ("simulate", ("simulate", "11th", "--games", "3", "--players", "3", "--swap")),
    ("test", ("test", "tests/scenarios/chain")),
    ("fuzz", ("fuzz", "12th", "--examples", "2", "--seed", "5")),
    ("fmt", ("fmt", "--check", "editions/17th.kotc")),
    ("graph", ("graph", "12th")),
    ("graph", ("graph", "11th")),
    ("graph", ("graph", "wow-core")),
    ("simulate", ("simulate", "wow-core", "--games", "2", "--seed", "3")),
    ("deck-check", ("deck", "check", "decks/wow-core/raiders.kdeck")),
]


@pytest.mark.parametrize(("name", "argv"), RUNS, ids=[" ".join(a) for _, a in RUNS])
def test_a_commands_json_holds_to_its_schema(kotc, monkeypatch, name, argv):
    monkeypatch.chdir(ROOT)
    code, out, err = kotc(*argv, "--format", "json")
    assert code in (0, 1, 2), err
    jsonschema.validate(json.loads(out), schema(name))


def test_a_report_holds_to_its_schema_alone_and_compared(kotc, tmp_path):
    runs = []
    for edition, seed in (("12th", 4), ("17th", 8)):
        out = tmp_path / f"{edition}.jsonl"
        code, _, err = kotc("simulate", edition, "--games", "3", "--seed", str(seed),
                            "--out", str(out), "--format", "json")
        assert code == 0, err
        runs.append(str(out))
    for argv in (runs[:1], runs):
        code, out, err = kotc("report", *argv, "--format", "json")
        assert code == 0, err
        jsonschema.validate(json.loads(out), schema("report"))


def test_every_event_of_a_game_holds_to_the_event_schema(kotc):
    code, out, err = kotc("play", "17th", "--seed", "11", "--players", "3",
                          "--format", "json")
    assert code == 0, err
    validator = jsonschema.Draft202012Validator(schema("event"))
    events = [json.loads(line) for line in out.splitlines()]
    for event in events:
        validator.validate(event)
    assert any(e["kind"] == "roll_off" for e in events)  # its totals: a plain object


def test_the_event_schema_refuses_a_wrapped_map():
    wrapped = {"kind": "roll_off", "data": {"map": {"totals": {"map": {"0": 3}}}},
               "cite": None}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(wrapped, schema("event"))
    nested = {"kind": "roll_off", "data": {"totals": {"map": {"0": 3}}}, "cite": None}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(nested, schema("event"))


def test_each_schema_is_a_valid_schema_and_named():
    for name in COMMANDS:
        s = schema(name)
        jsonschema.Draft202012Validator.check_schema(s)
        assert s["title"] and s["description"]
    with pytest.raises(KeyError, match="no schema 'nope'"):
        schema("nope")


def test_a_schema_refuses_output_that_drifts(kotc):
    _, out, _ = kotc("check", "17th", "--format", "json")
    report = json.loads(out)
    jsonschema.validate(report, schema("check"))
    with pytest.raises(jsonschema.ValidationError):  # a field dropped
        jsonschema.validate({k: v for k, v in report.items() if k != "errors"},
                            schema("check"))
    with pytest.raises(jsonschema.ValidationError):  # a field of the wrong type
        jsonschema.validate({**report, "errors": "none"}, schema("check"))
