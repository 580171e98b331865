"""What the language's programs ask of a game, written once for both backends.

The reference interpreter (`interp.py`) and the generated code (`codegen.py`)
evaluate expressions and run simple statements each in their own way, and call
these for the rest: an attribute whose kind is known only when it is read
(`attr`), the collections' `+` and `-`, the contexts `game`, `chain` and
`battle`, and every statement that waits for a decision (`choose`, `either`,
`for each`, `may`, `perform`, `pick`, `reorder`) or ends frames (`stop`). Such a
statement is given its expressions as functions `(game, env) -> value` (`Fns`),
so that what it means is here alone, whichever backend evaluates them.

A service returns what a statement returns to the program machine
(`kotc.runtime.vm`): NEXT, PUSHED or WAIT.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kotc.runtime.actions import DONE, Action, Decision, picks
from kotc.runtime.events import CannotPerform, Prevented, Stopped
from kotc.runtime.state import SEAT_FIELDS
from kotc.runtime.values import AbilityRef, DieRef, Seat, card_label, seat_of
from kotc.runtime.vm import NEXT, PUSHED, WAIT, Block, Frame

from . import ir
from .builtins import as_items_of, element_name

Fn = Callable[[Any, dict[str, Any]], Any]
Game = Any  # the game (`kotc.engine.game.Game`), which this layer does not import


def unbound(name: str) -> Any:
    """A name read where the program's environment does not bind it."""
    raise RuntimeError(f"'{name}' is not bound here")


def text(cite: Any) -> str | None:
    """A rule's citation as the log writes it."""
    return None if cite is None else cite.text


# --- attributes -------------------------------------------------------------------------


def attr(g: Game, value: Any, name: str, env: dict[str, Any]) -> Any:
    """`value.name`, read by what `value` is: a card, a player, an event's fields,
    a die, an ability, a context, or a list of these (each one's, joined where
    each is a list: `players.hand`)."""
    kind = type(value)  # none of the classes looked for first has subclasses
    if kind is int:
        card = g.cards[value]
        stats = card.stats
        if name in stats:
            return stats[name]
        if name == "controller":
            return seat_of(card.controller)
        if name == "owner":
            return seat_of(card.owner)
        return card_attr(card, name, env)
    if isinstance(value, dict):  # an event's fields, most often (`event.target`)
        return value.get(name)
    if kind is Context:
        return value.get(name)
    if kind is Seat:
        if name in SEAT_FIELDS:  # a player controls and owns itself (a victim)
            return value
        p = g.players[value]
        if name in p.zones:
            return p.zones[name]
        if name == "left":
            return seat_of(g.next_seat(value))
        return getattr(p, name)
    if kind is DieRef:
        die = g.dice[value]
        return die[0] if name == "value" else seat_of(die[1])
    if isinstance(value, AbilityRef):
        return value.card
    if isinstance(value, (list, tuple)):
        values = [attr(g, v, name, env) for v in value]
        if values and isinstance(values[0], list):  # `players.hand`: all their cards
            return [x for v in values for x in v]
        return values
    if value is None:
        return None
    return card_attr(g.cards[value], name, env)


def card_attr(card: Any, name: str, env: dict[str, Any]) -> Any:
    """A card's attribute that is none of its stats: a name bound to a stat
    (`which`) stands for that stat; else its printed stats, a seat, its Ultra
    Points, or a field of its own."""
    stat = env.get(name, name)
    if isinstance(stat, str) and stat in card.stats:
        return card.stats[stat]
    if name == "printed":
        return card.printed
    if name in SEAT_FIELDS:
        return seat_of(getattr(card, name))
    if name == "ultra_points":
        return card.printed.get("ultra_points", 0)
    return getattr(card, name)


def card_stat(g: Game, card: int, stat: str, env: dict[str, Any]) -> Any:
    """A card's stat; where it has none, what `attr` reads for that name."""
    c = g.cards[card]
    stats = c.stats
    if stat in stats:
        return stats[stat]
    return attr(g, card, stat, env)


class Context:
    """`game`, `chain` or `battle` as a value: what `attr` and `set` read and write
    of it (`set battle.victim to host`)."""

    __slots__ = ("g", "name")

    def __init__(self, g: Game, name: str):
        self.g, self.name = g, name

    def get(self, field: str) -> Any:
        if self.name == "game":
            return game_field(self.g, field)
        if self.name == "chain":
            return chain_field(self.g, field)
        return battle_field(self.g, field)

    def set(self, field: str, value: Any) -> None:
        g = self.g
        if self.name == "battle" and g.battle is not None:
            setattr(g.battle, field, value)
            g.log("victim", None, victim=value)


def game_field(g: Game, name: str) -> Any:
    if name == "first_player":
        return seat_of(g.first_player)
    if name == "first_turn":
        return g.turn == 1
    return getattr(g, name)


def chain_field(g: Game, name: str) -> Any:
    ch = g.chain
    if name == "open":
        return ch is not None
    if ch is None:
        return {"length": 0, "resolving": False, "last_actor": None}[name]
    if name == "length":
        return len(ch.links)
    if name == "last_actor":
        return seat_of(ch.last_actor)
    return getattr(ch, name)


# the battle's fields that hold a seat, read as a player
BATTLE_SEATS = ("attacker", "defender")


def battle_field(g: Game, name: str) -> Any:
    """`battle.NAME` (`ir.BattleField`): an empty list for a team and None for any
    other field while no battle is under way; a seat read as a player."""
    b = g.battle
    if name == "ongoing":
        return b is not None
    if b is None:
        return [] if name.endswith("team") else None
    value = getattr(b, name)
    if name in BATTLE_SEATS and value is not None:
        return seat_of(value)
    return value


# --- operators ------------------------------------------------------------------------


def plus(a: Any, b: Any) -> Any:
    """`a + b`: numbers added; collections joined, what the second repeats left out."""
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        first = as_items_of(a)
        try:
            seen: Any = set(first)  # cards, players, dice: hashable, compared as ints
        except TypeError:
            seen = first
        return list(first) + [x for x in as_items_of(b) if x not in seen]
    return a + b


def minus(a: Any, b: Any) -> Any:
    """`a - b`: numbers subtracted; from a collection, the items of the second taken
    away."""
    if isinstance(a, (list, tuple)):
        drop = as_items_of(b)
        return [x for x in a if x not in drop]
    return a - b


def contains(collection: Any, x: Any) -> bool:
    """`x in collection`; for a single value, whether it is `x`."""
    if isinstance(collection, (list, tuple)):
        return x in collection
    return bool(x == collection)


def is_type(g: Game, x: Any, name: str) -> bool:
    """Whether `x` is a card of type `name`."""
    return x is not None and not isinstance(x, Seat) and g.cards[x].type == name


def has_modifier(g: Game, ability: Any, modifier: str) -> bool:
    card, index = ability
    return modifier in g.engine.abilities[g.cards[card].design][index].modifiers


def order(op: str, a: Any, b: Any) -> bool:
    """An order comparison, which does not hold with None on either side."""
    if a is None or b is None:
        return False
    if op == "<":
        return bool(a < b)
    if op == "<=":
        return bool(a <= b)
    if op == ">":
        return bool(a > b)
    return bool(a >= b)


# --- statements that wait or end frames -----------------------------------------------


def choose(g: Game, f: Frame, st: ir.Choose, fns: Sequence[Fn | None]) -> int:
    """`choose`: one pick at a time until the most are chosen, or `done` once the
    least are; randomly, all at once. `fns`: what, lo, hi, n, chooser."""
    what, lo, hi, n, chooser = fns
    env = f.env
    scratch = f.scratch
    name, single = st.name, st.single
    if scratch is None:
        assert what is not None
        given = as_items_of(what(g, env))
        items = list(dict.fromkeys(given))
        if len(items) < len(given):  # a player and a card of the same number are two
            items = list({(type(x) is Seat, x): x for x in given}.values())
        if n is not None:
            least = most = n(g, env)
        elif st.any:
            least, most = 0, len(items)
        else:
            assert lo is not None and hi is not None
            least, most = lo(g, env), hi(g, env)
        if n is not None and len(items) < least:
            env[name] = None if single else []  # "exactly": impossible
            return NEXT
        most = min(most, len(items))
        least = min(least, most)
        if st.random:
            count = g.rng.randint(least, most) if least != most else most
            picked = g.rng.sample(items, count)
            env[name] = (picked[0] if picked else None) if single else picked
            return NEXT
        scratch = f.scratch = [items, [], least, most]
    items, picked, least, most = scratch
    answer = g.answer
    g.answer = None
    if answer is not None:
        if answer.kind == "pick":
            picked.append(answer.value)
            items.remove(answer.value)
        else:
            most = scratch[3] = len(picked)
    if len(picked) >= most or not items:
        f.scratch = None
        env[name] = (picked[0] if picked else None) if single else picked
        return NEXT
    who = chooser(g, env) if chooser is not None else env["you"]
    if DieRef in map(type, items):  # a die's label is made now
        options = [g.pick_action(x) for x in items]
    else:
        options = picks(items, g.namer)
    if len(picked) >= least:
        options.append(DONE)
    g.decision = Decision(int(who), st.prompt, options, "vm", st.cite,
                          (len(picked), least, most))
    return WAIT


def choose_die(g: Game, f: Frame, st: ir.ChooseDie, what: Fn, chooser: Fn | None,
               holes: Sequence[tuple[str, Fn]]) -> int:
    """`choose die`: one option per value of the dice, lowest first (the first die
    of that value: dice of one value are alike), labelled with the value and the
    names the label holds (a card as `Name#id`). No dice: the name is none."""
    env = f.env
    answer = g.answer
    if answer is not None:
        g.answer = None
        env[st.name] = answer.value
        return NEXT
    values: dict[int, DieRef] = {}
    for d in as_items_of(what(g, env)):
        values.setdefault(g.dice[d][0], d)
    if not values:
        env[st.name] = None
        return NEXT
    shown = {name: _shown(g, fn(g, env)) for name, fn in holes}
    options = [Action("die", d, st.label.format(value=v, **shown))
               for v, d in sorted(values.items())]
    seat = chooser(g, env) if chooser is not None else env["you"]
    return int(g.ask(seat, st.prompt, options, cite=st.cite))


def _shown(g: Game, value: Any) -> str:
    """A value as a label names it: a card as `Name#id`, a player by seat."""
    if type(value) is int:
        return card_label(g.cards[value].name, value)
    if type(value) is Seat:
        return f"player {int(value)}"
    return str(value)


def either(g: Game, f: Frame, st: ir.Either, who: Fn | None,
           blocks: Sequence[Any]) -> int:
    """`either`: the player picks an option; its program runs."""
    answer = g.take_answer()
    if answer is None:
        seat = who(g, f.env) if who is not None else f.env["you"]
        options = [Action("option", i, label) for i, label in enumerate(st.labels)]
        return int(g.ask(seat, "either", options, cite=st.cite))
    f.pc += 1
    g.frames.append(Frame(blocks[answer.value], f.env))
    return PUSHED


def may(g: Game, f: Frame, st: ir.May, who: Fn | None, body: Any) -> int:
    """`may`: the player says yes or no; yes runs the program."""
    answer = g.take_answer()
    if answer is None:
        seat = who(g, f.env) if who is not None else f.env["you"]
        options = [Action("yes", None, "yes"), Action("no", None, "no")]
        return int(g.ask(seat, "may", options, cite=st.cite))
    f.pc += 1
    if answer.kind == "yes":
        g.frames.append(Frame(body, f.env))
    return PUSHED


def for_each(g: Game, f: Frame, st: ir.ForEach, what: Fn, chooser: Fn | None,
             body: Any, inline: Callable[[Game, dict[str, Any]], None] | None) -> int:
    """`for each`: its body for each item, in an order a player picks where
    `ordered_by` says; `inline` runs a simple body with no frame of its own."""
    scratch = f.scratch
    if scratch is None:
        items = list(as_items_of(what(g, f.env)))
        if not items:
            return NEXT
        g.engine.bounds.check_work(g, len(items), st.cite)
        if chooser is None or len(items) < 2:
            return _each(g, f, st.name, items, body, inline)
        scratch = f.scratch = [items, [], chooser(g, f.env)]
    remaining, ordered, who = scratch
    answer = g.take_answer()
    if answer is not None:
        ordered.append(answer.value)
        remaining.remove(answer.value)
    if len(remaining) <= 1:
        f.scratch = None
        return _each(g, f, st.name, ordered + remaining, body, inline)
    options = [g.pick_action(x) for x in remaining]
    return int(g.ask(who, f"order '{st.name}'", options, cite=st.cite))


def _each(g: Game, f: Frame, var: str, items: list[Any], body: Any,
          inline: Callable[[Game, dict[str, Any]], None] | None) -> int:
    if inline is not None:  # a simple body: looped here, no frame
        env = f.env
        for x in items:
            env[var] = x
            inline(g, env)
        return NEXT
    f.pc += 1
    f.env[var] = items[0]
    g.frames.append(Frame(body, f.env, ["each", var, items, 0]))
    return PUSHED


def pick(g: Game, f: Frame, st: ir.Pick, lo: Fn, hi: Fn, chooser: Fn | None) -> int:
    """`pick`: a player picks a number in a range (the low end, if that is all)."""
    answer = g.take_answer()
    if answer is not None:
        f.env[st.name] = answer.value
        return NEXT
    low, high = lo(g, f.env), hi(g, f.env)
    if high <= low:
        f.env[st.name] = low
        return NEXT
    seat = chooser(g, f.env) if chooser is not None else f.env["you"]
    options = [Action("number", n, str(n)) for n in range(low, high + 1)]
    return int(g.ask(seat, f"pick '{st.name}'", options, cite=st.cite))


def perform(g: Game, f: Frame, st: ir.Perform, args: Sequence[Fn],
            who: Fn | None) -> int:
    """`perform`: an action of the ruleset on a player's behalf, checked as the
    player's own would be (but where its cards come from); where it may be taken
    several ways, the player picks one."""
    referee = g.referee
    answer = g.take_answer()
    if answer is None:
        seat = who(g, f.env) if who is not None else f.env["you"]
        values = [a(g, f.env) for a in args]
        choices = referee.perform_choices(g, st.action, values, st.mods, seat)
        if not choices:
            g.events.append(CannotPerform(st.action, text(st.cite)))
            return NEXT
        if len(choices) > 1:
            f.scratch = [choices, seat]
            options = [
                Action("option", i, " ".join(map(str, c)))
                for i, c in enumerate(choices)
            ]
            return int(g.ask(seat, f"perform {st.action}", options, cite=st.cite))
        chosen = choices[0]
    else:
        choices, seat = f.scratch
        f.scratch = None
        chosen = choices[answer.value]
    f.pc += 1
    referee.push_action(g, st.action, chosen, st.mods, seat, f.env)
    return PUSHED


def order_list(g: Game, f: Frame, st: ir.Order, chooser: Fn) -> int:
    """`order battle.FIELD by P`: the player picks the list's members front to back;
    the last one left takes the last place. The list is put in that order if it
    still holds the same members."""
    b = g.battle
    scratch = f.scratch
    if scratch is None:
        if b is None or len(getattr(b, st.field)) < 2:
            return NEXT
        scratch = f.scratch = [int(chooser(g, f.env)), list(getattr(b, st.field)), []]
    seat, remaining, ordered = scratch
    answer = g.take_answer()
    if answer is not None:
        ordered.append(answer.value)
        remaining.remove(answer.value)
    if len(remaining) > 1:
        options = [g.pick_action(c) for c in remaining]
        return int(g.ask(seat, st.prompt, options, cite=st.cite))
    f.scratch = None
    order = ordered + remaining
    if b is not None and sorted(getattr(b, st.field)) == sorted(order):
        setattr(b, st.field, order)
    return NEXT


def form(g: Game, f: Frame, st: ir.Form, what: Fn, chooser: Fn,
         least: Fn | None) -> int:
    """`form battle.FIELD from CANDIDATES by P`: the player selects the list front
    to back, one member at a time, from the candidates not in it yet and from the
    members it held as the statement began (who stand at its end until placed: the
    player orders the whole list). It is done once the player says so, which the
    player may once it holds `least` and at most one is left to place (that one
    takes the last place), or when nothing is left to select. A new member is noted
    as `st.event`, for the abilities that wait for it. The candidates not in the
    list are read at each pick, or, where no pick can change them (`st.fixed`),
    once, as it begins, and kept (a pick takes its card out)."""
    b = g.battle
    if b is None:
        return NEXT
    listed = getattr(b, st.field)
    env = f.env
    scratch = f.scratch
    if scratch is None:  # those to place, and the candidates kept (if `fixed`)
        kept = [c for c in as_items_of(what(g, env)) if c not in listed] \
            if st.fixed else None
        scratch = f.scratch = [list(listed), kept]
    unplaced, kept = scratch
    answer = g.take_answer()
    if answer is not None:
        if answer.kind == "done":
            f.scratch = None
            return NEXT
        card = answer.value
        place = len(listed) - len(unplaced)
        if card in unplaced:
            unplaced.remove(card)
            listed.remove(card)
            listed.insert(place, card)
        else:
            listed.insert(place, card)
            if kept is not None:
                kept.remove(card)
            event = st.event
            if event is not None and event in g.referee.listened:
                g.referee.note(g, event, {"target": card})
    candidates = kept if kept is not None else [
        c for c in as_items_of(what(g, env)) if c not in listed]
    last = len(unplaced) < 2  # none or one left to place: it takes the last place
    if not candidates and last:
        f.scratch = None
        return NEXT
    if unplaced:
        candidates = candidates + unplaced
    options = picks(candidates, g.namer)
    if last and len(listed) >= (0 if least is None else least(g, env)):
        options.append(Action("done", None, st.done))
    g.decision = Decision(int(chooser(g, env)), st.prompt, options, "vm", st.cite)
    return WAIT


def strip_any(g: Game, f: Frame, st: ir.StripAny, count: Fn, target: Fn) -> int:
    """`strip n any from cards`: from each card, up to n counters of any kinds, the
    player (`you`) choosing which kind each time more than one is there and not
    all of them go."""
    scratch = f.scratch
    if scratch is None:  # the cards, the one at hand, how many are left to take
        scratch = f.scratch = [list(as_items_of(target(g, f.env))), 0, None]
    cards = scratch[0]
    answer = g.take_answer()
    if answer is not None:
        g.strip_counters(cards[scratch[1]], scratch[3][answer.value], 1, st.cite)
        scratch[2] -= 1
    while scratch[1] < len(cards):
        card = cards[scratch[1]]
        if scratch[2] is None:
            scratch[2] = count(g, f.env)
        kinds = list(dict.fromkeys(k for k, _ in g.cards[card].counters))
        held = len(g.cards[card].counters)
        if scratch[2] > 0 and len(kinds) > 1 and held > scratch[2]:
            scratch[3:] = [kinds]
            labels = g.engine.programs.counter_labels
            options = [Action("option", i, labels.get(k, k)) for i, k in enumerate(kinds)]
            return int(g.ask(f.env["you"], "remove which counter", options,
                             cite=st.cite))
        for k in kinds:  # one kind, or every counter goes: no choice
            g.strip_counters(card, k, min(scratch[2], held), st.cite)
        scratch[1], scratch[2] = scratch[1] + 1, None
    f.scratch = None
    return NEXT


def stop(g: Game, f: Frame, st: ir.Stop, cond: Fn) -> int:
    """`stop if`: the rest of the phrase's program (its frame) does nothing; in an
    activation (its cost, or its targets chosen on activation), the activation
    fails, down to the link or resolution it was to make, and what was to follow
    it happens now."""
    if not cond(g, f.env):
        return NEXT
    f.pc = len(f.block.stmts)
    if f.env.get("__activating"):
        frames, i = g.frames, -2
        while True:
            below = frames[i]
            below.pc = len(below.block.stmts)
            if not below.env.get("__activating"):
                break
            i -= 1
        then = below.env.get("__then")
        if then is not None:  # no link: what was to follow it happens now
            below.block, below.pc = g.engine.programs.blocks[then[0]], 0
            below.env = dict(then[1])
        g.events.append(Stopped(True, text(st.cite)))
    else:
        g.events.append(Stopped(None, text(st.cite)))
    return PUSHED  # `go` returns; the machine finds the frame done


def prevent(g: Game, env: dict[str, Any], cite: Any) -> None:
    """`prevent event`: the event a `would` reaction reads does not happen."""
    event = env.get("event")
    if event is not None:
        event["__prevented"] = True
        g.events.append(Prevented(event.get("__name"), text(cite)))


def call(g: Game, f: Frame, st: ir.Call, kenv: dict[str, Any]) -> int:
    """A keyword's program, in the environment `kenv` the call made of its
    arguments (`ir.Call`): nothing, where a required parameter is None (nothing
    to act on); run here, where it needs no frame."""
    for p in st.required:
        if kenv[p] is None:
            return NEXT
    f.pc += 1
    return PUSHED if g.call_keyword(st.keyword, kenv, f.env, st.cost, st.cite) else NEXT


# --- dice ------------------------------------------------------------------------------


def rolled(g: Game, group: ir.RollGroup, dice: list[DieRef],
           env: dict[str, Any]) -> list[DieRef]:
    """A group's dice kept where its `as` says: a name, or the battle's record."""
    if group.name is not None:
        env[group.name] = dice
    elif g.battle is not None and group.field is not None:
        setattr(g.battle, group.field, dice)
    return dice


def announce(g: Game, rolled: Sequence[tuple[list[DieRef], Any]], env: dict[str, Any],
             cite: Any) -> None:
    """Every die rolled at once is announced (`rolled`, with its roller), the last
    first: the first announced is the last to be reacted to."""
    for dice, who in reversed(rolled):
        for d in reversed(dice):
            g.fire("rolled", {"die": d, "roller": who}, env, cite)


# --- a flow's record ------------------------------------------------------------------


def set_record(g: Game, flow: str, field: str, value: Any) -> None:
    """A field of the record of the flow under way, set by the flow's own program
    (nothing is logged); nothing while no such flow is under way."""
    b = g.battle
    if b is not None:
        if field in ("attacker", "defender") and value is not None:
            value = int(value)  # the record keeps these seats as numbers
        setattr(b, field, value)


def append(g: Game, st: ir.Append, what: Any) -> None:
    """`append X to battle.FIELD` or `game.victims`: the list made anew with `X` at
    its end, so a list read before is not changed under its reader; nothing while
    no battle is under way, for a battle's list."""
    if st.flow == "game":
        g.victims = g.victims + [what]
        return
    b = g.battle
    if b is not None:
        setattr(b, st.field, getattr(b, st.field) + [what])


def log(g: Game, st: ir.Log, values: Sequence[Any]) -> None:
    """`log EVENT(...)`: the event recorded with its fields as the log keeps their
    kinds: a player by seat number, cards as a list of cards."""
    data: dict[str, Any] = {}
    for (name, kind, _, text_), value in zip(st.fields, values, strict=True):
        if kind == "text":
            data[name] = text_
        elif value is None:
            data[name] = None
        elif kind == "player":
            data[name] = int(value)
        elif kind == "cards":
            data[name] = list(as_items_of(value))
        else:
            data[name] = value
    g.log(st.event, st.cite, **data)


def begin_flow(g: Game, st: ir.Begin, values: Sequence[Any]) -> None:
    """`begin battle with FIELD = EXPR, ...`: the battle entered with its record's
    first values, each kept as its field's kind keeps it (a player by seat number,
    cards as a list)."""
    fields: dict[str, Any] = {}
    for (name, kind, _), value in zip(st.fields, values, strict=True):
        if value is None:
            fields[name] = None
        elif kind == "player":
            fields[name] = int(value)
        elif kind in ("cards", "dice"):
            fields[name] = list(as_items_of(value))
        else:
            fields[name] = value
    g.referee.call_flow(g, st.flow, fields, st.cite)


def after_flow(g: Game, flow: str, block: Block, env: dict[str, Any]) -> None:
    """`after FLOW { ... }`: the block, with the names bound where it is written,
    waits for the sub-flow under way to end; where none is, it runs at once."""
    g.referee.after_flow(g, flow, block, dict(env))


def end_flow(g: Game, flow: str) -> None:
    """`end battle`: the battle under way ends once the program saying so is done."""
    if g.battle is not None:
        g.battle.cancelled = True


def drop(g: Game, st: ir.Drop, what: Any) -> None:
    """`drop X from battle.FIELD` (its first `X`), or `drop all`: the list is made
    anew, so a list read before is not changed under its reader."""
    b = g.battle
    if b is None:
        return
    items = getattr(b, st.field)
    if st.what is None:
        setattr(b, st.field, [])
    elif what in items:
        kept = list(items)
        kept.remove(what)
        setattr(b, st.field, kept)


__all__ = [
    "BATTLE_SEATS", "Context", "after_flow", "announce", "append", "attr",
    "battle_field", "begin_flow", "call", "card_attr", "card_stat", "chain_field",
    "choose", "choose_die", "contains", "drop", "either", "element_name", "end_flow",
    "for_each", "form", "game_field",
    "has_modifier", "is_type", "log", "may", "minus", "order", "order_list", "perform",
    "pick", "plus", "prevent", "rolled",
    "set_record", "stop", "strip_any", "text", "unbound",
]
