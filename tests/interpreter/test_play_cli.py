"""`kotc play` and `kotc simulate` as a user sees them: a told game with its
citations, the JSON event log, a summary of many games that does not depend on how
many processes played them, and bad input refused with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kotc.cli import play as cli_play
from kotc.cli.common import Console
from kotc.dsl import load_edition
from kotc.dsl.shipped import starter_deck_files
from kotc.engine import decks as decks_module
from kotc.engine.decks import default_decks, vanilla_deck
from kotc.engine.game import Game
from kotc.play import simulate as simulation

BAD_INPUT = Path(__file__).parent / "fixtures" / "bad_input"


def test_play_tells_the_game_citing_the_rules(kotc):
    code, out, err = kotc("play", "17th", "--seed", "3")
    assert code == 0, err
    assert "Turn 1" in out or "turn 1" in out
    assert "[17th §" in out  # the lines cite the rule that made them happen
    assert "wins" in out.splitlines()[-1] or "tie" in out.splitlines()[-1]


def test_play_json_is_the_event_log_the_same_for_the_same_seed(kotc, tmp_path):
    log = tmp_path / "game.jsonl"
    code, first, err = kotc("play", "13th", "--seed", "5", "--format", "json",
                           "--log", str(log))
    assert code == 0, err
    _, again, _ = kotc("play", "13th", "--seed", "5", "--format", "json")
    _, other, _ = kotc("play", "13th", "--seed", "6", "--format", "json")
    assert first == again and first != other
    events = [json.loads(line) for line in first.splitlines()]
    assert events[-1]["kind"] == "game_over"
    assert any(e.get("cite") for e in events)
    assert log.read_text(encoding="utf-8") == first
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]


def simulate(kotc, *flags: str) -> dict:
    code, out, err = kotc("simulate", "17th", "--format", "json", *flags)
    assert code == 0, err
    assert err == ""  # the progress bar is for a terminal only
    return json.loads(out)


def test_simulate_sums_up_the_games(kotc):
    report = simulate(kotc, "--games", "6", "--seed", "40")
    assert report["games"] == 6 and report["run"]["played"] == 6
    assert sum(d["wins"] for d in report["decks"]) + report["ties"]["games"] == 6
    assert sum(e["games"] for e in report["ended_by"]) == 6
    assert report["decisions"] > 6 * 20
    assert report["turns"]["min"] <= report["turns"]["mean"] <= report["turns"]["max"]
    assert report["keywords"]  # the starter decks' cards use keywords


def test_simulate_gives_the_same_summary_in_any_number_of_processes(kotc):
    alone = simulate(kotc, "--games", "6", "--seed", "7")
    shared = simulate(kotc, "--games", "6", "--seed", "7", "--workers", "2")
    assert alone.pop("run") != shared.pop("run")  # where and how long: the run's own
    assert alone == shared


def test_simulate_reads_each_deck_file_once(kotc, monkeypatch):
    reads = []
    real = decks_module.load_deck

    def counted(path):
        reads.append(path)
        return real(path)

    monkeypatch.setattr(decks_module, "load_deck", counted)
    monkeypatch.setattr(simulation, "_READY", {})
    simulate(kotc, "--games", "5", "--workers", "2")
    assert len(reads) == 2  # the two starter decks, not two per game or worker


BAD = [
    (("play", "17th", "--players", "0"), "--players must be at least 1"),
    (("play", "17th", "--players", "1"), "played by 2.. players, not 1"),
    (("play", "17th", "--max-turns", "0"), "--max-turns must be at least 1"),
    (("play", "nosuch"), "unknown edition"),
    (("play", "17th", "--decks", "missing.kdeck"), "missing.kdeck:1:1:"),
    (("play", "17th", "--agent", "human", "random", "first"), "3 agents for 2 players"),
    (("simulate", "17th", "--games", "0"), "--games must be at least 1"),
    (("simulate", "17th", "--workers", "0"), "--workers must be at least 1"),
    (("simulate", "17th", "--players", "0"), "--players must be at least 1"),
    (("simulate", "17th", "--players", "1"), "played by 2.. players, not 1"),
    (("simulate", "17th", "--max-turns", "-2"), "--max-turns must be at least 1"),
    (("fuzz", "17th", "--players", "1"), "played by 2.. players, not 1"),
    (("play", "17th", "--decks", "a.kdeck", "a.kdeck", "a.kdeck"),
     "--decks: 3 decks for 2 players"),
    (("simulate", "17th", "--decks", "a.kdeck", "a.kdeck", "a.kdeck"),
     "--decks: 3 decks for 2 players"),
    (("fuzz", "17th", "--decks", "a.kdeck", "a.kdeck", "a.kdeck"),
     "--decks: 3 decks for 2 players"),
]


@pytest.mark.parametrize(("argv", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_refused_with_a_message(kotc, argv, message):
    code, out, err = kotc(*argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_play_refuses_a_log_in_a_missing_folder_before_playing(kotc, tmp_path):
    log = tmp_path / "nowhere" / "game.jsonl"
    code, out, err = kotc("play", "17th", "--log", str(log))
    assert code == 2 and "--log: no such directory" in err and out == ""
    assert not log.parent.exists()


def test_a_game_needs_decks_and_players():
    rs = load_edition("17th")
    decks = default_decks(rs)[0]
    with pytest.raises(ValueError, match="not 0"):
        Game.new(rs, decks, players=0)
    with pytest.raises(ValueError, match="at least one deck"):
        Game.new(rs, [], players=2)


def test_a_seed_gives_the_same_game_whatever_the_string_hashing():
    # set iteration order follows PYTHONHASHSEED: no game may depend on it
    import os
    import subprocess
    import sys

    def log(hash_seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "KOTC_CACHE_DIR": "off"}
        return subprocess.run(
            [sys.executable, "-m", "kotc", "play", "17th", "--seed", "3",
             "--players", "3", "--format", "json"],
            capture_output=True, text=True, env=env, check=True).stdout

    first = log("1")
    assert first and first == log("2")


def test_a_person_plays_a_seat_from_the_terminal(kotc, monkeypatch, tmp_path):
    import io

    log = tmp_path / "game.jsonl"
    # "x" is no key: asked again; then no, done, end, pass until the game ends
    monkeypatch.setattr("sys.stdin", io.StringIO("x\n" + "n\nd\ne\np\n" * 700))
    code, out, err = kotc("play", "17th", "--agent", "human", "random", "--seed", "2",
                          "--max-turns", "6", "--log", str(log))
    assert code == 0, err
    assert "'x' is not one of the keys shown" in out
    assert "player 0 (you) · HP" in out and "player 0, Mulligan" in out
    assert "\nGame over" in out
    # the other player's draws are told, their cards not named
    theirs = [line for line in out.splitlines() if "to player 1's hand" in line]
    assert theirs and all("a card to" in line for line in theirs)
    mine = [line for line in out.splitlines() if "to player 0's hand" in line]
    assert any("#" in line.split(" to ")[0] for line in mine)
    assert json.loads(log.read_text().splitlines()[-1])["kind"] == "game_over"


def test_a_person_who_leaves_abandons_the_game_and_no_log_is_written(
    kotc, monkeypatch, tmp_path
):
    import io

    log = tmp_path / "game.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("y\nd\n"))  # then the input ends
    code, out, err = kotc("play", "17th", "--agent", "human", "--log", str(log))
    assert code == 1 and "game abandoned; no log written" in err
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\nn\nquit\ny\n"))
    code, out, _ = kotc("play", "17th", "--agent", "random", "human")
    assert code == 1 and out.count("leave the game?") == 2  # declined once


def test_a_person_at_the_table_gets_the_log_with_log_not_json(kotc):
    for flags in (("--json",), ("--format", "json")):
        code, out, err = kotc("play", "17th", "--agent", "human", *flags)
        assert code == 2 and "--log FILE" in err and out == ""


def test_json_is_kept_as_a_deprecated_spelling_of_format_json(kotc):
    code, old, err = kotc("play", "12th", "--seed", "4", "--json")
    assert code == 0 and "--json is deprecated; write --format json" in err
    assert kotc("play", "12th", "--seed", "4", "--format", "json")[1] == old


BOTS = '''
import random


class Greedy:
    """Summons and battles whenever it may; otherwise plays at random."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def act(self, game):
        legal = game.legal_actions()
        for a in legal:
            if a.kind == "act" and a.value[0] in ("summon", "battle"):
                return a
        keep = [a for a in legal if a.kind != "act" or a.value[0] != "agree_to_end"]
        return self.rng.choice(keep or legal)


def broken(seed):
    class Broken:
        def act(self, game):
            return 1 / 0
    return Broken()


class NoSeed:
    def __init__(self):
        pass

    def act(self, game):
        return game.legal_actions()[0]


def mute(seed):
    return object()
'''


@pytest.fixture
def bots(tmp_path, monkeypatch):
    """A module of agents in the current directory, as a bot writer has one."""
    import sys

    (tmp_path / "kotc_test_bots.py").write_text(BOTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield "kotc_test_bots"
    sys.modules.pop("kotc_test_bots", None)


def test_simulate_pits_your_agent_against_random_play(kotc, bots):
    code, out, err = kotc("simulate", "17th", "--games", "8", "--agent",
                          f"{bots}:Greedy", "random", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    agents = {a["agent"]: a for a in report["agents"]}
    assert set(agents) == {f"{bots}:Greedy", "random"}
    assert agents[f"{bots}:Greedy"]["win_rate"] > agents["random"]["win_rate"]
    assert report["seats"][0]["win_rate"] > report["seats"][1]["win_rate"]
    # it never loops to the limit
    assert report["ended_by"] == [{"condition": "all_but_one", "games": 8}]
    _, text, _ = kotc("simulate", "17th", "--games", "2", "--agent", f"{bots}:Greedy",
                      "random")
    assert "Win rate per agent" in text and f"{bots}:Greedy " in text


def test_an_agent_that_fails_stops_the_run_naming_the_seed(kotc, bots):
    code, out, err = kotc("simulate", "17th", "--games", "4", "--seed", "7",
                          "--agent", "random", f"{bots}:broken")
    assert code == 1 and out == ""
    assert "the game of seed 7: player 1's agent: ZeroDivisionError" in err
    code, out, err = kotc("play", "17th", "--agent", f"{bots}:broken")
    assert code == 1 and "player 0's agent: ZeroDivisionError" in err


@pytest.mark.parametrize(("agent", "message"), [
    ("nosuchmodule:Bot", "cannot import nosuchmodule"),
    ("kotc_test_bots:Nope", "has no class or function Nope"),
    ("whatever", "unknown agent 'whatever'"),
    ("kotc_test_bots:NoSeed", "NoSeed(seed) failed: TypeError"),
    ("kotc_test_bots:mute", "what mute(seed) makes has no act(game)"),
])
def test_an_agent_that_cannot_be_made_is_refused_before_playing(kotc, bots, agent,
                                                                message):
    for command in ("play", "simulate"):
        code, out, err = kotc(command, "17th", "--agent", agent)
        assert code == 2 and message in err and out == ""


def test_simulate_has_no_human_at_the_table(kotc):
    code, _, err = kotc("simulate", "17th", "--agent", "human")
    assert code == 2 and "unknown agent 'human'" in err


def test_ctrl_c_at_the_table_abandons_the_game(kotc, monkeypatch, tmp_path):
    class Interrupted:
        def readline(self):
            raise KeyboardInterrupt

        def isatty(self):
            return True

    log = tmp_path / "game.jsonl"
    monkeypatch.setattr("sys.stdin", Interrupted())
    code, _, err = kotc("play", "17th", "--agent", "human", "--log", str(log))
    assert code == 130 and "game abandoned; no log written" in err
    assert not log.exists()


# --- bad input found by fuzzing the command line -----------------------------------


def raiders(folder: Path, first_count: str) -> Path:
    """The 17th edition's Raiders deck copied into `folder` (with its cards), its
    first count (4 Ember Sprites) replaced."""
    shipped = next(p for p in starter_deck_files("17th") if p.stem == "raiders")
    (folder / "raiders.kcard").write_bytes(shipped.with_suffix(".kcard").read_bytes())
    deck = folder / "d.kdeck"
    text = shipped.read_text(encoding="utf-8")
    deck.write_text(text.replace('4 "Ember Sprite"', f'{first_count} "Ember Sprite"'),
                    encoding="utf-8")
    assert deck.read_text(encoding="utf-8") != text
    return deck


def test_a_deck_that_is_not_legal_is_not_played(kotc, tmp_path):
    deck = raiders(tmp_path, "25")  # 61 cards
    for command in ("play", "simulate"):
        code, out, err = kotc(command, "17th", "--decks", str(deck), str(deck))
        assert code == 2 and out == "", err
        assert f"{deck}:2:1: deck \"Raiders\" is not legal under the 17th edition" in err
        assert "the deck has 61 cards" in err and "kotc deck check" in err
        assert "Traceback" not in err


def test_a_huge_count_in_a_deck_is_located_before_a_card_is_made(kotc, tmp_path):
    deck = raiders(tmp_path, "99999999999999")
    code, out, err = kotc("play", "17th", "--decks", str(deck), "--seed", "1")
    assert code == 2 and out == ""
    assert f"{deck}:3:3: 'Ember Sprite': a count must be from 1 to 1000" in err


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_an_edition_no_deck_can_be_made_for_is_refused(kotc, command):
    code, out, err = kotc(command, str(BAD_INPUT / "no_deck_to_make.kotc"))
    assert code == 2 and out == ""
    assert err.startswith(f"kotc {command}: cannot make a deck for the nb edition")
    assert "Traceback" not in err


def test_a_vanilla_deck_names_what_the_edition_lacks():
    rs = load_edition(str(BAD_INPUT / "no_deck_to_make.kotc"))
    with pytest.raises(ValueError) as err:
        vanilla_deck(rs)
    assert "`cost`" in str(err.value) and "`dice_per`" in str(err.value)


def test_play_refuses_a_log_that_is_a_directory_before_playing(kotc, tmp_path):
    log = tmp_path / "adir"
    log.mkdir()
    code, out, err = kotc("play", "17th", "--seed", "1", "--log", str(log))
    assert code == 2 and out == ""
    assert f"kotc play: --log: {log} is a directory" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]


def test_a_log_that_cannot_be_written_leaves_no_part_file(tmp_path, capsys):
    game = Game.new(load_edition("17th"), default_decks(load_edition("17th"))[0])
    log = tmp_path / "adir"
    log.mkdir()  # made after the check before the game: the final replace fails
    assert cli_play.write_log(Console(), log, game) is False
    assert f"--log: cannot write {log}" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]
