"""The starter decks: legal under their editions, playable-looking, and together
using every keyword and counter each edition defines."""

from __future__ import annotations

import pytest
from kotc.cli import main as cli
from kotc.dsl import edition_files, load_edition
from kotc.dsl.cards import load_deck
from kotc.dsl.coverage import card_readings, coverage, used_by_the_rules
from kotc.dsl.legality import judge_deck
from kotc.dsl.shipped import all_starter_deck_files

DECKS = all_starter_deck_files()

# Keywords no card text can reach, for a reason outside the cards, by edition.
# Remove an entry once its cause is fixed; the test below fails until then.
UNREACHABLE_KEYWORDS: dict[str, tuple[str, ...]] = {}

# Value terms the rules write for their own programs (a battle's parts, the
# Recovery Phase), not for cards: no card needs to use them.
RULES_OWN_TERMS = ("enlistable", "defenders", "caveat_counters", "caveats_payable",
                   "victims", "defender_of", "in_battle_zone", "victim_remains",
                   "fatigue_over", "in_play", "legal_combat", "protectors")


def test_every_shipped_edition_has_at_least_two_starter_decks():
    editions = [load_deck(p)[0].edition for p in DECKS]
    for name in edition_files():
        assert editions.count(name) >= 2, name


@pytest.mark.parametrize("path", DECKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_starter_deck_is_legal_under_its_edition(path):
    deck, cards = load_deck(path)
    verdict = judge_deck(deck, cards, load_edition(deck.edition))
    problems = [str(f) for f in verdict.findings] + [
        str(f) for c in verdict.cards for f in c.findings]
    assert verdict.status == "legal", problems


@pytest.mark.parametrize("path", DECKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_kotc_deck_check_passes_each_starter_deck(path, capsys):
    code = cli.main(["deck", "check", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert ": legal (" in out.splitlines()[0]


@pytest.mark.parametrize("path", DECKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_starter_minions_follow_the_level_budget(path):
    """Where minions have SP and HP, each level buys 1 SP or 2 HP (the 17th's
    Craft); elsewhere levels and costs stay between 1 and 5."""
    deck, cards = load_deck(path)
    for card in (cards[e.name] for e in deck.entries):
        cost = card.stat("level") or card.stat("cost")
        assert 0 <= cost <= 5, card.name
        sp, hp = card.stat("sp"), card.stat("hp")
        if sp is not None and hp is not None:
            assert sp + hp / 2 == cost, card.name


@pytest.mark.parametrize("edition", sorted(edition_files()))
def test_the_starter_decks_use_every_keyword_and_counter(edition):
    rs = load_edition(edition)
    own = [load_deck(p) for p in DECKS]
    designs = [cards[e.name] for deck, cards in own if deck.edition == rs.name
               for e in deck.all_entries]
    cov = coverage(rs, card_readings(designs, rs))
    # what the rules' own flow calls or places is used by every game (a game of
    # vanilla cards, whose rules place the damage counters, draw and destroy)
    keywords, counters = used_by_the_rules(rs)
    assert [c for c in cov.counters.unused if c not in counters] == []
    assert tuple(k for k in cov.keywords.unused if k not in keywords) \
        == UNREACHABLE_KEYWORDS.get(edition, ())
    assert cov.modifiers.unused == ()
    assert cov.value_terms.unused == tuple(
        t for t in RULES_OWN_TERMS if t in rs.terms and t not in cov.value_terms.used)
