"""Whole games under every edition: they end, they replay, they survive JSON.

Games use each edition's starter decks when the repository has them, and
generated vanilla decks otherwise. 200 seeded games per edition are played to
the end by default; `KOTC_GAMES` sets another number.
"""

from __future__ import annotations

import json
import os
import random

import pytest
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.engine.game import Engine, Game, card_pool
from kotc.play.agents import RandomAgent, play
from kotc.runtime.actions import Action, IllegalAction

EDITIONS = ("11th", "12th", "13th", "17th")
GAMES = int(os.environ.get("KOTC_GAMES", "200"))


@pytest.fixture(scope="module", params=EDITIONS)
def table(request):
    rs = load_edition(request.param)
    decks, _ = default_decks(rs)
    engine = Engine(rs, card_pool(decks))
    return rs, decks, engine


def new_game(table, seed: int) -> Game:
    rs, decks, engine = table
    return Game.new(rs, decks, seed=seed, players=2, engine=engine)


def test_seeded_random_games_end_by_an_endgame_condition(table):
    rs, _, _ = table
    conditions = {c.name for c in rs.end_conditions} | {"turn limit"}
    for seed in range(GAMES):
        g = new_game(table, seed)
        play(g, [RandomAgent(seed), RandomAgent(seed + 1)])
        assert g.is_over and g.result is not None
        assert g.result["condition"] in conditions
        winner, tied = g.result["winner"], g.result["tied"]
        assert (winner is None) == bool(tied)
        assert g.node == "game_over"


def test_a_game_at_its_turn_limit_ends_on_the_last_turn_played(table):
    rs, decks, engine = table
    g = Game.new(rs, decks, seed=1, players=2, max_turns=3, engine=engine)
    play(g, [RandomAgent(1), RandomAgent(2)])  # nobody wins in three turns
    assert g.result["condition"] == "turn limit"
    assert g.turn == 3
    assert [e.data["turn"] for e in g.events if e.kind == "turn"] == [1, 2, 3]


def test_every_event_cites_the_rule_that_caused_it(table):
    for seed in range(3):
        g = new_game(table, seed)
        play(g, [RandomAgent(seed), RandomAgent(seed + 1)])
        assert [e for e in g.events if not e.cite] == []


def test_a_player_at_zero_hp_plays_on_as_a_zombie_where_the_rules_say_so():
    # the 17th edition (from the 12th): zombies play on until an endgame condition
    rs = load_edition("17th")
    g = Game.new(rs, default_decks(rs)[0], seed=1, players=3)
    agents = [RandomAgent(1 + i) for i in range(3)]
    while not g.is_over and not any(e.kind == "zombie" for e in g.events):
        g.apply(agents[g.current_player].act(g))
    (event,) = [e for e in g.events if e.kind == "zombie"]
    zombie = event.data["player"]
    assert "Endgame" in event.cite and g.players[zombie].hp == 0
    assert g.is_zombie(zombie) and not g.players[zombie].eliminated
    asked = set()
    while not g.is_over:
        asked.add(g.current_player)
        g.apply(agents[g.current_player].act(g))
    assert zombie in asked  # asked to decide after the HP ran out


def test_where_no_zombies_play_on_a_player_at_zero_hp_is_out():
    rs = load_edition("11th")
    for seed in range(2, 12):  # the first seeded game in which a player drops to 0 HP
        g = Game.new(rs, default_decks(rs)[0], seed=seed, players=3)
        agents = [RandomAgent(seed + i) for i in range(3)]
        while not g.is_over and all(p.hp > 0 for p in g.players):
            g.apply(agents[g.current_player].act(g))
        if not all(p.hp > 0 for p in g.players):
            break
    out = next(p.seat for p in g.players if p.hp <= 0)
    assert g.players[out].eliminated and not g.is_zombie(out)
    assert not any(e.kind == "zombie" for e in g.events)


def test_the_same_seed_gives_the_same_log(table):
    logs = []
    for _ in range(2):
        g = new_game(table, 7)
        play(g, [RandomAgent(7), RandomAgent(8)])
        logs.append([e.to_json() for e in g.events])
    assert logs[0] == logs[1]
    other = new_game(table, 8)
    play(other, [RandomAgent(7), RandomAgent(8)])
    assert [e.to_json() for e in other.events] != logs[0]


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 2), (2, 3), (1, 4)])
def test_state_survives_json_and_clone_at_every_step(table, seed, players):
    # restored and cloned at every step, each goes on exactly as the game does: the
    # dicts the programs under way share (an env, an event) stay shared
    rs, decks, engine = table
    g = Game.new(rs, decks, seed=seed, players=players, engine=engine)
    rng = random.Random(seed)
    while not g.is_over:
        text = g.to_json()
        restored, clone = Game.from_json(text, engine), g.clone()
        assert restored.to_json() == text == clone.to_json()
        assert restored.legal_actions() == g.legal_actions()
        action = rng.choice(g.legal_actions())
        twins = [[e.to_json() for e in x.apply(action)] for x in (restored, clone)]
        events = [e.to_json() for e in g.apply(action)]
        assert twins == [events, events]
        assert restored.to_json() == g.to_json() == clone.to_json()


@pytest.mark.parametrize("seed", [26, 29])
def test_a_clone_popping_a_reactive_counter_leaves_the_game_alone(seed):
    # the event a reactive counter prevents is shared by the frames that read it: a
    # clone's copy of it must be its own, or popping there prevents it here too
    rs = load_edition("17th")
    decks, _ = default_decks(rs)

    def game_log(meddle: bool) -> list:
        g = Game.new(rs, decks, seed=seed, players=2)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while not g.is_over:
            yes = [o for o in g.legal_actions() if o.kind == "yes"]
            if meddle and yes and g.decision.prompt.startswith("pop "):
                c = g.clone()
                c.apply(yes[0])
                for _ in range(10):
                    if not c.is_over:
                        c.apply(RandomAgent(5).act(c))
            g.apply(agents[g.current_player].act(g))
        return [e.to_json() for e in g.events]

    assert game_log(meddle=True) == game_log(meddle=False)


def test_only_a_state_of_this_format_and_edition_is_restored(table):
    rs, decks, engine = table
    data = json.loads(new_game(table, 1).to_json())
    with pytest.raises(ValueError, match="not a game state"):
        Game.from_json("{", engine)
    with pytest.raises(ValueError, match="format 1; it reads format"):
        Game.from_json(json.dumps({**data, "format": 1}), engine)
    with pytest.raises(ValueError, match="cannot be played with an engine"):
        Game.from_json(json.dumps({**data, "edition": "other"}), engine)
    for cut in ("players", "stack", "layout"):  # a state cut short, or mangled
        with pytest.raises(ValueError, match="not a whole game state"):
            Game.from_json(json.dumps({k: v for k, v in data.items() if k != cut}),
                           engine)
    with pytest.raises(ValueError, match="not a whole game state"):
        Game.from_json(json.dumps({**data, "cards": [1, 2]}), engine)


def test_a_state_is_restored_by_an_engine_of_its_cards_listed_in_any_order():
    """A saved game names the programs under way by number: an engine of the same
    cards, listed in another order, numbers them alike (it used to play on with
    other programs, or fail); one of other cards refuses the state."""
    rs = load_edition("17th")
    decks, _ = default_decks(rs)
    pool = card_pool(decks)
    reordered = Engine(rs, list(reversed(pool)))
    checked = 0
    for seed in range(4):
        g = Game.new(rs, decks, seed=seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while not g.is_over:
            action = agents[g.current_player].act(g)
            if g.frames:  # programs under way
                checked += 1
                restored = Game.from_json(g.to_json(), reordered)
                i = g.legal_actions().index(action)
                assert [e.to_json() for e in restored.apply(i)] == [
                    e.to_json() for e in g.clone().apply(i)
                ]
            g.apply(action)
    assert checked > 100
    fewer = [d for d in pool if d.name != pool[0].name]
    with pytest.raises(ValueError, match=f"cards it lacks: {pool[0].name}"):
        Game.from_json(Game.new(rs, decks, seed=1).to_json(), Engine(rs, fewer))


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_playing_compiles_no_program_of_its_own(edition):
    """An engine's programs are all made with it: one made during play would be
    numbered by the games played before, and a saved game could not name it."""
    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    engine = Engine(rs, card_pool(decks))
    made = len(engine.programs.blocks)
    for seed in range(6):
        g = Game.new(rs, decks, seed=seed, engine=engine)
        play(g, [RandomAgent(seed), RandomAgent(seed + 1)])
    assert len(engine.programs.blocks) == made


def test_clone_is_independent(table):
    g = new_game(table, 3)
    rng = random.Random(3)
    for _ in range(40):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    before = g.to_json()
    twin = g.clone()
    while not twin.is_over:
        twin.apply(twin.legal_actions()[-1])
    assert g.to_json() == before


def test_a_clone_shares_no_container_with_its_game(table):
    g = new_game(table, 3)
    for _ in range(30):
        g.apply(RandomAgent(3).act(g))
    twin = g.clone()
    shared = [k for k in type(g).__slots__
              if isinstance(v := getattr(g, k), (list, dict, set))
              and getattr(twin, k) is v]
    assert shared == []


def test_a_clone_keeps_its_own_count_of_counters(table):
    # the count is kept beside the state's JSON, by the primitives: a clone's
    # primitives must not change the original's
    rs, decks, _ = table
    g = new_game(table, 3)
    kind = next(iter(rs.counters))
    card = g.put(decks[0].cards[0].name, 0, g.cards[0].zone, counters=[[kind, 0]])
    twin = g.clone()
    twin.take_counter(card, [kind, 0])
    assert twin.counters_in_play == {} and g.counters_in_play == {kind: 1}


def test_an_illegal_action_is_refused_with_the_rule(table):
    g = new_game(table, 4)
    legal = g.legal_actions()
    with pytest.raises(IllegalAction) as err:
        g.apply(type(legal[0])("pick", 10**6))
    message = str(err.value)
    assert "not a legal answer" in message and "§" in message
    assert g.legal_actions() == legal  # nothing changed


def test_an_action_is_taken_as_listed_by_index_or_as_an_equal_action(table):
    def after(action) -> str:
        g = new_game(table, 6)
        g.apply(action(g))
        return g.to_json()

    taken = after(lambda g: g.legal_actions()[-1])
    assert after(lambda g: len(g.legal_actions()) - 1) == taken

    class Index:  # an integer of another kind (numpy's, say)
        def __init__(self, i: int):
            self.i = i

        def __index__(self) -> int:
            return self.i

    assert after(lambda g: Index(len(g.legal_actions()) - 1)) == taken
    assert after(lambda g: Action.from_json(g.legal_actions()[-1].to_json())) == taken
    g = new_game(table, 6)
    for index in (len(g.legal_actions()), -1, True):  # a bool is no index
        with pytest.raises(IllegalAction, match="not a legal answer"):
            g.apply(index)


def test_the_flow_node_is_a_node_of_the_flow_graph(table):
    from kotc.flowgraph.build import compile_ruleset

    rs, _, _ = table
    graph = compile_ruleset(rs)
    g = new_game(table, 5)
    rng = random.Random(5)
    seen = set()
    while not g.is_over:
        seen.add(g.node)
        g.apply(rng.choice(g.legal_actions()))
    seen.add(g.node)
    assert seen <= set(graph.graph.nodes), seen - set(graph.graph.nodes)


def test_only_the_active_player_is_offered_to_give_up_and_only_in_its_phases(table):
    """As the flow graph draws it (no concession between battle steps): nobody is
    asked at every step whether to give the game up."""
    rs, decks, engine = table
    giving_up = rs.concessions
    assert giving_up
    offered = 0
    for seed in range(4):
        g = Game.new(rs, decks, seed=seed, players=3, engine=engine)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            if any(a.kind == "act" and a.value[0] in giving_up for a in legal):
                offered += 1
                assert g.current_player == g.active and g.node.startswith("phase:")
            keep = [a for a in legal if not (a.kind == "act" and a.value[0] in giving_up)]
            g.apply(rng.choice(keep or legal))
    assert offered > 0


def test_a_card_copy_has_every_slot_and_containers_of_its_own():
    # but the printed stats, which nothing changes: shared with the design's
    from kotc.runtime.state import CardState

    card = CardState(7, "Zapper", "minion", 1, {"level": 2, "sp": 3}, "Zapper")
    card.controller, card.zone, card.exhausted, card.fatigued = 0, "battlefield", 1, 1
    card.fatigued_turn, card.face_up, card.pawn = 4, True, True
    card.stats["sp"], card.timed, card.tags = 5, {"sp": 2}, {"berzerk": "recovery"}
    card.counters = [["shield", 1]]
    copy = card.copy()
    for slot in CardState.__slots__:  # a slot the copy leaves out fails here
        assert getattr(copy, slot) == getattr(card, slot), slot
        value = getattr(card, slot)
        if isinstance(value, (dict, list)):
            assert (getattr(copy, slot) is value) == (slot == "printed"), slot
    assert copy.counters[0] is not card.counters[0]


def test_games_of_one_ruleset_and_card_pool_share_an_engine(monkeypatch):
    rs, other = load_edition("17th"), load_edition("13th")
    decks, _ = default_decks(rs)
    designs = card_pool(decks)
    monkeypatch.setattr(Engine, "_shared", {})
    first = Game.new(rs, decks, seed=1).engine
    assert Game.new(rs, decks, seed=2).engine is first
    assert Game.position(rs, list(designs)).engine is first  # equal designs, same pool
    assert Game.position(rs, designs[:3]).engine is not first
    assert Game.position(other, []).engine is not Game.position(rs, []).engine
    monkeypatch.setattr(Engine, "SHARED", 2)
    Game.position(rs, designs[3:6])  # one pool too many: the oldest is let go
    assert Game.new(rs, decks, seed=3).engine is not first


@pytest.mark.parametrize("edition", ["11th", "17th"])
def test_games_played_at_once_in_threads_are_the_games_played_alone(edition):
    """Games of one engine share it; nothing a game writes while it is played may
    live there (a listing's memo once did, and a game in another thread read it)."""
    import sys
    import threading

    rs = load_edition(edition)
    decks, _ = default_decks(rs)

    def log(seed: int) -> list:
        g = Game.new(rs, decks, seed=seed)
        play(g, [RandomAgent(seed), RandomAgent(seed + 1)])
        return [(e.kind, repr(e.data)) for e in g.events]

    seeds = range(6)
    alone = {s: log(s) for s in seeds}
    together: dict = {}

    def worker(mine) -> None:
        for s in mine:
            together[s] = log(s)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as they can
    try:
        threads = [threading.Thread(target=worker, args=(seeds[i::3],)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert [s for s in seeds if together.get(s) != alone[s]] == []


@pytest.mark.parametrize("edition", ["11th", "12th", "13th", "17th"])
def test_a_game_pickles_and_copies_as_itself(edition, monkeypatch):
    """A process pool pickles the games it sends; `copy` and `deepcopy` clone."""
    import copy
    import pickle

    rs = load_edition(edition)
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=4)
    agents = [RandomAgent(4), RandomAgent(5)]
    for _ in range(60):
        g.apply(agents[g.current_player].act(g))
    for twin in (pickle.loads(pickle.dumps(g)), copy.copy(g), copy.deepcopy(g)):
        assert twin.engine is g.engine  # not compiled again
        assert twin.to_json() == g.to_json() and twin.events == g.events
        before = g.to_json()
        rng = random.Random(1)
        for _ in range(20):
            if not twin.is_over:
                twin.apply(rng.choice(twin.legal_actions()))
        assert g.to_json() == before  # the twin plays on alone
    monkeypatch.setattr(Engine, "_shared", {})  # as in another process
    again = pickle.loads(pickle.dumps(g))
    assert again.engine is not g.engine and again.to_json() == g.to_json()
    action = agents[g.current_player].act(g)
    i = g.legal_actions().index(action)
    assert [e.to_json() for e in again.apply(i)] == [e.to_json() for e in g.apply(i)]


def test_actions_kept_keep_no_game_alive():
    """A bot may keep the actions of many positions (a search tree): each keeps
    what its label is written from, not the game it was listed in."""
    import gc
    import weakref

    rs = load_edition("17th")
    decks, _ = default_decks(rs)
    g = Game.new(rs, decks, seed=6)
    agents = [RandomAgent(6), RandomAgent(7)]
    kept = []
    while not g.is_over and len(kept) < 200:
        kept += [(a, a._label) for a in g.legal_actions()]
        g.apply(agents[g.current_player].act(g))
    unwritten = [a for a, label in kept if label is None]
    assert unwritten  # labels written only when read
    gone = weakref.ref(g)
    labels = [a.label for a in unwritten[: len(unwritten) // 2]]
    del g
    gc.collect()
    assert gone() is None
    assert all("#" in label or label.startswith(("player", "act")) for label in labels)
    later = [a.label for a in unwritten[len(unwritten) // 2 :]]  # the game is gone
    assert all(later)


def test_a_state_saved_in_one_process_is_restored_in_another():
    """Programs are numbered alike in every process (whatever its string hashing):
    a state written by one plays on in another as it would have where written."""
    import subprocess
    import sys

    script = (
        "from kotc.play.agents import RandomAgent\n"
        "from kotc.engine.decks import default_decks\n"
        "from kotc.engine.game import Game\n"
        "from kotc.dsl import load_edition\n"
        "rs = load_edition('17th')\n"
        "g = Game.new(rs, default_decks(rs)[0], seed=9)\n"
        "a = [RandomAgent(9), RandomAgent(10)]\n"
        "while not g.frames or g.applied < 40:\n"
        "    g.apply(a[g.current_player].act(g))\n"
        "print(g.to_json())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "7", "KOTC_CACHE_DIR": "off"}
    text = subprocess.run([sys.executable, "-c", script], capture_output=True,
                          text=True, env=env, check=True).stdout
    rs = load_edition("17th")
    decks, _ = default_decks(rs)
    here = Game.new(rs, decks, seed=9)
    agents = [RandomAgent(9), RandomAgent(10)]
    while not here.frames or here.applied < 40:
        here.apply(agents[here.current_player].act(here))
    there = Game.from_json(text, here.engine)
    assert there.to_json() == here.to_json()
    rng = random.Random(3)
    while not here.is_over:
        i = rng.randrange(len(here.legal_actions()))
        assert [e.to_json() for e in there.apply(i)] == [
            e.to_json() for e in here.apply(i)
        ]


def test_a_stat_set_outright_keeps_its_value_when_earlier_changes_expire():
    """`set` replaces a stat for good: a change made before it `until recovery` no
    longer expires from it (it did: +2 SP until recovery, then set to 0, came out
    at -2)."""
    rs = load_edition("17th")
    decks, _ = default_decks(rs)
    g = Game.position(rs, card_pool(decks))
    card = g.put("Berzerker", 0, "battlefield")
    other = g.put("Berzerker", 0, "battlefield")
    g.change(card, "sp", 2, "recovery", None)
    g.assign(card, "sp", 0, None, None)  # a Weakness Counter's `set host.sp to 0`
    g.change(other, "sp", 2, "recovery", None)
    g.change(other, "sp", -1, None, None)  # a lasting change: both count
    g.expire("recovery")
    assert g.cards[card].stats["sp"] == 0
    assert g.cards[other].stats["sp"] == g.cards[other].printed["sp"] - 1


def test_engines_are_shared_safely_between_threads(monkeypatch):
    """Games made at once in threads share engines: the map that keeps them must
    not change while a thread looks through it. Here another thread makes an engine
    just as this one compares two pools; it used to fail with "dictionary changed
    size during iteration"."""
    import threading

    rs = load_edition("17th")
    pool = card_pool(default_decks(rs)[0])
    monkeypatch.setattr(Engine, "_shared", {})
    other: list = []

    def make_another() -> None:
        other.append(Engine.shared(rs, pool[1:2]))

    class Meddler:
        """A pool's member that, as it is first compared, has another thread make
        an engine."""

        def __eq__(self, _other) -> bool:
            if not other and not threading.current_thread().name.startswith("meddled"):
                t = threading.Thread(target=make_another, name="meddled")
                t.start()
                t.join(timeout=0.5)  # it waits for this one, if the map is locked
            return False

        __hash__ = object.__hash__

    Engine._shared[(0, (Meddler(),), "generated")] = (rs, None)
    engine = Engine.shared(rs, pool[:1])
    assert engine.pool == tuple(pool[:1])
    for t in threading.enumerate():
        if t is not threading.current_thread():
            t.join(timeout=5)
    assert [e.pool for e in other] == [tuple(pool[1:2])]
