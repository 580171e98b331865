"""Rulings as scenario files (`.kscn`): read, validated, and turned into plain data.

A scenario names the editions its ruling applies to and the rulebook sections
it checks; it builds a position (or starts a new game), scripts the dice, lists
every decision taken and says what must follow, per edition where editions
differ. This module reads the files (`scenario_model` holds what they say,
`scenario_checks` what must hold of it); `kotc.checking.scenario_run` plays
them. Every problem is located (`file:line:col: message`) and all are reported
at once, so a designer fixes a file in one pass.

A part limited to some editions (`for "E"`, `expect for`, `cite ... in`) may name
only editions that reach it: the scenario's, and inside a `for` block only the
block's. Where editions rename things, scenarios may speak edition-neutrally
(`scenario_words`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textx import TextXError, get_location

from . import ast
from .cards import (
    AbilityText,
    CardDesign,
    StatValue,
    file_problem,
    load_cards,
    printed_text,
)
from .errors import Diagnostic, RulesetError
from .language import parse_other
from .load import find_edition, load_path
from .ruleset import Ruleset
from .scenario_checks import check_scenario
from .scenario_model import (
    MAX_COUNT,
    AbilitySel,
    ActionItem,
    BattleSetup,
    CardRef,
    ChainLink,
    Check,
    Cite,
    CounterKind,
    DesignUse,
    DieValue,
    EditionSteps,
    Entry,
    Expect,
    Never,
    NewGame,
    PlayerRef,
    PlayerSetup,
    Position,
    Scenario,
    Start,
    Step,
    ZoneSetup,
)

__all__ = ["SUFFIX", "Scenario", "edition_ruleset", "load_scenarios", "scenario_files"]

SUFFIX = ".kscn"

Model = Any  # a textX model object: read-only input, its attributes the grammar's


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Read and validate one scenario file against the editions its scenarios name.

    Raises:
        RulesetError: every problem found, each located.
    """
    path = Path(path)
    model, text = _parse(path)
    return _Converter(path, text).file(model)


def scenario_files(paths: list[str | Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The scenario files under `paths` (files, or directories searched deeply)."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for p in map(Path, paths):
        problem = _path_problem(p)
        if problem is None and p.is_dir():
            found = sorted(p.rglob(f"*{SUFFIX}"))
            if not found:
                problem = f"no {SUFFIX} files in this directory"
            files.extend(found)
        elif problem is None:
            files.append(p)
        if problem:
            problems.append(Diagnostic(ast.Origin(str(p), 1, 1), problem))
    return files, problems


def _path_problem(p: Path) -> str | None:
    """Why `p` is neither a directory nor a file, or None (a name too long is a
    problem to report, where `Path.is_dir` raises)."""
    try:
        return None if p.is_dir() or p.is_file() else "no such file or directory"
    except OSError as err:
        return f"cannot be read: {err.strerror or err}"


def _parse(path: Path) -> tuple[Model, str]:
    try:
        data = path.read_bytes()
    except OSError as err:
        raise RulesetError([Diagnostic(ast.Origin(str(path), 1, 1),
                                       f"cannot read scenario file: {err.strerror}")]
                           ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        before = data[:err.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        problem = Diagnostic(ast.Origin(str(path), line, col),
                             f"cannot read scenario file: byte "
                             f"0x{data[err.start]:02x} is not UTF-8")
        raise RulesetError([problem]) from None
    try:
        return parse_other("scenario", text, str(path)), text
    except TextXError as err:
        line, col = err.line or 1, err.col or 1
        message = _syntax_message(str(getattr(err, "message", err)), text, line, col)
        origin = ast.Origin(str(path), line, col)
        raise RulesetError([Diagnostic(origin, f"syntax error: {message}")]) from None


def _syntax_message(message: str, text: str, line: int, col: int) -> str:
    """textX's message, first part only; a name that is a word of the language
    said so."""
    message = message.split(" => ")[0]
    if "Not" in message.split():  # a name where the language has a word of its own
        lines = text.splitlines()
        found = re.match(r"\s*(\w*)", lines[line - 1][col - 1:]) \
            if line <= len(lines) else None
        word = found.group(1) if found else ""
        return f"'{word}' is a word of the scenario language; choose another name"
    return message


_rulesets: dict[str, Ruleset | RulesetError] = {}


def edition_ruleset(name: str, near: Path) -> tuple[Ruleset | None, str | None]:
    """The edition a scenario names (beside it, then shipped), or why not."""
    try:
        found = find_edition(name, near)
        if found is None and name.endswith(".kotc") and (near / name).is_file():
            found = near / name
    except OSError as err:  # a name the system refuses, such as one too long
        return None, f"edition file cannot be read ({err.strerror or err})"
    if found is None:
        return None, "unknown edition"
    key = str(found.resolve())
    if key not in _rulesets:
        try:
            _rulesets[key] = load_path(found)
        except RulesetError as err:
            _rulesets[key] = err
    hit = _rulesets[key]
    if isinstance(hit, RulesetError):
        return None, f"edition '{name}' does not load: {hit.diagnostics[0]}"
    return hit, None


@dataclass(frozen=True)
class _Scope:
    """The editions that reach a part of a scenario: the scenario's, or those of the
    `for` block around it."""

    editions: tuple[str, ...]
    block: tuple[str, ...] | None = None  # the enclosing block's, if any

    def within(self, names: tuple[str, ...]) -> _Scope:
        return _Scope(names, names)


def _names(editions: tuple[str, ...]) -> str:
    return " and ".join([", ".join(editions[:-1]), editions[-1]]) \
        if len(editions) > 1 else editions[0]


class _Converter:
    """textX model -> plain data, collecting located problems."""

    def __init__(self, path: Path, text: str = ""):
        self.path = path
        self.text = text
        self.problems: list[Diagnostic] = []
        # The same problem under several editions is reported once, naming them.
        self.by_edition: dict[tuple[ast.Origin, str], list[str]] = {}

    def at(self, obj: Model) -> ast.Origin:
        loc = get_location(obj)
        return ast.Origin(str(self.path), loc["line"], loc["col"])

    def string_at(self, obj: Model, value: str) -> ast.Origin:
        """Where the quoted `value` is written inside `obj` (or `obj` itself)."""
        start = getattr(obj, "_tx_position", None)
        if start is None:
            return self.at(obj)
        end = getattr(obj, "_tx_position_end", None)
        found = self.text.find(f'"{value}"', start, end)
        if found < 0:
            return self.at(obj)
        line = self.text.count("\n", 0, found) + 1
        return ast.Origin(str(self.path), line, found - self.text.rfind("\n", 0, found))

    def problem(self, where: Model | ast.Origin, message: str) -> None:
        origin = where if isinstance(where, ast.Origin) else self.at(where)
        self.problems.append(Diagnostic(origin, message))

    def edition_problem(self, origin: ast.Origin, message: str, edition: str) -> None:
        # one problem per place, whatever the number of scenarios that meet it
        editions = self.by_edition.setdefault((origin, message), [])
        if edition not in editions:
            editions.append(edition)

    # the file

    def file(self, model: Model) -> list[Scenario]:
        shared = self.uses(model.uses)
        if not model.scenarios:
            self.problem(ast.Origin(str(self.path), 1, 1),
                         "the file holds no scenario: write `scenario \"...\" { ... }`")
        scenarios = [self.scenario(s, shared) for s in model.scenarios]
        for (origin, message), editions in self.by_edition.items():
            plural = "s" if len(editions) > 1 else ""
            self.problems.append(Diagnostic(origin, f"{message} (under the "
                                                    f"{_names(tuple(editions))} "
                                                    f"edition{plural})"))
        names: dict[str, ast.Origin] = {}
        for s in scenarios:
            if s is None:
                continue
            if s.name in names:
                self.problem(s.origin, f"scenario '{s.name}' is defined twice (first at "
                                       f"line {names[s.name].line})")
            names.setdefault(s.name, s.origin)
        if self.problems:
            raise RulesetError(self.problems)
        return [s for s in scenarios if s is not None]

    def only(self, obj: Model, scope: _Scope | None) -> tuple[str, ...] | None:
        """The editions a `for` list names; with a scope, each must reach here."""
        if obj is None:
            return None
        names = tuple(obj.editions)
        if scope is not None:
            self.reach(names, obj, scope)
        return names

    def reach(self, names: tuple[str, ...], obj: Model, scope: _Scope) -> None:
        """Each edition named is one that plays this part of the scenario."""
        for e in names:
            if e in scope.editions:
                continue
            where = self.string_at(obj, e)
            if scope.block is None:
                self.problem(where, f"'{e}' is not one of this scenario's editions "
                                    f"({', '.join(scope.editions)})")
            else:
                self.problem(where, f"'{e}' never reaches this part: the `for` block "
                                    f"around it is for the {_names(scope.block)} "
                                    f"only")

    def uses(self, uses: list[Model], scope: _Scope | None = None) -> list[DesignUse]:
        out: list[DesignUse] = []
        for u in uses:
            eds = self.only(u.only, scope)
            if type(u).__name__ == "CardsFile":
                card_path = Path(os.path.normpath(self.path.parent / u.path))
                problem = file_problem(card_path, "the scenario")
                if problem:
                    self.problem(u, f"card file '{u.path}' {problem}")
                    continue
                try:
                    out.extend(DesignUse(d, eds) for d in load_cards(card_path))
                except RulesetError as err:
                    self.problems.extend(err.diagnostics)
            else:
                out.append(DesignUse(self.card(u.card), eds))
        return out

    def card(self, c: Model) -> CardDesign:
        stats: list[StatValue] = []
        abilities: list[AbilityText] = []
        edition: int | None = None
        flavor: str | None = None
        for part in c.parts:
            kind = type(part).__name__
            if kind == "StatValue":
                if any(s.stat == part.stat for s in stats):
                    self.problem(part, f"card '{c.name}' gives {part.stat} twice")
                stats.append(StatValue(part.stat, part.value, self.at(part)))
            elif kind == "Ability":
                path = str(self.path)
                sentences = [printed_text(s, path) for s in part.sentences]
                abilities.append(AbilityText(
                    part.name or None, printed_text(part.condition, path),
                    printed_text(part.cost, path),
                    tuple(s for s in sentences if s is not None), self.at(part)))
            elif kind == "Indicator":
                edition = part.edition
            else:
                flavor = part.text
        return CardDesign(c.name, c.type, edition, tuple(stats), tuple(abilities), flavor,
                          self.at(c))

    # one scenario

    def scenario(self, s: Model, shared: list[DesignUse]) -> Scenario | None:
        origin = self.at(s)
        editions = tuple(s.editions.names)
        scope = _Scope(editions)
        seen: set[str] = set()
        for n in editions:
            if n in seen:
                self.problem(self.string_at(s.editions, n), f"edition '{n}' is named "
                                                            f"twice")
            seen.add(n)
        by_kind: dict[str, list[Model]] = {}
        for part in s.parts:
            by_kind.setdefault(type(part).__name__, []).append(part)
        for kind, word in (("Position", "position"), ("NewGame", "new game"),
                           ("Actions", "actions"), ("RulingText", "ruling"),
                           ("Made", "made")):
            for extra in by_kind.get(kind, [])[1:]:
                self.problem(extra, f"scenario '{s.name}' has a second {word}")
        starts = by_kind.get("Position", []) + by_kind.get("NewGame", [])
        if not starts:
            self.problem(origin, f"scenario '{s.name}' has no position: say where play "
                                 f"starts with `position {{...}}` or `new game {{...}}`")
            return None
        if len(starts) > 1 and by_kind.get("Position") and by_kind.get("NewGame"):
            self.problem(starts[1], "a scenario starts from a position or a new game, "
                                    "not both")
        cites = tuple(Cite(c.section, self.only_in(c, scope), self.at(c))
                      for c in by_kind.get("Cite", []))
        if not cites:
            self.problem(origin, f"scenario '{s.name}' cites no rulebook section: add "
                                 f"`cite \"Section\"`")
        uses = [u for u in s.parts if type(u).__name__ in ("CardsFile", "InlineCard")]
        designs = tuple(shared + self.uses(uses, scope))
        first = starts[0]
        start_of = {e: self.start(first, e, scope) for e in dict.fromkeys(editions)}
        dice = tuple((self.only(d.only, scope), self.dice(d))
                     for d in by_kind.get("Dice", []))
        actions = by_kind.get("Actions", [])
        steps = tuple(self.action_items(actions[0].items, scope)) if actions else ()
        expects = tuple(self.expect(e, scope) for e in by_kind.get("Expect", []))
        ruling = by_kind.get("RulingText", [None])[0]
        made = by_kind.get("Made", [None])[0]
        scn = Scenario(s.name, str(self.path), editions, cites,
                       ruling.text if ruling is not None else None,
                       tuple((self.only(x.only, scope), x.reason)
                             for x in by_kind.get("XFail", [])),
                       designs, tuple(start_of.items()), dice, steps, expects, origin,
                       tuple(made.labels) if made is not None else ())
        rulesets: dict[str, Ruleset] = {}
        for name in dict.fromkeys(editions):
            rs, why = edition_ruleset(name, self.path.parent)
            if rs is None:
                self.problem(self.string_at(s.editions, name), f"{why}: '{name}'")
            else:
                rulesets[name] = rs
        check_scenario(scn, rulesets, self.problem, self.edition_problem)
        return scn

    def only_in(self, c: Model, scope: _Scope) -> tuple[str, ...] | None:
        """The editions after a citation's `in`, each one of the scenario's."""
        names = tuple(c.editions)
        if not names:
            return None
        self.reach(names, c, scope)
        return names

    def dice(self, d: Model) -> tuple[int, ...]:
        """The scripted rolls; a six-sided die shows 1 to 6, and a script that says
        otherwise could never be rolled."""
        wrong = [v for v in d.values if not 1 <= v <= 6]
        if wrong:
            self.problem(d, f"a die shows 1 to 6, not {', '.join(map(str, wrong))}")
        return tuple(d.values)

    def count(self, obj: Model, n: int, what: str) -> None:
        """A count from 1 to `MAX_COUNT`: more cards or counters than any table holds
        would take the run's memory and time before anything is checked."""
        if not 1 <= n <= MAX_COUNT:
            self.problem(obj, f"{what}: a count must be from 1 to {MAX_COUNT}, not {n}")

    # where play starts

    def start(self, obj: Model, edition: str, scope: _Scope) -> Start:
        if type(obj).__name__ == "NewGame":
            values = {type(i).__name__: i for i in obj.items}
            decks = values.get("Decks")
            return NewGame(getattr(values.get("Players"), "n", None),
                           getattr(values.get("Seed"), "n", None),
                           tuple(str(self.path.parent / p) for p in decks.paths)
                           if decks else (),
                           getattr(values.get("MaxTurns"), "n", None), self.at(obj))
        items: dict[str, list[Model]] = {}
        for i in self.opened(obj.items, edition, scope):
            items.setdefault(type(i).__name__, []).append(i)
        for kind, many in items.items():
            if kind != "PlayerSetup" and len(many) > 1:
                self.problem(many[1], f"the position says '{_word(kind)}' twice")

        def first(kind: str) -> Model:
            return items.get(kind, [None])[0]

        at = first("At")
        if at is None:
            self.problem(obj, "the position does not say where play starts: add "
                              "`at phase NAME` (its window), `at start of phase NAME` "
                              "or `at setup STEP`")
        setup = at is not None and bool(at.step)
        if setup:
            for kind in ("TurnNumber", "Active", "BattleSetup", "ChainSetup"):
                if first(kind) is not None:
                    self.problem(first(kind), f"a position inside setup is before turn "
                                              f"1: it has no '{_word(kind)}'")
        active = getattr(first("Active"), "seat", 0)
        turn = 0 if setup else getattr(first("TurnNumber"), "n", 2)
        first_seat = getattr(first("First"), "seat", active if turn == 1 else 0)
        battle = first("BattleSetup")
        chain = first("ChainSetup")
        return Position(
            players=getattr(first("Players"), "n", 2),
            seed=getattr(first("Seed"), "n", None),
            turn=turn, active=first_seat if setup else active, first=first_seat,
            phase=at.phase if at is not None and not setup else "",
            at_start=bool(at.start) if at is not None else False,
            setups=tuple(self.player(p, edition, scope)
                         for p in items.get("PlayerSetup", [])),
            battle=self.battle(battle) if battle is not None else None,
            chain=tuple(self.link(x) for x in chain.links) if chain is not None else (),
            origin=self.at(obj),
            setup_step=at.step if setup else None)

    def opened(self, items: list[Model], edition: str, scope: _Scope) -> list[Model]:
        """The items under `edition`, `for` blocks opened (each checked to name
        editions that reach it)."""
        out: list[Model] = []
        for i in items:
            if type(i).__name__ in ("PositionOnly", "PlayerOnly"):
                names = self.only(i.only, scope)
                if names is not None and edition in names:
                    out.extend(self.opened(i.items, edition, scope.within(names)))
            else:
                out.append(i)
        return out

    def player(self, p: Model, edition: str, scope: _Scope) -> PlayerSetup:
        hp = None
        zones = []
        for item in self.opened(p.items, edition, scope):
            if type(item).__name__ == "Hp":
                hp = item.value
            else:
                entries = tuple(self.entry(e) for e in item.entries)
                zones.append(ZoneSetup(item.zone, entries, self.at(item)))
        return PlayerSetup(p.seat, hp, tuple(zones), self.at(p))

    def entry(self, e: Model) -> Entry:
        flags: list[str] = []
        stats: list[tuple[str, int]] = []
        counters: list[tuple[str, int, int]] = []
        tags: list[str] = []
        owner = last = None
        for st in e.state:
            kind = type(st).__name__
            if kind == "OwnedBy":
                owner = st.seat
            elif kind == "LastControlledBy":
                last = st.seat
            elif kind == "Flag":
                flags.append(st.flag)
            elif kind == "StatsOverride":
                stats.extend((s.stat, s.value) for s in st.stats)
            elif kind == "WithCounters":
                if st.n:  # 0: no number written, one counter
                    self.count(st, st.n, f"'{st.counter}' counters")
                counters.append((st.counter, st.placer, st.n or 1))
            else:
                tags.append(st.tag)
        count = e.count.n if e.count is not None else 1
        if e.count is not None:
            self.count(e.count, count, f"'{e.card}'")
        if e.label and count != 1:
            self.problem(e, f"label '{e.label}' names one card, but the entry places "
                            f"{count}")
        return Entry(e.card, count, e.label or None, tuple(flags), tuple(stats),
                     tuple(counters), tuple(tags), self.at(e), owner, last)

    def battle(self, b: Model) -> BattleSetup:
        items: dict[str, Model] = {}
        for i in b.items:
            kind = type(i).__name__
            if kind in items:
                self.problem(i, f"the battle says '{_word(kind)}' twice")
            items[kind] = i
        victim = items.get("Victim")
        return BattleSetup(
            b.step,
            tuple(self.ref(c) for c in getattr(items.get("Attackers"), "cards", [])),
            self.target(victim.target) if victim is not None else None,
            tuple(self.ref(c) for c in getattr(items.get("Defenders"), "cards", [])),
            tuple(getattr(items.get("AttackDice"), "values", [])),
            tuple(getattr(items.get("DefenseDice"), "values", [])), self.at(b))

    def link(self, x: Model) -> ChainLink:
        ability = None
        if x.ability is not None:
            ability = self.ability(x.ability)
        return ChainLink(self.ref(x.card), ability, x.counter or None, x.seat, self.at(x))

    @staticmethod
    def ability(a: Model) -> AbilitySel:
        return AbilitySel(a.name if a.name != "" else None,
                          a.index if a.name == "" else None)

    def ref(self, r: Model) -> CardRef:
        return CardRef(r.label or None, r.name if not r.label else None, self.at(r))

    def target(self, t: Model) -> CardRef | PlayerRef | DieValue:
        kind = type(t).__name__
        if kind == "PlayerArg":
            return PlayerRef(t.seat)
        if kind == "DieArg":
            return DieValue(t.value)
        return self.ref(t)

    # actions

    def action_items(self, items: list[Model], scope: _Scope) -> list[ActionItem]:
        out: list[ActionItem] = []
        for item in items:
            kind = type(item).__name__
            if kind == "PlayerSteps":
                out.extend(self.step(item.seat, s) for s in item.steps)
            elif kind == "EditionSteps":
                names = self.only(item.only, scope) or ()
                inner = self.action_items(item.items, scope.within(names))
                out.append(EditionSteps(names, tuple(inner), self.at(item)))
            elif kind == "Never":
                step = self.move(item.move, seat=item.seat, origin=self.at(item))
                inner = self.action_items(item.items, scope)
                if not any(isinstance(i, (Step, EditionSteps, Never)) for i in inner):
                    self.problem(item, "`never ... until { }` needs the steps over which "
                                       "the step is never offered")
                out.append(Never(step, tuple(inner), self.at(item)))
            else:
                out.append(self.expect(item, scope))
        return out

    def step(self, seat: int, s: Model) -> Step:
        return self.move(s.move, seat=seat, refused=bool(s.refused),
                         reason=s.reason or None, origin=self.at(s))

    def move(self, m: Model, *, seat: int, origin: ast.Origin, refused: bool = False,
             reason: str | None = None) -> Step:
        kind = type(m).__name__
        common: dict[str, Any] = dict(seat=seat, refused=refused, reason=reason,
                                      origin=origin)
        if kind == "ActStep":
            args: list[CardRef | PlayerRef | AbilitySel | CounterKind] = []
            for a in m.args:
                k = type(a).__name__
                if k == "ActPlayerArg":
                    args.append(PlayerRef(a.seat))
                elif k == "AbilityArg":
                    args.append(self.ability(a))
                elif k == "CounterArg":
                    args.append(CounterKind(a.kind))
                else:
                    args.append(self.ref(a))
            return Step(kind="act", action=m.action, args=tuple(args), **common)
        if kind == "PickStep":
            return Step(kind="pick", target=self.target(m.target), **common)
        if kind == "DieStep":
            return Step(kind="die", value=m.value, **common)
        if kind == "OptionStep":
            return Step(kind="option", value=m.n, **common)
        if kind == "NumberStep":
            return Step(kind="number", value=m.n, **common)
        if kind == "LabelStep":
            return Step(kind="choose", label=m.label, **common)
        return Step(kind=m.word, **common)

    # expectations

    def expect(self, e: Model, scope: _Scope) -> Expect:
        checks: list[Check] = []
        for c in e.checks:
            checks.extend(self.check(c))
        return Expect(self.only(e.only, scope), tuple(checks), self.at(e))

    def check(self, c: Model) -> list[Check]:
        kind = type(c).__name__
        at = self.at(c)

        def make(k: str, subject: Any, value: Any, negated: bool = False) -> Check:
            return Check(k, subject, value, negated, at)

        if kind == "PlayerCheck":
            f = c.fact
            fk = type(f).__name__
            if fk == "HpFact":
                return [make("hp", c.seat, f.value)]
            if fk == "ExhaustedCount":
                return [make("exhausted_count", (c.seat, f.zone or None), f.value)]
            if fk == "ZoneCount":
                return [make("zone_count", (c.seat, f.zone), f.value)]
            if fk == "ZoneContents":
                if not f.exact and not f.cards:
                    self.problem(f, f"`{f.zone} has none` asks for nothing: write "
                                    f"`{f.zone}: none` (the zone is empty) or "
                                    f"`{f.zone} count N`")
                return [make("zone_is" if f.exact else "zone_has", (c.seat, f.zone),
                             tuple(self.ref(x) for x in f.cards))]
            return [make("player_flag", c.seat, f.flag, bool(f.negated))]
        if kind == "CardCheck":
            ref = self.ref(c.card)
            return [self.card_fact(ref, f) for f in c.facts]
        if kind == "ChainCheck":
            if c.resolved:
                return [make("chain_resolved", None, tuple(
                    x.n if x.card is None else self.ref(x.card) for x in c.resolved))]
            return [make("chain_state", None, (c.state, c.links if c.links else None))]
        if kind == "EventCheck":
            fields = tuple((f.key, self.value(f.value)) for f in c.fields)
            times = c.times.n if c.times is not None else None
            return [make("event", c.kind, (fields, times), bool(c.negated))]
        if kind == "GameCheck":
            facts: dict[str, Any] = {}
            for f in c.facts:
                fk = type(f).__name__
                facts[fk.lower()] = (f.seat if fk == "Winner" else True if fk == "Tie"
                                     else f.condition if fk == "Condition"
                                     else f.criterion)
            if c.negated and facts:
                self.problem(c, "`game not over` takes no winner, tie, condition or "
                                "criterion")
            return [make("game", None, facts, bool(c.negated))]
        if kind == "NodeCheck":
            return [make("node", None, c.node)]
        if kind == "PhaseCheck":
            return [make("phase", None, c.phase)]
        if kind == "TurnCheck":
            return [make("turn", None, (c.n, c.player.seat if c.player else None))]
        if kind == "WaitingCheck":
            return [make("waiting", c.seat, c.prompt or None)]
        negated = c.verdict == "cannot"
        if c.reason and not negated:
            self.problem(c, "`can` takes no `because`: a legal step has no reason to be "
                            "refused")
        step = self.move(c.move, seat=c.seat, origin=at, reason=c.reason or None)
        return [make("legal", c.seat, step, negated)]

    def card_fact(self, ref: CardRef, f: Model) -> Check:
        kind = type(f).__name__
        at = self.at(f)
        if kind == "InZone":
            return Check("card_in", ref, (f.zone, f.player.seat if f.player else None),
                         False, at)
        if kind == "Removed":
            return Check("card_removed", ref, True, False, at)
        if kind in ("Controller", "Owner", "LastController"):
            name = "last_controller" if kind == "LastController" else kind.lower()
            return Check(f"card_{name}", ref, f.seat, False, at)
        if kind == "Counters":
            return Check("card_counters", ref, tuple(
                (x.counter, x.placer, x.n or 1) for x in f.counters),
                False, at)
        if kind == "TagFact":
            return Check("card_tag", ref, f.tag, bool(f.negated), at)
        if kind == "CardFlag":
            return Check("card_flag", ref, f.flag, bool(f.negated), at)
        return Check("card_stat", ref, (f.stat, f.value), False, at)

    def value(self, v: Model) -> Any:
        if isinstance(v, (int, str)) and not hasattr(v, "_tx_position"):
            return v
        kind = type(v).__name__
        if kind == "ListValue":
            return tuple(self.value(x) for x in v.values)
        if kind == "PlayerArg":
            return PlayerRef(v.seat)
        if kind == "NoneValue":
            return None
        if kind == "BoolValue":
            return v.value == "true"
        return self.ref(v)


def _word(kind: str) -> str:
    return {"TurnNumber": "turn", "At": "at", "Active": "active", "First": "first",
            "Players": "players", "Seed": "seed", "BattleSetup": "battle",
            "ChainSetup": "chain", "Attackers": "attackers", "Defenders": "defenders",
            "Victim": "victim", "AttackDice": "attack_dice",
            "DefenseDice": "defense_dice"}.get(kind, kind)
