"""A person at the table, tested as a person plays: `kotc play 17th --agent human
random` runs in a terminal (tmux), the test reads the screen, and answers with
the keys it shows. It plays a whole game, and on the way presses what a person
gets wrong: keys that are no option, the key of agreeing to end (then declines
to confirm), keys in capitals, and asks for help, a card's text and the rules."""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None,
    reason="tmux is not installed (.ci/run installs it): the table is driven in it",
)

OPTION = re.compile(r"^\s+\[(\S+)\]\s+(.*?)\s*$")
PROMPT = "player 0> "


class Terminal:
    """A tmux session of its own (a private server socket) running one command."""

    def __init__(self, folder: Path, command: str):
        self.socket = str(folder / "tmux.sock")
        # the history holds the whole game: prompts are counted in it
        self.tmux("-f", "/dev/null", "start-server", ";", "set-option", "-g",
                  "history-limit", "500000", ";", "new-session", "-d", "-s", "t",
                  "-x", "150", "-y", "50", command)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *args], check=True,
                              capture_output=True, text=True).stdout

    def screen(self) -> list[str]:
        """What is on the screen now."""
        return self.tmux("capture-pane", "-p", "-t", "t").rstrip("\n").splitlines()

    def history(self) -> str:
        return self.tmux("capture-pane", "-p", "-S", "-", "-t", "t")

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)
        self.tmux("send-keys", "-t", "t", "Enter")

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


def wait_for(term: Terminal, asked_before: int, timeout: float = 30) -> tuple[str, int]:
    """Wait until the program asks again (one more prompt in the history than
    `asked_before`) or has ended; returns what it shows: `prompt`, `confirm` or
    `ended`, and the number of prompts so far."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = term.screen()
        last = next((line for line in reversed(screen) if line.strip()), "")
        if last.startswith("EXIT="):
            return "ended", asked_before
        if last.endswith("[y/N]"):
            return "confirm", asked_before
        if last.rstrip() == PROMPT.rstrip():
            asked = sum(line.startswith(PROMPT.rstrip())
                        for line in term.history().splitlines())
            if asked > asked_before:
                return "prompt", asked
        time.sleep(0.02)
    raise AssertionError("the table stopped answering:\n" + "\n".join(term.screen()))


def options_on(screen: list[str]) -> list[tuple[str, str]]:
    """The keys and options of the last question on the screen."""
    start = max(i for i, line in enumerate(screen) if line.startswith("player 0, "))
    return [m.groups() for line in screen[start + 1 :] if (m := OPTION.match(line))]


def test_a_person_plays_a_whole_game_at_the_terminal(tmp_path):
    log = tmp_path / "game.jsonl"
    kotc = f"{shlex.quote(sys.executable)} -m kotc"
    command = (f"cd {shlex.quote(str(tmp_path))} && {kotc} play 17th --agent human "
               f"random --seed 4 --log game.jsonl; echo EXIT=$?; sleep 60")
    env_cache = os.environ.get("KOTC_CACHE_DIR", "off")
    term = Terminal(tmp_path, f"KOTC_CACHE_DIR={shlex.quote(env_cache)} sh -c "
                              + shlex.quote(command))
    rng = random.Random(4)
    mistakes = {"not a key": 0, "declined to agree": 0, "capitals": 0, "help": 0,
                "look": 0, "why": 0}
    asked, answers = 0, 0
    keys_of: dict[str, str] = {}  # option -> key, as first seen
    try:
        state, asked = wait_for(term, 0, timeout=60)
        while state != "ended":
            assert state == "prompt", "\n".join(term.screen())
            screen = term.screen()
            options = options_on(screen)
            assert options, "\n".join(screen)
            for key, label in options:  # a key, once shown, stays with its option
                assert keys_of.setdefault(label, key) == key, (label, key)
            answers += 1
            keep = [(k, o) for k, o in options if k != "agree_to_end"]
            roll = rng.random()
            if answers % 9 == 0:
                term.type(rng.choice(["zz", "1000", "q", "agree", "end of turn"]))
                mistakes["not a key"] += 1
            elif answers % 13 == 0 and len(keep) < len(options):
                term.type("agree_to_end")  # the key, pressed by mistake
                state, asked = wait_for(term, asked)
                assert state == "confirm"
                term.type("n")
                mistakes["declined to agree"] += 1
            elif answers % 17 == 0:
                term.type(rng.choice(["?", "help"]))
                mistakes["help"] += 1
            elif (answers % 19 == 0 or not mistakes["look"]) and any(
                    k.isdigit() for k, _ in options):
                term.type("look " + next(k for k, _ in options if k.isdigit()))
                mistakes["look"] += 1
            elif answers % 23 == 0:
                term.type("WHY")
                mistakes["why"] += 1
            else:
                key, _ = rng.choice(keep)
                if roll < 0.2:
                    key = key.upper()
                    mistakes["capitals"] += 1
                term.type(key)
            state, asked = wait_for(term, asked)
        history = term.history()
    finally:
        term.close()
    assert "EXIT=0" in history, history[-3000:]
    assert "Game over" in history
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    over = events[-1]
    assert over["kind"] == "game_over"
    assert over["data"]["condition"] != "agreement"  # nobody gave the game up
    mine = [e for e in events if e["kind"] == "decide" and e["data"]["player"] == 0]
    assert mine and not any("agree" in e["data"]["action"] for e in mine)
    assert all(mistakes.values()), mistakes
    assert "the only answer" in history  # a question with one answer went on alone
    assert "is not one of the keys shown" in history and "look CARD" in history
