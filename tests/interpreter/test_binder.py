"""Which activations the binder offers: by zone, by modifier, and for pawns."""

from __future__ import annotations

from pathlib import Path

import pytest
from kotc.compiler.listing import reference_window
from kotc.dsl import ast, load_edition
from kotc.dsl.cards import load_cards
from kotc.engine.game import Engine, Game, card_pool
from kotc.engine.referee import _reads

CARDS = Path(__file__).parents[1] / "scenarios" / "cards"


@pytest.fixture(scope="module")
def table():
    rs = load_edition("17th")
    designs = load_cards(CARDS / "common.kcard") + load_cards(CARDS / "17th.kcard")
    return rs, designs


def activations(g: Game) -> list[str]:
    return [
        a.label for a in g.legal_actions() if a.kind == "act" and "activate" in a.label
    ]


def test_a_plain_ability_is_offered_on_the_battlefield_and_not_from_the_hand(table):
    rs, designs = table
    g = Game.position(rs, designs)
    on_field = g.put("Zapper", 0, "battlefield")
    in_hand = g.put("Zapper", 0, "hand")
    g.put("Filler", 0, "deck")
    g.resume("action")
    offered = activations(g)
    assert any(f"#{on_field}" in label for label in offered)
    assert not any(f"#{in_hand}" in label for label in offered)


def test_a_ghost_play_ability_is_considered_wherever_its_card_lies(table):
    # Phoenix's REBIRTH is ghost-play: from the grave it is refused only by its
    # trigger (nothing was destroyed), not ruled out by where it lies
    rs, designs = table
    g = Game.position(rs, designs)
    phoenix = g.put("Phoenix", 0, "grave")
    g.put("Filler", 0, "deck")
    g.resume("action")
    ref = g.engine.referee
    act = ref.actions["activate"]
    assert ref._possible(g, act, 1, phoenix) == (0,)
    assert activations(g) == []


def test_a_cloned_pawn_has_the_abilities_of_its_minion(table):
    # 17th §Clone: the pawn has the minion's abilities, so it activates them
    rs, designs = table
    g = Game.position(rs, designs)
    original = g.put("Zapper", 0, "hand")
    g.put("Filler", 0, "deck")
    pawn = g.create_pawn(0, "battlefield", original, {}, None)
    g.resume("action")
    assert any(f"#{pawn}" in label for label in activations(g))


def test_names_after_is_are_not_read_from_where_a_condition_is_evaluated():
    # `game.phase is action`: `action` names a phase; the condition reads `game`
    def p(*parts):
        return ast.Path(tuple(parts))

    cond = ast.Binary(
        "and",
        ast.Binary("==", p("active"), p("you")),
        ast.Binary("is", p("game", "phase"), p("action")),
    )
    assert _reads(cond) == {"active", "you", "game"}


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_each_shipped_standard_condition_is_read_once_per_player(edition):
    # none reads the ability or its card, so a listing evaluates it once per player
    assert Engine(load_edition(edition), []).referee.standard_per_player


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_popping_takes_only_the_kinds_its_requirement_lets_through(edition):
    # every shipped `pop` requires `kind is proactive`: listing it, and the windows
    # that offer only it, look only for those kinds
    rs = load_edition(edition)
    referee = Engine(rs, []).referee
    proactive = {c.name for c in rs.counters.values() if c.counter_kind == "proactive"}
    assert proactive and referee.actions["pop"].counter_kinds == proactive
    assert referee.actions["summon"].counter_kinds is None


def _listings_agree(rs, decks, seeds, players=2) -> int:
    """Play seeded games; at every decision the window the decision lists, written
    by the code generator, lists what the reference listing lists (the plan
    followed parameter by parameter through the general binder). How many
    listings were compared."""
    from kotc.play.agents import RandomAgent

    engine = Engine(rs, card_pool(decks))
    referee = engine.referee
    compared = 0
    for seed in seeds:
        g = Game.new(rs, decks, seed=seed, players=players + seed % 2, engine=engine)
        agents = [RandomAgent(seed + k) for k in range(3)]
        while not g.is_over:
            for names, window in list(referee._windows.items()):
                for seat in range(len(g.players)):
                    written = window(referee, g, seat)
                    plain = reference_window(referee, names)(referee, g, seat)
                    assert [a.key() for a in written] == [a.key() for a in plain], names
                    compared += 1
            g.apply(agents[g.current_player].act(g))
    return compared


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_written_windows_list_what_the_plans_mean(edition):
    """Seeded games under each edition: every window's written listing, for every
    player at every decision, equals the reference listing of its plan."""
    from kotc.engine.decks import default_decks

    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    assert _listings_agree(rs, decks, range(3)) > 500


def test_abilities_drawn_from_zones_are_listed_wherever_they_may_be_taken():
    # the 11th's `activate` draws from `you.creature_zone + players.graveyard`: a
    # destroyed Immortal Phoenix may rise from the graveyard, and the written
    # window, looking only where such abilities may be taken, finds it as the
    # reference listing does
    from kotc.engine.decks import default_decks
    from kotc.play.agents import RandomAgent

    rs = load_edition("11th")
    decks, _ = default_decks(rs)
    assert _listings_agree(rs, decks, (5, 34, 72), players=2) > 100
    from_graveyard = 0
    for seed in (5, 34, 72):  # games where a destroyed Immortal Phoenix may rise
        g = Game.new(rs, decks, seed=seed)
        agent = RandomAgent(seed)
        while not g.is_over:
            from_graveyard += any(
                a.kind == "act" and a.value[0] == "activate"
                and g.cards[a.value[1][0]].zone == "graveyard"
                for a in g.legal_actions())
            g.apply(agent.act(g))
    assert from_graveyard
