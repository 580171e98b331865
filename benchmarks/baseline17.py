"""A hand-written engine for the vanilla 17th-edition rules, as a yardstick.

No DSL, no rule files: the 17th rulebook's turn written straight in Python for
minions without abilities — setup (shuffle, roll for first player, draw 5,
mulligan), Draw Phase (skipped by the first player's first turn), sow up to 1,
summon, a window at each phase to end it or agree to stop the game, battles
(enlist in formation order, victim once per Battle Phase, defense, dice per
SP, allocation in formation order, piercing damage, leftover dice to the victim
or its controller), recovery, and the endgame with the
winner criteria. It asks the same kinds of decisions as the DSL engine so that
decisions per second compare like with like. Not a tested part of kotc.

Two ways to run it: bare (`legal_actions()` is a list of plain values, `apply`
takes an index, nothing is recorded), and with the engine's API (`api=True`):
legal actions are `Action` objects, `apply` checks the action is legal and
returns the events it caused, each citing its rule, as `interpreter.game.Game`
does. The second is the like-for-like yardstick for the DSL engine's API.
"""

from __future__ import annotations

import random
from collections.abc import Generator

from kotc.runtime.actions import Action, IllegalAction
from kotc.runtime.events import Logged


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

# every phase's window: end it, or agree that there is no reason to continue
# (open at any time, 17th §Endgame)
WINDOW = ["end", "agree"]

# the rules each event cites
_TURN, _SOW = "17th §Turn Order", "17th §Sow"
_SUMMON, _BATTLE, _END = "17th §Summon", "17th §Battles", "17th §Endgame"


class HandGame:
    """legal_actions() / apply(i): the same API shape as `interpreter.game.Game`."""

    def __init__(
        self, decks: list[list[tuple[int, int, int]]], seed: int = 0, api: bool = False
    ):
        self.api = api
        self.events: list[Logged] = []
        self.options: list[Action] = []
        self.rng = random.Random(seed)
        self.players = [Player(), Player()]
        n = 0
        for seat, deck in enumerate(decks):
            for level, sp, hp in deck:
                self.players[seat].deck.append(Minion(n, seat, level, sp, hp))
                n += 1
        self.over = False
        self.winner = None
        self.agreed = [False, False]
        self.flow = self._game()
        self.decision: Decision = next(self.flow)
        if api:
            self._offer()

    def legal_actions(self) -> list:
        if self.over:
            return []
        return self.options if self.api else self.decision[1]

    def apply(self, action) -> list[Logged] | None:
        if not self.api:
            try:
                self.decision = self.flow.send(action)
            except StopIteration:
                self.over = True
            return None
        if self.over:
            raise IllegalAction("the game is over")
        options = self.options
        for index, chosen in enumerate(options):  # noqa: B007 (used after the loop)
            if chosen is action:
                break
        else:
            if action not in options:
                raise IllegalAction(f"'{action}' is not legal [17th §Turn Order]")
            index = options.index(action)
            chosen = options[index]
        start = len(self.events)
        self._log("decide", _TURN, player=self.decision[0], action=chosen.label)
        try:
            self.decision = self.flow.send(index)
            self._offer()
        except StopIteration:
            self.over = True
        return self.events[start:]

    def _offer(self) -> None:
        self.options = [
            Action("pick", o, f"Vanilla#{o}") if type(o) is int else Action(o, None, o)
            for o in self.decision[1]
        ]

    def _log(self, kind: str, cite: str, **data) -> None:
        self.events.append(Logged(kind, data, cite))

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
            if self.api:
                self._log("turn", _TURN, turn=turn, player=active)
            if turn != 1:
                self._draw(p, 1)
                if self._ended():
                    return
                if (yield (active, WINDOW)) == 1 and self._agree(active):
                    return
            i = yield (active, [c.id for c in p.hand] + ["done"])
            if i < len(p.hand):
                p.granary.append([p.hand.pop(i), False])
                if self.api:
                    self._log("move", _SOW, to="granary", player=active)
            if (yield (active, WINDOW)) == 1 and self._agree(active):
                return
            while True:  # Action Phase: summon or end
                affordable = [
                    c for c in p.hand if c.level <= sum(1 for g in p.granary if not g[1])
                ]
                i = yield (active, [c.id for c in affordable] + WINDOW)
                if i == len(affordable):
                    break
                if i > len(affordable):
                    if self._agree(active):
                        return
                    continue
                card = affordable[i]
                paid = 0
                for g in p.granary:
                    if paid < card.level and not g[1]:
                        g[1] = True
                        paid += 1
                p.hand.remove(card)
                card.exhausted = True
                p.field.append(card)
                if self.api:
                    self._log("pay", _SUMMON, player=active, resources=paid)
                    self._log("move", _SUMMON, card=card.id, to="battlefield")
            victims: list = []
            while True:  # Battle Phase
                ready = [c for c in p.field if not c.exhausted]
                i = yield (active, (["battle"] if ready else []) + WINDOW)
                if ready:
                    i -= 1
                if i == 0:
                    break
                if i == 1:
                    if self._agree(active):
                        return
                    continue
                yield from self._battle(active, victims)
                if self._ended():
                    return
            if self.api:
                self._log("phase", _TURN, phase="recovery", player=active)
            for q in self.players:  # Recovery Phase
                for c in q.field:
                    c.exhausted = False
                    c.cur_sp, c.cur_hp = c.sp, c.hp
                for g in q.granary:
                    g[1] = False
            if self._ended():
                return
            if (yield (active, WINDOW)) == 1 and self._agree(active):
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
        if self.api:
            self._log("attack", _BATTLE, attacker=active, team=[c.id for c in team])
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
        if self.api:
            self._log("roll", _BATTLE, player=active, values=list(attack))
            self._log("roll", _BATTLE, player=1 - active, values=list(guard))
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
        if self.api:
            self._log("inflict", _BATTLE, target=m.id, amount=amount)
        if amount >= before:
            owner = self.players[m.owner]
            owner.field.remove(m)
            owner.grave.append(m)
            if self.api:
                self._log("move", _BATTLE, card=m.id, to="grave")
            if m in team:
                team.remove(m)
            if amount > before:
                self._hurt(owner, amount - before)

    def _hurt(self, p: Player, amount: int) -> None:
        p.hp = max(0, p.hp - amount)
        if self.api:
            self._log("lose_hp", _BATTLE, amount=amount)

    def _draw(self, p: Player, n: int) -> None:
        for _ in range(n):
            if not p.deck:
                p.decked = True
                return
            p.hand.append(p.deck.pop())
            if self.api:
                self._log("move", _TURN, to="hand")

    def _roll_off(self) -> int:
        while True:
            a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
            if a != b:
                return 0 if a > b else 1

    def _agree(self, seat: int) -> bool:
        """The seat agrees there is no reason to go on; True once all have."""
        self.agreed[seat] = True
        return all(self.agreed) and self._ended()

    def _ended(self) -> bool:
        alive = [p for p in self.players if p.hp > 0]
        decked = any(p.decked for p in self.players)
        if len(alive) > 1 and not decked and not all(self.agreed):
            return False
        pool = [p for p in self.players if not p.decked] or self.players
        best = max(p.hp for p in pool)
        pool = [p for p in pool if p.hp == best]
        self.winner = self.players.index(pool[0]) if len(pool) == 1 else None
        if self.api:
            self._log("game_over", _END, winner=self.winner)
        return True
