"""Loading rule files: names and paths, the cache, pickling, `extends` resolution."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from kotc.dsl import Diagnostic, ast, cache, edition_files, load_edition, load_path
from kotc.dsl.errors import RulesetError
from textx.metamodel import TextXMetaModel

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ROOT / "editions"
ELEVENTH = EDITIONS / "11th.kotc"
SHIPPED = sorted(edition_files(EDITIONS))


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty in-memory cache and an empty disk cache in a temporary directory."""
    monkeypatch.setenv("KOTC_CACHE_DIR", str(tmp_path / "cache"))
    cache.clear_memory()
    yield tmp_path / "cache"
    cache.clear_memory()


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The files textX parses from now on (any kotc metamodel, by string or file)."""
    seen: list[str] = []
    for method in ("model_from_str", "model_from_file"):
        original = getattr(TextXMetaModel, method)

        def counting(self, *args, _original=original, _method=method, **kwargs):
            name = kwargs.get("file_name") if _method == "model_from_str" else args[0]
            seen.append(str(name))
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(TextXMetaModel, method, counting)
    return seen


def starting_hp(ruleset) -> int:
    return ruleset.setting("setup", "starting_hp").hp


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


HOUSE = '''\
edition "house" number 111 extends "11th"
setup {
  override starting_hp 30                     @ "Setup and Deck Building"
}
'''
# The same, but keeping the base's starting HP.
HOUSE_KEEPS_HP = HOUSE.replace("starting_hp 30", "deck size 50")


# --- by name, by path -------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_by_name_and_by_path_give_equal_rulesets(name):
    by_name = load_edition(name, use_cache=False)
    by_path = load_path(edition_files(EDITIONS)[name], use_cache=False)
    assert by_name is not by_path
    assert by_name == by_path
    assert by_name.name == name


# --- the cache ----------------------------------------------------------------------


def test_a_repeated_load_is_served_from_the_cache(fresh_cache, parses):
    first = load_path(ELEVENTH)
    assert parses == [str(ELEVENTH)]
    again = load_path(ELEVENTH)
    assert parses == [str(ELEVENTH)], "the second load parsed again"
    assert again == first


def test_a_warm_disk_cache_spares_parsing_in_a_fresh_memory(fresh_cache, parses):
    first = load_path(ELEVENTH)
    assert any(fresh_cache.iterdir()), "nothing was written to the disk cache"
    cache.clear_memory()
    again = load_path(ELEVENTH)
    assert len(parses) == 1
    assert again == first and again is not first


def test_loading_without_the_cache_parses_every_time(fresh_cache, parses):
    load_path(ELEVENTH, use_cache=False)
    load_path(ELEVENTH, use_cache=False)
    assert len(parses) == 2


def test_editing_a_file_invalidates_the_cache(fresh_cache, parses, tmp_path):
    copy = write(tmp_path / "11th.kotc", ELEVENTH.read_text(encoding="utf-8"))
    assert starting_hp(load_path(copy)) == 20
    text = copy.read_text(encoding="utf-8")
    assert "starting_hp 20 " in text
    copy.write_text(text.replace("starting_hp 20 ", "starting_hp 25 "), encoding="utf-8")
    assert starting_hp(load_path(copy)) == 25
    assert len(parses) == 2


def test_editing_a_base_invalidates_the_editions_that_extend_it(fresh_cache, tmp_path):
    base = write(tmp_path / "11th.kotc", ELEVENTH.read_text(encoding="utf-8"))
    house = write(tmp_path / "house.kotc", HOUSE_KEEPS_HP)
    assert starting_hp(load_path(house)) == 20
    text = base.read_text(encoding="utf-8")
    base.write_text(text.replace("starting_hp 20 ", "starting_hp 25 "), encoding="utf-8")
    assert starting_hp(load_path(house)) == 25


# --- pickling ---------------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_a_ruleset_pickles_and_unpickles_equal(name):
    ruleset = load_edition(name, use_cache=False)
    back = pickle.loads(pickle.dumps(ruleset))
    assert back == ruleset
    assert back.origin == ruleset.origin
    assert [r.origin for r in back.rules()] == [r.origin for r in ruleset.rules()]


# --- extends --------------------------------------------------------------------------


def test_a_user_edition_elsewhere_extends_a_shipped_one(tmp_path):
    house = write(tmp_path / "mine" / "house.kotc", HOUSE)
    ruleset = load_path(house, use_cache=False)
    eleventh = load_edition("11th", use_cache=False)
    assert ruleset.lineage == ("house", "11th")
    assert Path(ruleset.files[1]).resolve() == ELEVENTH.resolve()
    assert starting_hp(ruleset) == 30
    assert ruleset.zones == eleventh.zones
    assert ruleset.phases == eleventh.phases


def test_extends_resolves_beside_the_file_not_the_working_directory(tmp_path,
                                                                    monkeypatch):
    write(tmp_path / "rules" / "table.kotc", HOUSE.replace('"house"', '"table"'))
    derived = write(tmp_path / "rules" / "derived.kotc",
                    'edition "derived" number 112 extends "table"\n')
    # a decoy of the same name where the loader is run from, which must not be used
    write(tmp_path / "cwd" / "table.kotc", 'edition "table" number 1 extends "nowhere"\n')
    monkeypatch.chdir(tmp_path / "cwd")
    ruleset = load_path(Path("..") / "rules" / "derived.kotc", use_cache=False)
    assert ruleset.lineage == ("derived", "table", "11th")
    table = tmp_path / "rules" / "table.kotc"
    assert [Path(f).resolve() for f in ruleset.files] == [
        derived.resolve(), table.resolve(), ELEVENTH.resolve()]
    assert starting_hp(ruleset) == 30


def test_a_file_beside_shadows_a_shipped_edition_of_the_same_name(tmp_path):
    local = ELEVENTH.read_text(encoding="utf-8")
    write(tmp_path / "11th.kotc", local.replace("starting_hp 20 ", "starting_hp 9 "))
    house = write(tmp_path / "house.kotc", HOUSE_KEEPS_HP)
    ruleset = load_path(house, use_cache=False)
    assert Path(ruleset.files[1]).resolve() == (tmp_path / "11th.kotc").resolve()
    assert starting_hp(ruleset) == 9


def test_a_base_is_found_by_its_header_when_its_file_is_named_otherwise(tmp_path):
    write(tmp_path / "table_rules.kotc", HOUSE.replace('"house"', '"table"'))
    derived = write(tmp_path / "derived.kotc",
                    'edition "derived" number 112 extends "table"\n')
    ruleset = load_path(derived, use_cache=False)
    assert ruleset.lineage == ("derived", "table", "11th")


def test_an_unknown_edition_name_is_reported_without_a_made_up_position():
    with pytest.raises(RulesetError) as info:
        load_edition("nope")
    assert str(info.value).startswith("nope: unknown edition (known: 11th, ")


def test_a_ruleset_error_pickles_back_with_its_problems():
    # raised in a worker process, it must come back to the run whole
    problems = [Diagnostic(ast.Origin("a.kotc", 3, 4), "unknown name 'x'"),
                Diagnostic(ast.Origin("a.kotc", 1, 2), "a problem")]
    back = pickle.loads(pickle.dumps(RulesetError(problems)))
    assert back.diagnostics == RulesetError(problems).diagnostics
    assert str(back) == "a.kotc:1:2: a problem\na.kotc:3:4: unknown name 'x'"


NUMBERED = '''\
edition "numbered" number 1 game "Test"
  contents { "101 Winning and losing", "411 Zones" }

zones {
  zone deck "Deck" restricted ordered face_down starting          @ "411.2a"
  zone hand "Hand" private                                        @ "411"
  zone grave "Graveyard" public                                   @ "%s"
}
'''


@pytest.mark.parametrize("cited", ["411.4a", "411 Zones", "101.1"])
def test_a_numbered_rule_is_cited_under_its_heading(tmp_path, cited):
    path = tmp_path / "numbered.kotc"
    path.write_text(NUMBERED % cited, encoding="utf-8")
    assert load_path(path, use_cache=False).cites("numbered", cited)


@pytest.mark.parametrize("cited", ["412.1", "41.1", "4111.1", "Zones", "411.4a."])
def test_a_rule_under_no_heading_is_refused_where_it_is_cited(tmp_path, cited):
    path = tmp_path / "numbered.kotc"
    path.write_text(NUMBERED % cited, encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load_path(path, use_cache=False)
    (problem,) = err.value.diagnostics
    assert problem.origin.line == 7
    assert f"cites '{cited}', which is not a section" in problem.message


def test_the_shipped_modules_doctests():
    import doctest

    from kotc.dsl import shipped

    result = doctest.testmod(shipped)
    assert result.attempted >= 6 and result.failed == 0
