"""`kotc play`: one game between agents (or people), told as it goes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from kotc.dsl import RulesetError, load_edition
from kotc.engine.account import account
from kotc.engine.decks import game_decks
from kotc.engine.game import Engine, Game, card_pool
from kotc.play.agents import AgentError, make_agents, play
from kotc.play.table import Abandoned, HumanAgent, Narrator
from kotc.runtime.limits import LimitExceeded

from .common import (
    agent_option,
    backend_option,
    below_one,
    check_agents,
    check_decks,
    edition_argument,
    isatty,
)
from .files import OUTPUT_HELP, output_problem, write_whole


def play_arguments(p) -> None:

    edition_argument(p)
    p.add_argument(
        "--decks",
        nargs="+",
        metavar="DECK",
        help="deck files, one per seat (default: the edition's starter decks)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed for dice and agents")
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    agent_option(p, human=True)
    p.add_argument("--max-turns", type=int, default=300,
                   help="safety limit on turns (default 300)")
    p.add_argument("--log", metavar="FILE",
                   help="also write the event log as JSON lines; " + OUTPUT_HELP)
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the game told for people (default); json: the event "
                        "log, one JSON object per line, with the flow graph's edges "
                        "taken (`transition` records: the edge's id in `kotc graph "
                        "EDITION --format json`, its ends, its kind) and each "
                        "decision's node (`node` of a `decide` event)")
    p.add_argument("--json", action="store_true",
                   help="the same as --format json (deprecated: kept for old scripts)")
    p.add_argument("--pause", action="store_true",
                   help="at the table, stop at questions with one answer too (by "
                        "default they are answered by themselves)")
    backend_option(p)


def play_command(args, con) -> int:
    """Play one game between agents and tell it, each line citing its rule.

    The account gives the turns and phases, each action and choice, the cards'
    moves, dice, damage and stat changes, chain links, and the result.
    `--format json` prints the event log instead, one JSON object per line (its
    schema: `kotc.schemas`, `event`), with the trace of the flow graph: a
    `transition` record for each edge play takes (its id in `kotc graph EDITION
    --format json`) and, in each `decide` event, the node it was asked at;
    `--log` also writes it to a file.

    With `--agent human` at a seat, you play it: before each of your decisions
    you read what happened since your last one (the cards you may not look at,
    such as the other hands, left unnamed), the board as your seat sees it, the
    question in the rulebook's words with how many to choose, and the legal
    actions, each with a key that stays with it all game (a card is picked by
    its number, `y`/`n` answer, `e` ends a phase). Case does not matter.
    Giving the game up (agreeing to end) asks you to confirm. `?` lists the
    commands: `look CARD` shows a card's text, `why` the rules behind the
    question, `board` the board again, `pause` stops at questions with one
    answer (which otherwise go on by themselves). `quit` (confirmed) or the
    end of input leaves the game, exit status 1, and writes no log."""

    if below_one(con, "play", (("--players", args.players),
                               ("--max-turns", args.max_turns))):
        return 2
    if not check_agents(con, "play", args.agent, args.players):
        return 2
    if args.json:  # the old spelling of --format json
        con.error("kotc play: --json is deprecated; write --format json")
        args.format = "json"
    if "human" in args.agent and args.format == "json":
        con.error("kotc play: --format json prints the log once the game is over; "
                  "with a human at the table, write it with --log FILE")
        return 2
    if not check_decks(con, "play", args.decks, args.players):
        return 2
    problem = output_problem(Path(args.log)) if args.log else None
    if problem:
        con.error(f"kotc play: --log: {problem}")
        return 2
    try:
        rs = load_edition(args.edition)
        decks, _names = game_decks(rs, args.decks, args.edition)
        game = Game.new(
            rs, decks, seed=args.seed, players=args.players, max_turns=args.max_turns,
            engine=Engine.shared(rs, card_pool(decks), args.backend),
            trace=args.format == "json" or bool(args.log),
        )
    except RulesetError as err:
        con.error(str(err))
        return 2
    except (ValueError, OSError) as err:
        con.error(f"kotc play: {err}")
        return 2
    if "human" in args.agent:
        return _play_at_table(args, con, game)
    try:
        play(game, make_agents(args.agent, args.seed, args.players))
    except AgentError as err:
        con.error(f"kotc play: {err}")
        return 1
    except LimitExceeded as err:  # the rules asked for more than can be played
        con.error(f"kotc play: {err}")
        return 2
    if args.log and not write_log(con, Path(args.log), game):
        return 2
    if args.format == "json":
        for line in log_lines(game):
            con.print(json.dumps(line))
        return 0
    for line in account(game, cite=lambda c: con.style(f"  [{c}]", "dim")):
        con.print(line)
    return 0


def _play_at_table(args, con, game: Game) -> int:
    """A game with people at the table: told as it goes, each person asked in
    turn; leaving the game writes no log."""

    seats = [s for s in range(args.players) if args.agent[s % len(args.agent)] == "human"]
    narrator = Narrator(con, seats)

    def read(prompt: str) -> str | None:
        con.out.write(prompt)
        con.out.flush()
        line = sys.stdin.readline()
        if line and not isatty(sys.stdin):  # answers from a file or a pipe: shown
            con.out.write(line if line.endswith("\n") else line + "\n")
        return line if line else None

    agents = make_agents(
        args.agent, args.seed, args.players,
        lambda: HumanAgent(narrator, read, pause=args.pause),
    )
    try:
        play(game, agents)
    except LimitExceeded as err:
        con.error(f"kotc play: {err}")
        return 2
    except (AgentError, KeyboardInterrupt) as err:  # Ctrl-C at the prompt: left too
        con.print()
        if isinstance(err, AgentError) and not isinstance(err.error, Abandoned):
            con.error(f"kotc play: {err}")
            return 1
        unwritten = "; no log written" if args.log else ""
        con.error(f"kotc play: game abandoned{unwritten}")
        return 130 if isinstance(err, KeyboardInterrupt) else 1
    narrator.catch_up(game)
    if args.log and not write_log(con, Path(args.log), game):
        return 2
    return 0


def log_lines(game: Game) -> list[dict]:
    """The game's log as JSON lines: its events, with the trace where it has
    one (see `Trace.log_lines`)."""
    if game.trace is None:
        return [e.plain_json() for e in game.events]
    return game.trace.log_lines()


def write_log(con, path: Path, game: Game) -> bool:
    """Write the event log whole or not at all; whether it was written, saying
    why not."""
    try:
        write_whole(path, "".join(json.dumps(line) + "\n" for line in log_lines(game)))
    except OSError as err:
        con.error(f"kotc play: --log: cannot write {path}: {err.strerror or err}")
        return False
    return True


