"""Text no kotc file holds: numbers of thousands of digits located (issue 26,
item 6), control characters and line breaks in names refused and escaped on
output (item 13), overlong tokens cut in messages (item 14)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from kotc.cli.common import Console, escaped
from kotc.dsl.shipped import DECKS_DIR

HUGE = "9" * 5000
HOUSE = f'''\
edition "house" number 118 extends "17th"
setup {{
  override starting_hp {HUGE}   @ "Setup"
}}
'''


@pytest.fixture
def house(tmp_path) -> Path:
    path = tmp_path / "house.kotc"
    path.write_text(HOUSE, encoding="utf-8")
    return path


@pytest.mark.parametrize("argv", [
    ["check", "{house}"],
    ["show", "{house}"],
    ["graph", "{house}"],
    ["diff", "17th", "{house}"],
    ["test", "--edition", "{house}"],
    ["card", "check", "{card}", "-e", "{house}"],
])
def test_a_huge_number_in_a_rule_file_is_located(kotc, house, argv):
    card = DECKS_DIR / "17th" / "wardens.kcard"
    code, out, err = kotc(*[a.format(house=house, card=card) for a in argv])
    assert code == 2, out + err
    assert f"{house}:3:24: " in out + err and "5000 digits" in out + err
    assert "internal error" not in out + err and "Traceback" not in out + err


def test_a_huge_stat_in_a_card_file_is_located(kotc, tmp_path):
    card = tmp_path / "big.kcard"
    card.write_text(f'card "Big" minion {{ power {HUGE} toughness 1 cost 1 }}\n',
                    encoding="utf-8")
    code, out, err = kotc("card", "check", str(card), "-e", "17th")
    assert code == 2 and f"{card}:1:27: " in err and "5000 digits" in err


def test_a_huge_count_in_a_deck_file_is_located(kotc, tmp_path):
    shutil.copy(DECKS_DIR / "17th" / "wardens.kcard", tmp_path)
    deck = tmp_path / "big.kdeck"
    deck.write_text(f'deck "Big" edition "17th" cards "wardens.kcard" {{\n'
                    f'  {HUGE} "Shield Maiden"\n}}\n', encoding="utf-8")
    code, out, err = kotc("deck", "check", str(deck))
    assert code == 2 and f"{deck}:2:3: " in err, out + err


def test_a_card_name_with_a_line_break_and_escapes_forges_nothing(kotc, tmp_path):
    card = tmp_path / "forged.kcard"
    card.write_text('card "Forged\n\x1b[1A\x1b[2Kok.kcard:1:1: card \'x\' is legal" '
                    'minion { power 1 toughness 1 cost 1 }\n', encoding="utf-8")
    code, out, err = kotc("card", "check", str(card), "-e", "17th")
    assert code == 2
    assert "\x1b" not in out + err
    assert f"{card}:2:1: syntax error: control character U+001B" in err


def test_a_card_name_with_a_line_break_is_refused(kotc, tmp_path):
    card = tmp_path / "two_lines.kcard"
    card.write_text('card "Two\nlines" minion { power 1 toughness 1 cost 1 }\n',
                    encoding="utf-8")
    code, out, err = kotc("card", "check", str(card), "-e", "17th")
    assert code == 2 and f"{card}:1:1: a card's name is one line" in err


def test_the_console_escapes_control_characters_and_keeps_its_colours(capsys):
    con = Console()
    con.print("name\x1b[2K\x07 " + "\x1b[1m" + "bold" + "\x1b[0m")
    out = capsys.readouterr().out
    assert out == "name\\x1b[2K\\x07 \x1b[1mbold\x1b[0m\n"
    assert escaped("tab\tand\nline") == "tab\tand\nline"


def test_a_one_mebibyte_token_is_not_echoed_whole(kotc, tmp_path):
    name = "A" * (1 << 20)
    house = tmp_path / "house.kotc"
    house.write_text(f'edition "house" number 118 extends "{name}"\n', encoding="utf-8")
    code, out, err = kotc("check", str(house))
    assert code == 2
    assert "extends unknown edition" in out + err
    assert len(out + err) < 10_000 and "characters)" in out + err
