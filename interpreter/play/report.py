"""What many games' records say, for a designer to act on: win rates per deck, per
seat and per seat-swapped pairing with 95% intervals, the first player's advantage,
game lengths, each card's play rate and win rate when played, keyword and counter
use; and two or more reports compared side by side.

A `Tally` takes records one at a time, in any order, and keeps only counts (keyed
by deck, seat, card, keyword...: bounded by what the games hold, not by how many
there are), so a run of any size is tallied as it goes, and records tallied in any
order or split among processes give the same report. A report is plain JSON-ready
data whose lists come in a fixed order (ties broken by name): it does not depend on
the order of the records, the number of workers or the hash seed.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

REPORT_FORMAT = 1
Z95 = 1.959963984540054  # the standard normal quantile of a two-sided 95% interval


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): unlike the
    normal approximation it stays within [0, 1] and is sound for small counts.

    >>> wilson(50, 100)
    (0.4038, 0.5962)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    half /= denominator
    return _round(max(0.0, centre - half)), _round(min(1.0, centre + half))


def difference_interval(a: tuple[int, int], b: tuple[int, int]
                        ) -> tuple[float, float, float]:
    """The difference of two proportions, `b` less `a` (each `(successes,
    trials)`), with its 95% interval by Newcombe's method from their Wilson
    intervals.

    Returns:
        (difference, low, high).
    """
    (ka, na), (kb, nb) = a, b
    pa, pb = (ka / na if na else 0.0), (kb / nb if nb else 0.0)
    la, ua = wilson(ka, na)
    lb, ub = wilson(kb, nb)
    d = pb - pa
    low = d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    high = d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    return _round(d), _round(low), _round(high)


def _round(x: float) -> float:
    return round(x, 4)


def _rate(wins: int, games: int) -> dict[str, Any]:
    return {"games": games, "wins": wins,
            "win_rate": _round(wins / games) if games else 0.0,
            "ci95": list(wilson(wins, games))}


class Tally:
    """Counts over game records, added one at a time (`add`), from which a report is
    made (`report`). Holds no record."""

    def __init__(self) -> None:
        self.games = 0
        self.decisions = 0
        self.editions: set[str] = set()
        self.tables: set[str] = set()
        self.rotations: set[int] = set()
        self.ties = 0
        self.first = [0, 0]  # games with a first player, games the first player won
        self.turns: Counter[int] = Counter()
        self.ended_by: Counter[str] = Counter()
        self.criteria: Counter[str] = Counter()
        self.chains: Counter[int] = Counter()
        # name -> [games, wins] for decks, agents and seats (a seat by its number)
        self.decks: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.agents: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.seats: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        # pairing (its decks, sorted) -> games; (pairing, deck, seat) -> [games, wins]
        self.pairings: Counter[tuple[str, ...]] = Counter()
        self.pairing_seats: dict[tuple[tuple[str, ...], str, int], list[int]] = (
            defaultdict(lambda: [0, 0]))
        # keyword or counter -> uses, and games that used it
        self.keywords: Counter[str] = Counter()
        self.keyword_games: Counter[str] = Counter()
        self.counters: Counter[str] = Counter()
        self.counter_games: Counter[str] = Counter()
        # (deck, name) -> uses credited to a seat of that deck
        self.deck_keywords: Counter[tuple[str, str]] = Counter()
        self.deck_placed: Counter[tuple[str, str]] = Counter()
        self.deck_popped: Counter[tuple[str, str]] = Counter()
        # (deck, card) -> [games it was played in, of them won, times played,
        # activations]; games it was not played in and won
        self.cards: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        self.unplayed_wins: Counter[tuple[str, str]] = Counter()

    def add(self, r: dict[str, Any]) -> None:
        """Count one game's record (`records.game_record`)."""
        self.games += 1
        self.decisions += r["decisions"]
        self.editions.add(r["edition"])
        self.tables.add(r["table"])
        self.rotations.add(r["rotation"])
        winner = r["winner"]
        if winner is None:
            self.ties += 1
        self.first[0] += 1
        self.first[1] += winner == r["first"]
        self.turns[r["turns"]] += 1
        self.ended_by[r["ended_by"] or "none"] += 1
        self.criteria[r["criterion"] or "none"] += 1
        for length, n in r["chains"].items():
            self.chains[int(length)] += n
        for name, n in r["keywords"].items():
            self.keywords[name] += n
            self.keyword_games[name] += 1
        for name, n in r["counters"].items():
            self.counters[name] += n
            self.counter_games[name] += 1
        pairing = tuple(sorted(s["deck"] for s in r["seats"]))
        self.pairings[pairing] += 1
        for seat, s in enumerate(r["seats"]):
            won = winner == seat
            deck = s["deck"]
            for entry in (self.decks[deck], self.agents[s["agent"]], self.seats[seat],
                          self.pairing_seats[pairing, deck, seat]):
                entry[0] += 1
                entry[1] += won
            for card, times in s["played"].items():
                entry = self.cards[deck, card]
                if times:
                    entry[0] += 1
                    entry[1] += won
                    entry[2] += times
                elif won:
                    self.unplayed_wins[deck, card] += 1
            for card, times in s["activated"].items():
                if card in s["played"]:  # the deck's own, not a card taken or made
                    self.cards[deck, card][3] += times
            for name, n in s["keywords"].items():
                self.deck_keywords[deck, name] += n
            for name, n in s["counters_placed"].items():
                self.deck_placed[deck, name] += n
            for name, n in s["counters_popped"].items():
                self.deck_popped[deck, name] += n

    def update(self, records: Iterable[dict[str, Any]]) -> Tally:
        for r in records:
            self.add(r)
        return self

    def report(self) -> dict[str, Any]:
        """The report of the games counted (see the module's docstring).

        Returns:
            JSON-ready data; its lists in a fixed order, its rates rounded to 4
            places (its intervals as `ci95: [low, high]`).
        """
        n = self.games
        decks = sorted(self.decks)
        return {
            "format": REPORT_FORMAT,
            "games": n,
            "editions": sorted(self.editions),
            "decisions": self.decisions,
            "seat_swapped": len(self.rotations) > 1,
            "runs": len(self.tables),
            "decks": [{"deck": d, **_rate(*reversed(self.decks[d]))} for d in decks],
            "agents": [{"agent": a, **_rate(*reversed(self.agents[a]))}
                       for a in sorted(self.agents)],
            "seats": [{"seat": s, **_rate(*reversed(self.seats[s]))}
                      for s in sorted(self.seats)],
            "first_player": _rate(self.first[1], self.first[0]),
            "ties": {"games": self.ties, "rate": _round(self.ties / n) if n else 0.0},
            "pairings": self._pairings(),
            "turns": self._turns(),
            "ended_by": _ranked(self.ended_by, "condition"),
            "criteria": _ranked(self.criteria, "criterion"),
            "chain_lengths": [{"length": k, "chains": self.chains[k]}
                              for k in sorted(self.chains)],
            "keywords": [
                {"keyword": k, "uses": self.keywords[k], "games": self.keyword_games[k],
                 "per_game": _round(self.keywords[k] / n) if n else 0.0,
                 "by_deck": {d: self.deck_keywords[d, k] for d in decks}}
                for k in _by_count(self.keywords)],
            "counters": self._counters(decks),
            "cards": self._cards(decks),
        }

    def _pairings(self) -> list[dict[str, Any]]:
        rows = []
        for pairing in sorted(self.pairings):
            seats = sorted((deck, seat) for (p, deck, seat) in self.pairing_seats
                           if p == pairing)
            rows.append({
                "decks": list(pairing), "games": self.pairings[pairing],
                "by_seat": [{"deck": deck, "seat": seat,
                             **_rate(*reversed(self.pairing_seats[pairing, deck, seat]))}
                            for deck, seat in seats]})
        return rows

    def _turns(self) -> dict[str, Any]:
        n = self.games
        if not n:
            return {"mean": 0.0, "median": 0, "p10": 0, "p90": 0, "min": 0, "max": 0,
                    "histogram": []}
        values: list[int] = sorted(self.turns)

        def quantile(q: float) -> int:  # the smallest value with q of the games at
            rank, seen = math.ceil(q * n), 0  # or below it
            for v in values:
                seen += int(self.turns[v])
                if seen >= rank:
                    return v
            return values[-1]

        return {"mean": _round(sum(v * c for v, c in self.turns.items()) / n),
                "median": quantile(0.5), "p10": quantile(0.1), "p90": quantile(0.9),
                "min": values[0], "max": values[-1],
                "histogram": [{"turns": v, "games": self.turns[v]} for v in values]}

    def _counters(self, decks: list[str]) -> list[dict[str, Any]]:
        names = set(self.counters) | {k for _, k in self.deck_placed}
        rank = Counter({k: self.counters[k] for k in names})
        return [{"counter": k, "popped": self.counters[k], "games": self.counter_games[k],
                 "per_game": _round(self.counters[k] / self.games) if self.games else 0.0,
                 "by_deck": {d: {"placed": self.deck_placed[d, k],
                                 "popped": self.deck_popped[d, k]} for d in decks}}
                for k in _by_count(rank)]

    def _cards(self, decks: list[str]) -> list[dict[str, Any]]:
        rows = []
        for deck in decks:
            games = self.decks[deck][0]
            for card in sorted(c for d, c in self.cards if d == deck):
                played, won, times, activations = self.cards[deck, card]
                unplayed = games - played
                not_won = self.unplayed_wins[deck, card]
                rows.append({
                    "deck": deck, "card": card, "games": games, "played": played,
                    "play_rate": _round(played / games) if games else 0.0,
                    "plays_per_game": _round(times / games) if games else 0.0,
                    "activations_per_game": _round(activations / games) if games else 0.0,
                    "won_when_played": won,
                    "win_rate_when_played": _round(won / played) if played else None,
                    "ci95": list(wilson(won, played)) if played else None,
                    "win_rate_when_not_played":
                        _round(not_won / unplayed) if unplayed else None,
                })
        return rows


def _by_count(counts: Counter[Any]) -> list[Any]:
    """The keys, most counted first, ties by name (never by the order counted)."""
    return sorted(counts, key=lambda k: (-counts[k], str(k)))


def _ranked(counts: Counter[str], label: str) -> list[dict[str, Any]]:
    return [{label: k, "games": counts[k]} for k in _by_count(counts)]


def report_of(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The report of some records (tallied one at a time)."""
    return Tally().update(records).report()


# --- reports side by side --------------------------------------------------------


def compare(reports: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """Reports side by side, and how each later one differs from the first: for each
    deck's win rate, the first player's, each card's play rate and win rate when
    played (where both reports have the deck and card), the difference with its 95%
    interval; `differs` when that interval leaves out 0.

    Args:
        reports: two or more reports (`Tally.report`).
        names: what to call each (its file, say).

    Returns:
        `{"runs": names, "reports": reports, "differences": [...]}`, one entry of
        differences per report after the first.
    """
    base = reports[0]
    differences = []
    for name, other in zip(names[1:], reports[1:], strict=True):
        rows = []
        theirs = {d["deck"]: d for d in other["decks"]}
        for d in base["decks"]:
            if d["deck"] in theirs:
                rows.append(_differ("win rate", d["deck"], d, theirs[d["deck"]]))
        rows.append(_differ("first player wins", "", base["first_player"],
                            other["first_player"]))
        their_cards = {(c["deck"], c["card"]): c for c in other["cards"]}
        for c in base["cards"]:
            o = their_cards.get((c["deck"], c["card"]))
            if o is None:
                continue
            rows.append(_differ("play rate", f"{c['deck']}: {c['card']}",
                                {"wins": c["played"], "games": c["games"]},
                                {"wins": o["played"], "games": o["games"]}))
            rows.append(_differ("win rate when played", f"{c['deck']}: {c['card']}",
                                {"wins": c["won_when_played"], "games": c["played"]},
                                {"wins": o["won_when_played"], "games": o["played"]}))
        turns = other["turns"]["mean"] - base["turns"]["mean"]
        differences.append({"run": name, "against": names[0],
                            "mean_turns": _round(turns), "rates": rows})
    return {"format": REPORT_FORMAT, "runs": names, "reports": reports,
            "differences": differences}


def _differ(measure: str, subject: str, a: dict[str, Any], b: dict[str, Any]
            ) -> dict[str, Any]:
    d, low, high = difference_interval((a["wins"], a["games"]), (b["wins"], b["games"]))
    return {"measure": measure, "subject": subject,
            "first": _round(a["wins"] / a["games"]) if a["games"] else None,
            "other": _round(b["wins"] / b["games"]) if b["games"] else None,
            "difference": d, "ci95": [low, high],
            "differs": bool(a["games"] and b["games"] and (low > 0 or high < 0))}


# --- as tables ------------------------------------------------------------------------


Section = tuple[str, list[list[str]]]  # a heading, and rows of cells (the first a header)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _interval(ci: list[float] | None) -> str:
    return "-" if ci is None else f"{ci[0]:.1%} to {ci[1]:.1%}"


def _per(x: float) -> str:
    return f"{x:.2f}"


def report_tables(r: dict[str, Any]) -> list[Section]:
    """A report as tables of text, in the order a reader takes them: what the text
    output and the HTML page show."""
    n = r["games"]
    rate_head = ["Games", "Wins", "Win rate", "95% interval"]

    def rate_row(first: list[str], x: dict[str, Any]) -> list[str]:
        return [*first, str(x["games"]), str(x["wins"]), _pct(x["win_rate"]),
                _interval(x["ci95"])]

    sections: list[Section] = [
        ("Win rate per deck", [["Deck", *rate_head]]
         + [rate_row([d["deck"]], d) for d in r["decks"]]),
        ("Win rate per seat", [["Seat", *rate_head]]
         + [rate_row([str(s["seat"])], s) for s in r["seats"]]),
    ]
    if len(r["agents"]) > 1:
        sections.append(("Win rate per agent", [["Agent", *rate_head]]
                         + [rate_row([a["agent"]], a) for a in r["agents"]]))
    sections.append(("First player and ties", [
        ["", *rate_head], rate_row(["player who went first"], r["first_player"]),
        ["ties", str(n), str(r["ties"]["games"]), _pct(r["ties"]["rate"]), ""]]))
    swapped = "seats swapped" if r["seat_swapped"] else "seats not swapped"
    sections.append((f"Each deck from each seat ({swapped})",
                     [["Pairing", "Deck", "Seat", *rate_head]]
                     + [rate_row([" vs ".join(p["decks"]), s["deck"], str(s["seat"])], s)
                        for p in r["pairings"] for s in p["by_seat"]]))
    t = r["turns"]
    sections.append(("Game length (turns)", [
        ["Mean", "Median", "10% of games within", "90% of games within", "Shortest",
         "Longest"],
        [f"{t['mean']:.1f}", str(t["median"]), str(t["p10"]), str(t["p90"]),
         str(t["min"]), str(t["max"])]]))
    for heading, key, label in (("What ended the games", "ended_by", "Condition"),
                                ("What decided them", "criteria", "Criterion")):
        sections.append((heading, [[label, "Games", "Share"]]
                         + [[e[label.lower()], str(e["games"]),
                             _pct(e["games"] / n if n else 0)] for e in r[key]]))
    sections.append(("Chains resolved, by length", [["Length", "Chains", "Per game"]]
                     + [[str(c["length"]), str(c["chains"]),
                         _per(c["chains"] / n if n else 0)]
                        for c in r["chain_lengths"]]))
    decks = [d["deck"] for d in r["decks"]]
    games = {d["deck"]: d["games"] for d in r["decks"]}
    sections.append(("Keyword calls per game (by deck: calls its seat's effects made "
                     "per game it played)",
                     [["Keyword", "Per game", "Games using", *decks]]
                     + [[k["keyword"], _per(k["per_game"]), str(k["games"]),
                         *(_per(k["by_deck"].get(d, 0) / max(1, games[d]))
                           for d in decks)]
                        for k in r["keywords"]]))
    sections.append(("Counters per game (popped in all; by deck: placed / popped)",
                     [["Counter", "Popped per game", "Games popping", *decks]]
                     + [[c["counter"], _per(c["per_game"]), str(c["games"]),
                         *(f"{_per(c['by_deck'][d]['placed'] / max(1, games[d]))} / "
                           f"{_per(c['by_deck'][d]['popped'] / max(1, games[d]))}"
                           for d in decks)]
                        for c in r["counters"]]))
    sections.append(("Cards (played: put into play or on the chain by its deck's own "
                     "action)",
                     [["Deck", "Card", "Played in", "Plays per game", "Won when played",
                       "95% interval", "Won when not played", "Activations per game"]]
                     + [[c["deck"], c["card"], _pct(c["play_rate"]),
                         _per(c["plays_per_game"]), _pct(c["win_rate_when_played"]),
                         _interval(c["ci95"]), _pct(c["win_rate_when_not_played"]),
                         _per(c["activations_per_game"])]
                        for c in r["cards"]]))
    return sections


def comparison_tables(c: dict[str, Any]) -> list[Section]:
    """Reports compared (`compare`), as tables of text: the runs, the measures side
    by side, and each later run's differences from the first."""
    names, reports = c["runs"], c["reports"]
    sections: list[Section] = [("Runs", [["Run", "Games", "Editions", "Decks",
                                          "Seats swapped"]]
                                + [[name, str(r["games"]), ", ".join(r["editions"]),
                                    ", ".join(d["deck"] for d in r["decks"]),
                                    "yes" if r["seat_swapped"] else "no"]
                                   for name, r in zip(names, reports, strict=True)])]
    decks = sorted({d["deck"] for r in reports for d in r["decks"]})
    rows = [["Measure", *names]]
    for deck in decks:
        cells = []
        for r in reports:
            d = next((x for x in r["decks"] if x["deck"] == deck), None)
            cells.append("-" if d is None else
                         f"{_pct(d['win_rate'])} ({_interval(d['ci95'])})")
        rows.append([f"{deck} wins", *cells])
    rows.append(["first player wins", *(f"{_pct(r['first_player']['win_rate'])} "
                                        f"({_interval(r['first_player']['ci95'])})"
                                        for r in reports)])
    rows.append(["ties", *(_pct(r["ties"]["rate"]) for r in reports)])
    rows.append(["turns: mean", *(f"{r['turns']['mean']:.1f}" for r in reports)])
    rows.append(["turns: median", *(str(r["turns"]["median"]) for r in reports)])
    keywords = sorted({k["keyword"] for r in reports for k in r["keywords"]})
    for k in keywords:
        rows.append([f"{k} per game", *(
            _per(next((x["per_game"] for x in r["keywords"] if x["keyword"] == k), 0.0))
            for r in reports)])
    sections.append(("Side by side", rows))
    for diff in c["differences"]:
        head = ["Measure", "Of", diff["against"], diff["run"], "Difference",
                "95% interval", ""]
        body = [[x["measure"], x["subject"], _pct(x["first"]), _pct(x["other"]),
                 f"{x['difference']:+.1%}", _interval(x["ci95"]),
                 "differs" if x["differs"] else ""]
                for x in diff["rates"]]
        sections.append((f"{diff['run']} against {diff['against']} (mean turns "
                         f"{diff['mean_turns']:+.1f})", [head, *body]))
    return sections
