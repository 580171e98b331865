"""A person at the table: `kotc play --agent human`.

Before each of their decisions the person reads what happened since they last
chose (the account, with the cards they may not look at left unnamed), the
board as their seat sees it (`Game.view`), the question in the rulebook's words
with how many to choose, and the legal actions, each with a key. Nothing outside
the legal actions is taken, so a person plays by the same API as any agent.

What keeps a person from a wrong move:

- keys are stable: an action keeps the key it was first shown with for the
  whole game (a card is picked by its number, `y`/`n` answer a question, `e`
  ends a phase), so a key pressed out of habit means what it meant before;
- giving the game up (the ruleset's concessions, such as agreeing to end) has
  a long key and is taken only once confirmed; so is leaving the table;
- input is read without regard to case, and anything else is a command or is
  refused with a hint: `?` help, `look CARD`, `why`, `board`, `pause`, `quit`.

A question with one answer is answered by itself (said so), unless the person
asked to `pause` there too.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any

from kotc.engine.account import entries
from kotc.runtime.actions import Action, Decision
from kotc.runtime.values import AbilityRef, DieRef, Seat, card_label
from rich.console import Console as RichConsole
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text


class Abandoned(Exception):
    """The person left the game (`quit`, or the end of their input)."""


COMMANDS = ("?", "help", "look", "why", "board", "pause", "quit", "keys")

HELP = """\
Answer with an option's key (shown in brackets) or its words; case does not matter.
Keys stay with their action all game: a card is picked by its number (38 for
Exile#38), y/n answer a question, d is done, e ends the phase, p passes, pN picks
player N; an action on a card is its letter and the card's number (s38: summon
Exile#38). Giving the game up has a long key and asks you to confirm.
  ?  or help      this help
  look CARD       a card's full text: its number (38), or its name
  why             the rules behind this question and what just happened
  board           the board again
  pause           stop at questions with one answer too (pause again: go on by itself)
  quit            leave the game (asks to confirm)"""

# keys fixed for the answers every edition has
_FIXED = {"yes": "y", "no": "n", "done": "d", "end": "e", "pass": "p"}


class Keys:
    """Keys for actions, stable for a game: an action keeps the key it was first
    shown with, and no other action ever gets that key.

    A key is made from what the action is: `y`, `n`, `d` (done), `e` (end), `p`
    (pass); a card's number for picking it, `pN` for player N, `rN` for die N,
    `=N` for the number N, `oN` for the Nth option; for an action that is opened
    (summon, cast...), a prefix of its name and the numbers of the cards it names
    (`s38`). The ruleset's concessions are keyed by their whole name.
    """

    def __init__(self, concessions: Iterable[str] = ()):
        self.concessions = frozenset(concessions)
        self.by_action: dict[tuple[Any, ...], str] = {}
        self.taken: set[str] = set(COMMANDS) | set(_FIXED.values())
        self.prefixes: dict[str, str] = {}

    def of(self, action: Action) -> str:
        """The action's key, made when first asked."""
        ident = action.key()
        key = self.by_action.get(ident)
        if key is None:
            key = self._fresh(action)
            self.by_action[ident] = key
            self.taken.add(key)
        return key

    def _fresh(self, action: Action) -> str:
        wanted = self._wanted(action)
        if wanted in _FIXED.values() and action.kind in _FIXED:
            return wanted
        key, n = wanted, 1
        while key in self.taken:  # another action has it: a suffix of our own
            n += 1
            key = f"{wanted}.{n}" if wanted[-1].isdigit() else f"{wanted}{n}"
        return key

    def _wanted(self, action: Action) -> str:
        kind, value = action.kind, action.value
        if kind in _FIXED:
            return _FIXED[kind]
        if kind == "act":
            name, args = value
            if name in self.concessions:
                return str(name).lower()
            return self._prefix(name) + "".join(_arg_key(a) for a in args)
        if kind == "option":
            return f"o{int(value) + 1}"
        if kind == "number":
            return f"={value}"
        return _value_key(value) or kind.lower()

    def _prefix(self, name: str) -> str:
        """A prefix for an action's name, the same for every action of that name:
        its initials, else longer starts of it, none another name has."""
        if name not in self.prefixes:
            used = set(self.prefixes.values()) | set(_FIXED.values()) | {"o", "r"}
            initials = "".join(w[0] for w in name.lower().split("_") if w)
            candidates = [initials] + [name.lower()[:n] for n in range(2, len(name) + 1)]
            self.prefixes[name] = next(
                (c for c in candidates if c and c not in used and not c[0].isdigit()),
                name.lower(),
            )
        return self.prefixes[name]


def _value_key(value: Any) -> str:
    if isinstance(value, Seat):
        return f"p{int(value)}"
    if isinstance(value, DieRef):
        return f"r{int(value)}"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return ""


def _arg_key(arg: Any) -> str:
    if isinstance(arg, AbilityRef):
        return f":{arg.index + 1}" if arg.index else ""
    if isinstance(arg, Seat):
        return f"p{int(arg)}"
    if isinstance(arg, int) and not isinstance(arg, bool):
        return str(arg)
    return ""


# --- the question, in the rulebook's words ---------------------------------------


def _labels(game: Any, section: str) -> dict[str, str]:
    rules = game.engine.rs.sections.get(section, {})
    return {
        key.split()[-1]: rule.label
        for key, rule in rules.items()
        if isinstance(getattr(rule, "label", None), str) and rule.label
    }


def place(game: Any) -> str:
    """Where in the game the question is asked, as the rulebook names it: the phase,
    setup step or battle step (their labels), or the chain."""
    kind, _, name = (game.node or "").partition(":")
    name = name.partition("/")[0]  # a phase's or step's window is asked there
    section = {"phase": "turn", "setup": "setup", "battle": "battle"}.get(kind)
    if section is not None:
        return _labels(game, section).get(name, name.replace("_", " "))
    if kind == "chain":
        return "Chain"
    return kind or "the game"


def how_many(count: tuple[int, int, int] | None) -> str:
    """How many are still to be chosen, from a decision's `count`.

    >>> how_many((0, 1, 1))
    'choose 1'
    >>> how_many((1, 0, 3))
    'choose up to 2 more, or done'
    >>> how_many((0, 2, 4))
    'choose 2 to 4'
    """
    if count is None:
        return "choose one"
    picked, least, most = count
    more = " more" if picked else ""
    left_most, left_least = most - picked, max(0, least - picked)
    if left_least == left_most:
        return f"choose {left_most}{more}"
    if left_least == 0:
        return f"choose up to {left_most}{more}, or done"
    return f"choose {left_least} to {left_most}{more}"


_CHOOSE = re.compile(r"choose for '(\w+)'")
_ORDER = re.compile(r"order '(\w+)'")
_PICK = re.compile(r"pick '(\w+)'")


def question(game: Any, d: Decision) -> str:
    """The decision asked in the rulebook's words: where (the phase or step, by its
    label), the rule that asks (its section), and what and how many to choose."""
    where = place(game)
    section = d.cite.section if d.cite else None
    rule = f" ({section})" if section and section != where else ""
    prompt = d.prompt
    if m := _CHOOSE.fullmatch(prompt):
        what = f"{m.group(1).replace('_', ' ')}: {how_many(d.count)}"
    elif m := _ORDER.fullmatch(prompt):
        what = f"put {m.group(1)} in order: which comes next?"
    elif m := _PICK.fullmatch(prompt):
        what = f"choose a number for {m.group(1).replace('_', ' ')}"
    elif prompt == "may":
        what = "do it? (y/n)"
    elif prompt == "either":
        what = "choose one of the options"
    elif prompt == where:  # a phase's window: act, or end it
        what = "act, or end the phase (e)"
    else:
        what = prompt
    return f"{where}{rule}: {what}"


# --- the board ---------------------------------------------------------------------


def _card_text(c: dict[str, Any], stat_labels: dict[str, str]) -> Text:
    stats = ", ".join(f"{stat_labels.get(k, k)} {v}" for k, v in c["stats"].items())
    flags = ("exhausted", "fatigued", "face_down", "pawn")
    marks = [flag for flag in flags if c.get(flag)]
    marks += c.get("marks", [])
    counters: dict[str, int] = {}
    for kind, _ in c.get("counters", ()):
        counters[kind] = counters.get(kind, 0) + 1
    marks += [f"{n} {kind}" if n > 1 else kind for kind, n in counters.items()]
    spent = c.get("exhausted")
    text = Text(card_label(c["name"], c["id"]), style="dim" if spent else "bold")
    detail = "; ".join(x for x in (stats, ", ".join(marks)) if x)
    if detail:
        text.append(f" ({detail})", style="dim" if spent else "")
    return text


def _zone_text(cards: list[dict[str, Any]], stat_labels: dict[str, str]) -> Text:
    shown = [_card_text(c, stat_labels) for c in cards if not c.get("hidden")]
    hidden = [c for c in cards if c.get("hidden")]
    if hidden:
        exhausted = sum(1 for c in hidden if c.get("exhausted"))
        note = f" ({exhausted} exhausted)" if exhausted else ""
        shown.append(Text(f"{len(hidden)} unseen{note}", style="italic"))
    return Text(" · ").join(shown)


def board(
    view: dict[str, Any], labels: dict[str, dict[str, str]] | None = None
) -> RenderableType:
    """The board a view shows: a panel per player (the seat's own first) with HP
    and each zone's cards, their stats, counters and marks; then the battle and
    the chain under way. `labels` (`board_labels`) names zones and stats as the
    rulebook does."""
    labels = labels or {}
    zone_labels, stat_labels = labels.get("zones", {}), labels.get("stats", {})
    seat = view["seat"]
    names = {
        c["id"]: card_label(c["name"], c["id"])
        for p in view["players"]
        for cards in p["zones"].values()
        for c in cards
        if not c.get("hidden")
    }
    parts: list[RenderableType] = []
    turn = (f"Turn {view['turn']}, player {view['active']}'s turn" if view["turn"]
            else "Setup")
    if view.get("phase") and view["turn"]:
        turn += f" · {labels.get('phases', {}).get(view['phase'], view['phase'])}"
    parts.append(Text(turn, style="bold"))
    for p in sorted(view["players"], key=lambda p: p["seat"] != seat):
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="cyan", no_wrap=True)
        grid.add_column()
        for zone, cards in p["zones"].items():
            if cards:
                grid.add_row(zone_labels.get(zone, zone), _zone_text(cards, stat_labels))
        state = " · zombie" if p["zombie"] else " · out" if p["eliminated"] else ""
        you = p["seat"] == seat
        hp = f" · HP {p['hp']}" if "hp" in labels.get("players", {"hp": "HP"}) else ""
        title = f"player {p['seat']}{' (you)' if you else ''}{hp}{state}"
        parts.append(Panel(grid, title=title, title_align="left",
                           border_style="green" if you else "red"))
    battle = view["battle"]
    if battle is not None:

        def name(card: int) -> str:
            return names.get(card, "a card")

        victim = battle["victim"]
        if isinstance(victim, dict):
            victim = f"player {victim['player']}"
        elif victim is not None:
            victim = name(victim)
        attack = ", ".join(map(name, battle["attack_team"]))
        defense = ", ".join(map(name, battle["defense_team"]))
        parts.append(Text(
            f"battle: player {battle['attacker']} attacks"
            + (f" {victim}" if victim is not None else "")
            + (f" with {attack}" if attack else "")
            + (f"; defended by {defense}" if defense else "")
            + "".join(f"; {side} dice {battle[f'{side}_dice']}"
                      for side in ("attack", "defense") if battle[f"{side}_dice"])
        ))
    for link in view["chain"] or ():
        source = f" from {link['source']}" if "source" in link else ""
        negated = " (negated)" if link.get("negated") else ""
        parts.append(Text(f"chain link {link['link']}: player {link['player']}"
                          f"{source}{negated}"))
    return Group(*parts)


def board_labels(game: Any) -> dict[str, dict[str, str]]:
    """The rulebook's names for the zones, stats and phases a board shows."""
    hp = game.engine.rs.setting("setup", "starting_hp")
    return {"zones": _labels(game, "zones"), "stats": _labels(game, "cards"),
            "phases": _labels(game, "turn"),
            # a game whose players have no HP (their life is a card) shows none
            "players": {"hp": "HP"} if hp is not None else {}}


def board_text(view: dict[str, Any], labels: dict[str, dict[str, str]] | None = None,
               width: int = 100) -> str:
    """The board as plain text (no colour), as a screen of `width` columns shows it."""
    out = RichConsole(width=width, color_system=None, force_terminal=False,
                      record=True, file=io.StringIO())
    out.print(board(view, labels))
    return out.export_text()


def card_sheet(
    c: dict[str, Any], labels: dict[str, dict[str, str]] | None = None
) -> RenderableType:
    """A card as `look` shows it: name, type, stats and state, each ability's text,
    and the flavor text."""
    stat_labels = (labels or {}).get("stats", {})
    lines = [_card_text(c, stat_labels), Text(c["type"], style="italic")]
    for ability in c.get("abilities", ()):
        head = f"{ability['name']}: " if ability.get("name") else ""
        lines.append(Text(f"{head}{ability['text']}"))
    if not c.get("abilities"):
        lines.append(Text("(no abilities)", style="dim"))
    if c.get("flavor"):
        lines.append(Text(c["flavor"], style="italic dim"))
    return Panel(Group(*lines), title=card_label(c["name"], c["id"]), title_align="left")


def find_card(view: dict[str, Any], query: str) -> tuple[dict[str, Any] | None, str]:
    """The card a person names in `look`: by number (`38`, `#38`) or by name, whole
    or a unique start, among the cards the view shows; else None and why."""
    seen = [c for p in view["players"] for cs in p["zones"].values() for c in cs
            if not c.get("hidden")]
    q = query.strip().lstrip("#").lower()
    if not q:
        return None, "look at which card? give its number (look 38) or its name"
    if q.isdigit():
        found = [c for c in seen if c["id"] == int(q)]
        return (found[0], "") if found else (None, f"no card #{q} you can see")
    exact = [c for c in seen if card_label(c["name"], c["id"]).lower() == q
             or c["name"].lower() == q]
    starts = exact or [c for c in seen if c["name"].lower().startswith(q)]
    designs = {c["name"] for c in starts}
    if len(designs) == 1:
        return starts[0], ""
    if not starts:
        return None, f"no card named '{query.strip()}' that you can see"
    return None, f"'{query.strip()}' names several cards: {', '.join(sorted(designs))}"


# --- the people --------------------------------------------------------------------


class Narrator:
    """Tells the game's new events, once each, to the people at the table: by
    name the cards their one seat may look at (several people at one screen read
    it as a watcher does). Citations are kept, not printed: `why` shows them."""

    def __init__(self, con: Any, humans: list[int]):
        self.con = con
        self.reader = humans[0] if len(set(humans)) == 1 else None
        self.told = 0
        self.recent: list[tuple[str, str | None]] = []  # told since the last question

    def catch_up(self, game: Any) -> None:
        new = game.events[self.told :]
        self.told = len(game.events)
        lines = entries(game, new, reader=self.reader)
        self.recent += lines
        for line, _ in lines:
            self.con.print(line)

    def asked(self) -> None:
        """A question was answered: what is told next is new."""
        self.recent = []


class HumanAgent:
    """Shows the seat's board, the question and the options with their keys, and
    reads the answer from `read` (a line of input, None at its end).

    Args:
        narrator: tells what happened; shared by the people at one table.
        read: asks for a line with a prompt; None when input has ended.
        pause: stop at questions with one answer too (else they are answered
            by themselves).
    """

    def __init__(self, narrator: Narrator, read: Callable[[str], str | None],
                 pause: bool = False):
        self.narrator, self.read, self.pause = narrator, read, pause
        self.keys: Keys | None = None
        self.shown = ""  # the board as last shown
        self.screen: RichConsole | None = None

    def _rich(self) -> RichConsole:
        if self.screen is None:
            con = self.narrator.con
            colour = bool(getattr(con, "colour", False))
            self.screen = RichConsole(file=con.out, force_terminal=colour,
                                      color_system="auto" if colour else None,
                                      highlight=False, soft_wrap=False)
        return self.screen

    def act(self, game: Any) -> Action:
        if self.keys is None:
            self.keys = Keys(game.engine.rs.concessions)
        keys = self.keys
        self.narrator.catch_up(game)
        con, d = self.narrator.con, game.decision
        view = game.view(d.player)
        labels = board_labels(game)
        now = board_text(view, labels)
        if now != self.shown:  # shown again only once something on it changed
            self.shown = now
            con.print()
            self._rich().print(board(view, labels))
        options: list[Action] = game.legal_actions()
        keyed = [(keys.of(a), a) for a in options]
        ask = question(game, d)
        if len(options) == 1 and not self.pause and keyed[0][0] not in keys.concessions:
            con.print(f"player {d.player}, {ask} — the only answer: {options[0]}")
            self.narrator.asked()
            return options[0]
        self._show_question(d.player, ask, keyed)
        while True:
            answer = self.read(f"player {d.player}> ")
            if answer is None:
                raise Abandoned
            said = " ".join(answer.split())
            low = said.lower()
            chosen = _match(low, keyed)
            if chosen is not None:
                key, action = chosen
                giving_up = action.kind == "act" and action.value[0] in keys.concessions
                if giving_up and not self._confirm(game, action):
                    con.print("not taken; choose again")
                    continue
                self.narrator.asked()
                taken: Action = action
                return taken
            command, _, rest = low.partition(" ")
            if command in ("?", "help", "h"):
                con.print(HELP)
            elif command == "look":
                card, why = find_card(view, said.partition(" ")[2])
                if card is None:
                    con.print(why)
                else:
                    self._rich().print(card_sheet(card, labels))
            elif command == "why":
                self._why(d)
            elif command in ("board", "table"):
                self._rich().print(board(view, labels))
            elif command in ("keys", "options", "list"):
                self._show_question(d.player, ask, keyed)
            elif command == "pause":
                self.pause = not self.pause
                con.print("pausing at questions with one answer" if self.pause
                          else "questions with one answer go on by themselves")
            elif command == "quit":
                if self._yes("leave the game? it is abandoned and no log is written"):
                    raise Abandoned
            elif low:
                con.print(f"'{said}' is not one of the keys shown; type ? for help")
            else:
                self._show_question(d.player, ask, keyed)

    def _show_question(
        self, seat: int, ask: str, keyed: list[tuple[str, Action]]
    ) -> None:
        con = self.narrator.con
        con.print(con.style(f"player {seat}, {ask}", "bold"))
        width = max(len(k) for k, _ in keyed) + 2
        for key, action in keyed:
            con.print(f"  {('[' + key + ']').ljust(width)} {action}")

    def _why(self, d: Decision) -> None:
        con = self.narrator.con
        if d.cite:
            con.print(f"this question: {d.cite}")
        cited = [(line.strip(), why) for line, why in self.narrator.recent if why]
        if cited:
            con.print("what happened since your last answer:")
            for line, why in cited[-15:]:
                con.print(f"  {line}  [{why}]")
        if not d.cite and not cited:
            con.print("no rule is cited here")

    def _confirm(self, game: Any, action: Action) -> bool:
        name = action.value[0]
        rule = game.engine.rs.sections.get("actions", {}).get(f"action {name}")
        what = getattr(rule, "label", "") or name
        return self._yes(f"{name}: {what}. This can end the game. Are you sure?")

    def _yes(self, question_: str) -> bool:
        answer = self.read(f"{question_} [y/N] ")
        if answer is None:
            raise Abandoned
        return answer.strip().lower() in ("y", "yes")


def _match(low: str, keyed: list[tuple[str, Action]]) -> tuple[str, Action] | None:
    """The option a person's answer names: its key, or its words whole (any case)."""
    for key, action in keyed:
        if low == key:
            return key, action
    for key, action in keyed:
        if low == str(action).lower():
            return key, action
    return None
