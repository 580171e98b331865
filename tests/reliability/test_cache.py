"""The loader's cache: read once and keyed by what was parsed (issue 26, item 2),
data that cannot run code, in a private directory where the platform keeps
caches (item 3), and any unreadable entry a miss, removed and rewritten, with no
temporary file left behind (item 8)."""

from __future__ import annotations

import logging
import os
import pickle
import time
from pathlib import Path

import pytest
from kotc.dsl import cache, load_path
from kotc.dsl import load as loader
from kotc.dsl.ast import EditionFile
from kotc.dsl.cache_format import CacheFormatError, decode, encode
from kotc.dsl.ruleset import Ruleset

EDITIONS = Path(__file__).resolve().parents[2] / "editions"
HOUSE = '''\
edition "house" number 111 extends "11th"
setup {
  override starting_hp 30                     @ "Setup and Deck Building"
}
'''


def starting_hp(ruleset: Ruleset) -> int:
    return ruleset.setting("setup", "starting_hp").hp


@pytest.fixture
def store(tmp_path, monkeypatch) -> Path:
    """An empty private cache directory, and an empty memory."""
    where = tmp_path / "cache"
    monkeypatch.setenv("KOTC_CACHE_DIR", str(where))
    cache.clear_memory()
    yield where
    cache.clear_memory()


@pytest.fixture
def house(tmp_path) -> Path:
    path = tmp_path / "rules" / "house.kotc"
    path.parent.mkdir()
    path.write_text(HOUSE, encoding="utf-8")
    return path


# --- item 2: read once, key and parse the same bytes ------------------------------


def test_a_save_during_the_parse_does_not_poison_the_cache(store, house, monkeypatch):
    """An editor saves the file while it is being parsed: the next load reads the
    new text, and the old rules are not stored under its key."""
    real_parse = loader.parse

    def parse_while_saved(text, path):
        model = real_parse(text, path)
        if path == str(house.resolve()):
            house.write_text(HOUSE.replace("starting_hp 30", "starting_hp 40"),
                             encoding="utf-8")
        return model

    monkeypatch.setattr(loader, "parse", parse_while_saved)
    assert starting_hp(load_path(house)) == 30  # the text as it was read
    monkeypatch.setattr(loader, "parse", real_parse)
    cache.clear_memory()
    assert starting_hp(load_path(house)) == 40, "the cache served rules not in the file"


def test_each_rule_file_is_read_once_per_load(store, house, monkeypatch):
    reads: list[str] = []
    real = loader.read_regular

    def counting(path, limit=None):
        if limit is None:
            reads.append(Path(path).name)
        return real(path, limit)

    monkeypatch.setattr(loader, "read_regular", counting)
    load_path(house)
    assert sorted(reads) == ["11th.kotc", "house.kotc"]


# --- item 3: no code run, a private directory, the platform's place ----------------


class _Planted:
    """A pickle that makes a file when it is read."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def test_a_planted_pickle_entry_is_never_run(store, tmp_path):
    ruleset = load_path(EDITIONS / "17th.kotc")
    entries = [p for p in store.iterdir()]
    assert entries, "nothing was cached"
    marker = tmp_path / "ran"
    for entry in entries:
        entry.write_bytes(pickle.dumps(_Planted(marker)))
    cache.clear_memory()
    again = load_path(EDITIONS / "17th.kotc")
    assert not marker.exists(), "reading the cache ran code"
    assert again == ruleset
    for entry in store.iterdir():  # each was removed and written anew, readable
        kind = entry.name.partition("-")[0]
        decode(entry.read_bytes(), kind, Ruleset if kind == "ruleset" else EditionFile)


def test_the_cache_directory_is_made_private(store):
    load_path(EDITIONS / "11th.kotc")
    assert store.stat().st_mode & 0o777 == 0o700


def test_a_directory_others_may_write_is_not_used(tmp_path, monkeypatch, caplog):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("KOTC_CACHE_DIR", str(shared))
    cache.clear_memory()
    with caplog.at_level(logging.WARNING):
        load_path(EDITIONS / "11th.kotc")
    assert list(shared.iterdir()) == [], "an entry was written where others may write"
    assert f"cache directory {shared} is not used" in caplog.text
    assert "others may use it" in caplog.text


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a directory to another user needs root")
def test_a_directory_of_another_user_is_not_used(tmp_path, monkeypatch, caplog):
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 65534, 65534)
    monkeypatch.setenv("KOTC_CACHE_DIR", str(theirs))
    cache.clear_memory()
    with caplog.at_level(logging.WARNING):
        load_path(EDITIONS / "11th.kotc")
    assert list(theirs.iterdir()) == []
    assert "owned by another user" in caplog.text


def test_a_link_in_place_of_the_directory_is_not_used(tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    monkeypatch.setenv("KOTC_CACHE_DIR", str(link))
    cache.clear_memory()
    load_path(EDITIONS / "11th.kotc")
    assert list(real.iterdir()) == []


def test_the_cache_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.delenv("KOTC_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache.clear_memory()
    load_path(EDITIONS / "11th.kotc")
    assert any((tmp_path / "xdg" / "kotc").iterdir())


def test_off_keeps_the_cache_in_memory(tmp_path, monkeypatch):
    monkeypatch.setenv("KOTC_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache.clear_memory()
    load_path(EDITIONS / "11th.kotc")
    assert not (tmp_path / "xdg").exists()


# --- the format ----------------------------------------------------------------------


def test_an_entry_reads_back_as_it_was_written():
    ruleset = load_path(EDITIONS / "17th.kotc", use_cache=False)
    again = decode(encode(ruleset, "ruleset"), "ruleset", Ruleset)
    assert again == ruleset
    origins = [(r.origin, r.cite.text if r.cite else None) for r in ruleset.rules()]
    assert [(r.origin, r.cite.text if r.cite else None) for r in again.rules()] == origins


@pytest.mark.parametrize("damage", [
    lambda data: data[: len(data) // 2],                        # cut short
    lambda data: data.replace(b'"Citation"', b'"Citatio"', 1),  # checksum no longer holds
    lambda data: b"\xff\xfe" + data,                              # not UTF-8
    lambda data: data.replace(b'"format": 1', b'"format": 0'),  # another version
])
def test_a_damaged_entry_is_refused(damage):
    data = encode(load_path(EDITIONS / "11th.kotc", use_cache=False), "ruleset")
    with pytest.raises(CacheFormatError):
        decode(damage(data), "ruleset", Ruleset)


def test_an_entry_of_another_kind_or_class_is_refused():
    data = encode(load_path(EDITIONS / "11th.kotc", use_cache=False), "ruleset")
    with pytest.raises(CacheFormatError):
        decode(data, "file", Ruleset)
    with pytest.raises(CacheFormatError):
        decode(data, "ruleset", EditionFile)


def test_a_tag_that_names_no_tree_class_is_refused():
    import hashlib
    import json
    payload = json.dumps({"@": "Popen", "args": "true"}).encode()
    header = json.dumps({"format": 1, "kind": "ruleset",
                         "sha256": hashlib.sha256(payload).hexdigest()}).encode()
    with pytest.raises(CacheFormatError):
        decode(header + b"\n" + payload, "ruleset", Ruleset)


# --- item 8: an unreadable entry is a miss, removed and rewritten -----------------


@pytest.mark.parametrize("garbage", [b"", b"\x80\x81 not utf-8", b"{}\n[]",
                                     pickle.dumps({"a": 1})])
def test_a_damaged_entry_is_a_miss_and_is_rewritten(store, garbage):
    path = EDITIONS / "17th.kotc"
    first = load_path(path)
    for entry in store.iterdir():
        entry.write_bytes(garbage)
    cache.clear_memory()
    assert load_path(path) == first
    for entry in store.iterdir():
        assert entry.read_bytes() != garbage, f"{entry.name} was not rewritten"


def test_a_valid_entry_of_the_wrong_type_is_a_miss(store):
    path = EDITIONS / "11th.kotc"
    first = load_path(path)
    entries = {p.name.partition("-")[0]: p for p in store.iterdir()}
    # the file's entry, valid, where the ruleset's should be
    entries["ruleset"].write_bytes(entries["file"].read_bytes())
    cache.clear_memory()
    assert load_path(path) == first


def test_the_kotc_command_says_nothing_of_a_damaged_entry(store, kotc):
    kotc("check", "17th")
    for entry in store.iterdir():
        entry.write_bytes(b"\x89PNG damaged")
    cache.clear_memory()
    code, out, err = kotc("check", "17th")
    assert code == 0 and "internal error" not in out + err


def test_a_failed_write_leaves_no_temporary_file(store, monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache.os, "replace", refuse)
    load_path(EDITIONS / "11th.kotc")
    assert list(store.iterdir()) == []


def test_an_entry_that_cannot_be_written_leaves_no_temporary_file(store, monkeypatch):
    def too_deep(value, kind):
        raise RecursionError

    monkeypatch.setattr(cache, "encode", too_deep)
    load_path(EDITIONS / "11th.kotc")
    assert list(store.iterdir()) == []


def test_temporary_files_a_killed_write_left_are_swept(tmp_path, monkeypatch):
    where = tmp_path / "swept"
    where.mkdir(mode=0o700)
    stale, fresh = where / ".tmp-stale", where / ".tmp-fresh"
    stale.write_bytes(b"half an entry")
    fresh.write_bytes(b"a write under way")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    monkeypatch.setenv("KOTC_CACHE_DIR", str(where))
    cache.clear_memory()
    load_path(EDITIONS / "11th.kotc")
    assert not stale.exists() and fresh.exists()
