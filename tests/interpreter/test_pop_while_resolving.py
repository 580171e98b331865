"""When a proactive counter popped while a chain resolves acts, read from the rules
so that a setting changed is play changed: at once, inside what popped it, where
the chain section says `popped_while_resolving at_once` (12th Chains, by
interpretation; inherited since), or as a link of that chain, resolving next,
where it says `as_link`."""

from __future__ import annotations

import pytest
from edited_rules import with_rule
from kotc import Game
from kotc.dsl import load_edition
from kotc.engine.decks import default_decks
from kotc.engine.primitives import place_counters


def _as_link(rs):
    return with_rule(rs, "chain", "setting popped_while_resolving", how="as_link")


@pytest.mark.parametrize("edition", ["12th", "17th"])
def test_a_counter_popped_while_the_chain_resolves_acts_as_the_setting_says(edition):
    rs = load_edition(edition)
    popped = rs.setting("chain", "popped_while_resolving")
    assert popped.how == "at_once" and popped.cite.interpretation
    kind = next(k for k, c in rs.counters.items() if c.counter_kind == "proactive")
    for rules, links in ((rs, 1), (_as_link(rs), 2)):
        decks, _ = default_decks(rules)
        g = Game.new(rules, decks, seed=1)
        card = next(c.id for c in g.cards if c.type == "minion")
        g.move(card, 0, g.engine.counter_zone, (), None)
        place_counters(g, card, kind, 1, 0, None)
        # a chain of one link, resolving
        g.referee.add_link(g, g.engine.referee.counters[kind].body.id,
                           {"you": None, "host": card}, card, 0)
        g.chain.resolving = True
        frames = len(g.frames)
        g.pop_counter(card, kind, 0, None)
        assert len(g.chain.links) == links, rules.name
        assert len(g.frames) == frames + (links == 1), rules.name
