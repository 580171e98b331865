"""Digests of seeded games: the net a change to the engine is checked against.

For each shipped edition, random agents play seeded games on its starter decks
(two and three players) and on generated vanilla decks; each game's digest hashes
the options offered at every decision (kind, value, label), the action taken, the
events logged (kind, data, citation) and the facts of the final state (`facts`:
players, cards, dice, the turn, the chain's links, the battle's record, what the
game keeps and counts), not how the engine keeps its place in the flow or in a
program (tasks, frames, block numbers), which is the engine's own business. A change that
keeps every digest keeps behaviour; one that changes a digest on purpose (a rule
fixed) names the ruling that shows the fix when it records the new digests:

    python tests/golden/seeded.py --write      # record (after a deliberate change)
    python tests/golden/seeded.py              # compare, and name the games that differ
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from kotc.dsl import load_edition
from kotc.engine.decks import default_decks, vanilla_deck
from kotc.engine.game import Engine, Game, card_pool
from kotc.play.agents import RandomAgent
from kotc.runtime.actions import Action
from kotc.runtime.values import encode

EDITIONS = ("11th", "12th", "13th", "17th")
RECORD = Path(__file__).with_name("seeded_games.json")
# (label, players, seeds, deck source)
GROUPS = (("starter-2p", 2, range(30), "starter"),
          ("starter-3p", 3, range(15), "starter"),
          ("vanilla-2p", 2, range(10), "vanilla"))


def _action(a: Action) -> list:
    return [a.kind, repr(a.value), a.label]


def game_digest(rs, decks, engine, players: int, seed: int) -> str:
    """The digest of one seeded game between random agents."""
    h = hashlib.sha256()
    g = Game.new(rs, decks, seed=seed, players=players, engine=engine)
    agents = [RandomAgent(seed * 7 + i) for i in range(players)]
    seen = 0
    while not g.is_over:
        legal = g.legal_actions()
        h.update(json.dumps([g.current_player, [_action(a) for a in legal]]).encode())
        choice = agents[g.current_player].act(g)
        h.update(json.dumps(_action(choice)).encode())
        g.apply(choice)
        for e in g.events[seen:]:
            h.update(json.dumps(e.to_json(), sort_keys=True, default=repr).encode())
        seen = len(g.events)
    h.update(json.dumps(facts(g), sort_keys=True).encode())
    return h.hexdigest()[:16]


def facts(g: Game) -> dict:
    """What the game's final state holds, as JSON data: its players, cards, dice and
    random generator, the turn, the open chain's links, the battle's record, what
    the game keeps per phase, its flags, tallies and outcome."""
    ch, b = g.chain, g.battle
    return {
        "players": [p.to_json() for p in g.players],
        "cards": [c.to_json() for c in g.cards],
        "rng": g.rng.to_json(),
        "dice": encode(g.dice),
        "turn": [g.turn, int(g.active), int(g.first_player), g.phase, g.step],
        "chain": None if ch is None else {
            "links": [[encode(link["source"]), int(link["actor"]), link["negated"],
                       link["counter"]] for link in ch.links],
            "last_actor": int(ch.last_actor), "resolving": ch.resolving},
        "battle": None if b is None else {
            "attacker": int(b.attacker),
            "defender": None if b.defender is None else int(b.defender),
            "victim": encode(b.victim), "forced": b.forced,
            "teams": [list(b.attack_team), list(b.defense_team)],
            "dice": [encode(b.attack_dice), encode(b.defense_dice)],
            "skipped": list(b.skipped)},
        "victims": encode(g.victims),
        "recent": encode(g.recent),
        "flags": encode(g.flags),
        "usage": g.usage,
        "outcome": encode(g.outcome),
        "over": g.is_over,
        "applied": g.applied,
    }


def digests() -> dict[str, dict[str, list[str]]]:
    """Every group's game digests, per edition."""
    out: dict[str, dict[str, list[str]]] = {}
    for name in EDITIONS:
        rs = load_edition(name)
        per: dict[str, list[str]] = {}
        for label, players, seeds, source in GROUPS:
            decks = default_decks(rs)[0] if source == "starter" else [
                vanilla_deck(rs, seed=1), vanilla_deck(rs, seed=2)]
            engine = Engine(rs, card_pool(decks))
            per[label] = [game_digest(rs, decks, engine, players, s) for s in seeds]
        out[name] = per
    return out


def differences(recorded: dict, now: dict) -> list[str]:
    """The games whose digests differ, named by edition, group and seed."""
    found = []
    for edition, groups in recorded.items():
        for label, games in groups.items():
            for seed, (a, b) in enumerate(zip(games, now.get(edition, {}).get(label, []),
                                              strict=False)):
                if a != b:
                    found.append(f"{edition} {label} seed {seed}")
    return found


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", action="store_true", help="record the digests anew")
    args = p.parse_args()
    now = digests()
    if args.write:
        RECORD.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"recorded {RECORD.name}")
        return 0
    diff = differences(json.loads(RECORD.read_text()), now)
    print("\n".join(diff) or "every seeded game as recorded")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
