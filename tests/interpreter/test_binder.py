"""Which activations the binder offers: by zone, by modifier, and for pawns."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from kotc.compiler.listers import _abilities
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


def _plain(engine: Engine) -> Engine:
    """The same engine with the listing's shortcuts off: the standard condition
    read for each ability, every shape through the general binder, none written
    out in the windows' functions (written when first listed)."""
    referee = engine.referee
    referee.standard_per_player = False
    referee.others_gate = referee.step_gate = None
    for act in referee.actions.values():
        act.binder, act.counter_kinds = None, None
    assert not referee._windows
    return engine


@pytest.mark.parametrize("edition", ["11th", "17th"])
def test_a_window_writes_out_the_commonest_shapes_and_calls_the_general_binder(edition):
    # so that the comparison below compares them with the general binder
    from kotc.engine.decks import default_decks

    rs = load_edition(edition)
    designs = card_pool(default_decks(rs)[0])
    fast, plain = Engine(rs, designs).referee, _plain(Engine(rs, designs)).referee
    offers = next(p.offers for p in fast.phases if p.name == "action")
    bare = [name for name in offers if not fast.actions[name].params]
    assert {"summon", "activate"} <= set(offers) and bare
    window = fast._window(offers)
    written, called = window.source, plain._window(offers).source
    # the abilities of a card, per design and zone, read from the window's table
    assert _abilities in window.__globals__.values()
    assert "listing.bindings" not in written
    assert "_possible_for" not in called
    assert called.count("listing.bindings") == len(offers) - len(bare)


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_the_listing_shortcuts_offer_what_the_general_binder_offers(edition):
    """Seeded games under each edition: every listing equals the general binder's,
    and what the primitives keep (counters in play, cards with changes that
    expire, the players still in) agrees with the state."""
    from kotc.engine.decks import default_decks
    from kotc.play.agents import RandomAgent

    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    designs = card_pool(decks)
    fast, plain = Engine(rs, designs), _plain(Engine(rs, designs))
    compared = 0
    for seed in range(6):
        g = Game.new(rs, decks, seed=seed, players=2 + seed % 2, engine=fast)
        twin = Game.new(rs, decks, seed=seed, players=2 + seed % 2, engine=plain)
        agents = [RandomAgent(seed + k) for k in range(3)]
        while not g.is_over:
            legal = g.legal_actions()
            assert [a.key() for a in legal] == [a.key() for a in twin.legal_actions()]
            # kept by the primitives as counters come and go, and it gates listings
            placed = Counter(k for c in g.cards for k, _ in c.counters)
            assert g.counters_in_play == placed
            # and every card with changes or marks that expire is found by `expire`
            assert {c.id for c in g.cards if c.timed or c.tags} <= g.marked
            assert g.seats_in_game() == [p.seat for p in g.players if not p.eliminated]
            compared += 1
            action = agents[g.current_player].act(g)
            g.apply(action)
            twin.apply(action)
    assert compared > 500


def test_an_in_of_zones_is_drawn_zone_by_zone_as_it_would_be_whole():
    # the 11th's `activate` draws from `you.creature_zone + players.graveyard`: zone
    # by zone, only zones where an ability may be taken; drawn whole, the same
    from kotc.engine.decks import default_decks
    from kotc.play.agents import RandomAgent

    rs = load_edition("11th")
    decks, _ = default_decks(rs)
    designs = card_pool(decks)
    by_zone, whole = Engine(rs, designs), Engine(rs, designs)
    assert [z for _, z in by_zone.referee.actions["activate"].drawn_zones] == [
        "creature_zone",
        "graveyard",
    ]
    whole.referee.actions["activate"].drawn_zones = None
    from_graveyard = 0
    for seed in (5, 34, 72):  # games where a destroyed Immortal Phoenix may rise
        g = Game.new(rs, decks, seed=seed, engine=by_zone)
        twin = Game.new(rs, decks, seed=seed, engine=whole)
        agent = RandomAgent(seed)
        while not g.is_over:
            legal = g.legal_actions()
            assert [a.key() for a in legal] == [a.key() for a in twin.legal_actions()]
            from_graveyard += any(
                a.value[0] == "activate" and g.cards[a.value[1][0]].zone == "graveyard"
                for a in legal
                if a.kind == "act"
            )
            action = agent.act(g)
            g.apply(action)
            twin.apply(action)
    assert from_graveyard
