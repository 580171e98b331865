"""Compile a `Ruleset` into a `FlowGraph`, from the ruleset's data alone.

What the graph has comes from which rules exist: an edition with no chain rules
gets no chain subflow, a phase with `skip when` gets a guarded edge past it, a
phase with variants gets guarded edges to each variant's program, an `either`
in a program becomes one edge per option, an opened action that chains enters
the chain, one that begins a battle enters the battle steps. Every node and
edge keeps the citation and origin of the rule it comes from. Where the data
leaves a gap (no rule says who plays next, a chain that never resolves), the
node records why in `stuck`, and `graph_checks` reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import networkx as nx
from kotc.dsl import Ruleset, ast
from kotc.dsl.unparse import unparse_expr, unparse_program, unparse_rule

from .flow import CALL_KIND, RETURN_KIND, FlowGraph, where

START = "start"
TURN_START = "turn:start"
GAME_OVER = "game_over"
CHECK = "endgame:check"
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

    # --- primitives --------------------------------------------------------------

    def node(self, nid: str, label: str, role: str, subflow: str, *,
             rule: ast.Rule | None = None, cite: ast.Citation | None = None,
             origin: ast.Origin | None = None, detail: list[str] | None = None) -> str:
        self.g.add_node(
            nid, label=label, role=role, subflow=subflow, detail=list(detail or []),
            rule=rule.key if rule is not None else None,
            cite=cite if cite is not None else getattr(rule, "cite", None),
            origin=origin or (rule.origin if rule is not None else self.rs.origin),
            notes=[], stuck=None, hint=None,
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
        self.endgame()
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
                            rule=step, detail=_setup_detail(step))
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
        """Build one phase; returns the edges that leave it (and skip past it)."""
        entry = f"phase:{phase.name}"
        self.node(entry, phase.title, "phase", "turn", rule=phase)
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
            passing_by += [_Pending(p.src, "skip",
                                    f"skip {phase.title} when {unparse_expr(skip.cond)}",
                                    skip.cond, skip.cite or phase.cite, skip.origin)
                           for p in arriving]
        if enter:
            self.land([p if p.kind != "skip" else p for p in arriving], entry)
        if phase.opens_first:  # open before the program: on the phase itself
            cite = phase.opens_cite or phase.cite
            origin = phase.opens_cite.origin if phase.opens_cite else phase.origin
            for name in phase.opens_first:
                self.open_action(entry, name, cite, origin)
        leaving = self.phase_programs(phase, entry)
        if phase.opens:
            leaving = self.window(phase, entry, leaving)
        return leaving + passing_by

    def phase_programs(self, phase: ast.Phase, entry: str) -> list[_Pending]:
        cite = phase.run_cite or phase.cite
        if not phase.variants:
            return self.program(entry, phase.run, cite)
        leaving: list[_Pending] = []
        for i, variant in enumerate(phase.variants, 1):
            cond = _constant(variant.cond)
            if cond is False:
                continue
            vid = self.node(f"{entry}/when{i}", f"{phase.title}: exception", "program",
                            "turn", rule=phase, cite=variant.cite or phase.cite,
                            origin=variant.origin)
            self.edge(entry, vid, "guard", f"when {unparse_expr(variant.cond)}",
                      guard=variant.cond, cite=variant.cite or phase.cite,
                      origin=variant.origin)
            leaving += self.program(vid, variant.body, variant.cite or phase.cite)
            if cond is True:
                return leaving
        otherwise = phase.run[0].origin if phase.run else phase.origin
        if not phase.run:
            return leaving + [_Pending(entry, "otherwise", "otherwise", cite=cite,
                                       origin=otherwise)]
        rid = self.node(f"{entry}/run", f"{phase.title}: as usual", "program", "turn",
                        rule=phase, cite=cite, origin=otherwise)
        self.edge(entry, rid, "otherwise", "otherwise", cite=cite, origin=otherwise)
        return leaving + self.program(rid, phase.run, cite)

    def program(self, nid: str, body: tuple, cite: ast.Citation | None) -> list[_Pending]:
        """Put a program on a node; a top-level `either` splits it into options."""
        split = next((i for i, s in enumerate(body) if isinstance(s, ast.Either)), None)
        node = self.g.nodes[nid]
        if split is None:
            node["detail"] += _lines(body)
            return [_Pending(nid)]
        node["detail"] += _lines(body[:split])
        either: ast.Either = body[split]
        who = "choice" if either.who is None else f"chosen by {unparse_expr(either.who)}"
        leaving: list[_Pending] = []
        for k, option in enumerate(either.options, 1):
            origin = option[0].origin if option else either.origin
            oid = self.node(f"{nid}/or{k}", f"option {k}", "choice", node["subflow"],
                            cite=cite, origin=origin)
            self.edge(nid, oid, "choice", who, cite=cite, origin=either.origin)
            leaving += self.program(oid, option, cite)
        rest = body[split + 1:]
        if not rest:
            return leaving
        then = self.node(f"{nid}/then", "then", "program", node["subflow"], cite=cite,
                         origin=rest[0].origin)
        self.land(leaving, then)
        return self.program(then, rest, cite)

    def window(self, phase: ast.Phase, entry: str,
               leaving: list[_Pending]) -> list[_Pending]:
        """Where the phase's actions are open: loops, or calls into battle and chain."""
        if leaving == [_Pending(entry)]:
            win = entry
        else:
            win = self.node(f"{entry}/actions", f"{phase.title}: actions", "window",
                            "turn", rule=phase, cite=phase.opens_cite or phase.cite)
            self.land(leaving, win)
        cite = phase.opens_cite or phase.cite
        origin = phase.opens_cite.origin if phase.opens_cite else phase.origin
        for name in phase.opens:
            self.open_action(win, name, cite, origin)
        return [_Pending(win, "next", "end phase", cite=phase.cite, origin=phase.origin)]

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
        elif _contains(body, ast.BeginBattle):
            self.g.add_edge(node, "@battle", kind=CALL_KIND, **common)
        elif _contains(body, ast.EndGame):
            self.g.add_edge(node, GAME_OVER, kind="end", **common)
        else:
            self.g.add_edge(node, node, kind="action", **common)

    def anytime(self) -> None:
        """Actions open at any time: from every phase and every battle step, but
        giving the game up (`Ruleset.concessions`), which only the active player
        is offered, in its phases."""
        rule = self.rs.setting("turn", "anytime")
        if rule is None:
            return
        concessions = self.rs.concessions
        for nid, data in list(self.g.nodes(data=True)):
            role = data.get("role")
            if role in ("phase", "window", "battle_step"):
                for name in rule.actions:
                    if role == "battle_step" and name in concessions:
                        continue
                    self.open_action(nid, name, rule.cite, rule.origin, anytime=True)

    # --- battle ------------------------------------------------------------------

    def battle_steps(self) -> None:
        for s in self.rs.battle_steps:
            self.node(f"battle:{s.name}", s.title, "battle_step", "battle", rule=s,
                      detail=[", ".join(s.ops)])

    def battle(self) -> None:
        steps = self.rs.battle_steps
        ids = [f"battle:{s.name}" for s in steps]
        for i, step in enumerate(steps[1:], 1):
            self.edge(ids[i - 1], ids[i], "next", cite=step.cite, origin=step.origin)
        if ids:
            self.g.nodes[ids[0]]["hint"] = "no phase opens an action that begins a battle"
        self.connect_calls("battle", ids[0] if ids else None, ids[-1] if ids else None,
                           "battle over", "the battle section has no steps")

    def connect_calls(self, subflow: str, entry: str | None, exit_: str | None,
                      back: str, missing: str) -> None:
        """Re-point the placeholder call edges at the subflow's entry; add returns."""
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
                                 "from the left of the last actor"])
            self.edge(opened, last, "next", cite=respond.cite, origin=respond.origin)
            for name in sorted(self.chaining):
                self.edge(last, last, "respond", name, action=name, cite=respond.cite,
                          origin=respond.origin)
        if lifo is None:
            self.g.nodes[last]["stuck"] = "the chain section has no `resolve` rule"
            self.connect_calls("chain", opened, None, "", "")
            return
        resolve = self.node("chain:resolve", "Resolve", "chain_resolve", "chain",
                            rule=lifo, detail=["newest link first"])
        for extra in ("no_chaining_while_resolving", "deployed_spells_inline"):
            rule = setting("chain", extra)
            if rule is not None:
                self.g.nodes[resolve]["detail"].append(extra.replace("_", " "))
                self.g.nodes[resolve]["notes"].append((rule.key, rule.cite))
        passed = "all pass in a row" if respond is not None else ""
        self.edge(last, resolve, "next", passed, cite=(respond or lifo).cite,
                  origin=(respond or lifo).origin)
        self.edge(resolve, resolve, "resolve", "links remain", cite=lifo.cite,
                  origin=lifo.origin)
        close = self.node("chain:close", "Chain closes", "chain_close", "chain",
                          rule=lifo)
        self.edge(resolve, close, "next", "no links left", cite=lifo.cite,
                  origin=lifo.origin)
        renew = setting("chain", "new_chain_after_resolving")
        if renew is not None:  # a player who waited starts a new chain
            for name in sorted(self.chaining):
                self.edge(close, opened, "respond", name, action=name, cite=renew.cite,
                          origin=renew.origin)
        self.connect_calls("chain", opened, close, "chain closed", "")

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
            for cond in losing:
                self.edge(CHECK, out, "lose", cond.title, guard=cond.cond, cite=cond.cite,
                          origin=cond.origin)
            self.edge(out, CHECK, "recheck", "check again", cite=losing[0].cite,
                      origin=losing[0].origin)
        check = self.g.nodes[CHECK]
        for nid, data in list(self.g.nodes(data=True)):
            if data["subflow"] in PLAY_SUBFLOWS and data["role"] != "turn_start":
                self.edge(nid, CHECK, "endgame", cite=check["cite"],
                          origin=check["origin"])


def _lines(body: tuple) -> list[str]:
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


def _contains(body: tuple, cls: type) -> bool:
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
