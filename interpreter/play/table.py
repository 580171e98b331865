"""A person at the table: `kotc play --agent human`.

Before each of their decisions the person reads what happened since they last
chose (the account, with the cards they may not look at left unnamed), the
table as their seat sees it (`Game.view`), and the legal actions, numbered. They
answer with a number or an action's label; nothing outside the legal actions is
taken, so a person plays by the same API as any agent.
"""

from __future__ import annotations

from collections.abc import Callable

from kotc.engine.account import account
from kotc.runtime.values import card_label


class Abandoned(Exception):
    """The person left the game (`quit`, or the end of their input)."""


HELP = (
    "answer with an option's number or its label; "
    "'table' shows the table again, 'quit' leaves the game"
)


class Narrator:
    """Tells the game's new events, once each, to the people at the table: by
    name the cards their one seat may look at (several people at one screen read
    it as a watcher does)."""

    def __init__(self, con, humans: list[int], cite: Callable[[str], str]):
        self.con, self.cite = con, cite
        self.reader = humans[0] if len(set(humans)) == 1 else None
        self.told = 0

    def catch_up(self, game) -> None:
        new = game.events[self.told :]
        self.told = len(game.events)
        for line in account(game, new, cite=self.cite, reader=self.reader):
            self.con.print(line)


class HumanAgent:
    """Shows the seat's table and options and reads the answer from `read`
    (a line of input, None at its end)."""

    def __init__(self, narrator: Narrator, read: Callable[[str], str | None]):
        self.narrator, self.read = narrator, read
        self.shown: list[str] = []  # the table as last shown

    def act(self, game):
        self.narrator.catch_up(game)
        con, d = self.narrator.con, game.decision
        con.print()
        now = table(game.view(d.player))
        if now != self.shown:  # shown again only once something on it changed
            self.shown = now
            for line in now:
                con.print(line)
        cite = f"  [{d.cite.text}]" if d.cite else ""
        # where in the flow it is asked: a prompt alone ("may") can say little
        where = f" ({game.node})" if game.node else ""
        con.print(con.style(f"player {d.player}, {d.prompt}{where}:", "bold") + cite)
        options = game.legal_actions()
        for i, a in enumerate(options, 1):
            con.print(f"  {i:>2}. {a}")
        while True:
            answer = self.read(f"player {d.player}> ")
            if answer is None or answer.strip().lower() in ("q", "quit"):
                raise Abandoned
            answer = answer.strip()
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            chosen = [a for a in options if str(a) == answer]
            if chosen:
                return chosen[0]
            if answer.lower() in ("t", "table"):
                for line in self.shown:
                    con.print(line)
                continue
            if answer not in ("", "?", "help", "h"):
                con.print(f"'{answer}' is not one of the options 1..{len(options)}")
            con.print(HELP)


def table(view: dict) -> list[str]:
    """The table a view shows, a few lines per player, the seat's own first."""
    lines = []
    seat = view["seat"]
    order = sorted(view["players"], key=lambda p: p["seat"] != seat)
    for p in order:
        who = f"player {p['seat']}" + (" (you)" if p["seat"] == seat else "")
        state = " zombie" if p["zombie"] else " out" if p["eliminated"] else ""
        lines.append(f"{who}: HP {p['hp']}{state}")
        for zone, cards in p["zones"].items():
            if cards:
                lines.append(f"    {zone}: {_zone(cards)}")
    battle = view["battle"]
    if battle is not None:
        # the cards in play a battle names, by name where the seat sees them
        names = {
            c["id"]: card_label(c["name"], c["id"])
            for p in view["players"]
            for cards in p["zones"].values()
            for c in cards
            if not c.get("hidden")
        }
        name = lambda card: names.get(card, "a card")  # noqa: E731
        victim = battle["victim"]
        if isinstance(victim, dict):
            victim = f"player {victim['player']}"
        elif victim is not None:
            victim = name(victim)
        attack = ", ".join(map(name, battle["attack_team"]))
        defense = ", ".join(map(name, battle["defense_team"]))
        lines.append(
            f"battle: player {battle['attacker']} attacks"
            + (f" {victim}" if victim is not None else "")
            + (f" with {attack}" if attack else "")
            + (f"; defended by {defense}" if defense else "")
        )
    for link in view["chain"] or ():
        source = f" from {link['source']}" if "source" in link else ""
        lines.append(f"chain link {link['link']}: player {link['player']}{source}")
    return lines


def _zone(cards: list[dict]) -> str:
    """A zone's cards: each one seen by name and state, the others counted."""
    shown = [_card(c) for c in cards if not c.get("hidden")]
    hidden = [c for c in cards if c.get("hidden")]
    if hidden:
        exhausted = sum(1 for c in hidden if c.get("exhausted"))
        count = f"{len(hidden)} unseen"
        shown.append(count + (f" ({exhausted} exhausted)" if exhausted else ""))
    return ", ".join(shown)


def _card(c: dict) -> str:
    stats = " ".join(f"{k} {v}" for k, v in c["stats"].items())
    marks = [
        flag
        for flag in ("exhausted", "fatigued", "face_down", "pawn")
        if c.get(flag)
    ]
    marks += c.get("marks", [])
    marks += [f"{kind} counter" for kind, _ in c.get("counters", ())]
    extra = f"; {', '.join(marks)}" if marks else ""
    return f"{card_label(c['name'], c['id'])} ({stats}{extra})"
