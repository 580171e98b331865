"""Statements written in place in their block's function (`programs._Writer`) do
what their compiled closures do: seeded games of every edition, played once with
blocks written as usual and once with every statement called as its closure,
give the same options at every decision and the same event log."""

from __future__ import annotations

import random

import pytest
from kotc.compiler import programs
from kotc.dsl import edition_files, load_edition
from kotc.engine.decks import default_decks, vanilla_deck
from kotc.engine.game import Engine, Game, card_pool

GAMES = 6


def _play(rs, decks, seeds) -> list:
    """The options offered and the log of each seeded game, on a new engine (its
    blocks are written afresh when first run)."""
    engine = Engine(rs, card_pool(decks))
    giving_up = engine.referee.concessions
    played = []
    for seed in seeds:
        g = Game.new(rs, decks, seed=seed, players=2 + seed % 2, engine=engine)
        rng = random.Random(seed)
        offered = []
        while not g.is_over:
            legal = g.legal_actions()
            offered.append([str(a) for a in legal])
            keep = [a for a in legal if not (a.kind == "act" and a.value[0] in giving_up)]
            g.apply(rng.choice(keep or legal))
        played.append((offered, g.log_json(), g.to_json()))
    return played


def _closures_only(monkeypatch) -> None:
    """Every statement called as its closure: no `_w_` writer is found."""
    for name in [n for n in vars(programs._Writer) if n.startswith("_w_")]:
        monkeypatch.setattr(programs._Writer, name, None)
    monkeypatch.setattr(programs, "_WRITTEN", {})


@pytest.mark.parametrize("name", [*edition_files(), "vanilla"])
def test_written_statements_play_as_their_closures(name, monkeypatch):
    rs = load_edition("17th" if name == "vanilla" else name)
    decks = [vanilla_deck(rs)] if name == "vanilla" else default_decks(rs)[0]
    seeds = range(GAMES)
    written = _play(rs, decks, seeds)
    with monkeypatch.context() as m:
        _closures_only(m)
        called = _play(rs, decks, seeds)
    assert sum(len(offered) for offered, _, _ in written) > 100 * GAMES
    for seed, (a, b) in enumerate(zip(written, called, strict=True)):
        assert a[0] == b[0], f"seed {seed}: the options differ"
        assert a[1] == b[1], f"seed {seed}: the event logs differ"
        assert a[2] == b[2], f"seed {seed}: the final states differ"


def test_what_was_read_before_a_statement_that_only_sets_cards_fields_holds_after():
    # the 17th recovery phase binds `recoverable` and `recovering`, and reads them
    # again after unfatiguing and unexhausting cards: from the locals they were
    # bound from, and known to be card ids (no test of their types)
    rs = load_edition("17th")
    decks = default_decks(rs)[0]
    g = Game.new(rs, decks, seed=0, players=2, engine=Engine(rs, card_pool(decks)))
    giving_up = g.engine.referee.concessions
    while g.turn < 3:
        legal = g.legal_actions()
        g.apply(next(a for a in legal if a.kind != "act" or a.value[0] not in giving_up))
    (phase,) = [ph for ph in g.engine.referee.phases if ph.name == "recovery"]
    source = phase.run.go.source
    for name in ("recoverable", "recovering"):
        assert source.count(f"'{name}'") == 1, source  # where it is bound, only
    assert "type(" not in source, source


def test_a_block_of_simple_statements_reads_no_position():
    # none of its statements waits or pushes: its frame is only ever at its start
    rs = load_edition("11th")
    engine = Engine(rs, card_pool(default_decks(rs)[0]))
    set_trap = next(b for b in engine.programs.blocks if b.where == "action set_trap")
    assert len(set_trap.stmts) == 2 and all(st.simple for st in set_trap.stmts)
    assert "pc" not in programs._written(set_trap).source
