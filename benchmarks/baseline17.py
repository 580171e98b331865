"""A hand-written engine for the vanilla 17th-edition rules, as a yardstick.

No DSL, no rule files: the 17th rulebook's turn written straight in Python for
minions without abilities — setup (shuffle, roll for first player, draw 5,
mulligan), Draw Phase (skipped by the first player's first turn), sow up to 1,
summon, battles (enlist in formation order, victim once per Battle Phase,
defense, dice per SP, allocation in formation order, piercing damage, leftover
dice to the victim or its controller), recovery, and the endgame with the
winner criteria. It asks the same kinds of decisions as the DSL engine so that
decisions per second compare like with like. Not a tested part of kotc.
"""

from __future__ import annotations

import random
from collections.abc import Generator


class Minion:
    __slots__ = ("id", "owner", "level", "sp", "hp", "cur_sp", "cur_hp", "exhausted")

    def __init__(self, id: int, owner: int, level: int, sp: int, hp: int):
        self.id, self.owner, self.level, self.sp, self.hp = id, owner, level, sp, hp
        self.cur_sp, self.cur_hp, self.exhausted = sp, hp, False


class Player:
    __slots__ = ("hp", "deck", "hand", "field", "granary", "grave", "decked")

    def __init__(self):
        self.hp = 35
        self.deck: list[Minion] = []
        self.hand: list[Minion] = []
        self.field: list[Minion] = []
        self.granary: list[list] = []  # [card, exhausted]
        self.grave: list[Minion] = []
        self.decked = False


Decision = tuple  # (player, options)


class HandGame:
    """legal_actions() / apply(i): the same API shape as `interpreter.game.Game`."""

    def __init__(self, decks: list[list[tuple[int, int, int]]], seed: int = 0):
        self.rng = random.Random(seed)
        self.players = [Player(), Player()]
        n = 0
        for seat, deck in enumerate(decks):
            for level, sp, hp in deck:
                self.players[seat].deck.append(Minion(n, seat, level, sp, hp))
                n += 1
        self.over = False
        self.winner = None
        self.flow = self._game()
        self.decision: Decision = next(self.flow)

    def legal_actions(self) -> list:
        return [] if self.over else self.decision[1]

    def apply(self, index: int) -> None:
        try:
            self.decision = self.flow.send(index)
        except StopIteration:
            self.over = True

    # --- the rules ----------------------------------------------------------------------

    def _game(self) -> Generator[Decision, int, None]:
        for p in self.players:
            self.rng.shuffle(p.deck)
        first = self._roll_off()
        for seat in (first, 1 - first):
            p = self.players[seat]
            self._draw(p, 5)
            if (yield (seat, ["no", "yes"])) == 1:
                buried = []
                while p.hand:
                    i = yield (seat, [c.id for c in p.hand] + ["done"])
                    if i == len(p.hand):
                        break
                    buried.append(p.hand.pop(i))
                for c in buried:
                    p.deck.insert(0, c)
                self._draw(p, len(buried))
        turn, active = 0, first
        while True:
            turn += 1
            p, _foe = self.players[active], self.players[1 - active]
            if turn != 1:
                self._draw(p, 1)
                if self._ended():
                    return
            i = yield (active, [c.id for c in p.hand] + ["done"])
            if i < len(p.hand):
                p.granary.append([p.hand.pop(i), False])
            while True:  # Action Phase: summon or end
                affordable = [
                    c for c in p.hand if c.level <= sum(1 for g in p.granary if not g[1])
                ]
                i = yield (active, [c.id for c in affordable] + ["end"])
                if i == len(affordable):
                    break
                card = affordable[i]
                paid = 0
                for g in p.granary:
                    if paid < card.level and not g[1]:
                        g[1] = True
                        paid += 1
                p.hand.remove(card)
                card.exhausted = True
                p.field.append(card)
            victims: list = []
            while True:  # Battle Phase
                ready = [c for c in p.field if not c.exhausted]
                i = yield (active, (["battle"] if ready else []) + ["end"])
                if not ready or i == 1:
                    break
                yield from self._battle(active, victims)
                if self._ended():
                    return
            for q in self.players:  # Recovery Phase
                for c in q.field:
                    c.exhausted = False
                    c.cur_sp, c.cur_hp = c.sp, c.hp
                for g in q.granary:
                    g[1] = False
            if self._ended():
                return
            active = 1 - active

    def _battle(self, active: int, victims: list):
        p, foe = self.players[active], self.players[1 - active]
        team: list[Minion] = []
        while True:
            ready = [c for c in p.field if not c.exhausted and c not in team]
            if not ready:
                break
            i = yield (active, [c.id for c in ready] + (["done"] if team else []))
            if i == len(ready):
                break
            team.append(ready[i])
        choices = ([1 - active] if ("player", 1 - active) not in victims else []) + [
            c for c in foe.field if c.id not in victims
        ]
        if not choices:
            return
        i = yield (active, [str(v) for v in choices])
        victim = choices[i]
        victims.append(("player", victim) if isinstance(victim, int) else victim.id)
        for c in team:
            c.exhausted = True
        defense: list[Minion] = []
        while True:
            ready = [c for c in foe.field if not c.exhausted and c not in defense]
            if not ready:
                break
            i = yield (1 - active, [c.id for c in ready] + ["done"])
            if i == len(ready):
                break
            defense.append(ready[i])
        for c in defense:
            c.exhausted = True
        attack = [self.rng.randint(1, 6) for _ in range(sum(c.cur_sp for c in team))]
        guard = [self.rng.randint(1, 6) for _ in range(sum(c.cur_sp for c in defense))]
        for seat, dice, targets in ((active, attack, defense), (1 - active, guard, team)):
            while dice and targets:
                values = sorted(set(dice))
                i = yield (seat, values)
                dice.remove(values[i])
                self._damage(targets[0], values[i], targets)
        left = sum(attack)
        if left:
            if isinstance(victim, int):
                self._hurt(self.players[victim], left)
            elif victim in foe.field:
                self._damage(victim, left, [])
            else:
                self._hurt(foe, left)

    def _damage(self, m: Minion, amount: int, team: list) -> None:
        before = m.cur_hp
        m.cur_hp = max(0, m.cur_hp - amount)
        if amount >= before:
            owner = self.players[m.owner]
            owner.field.remove(m)
            owner.grave.append(m)
            if m in team:
                team.remove(m)
            if amount > before:
                self._hurt(owner, amount - before)

    def _hurt(self, p: Player, amount: int) -> None:
        p.hp = max(0, p.hp - amount)

    def _draw(self, p: Player, n: int) -> None:
        for _ in range(n):
            if not p.deck:
                p.decked = True
                return
            p.hand.append(p.deck.pop())

    def _roll_off(self) -> int:
        while True:
            a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
            if a != b:
                return 0 if a > b else 1

    def _ended(self) -> bool:
        alive = [p for p in self.players if p.hp > 0]
        if len(alive) > 1 and not any(p.decked for p in self.players):
            return False
        pool = [p for p in self.players if not p.decked] or self.players
        best = max(p.hp for p in pool)
        pool = [p for p in pool if p.hp == best]
        self.winner = self.players.index(pool[0]) if len(pool) == 1 else None
        return True
