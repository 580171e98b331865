"""Finding the files a file names: a deck's edition beside the deck, then among
the shipped ones (issue 26, item 9); `extends` reading only regular files, and
only what the lookup needs (item 10); starter decks for the shipped editions
only, and every deck a game uses checked (item 11); `check` of what is not a
file (item 14)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from kotc.dsl import RulesetError, load_path
from kotc.dsl import load as loader
from kotc.dsl.shipped import DECKS_DIR, EDITIONS_DIR
from kotc.engine.decks import default_decks

HOUSE = '''\
edition "house" number 118 extends "17th"
setup {
  override starting_hp 40                       @ "Setup"
}
'''


def _deck_in(folder: Path, edition: str) -> Path:
    """The Wardens starter deck copied into `folder`, naming `edition`."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(DECKS_DIR / "17th" / "wardens.kcard", folder)
    text = (DECKS_DIR / "17th" / "wardens.kdeck").read_text(encoding="utf-8")
    deck = folder / "wardens.kdeck"
    deck.write_text(text.replace('edition "17th"', f'edition "{edition}"'),
                    encoding="utf-8")
    return deck


# --- item 9 ------------------------------------------------------------------------


def test_a_decks_edition_is_found_beside_the_deck_from_anywhere(tmp_path, kotc,
                                                                 monkeypatch):
    deck = _deck_in(tmp_path / "table", "house.kotc")
    (tmp_path / "table" / "house.kotc").write_text(HOUSE, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = kotc("deck", "check", str(deck))
    assert code == 0, out + err
    assert "under the house edition: legal" in out


def test_a_decks_edition_by_name_is_found_beside_the_deck(tmp_path, kotc, monkeypatch):
    deck = _deck_in(tmp_path / "table", "house")
    (tmp_path / "table" / "house.kotc").write_text(HOUSE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = kotc("deck", "check", str(deck))
    assert code == 0 and "house edition" in out, out + err


def test_a_decks_edition_falls_back_to_the_shipped_ones(tmp_path, kotc):
    deck = _deck_in(tmp_path / "table", "17th")
    code, out, err = kotc("deck", "check", str(deck))
    assert code == 0 and "17th edition" in out, out + err


def test_a_path_shaped_edition_name_reads_nothing(tmp_path, kotc, monkeypatch):
    secret = tmp_path / "secret"
    secret.write_text("edition \"x\" nonsense", encoding="utf-8")
    deck = _deck_in(tmp_path / "a" / "b", "../../secret")
    monkeypatch.chdir(tmp_path / "a" / "b")
    code, out, err = kotc("deck", "check", str(deck))
    assert code == 2
    assert "unknown edition '../../secret'" in err
    assert "nonsense" not in err and "secret:1" not in err


# --- item 10 -----------------------------------------------------------------------


def test_a_fifo_beside_the_file_does_not_hang_check(tmp_path):
    house = tmp_path / "house.kotc"
    house.write_text(HOUSE, encoding="utf-8")
    os.mkfifo(tmp_path / "a_fifo.kotc")
    run = subprocess.run([sys.executable, "-m", "kotc", "check", str(house)],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "KOTC_CACHE_DIR": "off"})
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_directory_named_like_a_rule_file_does_not_fail_a_valid_file(tmp_path, kotc):
    (tmp_path / "17th.kotc").mkdir()
    (tmp_path / "x.kotc").mkdir()
    house = tmp_path / "house.kotc"
    house.write_text(HOUSE, encoding="utf-8")
    code, out, err = kotc("check", str(house))
    assert code == 0, out + err
    code, out, err = kotc("check", str(tmp_path))
    assert code == 0, out + err


def test_extends_reads_only_what_the_lookup_needs(tmp_path, monkeypatch):
    for i in range(40):  # a folder of house files
        (tmp_path / f"other{i}.kotc").write_text(HOUSE.replace('"house"', f'"h{i}"'),
                                                 encoding="utf-8")
    house = tmp_path / "house.kotc"
    house.write_text(HOUSE, encoding="utf-8")
    reads: list[tuple[str, int | None]] = []
    real = loader.read_regular

    def counting(path, limit=None):
        reads.append((Path(path).name, limit))
        return real(path, limit)

    monkeypatch.setattr(loader, "read_regular", counting)
    load_path(house, use_cache=False)
    whole = sorted(name for name, limit in reads if limit is None)
    assert whole == ["11th.kotc", "12th.kotc", "13th.kotc", "17th.kotc", "house.kotc"]
    assert all(limit is not None and limit <= 16384 for name, limit in reads
               if name.startswith("other")), "a sibling was read whole"


# --- item 11 -----------------------------------------------------------------------


def test_a_house_edition_calling_itself_17th_gets_no_17th_starter_decks(tmp_path):
    house = tmp_path / "17th.kotc"
    house.write_text('edition "17th" number 99 extends "13th"\n', encoding="utf-8")
    rs = load_path(house, use_cache=False)
    _decks, names = default_decks(rs)
    shipped = sorted(p.stem for p in (DECKS_DIR / "13th").glob("*.kdeck"))
    assert sorted(names) == shipped  # the 13th's, by its file, not the 17th's by name


def test_an_edition_made_from_no_shipped_file_plays_a_vanilla_deck(tmp_path):
    text = (EDITIONS_DIR / "11th.kotc").read_text(encoding="utf-8")
    house = tmp_path / "11th.kotc"  # a copy: the same name, not the shipped file
    house.write_text(text, encoding="utf-8")
    _decks, names = default_decks(load_path(house, use_cache=False))
    assert names == ["vanilla"]


def test_starter_decks_are_checked_under_the_edited_rules(tmp_path, kotc):
    house = tmp_path / "house.kotc"
    house.write_text(HOUSE.replace("override starting_hp 40",
                                   "override deck size 50"), encoding="utf-8")
    code, out, err = kotc("play", str(house), "--max-turns", "2")
    assert code == 2
    assert "is not legal under the house edition" in err and "Traceback" not in err


def test_an_edition_name_is_never_a_path_to_decks():
    from kotc.dsl.shipped import starter_deck_files
    assert starter_deck_files("../decks/17th") == []
    assert starter_deck_files("x" * 5000) == []


# --- item 14: check of what is not a file --------------------------------------------


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null")
def test_check_dev_null_says_what_it_is(kotc):
    code, out, err = kotc("check", "/dev/null")
    assert code == 2
    assert "/dev/null:1:1: a character device, not a rule file" in out + err
    assert "no such file" not in out + err


def test_check_a_fifo_says_what_it_is_without_waiting(tmp_path, kotc):
    os.mkfifo(tmp_path / "pipe.kotc")
    code, out, err = kotc("check", str(tmp_path / "pipe.kotc"))
    assert code == 2 and "a FIFO, not a rule file" in out + err


def test_loading_a_fifo_is_a_located_error(tmp_path):
    os.mkfifo(tmp_path / "pipe.kotc")
    with pytest.raises(RulesetError, match="pipe.kotc:1:1: cannot read: a FIFO"):
        load_path(tmp_path / "pipe.kotc")
