"""The listing of a window's actions, written out as one Python function.

Listing a window goes through the actions it offers one by one and binds each
through its shape's binder, which calls, for every candidate, the compiled
source, check, cost and condition. Done that way, the calls cost more than the
checks. `window_lister` writes all of it for one window as the body of one
function, with `pyexpr` writing the expressions in place: each action's counter
gate; a bare action's requirement and costs; and, for the two commonest shapes
(`Listing.bind_one`, a card drawn from a collection;
`Listing.bind_own_ability`, a card of the player's or drawn from a collection,
and one of its abilities),
the binder's loop itself, the candidate and its card's state read from locals;
for two parameters each drawn from a collection with nothing checked of a pair
(`Listing.bind_two_drawn`), the two collections, every pair made from C.
Zones are looked through in plain loops: for the few cards of a zone, faster
than pipelines of `map`s, `compress` and `chain`, though those run fewer
bytecodes.
Other shapes call their binder. What is the same for every action is read once:
the standard activation condition, written in place, and the names of the
recent events, which with it key what the window keeps of `sources_by_zone`
and `_own_designs` for all its actions (`_tables`). The listing's memos are set
only before a call that may read them. An option listed again in a game is the
`Action` listed before (`_Made`). What is read, in what order, and what fails
stay as the binders have them; a test lists seeded games both ways.
"""

from __future__ import annotations

import re
from itertools import product, repeat

from kotc.dsl import ast
from kotc.runtime.actions import Action
from kotc.runtime.values import AbilityRef

from .listing import COUNTER_KIND, NO_EVENTS, CompiledAction, ability_ref, own_condition
from .pyexpr import ELEMENT_NAMES, ENV_NAME, Gen, write_function


def window_lister(listing, names: tuple):
    """`window(listing, g, seat) -> [Action]`: what `seat` may take now of the
    actions `names`, in their order, each way it may be taken."""
    return _Window(listing).write(names)


class _Window:
    """The body of one window's function, as it is written."""

    def __init__(self, listing):
        self.listing = listing
        self.gen = gen = Gen(listing.programs)
        self.you, self.out = gen.tmp(), gen.tmp()
        self.action = gen.const(Action)
        self.repeat = gen.const(repeat)
        self.plains = self.owns = None  # see `plain`, `own`
        # the options listed before in this game, as `_Made` keeps them
        self.made, self.kept, self.made_read = gen.tmp(), gen.const([_Made()]), False

    def write(self, names: tuple):
        gen, listing = self.gen, self.listing
        acts = [listing.actions[name] for name in names]
        # `env` holds `you`, the parameters bound in it, and what a `where` binds
        params = (p.name for act in acts for p in act.params)
        gen.env_names = frozenset(["you", *params, *ELEMENT_NAMES])
        gen.emit(f"{self.you} = seat_of(seat)")
        gen.seats.add(self.you)
        # the player, read once: what is read of `you` is read from it
        player_at, self.player = len(gen.lines), gen.tmp()
        # (by the seat given, most often a plain int: a list's item by an int
        # subclass, such as a `Seat`, is read the slow way)
        gen.emit(f"{self.player} = g.players[seat]")
        gen.seat_state[self.you] = self.player
        gen.emit(f"{self.out} = []")
        made_at = len(gen.lines)
        gen.emit(f"{self.made} = None")
        # the listing's memos are set only before the first call that may read
        # them (see `memos`): most windows list nothing and call none
        self.memo, self.memos_read = gen.into("False"), False
        # `g.cards`, once read at the window's level (see `tables`)
        self.cards = None
        start = len(gen.lines)
        gen.depth += 1
        # `env` holds `you` alone on every path here unless a parameter may have
        # been bound in it since it was made at the top level (see `env`)
        self.top, self.env_bound = gen.depth, True
        have_at, self.paid = len(gen.lines), False
        self.have = gen.into("None")  # the resources to pay with (see `pay`)
        # the standard condition, once per listing
        self.std = self.standard() if any(map(self.reads_standard, acts)) else None
        self.tables([act for act in acts if self.tabled(act)])
        for act in acts:
            self.offer(act)
        gen.depth -= 1
        if not self.paid:  # locals no line reads are not set
            del gen.lines[have_at]
        if not self.made_read:
            del gen.lines[made_at]
            start -= 1
        player = re.compile(rf"\b{self.player}\b")
        if not any(player.search(line) for line in gen.lines[player_at + 1 :]):
            del gen.lines[player_at]
            start -= 1
        if self.memos_read:
            gen.lines.insert(start, "    try:")
            gen.emit("finally:")
            gen.emit(f"    if {self.memo}:")
            gen.emit("        g.standard_memo = g.resources_memo = None")
        else:
            gen.lines[start:] = [line[4:] for line in gen.lines[start:]]
            del gen.lines[start - 1]
        gen.emit(f"return {self.out}")
        return write_function(gen, "window", "listing, g, seat", "<kotc listing>")

    def reads_standard(self, act: CompiledAction) -> bool:
        """Whether the action, written out, reads the standard condition (as its
        binder does through `_narrowing` or `_own_designs`)."""
        listing = self.listing
        if not act.params or not act.resolves:
            return False
        if act.binder == listing.bind_one:
            return True
        return act.binder == listing.bind_own_ability and (
            act.resolves == act.params[1].name
        )

    def tabled(self, act: CompiledAction) -> bool:
        """Whether the action, written out, reads a table the window keeps (see
        `tables`)."""
        listing = self.listing
        if act.binder == listing.bind_own_ability:
            return bool(act.params)
        return act.binder == listing.bind_one and bool(act.params and act.resolves)

    def tables(self, acts: list) -> None:
        """What the actions read of `sources_by_zone` and `_own_designs`, kept by
        the window for the names of the recent events (read once) and whether
        the standard condition fails: one local per action (`self.item`)."""
        gen, listing = self.gen, self.listing
        self.item = {}
        if not acts:
            return
        specs, items = [], []
        for act in acts:
            if act.binder == listing.bind_one:
                specs.append(("own", None, False))
                self.item[act.name] = gen.tmp()
            else:
                narrowed = act.resolves == act.params[1].name
                drawn = act.params[0].source is not None
                if act.drawn_zones is not None:  # a test per term of its `in`
                    drawn = "zones"
                    self.item[act.name] = tuple(gen.tmp() for _ in act.drawn_zones)
                else:
                    self.item[act.name] = gen.tmp()
                specs.append(("narrowed" if narrowed else "any", act, drawn))
            item = self.item[act.name]
            items += [item] if isinstance(item, str) else item
        self.cards = gen.into("g.cards")
        if any(
            act.params[0].source is None or act.drawn_zones is not None
            for act in acts
            if act.params
        ):
            self.zones = gen.into(f"{self.player}.zones")
        key = "None"
        if any(kind != "any" for kind, _, _ in specs):
            first, none = gen.const(COUNTER_KIND), gen.const(NO_EVENTS)
            key = gen.into(f"frozenset(map({first}, g.recent)) if g.recent else {none}")
        kept, fails, by = gen.const({}), "False", key
        if self.std not in (None, "None", "True"):  # it may fail: kept by both
            fails, by = f"{self.std} is False", f"({self.std}, {key})"
        # most often kept already: a `try` costs nothing then (a `get` and a test
        # of what it found would)
        gen.emit("try:")
        gen.emit(f"    {', '.join(items)}, = {kept}[{by}]")
        gen.emit("except KeyError:")
        gen.emit(
            f"    {', '.join(items)}, = {kept}[{by}] = {gen.const(_tables)}(listing, g, "
            f"{gen.const(tuple(specs))}, {fails}, {key})"
        )

    def offer(self, act: CompiledAction) -> None:
        """One action: its counter gate, then each way to bind it, an option."""
        gen, listing, depth = self.gen, self.listing, self.gen.depth
        start, env_bound = len(gen.lines), self.env_bound
        # each action binds names in an env of its own: nothing read carries over
        gen.read, gen.bound = {}, {}
        if act.counter_kinds is not None:  # it takes a counter off a card
            # a dict, most often empty (tested first); iterated, its keys
            kinds = gen.const(act.counter_kinds)
            gen.emit(
                f"if g.counters_in_play and not {kinds}.isdisjoint(g.counters_in_play):"
            )
            gen.depth += 1
        if act.params:
            binder = act.binder
            if binder == listing.bind_one:
                self.write_bind_one(act)
            elif binder == listing.bind_own_ability:
                self.write_bind_own_ability(act)
            elif binder == listing.bind_card_counter and not act.resolves:
                self.write_bind_card_counter(act)
            elif (
                binder == listing.bind_two_drawn
                and act.stages[1] is None
                and not act.pays
                and not act.resolves
            ):
                self.write_bind_two_drawn(act)
            else:
                self.call_binder(act)
        else:
            self.bare(act)
        gen.depth = depth
        written = gen.lines[start:]
        writes = [*filter(_WRITES_ENV.match, written)]  # each names `env` once
        if len(ENV_NAME.findall("\n".join(written))) == len(writes):  # and none reads it
            gen.lines[start:] = [line for line in written if not ENV_NAME.search(line)]
            self.env_bound = env_bound

    def bare(self, act: CompiledAction) -> None:
        """`Listing.bare_holds`: its requirement, then its costs."""
        gen = self.gen
        self.env()
        if act.condition is not None:
            gen.emit(f"if {self.test(act.condition)}:")
            gen.depth += 1
        for kind, amount in act.pays:  # each amount, then what pays it
            gen.emit(f"if {gen.value(amount)} <= {self.paid_with(kind)}:")
            gen.depth += 1
        gen.emit(f"{self.out}.append({gen.const(act.bare)})")

    def call_binder(self, act: CompiledAction) -> None:
        gen, a = self.gen, self.gen.const(act)
        found = gen.tmp()
        self.memos()
        if act.binder is None:
            gen.emit(f"{found} = listing.bindings(g, {a}, seat, ())")
        else:  # as `bindings` would, its look at the counters made above
            gen.emit(f"{found} = []")
            binder = gen.const(act.binder)
            gen.emit(f"{binder}(g, {a}, {{'you': {self.you}}}, {found}, False, False)")
        self.options(act, found)

    def write_bind_one(self, act: CompiledAction) -> None:
        """`Listing.bind_one`, its condition not ignored and its cost not waived."""
        gen, listing = self.gen, self.listing
        param = act.params[0]
        typed = param.type in listing.card_types
        printed = listing.first_own[0]  # see `Listing.own_after`
        if act.resolves and self.zone_of_yours(param.source) and not printed:
            # no design may resolve (an empty set), most often outside the
            # player's window: the zone, read only to be passed over, is not read
            # (with a printed condition, a design always may)
            gen.emit(f"if {self.item[act.name]} is None or {self.item[act.name]}:")
            gen.depth += 1
        made = self.env()
        if act.resolves:
            own = self.item[act.name]
        cards = self.cards or gen.into("g.cards")
        items = self.items(param.source)
        c, state = gen.tmp(), gen.tmp()
        if act.resolves:  # most often, outside the player's window, none may resolve
            # looked for in a loop: for a hand of cards, faster than `isdisjoint`
            # over a pipeline of `map`s (as the loops below: see `_by_zones`)
            may = gen.tmp()
            gen.emit(f"{may} = {own} is None")
            gen.emit(f"if not {may}:")
            gen.emit(f"    for {c} in {items}:")
            gen.emit(f"        if {cards}[{c}].design in {own}:")
            gen.emit(f"            {may} = True")
            gen.emit("            break")
            gen.emit(f"if {may}:")
            gen.depth += 1
        self.env_later(made)
        gen.emit(f"for {c} in {self.unique(param.source, items)}:")
        gen.depth += 1
        if typed:  # a card of that type, for certain: its state is read once
            gen.emit(f"{state} = {cards}[{c}]")
            gen.emit(f"if {state}.type != {param.type!r}:")
            gen.emit("    continue")
        if act.resolves:
            design = f"{state}.design" if typed else f"{cards}[{c}].design"
            gen.emit(f"if {own} is not None and {design} not in {own}:")
            gen.emit("    continue")
        self.bind(param.name, c, state if typed else None)
        self.check(act.stages[0])
        self.pay(act)
        if act.resolves:
            design = f"{state}.design" if typed else f"{cards}[{c}].design"
            self.condition_met(c, c, "0", design, self.plain())
        self.found(act, f"({c},)")

    def write_bind_own_ability(self, act: CompiledAction) -> None:
        """`Listing.bind_own_ability`, its condition not ignored and its cost not
        waived: a card of the player's with no `in` (or one drawn from its `in`),
        then one of its abilities."""
        gen, listing = self.gen, self.listing
        card_param, ability_param = act.params
        kind = card_param.type if card_param.type in listing.card_types else None
        a, cards, pool = gen.const(act), self.cards, gen.tmp()
        table = self.item[act.name]
        if card_param.source is None:  # `table`: see `_tables`
            zones, zone, designs, x = self.zones, gen.tmp(), gen.tmp(), gen.tmp()
            # the cards of each zone in the table whose design is among its
            # designs; most often none, outside the player's window
            gen.emit(f"if {table}:")
            gen.depth += 1
            gen.emit(f"{pool} = []")
            gen.emit(f"for {zone}, {designs} in {table}:")
            gen.emit(f"    for {x} in {zones}[{zone}]:")
            gen.emit(f"        if {cards}[{x}].design in {designs}:")
            gen.emit(f"            {pool}.append({x})")
        elif act.drawn_zones is not None:  # `table`: a test per term of the `in`
            made = self.env()
            self.drawn_zones(act, pool, table)
        else:  # `table`: the designs by zone
            made = self.env()
            gen.emit(f"{pool} = listing.drawn_with_abilities(g, {a}, env, {table})")
        gen.emit(f"if {pool}:")  # most often not, outside the player's own window
        gen.depth += 1
        if card_param.source is None:
            self.env()
            gen.emit(f"{pool}.sort()")
        else:
            self.env_later(made)
        # its abilities per design and zone, kept by the window (see `_abilities`);
        # narrowed to "own" when the standard condition fails
        narrows = act.resolves == ability_param.name and self.std not in ("None", "True")
        kept = gen.const({})
        if narrows:
            kept = gen.into(f"{gen.const({})} if {self.std} is False else {kept}")
        c, state, entries, at = gen.tmp(), gen.tmp(), gen.tmp(), gen.tmp()
        gen.emit(f"for {c} in {pool}:")
        gen.depth += 1
        gen.emit(f"{state} = {cards}[{c}]")
        if kind is not None:
            gen.emit(f"if {state}.type != {kind!r}:")
            gen.emit("    continue")
        self.bind(card_param.name, c, state)
        self.check(act.stages[0])
        # most often kept already (see `tables`)
        design_zone = f"({state}.design, {state}.zone)"
        gen.emit("try:")
        gen.emit(f"    {entries} = {kept}[{design_zone}]")
        gen.emit("except KeyError:")
        gen.emit(f"    {at} = {design_zone}")
        narrowed = f"{self.std} is False" if narrows else "False"
        gen.emit(
            f"    {entries} = {kept}[{at}] = {gen.const(_abilities)}(listing, g, {a}, "
            f"{at}, {narrowed}, {self.own()})"
        )
        k, ref, mods, own = gen.tmp(), gen.tmp(), gen.tmp(), gen.tmp()
        gen.emit(f"for {k}, {mods}, {own} in {entries}:")
        gen.depth += 1
        new_ref = f"{gen.const(ability_ref)}({gen.const(AbilityRef)}, ({c}, {k}))"
        gen.emit(f"{ref} = {new_ref}")
        self.bind(ability_param.name, ref, None)
        # read as `pyexpr` would, but from the window's table
        gen.read[("modifiers", ref)] = (mods, gen.depth)
        self.check(act.stages[1])
        self.pay(act)
        if act.resolves == ability_param.name:
            self.condition_met(ref, c, k, own, None)
        elif act.resolves:
            self.condition_met(c, c, "0", f"{state}.design", self.plain())
        self.found(act, f"({c}, {ref})")

    def write_bind_card_counter(self, act: CompiledAction) -> None:
        """`Listing.bind_card_counter` for an action that resolves nothing, its
        cost not waived: a card drawn from a collection, then each kind of the
        counters on it that the action may take."""
        gen, listing = self.gen, self.listing
        card_param, kind_param = act.params
        kind = card_param.type if card_param.type in listing.card_types else None
        self.env()
        cards = self.cards if self.cards is not None else gen.into("g.cards")
        items = self.items(card_param.source)
        c, state, k = gen.tmp(), gen.tmp(), gen.tmp()
        gen.emit(f"for {c} in {self.unique(card_param.source, items)}:")
        gen.depth += 1
        gen.emit(f"{state} = {cards}[{c}]")
        typed = f" or {state}.type != {kind!r}" if kind is not None else ""
        gen.emit(f"if not {state}.counters{typed}:")
        gen.emit("    continue")
        self.bind(card_param.name, c, state)
        self.check(act.stages[0])
        kind_of = gen.const(COUNTER_KIND)
        gen.emit(f"for {k} in dict.fromkeys(map({kind_of}, {state}.counters)):")
        gen.depth += 1
        gen.emit(f"if {k} not in {gen.const(act.counter_kinds)}:")
        gen.emit("    continue")
        self.bind(kind_param.name, k, None)
        self.check(act.stages[1])
        self.pay(act)
        self.found(act, f"({c}, {k})")

    def items(self, e) -> str:
        """The collection `e` evaluates to, as a list or a tuple (`as_list`)."""
        gen = self.gen
        drawn = gen.value(e)
        if drawn in gen.fresh or self.zone_of_yours(e):
            return drawn
        return gen.into(f"{drawn} if type({drawn}) is list else _as_list({drawn})")

    def drawn_zones(self, act: CompiledAction, pool: str, tests: tuple) -> None:
        """`Listing.drawn_with_abilities` for an `in` of zones joined by `+`: the
        cards of each zone whose test (None: no design there) they pass."""
        gen, zones, x = self.gen, self.zones, self.gen.tmp()
        cards = self.cards or gen.into("g.cards")
        terms = _zone_paths(act.params[0].source)
        assert len(terms) == len(act.drawn_zones) == len(tests)
        gen.emit(f"{pool} = []")
        for (whose, zone), has in zip(terms, tests, strict=True):
            gen.emit(f"if {has} is not None:")
            gen.depth += 1
            seats, ids = gen.value(whose), f"{zones}[{zone!r}]"
            if seats != self.you:  # each player's zone, in turn
                gen.emit(
                    f"for s in {seats} if type({seats}) is list else _as_list({seats}):"
                )
                gen.depth += 1
                ids = f"g.players[s].zones[{zone!r}]"
            gen.emit(f"for {x} in {ids}:")  # a loop: see `_by_zones`
            gen.emit(f"    if {cards}[{x}].design in {has}:")
            gen.emit(f"        {pool}.append({x})")
            gen.depth -= 1 if seats == self.you else 2
        if len(terms) > 1:  # a card found twice is kept where first found
            gen.emit(f"if {pool}:")
            gen.emit(f"    {pool} = list(dict.fromkeys({pool}))")

    def write_bind_two_drawn(self, act: CompiledAction) -> None:
        """`Listing.bind_two_drawn` when nothing is checked of a pair: each first
        kept goes with every second."""
        gen, rep = self.gen, self.repeat
        first, second = act.params
        self.env()
        pool = self.drawn(first)
        gen.emit(f"if {pool}:")
        gen.depth += 1
        others = self.drawn(second)
        if act.stages[0] is None:
            pairs = f"{gen.const(product)}({pool}, {others})"
        else:
            pairs, c = gen.into("[]"), gen.tmp()
            gen.emit(f"for {c} in {pool}:")
            gen.depth += 1
            self.bind(first.name, c, None)
            self.check(act.stages[0])
            gen.emit(f"{pairs}.extend(zip({rep}({c}), {others}))")
            gen.depth -= 1
        self.options(act, pairs)

    # --- parts ------------------------------------------------------------------

    def drawn(self, param) -> str:
        """`Listing._candidates` for a parameter drawn from its `in`, with no
        counter or ability after it: a list, not changed while listing (one of
        the player's zones, untyped, is the zone's own list)."""
        gen = self.gen
        drawn = gen.value(param.source)
        if self.zone_of_yours(param.source):  # a list, each card once (`unique`)
            items = drawn
        else:
            listed = f"{drawn} if type({drawn}) is list else _as_list({drawn})"
            items = f"dict.fromkeys({listed})"
        if param.type not in self.listing.card_types:
            return drawn if items == drawn else gen.into(f"list({items})")
        cards = self.cards or gen.into("g.cards")
        return gen.into(f"[c for c in {items} if {cards}[c].type == {param.type!r}]")

    def unique(self, e, items: str) -> str:
        """`items`, what `e` evaluates to, each once: a zone's list holds a card
        once, and is not changed while listing; so do the zones of every
        player joined (`Gen.zone_lists`), a card being in one zone's list."""
        if self.zone_of_yours(e) or items in self.gen.zone_lists:
            return items
        return f"dict.fromkeys({items})"

    def zone_of_yours(self, e) -> bool:
        """Whether `e` is one of the player's zones (`you.hand`): a list."""
        return (
            type(e) is ast.Path
            and len(e.parts) == 2
            and e.parts[0] == "you"
            and e.parts[1] in self.listing.programs.zones
        )

    def standard(self) -> str:
        """The standard activation condition for the seat, as
        `_standard_in_listing` has it, written in place: evaluated once per
        listing (None when it is read per ability)."""
        gen, listing = self.gen, self.listing
        if not listing.standard_per_player:
            return "None"
        std = listing.rs.setting("actions", "standard_activation")
        if std is None:
            return "True"
        made = self.env()
        after = gen.count
        v = gen.value(std.cond)
        if not (v in gen.bools and gen.owned(v, after)):  # a bool no other line sets
            v = gen.test_into(gen.truth(v))
        if made is not None and not ENV_NAME.search("\n".join(gen.lines[made + 1 :])):
            # not read: each action makes its own where it first reads it, most
            # often none, or only once a candidate is found
            del gen.lines[made]
            self.env_bound = True
        return v

    def condition_met(self, what: str, card: str, index: str, key: str, plain):
        """On to the next candidate unless `Listing.condition_met` holds for
        `what`, ability `index` of `card`: known without the call when the
        ability (`key` in `plain`) has no condition but the standard one,
        evaluated above; worked out in place, as the call would, when it has a
        trigger, a printed condition or a printed cost (`own`). With no `plain`,
        `key` holds the ability's entry of `own` already (None: it is plain)."""
        gen, std = self.gen, self.std
        if std in (None, "None"):
            self.memos()
            gen.emit(f"if not listing.condition_met(g, {self.you}, {what}, env):")
            gen.emit("    continue")
            return
        depth = gen.depth
        gen.emit(f"if {key} is None:" if plain is None else f"if {key} in {plain}:")
        gen.emit(f"    if {std} is False:")
        gen.emit("        continue")
        gen.emit("else:")
        gen.depth += 1
        # no memo is set: the conditions called read none, nor does the call for
        # a design `own` does not know (its standard condition, if read, is
        # evaluated in full, to the same value)
        if plain is None:
            own = key
        else:
            own = gen.tmp()
            gen.emit(f"{own} = {self.own()}.get({key})")
            gen.emit(f"if {own} is None:")  # a design without abilities
            gen.emit(f"    if not listing.condition_met(g, {self.you}, {what}, env):")
            gen.emit("        continue")
            gen.emit("else:")
            gen.depth += 1
        affordable, events, trigger_cond, cond = (gen.tmp() for _ in range(4))
        gen.emit(f"{affordable}, {events}, {trigger_cond}, {cond} = {own}")
        inner = f"{{'you': {self.you}, 'this': {card}}}"
        gen.emit(f"if {events} is None and {cond} is None and {std} is False:")
        gen.emit("    continue")
        gen.emit(f"if {affordable} is not None and not {affordable}(g, {inner}):")
        gen.emit("    continue")
        # the first recent event the trigger answers (`_answerable`), if any
        name, fields, answered = gen.tmp(), gen.tmp(), gen.tmp()
        gen.emit(f"if {events} is not None:")
        gen.emit(f"    for {name}, {fields} in g.recent:")
        gen.emit(f"        if {name} in {events}:")
        gen.emit(f"            {answered} = {fields}.get('__answered')")
        gen.emit(f"            if {answered} and [{card}, {index}] in {answered}:")
        gen.emit("                continue")
        gen.emit(
            f"            if {trigger_cond} is None or {trigger_cond}(g, "
            f"{{'you': {self.you}, 'this': {card}, 'event': {fields}}}):"
        )
        gen.emit("                break")
        gen.emit("    else:")
        gen.emit("        continue")
        gen.emit(f"elif {cond} is not None and not {cond}(g, {inner}):")
        gen.emit("    continue")
        gen.depth = depth

    def own(self) -> str:
        """By the key of an ability (a design for its first, or (design, index))
        that is not `plain`: (affordable, trigger's events, trigger_cond, cond), as
        `Listing.condition_met` reads them."""
        if self.owns is None:
            own = {}
            for d, abls in self.listing.engine.abilities.items():
                for k, ab in enumerate(abls):
                    if not _plain(ab):
                        events = None if ab.trigger is None else ab.trigger.events
                        own[(d, k)] = (ab.affordable, events, ab.trigger_cond, ab.cond)
                        if k == 0:
                            own[d] = own[(d, k)]
            self.owns = self.gen.const(own)
        return self.owns

    def plain(self) -> str:
        """The designs whose first ability has no trigger, printed condition or
        printed cost that `condition_met` reads: the standard condition alone
        decides."""
        if self.plains is None:
            printed = self.listing.engine.abilities.items()
            first = frozenset(d for d, abls in printed if abls and _plain(abls[0]))
            self.plains = self.gen.const(first)
        return self.plains

    def memos(self) -> None:
        """The listing's memos (`standard_memo`, `resources_memo`), set now
        unless set already: the standard condition, if evaluated, is known."""
        gen, listing = self.gen, self.listing
        self.memos_read = True
        if not listing.standard_per_player:
            std = "None"
        elif self.std is None:
            std = "{}"
        else:
            std = f"{{{self.you}: {self.std}}}"
        gen.emit(f"if not {self.memo}:")
        gen.emit(f"    {self.memo} = True")
        gen.emit(f"    g.standard_memo, g.resources_memo = {std}, {{}}")

    def env(self) -> int | None:
        """The action's own env, holding `you`, as `options` makes it: made
        anew only if it may hold more (what reads it, reads and leaves it so).
        The line making it, if made."""
        gen = self.gen
        made = None
        if self.env_bound:
            made = len(gen.lines)
            gen.emit(f"env = {{'you': {self.you}}}")
            if gen.depth == self.top:  # made on every path
                self.env_bound = False
        gen.read["you"] = (self.you, gen.depth)
        return made

    def env_later(self, made: int | None) -> None:
        """The env made at line `made` (see `env`), made here instead if no line
        written since reads it: most often, the lines between end the action's
        listing."""
        gen = self.gen
        if made is None or ENV_NAME.search("\n".join(gen.lines[made + 1 :])):
            return
        del gen.lines[made]
        self.env_bound = True  # it may still hold what it held
        self.env()

    def bind(self, name: str, local: str, state: str | None) -> None:
        """Parameter `name` is `local` now (in `env` too, for what reads it
        there), a card whose state is `state` if known."""
        gen = self.gen
        gen.emit(f"env[{name!r}] = {local}")
        self.env_bound = True
        gen.bound = {**gen.bound, name: local}
        gen.read.pop(name, None)
        if state is not None:
            gen.card_state[local] = state

    def check(self, e) -> None:
        """On to the next candidate unless `e` holds (None: nothing to check)."""
        if e is not None:
            self.gen.emit(f"if not {self.test(e)}:")
            self.gen.emit("    continue")

    def test(self, e) -> str:
        """What evaluates `e`, for an `if` to test: where the value is a
        temporary of its own, the expression that sets it."""
        gen = self.gen
        after, start = gen.count, len(gen.lines)
        v = gen.value(e)
        expr = gen.taken(v, after, start)
        return v if expr is None else f"({expr})"

    def pay(self, act: CompiledAction) -> None:
        """On to the next candidate unless the costs can be paid, as `_affordable`
        reads them: each amount in turn."""
        gen = self.gen
        for kind, amount in act.pays:  # each amount, then what pays it
            gen.emit(f"if {gen.value(amount)} > {self.paid_with(kind)}:")
            gen.emit("    continue")

    def paid_with(self, kind: str) -> str:
        """What a cost of `kind` is paid from: the player's hitpoints, or the
        resources they may pay with, counted once per listing, in place, as
        `Game.unexhausted_resources` counts them."""
        gen, have = self.gen, self.have
        if kind == "hp":
            return gen.into(f"{self.player}.hp")
        self.paid = True
        gen.emit(f"if {have} is None:")
        gen.emit(f"    {have} = 0")
        zones, cards, x = f"{self.player}.zones", self.cards or "g.cards", gen.tmp()
        for z in self.listing.resource_zones:  # a loop: see `_by_zones`
            gen.emit(f"    for {x} in {zones}[{z!r}]:")
            gen.emit(f"        if not {cards}[{x}].exhausted:")
            gen.emit(f"            {have} += 1")
        return have

    def found(self, act: CompiledAction, args: str) -> None:
        """The option taking `args`, listed."""
        if self.shared(act):
            self.get_made()
            self.gen.emit(f"{self.out}.append({self.made}[({act.name!r}, {args})])")
            return
        self.gen.emit(
            f"{self.out}.append({self.action}('act', ({act.name!r}, {args}), None, "
            "g.namer))"
        )

    def options(self, act: CompiledAction, found: str) -> None:
        """The options taking each of the tuples of arguments `found`, listed, in
        a loop (for the few found, faster than `map` over `zip`)."""
        args = self.gen.tmp()
        self.gen.emit(f"for {args} in {found}:")
        self.gen.depth += 1
        self.found(act, args)
        self.gen.depth -= 1

    def shared(self, act: CompiledAction) -> bool:
        """Whether the action's options may be kept from one listing to the next
        (`_Made`): each of its arguments a card, an ability or a counter's kind,
        none a player, which would be equal to the card of its number."""
        kinds = {"card", "ability", "counter", *self.listing.card_types}
        return all(p.type in kinds for p in act.params)

    def get_made(self) -> None:
        """`self.made`: the options kept for the game's cards, set now unless set
        already (a new game, or a card made, starts anew)."""
        gen, made, kept = self.gen, self.made, self.kept
        self.made_read = True
        gen.emit(f"if {made} is None:")
        gen.emit(f"    {made} = {kept}[0]")
        gen.emit(f"    if {made}.namer is not g.namer:")
        gen.emit(f"        {made} = {kept}[0] = {gen.const(_Made)}()")
        gen.emit(f"        {made}.namer = g.namer")


# a line that makes `env` anew or binds a parameter in it: all else naming it reads it
_WRITES_ENV = re.compile(r"\s*env( = \{'you': _\d+\}|\['\w+'\] = _\d+)$")


class _Made(dict):
    """The options a window has listed with one namer, by value: an option listed
    again is the same `Action`, not made anew. Its label is the same: a namer
    names the cards by what they were when made, and it is kept by the game
    until a card is made."""

    __slots__ = ("namer",)

    def __init__(self):
        self.namer = None

    def __missing__(self, value: tuple) -> Action:
        action = self[value] = Action("act", value, None, self.namer)
        return action


def _tables(listing, g, specs: tuple, fails: bool, recent: frozenset) -> tuple:
    """For each action of a window that reads one (see `_Window.tables`), as
    `sources_by_zone` and `_own_designs` have it with these recent events and
    the standard condition failing or not: the designs the player's cards may
    have, per zone, as a test of a design (a card of the player's, with no
    `in`) or as a dict (one drawn from its `in`); or the designs whose first
    ability may resolve, None for any."""
    found = []
    for kind, act, drawn in specs:
        if kind == "own":
            found.append(listing.own_after(recent) if fails else None)
            continue
        narrow = "any" if kind == "any" else "own" if fails else "resolving"
        table = listing.sources_by_zone(g, act, 1, narrow)
        if drawn == "zones":
            by_zone = dict(table)
            found += [by_zone.get(z) or None for _, z in act.drawn_zones]
        elif drawn:
            found.append(dict(table))
        else:
            found.append(_by_zones(table))
    return tuple(found)


def _zone_paths(e) -> list:
    """Of `whose.zone + ...` (as `referee.zone_terms` reads it): (whose, zone)
    per term."""
    if isinstance(e, ast.Binary) and e.op == "+":
        return _zone_paths(e.left) + _zone_paths(e.right)
    return [(ast.Path(e.parts[:-1], origin=e.origin), e.parts[-1])]


def _by_zones(table: tuple) -> tuple:
    """A table of `sources_by_zone` as (zone, its designs) for each zone where
    some design has abilities, looked through in a loop: for the few cards of a
    player's zones, plain loops are faster than pipelines of `map`s,
    `compress` and `chain` (as the player's cards found are sorted, their order
    does not matter)."""
    return tuple((z, frozenset(designs)) for z, designs in table if designs)


def _plain(ab) -> bool:
    """Whether `condition_met` reads nothing of the ability but the standard
    condition."""
    return ab.trigger is None and ab.cond is None and ab.affordable is None


def _abilities(listing, g, act, at: tuple, narrowed: bool, own: dict) -> tuple:
    """The abilities the action's second parameter may take of a card whose
    (design, zone) is `at` (see `Listing.possible_for`), if `narrowed` only
    those that say themselves when they may be activated: (index, modifiers,
    its entry of `own`, None for a plain one) for each."""
    design, zone = at
    printed = g.engine.abilities[design]
    return tuple(
        [
            (k, printed[k].modifiers, own.get((design, k)))
            for k in listing.possible_for(g, act, 1, design, zone)
            if not narrowed or own_condition(printed[k])
        ]
    )
