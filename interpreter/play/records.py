"""One game's record, as a run writes it (JSON Lines: one game a line) and a report
reads it back.

A record is made from a finished game's public face: its result, turn, first player,
decision count, usage tally and event log, plus the actions its seats took (which the
log names only by label). What it holds (every key always present):

- `format`, `table` (a digest of what the run played with: see `table_digest`),
  `edition`, `seed`, `rotation` (0: the entrants in the order given; r: each moved
  r seats on, so that a seat-swapped run plays every pairing from every seat);
- `seats`: per seat, its `deck` and `agent`, and what the event log credits to it:
  `played` (every card name of its deck, with the times its own actions put a card
  of that name into play or onto the chain: summoned, cast, set), `activated`
  (abilities activated, by card name), `counters_placed` and `counters_popped` (by
  kind), `keywords` (keyword calls, by the seat whose turn, action, chain link or
  counter was running: see `keyword_owners`);
- `first`, `winner` (a seat, or null), `tied`, `criterion` (what decided it, as the
  ruleset names it), `ended_by` (the condition that ended it), `turns`, `decisions`;
- `chains` (resolved chains by length), `keywords` and `counters` (the engine's
  tallies for the whole game: keyword calls, counters popped).

Every mapping is written with sorted keys, so the same game gives the same line
whatever process played it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from kotc.dsl import Ruleset, ast
from kotc.engine.game import Deck
from kotc.runtime.actions import Action
from kotc.runtime.events import Event

RECORD_FORMAT = 1

# Events that say whose effect runs from there on, and the field naming the seat:
# a turn or phase of a player, an action a player takes, a chain link resolving,
# a counter popped. They are the engine's vocabulary, not an edition's.
OWNER_FIELDS = {"turn": "player", "phase": "player", "action": "player",
                "resolve": "player", "pop": "player"}


class RecordError(ValueError):
    """A line of a records file that is not a game record; the message is located
    `file:line:`."""


def table_digest(ruleset: Ruleset, decks: Iterable[Deck], deck_names: Iterable[str],
                 agents: Iterable[str], players: int, max_turns: int) -> str:
    """A short digest of what a run plays with: the edition's name, each entrant's
    deck (its name and card list) and agent, the number of players and the turn
    limit. A run resumes only over records of the same digest.

    Returns:
        12 hexadecimal digits.
    """
    parts: list[Any] = [ruleset.name, players, max_turns, list(agents)]
    for name, deck in zip(deck_names, decks, strict=True):
        parts.append([name, sorted(Counter(c.name for c in deck.cards).items()),
                      sorted(Counter(c.name for c in deck.set_aside).items())])
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def play_parameters(ruleset: Ruleset) -> dict[str, tuple[int, ...]]:
    """For each action of the ruleset that plays a card, the positions of its card
    parameters that it plays: those its program moves into a zone in play or seen
    by all (a minion summoned onto the field, a spell cast onto the chain, a trap
    set), not into a hand, a deck, a resource pile or a grave.

    Returns:
        action name -> positions of its parameters, for the actions that play any.
    """
    shown = {name for name, z in ruleset.zones.items()
             if z.in_play or z.knowledge == "public"}
    found: dict[str, tuple[int, ...]] = {}
    for name, action in ruleset.actions.items():
        moved = {m.what.parts[0] for m in _moves(action.body)
                 if isinstance(m.what, ast.Path) and len(m.what.parts) == 1
                 and isinstance(m.dest, ast.Path) and m.dest.parts[-1] in shown}
        played = tuple(i for i, p in enumerate(action.params) if p.name in moved)
        if played:
            found[name] = played
    return found


def _moves(node: Any) -> Iterator[ast.Move]:
    """Every `move` statement within a program, however deeply nested."""
    if isinstance(node, ast.Move):
        yield node
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from _moves(item)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from _moves(getattr(node, f.name))


class Witness:
    """Stands at a game while it is played: each seat's agent is wrapped (`watch`) so
    that the actions taken are noted, with the length of the event log and the
    engine's usage tally as each decision was asked for (what `keyword_owners`
    splits the tally by)."""

    def __init__(self) -> None:
        # (seat, action name, arguments) of each action of kind "act" taken
        self.acts: list[tuple[int, str, tuple[Any, ...]]] = []
        # (events logged, usage tally) when each decision was asked for
        self.marks: list[tuple[int, dict[str, int]]] = []

    def watch(self, agent: Any, seat: int) -> _Watched:
        return _Watched(self, agent, seat)


class _Watched:
    """An agent whose choices its `Witness` notes; it decides as the agent does."""

    def __init__(self, witness: Witness, agent: Any, seat: int):
        self.witness, self.agent, self.seat = witness, agent, seat

    def act(self, game: Any) -> Any:
        self.witness.marks.append((len(game.events), dict(game.usage)))
        action = self.agent.act(game)
        chosen = action
        if not isinstance(chosen, Action) and hasattr(chosen, "__index__"):
            legal = game.legal_actions()  # an agent may answer with an index
            index = chosen.__index__()
            chosen = legal[index] if 0 <= index < len(legal) else None
        if isinstance(chosen, Action) and chosen.kind == "act":
            name, args = chosen.value
            self.witness.acts.append((self.seat, name, tuple(args)))
        return action


def game_record(game: Any, witness: Witness, plays: dict[str, tuple[int, ...]],
                keyword_cites: dict[str, str], seats: list[tuple[str, str]],
                deck_cards: list[list[str]], table: str, rotation: int) -> dict[str, Any]:
    """The record of a finished game.

    Args:
        game: the game, over.
        witness: what stood at it while it was played.
        plays: `play_parameters` of its ruleset.
        keyword_cites: each keyword's citation, as events cite it.
        seats: (deck name, agent) of each seat.
        deck_cards: the distinct card names of each seat's deck.
        table: `table_digest` of the run.
        rotation: how many seats the entrants were moved on.

    Returns:
        The record, JSON-ready (see the module's docstring).
    """
    events: list[Event] = game.events
    names = card_names(events)
    n = len(seats)
    per_seat: list[dict[str, Counter[str]]] = [
        {k: Counter() for k in ("played", "activated", "counters_placed",
                                "counters_popped", "keywords")} for _ in range(n)]
    for seat, cards in enumerate(deck_cards):
        per_seat[seat]["played"].update(dict.fromkeys(cards, 0))
    for seat, name, args in witness.acts:
        for i in plays.get(name, ()):
            if i < len(args) and type(args[i]) is int:
                per_seat[seat]["played"][names.get(args[i], f"#{args[i]}")] += 1
    for e in events:
        d = e.data
        if e.kind == "activate":
            per_seat[int(d["player"])]["activated"][names.get(d["card"], "?")] += 1
        elif e.kind == "place":
            per_seat[int(d["by"])]["counters_placed"][str(d["counter"])] += int(d["n"])
        elif e.kind == "pop":
            per_seat[int(d["player"])]["counters_popped"][str(d["counter"])] += 1
    marks = [*witness.marks, (len(events), dict(game.usage))]
    for (owner, keyword), uses in keyword_owners(events, marks, keyword_cites).items():
        if owner is not None and 0 <= owner < n:
            per_seat[owner]["keywords"][keyword] += uses
    usage: dict[str, int] = game.usage
    result = game.result or {}
    winner = result.get("winner")
    return {
        "format": RECORD_FORMAT,
        "table": table,
        "edition": game.engine.rs.name,
        "seed": game.seed,
        "rotation": rotation,
        "seats": [
            {"deck": deck, "agent": agent,
             **{k: _sorted(v) for k, v in per_seat[s].items()}}
            for s, (deck, agent) in enumerate(seats)
        ],
        "first": int(game.first_player),
        "winner": None if winner is None else int(winner),
        "tied": sorted(int(s) for s in result.get("tied") or ()),
        "criterion": result.get("criterion"),
        "ended_by": result.get("condition"),
        "turns": game.turn,
        "decisions": game.applied,
        "chains": _sorted({k.rsplit(" ", 1)[-1]: v for k, v in usage.items()
                           if k.startswith("chain length ")}),
        "keywords": _sorted({k: v for k, v in usage.items() if k in keyword_cites}),
        "counters": _sorted({k.split(" ", 1)[1]: v for k, v in usage.items()
                             if k.startswith("counter ")}),
    }


def _sorted(counts: dict[str, int]) -> dict[str, int]:
    return {k: counts[k] for k in sorted(counts)}


def card_names(events: Iterable[Event]) -> dict[int, str]:
    """Card id -> name, from the events that name a card (a card moved, removed):
    every card a player can act on has been moved at least once (drawn)."""
    names: dict[int, str] = {}
    for e in events:
        card, name = e.data.get("card"), e.data.get("name")
        if type(card) is int and isinstance(name, str):
            names.setdefault(card, name)
    return names


def keyword_owners(events: list[Event], marks: list[tuple[int, dict[str, int]]],
                   cites: dict[str, str]) -> Counter[tuple[int | None, str]]:
    """Keyword calls, by the seat whose effect made them.

    The engine tallies keyword calls for the whole game; the log says whose turn,
    action, chain link or counter runs (`OWNER_FIELDS`), but not which keyword a
    program calls. Between two decisions (`marks`: the log's length and the tally
    as each was asked for) the calls made are the tally's growth. They belong to
    the one seat whose effects ran in that stretch; where several seats' did (a
    turn passing, a chain resolving links of both), to the seat whose stretch holds
    the events citing the keyword's rule, when that is one seat (before the first
    turn, an event's own player is taken for its owner: each player draws and
    mulligans for themselves); where no event cites it (a draw of no card), to the
    seat whose effect ran last before the decision; where several seats' events
    cite it and there were as many calls, one to each. Calls that cannot be placed
    so are credited to no seat (`None`).

    Returns:
        (seat or None, keyword) -> calls.
    """
    owners: Counter[tuple[int | None, str]] = Counter()
    owner: int | None = None
    start, before = 0, dict[str, int]()
    for end, after in marks:
        stretch = []
        seen = {owner}
        for e in events[start:end]:
            field = OWNER_FIELDS.get(e.kind)
            if field is not None and e.data.get(field) is not None:
                owner = int(e.data[field])
                seen.add(owner)
            if field is not None or e.kind == "decide":
                continue  # what marks an owner, or a decision, is no keyword's doing
            # before the first turn (setup) no one's effect runs: an event is its
            # own player's (each draws, each buries)
            who = owner if owner is not None else e.data.get("player")
            stretch.append((None if who is None else int(who), e.cite))
        for keyword, uses in after.items():
            grown = uses - before.get(keyword, 0)
            if grown <= 0 or keyword not in cites:
                continue
            if len(seen) == 1 and owner is not None:
                owners[owner, keyword] += grown
                continue
            citing = {who for who, cite in stretch if cite == cites[keyword]}
            if not citing:  # a call that left no trace (a draw of none)
                citing = {owner}
            if len(citing) == grown:  # as many calls as seats: one each (setup's
                for who in citing:      # opening draws)
                    owners[who, keyword] += 1
            else:
                owners[citing.pop() if len(citing) == 1 else None, keyword] += grown
        start, before = end, after
    return owners


# --- the file -------------------------------------------------------------------------


def dump_record(record: dict[str, Any]) -> str:
    """A record as one line of JSON (keys sorted), with its newline."""
    return json.dumps(record, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":")) + "\n"


def read_records(path: Path, *, torn_tail: bool = False) -> Iterator[dict[str, Any]]:
    """The records of a JSON Lines file, one at a time (a file of any size is read
    in bounded memory).

    Args:
        path: the file.
        torn_tail: whether a last line cut short (no newline, not JSON: the run
            writing it was killed mid-line) is passed over rather than refused.

    Raises:
        RecordError: a line is not a game record (`file:line: why`).
        OSError: the file cannot be read.
    """
    with path.open("rb") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except (UnicodeDecodeError, json.JSONDecodeError) as err:
                if torn_tail and not line.endswith(b"\n"):
                    return
                raise RecordError(f"{path}:{number}: not a line of JSON ({err})"
                                  ) from None
            problem = record_problem(record)
            if problem:
                raise RecordError(f"{path}:{number}: {problem}")
            yield record


def complete_length(path: Path) -> int:
    """The length in bytes of the file's whole lines: where a run that resumes it
    appends (a last line cut short by a killed run is dropped)."""
    with path.open("rb") as f:
        data = f.read()
    if not data or data.endswith(b"\n"):
        return len(data)
    return data.rfind(b"\n") + 1


_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "format": int, "table": str, "edition": str, "seed": int, "rotation": int,
    "seats": list, "first": int, "tied": list, "turns": int, "decisions": int,
    "chains": dict, "keywords": dict, "counters": dict,
}
_SEAT: dict[str, type | tuple[type, ...]] = {
    "deck": str, "agent": str, "played": dict, "activated": dict,
    "counters_placed": dict, "counters_popped": dict, "keywords": dict,
}


def record_problem(record: Any) -> str | None:
    """Why `record` is not a game record this version reads, or None."""
    if not isinstance(record, dict):
        return "not a game record (a JSON object is expected)"
    if record.get("format") != RECORD_FORMAT:
        return (f"a record of format {record.get('format')!r}; this kotc reads "
                f"format {RECORD_FORMAT}")
    for key, kind in _REQUIRED.items():
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            return f"not a game record: '{key}' is missing or not a {_kind(kind)}"
    for seat in record["seats"]:
        if not isinstance(seat, dict):
            return "not a game record: a seat is not an object"
        for key, kind in _SEAT.items():
            if not isinstance(seat.get(key), kind):
                return f"not a game record: a seat's '{key}' is missing or not a " \
                       f"{_kind(kind)}"
        if not all(_counts(seat[k]) for k in _SEAT if _SEAT[k] is dict):
            return "not a game record: a seat's tally holds something not a count"
    if not all(_counts(record[k]) for k in ("chains", "keywords", "counters")):
        return "not a game record: a tally holds something not a count"
    winner = record.get("winner")
    if winner is not None and not (isinstance(winner, int)
                                   and 0 <= winner < len(record["seats"])):
        return "not a game record: 'winner' is no seat"
    return None


def _counts(mapping: dict[str, Any]) -> bool:
    return all(type(v) is int for v in mapping.values())


def _kind(kind: type | tuple[type, ...]) -> str:
    names = {int: "number", str: "string", list: "list", dict: "object"}
    return names.get(kind, "value") if isinstance(kind, type) else "value"
