"""The 11th's named counters whose effect the card that placed them states (Ability
Clarifications/Rulings: "Offense counter", "defense counter", etc): read from the
card, a counter kind of the card's own, played and saved as the edition's are."""

from __future__ import annotations

from kotc import Game
from kotc.dsl import load_edition
from kotc.dsl.cards import load_cards
from kotc.dsl.reading import read_card, stated_counters, with_stated_counters

CARDS = """\
card "Fire Imp" creature { edition 11  cost 1  offense 1  defense 3
  ability "KINDLE" { Target this card. Place 2 fire counters on each target.
    Each fire counter may be removed to inflict 2 damage to each opponent. } }
card "Ash Gift" spell { edition 11  cost 1
  ability { Target up to 1 creatures in play. Place 1 ash counter on each target. } }
card "Smoke Gift" spell { edition 11  cost 1
  ability { Each smoke counter may be removed to summon a dragon. } }
"""


def cards(tmp_path):
    path = tmp_path / "named.kcard"
    path.write_text(CARDS, encoding="utf-8")
    return {c.name: c for c in load_cards(path)}


def test_a_card_states_its_named_counters_effect(tmp_path):
    rs = load_edition("11th")
    [kindle], problems = read_card(cards(tmp_path)["Fire Imp"], rs)
    assert problems == []
    [stated] = kindle.stated
    assert (stated.kind, stated.label) == ("fire_of_fire_imp", "fire counter")
    assert stated.effect.phrase.name == "inflict_opponents"
    assert stated.effect.numbers == {"x": 2}
    # the statement is no effect of the ability: it places the counters, no more
    [sub] = kindle.subs
    assert [(e.phrase.name, e.counter) for e in sub.effects] == [
        ("place_counters", "fire_of_fire_imp")]
    # the kind is popped as the edition's named counters are
    rule = stated.rule()
    assert rule.counter_kind == "proactive" and rule.from_card
    assert rule.cite == rs.counters["named"].cite


def test_a_named_counter_with_no_stated_effect_is_unread(tmp_path):
    rs = load_edition("11th")
    _, [unread] = read_card(cards(tmp_path)["Ash Gift"], rs)
    assert "the 11th edition has no ash counter" in unread.message
    # the template stands for named counters, and is none a card may print
    assert "named counter" not in unread.message


def test_a_stated_effect_no_phrase_reads_is_unread_where_it_is(tmp_path):
    _, [unread] = read_card(cards(tmp_path)["Smoke Gift"], load_edition("11th"))
    assert unread.text == "summon a dragon."
    assert unread.message.startswith('"summon a dragon.": no effect phrase of the 11th')
    assert (unread.origin.line, unread.origin.col) == (7, 50)


def test_the_engine_plays_and_saves_the_stated_kinds(tmp_path):
    rs = load_edition("11th")
    designs = list(cards(tmp_path).values())[:1]
    assert [c.name for c in stated_counters(designs, rs)] == ["fire_of_fire_imp"]
    assert "fire_of_fire_imp" in with_stated_counters(rs, designs).counters
    assert "fire_of_fire_imp" not in rs.counters  # the edition itself is untouched
    g = Game.position(rs, designs)
    imp = g.put("Fire Imp", 0, "creature_zone", counters=[["fire_of_fire_imp", 0]])
    back = Game.from_json(g.to_json(), g.engine)
    assert back.cards[imp].counters == [["fire_of_fire_imp", 0]]


def test_an_edition_without_named_counters_reads_no_statement(tmp_path):
    # the 12th has no `from_card` counter, so no counter phrase: the text is unread
    _, problems = read_card(cards(tmp_path)["Fire Imp"], load_edition("12th"))
    assert any("Each fire counter may be removed" in p.message for p in problems)


# --- caveats ---------------------------------------------------------------------------

CAVEATS = """\
card "Wall" creature { edition 11  cost 1  offense 1  defense 9
  ability { This creature cannot attack. This creature cannot defend. }
  ability "BRACE" { Draw 1 card. } }
card "Late Wall" creature { edition 11  cost 1  offense 1  defense 9
  ability "BRACE" { Draw 1 card. }
  ability { This creature cannot attack. } }
"""


def test_a_first_paragraph_of_caveats_is_read_as_caveats(tmp_path):
    from kotc.dsl.reading import card_caveats

    path = tmp_path / "walls.kcard"
    path.write_text(CAVEATS, encoding="utf-8")
    wall, late = load_cards(path)
    rs = load_edition("11th")
    (caveats, brace), problems = read_card(wall, rs)
    assert problems == []
    assert [c.phrase.name for c in caveats.caveats] == ["cannot_attack", "cannot_defend"]
    assert caveats.subs == () and brace.name == "BRACE"
    # with the number each prints for [x] (none: 0)
    assert card_caveats(wall, rs) == {"cannot_attack": 0, "cannot_defend": 0}
    # caveats are in the first paragraph only (Creatures): elsewhere, unread
    _, [unread] = read_card(late, rs)
    assert unread.text == "This creature cannot attack."
    assert card_caveats(late, rs) == {}
    # the 12th has no caveats
    assert card_caveats(wall, load_edition("12th")) == {}
