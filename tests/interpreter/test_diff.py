"""`kotc diff`: what changed between editions, as the rulebooks tell it."""

from __future__ import annotations

import json
import re

import pytest
from kotc.cli import main as cli
from kotc.dsl import load_edition
from kotc.flowgraph import diff
from kotc.flowgraph.diff import ADDED, CHANGED, REMOVED, RENAMED, diff_rulesets


@pytest.fixture(scope="module")
def d12_17():
    return diff_rulesets(load_edition("12th"), load_edition("17th"))


def names(diff, section: str, status: str, kind: str) -> set[str]:
    return {c.rule.name for c in diff.sections.get(section, [])
            if c.status == status and c.rule.kind == kind}


def test_reserves_and_trapfield_are_gone(d12_17):
    assert names(d12_17, "zones", REMOVED, "zone") == {"reserves", "trapfield"}
    assert names(d12_17, "setup", REMOVED, "setting") == {"reserves"}
    assert {"set_trap", "activate_trap"} <= names(d12_17, "actions", REMOVED, "action")


def test_draw_phase_added(d12_17):
    assert names(d12_17, "turn", ADDED, "phase") == {"draw"}
    change = d12_17.find("turn", "phase draw")
    assert change.new.cite.edition == "13th" and change.new.cite.section == "Turn Order"


def test_piercing_damage(d12_17):
    assert "pierce" in names(d12_17, "keywords", ADDED, "keyword")
    inflict = d12_17.find("keywords", "keyword inflict")
    assert inflict.status == CHANGED
    (body,) = [new for field, _, new in inflict.fields if field == "body"]
    assert "pierce(target, amount - before)" in body


def test_level_floor_from_1_to_0(d12_17):
    level = d12_17.find("cards", "stat level")
    assert level.status == CHANGED
    assert level.fields == [("floor", "1", "0")]
    assert (level.old.cite.edition, level.new.cite.edition) == ("12th", "13th")


def test_counters_added_changed_removed(d12_17):
    assert names(d12_17, "counters", REMOVED, "counter") == {
        "offense", "defense", "immortality"}
    assert names(d12_17, "counters", CHANGED, "counter") == {"weakness"}
    assert names(d12_17, "counters", ADDED, "counter") >= {
        "sword", "shield", "voodoo", "berzerk", "taunt", "medic", "assassin", "trap",
        "undying"}


def test_keywords_added_and_removed(d12_17):
    assert names(d12_17, "keywords", ADDED, "keyword") >= {
        "pierce", "sheathe", "clone", "craft", "embody"}
    assert names(d12_17, "keywords", REMOVED, "keyword") >= {
        "sacrifice", "batch_add", "batch_subtract", "dice_damage"}


def test_ultra_points_mulligan_pawns(d12_17):
    assert names(d12_17, "setup", ADDED, "setting") == {"ultra_points"}
    assert d12_17.find("setup", "setting ultra_points").new.cap == 10
    assert {"ultra_points_stat", "pawns"} <= names(d12_17, "cards", ADDED, "setting")
    assert "mulligan" in names(d12_17, "setup", ADDED, "step")


def test_clean_slate_edition(d12_17):
    change = d12_17.find("legality", "setting clean_slate")
    assert change.status == CHANGED
    assert ("edition", "12", "13") in change.fields


def test_renames_are_found(d12_17):
    renamed = {(c.old.key, c.new.key) for c in d12_17.changes(RENAMED)}
    assert ("zone graveyard", "zone grave") in renamed
    assert ("stat offense", "stat sp") in renamed
    grave = d12_17.find("zones", "zone grave")
    assert grave.fields == [("label", "Graveyard", "Grave")]


def test_citations_do_not_make_a_change():
    """Overriding a rule with the same content in a later edition is no change."""
    d = diff_rulesets(load_edition("13th"), load_edition("17th"))
    assert d.find("battle", "step attack_formation") is None
    assert d.find("chain", "setting respond") is None


def test_no_changes_against_itself():
    d = diff_rulesets(load_edition("13th"), load_edition("13th"))
    assert d.sections == {} and d.header == []
    assert diff.to_text(d).startswith("13th -> 13th: no changes")


def test_header_and_text(d12_17):
    assert ("number", "12", "17") in d12_17.header
    text = diff.to_text(d12_17)
    assert "\033[" not in text
    assert "  > renamed zone graveyard -> grave" in text
    assert "  - removed zone trapfield" in text
    assert "      floor: 1 -> 0" in text
    # both sides' citations and positions
    assert "12th §Resources, Exhaustion, and Recovery (" in text
    assert "-> 13th §Down-level (" in text


def test_markdown(d12_17):
    md = diff.to_markdown(d12_17)
    assert md.startswith("# 12th -> 17th\n")
    assert "## counters" in md and "## legality" in md
    assert "- **added** `phase draw` (13th §Turn Order, `" in md
    assert "  - floor: `1` -> `0`" in md


def test_json(d12_17):
    data = json.loads(json.dumps(diff.to_dict(d12_17)))
    (floor,) = [c for c in data["sections"]["cards"] if c["name"] == "level"]
    assert floor["status"] == "changed"
    assert floor["fields"] == [{"field": "floor", "from": "1", "to": "0"}]
    assert floor["from"]["cite"]["edition"] == "12th"
    assert re.search(r"(^|/)editions/13th\.kotc:\d+:3$", floor["to"]["origin"])


def test_kotc_diff(capsys):
    assert cli.main(["diff", "12th", "17th"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("12th -> 17th: ") and "\033[" not in out
    assert cli.main(["diff", "11th", "12th", "--format", "markdown"]) == 0
    assert capsys.readouterr().out.startswith("# 11th -> 12th")
    assert cli.main(["diff", "11th", "12th", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["to"] == "12th"
    assert cli.main(["diff", "11th", "no_such_edition"]) == 2
    assert "unknown edition" in capsys.readouterr().err


def test_coloured_on_a_terminal(d12_17):
    def style(text, *styles):
        return f"<{','.join(styles)}>{text}</>"

    text = diff.to_text(d12_17, style)
    assert "<red>- removed</> zone trapfield" in text
    assert "<green>+ added  </> phase draw" in text
