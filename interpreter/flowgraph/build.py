"""Compile a `Ruleset` into a `FlowGraph`, from the ruleset's data alone.

What the graph has comes from which rules exist: an edition with no chain rules
gets no chain subflow, a phase with `skip when` gets a guarded edge past it, a
phase with variants gets guarded edges to each variant's program, an opened
action that chains enters the chain, one that begins a battle enters the battle
steps. Every node and
edge keeps the citation and origin of the rule it comes from. Where the data
leaves a gap (no rule says who plays next, a chain that never resolves), the
node records why in `stuck`, and `graph_checks` reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import networkx as nx
from kotc.dsl import Ruleset, ast
from kotc.dsl.unparse import unparse_expr, unparse_program, unparse_rule

from .flow import CALL_KIND, RETURN_KIND, ROLE_KIND, FlowGraph, where

START = "start"
TURN_START = "turn:start"
GAME_OVER = "game_over"
CHECK = "endgame:check"
CHECKS = "endgame:checks"
PLAY_SUBFLOWS = ("turn", "battle", "chain")


@dataclass(frozen=True)
class _Pending:
    """An edge whose source is known and whose target is the next thing built."""

    src: str
    kind: str = "next"
    label: str = ""
    guard: ast.Expr | None = None
    cite: ast.Citation | None = None
    origin: ast.Origin = ast.NOWHERE


def compile_ruleset(ruleset: Ruleset) -> FlowGraph:
    """The flow graph of an edition.

    Args:
        ruleset: a loaded, validated edition.

    Returns:
        A `FlowGraph` with subflows setup, turn, battle (when the edition has
        battle steps), chain (when it has chain rules) and endgame.
    """
    return _Builder(ruleset).build()


class _Builder:
    def __init__(self, ruleset: Ruleset):
        self.rs = ruleset
        self.g = nx.MultiDiGraph()
        self.gaps: list[tuple[ast.Origin, str]] = []
        chaining = ruleset.setting("chain", "chaining")
        self.chaining = set(chaining.actions) if chaining else set()
        # in the rules' order: a window's `offers` are listed in it
        self.chaining_order = list(chaining.actions) if chaining else []
        self.anytime_rule = ruleset.setting("turn", "anytime")

    # --- primitives --------------------------------------------------------------

    def node(self, nid: str, label: str, role: str, subflow: str, *,
             rule: ast.Rule | None = None, cite: ast.Citation | None = None,
             origin: ast.Origin | None = None, detail: list[str] | None = None,
             **data: object) -> str:
        """Add a node; its `kind` is the role's (`ROLE_KIND`), and `data` is what
        that kind reads (a window's `policy`, a step's `each_player`...)."""
        self.g.add_node(
            nid, label=label, role=role, kind=ROLE_KIND[role], subflow=subflow,
            detail=list(detail or []),
            rule=rule.key if rule is not None else None,
            cite=cite if cite is not None else getattr(rule, "cite", None),
            origin=origin or (rule.origin if rule is not None else self.rs.origin),
            notes=[], stuck=None, hint=None, **data,
        )
        return nid

    def edge(self, u: str, v: str, kind: str, label: str = "", *,
             action: str | None = None, guard: ast.Expr | None = None,
             cite: ast.Citation | None = None, origin: ast.Origin | None = None) -> None:
        self.g.add_edge(u, v, kind=kind, label=label, action=action, guard=guard,
                        cite=cite, origin=origin or ast.NOWHERE, anytime=False)

    def land(self, pending: list[_Pending], target: str) -> None:
        """Connect pending edges to `target`; a plain step in cites the rule it enters."""
        into = self.g.nodes[target]
        for p in pending:
            cite = p.cite if p.cite is not None else into["cite"]
            origin = p.origin if p.origin != ast.NOWHERE else into["origin"]
            self.edge(p.src, target, p.kind, p.label, guard=p.guard, cite=cite,
                      origin=origin)

    def stuck(self, pending: list[_Pending], why: str) -> None:
        for p in pending:
            self.g.nodes[p.src]["stuck"] = why

    # --- the whole game ----------------------------------------------------------

    def build(self) -> FlowGraph:
        first_setup = next(iter(self.rs.rules("setup")), None)
        self.node(START, "New game", "start", "setup",
                  cite=getattr(first_setup, "cite", None), origin=self.rs.origin,
                  detail=self.settings_lines("setup"))
        pending = self.setup()
        self.turn(pending)
        self.battle_steps()
        self.anytime()
        self.battle()
        self.chain()
        self.forced_attacks()
        self.endgame()
        self.checks()
        self.reactions()
        for number, (u, v, k) in enumerate(self.g.edges(keys=True)):
            self.g.edges[u, v, k]["id"] = number  # what traces name an edge by
        fg = FlowGraph(self.g, self.rs.name, START, GAME_OVER, self.rs.origin)
        fg.gaps = self.gaps
        return fg

    def settings_lines(self, section: str) -> list[str]:
        return [setting_line(r) for r in self.rs.rules(section)
                if isinstance(r, ast.Setting)]

    # --- setup -------------------------------------------------------------------

    def setup(self) -> list[_Pending]:
        pending = [_Pending(START)]
        for step in self.rs.setup_steps:
            nid = self.node(f"setup:{step.name}", step.title, "setup_step", "setup",
                            rule=step, detail=_setup_detail(step),
                            each_player=step.first_player_dice is None)
            self.land(pending, nid)
            pending = [_Pending(nid, cite=step.cite, origin=step.origin)]
        return [_Pending(p.src, label="first turn", cite=p.cite, origin=p.origin)
                for p in pending]

    # --- the turn ----------------------------------------------------------------

    def turn(self, from_setup: list[_Pending]) -> None:
        passing = self.rs.setting("turn", "next_turn")
        phases = self.rs.phases
        anchor = passing or (phases[0] if phases else None)
        self.node(TURN_START, "Start of turn", "turn_start", "turn", rule=anchor,
                  detail=[f"the active player: {passing.direction}"] if passing else [])
        self.land(from_setup, TURN_START)
        pending = [_Pending(TURN_START)]
        for phase in phases:
            pending = self.phase(phase, pending)
        if passing is None:
            self.stuck(pending,
                       "no `next_turn` rule in the turn section says who plays next")
            return
        for p in pending:
            label = p.label if p.kind == "skip" else f"next turn ({passing.direction})"
            self.edge(p.src, TURN_START, "skip" if p.kind == "skip" else "turn", label,
                      guard=p.guard, cite=passing.cite if p.kind != "skip" else p.cite,
                      origin=passing.origin if p.kind != "skip" else p.origin)

    def phase(self, phase: ast.Phase, arriving: list[_Pending]) -> list[_Pending]:
        """Build one phase; returns the edges that leave it (and skip past it).

        `phase:NAME` marks the phase; `/before` is the window before its program
        (what it `opens ... throughout`); its program runs on the entry, or on
        `/run` and `/whenK` (its variants); `/actions` is its window, `/others` the
        other players' window at its end.
        """
        entry = f"phase:{phase.name}"
        self.node(entry, phase.title, "phase", "turn", rule=phase, marks=phase.name,
                  level="phase")
        passing_by: list[_Pending] = []
        enter = True
        for skip in phase.skips:
            cond = _constant(skip.cond)
            if cond is True:
                enter = False
                self.g.nodes[entry]["hint"] = (
                    f"`skip when {unparse_expr(skip.cond)}` at {where(skip.origin)} "
                    "always holds")
            if cond is False:
                continue
            passing_by += [_Pending(entry, "skip",
                                    f"skip {phase.title} when {unparse_expr(skip.cond)}",
                                    skip.cond, skip.cite or phase.cite, skip.origin)]
        if enter:
            self.land(arriving, entry)
        else:  # never entered: what arrives passes by
            passing_by = [_Pending(p.src, "skip", q.label, q.guard, q.cite, q.origin)
                          for p in arriving for q in passing_by]
        src = entry
        if phase.opens_first:  # a window before the program
            cite = phase.opens_cite or phase.cite
            origin = phase.opens_cite.origin if phase.opens_cite else phase.origin
            src = self.node(f"{entry}/before", f"{phase.title}: before", "window",
                            "turn", rule=phase, cite=cite, origin=origin,
                            policy="active", ask_when_empty=False,
                            offers=list(phase.opens_first), prompt=phase.label,
                            close=f"go on with the {phase.label}", decision="phase")
            self.edge(entry, src, "next", cite=cite, origin=origin)
            for name in phase.opens_first:
                self.open_action(src, name, cite, origin)
        leaving = self.phase_programs(phase, entry, src)
        if phase.window is not None:
            leaving = self.round_window(phase, phase.window, entry, leaving)
        elif phase.opens or self.anytime_rule is not None:
            leaving = self.window(phase, entry, leaving)
        return leaving + passing_by

    def phase_programs(self, phase: ast.Phase, entry: str,
                       src: str) -> list[_Pending]:
        """The phase's program, on `entry` itself where nothing comes between."""
        cite = phase.run_cite or phase.cite
        otherwise = phase.run[0].origin if phase.run else phase.origin
        if not phase.variants:
            if src == entry:
                return self.program(entry, phase.run, cite)
            if not phase.run:
                return [_Pending(src, "next", "go on", cite=cite, origin=otherwise)]
            rid = self.node(f"{entry}/run", f"{phase.title}: program", "program",
                            "turn", rule=phase, cite=cite, origin=otherwise)
            self.edge(src, rid, "next", "go on", cite=cite, origin=otherwise)
            return self.program(rid, phase.run, cite)
        leaving: list[_Pending] = []
        for i, variant in enumerate(phase.variants, 1):
            cond = _constant(variant.cond)
            if cond is False:
                continue
            vid = self.node(f"{entry}/when{i}", f"{phase.title}: exception", "program",
                            "turn", rule=phase, cite=variant.cite or phase.cite,
                            origin=variant.origin)
            self.edge(src, vid, "guard", f"when {unparse_expr(variant.cond)}",
                      guard=variant.cond, cite=variant.cite or phase.cite,
                      origin=variant.origin)
            leaving += self.program(vid, variant.body, variant.cite or phase.cite)
            if cond is True:
                return leaving
        if not phase.run:
            return leaving + [_Pending(src, "otherwise", "otherwise", cite=cite,
                                       origin=otherwise)]
        rid = self.node(f"{entry}/run", f"{phase.title}: as usual", "program", "turn",
                        rule=phase, cite=cite, origin=otherwise)
        self.edge(src, rid, "otherwise", "otherwise", cite=cite, origin=otherwise)
        return leaving + self.program(rid, phase.run, cite)

    def program(self, nid: str, body: ast.Block,
                cite: ast.Citation | None) -> list[_Pending]:
        """Put a program on a node, which runs it whole: an `either` in it is a
        decision made as the program runs, written among its lines."""
        self.g.nodes[nid]["detail"] += _lines(body)
        return [_Pending(nid)]

    def window(self, phase: ast.Phase, entry: str,
               leaving: list[_Pending]) -> list[_Pending]:
        """The phase's window (what it opens, and what is open at any time), then
        the others' window where some action open at any time is theirs too."""
        cite = phase.opens_cite or phase.cite
        origin = phase.opens_cite.origin if phase.opens_cite else phase.origin
        win = self.node(f"{entry}/actions", f"{phase.title}: actions", "window",
                        "turn", rule=phase, cite=cite, policy="active",
                        ask_when_empty=True, offers=list(phase.opens), anytime="all",
                        prompt=phase.label, close=f"end the {phase.label}",
                        decision="phase")
        self.land(leaving, win)
        for name in phase.opens:
            self.open_action(win, name, cite, origin)
        rule = self.anytime_rule
        if rule is None or not self.others_actions():
            return [_Pending(win, "next", "end phase", cite=phase.cite,
                             origin=phase.origin)]
        others = self.node(f"{entry}/others", f"{phase.title}: the others", "window",
                           "turn", rule=rule, policy="others", after_action="stay",
                           offers=[], anytime="others",
                           prompt=f"act before the {phase.label} ends",
                           decision="phase")
        self.edge(win, others, "next", "end phase", cite=phase.cite,
                  origin=phase.origin)
        return [_Pending(others, "pass", "all others pass", cite=rule.cite,
                         origin=rule.origin)]

    def round_window(self, phase: ast.Phase, rule: ast.PhaseWindow, entry: str,
                     leaving: list[_Pending]) -> list[_Pending]:
        """The phase's window as a round (`window round from active until
        all_pass ...`): what it opens and what is open at any time, offered to each
        player in turn from the active player until all pass in a row; a chain
        entered from it comes back to it from the active player."""
        cite = rule.cite or phase.opens_cite or phase.cite
        origin = rule.origin
        after = "actor" if rule.after == "ask_actor" else "next"
        win = self.node(f"{entry}/actions", f"{phase.title}: actions", "window",
                        "turn", rule=phase, cite=cite, origin=origin, policy="round",
                        start="active", auto_pass=True, after_action=after,
                        offers=list(phase.opens), anytime="all", prompt=phase.label,
                        decision="phase",
                        detail=["each player in turn from the active player",
                                "until all pass in a row",
                                "after an action: " + ("the actor again"
                                                       if after == "actor"
                                                       else "the next player")])
        self.land(leaving, win)
        for name in phase.opens:
            self.open_action(win, name, cite, origin)
        return [_Pending(win, "pass", "all pass in a row", cite=cite, origin=origin)]

    def others_actions(self) -> list[str]:
        """The actions open at any time that players other than the active one may
        take: all but giving the game up (`Ruleset.concessions`)."""
        rule = self.anytime_rule
        concessions = self.rs.concessions
        return [a for a in (rule.actions if rule else ()) if a not in concessions]

    def open_action(self, node: str, name: str, cite: ast.Citation | None,
                    origin: ast.Origin, anytime: bool = False) -> None:
        """An action open at `node`: a loop, or a call into the chain or a battle.

        Calls go to a placeholder (`@chain`, `@battle`) until that subflow exists.
        """
        action = self.rs.actions.get(name)
        body = action.body if action else ()
        common = dict(label=name, action=name, guard=None, cite=cite, origin=origin,
                      anytime=anytime)
        if name in self.chaining:
            self.g.add_edge(node, "@chain", kind=CALL_KIND, **common)
            if _contains(body, ast.Begin):  # its link, as it resolves, begins one
                self.g.add_edge(node, "@battle", kind=CALL_KIND,
                                **{**common, "action": None,
                                   "label": f"{name}: the battle its link begins"})
        elif _contains(body, ast.Begin):
            self.g.add_edge(node, "@battle", kind=CALL_KIND, **common)
        elif _contains(body, ast.EndGame):
            self.g.add_edge(node, GAME_OVER, kind="end", **common)
        else:
            self.g.add_edge(node, node, kind="action", **common)

    def anytime(self) -> None:
        """Actions open at any time, at each window that offers them: all of them
        at the phases' own windows, and but giving the game up
        (`Ruleset.concessions`) at the others' windows and between battle steps."""
        rule = self.anytime_rule
        if rule is None:
            return
        others = self.others_actions()
        for nid, data in list(self.g.nodes(data=True)):
            which = data.get("anytime")
            names = rule.actions if which == "all" else others if which else ()
            for name in names:
                self.open_action(nid, name, rule.cite, rule.origin, anytime=True)

    # --- battle ------------------------------------------------------------------

    def battle_steps(self) -> None:
        """Each battle step (`atomic`: the game's end waits for its program;
        `joined`: and for the next step's), and after it a window where anything
        may be taken there (policy `round`, from the attacker)."""
        setting = self.rs.setting
        windows = setting("battle", "step_windows")
        together = setting("battle", "simultaneous_steps")
        joined = set(together.steps[:-1]) if together else set()
        offers = self.chaining_order if windows is not None else []
        open_between = bool(offers or self.others_actions())
        # after the steps named (a round from the attacker, as a phase's), or
        # after each; whom a window asks after an action
        chosen = set(windows.steps) if windows is not None and windows.steps else None
        after = ("actor" if windows is not None and windows.after == "ask_actor"
                 else "next")
        for s in self.rs.battle_steps:
            nid = self.node(f"battle:{s.name}", s.title, "battle_step", "battle",
                            rule=s, detail=[", ".join(s.ops)], marks=s.name,
                            level="step", record="battle", atomic=True,
                            joined=s.name in joined)
            if not open_between or chosen is not None and s.name not in chosen:
                continue
            rule = windows if offers else self.anytime_rule
            win = self.node(f"{nid}/window", f"after {s.title}", "window", "battle",
                            rule=rule, policy="round", start="attacker",
                            auto_pass=True, after_action=after, offers=offers,
                            anytime="others", prompt="act between battle steps",
                            record="battle", decision="battle")
            for name in sorted(offers):
                self.open_action(win, name, rule.cite if rule else None,
                                 rule.origin if rule else s.origin)

    def battle(self) -> None:
        steps = self.rs.battle_steps
        if not steps:
            self.connect_calls("battle", None, None, "battle over",
                               "the battle section has no steps")
            return
        record = self.rs.battle_record
        over = self.node("battle:end", "Battle over", "battle_end", "battle",
                         rule=record or steps[-1], cite=getattr(record, "cite", None),
                         logs="battle_end", record="battle", level="step")
        ids = [f"battle:{s.name}" for s in steps]
        for i, step in enumerate(steps):
            nid, after = ids[i], ids[i + 1] if i + 1 < len(ids) else over
            win = f"{nid}/window"
            nxt = steps[i + 1] if i + 1 < len(steps) else step
            if win in self.g:
                self.edge(nid, win, "next", cite=step.cite, origin=step.origin)
                self.edge(win, after, "pass", "all pass in a row",
                          cite=self.g.nodes[win]["cite"], origin=nxt.origin)
                self.edge(win, over, "skip", "the battle is cancelled",
                          cite=step.cite, origin=step.origin)
            else:
                self.edge(nid, after, "next", cite=nxt.cite, origin=nxt.origin)
            self.edge(nid, after, "skip", "step skipped", cite=step.cite,
                      origin=step.origin)
            if after != over:
                self.edge(nid, over, "skip", "the battle is cancelled",
                          cite=step.cite, origin=step.origin)
        self.g.nodes[ids[0]]["hint"] = "no phase opens an action that begins a battle"
        self.connect_calls("battle", ids[0], over, "battle over", "")

    def reactions(self) -> None:
        """Each battle step lists the counters that act before or after it (a
        reactive counter whose trigger names the step): where Taunt or Medic acts
        is part of the battle's flow, though no arrow leads there."""
        for _, d in self.g.nodes(data=True):
            if d["role"] != "battle_step":
                continue
            d["reactions"] = [
                {"timing": c.trigger.timing, "counter": c.name, "title": c.title,
                 "cite": c.cite, "origin": c.origin}
                for c in self.rs.counters.values()
                if c.trigger is not None and c.trigger.timing in ("before", "after")
                and d["marks"] in c.trigger.events
            ]

    def connect_calls(self, subflow: str, entry: str | None, exit_: str | None,
                      back: str, missing: str, renew: str | None = None) -> None:
        """Re-point the placeholder call edges at the subflow's entry; add returns
        (and from `renew`, the window after the chain, to the phases' windows)."""
        placeholder = f"@{subflow}"
        if placeholder not in self.g:
            return
        calls = list(self.g.in_edges(placeholder, data=True))
        self.g.remove_node(placeholder)
        for u, _, d in calls:
            if entry is None:
                self.gaps.append((d["origin"], f"action '{d['action']}' enters the "
                                               f"{subflow}, but {missing}"))
                self.g.add_edge(u, u, **{**d, "kind": "action"})
            else:
                self.g.add_edge(u, entry, **d)
        if entry is None or exit_ is None:
            return
        exit_node = self.g.nodes[exit_]
        anytime_only: dict[str, bool] = {}
        for u, _, d in calls:
            anytime_only[u] = anytime_only.get(u, True) and d.get("anytime", False)
        for caller, anytime in anytime_only.items():
            self.g.add_edge(exit_, caller, kind=RETURN_KIND, label=back, action=None,
                            guard=None, cite=exit_node["cite"],
                            origin=exit_node["origin"], anytime=anytime)
            if renew is not None and self.g.nodes[caller]["subflow"] == "turn":
                again = self.g.nodes[renew]
                self.g.add_edge(renew, caller, kind=RETURN_KIND, label="all pass",
                                action=None, guard=None, cite=again["cite"],
                                origin=again["origin"], anytime=anytime)

    def forced_attacks(self) -> None:
        """An effect may begin a battle (`begin battle with ...`, a forced
        attack) wherever a program runs: in a phase, or as a chain resolves or
        closes; it is a battle of its own, entered from there and back (one begun
        `after battle` waits for the battle under way to end, then begins)."""
        steps = self.rs.battle_steps
        if not steps:
            return
        entry, over = f"battle:{steps[0].name}", "battle:end"
        record = self.rs.battle_record
        cite = record.cite if record else steps[0].cite
        origin = record.origin if record else steps[0].origin
        self.edge(over, entry, "effect", "a forced attack that waited", cite=cite,
                  origin=origin)
        for nid, data in list(self.g.nodes(data=True)):
            if data.get("subflow") in ("turn", "chain") and data["kind"] != "return" \
                    or nid == "chain:close":
                self.g.add_edge(nid, entry, kind="effect", label="a forced attack",
                                action=None, guard=None, cite=cite, origin=origin,
                                anytime=True)
                self.g.add_edge(over, nid, kind="effect_return", label="battle over",
                                action=None, guard=None, cite=cite, origin=origin,
                                anytime=True)

    # --- chain -------------------------------------------------------------------

    def chain(self) -> None:
        if not self.rs.has_chain:
            self.connect_calls("chain", None, None, "", "the edition has no chain rules")
            return
        setting = self.rs.setting
        chaining = setting("chain", "chaining")
        respond = setting("chain", "respond")
        lifo = setting("chain", "resolve_last_in_first_out")
        first = chaining or self.rs.rules("chain")[0]
        opened = self.node("chain:open", "Chain opens", "chain_open", "chain", rule=first,
                           detail=["the chaining action becomes link 1"])
        self.g.nodes[opened]["hint"] = (
            "no phase opens a chaining action" if chaining
            else "the chain section has no `chaining` rule")
        last = opened
        if respond is not None:
            last = self.node("chain:respond", "Responses", "chain_respond", "chain",
                             rule=respond, detail=[
                                 f"each player in turn, {respond.direction}",
                                 "from the left of the last actor" if respond.left
                                 else "from the last actor, again after each link"],
                             policy="round",
                             start="left_of_last_actor" if respond.left
                             else "last_actor",
                             auto_pass=False, after_action="stay",
                             offers=self.chaining_order,
                             prompt="respond to the chain", record="chain",
                             decision="chain")
            self.edge(opened, last, "next", cite=respond.cite, origin=respond.origin)
            for name in sorted(self.chaining):
                self.edge(last, last, "respond", name, action=name, cite=respond.cite,
                          origin=respond.origin)
        if lifo is None:
            self.g.nodes[last]["stuck"] = "the chain section has no `resolve` rule"
            self.connect_calls("chain", opened, None, "", "")
            return
        top = lifo.top_link and respond is not None
        resolve = self.node("chain:resolve", "Resolve", "chain_resolve", "chain",
                            rule=lifo, detail=[
                                "the top link, then the responses again" if top
                                else "newest link first"],
                            resolution="top_link" if top else "last_in_first_out",
                            record="chain")
        for extra in ("no_chaining_while_resolving", "deployed_spells_inline"):
            rule = setting("chain", extra)
            if rule is not None:
                self.g.nodes[resolve]["detail"].append(extra.replace("_", " "))
                self.g.nodes[resolve]["notes"].append((rule.key, rule.cite))
        passed = "all pass in a row" if respond is not None else ""
        self.edge(last, resolve, "next", passed, cite=(respond or lifo).cite,
                  origin=(respond or lifo).origin)
        if top:  # one link, then the window again from the active player
            self.edge(resolve, last, "resolve", "links remain: from the active player",
                      cite=lifo.cite, origin=lifo.origin)
        else:
            self.edge(resolve, resolve, "resolve", "links remain", cite=lifo.cite,
                      origin=lifo.origin)
        close = self.node("chain:close", "Chain closes", "chain_close", "chain",
                          rule=lifo, record="chain", after="chain")
        self.edge(resolve, close, "next", "no links left", cite=lifo.cite,
                  origin=lifo.origin)
        renew = setting("chain", "new_chain_after_resolving")
        if renew is None:
            self.connect_calls("chain", opened, close, "chain closed", "")
            return
        # a chain entered from a phase: each other player may start a new one
        again = self.node("chain:renew", "A new chain?", "window", "chain", rule=renew,
                          detail=["each other player in turn, once around"],
                          policy="others", after_action="close",
                          offers=self.chaining_order, prompt="start a new chain",
                          decision="renew")
        self.edge(close, again, "next", "entered from a phase", cite=renew.cite,
                  origin=renew.origin)
        for name in sorted(self.chaining):
            self.edge(again, opened, "respond", name, action=name, cite=renew.cite,
                      origin=renew.origin)
        self.connect_calls("chain", opened, close, "chain closed", "", again)

    # --- checks before anyone is asked ---------------------------------------------

    def checks(self) -> None:
        """The checks made before any player is asked in any window (`checks`
        section): one node, entered from every window before it asks, run again
        while a pass changes something, then the game's end checked, then back."""
        checks = self.rs.checks
        if not checks:
            return
        first = checks[0]
        self.node(CHECKS, "Checks before anyone is asked", "checks", "endgame",
                  rule=first, detail=[line for c in checks for line in _check_lines(c)]
                  + ["again while a pass changes something"])
        for nid, data in list(self.g.nodes(data=True)):
            if data["kind"] == "window":
                self.edge(nid, CHECKS, "checks", "before anyone is asked",
                          cite=first.cite, origin=first.origin)
                self.edge(CHECKS, nid, "resume", "a pass changed nothing",
                          cite=first.cite, origin=first.origin)
        self.edge(CHECKS, CHECKS, "recheck", "a pass changed something",
                  cite=first.cite, origin=first.origin)
        self.edge(CHECKS, CHECK, "endgame", cite=self.g.nodes[CHECK]["cite"],
                  origin=self.g.nodes[CHECK]["origin"])

    # --- endgame -----------------------------------------------------------------

    def endgame(self) -> None:
        rules = self.rs.rules("endgame")
        first = rules[0] if rules else None
        self.node(CHECK, "Endgame check", "endgame_check", "endgame", rule=first,
                  detail=["after every change of state"] + self.settings_lines("endgame"))
        criteria = self.rs.criteria
        self.node(GAME_OVER, "Game over", "game_over", "endgame",
                  rule=criteria[0] if criteria else first,
                  detail=[f"{i}. {c.title}" for i, c in enumerate(criteria, 1)])
        self.g.nodes[GAME_OVER]["hint"] = "no `condition` rule in the endgame section"
        for cond in self.rs.end_conditions:
            self.edge(CHECK, GAME_OVER, "end", cond.title, guard=cond.cond,
                      cite=cond.cite, origin=cond.origin)
        losing = self.rs.lose_conditions
        if losing:
            out = self.node("endgame:lose", "A player loses and leaves", "eliminated",
                            "endgame", rule=losing[0])
            for lose in losing:
                self.edge(CHECK, out, "lose", lose.title, guard=lose.cond, cite=lose.cite,
                          origin=lose.origin)
            self.edge(out, CHECK, "recheck", "check again", cite=losing[0].cite,
                      origin=losing[0].origin)
        check = self.g.nodes[CHECK]
        for nid, data in list(self.g.nodes(data=True)):
            if data["subflow"] in PLAY_SUBFLOWS and data["role"] != "turn_start":
                self.edge(nid, CHECK, "endgame", cite=check["cite"],
                          origin=check["origin"])
                self.edge(CHECK, nid, "resume", "the game goes on", cite=check["cite"],
                          origin=check["origin"])
        passing = self.rs.setting("turn", "next_turn")
        if passing is not None:  # the active player is out: what they did is dropped
            self.edge(CHECK, TURN_START, "turn", "the active player is out",
                      cite=passing.cite, origin=passing.origin)
        # the safety limits of the engine, which no rule states, or the ruleset's
        # own turn cap (`limit turns N`), citing its rule
        for src, what in ((TURN_START, "turns"), (CHECK, "decisions")):
            cite, origin = self.rs.safety_limit(what)
            self.edge(src, GAME_OVER, "over", f"a safety limit on {what}", cite=cite,
                      origin=origin)


def _check_lines(check: ast.Check) -> list[str]:
    """A check as its node lists it: its title, then its program."""
    return [f"{check.title}:"] + ["  " + line for line in _lines(check.body)]


def _lines(body: ast.Block) -> list[str]:
    """A program one line per line, as written in a rule file."""
    return unparse_program(body).splitlines()


def setting_line(rule: ast.Rule) -> str:
    """A setting as written, without `override` or citation: `deck size 40..60`."""
    return unparse_rule(rule, citation=False).removeprefix("override ")


def _setup_detail(step: ast.SetupStep) -> list[str]:
    if step.first_player_dice is not None:
        return [f"each player rolls {step.first_player_dice} dice", "highest goes first"]
    return _lines(step.body)


def _constant(cond: ast.Expr) -> bool | None:
    """A guard written as a literal `true` or `false`; None for a real condition."""
    return cond.value if isinstance(cond, ast.BoolLit) else None


def _contains(body: ast.Block, cls: type[ast.Stmt]) -> bool:
    """Whether a program holds a statement of `cls`, at any depth."""
    for stmt in body:
        if isinstance(stmt, cls):
            return True
        for f in fields(stmt):
            value = getattr(stmt, f.name)
            blocks = value if isinstance(value, tuple) else (value,)
            for b in blocks:
                if isinstance(b, tuple) and _contains(b, cls):
                    return True
                if isinstance(b, ast.Stmt) and _contains((b,), cls):
                    return True
    return False
