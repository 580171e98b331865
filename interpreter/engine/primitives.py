"""The primitives: every change a program or the flow makes to a game's state.

Programs and the flow change the state only through these functions (and the
decisions and events they record). Each takes the game first, and the citation
of the rule that makes the change last; what it changes it logs as a typed event
(`kotc.runtime.events`).

Derived fields
--------------
A game keeps a few fields that are computed from the rest of its state, so the
hot paths need not look through every card. The primitives keep them in step;
`tests/interpreter/test_derived.py` recomputes each from scratch after every step
of fuzzed games and compares:

- `counters_in_play`: the number of counters of each kind on cards in a zone (no
  entry for none). Kept by `place_counters`, `strip_counters`, `take_counter`
  and `clear_counters` (a card leaving its zone loses its counters: `move`,
  `banish`).
- `marked`: the cards that hold changes until a time (`timed`) or marks
  (`tags`), exactly. Kept by `assign` and `change` (a timed change), `mark`,
  `reset_stats`, `expire` and `leave` (a card leaving its zone loses what lasts
  until it leaves).
- `in_game`: the seats of the players not eliminated, in seat order; never
  changed in place (a clone may share it). Kept by `leave_game`.
- `namer`: the name and design of every card, by id (labels of actions are made
  from it). Kept by `create_pawn` and `Game.put`, the only makers of cards once
  a game is dealt.
- `last_controller`: for a card in a zone that is in play, its controller. Kept
  by `move` and `give`.
- `away`: the cards in a zone whose last controller is not their controller
  (they lie with a player other than the one who last had them in play), so the
  cards a player may use there (`used_by last_controller`) are found without
  looking through the other players' zones. Kept by `move` and `give`, and by
  `banish` and a pawn's removal (a card in no zone is in none).
- the battle's teams: a card in a team is in the team's zone under the team's
  player, where the rules drop a card that leaves from the record's teams
  (`drop leavers from attack_team, defense_team`).
  Kept by `leave` (`move`, `banish`) and `give`, which withdraw it.
- `dirty`: something the lose and end conditions read may have changed since
  they were last looked at: a card entered or left a zone they read (`move`,
  `give`, `banish`), a player's HP changed (`assign`, `pay`), a player was
  eliminated (`eliminate`), or an event was emitted. While it is false, no lose
  or end condition holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kotc.dsl import ast
from kotc.runtime.events import (
    Eliminated,
    Given,
    HpChanged,
    Moved,
    Negated,
    PaidHp,
    PaidResources,
    PawnMade,
    Placed,
    Removed,
    Rerolled,
    Rolled,
    Shuffled,
    StatChanged,
    StepSkipped,
    Zombie,
)
from kotc.runtime.state import CardState
from kotc.runtime.values import DieRef, Seat

if TYPE_CHECKING:
    from .game import Game


def _text(cite: ast.Citation | None) -> str | None:
    """A rule's citation as the log writes it."""
    return None if cite is None else cite.text


# --- cards in zones -------------------------------------------------------------------


def move(g: Game, card: int, seat: int, zone: str, mods: tuple[str, ...],
         cite: ast.Citation | None) -> None:
    """Put a card in `seat`'s `zone`: on top (`bottom`), faced as the zone shows
    cards unless `face_up`/`face_down` say, ready unless `exhausted`. A pawn moved
    out of the zone pawns live in leaves the game instead."""
    c = g.cards[card]
    old_zone = c.zone
    if not old_zone:
        return  # removed from the game
    engine = g.engine
    watched = engine.watched_zones
    listed = g.players[c.controller].zones[old_zone]
    if listed and listed[-1] == card:  # from the top (a draw): no search
        listed.pop()
    else:
        try:  # noqa: SIM105 (no calls, as `suppress` makes: a common step)
            listed.remove(card)
        except ValueError:
            pass  # not listed in its zone
    if c.pawn and engine.pawn_zone and zone != engine.pawn_zone:
        leave(g, c)  # its team, counters and marks go with it
        c.zone = ""
        g.away.discard(card)
        if old_zone in watched:
            g.dirty = True
        g.events.append(Removed(card, c.name, _text(engine.pawn_cite)))
        return
    target = g.players[seat].zones[zone]
    if not mods:  # most often: on top, faced as its zone shows cards, ready
        target.append(card)
        c.face_up = engine.face_up[zone]
        c.exhausted = False
    else:
        if "bottom" in mods:
            target.insert(0, card)
        else:
            target.append(card)
        c.face_up = ("face_up" in mods) or (
            "face_down" not in mods and engine.face_up[zone]
        )
        c.exhausted = "exhausted" in mods
    moved_from = c.controller
    if old_zone != zone or moved_from != seat:
        leave(g, c)
    c.zone, c.controller = zone, int(seat)
    if zone in engine.in_play:
        c.last_controller = c.controller
        if old_zone != zone or moved_from != seat:
            g.arrived.add(card)
    if c.last_controller != c.controller:
        g.away.add(card)
    elif g.away:
        g.away.discard(card)
    if zone in watched or old_zone in watched:
        g.dirty = True
    g.events.append(Moved(card, c.name, zone, seat, None if cite is None else cite.text))
    if "moved" in engine.listened:
        g.recent.append(["moved", {"target": card}])


def leave(g: Game, c: CardState) -> None:
    """A card leaving its zone: its counters, what lasts until it leaves, its
    changed stats and fatigue go; it leaves a battle team it is in."""
    if c.counters:
        clear_counters(g, c)
    if c.tags:
        c.tags = {t: u for t, u in c.tags.items() if u != "leave"}
    if c.timed or c.stats != c.printed:  # most often, nothing to put back
        stats, printed = c.stats, c.printed
        if not c.timed and stats.keys() == printed.keys():
            stats.update(printed)  # what the loop below does, at once
        else:
            for stat in stats:
                if stat not in c.timed:
                    stats[stat] = printed.get(stat, stats[stat])
    if not (c.timed or c.tags):
        g.marked.discard(c.id)
    c.fatigued = False
    if g.battle is not None and g.engine.dropping:
        withdraw(g, c.id)


def give(g: Game, card: int, seat: int, cite: ast.Citation | None) -> None:
    """`seat` takes control of a card where it lies."""
    c = g.cards[card]
    if c.zone and c.controller != seat:
        zones = g.players[c.controller].zones[c.zone]
        if card in zones:
            zones.remove(card)
        g.players[seat].zones[c.zone].append(card)
        c.controller = int(seat)
        if c.zone in g.engine.in_play:
            c.last_controller = c.controller
            g.arrived.add(card)
        if c.last_controller != c.controller:
            g.away.add(card)
        else:
            g.away.discard(card)
        if c.zone in g.engine.watched_zones:
            g.dirty = True
        if g.battle is not None and g.engine.dropping:
            withdraw(g, card)
        g.events.append(Given(card, seat, _text(cite)))


def banish(g: Game, card: int, cite: ast.Citation | None) -> None:
    """Remove a card from the game."""
    c = g.cards[card]
    if c.zone:
        zone = g.players[c.controller].zones[c.zone]
        if card in zone:
            zone.remove(card)
        leave(g, c)  # its team, counters and marks go with it
        if c.zone in g.engine.watched_zones:
            g.dirty = True
        c.zone = ""
        g.away.discard(card)
        g.events.append(Removed(card, c.name, _text(cite)))


def shuffle(g: Game, cards: list[int], cite: ast.Citation | None) -> None:
    """Shuffle these cards of one zone among their places (a whole zone, as it lies)."""
    if not cards:
        return
    c = g.cards[cards[0]]
    zone = g.players[c.controller].zones[c.zone]
    if cards == zone:  # the whole zone, as it lies (`shuffle you.deck`)
        g.rng.shuffle(zone)
    else:
        positions = sorted(zone.index(x) for x in cards if x in zone)
        chosen = [zone[i] for i in positions]
        g.rng.shuffle(chosen)
        for i, x in zip(positions, chosen, strict=True):
            zone[i] = x
    g.events.append(Shuffled(c.controller, c.zone, _text(cite)))


def create_pawn(g: Game, seat: int, zone: str, source: int | None,
                values: dict[str, Any], cite: ast.Citation | None) -> int:
    """A pawn: a minion that is no card, its printed stats copied from `source`
    and/or given; returns its id."""
    printed = dict(g.cards[source].printed) if source is not None else {}
    printed.update(values)
    base = g.cards[source] if source is not None else None
    c = CardState(
        len(g.cards),
        f"pawn of {base.name}" if base else "pawn",
        g.engine.pawn_type or "",  # the `pawns` setting's type (none without it)
        int(seat),
        printed,
        base.design if base else None,
        pawn=True,
    )
    g.cards.append(c)
    g.namer = g.namer.adding(c)
    g.players[seat].zones[zone].append(c.id)
    c.zone, c.face_up = zone, True
    g.arrived.add(c.id)
    g.events.append(PawnMade(c.id, int(seat), printed, _text(cite)))
    return c.id


# --- orientation and stats ------------------------------------------------------------

# These take every card a statement names at once: recovery names every card in play.


def set_exhausted(g: Game, cards: list[int], flag: bool,
                  cite: ast.Citation | None) -> None:
    """Exhaust (or ready) the cards that lie in exhaustible zones."""
    states, exhaustible = g.cards, g.engine.exhaustible
    for card in cards:
        c = states[card]
        # most often, readying cards ready already: their zones not looked at
        if c.exhausted is not flag and c.zone in exhaustible:
            c.exhausted = flag


def fatigue(g: Game, cards: list[int], flag: bool, cite: ast.Citation | None) -> None:
    """Fatigue (or lift the fatigue of) the cards; only cards recovery acts on can
    be fatigued."""
    states, exhaustible = g.cards, g.engine.exhaustible
    for card in cards:
        c = states[card]
        if flag and c.zone not in exhaustible:
            continue  # like exhaustion: only cards recovery acts on can be fatigued
        c.fatigued = flag
        if flag:
            c.fatigued_turn = g.turn


def change(g: Game, obj: Any, name: str, delta: int, until: str | None,
           cite: ast.Citation | None) -> None:
    """Add `delta` to a card's stat, a player's HP or an event's field."""
    # a card's, most often: told by its type, the others not looked for
    if type(obj) is not int and isinstance(obj, Seat):
        current = g.players[obj].hp
    elif type(obj) is not int and isinstance(obj, dict):
        current = obj.get(name) or 0
    else:
        current = g.cards[obj].stats.get(name, 0)
    assign(g, obj, name, current + delta, until, cite, delta)


def assign(g: Game, obj: Any, name: str, value: Any, until: str | None,
           cite: ast.Citation | None, delta: int | None = None) -> None:
    """Set a card's stat (within its floor; until a time, if `until`), a player's
    HP (within the HP floor) or an event's field. A change that is undone later
    (`until`) is kept apart, so that `expire` can undo it.

    Raises:
        LimitExceeded: a value past the bound on a stat (`runtime.limits`).
    """
    g.engine.bounds.check_stat(value, cite)
    if type(obj) is not int:  # not a card (most often one)
        if isinstance(obj, dict):
            obj[name] = value
            return
        if isinstance(obj, Seat):
            g.dirty = True
            floor = g.engine.hp_floor
            p = g.players[obj]
            before = p.hp
            p.hp = max(value, floor) if floor is not None else value
            if p.hp != before:
                g.events.append(HpChanged(int(obj), p.hp, p.hp - before, _text(cite)))
                zombies = g.engine.zombies_cite
                if zombies is not None and p.hp <= 0 < before:
                    g.events.append(Zombie(int(obj), _text(zombies)))
            return
        obj.set(name, value)  # a context's field (`battle.victim`)
        return
    c = g.cards[obj]
    if name not in c.stats:
        return
    floor = g.engine.floors.get(name)
    if floor is not None:
        value = max(value, floor)
    changed = value - c.stats[name]
    c.stats[name] = value
    if until is not None:
        c.timed[name] = c.timed.get(name, 0) + changed
        g.marked.add(obj)
    elif delta is None and name in c.timed:
        # set outright, for good: the changes made before no longer expire
        del c.timed[name]
        if not (c.timed or c.tags):
            g.marked.discard(obj)
    g.events.append(StatChanged(obj, name, value, None if cite is None else cite.text))


def reset_stats(g: Game, cards: list[int], stats: tuple[str, ...]) -> None:
    """Put these stats of the cards back to their printed values, for good."""
    states = g.cards
    for card in cards:
        c = states[card]
        if not c.timed and c.stats == c.printed:
            continue  # most often: nothing to put back
        printed, timed = c.printed, c.timed
        for s in stats:
            if s in printed:
                c.stats[s] = printed[s]
                if timed:
                    timed.pop(s, None)
        if not (c.timed or c.tags):
            g.marked.discard(card)


def expire(g: Game, until: str) -> None:
    """Undo the changes made until this time (those of fatigued cards stay), lift
    the marks made until it, and end the watches that last until it."""
    if g.watches:
        spec = g.engine.programs.watch
        g.watches = [w for w in g.watches if spec(w[0]).until != until]
    cards = g.cards
    for card in list(g.marked):
        c = cards[card]
        if c.timed and not c.fatigued:
            for s, delta in c.timed.items():
                if s in c.stats:
                    c.stats[s] -= delta
            c.timed = {}
        if c.tags:
            c.tags = {t: u for t, u in c.tags.items() if u != until}
        if not (c.timed or c.tags):
            g.marked.discard(card)


def mark(g: Game, card: int, tag: str, until: str | None) -> None:
    """Mark a card with a tag, until it leaves its zone or until a time."""
    g.cards[card].tags[tag] = until or "leave"
    g.marked.add(card)


# --- dice -----------------------------------------------------------------------------


def roll(g: Game, n: int, seat: int, cite: ast.Citation | None) -> list[DieRef]:
    """Roll `n` dice for `seat`; returns them (none for `n` of 0 or less, and
    nothing is logged).

    Raises:
        LimitExceeded: more dice than the bound on a roll (`runtime.limits`).
    """
    g.engine.bounds.check_dice(n, cite)
    if n <= 0:
        return []
    record, roll_one, seat = g.dice, g.rng.roll, int(seat)
    first, values = len(record), []
    for _ in range(n):
        value = roll_one()
        values.append(value)
        record.append([value, seat])
    g.events.append(Rolled(seat, values, None if cite is None else cite.text))
    return list(map(DieRef, range(first, first + n)))


def reroll(g: Game, die: DieRef, cite: ast.Citation | None) -> None:
    g.dice[die][0] = g.rng.roll()
    g.events.append(Rerolled(int(die), g.dice[die][0], _text(cite)))


# --- counters -------------------------------------------------------------------------


def place_counters(g: Game, card: int, kind: str, n: int, placer: int,
                   cite: ast.Citation | None) -> None:
    """Place `n` counters of a kind on a card (only where counters may sit)."""
    c = g.cards[card]
    hosts = g.engine.counter_zone
    if hosts is not None and c.zone != hosts:
        return
    for _ in range(max(n, 0)):
        c.counters.append([kind, int(placer)])
        _counted(g, kind, 1)
    g.events.append(Placed(card, kind, n, int(placer), _text(cite)))


def strip_counters(g: Game, card: int, kind: str, n: int,
                   cite: ast.Citation | None) -> None:
    """Remove `n` counters of a kind from a card, without their effect."""
    c = g.cards[card]
    for _ in range(max(n, 0)):
        for i, (k, _p) in enumerate(c.counters):
            if k == kind:
                del c.counters[i]
                _counted(g, kind, -1)
                break


def take_counter(g: Game, card: int, entry: list[Any]) -> None:
    """Remove one counter (`[kind, placer]`) from a card, as popping it does."""
    g.cards[card].counters.remove(entry)
    _counted(g, entry[0], -1)


def clear_counters(g: Game, c: CardState) -> None:
    for kind, _ in c.counters:
        _counted(g, kind, -1)
    c.counters.clear()


def _counted(g: Game, kind: str, change: int) -> None:
    """Keep `counters_in_play` as counters of `kind` come and go."""
    left = g.counters_in_play.get(kind, 0) + change
    if left:
        g.counters_in_play[kind] = left
    else:
        del g.counters_in_play[kind]


# --- costs ----------------------------------------------------------------------------


def pay(g: Game, seat: int, amount: int, kind: str, cite: ast.Citation | None) -> None:
    """Pay HP, or exhaust that many of the player's resources."""
    if amount <= 0:
        return
    if kind == "hp":
        p = g.players[seat]
        p.hp -= min(amount, p.hp)
        g.dirty = True
        g.events.append(PaidHp(int(seat), amount, _text(cite)))
        return
    # the cards `resources` lists, zone by zone, until the amount is paid
    paid, cards, zones = 0, g.cards, g.players[seat].zones
    for z in g.engine.resource_zones:
        for card in zones[z]:
            if paid >= amount:
                break
            c = cards[card]
            if not c.exhausted:
                c.exhausted = True
                paid += 1
    g.events.append(PaidResources(int(seat), paid, None if cite is None else cite.text))


# --- the chain and the battle ---------------------------------------------------------


def negate(g: Game, cards: list[int], cite: ast.Citation | None) -> None:
    """The cards' effects in the chain do not resolve; a counter popped off one of
    them still does (its effect is the counter's, not the card's)."""
    if g.chain is not None:
        for link in g.chain.links:
            if link["source"] in cards and not link.get("counter"):
                link["negated"] = True
        g.events.append(Negated(cards, _text(cite)))


def skip_step(g: Game, step: str, cite: ast.Citation | None) -> None:
    """The battle under way passes over one of its steps."""
    if g.battle is not None:
        g.battle.skipped.append(step)
        g.events.append(StepSkipped(step, _text(cite)))


def withdraw(g: Game, card: int) -> None:
    """A card that leaves its zone or changes controller leaves the lists of the
    battle's record the rules say drop it (`drop leavers from attack_team, ...`)."""
    b = g.battle
    if b is None:
        return
    for name in g.engine.dropping:
        team = getattr(b, name)
        if card in team:
            team.remove(card)


# --- players --------------------------------------------------------------------------


def leave_game(g: Game, seat: int) -> None:
    """A player is out of the game: eliminated, no longer among the seats."""
    g.players[seat].eliminated = True
    g.in_game = [s for s in g.in_game if s != seat]


def eliminate(g: Game, seat: int, why: str, cite: ast.Citation | None) -> None:
    """A player loses and leaves the game, which goes on."""
    if not g.players[seat].eliminated:
        leave_game(g, seat)
        g.events.append(Eliminated(int(seat), why, _text(cite)))
        g.dirty = True


__all__ = [
    "assign", "banish", "change", "clear_counters", "create_pawn", "eliminate",
    "expire", "fatigue", "give", "leave", "leave_game", "mark", "move", "negate",
    "pay", "place_counters", "reroll", "reset_stats", "roll", "set_exhausted",
    "shuffle", "skip_step", "strip_counters", "take_counter", "withdraw",
]
