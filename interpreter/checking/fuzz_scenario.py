"""A fuzzing counterexample written as a scenario file that `kotc test` runs.

The scenario replays the trail that broke an invariant and then expects what the
invariant demands (the card unexhausted, the HP at its floor, the pawn on its
zone...), so `kotc test` fails on it for as long as the rules stay broken, and
passes once they are fixed: a ruling that guards the fix.

Two forms, the shorter first: a hand-built `position` (every card labelled) taken
from the last quiet moment of the trail (a phase's window, no chain, battle or
program under way) followed by the few actions after it; or, where no such moment
can be written down faithfully, a `new game` from the trail's seed and every
action from the start. Each form is checked before it is kept: without its
expectations it must pass (the replay is faithful), with them it must fail.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kotc.dsl import RulesetError, ast
from kotc.dsl.scenarios import load_scenarios
from kotc.dsl.unparse import quote
from kotc.engine.game import Game
from kotc.runtime.actions import Action
from kotc.runtime.values import AbilityRef, DieRef, Seat

from .fuzz import Table, Trail
from .invariants import Invariants, Violation
from .scenario_run import run_scenario

# Steps that `kotc test` names by a word of its own.
WORDS = ("end", "pass", "done", "yes", "no")
# At most this many filler actions after the violation, to reach a quiet moment.
FILLER = 60


@dataclass
class Counterexample:
    """A counterexample as a scenario file's text: in which form, and whether it
    was verified (replays faithfully and fails on the broken invariant)."""

    text: str
    form: str
    verified: bool
    note: str = ""


# --- replaying the trail -------------------------------------------------------------


@dataclass
class _Replay:
    """The trail played again: the state before each action (where it can be
    written as a position), the actions, and the dice each one rolled."""

    game: Game
    actions: list[Action]
    dice: list[list[int]]
    quiet: dict[int, Game]
    start: Game


def _replay(table: Table, trail: Trail) -> _Replay:
    g = Game.new(table.ruleset, table.decks, seed=trail.seed, players=trail.players,
                 max_turns=trail.max_turns, engine=table.engine, trace=True)
    start = g.clone()
    actions, dice, quiet = [], [], {}
    for k, (_seat, index, _label) in enumerate(trail.actions):
        if _writable(g):
            quiet[k] = g.clone()
        action = g.legal_actions()[index]
        actions.append(action)
        dice.append(_rolled(g.apply(action)))
    return _Replay(g, actions, dice, quiet, start)


def _rolled(events: list) -> list[int]:
    out: list[int] = []
    for e in events:
        if e.kind == "roll":
            out.extend(e.data["dice"])
        elif e.kind == "reroll":
            out.append(e.data["value"])
    return out


def _writable(g: Game) -> bool:
    """Whether the state can be written as a scenario position exactly: at a
    phase's window, with nothing under way and nothing a position cannot say."""
    d = g.decision
    node = g.stack[-1].node if len(g.stack) == 1 else None
    if d is None or d.resume != "phase" or node is None or node.kind != "window" \
            or node.policy != "active" or not node.ask_when_empty:
        return False
    if g.frames or g.chain is not None or g.battle is not None or g.after \
            or g.victims or g.recent or g.flags:
        return False
    if any(p.eliminated or p.decked_out or p.agreed for p in g.players):
        return False
    for c in g.cards:
        if not c.zone:
            continue
        if c.timed or any(u != "leave" for u in c.tags.values()) or c.design is None:
            return False
        if c.fatigued and c.fatigued_turn != g.turn:
            return False
    return True


def _filler(g: Game) -> tuple[list[Action], list[list[int]]]:
    """First legal actions after the violation until a player is free to act."""
    actions, dice = [], []
    while not g.is_over and g.decision.resume not in ("phase", "chain") \
            and len(actions) < FILLER:
        a = g.legal_actions()[0]
        actions.append(a)
        dice.append(_rolled(g.apply(a)))
    return actions, dice


# --- what the invariant demands, as checks -----------------------------------------


def _expectations(inv: Invariants, g: Game, found: list[Violation], ref) -> list[str]:
    """Checks that hold when the broken invariants hold, for the cards and players
    the violations name; `ref(card)` names a card, or None where it cannot."""
    checks: list[str] = []
    own = {i.name: i for i in inv.rs.invariants}
    for v in found:
        target = _subject(g, v.where)
        if v.invariant in own:
            checks += _own_checks(g, own[v.invariant], target, ref)
        else:
            checks += _builtin_checks(inv, g, v, target, ref)
    return list(dict.fromkeys(c for c in checks if c))


def _subject(g: Game, where: str) -> Any:
    """The card id or seat a violation's `where` names."""
    if where.startswith("player "):
        head = where.split()[1].rstrip(":'s")
        return Seat(int(head)) if head.isdigit() else None
    if where.startswith("card ") and "#" in where:
        digits = where.split("#", 1)[1].split()[0]
        return int(digits) if digits.isdigit() else None
    return None


def _builtin_checks(inv: Invariants, g: Game, v: Violation, target, ref) -> list[str]:
    name = v.invariant
    if name in ("legal_action", "game_bound"):
        return ["game over"]
    if name == "hp_floor" and isinstance(target, Seat):
        return [f"player {int(target)} hp {inv.hp_floor}"]
    if not isinstance(target, int) or isinstance(target, Seat):
        return []
    card = ref(target)
    c = g.cards[target]
    if card is None:
        return [_without_pawns(g, c)] if name == "pawn_zone" else []
    if name == "recovery_unexhausts":
        return [f"card {card} not exhausted"]
    if name == "unexhaust_in_recovery" or (name == "fatigue"
                                           and "unexhausted" in v.detail):
        return [f"card {card} exhausted"]
    if name == "fatigue" and "lifted" in v.detail:
        return [f"card {card} fatigued"]
    if name == "pawn_zone":
        return [f"card {card} in {inv.pawn_zone}"]
    if name == "counter_hosts":
        return [f"card {card} counters: none"]
    if name == "exhaustible":
        return [f"card {card} not {'exhausted' if c.exhausted else 'fatigued'}"]
    if name == "stat_floor":
        return [f"card {card} {stat} {floor}" for stat, floor, _ in inv.floor_items
                if stat in c.stats and c.stats[stat] < floor]
    return []


def _own_checks(g: Game, rule: ast.Invariant, target, ref) -> list[str]:
    """A ruleset invariant's failing conjuncts, where each is a comparison of the
    element's attribute with a number, or a flag of it."""
    checks = []
    for part in _conjuncts(rule.cond):
        fact = _fact(part, rule.element)
        if fact is None:
            if _counts_counters(part, rule.element) and isinstance(target, int) \
                    and not isinstance(target, Seat) and ref(target) is not None:
                checks.append(f"card {ref(target)} counters: none")
            continue
        attr, op, bound = fact
        if isinstance(target, Seat) and attr == "hp":
            value = g.players[target].hp
            want = _closest(value, op, bound)
            if want is not None and want != value:
                checks.append(f"player {int(target)} hp {want}")
        elif isinstance(target, int) and not isinstance(target, Seat):
            card = ref(target)
            c = g.cards[target]
            if card is None:
                if attr == "pawn" and op == "not" and c.pawn:
                    checks.append(_without_pawns(g, c))
                continue
            if op in ("flag", "not") and hasattr(c, attr):
                if bool(getattr(c, attr)) == (op == "not"):
                    checks.append(f"card {card} {'not ' if op == 'not' else ''}{attr}")
            elif attr in c.stats:
                want = _closest(c.stats[attr], op, bound)
                if want is not None and want != c.stats[attr]:
                    checks.append(f"card {card} {attr} {want}")
    return checks


def _without_pawns(g: Game, c) -> str:
    """The pawn's zone holding only what is not a pawn: the check for a pawn that
    has no name a scenario can use."""
    cards = g.players[c.controller].zones[c.zone]
    n = sum(1 for x in cards if not g.cards[x].pawn)
    return f"player {c.controller} {c.zone} count {n}"


def _counts_counters(e: ast.Expr, element: str | None) -> bool:
    """`counters_on(x, k) + ... == 0` for the element x: no counters on it."""
    if not (isinstance(e, ast.Binary) and e.op == "==" and isinstance(e.right, ast.IntLit)
            and e.right.value == 0):
        return False
    calls = [c for c in _walk(e.left) if isinstance(c, ast.FuncCall)]
    return bool(calls) and all(
        c.func == "counters_on" and isinstance(c.args[0], ast.Path)
        and c.args[0].parts == (element,) for c in calls)


def _walk(e: ast.Expr):
    yield e
    if isinstance(e, ast.Binary):
        yield from _walk(e.left)
        yield from _walk(e.right)


def _conjuncts(e: ast.Expr) -> list[ast.Expr]:
    if isinstance(e, ast.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _fact(e: ast.Expr, element: str | None) -> tuple[str, str, int] | None:
    """`x.attr OP n`, `x.flag` or `not x.flag` for the element x."""
    def attr_of(p):
        if isinstance(p, ast.Path) and len(p.parts) == 2 and p.parts[0] == element:
            return p.parts[1]
        return None

    if isinstance(e, ast.Unary) and e.op == "not" and attr_of(e.operand):
        return attr_of(e.operand), "not", 0
    if attr_of(e):
        return attr_of(e), "flag", 0
    if isinstance(e, ast.Binary) and isinstance(e.right, ast.IntLit) and attr_of(e.left) \
            and e.op in (">=", ">", "<=", "<", "=="):
        return attr_of(e.left), e.op, e.right.value
    return None


def _closest(value: int, op: str, bound: int) -> int | None:
    """The value nearest `value` that satisfies `value OP bound`."""
    return {">=": max(value, bound), ">": max(value, bound + 1),
            "<=": min(value, bound), "<": min(value, bound - 1), "==": bound}.get(op)


# --- writing ---------------------------------------------------------------------------


class _Writer:
    """Scenario text for one trail, in either form."""

    def __init__(self, table: Table, trail: Trail, edition_ref: str, out_dir: Path):
        self.table, self.trail = table, trail
        self.rs = table.ruleset
        self.edition_ref, self.out_dir = edition_ref, out_dir
        self.inv = Invariants.of(table.engine)

    def rel(self, path: Path) -> str:
        target = Path(path).resolve()
        return Path(os.path.relpath(target, self.out_dir.resolve())).as_posix()

    def section(self) -> str:
        """The rulebook section to cite: the broken rule's, where this edition's own
        rulebook has it (`Ruleset.cites`: a heading, or a numbered rule under
        one), else its first heading."""
        own = self.rs.contents.get(self.rs.name, ())
        for v in self.trail.violations:
            section = (v.cite or "").partition("§")[2]
            if section and own and self.rs.cites(self.rs.name, section):
                return section
        return own[0] if own else ""

    def header(self, form: str) -> list[str]:
        v = self.trail.violations
        lines = [f"// Found by `kotc fuzz` ({form}): the invariant broke after "
                 f"{len(self.trail.actions)} actions of a game with seed "
                 f"{self.trail.seed}."]
        lines += [f"//   {x}" for x in v]
        lines.append("// `kotc test` fails on it until the rules are fixed; then it "
                     "guards the fix.")
        return lines

    def scenario(self, form: str, start: list[str], designs: list[str], dice: list[int],
                 steps: list[tuple[int, str]], expect: list[str],
                 after: list[tuple[int, str]], with_expect: bool) -> str:
        v = self.trail.violations[0]
        name = f"kotc fuzz: {v.invariant} ({v.label})"
        lines = self.header(form) + [""]
        lines += [f"cards {quote(d)}" for d in designs]
        if designs:
            lines.append("")
        lines.append(f"scenario {quote(name)} {{")
        lines.append(f"  editions {quote(self.edition_ref)}")
        lines.append(f"  ruling {quote(v.label)}")
        lines.append(f"  cite {quote(self.section())}")
        lines += ["  " + s for s in start]
        if dice:
            lines.append("  dice " + ", ".join(map(str, dice)))
        body = _steps(steps)
        if with_expect and expect:
            body.append("expect { " + "  ".join(expect) + " }")
        body += _steps(after)
        if body:
            lines.append("  actions {")
            lines += ["    " + b for b in body]
            lines.append("  }")
        lines.append("}")
        return "\n".join(lines) + "\n"


def _steps(steps: list[tuple[int, str]]) -> list[str]:
    """`seat: step, step` lines, a new line whenever the seat changes."""
    lines: list[str] = []
    for seat, text in steps:
        if lines and lines[-1].startswith(f"{seat}: ") and len(lines[-1]) < 70:
            lines[-1] += f", {text}"
        else:
            lines.append(f"{seat}: {text}")
    return lines


def _new_game_form(w: _Writer, rp: _Replay) -> tuple[str, str]:
    """Every action from the start of a seeded game, each named by its label."""
    g, start = rp.game.clone(), rp.start
    table, trail = w.table, w.trail
    decks = ", ".join(quote(w.rel(f)) for f in table.deck_files)
    head = f"new game {{ players {trail.players}  seed {trail.seed}  " \
           f"max_turns {trail.max_turns}" + (f"  decks {decks}" if decks else "") + " }"
    steps, replay = [], start.clone()
    for a in rp.actions:
        steps.append((replay.current_player, _label_step(replay, a)))
        replay.apply(a)
    after_actions, _dice = _filler(g)
    after, later = [], rp.game.clone()
    for a in after_actions:
        after.append((later.current_player, _label_step(later, a)))
        later.apply(a)
    ref = _by_name(rp.game)
    expect = _expectations(w.inv, rp.game, trail.violations, ref)
    parts = ([head], [], [], steps, expect, after)
    return (w.scenario("a new game", *parts, with_expect=True),
            w.scenario("a new game", *parts, with_expect=False))


def _by_name(g: Game):
    """Names a card by its design's name where no other card in play has it."""
    names = Counter(c.name for c in g.cards if c.zone)

    def ref(card: int) -> str | None:
        c = g.cards[card]
        if c.pawn or c.name not in g.engine.designs or names[c.name] != 1:
            return None
        return quote(c.name)

    return ref


def _label_step(g: Game, a: Action) -> str:
    if a.kind in WORDS and a.value is None:
        return a.kind
    if a.kind == "option":  # its label spells out the option's program: long
        return f"option {a.value + 1}"
    same = [o for o in g.legal_actions() if o.label == a.label]
    if a.kind == "number" and len(same) != 1:
        return f"number {a.value}"
    return f"choose {quote(a.label)}"


def _position_form(w: _Writer, rp: _Replay, k: int) -> tuple[str, str] | None:
    """A position at the quiet moment before action `k`, then the actions from there."""
    s = rp.quiet[k]
    engine = w.table.engine
    listed = [c for p in s.players for z in p.zones.values() for c in z]
    labels = {c: f"c{c}" for c in listed}
    newid = {c: i for i, c in enumerate(listed)}
    first_new = len(s.cards)
    def name(card: int) -> str | None:
        if card in labels:
            return labels[card]
        return None

    def number(m: re.Match) -> str:
        # a card's number in the rebuilt game, where it is numbered in listing order
        # and cards created later follow the listed ones
        c = int(m.group(1))
        if c in newid:
            return f"#{newid[c]}"
        return f"#{c - first_new + len(listed)}" if c >= first_new else m.group(0)

    def shift(label: str) -> str:
        return re.sub(r"#(\d+)\b", number, label)

    game = s.clone()
    steps, dice = [], []
    for a, rolled in zip(rp.actions[k:], rp.dice[k:], strict=True):
        text = _structured(game, a, name) or _label_step(game, Action(a.kind, a.value,
                                                                       shift(a.label)))
        steps.append((game.current_player, text))
        game.apply(a)
        dice += rolled
    end = rp.game.clone()
    after_actions, after_dice = _filler(end)
    after, later = [], rp.game.clone()
    for a in after_actions:
        after.append((later.current_player, _structured(later, a, name)
                      or _label_step(later, Action(a.kind, a.value, shift(a.label)))))
        later.apply(a)
    for rolled in after_dice:
        dice += rolled
    final = rp.game
    by_name = _by_name(final)

    def ref(card: int) -> str | None:
        return labels[card] if card in labels else by_name(card)

    expect = _expectations(w.inv, final, w.trail.violations, ref)
    named = " ".join(t for _, t in steps + after) + " " + " ".join(expect)
    used = {int(n) for n in re.findall(r"\bc(\d+)\b", named)}
    designs = sorted({w.rel(engine.designs[s.cards[c].design].origin.file)
                      for c in listed})
    head = [f"position {{ players {len(s.players)}  seed {w.trail.seed}  turn {s.turn}  "
            f"active player {s.active}  first player {s.first_player}  "
            f"at phase {s.phase}"]
    for p in s.players:
        head.append(f"  player {p.seat} {{ hp {p.hp}")
        for zone, cards in p.zones.items():
            if cards:
                entries = _counted([_entry(s, engine, c, labels[c] if c in used else None)
                                    for c in cards])
                head += _wrapped(f"    {zone}: ", entries)
        head.append("  }")
    head.append("}")
    parts = (head, designs, dice, steps, expect, after)
    return (w.scenario("a position", *parts, with_expect=True),
            w.scenario("a position", *parts, with_expect=False))


def _wrapped(first: str, items: list[str], width: int = 86) -> list[str]:
    """Comma-separated items over lines of at most `width` characters."""
    lines, line = [], first
    indent = " " * len(first)
    for i, item in enumerate(items):
        text = item + ("," if i < len(items) - 1 else "")
        if line.strip() and len(line) + len(text) + 1 > width and line != first:
            lines.append(line.rstrip())
            line = indent
        line += text + " "
    lines.append(line.rstrip())
    return lines


def _counted(entries: list[str]) -> list[str]:
    """Runs of the same unlabelled entry as one counted entry: `3 "Filler"`."""
    out: list[list] = []
    for e in entries:
        if out and out[-1][1] == e and " as " not in e:
            out[-1][0] += 1
        else:
            out.append([1, e])
    return [e if n == 1 else f"{n} {e}" for n, e in out]


def _entry(g: Game, engine, card: int, label: str | None) -> str:
    c = g.cards[card]
    parts = [quote(engine.designs[c.design].name)] + (["as", label] if label else [])
    if c.exhausted:
        parts.append("exhausted")
    if c.fatigued:
        parts.append("fatigued")
    if c.face_up != engine.face_up[c.zone]:
        parts.append("face_up" if c.face_up else "face_down")
    if c.pawn:
        parts.append("pawn")
    changed = [f"{k} {v}" for k, v in c.stats.items() if c.printed.get(k) != v]
    if changed:
        parts.append("{ " + "  ".join(changed) + " }")
    for (kind, placer), n in Counter((k, p) for k, p in c.counters).items():
        parts.append(f"with {n} {kind} by player {placer}")
    parts += [f"tagged {t}" for t in c.tags]
    if c.owner != c.controller:
        parts.append(f"owned by player {c.owner}")
    if c.last_controller != c.controller:  # out of play: who had it in play last
        parts.append(f"last controlled by player {c.last_controller}")
    return " ".join(parts)


def _structured(g: Game, a: Action, name) -> str | None:
    """A step naming cards by label (None when a card has none)."""
    if a.kind in WORDS and a.value is None:
        return a.kind
    if a.kind == "option":
        return f"option {a.value + 1}"
    if a.kind == "number":
        return f"number {a.value}"
    if a.kind == "pick":
        target = _arg(g, a.value, name)
        return None if target is None else f"pick {target}"
    if a.kind == "die":
        return f"die {g.dice[a.value][0]}"
    if a.kind == "act":
        action, args = a.value
        out = []
        for x in args:
            text = _arg(g, x, name)
            if text is None:
                return None
            out.append(text)
        return " ".join(["act", action, *out])
    return None


def _arg(g: Game, x: Any, name) -> str | None:
    if isinstance(x, Seat):
        return f"player {int(x)}"
    if isinstance(x, DieRef):
        return f"die {g.dice[x][0]}"
    if isinstance(x, AbilityRef):
        ab = g.ability(x)
        return f"ability {quote(ab.name)}" if ab.name else f"ability {x.index + 1}"
    if isinstance(x, str):
        return f"counter {x}"
    if isinstance(x, int):
        return name(x)
    return None


# --- verifying and writing ------------------------------------------------------------


def _verdict(
    text: str, out_dir: Path, table: Table, edition_ref: str
) -> tuple[str, list]:
    """Run a scenario text under the table's ruleset: its status and failures."""
    fd, name = tempfile.mkstemp(prefix=".fuzz-", suffix=".kscn", dir=out_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            scenarios = load_scenarios(name)
        except RulesetError as err:
            return "malformed", [str(err.diagnostics[0])]
        result = run_scenario(scenarios[0], edition_ref, ruleset=table.ruleset,
                              backend=table.engine.backend)
        return result.status, result.failures
    finally:
        os.unlink(name)


def counterexample(table: Table, trail: Trail, out_dir: Path,
                   edition_ref: str) -> Counterexample:
    """The trail as a scenario file to be written in `out_dir`: the shortest form
    that verifies; where none does, the new-game form, saying why.

    Args:
        table: the table the trail was played on.
        trail: a failing trail.
        out_dir: the directory the scenario is for (its card and edition files are
            named relative to it; it is verified there, in a temporary file).
        edition_ref: how the scenario names the ruleset: a shipped edition's name,
            or the ruleset file's path relative to `out_dir`.
    """
    w = _Writer(table, trail, edition_ref, out_dir)
    rp = _replay(table, trail)
    candidates = []
    for k in sorted(rp.quiet, reverse=True)[:4]:
        candidates.append(("a position", lambda k=k: _position_form(w, rp, k)))
    candidates.append(("a new game", lambda: _new_game_form(w, rp)))
    fallback, note = None, ""
    for form, build in candidates:
        try:
            built = build()
        except Exception as err:  # a position the scenario language cannot say
            note = f"{form}: {type(err).__name__}: {err}"
            continue
        if built is None:
            continue
        text, bare = built
        if fallback is None or form == "a new game":
            fallback = (form, text)
        # the bare script replays when nothing but the engine's invariants (which
        # `kotc test` checks after every step) fails in it
        status, failures = _verdict(bare, out_dir, table, edition_ref)
        stray = [f for f in failures if getattr(f, "invariant", None) is None]
        if status not in ("passed", "failed") or stray:
            note = f"{form} does not replay: {(stray or failures)[0]}"
            continue
        status, _ = _verdict(text, out_dir, table, edition_ref)
        if status == "failed":
            return Counterexample(text, form, True)
        note = f"{form}: the scenario language cannot state the broken invariant"
    form, text = fallback
    return Counterexample(text, form, False, note)



__all__ = ["Counterexample", "counterexample"]
