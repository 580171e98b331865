"""Simulation a designer can act on: each game's record, the report made from
records (intervals, seats swapped, cards, keywords), the same records and report
whatever plays the games (one process, a pool, Dask), a run that resumes after a
kill, Ctrl-C that stops a pool at once, and `kotc report` as a user sees it."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from kotc.cli import main as cli
from kotc.cli.common import Console
from kotc.engine.game import Game
from kotc.play import simulate as simulation
from kotc.play.agents import make_agents, play
from kotc.play.records import (
    RecordError,
    dump_record,
    read_records,
    record_problem,
)
from kotc.play.report import Tally, compare, report_of, wilson
from kotc.play.simulate import make_table, play_game

HAS_DASK = importlib.util.find_spec("distributed") is not None
needs_dask = pytest.mark.skipif(not HAS_DASK, reason="Dask is not installed "
                                "(pip install 'kotc[dask]')")


@pytest.fixture(scope="module")
def table():
    return make_table("17th", None, ["random"], 2, 300)


@pytest.fixture(scope="module")
def records(table):
    """Twenty seeds of the 17th starter decks, played from both seats."""
    return [play_game(table, seed, rotation) for seed in range(20) for rotation in (0, 1)]


def kotc_process(*argv: str, env: dict | None = None, **kwargs) -> subprocess.Popen:
    """`kotc` as a separate process (a run to kill, a hash seed of its own)."""
    return subprocess.Popen([sys.executable, "-m", "kotc.cli.main", *argv],
                            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


# --- one game's record -----------------------------------------------------------------


def test_a_record_says_who_played_what_and_how_the_game_went(records):
    r = records[0]
    assert (r["seed"], r["rotation"], r["edition"]) == (0, 0, "17th")
    assert [(s["deck"], s["agent"]) for s in r["seats"]] == [("raiders", "random"),
                                                            ("wardens", "random")]
    assert r["winner"] in (0, 1) and r["first"] in (0, 1)
    assert r["criterion"] and r["ended_by"] and r["turns"] > 0 and r["decisions"] > 0
    assert sum(r["chains"].values()) > 0 and r["keywords"] and r["counters"]
    assert record_problem(r) is None
    # every card of its deck is listed, played or not
    assert "Ember Sprite" in r["seats"][0]["played"]
    assert "Shield Maiden" in r["seats"][1]["played"]
    assert "Shield Maiden" not in r["seats"][0]["played"]


def test_rotation_moves_each_deck_one_seat_on(records):
    swapped = records[1]
    assert (swapped["seed"], swapped["rotation"]) == (0, 1)
    assert [s["deck"] for s in swapped["seats"]] == ["wardens", "raiders"]


def test_cards_played_are_the_summons_and_casts_of_their_own_seat(table):
    # told apart from the log's labels here, as a reader of the log would: the
    # 17th edition's actions that put a card into play or on the chain (a spell
    # hex-played from the hand or ghost-played from the grave too)
    for seed in range(6):
        record = play_game(table, seed, 0)
        game = replay(table, seed)
        for seat in (0, 1):
            labels = [e.data["action"] for e in game.events
                      if e.kind == "action" and e.data["player"] == seat]
            named = Counter(label.split(" ", 1)[1].rsplit("#", 1)[0]
                            for label in labels
                            if label.split(" ")[0] in ("summon", "cast",
                                                         "activate_spell"))
            played = record["seats"][seat]["played"]
            assert +Counter(played) == named


def replay(table, seed):
    """The game of a seed at rotation 0, played again (its event log at hand)."""
    game = Game.new(table.ruleset, list(table.decks), seed=seed, players=2)
    play(game, make_agents(["random"], seed, 2))
    return game


def test_counters_and_keywords_are_credited_to_seats(records):
    for r in records:
        for kind, popped in r["counters"].items():  # every counter popped is a seat's
            assert sum(s["counters_popped"].get(kind, 0) for s in r["seats"]) == popped
        for keyword, calls in r["keywords"].items():  # none credited twice
            assert sum(s["keywords"].get(keyword, 0) for s in r["seats"]) <= calls
    calls = sum(sum(r["keywords"].values()) for r in records)
    credited = sum(sum(s["keywords"].values()) for r in records for s in r["seats"])
    assert credited >= 0.98 * calls  # all but a few placed (see keyword_owners)


def test_a_game_gives_the_same_record_each_time(table, records):
    assert play_game(table, 3, 1) == records[7]
    assert dump_record(records[7]) == dump_record(json.loads(dump_record(records[7])))


@pytest.mark.parametrize(("broken", "problem"), [
    ([], "not a game record (a JSON object is expected)"),
    ({"format": 99}, "a record of format 99"),
    ({"format": 1, "seed": "x"}, "'table' is missing"),
])
def test_what_is_not_a_record_is_named(broken, problem):
    assert problem in record_problem(broken)


# --- the report ------------------------------------------------------------------


def test_wilson_intervals_are_the_known_ones():
    assert wilson(50, 100) == (0.4038, 0.5962)
    assert wilson(0, 10) == (0.0, 0.2775)
    assert wilson(10, 10) == (0.7225, 1.0)


def test_the_report_counts_decks_seats_and_pairings(records):
    r = report_of(records)
    assert r["games"] == 40 and r["seat_swapped"]
    assert [d["deck"] for d in r["decks"]] == ["raiders", "wardens"]
    assert all(d["games"] == 40 for d in r["decks"])  # each deck in every game
    assert sum(d["wins"] for d in r["decks"]) + r["ties"]["games"] == 40
    assert sum(s["wins"] for s in r["seats"]) == sum(d["wins"] for d in r["decks"])
    (pairing,) = r["pairings"]
    assert [(s["deck"], s["seat"], s["games"]) for s in pairing["by_seat"]] == [
        ("raiders", 0, 20), ("raiders", 1, 20), ("wardens", 0, 20), ("wardens", 1, 20)]
    for d in r["decks"]:
        low, high = d["ci95"]
        assert low <= d["win_rate"] <= high
    first = sum(1 for x in records if x["winner"] == x["first"])
    assert r["first_player"]["wins"] == first
    assert sum(h["games"] for h in r["turns"]["histogram"]) == 40


def test_card_rows_count_the_games_a_card_was_played_in(records):
    r = report_of(records)
    row = next(c for c in r["cards"] if (c["deck"], c["card"]) == ("raiders",
                                                                    "Ember Sprite"))
    seats = [(x, s) for x in records for seat, s in enumerate(x["seats"])
             if s["deck"] == "raiders"]
    played = [(x, s) for x, s in seats if s["played"]["Ember Sprite"]]
    assert row["played"] == len(played) and row["games"] == len(seats) == 40
    won = sum(1 for x, s in played if x["seats"][x["winner"]] is s)
    assert row["won_when_played"] == won
    assert {c["deck"] for c in r["cards"]} == {"raiders", "wardens"}
    wardens = {c["card"] for c in r["cards"] if c["deck"] == "wardens"}
    assert "Ember Sprite" not in wardens  # a raider the wardens took is no card of theirs


def test_the_report_does_not_depend_on_the_order_of_the_records(records):
    shuffled = list(records)
    random.Random(5).shuffle(shuffled)
    a, b = report_of(records), report_of(shuffled)
    assert json.dumps(a) == json.dumps(b)  # the same, key order and all


def test_ties_in_counts_are_ordered_by_name():
    r = Tally()
    r.add(_record())  # its keywords listed sow, draw, bury: not by name
    keywords = [k["keyword"] for k in r.report()["keywords"]]
    assert keywords == ["bury", "draw", "sow"]  # one call each: by name


def _record() -> dict:
    seat = {"deck": "a", "agent": "random", "played": {}, "activated": {},
            "counters_placed": {}, "counters_popped": {}, "keywords": {}}
    return {"format": 1, "table": "x", "edition": "e", "seed": 0, "rotation": 0,
            "seats": [dict(seat), dict(seat, deck="b")], "first": 0, "winner": 0,
            "tied": [], "criterion": "c", "ended_by": "e", "turns": 3, "decisions": 9,
            "chains": {}, "keywords": {"sow": 1, "draw": 1, "bury": 1}, "counters": {}}


def test_a_comparison_says_which_differences_are_more_than_noise():
    strong, weak = _record(), _record()
    weak["winner"] = 1
    c = compare([report_of([strong] * 200), report_of([weak] * 200)], ["a", "b"])
    (diff,) = c["differences"]
    rate = next(x for x in diff["rates"] if x["measure"] == "win rate"
                and x["subject"] == "a")
    assert rate["difference"] == -1.0 and rate["differs"]
    same = compare([report_of([strong] * 30), report_of([strong] * 31)], ["a", "b"])
    assert not any(x["differs"] for x in same["differences"][0]["rates"])


# --- whatever plays them: one process, a pool, Dask --------------------------------


def run_to_file(kotc, path: Path, *flags: str) -> dict:
    """A seat-swapped run of 100 seeds (unless `flags` say otherwise) recorded in
    `path`; its report, less what is the run's own (where, how long)."""
    code, out, err = kotc("simulate", "17th", "--games", "100", "--swap", "--seed",
                          "11", "--out", str(path), "--format", "json", *flags)
    assert code == 0, err
    report = json.loads(out)
    report.pop("run")
    return report


def sorted_records(path: Path) -> list[dict]:
    return sorted(read_records(path), key=lambda r: (r["seed"], r["rotation"]))


def test_the_same_200_games_give_the_same_records_and_report_anywhere(kotc, tmp_path):
    alone = run_to_file(kotc, tmp_path / "one.jsonl")
    pooled = run_to_file(kotc, tmp_path / "pool.jsonl", "--workers", "2")
    records = sorted_records(tmp_path / "one.jsonl")
    assert len(records) == 200 and alone["games"] == 200
    assert sorted_records(tmp_path / "pool.jsonl") == records
    assert pooled == alone
    if not HAS_DASK:
        pytest.skip("Dask is not installed (pip install 'kotc[dask]'): one process "
                    "and the pool compared only")
    dask = run_to_file(kotc, tmp_path / "dask.jsonl", "--dask", "local", "--workers",
                       "2")
    assert sorted_records(tmp_path / "dask.jsonl") == records
    assert dask == alone
    # and `kotc report` of the file says what the run said
    code, out, _ = kotc("report", str(tmp_path / "dask.jsonl"), "--format", "json")
    assert code == 0 and json.loads(out) == alone


def test_neither_the_hash_seed_nor_the_workers_change_the_report(tmp_path):
    outputs = []
    for seed, workers in (("1", "1"), ("2", "2")):
        run = kotc_process("simulate", "17th", "--games", "12", "--format", "json",
                           "--workers", workers, env={"PYTHONHASHSEED": seed,
                                                      "KOTC_CACHE_DIR": "off"})
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        report = json.loads(out)  # its key order kept as printed
        report.pop("run")
        outputs.append(json.dumps(report))
    assert outputs[0] == outputs[1]
    run = kotc_process("simulate", "17th", "--games", "12", "--workers", "2",
                       env={"PYTHONHASHSEED": "3", "KOTC_CACHE_DIR": "off"})
    text_2, _ = run.communicate(timeout=300)
    run = kotc_process("simulate", "17th", "--games", "12",
                       env={"PYTHONHASHSEED": "4", "KOTC_CACHE_DIR": "off"})
    text_1, _ = run.communicate(timeout=300)
    # the text too, tied counts and all, but for the first line (time and workers)
    assert text_1.split("\n", 1)[1] == text_2.split("\n", 1)[1]


def test_a_running_cluster_plays_by_its_scheduler_address(kotc, tmp_path):
    distributed = pytest.importorskip("distributed", reason="Dask is not installed "
                                      "(pip install 'kotc[dask]')")

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        there = run_to_file(kotc, tmp_path / "there.jsonl", "--games", "5",
                            "--scheduler", cluster.scheduler_address)
    here = run_to_file(kotc, tmp_path / "here.jsonl", "--games", "5")
    assert sorted_records(tmp_path / "there.jsonl") == sorted_records(
        tmp_path / "here.jsonl")
    assert there == here and there["games"] == 10


@needs_dask
def test_an_unreachable_scheduler_is_said(kotc, monkeypatch):
    monkeypatch.setattr(simulation, "DASK_TIMEOUT", "1s")
    code, out, err = kotc("simulate", "17th", "--games", "2", "--scheduler",
                          "tcp://127.0.0.1:9")
    assert code == 2 and out == ""
    assert "kotc simulate: cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err


def test_without_dask_a_dask_run_says_what_to_install(kotc, monkeypatch):
    real = importlib.import_module

    def missing(name, *args):
        if name == "distributed":
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(simulation.importlib, "import_module", missing)
    code, out, err = kotc("simulate", "17th", "--games", "2", "--dask", "local")
    assert code == 2 and out == ""
    assert "Dask is not installed; install it with pip install 'kotc[dask]'" in err


# --- nothing lost, nothing twice --------------------------------------------------------


def test_a_run_killed_partway_and_resumed_records_every_seed_once(tmp_path, kotc):
    out = tmp_path / "games.jsonl"
    run = kotc_process("simulate", "17th", "--games", "300", "--out", str(out),
                       "--workers", "2", env={"KOTC_CACHE_DIR": "off"})
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and run.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 40:
            break
        time.sleep(0.05)
    running = run.poll() is None
    run.kill()
    run.communicate()
    assert running, "the run ended before it could be killed"
    with out.open("ab") as f:  # killed mid-line, as it might have been
        f.write(b'{"format": 1, "seed": 2')
    before = out.read_bytes().count(b"\n")
    assert 40 <= before < 300
    code, _, err = kotc("simulate", "17th", "--games", "300", "--out", str(out),
                        "--resume", "--format", "json")
    assert code == 0, err
    seeds = Counter(r["seed"] for r in read_records(out))
    assert seeds == Counter(range(300))  # each seed once, the torn line gone
    resumed = sorted_records(out)
    again = tmp_path / "again.jsonl"
    code, _, err = kotc("simulate", "17th", "--games", "300", "--out", str(again),
                        "--seed", "0", "--format", "json")
    assert code == 0, err
    assert sorted_records(again) == resumed  # the same games as a run never killed


def test_resuming_a_finished_run_plays_nothing_and_reports_it_all(kotc, tmp_path):
    out = tmp_path / "g.jsonl"
    first = run_to_file(kotc, out)
    code, text, err = kotc("simulate", "17th", "--games", "100", "--swap", "--seed",
                           "11", "--out", str(out), "--resume", "--format", "json")
    assert code == 0, err
    report = json.loads(text)
    assert report.pop("run")["played"] == 0
    assert report == first
    assert len(out.read_bytes().splitlines()) == 200


def test_records_of_another_run_are_not_resumed(kotc, tmp_path):
    out = tmp_path / "g.jsonl"
    code, _, err = kotc("simulate", "17th", "--games", "2", "--out", str(out))
    assert code == 0, err
    kept = out.read_bytes()
    code, text, err = kotc("simulate", "17th", "--games", "4", "--out", str(out),
                           "--resume", "--max-turns", "50")
    assert code == 2 and text == ""
    assert f"{out}:1: a game of another run" in err
    code, text, err = kotc("simulate", "17th", "--games", "4", "--out", str(out))
    assert code == 2 and "exists: add --resume" in err
    assert out.read_bytes() == kept


@pytest.mark.parametrize(("flags", "message"), [
    (("--resume",), "--resume needs --out"),
    (("--vanilla", "--decks", "x.kdeck"), "--vanilla cannot be given with --decks"),
    (("--dask", "local", "--scheduler", "tcp://h:8786"),
     "--dask cannot be given with --scheduler"),
    (("--out", "nowhere/g.jsonl"), "--out: no such directory: nowhere"),
    (("--html", "nowhere/r.html"), "--html: no such directory: nowhere"),
])
def test_flags_that_cannot_be_followed_are_refused_before_playing(kotc, tmp_path,
                                                                 monkeypatch, flags,
                                                                 message):
    monkeypatch.chdir(tmp_path)
    code, out, err = kotc("simulate", "17th", "--games", "2", *flags)
    assert code == 2 and out == "" and message in err
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_stops_a_pool_at_once(tmp_path):
    out = tmp_path / "games.jsonl"
    run = kotc_process("simulate", "17th", "--games", "5000", "--workers", "2",
                       "--out", str(out), env={"KOTC_CACHE_DIR": "off"})
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and run.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 20:
            break
        time.sleep(0.05)
    if run.poll() is not None:
        run.communicate()
        pytest.fail("the run ended before it could be interrupted")
    run.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    try:
        _, err = run.communicate(timeout=60)
    finally:
        run.kill()  # a run that would not stop is not left behind
    assert time.monotonic() - stopped < 5  # not the thousands of games queued
    assert run.returncode == 130
    assert "kotc simulate: interrupted after" in err and "--resume goes on" in err
    assert "Traceback" not in err
    records = list(read_records(out))  # whole lines only
    assert 20 <= len(records) < 5000


def test_vanilla_decks_are_the_generated_ones(kotc):
    code, out, err = kotc("simulate", "17th", "--games", "4", "--vanilla", "--format",
                          "json")
    assert code == 0, err
    report = json.loads(out)
    assert [d["deck"] for d in report["decks"]] == ["vanilla"]
    assert {c["card"] for c in report["cards"]} <= {f"Vanilla {n}" for n in range(1, 5)}


# --- kotc report -----------------------------------------------------------------


@pytest.fixture(scope="module")
def recorded(tmp_path_factory, records):
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    path.write_text("".join(dump_record(r) for r in records), encoding="utf-8")
    return path


def test_report_tells_a_designer_what_the_games_say(kotc, recorded):
    code, out, err = kotc("report", str(recorded))
    assert code == 0, err
    for heading in ("Win rate per deck", "Win rate per seat", "First player and ties",
                    "Each deck from each seat (seats swapped)", "Game length (turns)",
                    "What ended the games", "Keyword calls per game", "Counters per game",
                    "Cards (played"):
        assert heading in out
    assert "raiders" in out and "Ember Sprite" in out and "95% interval" in out


def test_report_writes_charts_and_a_page_that_needs_nothing_beside_it(kotc, recorded,
                                                                      tmp_path):
    charts, page = tmp_path / "charts", tmp_path / "report.html"
    code, _, err = kotc("report", str(recorded), "--charts", str(charts), "--html",
                        str(page))
    assert code == 0, err
    names = sorted(p.name for p in charts.iterdir())
    assert names == ["cards_raiders.png", "cards_wardens.png", "counters.png",
                     "game_length.png", "keywords.png", "seats.png", "win_rates.png"]
    for png in charts.iterdir():
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    text = page.read_text(encoding="utf-8")
    assert text.count("data:image/png;base64,") == len(names)
    assert "http" not in text.replace('lang="en"', "")  # nothing fetched
    assert "<h2>Win rate per deck</h2>" in text


def test_report_compares_two_runs_side_by_side(kotc, recorded, tmp_path):
    other = tmp_path / "other.jsonl"
    lines = recorded.read_text(encoding="utf-8").splitlines(keepends=True)
    other.write_text("".join(lines[:20]), encoding="utf-8")
    code, out, err = kotc("report", str(recorded), str(other), "--charts",
                          str(tmp_path / "c"))
    assert code == 0, err
    assert "Side by side" in out and f"{other} against {recorded}" in out
    assert (tmp_path / "c" / "compare_win_rates.png").exists()
    code, out, _ = kotc("report", str(recorded), str(other), "--format", "json")
    data = json.loads(out)
    assert data["runs"] == [str(recorded), str(other)]
    assert [r["games"] for r in data["reports"]] == [40, 20]


@pytest.mark.parametrize(("content", "message"), [
    ("not json\n", ":1: not a line of JSON"),
    ('{"format": 1}\n', ":1: not a game record: 'table' is missing"),
    ("", "no game records in it"),
])
def test_report_refuses_what_is_not_records(kotc, tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    code, out, err = kotc("report", str(path), "--html", str(tmp_path / "r.html"))
    assert code == 2 and out == "" and message in err
    assert "Traceback" not in err
    assert not (tmp_path / "r.html").exists()


def test_report_of_a_missing_file_is_refused(kotc, tmp_path):
    code, _, err = kotc("report", str(tmp_path / "none.jsonl"))
    assert code == 2 and "none.jsonl: no such file" in err


def test_a_torn_last_line_is_refused_by_report_but_passed_over_by_resume(tmp_path,
                                                                         records):
    path = tmp_path / "g.jsonl"
    path.write_text(dump_record(records[0]) + '{"seed": 1', encoding="utf-8")
    with pytest.raises(RecordError, match=":2: not a line of JSON"):
        list(read_records(path))
    assert len(list(read_records(path, torn_tail=True))) == 1


def test_progress_shows_rate_and_time_left_on_a_terminal_only():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, shown in ((Terminal(), True), (io.StringIO(), False)):
        con = Console(out=io.StringIO(), err=stream)
        args = cli.build_parser().parse_args(["simulate", "17th", "--games", "3"])
        assert args.run(args, con) == 0
        bar = stream.getvalue()
        assert ("3/3" in bar and "game/s" in bar and "<00:00" in bar) is shown
        assert (bar == "") is not shown
