"""A report drawn: PNG charts (matplotlib) and a self-contained HTML page (the
tables of the report and its charts inline, no file or network beside it).

Charts of one report (`report_charts`): win rates per deck, seat and first player;
each deck from each seat (the seat-swapped view); game length; keyword calls and
counters popped by deck; and per deck, each card's play rate and win rate when
played. Charts of reports compared (`comparison_charts`): the same measures, a
colour per run.

matplotlib is imported as a chart is first drawn (it takes a good part of a second
to import, which no other command should pay), and used through its object API
(`Figure`), with no global state: no window, no backend chosen for the process.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable
from typing import Any

Chart = tuple[str, str, bytes]  # file name, title, PNG bytes

_BLUE, _ORANGE, _GREY = "#3b6ea5", "#d9822b", "#8a8a8a"
_RUNS = ["#3b6ea5", "#d9822b", "#4f9a5b", "#a44a7a", "#7d6aa8", "#8a8a8a"]


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure  # on first use: see the module's docstring

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    # no timestamp or software tag: the same report draws the same bytes
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def _percent_axis(ax: Any, axis: str = "x") -> None:
    from matplotlib.ticker import PercentFormatter

    (ax.xaxis if axis == "x" else ax.yaxis).set_major_formatter(PercentFormatter(1.0))


def _errors(rows: list[dict[str, Any]]) -> list[list[float]]:
    """Error bar lengths below and above each rate, from its 95% interval."""
    return [[r["win_rate"] - r["ci95"][0] for r in rows],
            [r["ci95"][1] - r["win_rate"] for r in rows]]


def _rate_bars(ax: Any, labels: list[str], rows: list[dict[str, Any]], title: str,
               colour: str = _BLUE) -> None:
    y = list(range(len(rows)))
    ax.barh(y, [r["win_rate"] for r in rows], xerr=_errors(rows), color=colour,
            ecolor="black", capsize=4, height=0.6)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.axvline(0.5, color=_GREY, linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    _percent_axis(ax)
    ax.set_title(title, loc="left", fontsize=11)
    for i, r in enumerate(rows):
        ax.annotate(f"{r['win_rate']:.1%}  (n={r['games']})", (r["ci95"][1], i),
                    xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)


def win_rate_chart(r: dict[str, Any]) -> bytes:
    """Win rate per deck, per seat and of the first player, with 95% intervals."""
    first = r["first_player"]
    panels = [("Win rate per deck", [d["deck"] for d in r["decks"]], r["decks"]),
              ("Win rate per seat", [f"seat {s['seat']}" for s in r["seats"]],
               r["seats"]),
              ("Player who went first", ["first player"], [first])]
    heights = [max(1, len(rows)) for _, _, rows in panels]
    fig = _figure(7.5, 1.2 + 0.45 * sum(heights) + 1.2)
    axes = fig.subplots(len(panels), 1, gridspec_kw={"height_ratios": heights})
    for ax, (title, labels, rows) in zip(axes, panels, strict=True):
        _rate_bars(ax, labels, rows, title)
    axes[-1].set_xlabel("games won (bars: 95% interval; dashed: 50%)")
    fig.suptitle(_title(r, "Who wins"), fontsize=12)
    return _png(fig)


def pairing_chart(r: dict[str, Any]) -> bytes:
    """Each deck's win rate from each seat, pairing by pairing: with seats swapped,
    a deck strong from every seat is strong; one strong from one seat only is the
    seat's doing."""
    rows = [(p, s) for p in r["pairings"] for s in p["by_seat"]]
    fig = _figure(7.5, 1.4 + 0.42 * max(1, len(rows)))
    ax = fig.subplots()
    labels = [f"{s['deck']} from seat {s['seat']}"
              + (f"  ({' vs '.join(p['decks'])})" if len(r["pairings"]) > 1 else "")
              for p, s in rows]
    colours = [_RUNS[s["seat"] % len(_RUNS)] for _, s in rows]
    y = list(range(len(rows)))
    seat_rows = [s for _, s in rows]
    ax.barh(y, [s["win_rate"] for s in seat_rows], xerr=_errors(seat_rows),
            color=colours, ecolor="black", capsize=4, height=0.6)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.axvline(0.5, color=_GREY, linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    _percent_axis(ax)
    for i, s in enumerate(seat_rows):
        ax.annotate(f"{s['win_rate']:.1%}  (n={s['games']})", (s["ci95"][1], i),
                    xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_xlabel("games won from that seat (bars: 95% interval)")
    swapped = "seats swapped" if r["seat_swapped"] else "seats not swapped"
    fig.suptitle(_title(r, f"Each deck from each seat ({swapped})"), fontsize=12)
    return _png(fig)


def game_length_chart(r: dict[str, Any]) -> bytes:
    """How many turns games last, and what ended them."""
    t = r["turns"]
    fig = _figure(7.5, 4.2)
    ax, ends = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 1.3]})
    turns = [h["turns"] for h in t["histogram"]]
    ax.bar(turns, [h["games"] for h in t["histogram"]], width=1.0, color=_BLUE)
    for value, label, style in ((t["median"], "median", "-"), (t["p10"], "10%", ":"),
                                (t["p90"], "90%", ":")):
        ax.axvline(value, color=_ORANGE, linestyle=style, linewidth=1.2)
        ax.annotate(f"{label} {value}", (value, 1), xycoords=("data", "axes fraction"),
                    xytext=(3, -12), textcoords="offset points", fontsize=8,
                    color=_ORANGE)
    ax.set_xlabel(f"turns (mean {t['mean']:.1f}, from {t['min']} to {t['max']})")
    ax.set_ylabel("games")
    ax.set_title("Game length", loc="left", fontsize=11)
    rows = r["ended_by"]
    y = list(range(len(rows)))
    ends.barh(y, [e["games"] for e in rows], color=_GREY)
    for i, e in enumerate(rows):
        ends.annotate(f"{e['games']:,}", (0, i), xytext=(3, 0),
                      textcoords="offset points", va="center", fontsize=8)
    ends.set_yticks(y, [e["condition"].replace("_", " ") for e in rows], fontsize=8)
    ends.invert_yaxis()
    ends.set_xlabel("games")
    ends.set_title("Ended by", loc="left", fontsize=11)
    fig.suptitle(_title(r, "How long games last"), fontsize=12)
    return _png(fig)


def keyword_chart(r: dict[str, Any]) -> bytes:
    """Keyword calls per game, by the deck credited with them."""
    games = {d["deck"]: d["games"] for d in r["decks"]}
    keywords = r["keywords"]
    return _use_chart(r, [k["keyword"].replace("_", " ") for k in keywords],
                      lambda i, d: keywords[i]["by_deck"].get(d, 0) / max(1, games[d]),
                      "Keyword calls per game, by deck",
                      "calls per game the deck played (credited to the seat whose "
                      "effect called it)")


def counter_chart(r: dict[str, Any]) -> bytes:
    """Counters placed and popped per game, by deck."""
    games = {d["deck"]: d["games"] for d in r["decks"]}
    counters = r["counters"]
    return _use_chart(r, [c["counter"] for c in counters],
                      lambda i, d: counters[i]["by_deck"].get(d, {}).get("popped", 0)
                      / max(1, games[d]),
                      "Counters popped per game, by deck",
                      "popped per game the deck played (by the seat that popped it)")


def _use_chart(r: dict[str, Any], labels: list[str], value: Callable[[int, str], float],
               title: str, xlabel: str) -> bytes:
    decks = [d["deck"] for d in r["decks"]]
    fig = _figure(7.5, 1.3 + 0.16 * max(1, len(labels)) * max(1, len(decks)))
    ax = fig.subplots()
    _grouped(ax, labels, decks, value)
    ax.set_xlabel(xlabel)
    fig.suptitle(_title(r, title), fontsize=12)
    return _png(fig)


def _grouped(ax: Any, labels: list[str], groups: list[str],
             value: Callable[[int, str], float]) -> None:
    """Horizontal bars, a group of one bar per `groups` member for each label."""
    n = max(1, len(groups))
    height = 0.8 / n
    for g, group in enumerate(groups):
        y = [i + (g - (n - 1) / 2) * height for i in range(len(labels))]
        ax.barh(y, [value(i, group) for i in range(len(labels))], height=height,
                color=_RUNS[g % len(_RUNS)], label=group)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.invert_yaxis()
    if len(groups) > 1 and labels:
        ax.legend(fontsize=8, loc="lower right")
    if not labels:
        ax.text(0.5, 0.5, "none", ha="center", va="center", transform=ax.transAxes,
                color=_GREY)


def card_chart(r: dict[str, Any], deck: str) -> bytes:
    """One deck's cards: how often each was played, and how often the deck won when
    it was played (with its 95% interval) and when it was not."""
    cards = sorted((c for c in r["cards"] if c["deck"] == deck),
                   key=lambda c: (-c["play_rate"], c["card"]))
    fig = _figure(9, 1.5 + 0.32 * max(1, len(cards)))
    left, right = fig.subplots(1, 2, sharey=True)
    y = list(range(len(cards)))
    left.barh(y, [c["play_rate"] for c in cards], color=_BLUE, height=0.6)
    left.set_yticks(y, [c["card"] for c in cards], fontsize=8)
    left.invert_yaxis()
    left.set_xlim(0, 1)
    _percent_axis(left)
    left.set_title("Played in (share of the deck's games)", loc="left", fontsize=10)
    played = [(i, c) for i, c in enumerate(cards) if c["played"]]
    right.errorbar([c["win_rate_when_played"] for _, c in played], [i for i, _ in played],
                   xerr=[[c["win_rate_when_played"] - c["ci95"][0] for _, c in played],
                         [c["ci95"][1] - c["win_rate_when_played"] for _, c in played]],
                   fmt="o", color=_BLUE, ecolor=_BLUE, capsize=3, label="when played")
    unplayed = [(i, c) for i, c in enumerate(cards)
                if c["win_rate_when_not_played"] is not None]
    right.plot([c["win_rate_when_not_played"] for _, c in unplayed],
               [i for i, _ in unplayed], "x", color=_ORANGE, label="when not played")
    deck_rate = next(d["win_rate"] for d in r["decks"] if d["deck"] == deck)
    right.axvline(deck_rate, color=_GREY, linestyle="--", linewidth=1)
    right.set_xlim(0, 1)
    _percent_axis(right)
    right.set_title(f"Deck wins (dashed: {deck_rate:.1%} overall)", loc="left",
                    fontsize=10)
    right.legend(fontsize=8, loc="lower right")
    fig.suptitle(_title(r, f"The cards of {deck}"), fontsize=12)
    return _png(fig)


def _title(r: dict[str, Any], what: str) -> str:
    editions = ", ".join(r["editions"]) or "no games"
    return f"{what} — {editions}, {r['games']:,} games"


def report_charts(r: dict[str, Any]) -> list[Chart]:
    """Every chart of a report, in the order a reader takes them.

    Returns:
        (file name, title, PNG bytes) per chart.
    """
    charts = [("win_rates.png", "Who wins", win_rate_chart(r)),
              ("seats.png", "Each deck from each seat", pairing_chart(r)),
              ("game_length.png", "How long games last", game_length_chart(r)),
              ("keywords.png", "Keyword calls", keyword_chart(r)),
              ("counters.png", "Counters", counter_chart(r))]
    for d in r["decks"]:
        charts.append((f"cards_{_file_part(d['deck'])}.png", f"The cards of {d['deck']}",
                       card_chart(r, d["deck"])))
    return charts


def _file_part(name: str) -> str:
    """A deck's name as part of a file name: letters, digits, `-` and `_` only."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name) or "deck"


# --- reports compared ------------------------------------------------------------


def comparison_charts(c: dict[str, Any]) -> list[Chart]:
    """The charts of reports compared (`report.compare`): win rates per deck, the
    first player's, and game lengths, a colour per run; per deck both have, each
    card's play rate.

    Returns:
        (file name, title, PNG bytes) per chart.
    """
    names, reports = c["runs"], c["reports"]
    charts = [("compare_win_rates.png", "Win rates compared",
               _compare_rates(names, reports)),
              ("compare_game_length.png", "Game length compared",
               _compare_lengths(names, reports))]
    shared = sorted(set.intersection(*({d["deck"] for d in r["decks"]} for r in reports)))
    for deck in shared:
        charts.append((f"compare_cards_{_file_part(deck)}.png",
                       f"The cards of {deck} compared",
                       _compare_cards(names, reports, deck)))
    return charts


def _compare_rates(names: list[str], reports: list[dict[str, Any]]) -> bytes:
    decks = sorted({d["deck"] for r in reports for d in r["decks"]})
    labels = [*decks, "first player"]
    fig = _figure(7.5, 1.6 + 0.45 * len(labels) * max(1, len(names)) / 1.5)
    ax = fig.subplots()
    n = len(names)
    height = 0.8 / n
    for g, (name, r) in enumerate(zip(names, reports, strict=True)):
        by_deck = {d["deck"]: d for d in r["decks"]}
        rows = [by_deck.get(d) for d in decks] + [r["first_player"]]
        ys = [i + (g - (n - 1) / 2) * height for i in range(len(labels))]
        present = [(y, row) for y, row in zip(ys, rows, strict=True) if row]
        ax.barh([y for y, _ in present], [row["win_rate"] for _, row in present],
                xerr=_errors([row for _, row in present]), height=height,
                color=_RUNS[g % len(_RUNS)], ecolor="black", capsize=3, label=name)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.axvline(0.5, color=_GREY, linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    _percent_axis(ax)
    ax.set_xlabel("games won (bars: 95% interval)")
    ax.legend(fontsize=8, loc="lower right")
    fig.suptitle("Win rates compared", fontsize=12)
    return _png(fig)


def _compare_lengths(names: list[str], reports: list[dict[str, Any]]) -> bytes:
    fig = _figure(7.5, 4)
    ax = fig.subplots()
    for g, (name, r) in enumerate(zip(names, reports, strict=True)):
        hist = r["turns"]["histogram"]
        total = max(1, r["games"])
        ax.step([h["turns"] for h in hist], [h["games"] / total for h in hist],
                where="mid", color=_RUNS[g % len(_RUNS)],
                label=f"{name} (median {r['turns']['median']})")
    _percent_axis(ax, "y")
    ax.set_xlabel("turns")
    ax.set_ylabel("share of the run's games")
    ax.legend(fontsize=8)
    fig.suptitle("Game length compared", fontsize=12)
    return _png(fig)


def _compare_cards(names: list[str], reports: list[dict[str, Any]], deck: str) -> bytes:
    cards = sorted({c["card"] for r in reports for c in r["cards"] if c["deck"] == deck})
    fig = _figure(7.5, 1.5 + 0.3 * max(1, len(cards)) * max(1, len(names)) / 1.5)
    ax = fig.subplots()
    rows = [{c["card"]: c for c in r["cards"] if c["deck"] == deck} for r in reports]
    _grouped(ax, cards, names,
             lambda i, name: rows[names.index(name)].get(cards[i], {}).get("play_rate",
                                                                           0.0))
    ax.set_xlim(0, 1)
    _percent_axis(ax)
    ax.set_xlabel("played in (share of the deck's games)")
    fig.suptitle(f"The cards of {deck}: play rate compared", fontsize=12)
    return _png(fig)


# --- the page --------------------------------------------------------------------------


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em;
       color: #222; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
img { max-width: 100%; display: block; margin: 1em 0; }
.note { color: #666; font-size: 0.9em; }
"""


def html_page(title: str, sections: list[tuple[str, list[list[str]]]],
              charts: list[Chart], note: str = "") -> str:
    """A self-contained HTML page: a table per section (its first row the header)
    and every chart inline (PNG as a data URI).

    Args:
        title: the page's heading.
        sections: (heading, rows of cells) per table.
        charts: as `report_charts` gives them.
        note: a line under the heading.

    Returns:
        The page's text.
    """
    esc = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>",
             f"<h1>{esc(title)}</h1>"]
    if note:
        parts.append(f'<p class="note">{esc(note)}</p>')
    for heading, rows in sections:
        parts.append(f"<h2>{esc(heading)}</h2><table>")
        for i, row in enumerate(rows):
            cell = "th" if i == 0 else "td"
            parts.append("<tr>" + "".join(f"<{cell}>{esc(c)}</{cell}>" for c in row)
                         + "</tr>")
        parts.append("</table>")
    if charts:
        parts.append("<h2>Charts</h2>")
    for _name, chart_title, png in charts:
        data = base64.b64encode(png).decode("ascii")
        parts.append(f'<img alt="{esc(chart_title)}" src="data:image/png;base64,{data}">')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
