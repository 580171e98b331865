"""What a seat observes, as text and as a fixed-size numeric tensor.

Both are drawn only from what the seat may see (`kotc.engine.view`): a card it
may not look at adds to its zone's count and to nothing else (its id would tell
it: ids follow the deck lists). The tensor's layout depends only on the ruleset,
the card pool and the number of players (`ObservationSpec`), so a network sees
the same feature at the same place in every game of them:

- the table: the observing seat, the deciding seat, the active seat and the
  first player (one-hot each), the turn, the phase (one-hot), whether the game
  is over, the chain's length, whether a battle is under way;
- each player: HP, eliminated, zombie, and how many cards lie in each zone;
- each card the game can hold, by id: whether the seat sees it, and then its
  holder and zone (one-hot), design (one-hot over the pool's designs),
  exhausted, face up, fatigued, pawn, its stats, and its counters by kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from kotc.engine.game import Engine, Game
from kotc.engine.view import can_see, view

Tensor = npt.NDArray[np.float32]


class ObservationSpec:
    """The layout of the observation tensor of games of one engine and table.

    Args:
        engine: the compiled ruleset and card pool.
        players: how many play.
        cards: how many card places the tensor has (the action space's `cards`:
            the cards dealt and room for pawns).
    """

    def __init__(self, engine: Engine, players: int, cards: int):
        rs = engine.rs
        self.players = players
        self.cards = cards
        self.zones = tuple(rs.zones)
        self.phases = tuple(p.name for p in rs.phases)
        self.designs = tuple(sorted(engine.designs))
        self.stats = tuple(rs.stats)
        self.counters = tuple(rs.counters)
        p, z = players, len(self.zones)
        # the named pieces, in order: (name, shape)
        self.pieces: list[tuple[str, tuple[int, ...]]] = [
            ("observer", (p,)), ("deciding", (p,)), ("active", (p,)),
            ("first_player", (p,)), ("turn", (1,)), ("phase", (len(self.phases),)),
            ("over", (1,)), ("chain", (1,)), ("battle", (1,)),
            ("hp", (p,)), ("eliminated", (p,)), ("zombie", (p,)),
            ("zone_sizes", (p, z)),
            ("card_seen", (cards,)), ("card_holder", (cards, p)),
            ("card_zone", (cards, z)), ("card_design", (cards, len(self.designs))),
            ("card_flags", (cards, 4)), ("card_stats", (cards, len(self.stats))),
            ("card_counters", (cards, len(self.counters))),
        ]
        self.size = sum(int(np.prod(shape)) for _, shape in self.pieces)
        self._zone = {name: i for i, name in enumerate(self.zones)}
        self._phase = {name: i for i, name in enumerate(self.phases)}
        self._design = {name: i for i, name in enumerate(self.designs)}
        self._counter = {name: i for i, name in enumerate(self.counters)}

    def views(self, tensor: Tensor) -> dict[str, Tensor]:
        """Named views into a flat tensor of this layout (as OpenSpiel's observers
        keep them in `dict`)."""
        named, at = {}, 0
        for name, shape in self.pieces:
            n = int(np.prod(shape))
            named[name] = tensor[at:at + n].reshape(shape)
            at += n
        return named

    def fill(self, game: Game, seat: int, tensor: Tensor) -> None:
        """Write what `seat` observes of `game` into `tensor` (of `size` floats).

        Raises:
            ValueError: the game holds more cards than the layout has places for.
        """
        if len(game.cards) > self.cards:
            raise ValueError(
                f"the game holds {len(game.cards)} cards; the observation has room "
                f"for {self.cards}"
            )
        tensor.fill(0.0)
        v = self.views(tensor)
        v["observer"][seat] = 1
        d = game.decision
        if d is not None and not game.is_over:
            v["deciding"][d.player] = 1
        v["active"][game.active] = 1
        v["first_player"][game.first_player] = 1
        v["turn"][0] = game.turn
        if game.phase in self._phase:
            v["phase"][self._phase[game.phase]] = 1
        v["over"][0] = game.is_over
        v["chain"][0] = len(game.chain.links) if game.chain is not None else 0
        v["battle"][0] = game.battle is not None
        for p in game.players:
            v["hp"][p.seat] = p.hp or 0
            v["eliminated"][p.seat] = p.eliminated
            v["zombie"][p.seat] = game.is_zombie(p.seat)
            for zone, cards in p.zones.items():
                v["zone_sizes"][p.seat, self._zone[zone]] = len(cards)
        seen, holder, zones = v["card_seen"], v["card_holder"], v["card_zone"]
        designs, flags, stats = v["card_design"], v["card_flags"], v["card_stats"]
        counters = v["card_counters"]
        for c in game.cards:
            if not c.zone or not can_see(game, seat, c.id):
                continue  # out of the game, or not for this seat to see
            i = c.id
            seen[i] = 1
            holder[i, c.controller] = 1
            zones[i, self._zone[c.zone]] = 1
            if c.design in self._design:
                designs[i, self._design[c.design]] = 1
            flags[i] = (c.exhausted, c.face_up, c.fatigued, c.pawn)
            for k, stat in enumerate(self.stats):
                stats[i, k] = c.stats.get(stat, 0)
            for kind, _ in c.counters:
                if kind in self._counter:
                    counters[i, self._counter[kind]] += 1

    def tensor(self, game: Game, seat: int) -> Tensor:
        """What `seat` observes of `game`, as a new flat float32 array."""
        t = np.zeros(self.size, np.float32)
        self.fill(game, seat, t)
        return t


def observation_string(game: Game, seat: int) -> str:
    """What `seat` observes of `game`, as text: the table, each player's HP and
    zones (the cards it sees by name and id, the others counted), the chain, the
    battle, and who decides on what."""
    seen = view(game, seat)
    lines = [
        f"seat {seat}; turn {seen['turn']}, player {seen['active']}'s; "
        f"phase {seen['phase'] or '-'}; step {seen['step'] or '-'}"
    ]
    for p in seen["players"]:
        state = " (eliminated)" if p["eliminated"] else " (zombie)" if p["zombie"] else ""
        lines.append(f"player {p['seat']}: {p['hp']} HP{state}")
        for zone, cards in p["zones"].items():
            if cards:
                lines.append(f"  {zone}: {_cards(cards)}")
    if seen["chain"]:
        links = "; ".join(f"{c['link']}. player {c['player']}: {c.get('source', '-')}"
                          + (" (negated)" if c.get("negated") else "")
                          for c in seen["chain"])
        lines.append(f"chain: {links}")
    if seen["battle"]:
        b = seen["battle"]
        lines.append(
            f"battle: player {b['attacker']} attacks player {b['defender']}; teams "
            f"{b['attack_team']} against {b['defense_team']}; dice "
            f"{b['attack_dice']} against {b['defense_dice']}"
        )
    if seen["decision"]:
        lines.append(f"player {seen['decision']['player']} decides: "
                     f"{seen['decision']['prompt']}")
    if seen["result"]:
        r = seen["result"]
        lines.append(f"over: winner {r.get('winner')}, tied {r.get('tied')}, "
                     f"by {r.get('criterion')} ({r.get('condition')})")
    return "\n".join(lines)


def _cards(cards: Sequence[Mapping[str, Any]]) -> str:
    shown, hidden, exhausted = [], 0, 0
    for c in cards:
        if c.get("hidden"):
            hidden += 1
            exhausted += bool(c.get("exhausted"))
            continue
        marks = [f"{k}={v}" for k, v in sorted(c["stats"].items())]
        marks += [m for m in ("exhausted", "fatigued", "face_down", "pawn") if c.get(m)]
        marks += [f"{kind} counter" for kind, _ in c.get("counters", ())]
        marks += c.get("marks", [])
        marked = f" ({', '.join(marks)})" if marks else ""
        shown.append(f"{c['name']}#{c['id']}{marked}")
    if hidden:
        tired = f" ({exhausted} exhausted)" if exhausted else ""
        shown.append(f"{hidden} hidden{tired}")
    return ", ".join(shown)
