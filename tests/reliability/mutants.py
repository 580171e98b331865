"""A seeded corpus of mutated kotc files, and what each one must do.

Each mutant is a good rule, card, deck or ruling file with a few seeded edits
(a span deleted, a token inserted, lines swapped or repeated, a number made huge
or negative, the file cut short). The harness runs what a user would run on it
and reports what breaks the promises of issue 26:

- a file refused is refused with `file:line:col:` inside the file, exit 2;
- nothing prints a traceback or an internal error, nothing hangs;
- nothing is left beside the file;
- a rule file or deck that is accepted plays a few seeded turns, ending
  normally or with a clean, cited error.

`python tests/reliability/mutants.py N [SEED]` runs N mutants of each kind and
prints every finding; the test suite runs a few (`test_mutation_corpus.py`).
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "decks" / "17th"
RULING = ROOT / "tests" / "scenarios" / "turn" / "draw.kscn"
HOUSE = '''\
// Our table's house rules: the 17th edition with longer games and a keyword.
edition "house" number 18 extends "17th"
  source "House rules of our Friday table"
  summary "17th edition with 40 HP, no mulligan, and recycle."
  contents { "Setup", "Keywords" }

setup {
  override starting_hp 40                       @ "Setup"
  remove step mulligan                          @ "Setup"
}

keywords {
  keyword recycle "Recycle" (target: card)      @ "Keywords"
    interpretation "the sheet does not say; the owner shuffles afterwards" {
    move target to target.owner.deck bottom face_down
    shuffle target.owner.deck
    repeat 2 { draw(target.owner, 1) }
    if target.owner.hp > 3 and target.owner.hp < 90 or target.owner.hp == 7 {
      roll 2 dice as d
    }
  }
}
'''
KINDS = ("rules", "card", "deck", "ruling")
TOKENS = ["{", "}", '"', "@", "..", "(", ")", ",", ":", "9" * 40, "9" * 5000, "-1", "0",
          "1000 * 1000 * 1000", "repeat 1000000000 { draw(you, 1) }",
          "roll 99999999 dice as x", "override", "remove", "extends", "edition",
          "keyword", "card", "deck", "scenario", "\x1b[2K", "\n", "\u00e9", "\ufeff",
          "x" * 3000, "and " * 300, "// ", "/*", "where", "for each p in players"]
LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): ")
SECONDS = 30  # a mutant still running after this is a hang


@dataclass
class Finding:
    kind: str
    seed: int
    problem: str
    text: str

    def __str__(self) -> str:
        return f"{self.kind} mutant {self.seed}: {self.problem}"


def originals() -> dict[str, str]:
    return {
        "rules": HOUSE,
        "card": (DECKS / "wardens.kcard").read_text(encoding="utf-8"),
        "deck": (DECKS / "wardens.kdeck").read_text(encoding="utf-8"),
        "ruling": RULING.read_text(encoding="utf-8"),
    }


def mutate(text: str, rng: random.Random) -> str:
    """`text` with one to three seeded edits."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        edit = rng.randrange(7)
        at = rng.randrange(len(text) + 1)
        if edit == 0:    # delete a span
            text = text[:at] + text[at + rng.randint(1, 30):]
        elif edit == 1:  # insert a token
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        elif edit == 2 and len(lines) > 1:  # swap two lines
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif edit == 3:  # repeat a line
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif edit == 4:  # a number made huge, negative or zero
            numbers = list(re.finditer(r"\d+", text))
            if numbers:
                n = rng.choice(numbers)
                new = rng.choice(["0", "-1", "999999999999", "9" * 5000, "4294967296"])
                text = text[:n.start()] + new + text[n.end():]
        elif edit == 5:  # cut short
            text = text[:at]
        else:            # a quoted name replaced
            names = list(re.finditer(r'"[^"\n]*"', text))
            if names:
                n = rng.choice(names)
                new = rng.choice(['""', '"17th"', '"../../etc/hostname"', '"x.kotc"',
                                  '"' + "n" * 300 + '"', '"a\nb"'])
                text = text[:n.start()] + new + text[n.end():]
    return text


class _Hang(Exception):
    pass


@contextlib.contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    def stop(signum, frame):
        raise _Hang

    before = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def _kotc(*argv: str) -> tuple[int, str]:
    """The `kotc` command, run here; its exit status and all it printed."""
    from kotc.cli import main as cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue() + err.getvalue()


def _plays(edition: str, decks: list[str] | None, seed: int) -> str | None:
    """Play a few seeded turns; None when they end normally or with a clean
    error, else what went wrong."""
    from kotc.dsl import RulesetError, load_edition
    from kotc.engine.decks import game_decks
    from kotc.engine.game import Game
    from kotc.play.agents import make_agents, play
    from kotc.runtime.limits import LimitExceeded

    try:
        rs = load_edition(edition)
        played, _names = game_decks(rs, decks, edition)
        game = Game.new(rs, played, seed=seed, players=2, max_turns=3)
        play(game, make_agents(["random"], seed, 2))
    except (RulesetError, LimitExceeded) as err:
        return None if str(err) else "an error with no message"
    except ValueError as err:  # a table the rules cannot seat or deal (said so)
        return None if str(err) else "an error with no message"
    return None


def judge(kind: str, seed: int, text: str) -> list[Finding]:
    """Run a mutant as a user would, in a folder of its own; what it breaks."""
    found: list[Finding] = []

    def bad(problem: str) -> None:
        found.append(Finding(kind, seed, problem, text))

    with tempfile.TemporaryDirectory(prefix="kotc-mutant-") as folder:
        here = Path(folder)
        name = {"rules": "house.kotc", "card": "wardens.kcard", "deck": "wardens.kdeck",
                "ruling": "draw.kscn"}[kind]
        path = here / name
        path.write_text(text, encoding="utf-8")
        if kind == "deck":
            shutil.copy(DECKS / "wardens.kcard", here)
        before = sorted(p.name for p in here.iterdir())
        try:
            with _deadline(SECONDS):
                if kind == "rules":
                    code, said = _kotc("check", str(path))
                elif kind == "card":
                    code, said = _kotc("card", "check", str(path), "-e", "17th")
                elif kind == "deck":
                    code, said = _kotc("deck", "check", str(path))
                else:
                    code, said = _ruling(path)
                if code == 0 and kind in ("rules", "deck"):
                    problem = _plays(str(path) if kind == "rules" else "17th",
                                     [str(path)] if kind == "deck" else None, seed)
                    if problem:
                        bad(f"accepted, then play failed: {problem}")
        except _Hang:
            bad(f"still running after {SECONDS} s")
            return found
        except Exception as err:  # a traceback a user would see
            bad(f"raised {type(err).__name__}: {str(err)[:200]}")
            return found
        if "Traceback" in said or "internal error" in said:
            bad(f"said: {said[:300]}")
        if code == 2:
            _located(path, text, said, bad)
        elif code not in (0, 1):
            bad(f"exit status {code}")
        after = sorted(p.name for p in here.iterdir())
        if after != before:
            bad(f"left files behind: {sorted(set(after) - set(before))}")
    return found


def _ruling(path: Path) -> tuple[int, str]:
    """A ruling file through the loader only (the rulings' runner is not judged
    here): 0 when it loads, 2 with its located problems when it does not."""
    from kotc.dsl import RulesetError
    from kotc.dsl.scenarios import load_scenarios

    try:
        load_scenarios(path)
    except RulesetError as err:
        return 2, str(err)
    return 0, ""


def _located(path: Path, text: str, said: str, bad) -> None:
    """Every problem of a refused file is placed inside a file, the mutant's own
    ones within its lines."""
    lines = [ln for ln in said.splitlines() if ln.strip()]
    problems = [ln for ln in lines if not re.match(r"^\d+ files? checked", ln)
                and not ln.startswith("  ")]
    if not problems:
        bad("exit 2 with no message")
        return
    count = text.count("\n") + 1
    for line in problems:
        where = LOCATED.match(line)
        if where is None:
            if not line.startswith("kotc "):  # a command's own message, unplaced
                bad(f"not located: {line[:200]}")
            continue
        if Path(where["file"]).name == path.name and not 1 <= int(where["line"]) <= count:
            bad(f"located outside the file (it has {count} lines): {line[:200]}")


def corpus(n: int, seed: int = 0) -> Iterator[tuple[str, int, str]]:
    """`n` mutants of each kind, seeded."""
    texts = originals()
    for i in range(n):
        for kind in KINDS:
            s = seed * 1_000_003 + i * len(KINDS) + KINDS.index(kind)
            yield kind, s, mutate(texts[kind], random.Random(s))


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 100
    seed = int(argv[1]) if len(argv) > 1 else 0
    tried, findings = 0, []
    for kind, s, text in corpus(n, seed):
        tried += 1
        for f in judge(kind, s, text):
            findings.append(f)
            print(f, flush=True)
    print(f"{tried} mutants tried, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
