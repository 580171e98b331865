"""Listing code written out per action, for the commonest shape of parameters.

`Listing._bind_one` lists an action with one parameter drawn from a collection
(summon a card of the hand, cast a spell) by calling, for each candidate, the
compiled check, the cost's amount and the resources to pay it with. Here the
same loop is written as one Python function per action with `pyexpr`: the
source, the check and the costs are written in place, reading the candidate and
its card's state from locals. What is read, in what order, and what fails stay
as `_bind_one` has them; a test lists every action both ways.
"""

from __future__ import annotations

from typing import Any

from kotc_dsl import ast

from .actions import Action
from .listing import _ability_ref, _own_condition
from .pyexpr import _CODE, _Gen
from .values import AbilityRef


def bind_one_lister(
    programs,
    param: ast.Param,
    typed: bool,
    check: ast.Expr | None,
    costs: list[tuple[str, ast.Expr]],
    resolves: bool,
):
    """`lister(listing, g, env, found)`: `_bind_one` for this action, with no
    argument given, its condition not ignored and its cost not waived."""
    gen = _Gen(programs)
    name = param.name
    you = gen.tmp()
    gen.emit(f"{you} = env['you']")
    gen.read["you"] = (you, 1)
    own = gen.tmp()
    if resolves:
        gen.emit(f"{own} = listing._own_designs(g, {you})")
    cards = gen.into("g.cards")
    have = gen.into("None")
    drawn = gen.value(param.source)
    gen.emit(
        f"for {{c}} in dict.fromkeys({drawn} if type({drawn}) is list "
        f"else _as_list({drawn})):"
    )
    c, state = gen.tmp(), gen.tmp()
    gen.lines[-1] = gen.lines[-1].replace("{c}", c)
    gen.depth += 1
    if typed:  # a card of that type, for certain: its state is read once
        gen.emit(f"{state} = {cards}[{c}]")
        gen.emit(f"if {state}.type != {param.type!r}:")
        gen.emit("    continue")
    if resolves:
        design = f"{state}.design" if typed else f"{cards}[{c}].design"
        gen.emit(f"if {own} is not None and {design} not in {own}:")
        gen.emit("    continue")
    gen.emit(f"env[{name!r}] = {c}")
    outer = gen.bound
    gen.bound = {**outer, name: c}
    if typed:
        gen.card_state[c] = state
    gen.read.pop(name, None)
    if check is not None:
        gen.emit(f"if not {gen.value(check)}:")
        gen.emit("    continue")
    _pay(gen, costs, you, have)
    if resolves:
        gen.emit(f"if not listing._condition_met(g, {you}, {c}, env):")
        gen.emit("    continue")
    gen.emit(f"found.append(({c},))")
    gen.bound = outer
    return _function(gen, "lister", "listing, g, env, found")


def own_ability_lister(programs, act, kind: str | None, checks: list, costs: list):
    """`_bind_own_ability` for `act` (a card of the player's with no `in`, then one
    of its abilities), with its condition not ignored and its cost not waived."""
    gen = _Gen(programs)
    card_param, ability_param = act.params
    name, ability_name = card_param.name, ability_param.name
    check, ability_check = checks
    a = gen.const(act)
    you = gen.tmp()
    gen.emit(f"{you} = env['you']")
    gen.read["you"] = (you, 1)
    narrow, cards, zones, pool = gen.tmp(), gen.tmp(), gen.tmp(), gen.tmp()
    gen.emit(f"{narrow} = listing._narrowing(g, {a}, 1, {you}, False)")
    gen.emit(f"{cards}, {zones} = g.cards, g.players[{you}].zones")
    gen.emit(f"{pool} = []")
    gen.emit(f"for z, designs in listing._sources_by_zone(g, {a}, 1, {narrow}):")
    gen.emit(f"    {pool} += [c for c in {zones}[z] if {cards}[c].design in designs]")
    gen.emit(f"if not {pool}:")
    gen.emit("    return")
    gen.emit(f"{pool}.sort()")
    own, possible, abilities = gen.tmp(), gen.tmp(), gen.tmp()
    gen.emit(f"{own} = {narrow} == 'own'")
    gen.emit(f"{abilities}, {possible} = g.engine.abilities, {a}.possible")
    have = gen.into("None")
    c, state = gen.tmp(), gen.tmp()
    gen.emit(f"for {c} in {pool}:")
    gen.depth += 1
    gen.emit(f"{state} = {cards}[{c}]")
    if kind is not None:
        gen.emit(f"if {state}.type != {kind!r}:")
        gen.emit("    continue")
    gen.emit(f"env[{name!r}] = {c}")
    outer = gen.bound
    gen.bound = {**outer, name: c}
    gen.card_state[c] = state
    gen.read.pop(name, None)
    if check is not None:
        gen.emit(f"if not {gen.value(check)}:")
        gen.emit("    continue")
    indices = gen.tmp()
    gen.emit(f"{indices} = {possible}.get(({state}.design, {state}.zone))")
    gen.emit(f"if {indices} is None:")
    gen.emit(
        f"    {indices} = listing._possible_for(g, {a}, 1, {state}.design, {state}.zone)"
    )
    gen.emit(f"if {own}:")
    gen.emit(f"    printed = {abilities}[{state}.design]")
    gen.emit(
        f"    {indices} = [k for k in {indices} if {gen.const(_own_condition)}(printed[k])]"
    )
    k, ref = gen.tmp(), gen.tmp()
    gen.emit(f"for {k} in {indices}:")
    gen.depth += 1
    gen.emit(
        f"{ref} = env[{ability_name!r}] = {gen.const(_ability_ref)}"
        f"({gen.const(AbilityRef)}, ({c}, {k}))"
    )
    gen.bound = {**gen.bound, ability_name: ref}
    gen.read.pop(ability_name, None)
    if ability_check is not None:
        gen.emit(f"if not {gen.value(ability_check)}:")
        gen.emit("    continue")
    _pay(gen, costs, you, have)
    if act.resolves:
        resolved = gen.bound.get(act.resolves) or f"env[{act.resolves!r}]"
        gen.emit(f"if not listing._condition_met(g, {you}, {resolved}, env):")
        gen.emit("    continue")
    gen.emit(f"found.append(({c}, {ref}))")
    gen.bound = outer
    return _function(gen, "lister", "listing, g, env, found")


def window_lister(listing, names: tuple):
    """`lister(listing, g, seat) -> [Action]`: `Listing.options` for these actions,
    written out: each one's counter gate, a bare action's requirement and costs,
    and the call of its binder."""
    gen = _Gen(listing.programs)
    you, out = gen.tmp(), gen.tmp()
    gen.emit(f"{you} = seat_of(seat)")
    gen.seats.add(you)
    gen.emit(f"{out} = []")
    per_player = "{}" if listing.standard_per_player else "None"
    gen.emit(f"listing._standard_memo, listing._resources_memo = {per_player}, {{}}")
    gen.emit("try:")
    gen.depth += 1
    in_play = gen.into("g.counters_in_play")
    action = gen.const(Action)
    for name in names:
        act = listing.actions[name]
        # each action binds names in an env of its own: nothing read carries over
        gen.read, gen.bound = {}, {}
        depth = gen.depth
        if act.counter_kinds is not None:  # it takes a counter off a card
            kinds = gen.const(act.counter_kinds)
            gen.emit(f"if {in_play} and not {in_play}.keys().isdisjoint({kinds}):")
            gen.depth += 1
        if not act.params:
            gen.emit(f"env = {{'you': {you}}}")
            gen.read["you"] = (you, gen.depth)
            if act.requires is not None:
                gen.emit(f"if {gen.value(act.condition)}:")
                gen.depth += 1
            have = gen.into("None") if act.pays else None
            for kind, amount in act.pays:
                need = gen.value(amount)
                if kind == "hp":
                    gen.emit(f"if {need} <= g.players[{you}].hp:")
                else:
                    _resources(gen, you, have)
                    gen.emit(f"if {need} <= {have}:")
                gen.depth += 1
            gen.emit(f"{out}.append({gen.const(act.bare)})")
        else:
            found, a = gen.tmp(), gen.const(act)
            if act.lister is not None:
                gen.emit(f"{found} = []")
                gen.emit(f"{gen.const(act.lister)}(listing, g, {{'you': {you}}}, {found})")
            elif act.binder is None:
                gen.emit(f"{found} = listing.bindings(g, {a}, seat, ())")
            else:  # as `bindings` would, its look at the counters made above
                gen.emit(f"{found} = []")
                gen.emit(
                    f"{gen.const(act.binder)}(g, {a}, {{'you': {you}}}, {found}, "
                    "False, False)"
                )
            gen.emit(f"if {found}:")
            gen.emit(
                f"    {out} += [{action}('act', ({name!r}, args), None, g) "
                f"for args in {found}]"
            )
        gen.depth = depth
    gen.depth -= 1
    gen.emit("finally:")
    gen.emit("    listing._standard_memo = listing._resources_memo = None")
    gen.emit(f"return {out}")
    return _function(gen, "window", "listing, g, seat")


def _resources(gen: _Gen, you: str, have: str) -> None:
    """`have` the resources `you` may pay with, as `_affordable` reads them: once
    per listing."""
    memo = gen.tmp()
    gen.emit(f"if {have} is None:")
    gen.emit(f"    {memo} = listing._resources_memo")
    gen.emit(f"    {have} = None if {memo} is None else {memo}.get({you})")
    gen.emit(f"    if {have} is None:")
    gen.emit(f"        {have} = g.unexhausted_resources({you})")
    gen.emit(f"        if {memo} is not None:")
    gen.emit(f"            {memo}[{you}] = {have}")


def _pay(gen: _Gen, costs: list, you: str, have: str) -> None:
    """Go on to the next candidate unless the costs can be paid, as `_affordable`
    reads them: each amount in turn, the resources once per listing."""
    for kind, amount in costs:
        need = gen.value(amount)
        if kind == "hp":
            gen.emit(f"if {need} > g.players[{you}].hp:")
            gen.emit("    continue")
            continue
        _resources(gen, you, have)
        gen.emit(f"if {need} > {have}:")
        gen.emit("    continue")


def _function(gen: _Gen, name: str, params: str) -> Any:
    body = "\n".join(gen.lines)
    source = f"def {name}({params}):\n{body}\n"
    code = _CODE.get(source)
    if code is None:
        code = _CODE[source] = compile(source, "<kotc listing>", "exec")
    namespace = dict(gen.helpers())
    namespace.update(gen.consts)
    exec(code, namespace)
    fn = namespace[name]
    fn.source = source
    return fn
