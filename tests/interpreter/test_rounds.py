"""The flow's round constructs, on a small game of its own (`fixtures/rounds.kotc`):
a phase's window asked as a round from the active player, the actor asked again
after acting (`window round from active until all_pass after_action ask_actor`);
a chain whose responses start with the last actor (`respond ... from last_actor`)
and which resolves its top link only, then asks again from the active player
(`resolve top_link then respond from active`); a link made by an action's program
(`link { ... }`), rechecked as it resolves (`link rechecked`) and interrupted where
the action's `requires` no longer holds, what it paid kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from kotc.dsl import load_edition
from kotc.dsl.cards import load_cards
from kotc.dsl.unparse import unparse_rule
from kotc.engine.game import Game

FIXTURE = Path(__file__).parent / "fixtures" / "rounds.kotc"
CARDS = Path(__file__).parent / "fixtures" / "rounds.kcard"


@pytest.fixture(scope="module")
def rules():
    return load_edition(str(FIXTURE))


@pytest.fixture(params=["generated", "reference"])
def backend(request):
    return request.param


def _game(rules, backend: str = "generated", players: int = 3,
          hp: tuple[int, ...] = (), hand: tuple[str, ...] = ()) -> Game:
    g = Game.position(rules, load_cards(CARDS) if hand else [], players=players,
                      seed=1, trace=True, backend=backend)
    for name in hand:
        g.put(name, 0, "hand")
    g.turn, g.active = 1, 0
    for seat, value in enumerate(hp):
        g.players[seat].hp = value
    g.start(phase="main", at_start=True)
    g.advance()
    return g


def _play(g: Game, *answers: str) -> list[tuple[str, int, int | None]]:
    """Each answer taken in turn; after each, where play stands, who is asked and
    how many links the chain holds."""
    seen = []
    for label in answers:
        d = g.decision
        assert d is not None, f"nobody is asked for {label!r}"
        options = {a.label: a for a in d.options}
        assert label in options, f"{label!r} not offered to {d.player}: {list(options)}"
        g.apply(options[label])
        seen.append((g.node, g.decision.player if g.decision else -1,
                     None if g.chain is None else len(g.chain.links)))
    assert g.trace is not None and not g.trace.faults
    return seen


def test_the_phase_round_asks_the_actor_again_and_closes_when_all_pass(rules, backend):
    g = _game(rules, backend)
    assert (g.node, g.decision.player) == ("phase:main/actions", 0)
    # player 0 passes; player 1 acts (no link) and is asked again, the passes
    # counted anew: after two more, player 0 is asked once more
    assert _play(g, "pass", "poke player 2", "pass", "pass") == [
        ("phase:main/actions", 1, None), ("phase:main/actions", 1, None),
        ("phase:main/actions", 2, None), ("phase:main/actions", 0, None)]
    assert [p.hp for p in g.players] == [5, 5, 4]
    # all three pass in a row: the window closes, the phase and the turn end
    _play(g, "pass", "pass", "pass")
    assert g.turn == 2 and g.active == 1


def test_responses_start_with_the_actor_and_only_the_top_link_resolves(rules, backend):
    g = _game(rules, backend)
    seen = _play(g, "zap player 1")
    assert seen == [("chain:respond", 0, 1)]  # the actor keeps the turn of asking
    seen = _play(g, "pass", "zap player 0")
    assert seen == [("chain:respond", 1, 1), ("chain:respond", 1, 2)]
    # all pass in a row: the top link alone resolves (player 0 is zapped), then
    # the active player is asked first, the other link still on the chain
    seen = _play(g, "pass", "pass", "pass")
    assert seen[-1] == ("chain:respond", 0, 1)
    assert [p.hp for p in g.players] == [4, 5, 5]
    # all pass again: the last link resolves, the chain closes, and the phase's
    # round asks again from the active player
    seen = _play(g, "pass", "pass", "pass")
    assert seen[-1] == ("phase:main/actions", 0, None)
    assert [p.hp for p in g.players] == [4, 4, 5]
    assert [e.kind for e in g.events].count("resolve") == 2


def test_a_rechecked_link_whose_requires_fails_is_interrupted(rules, backend):
    g = _game(rules, backend, hp=(5, 2, 5))
    # player 0 zaps player 1 (hp 2 > 1: legal); player 2 answers, zapping player 1
    # too: that link resolves first, and player 1 is left with 1 hitpoint
    _play(g, "zap player 1", "pass", "pass", "zap player 1", "pass", "pass", "pass")
    assert [p.hp for p in g.players] == [5, 1, 5]
    # the first link now fails its `requires` (p.hp > 1): interrupted, not done
    _play(g, "pass", "pass", "pass")
    assert [p.hp for p in g.players] == [5, 1, 5]
    interrupted = [e for e in g.events if e.kind == "interrupted"]
    assert [e.to_json()["data"]["map"] for e in interrupted] == [
        {"player": 0, "action": "zap"}]
    assert g.chain is None and g.node == "phase:main/actions"


def test_a_card_put_on_the_chain_is_its_links_source(rules, backend):
    g = _game(rules, backend, hand=("Pebble",))
    _play(g, "play Pebble#0")
    # the card lies face down as its link waits; the chain shows it as the
    # source, to its player only
    assert [c.face_up for c in g.cards if c.zone == "field"] == [False]
    assert g.view(0)["chain"] == [{"link": 1, "player": 0, "source": "Pebble"}]
    assert g.view(1)["chain"] == [{"link": 1, "player": 0, "source": "a hidden card"}]
    _play(g, "pass", "pass", "pass")
    assert g.chain is None
    assert [c.face_up for c in g.cards if c.zone == "field"] == [True]


def test_the_constructs_read_back_as_written(rules):
    for rule in rules.rules():
        text = unparse_rule(rule)
        if any(word in text for word in ("window round", "top_link", "from last_actor",
                                         "link rechecked")):
            assert text.split()[0] in ("phase", "respond", "resolve", "action"), text
    phase = rules.phases[0]
    assert "window round from active until all_pass after_action ask_actor" in \
        unparse_rule(phase)
    assert unparse_rule(rules.setting("chain", "respond")).startswith(
        "respond clockwise from last_actor until all_pass")
    assert unparse_rule(rules.setting("chain", "resolve_last_in_first_out")).startswith(
        "resolve top_link then respond from active")
    assert "link rechecked {" in unparse_rule(rules.actions["zap"])
    assert "link from t {" in unparse_rule(rules.actions["play"])


# --- checks before anyone is asked (`checks` section) --------------------------------

CHECKED = Path(__file__).parent / "fixtures" / "rounds_checked.kotc"


@pytest.fixture(scope="module")
def checked():
    return load_edition(str(CHECKED))


def test_checks_run_again_until_a_pass_changes_nothing(checked, backend):
    g = _game(checked, backend, hp=(5, 3, 5))
    # poked to 2: the first pass leaves 1 (`fall` is written before `wound`), the
    # second 0, the third nothing; then the end is checked: player 1 is out
    # before player 0 is asked again
    assert _play(g, "poke player 1") == [("phase:main/actions", 0, None)]
    assert [p.hp for p in g.players] == [5, 0, 5]
    assert [p.eliminated for p in g.players] == [False, True, False]
    assert "poke player 1" not in [a.label for a in g.decision.options]


def test_every_remaining_player_out_at_once_is_a_draw_between_them(checked, backend):
    g = _game(checked, backend, players=2, hp=(2, 2))
    assert g.is_over and g.outcome["winner"] is None and g.outcome["tied"] == [0, 1]
    # one out before, two at once after: the draw is the two's alone
    g = _game(checked, backend, players=3, hp=(2, 2, 1))
    assert [e.player for e in g.events
            if e.kind == "eliminated"] == [2, 0, 1]
    assert g.is_over and g.outcome["winner"] is None and g.outcome["tied"] == [0, 1]


def test_the_checks_are_a_node_every_window_passes_through(checked):
    from kotc.flowgraph.build import compile_ruleset

    graph = compile_ruleset(checked).graph
    assert graph.nodes["endgame:checks"]["kind"] == "check"
    windows = {n for n, d in graph.nodes(data=True) if d["kind"] == "window"}
    assert windows == {"phase:main/actions", "chain:respond"}
    into = {u for u, _, d in graph.in_edges("endgame:checks", data=True)
            if d["kind"] == "checks"}
    assert into == windows
    text = "\n".join(unparse_rule(r) for r in checked.checks)
    assert text.startswith('check fall "One hitpoint falls to none" @ "Checks" {')


# --- a battle its link begins, with a window after a chosen step ---------------------

BATTLE = Path(__file__).parent / "fixtures" / "rounds_battle.kotc"


@pytest.fixture(scope="module")
def battling():
    return load_edition(str(BATTLE))


def _offered(g: Game) -> list[str]:
    return [a.label for a in g.decision.options]


def test_an_action_open_only_while_the_chain_is_empty(battling, backend):
    g = _game(battling, backend)
    assert "challenge player 1" in _offered(g)
    _play(g, "zap player 1")
    # `requires ... not chain.open`: a chaining action not offered as a response
    assert g.node == "chain:respond"
    assert "zap player 2" in _offered(g)
    assert not [label for label in _offered(g) if label.startswith("challenge")]


def test_a_link_begins_a_battle_with_a_round_after_its_chosen_step(battling, backend):
    g = _game(battling, backend)
    _play(g, "challenge player 1", "pass", "pass")
    # the link resolves, the chain closes, the battle begins: after its first step
    # (`windows after opening round from attacker ...`) the attacker is asked
    assert _play(g, "pass") == [("battle:opening/window", 0, None)]
    # a zap there, answered by nobody: the chain goes back to the battle's window
    # from the attacker, the passes counted anew
    assert _play(g, "zap player 2", "pass", "pass", "pass")[-1] == (
        "battle:opening/window", 0, None)
    assert [p.hp for p in g.players] == [5, 5, 4]
    # all pass: the blow (no window after it), the battle ends, and the phase's
    # round asks again from the active player
    assert _play(g, "pass", "pass", "pass")[-1] == ("phase:main/actions", 0, None)
    assert [p.hp for p in g.players] == [5, 3, 4]
    graph = __import__("kotc.flowgraph.build", fromlist=["compile_ruleset"]) \
        .compile_ruleset(battling).graph
    assert "battle:opening/window" in graph and "battle:blow/window" not in graph
    assert graph.nodes["battle:opening/window"]["after_action"] == "actor"


def test_a_proposal_whose_target_fell_is_interrupted_and_begins_nothing(battling,
                                                                       backend):
    g = _game(battling, backend, hp=(5, 2, 5))
    # player 0 challenges player 1 (2 > 1); player 2 zaps player 1 in answer, to 1
    _play(g, "challenge player 1", "pass", "pass", "zap player 1", "pass", "pass",
          "pass")
    assert [p.hp for p in g.players] == [5, 1, 5]
    _play(g, "pass", "pass", "pass")
    kinds = [e.kind for e in g.events]
    assert "interrupted" in kinds and "battle_end" not in kinds
    assert g.battle is None and g.node == "phase:main/actions"


def test_a_game_saved_mid_chain_plays_on_as_it_would_have(rules, backend):
    g = _game(rules, backend)
    _play(g, "zap player 1", "pass", "zap player 0", "pass", "pass", "pass")
    # the top link has resolved; the responses ask the active player again
    assert (g.node, g.decision.player, len(g.chain.links)) == ("chain:respond", 0, 1)
    _play(g, "pass")  # saved with one pass counted
    back = Game.from_json(g.to_json(), g.engine)
    for game in (g, back):
        for label in ("pass", "pass"):
            game.apply(next(a for a in game.decision.options if a.label == label))
    assert [p.hp for p in back.players] == [p.hp for p in g.players] == [4, 4, 5]
    assert (back.node, back.decision.player) == (g.node, g.decision.player) == (
        "phase:main/actions", 0)
