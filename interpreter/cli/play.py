"""`kotc play` and `kotc simulate`: games between agents, told or tallied."""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from kotc.dsl import RulesetError, load_edition
from kotc.engine.account import account
from kotc.engine.decks import game_decks
from kotc.engine.game import Game, check_players
from kotc.play.agents import AgentError, agent_maker, make_agents, play
from kotc.play.simulate import one_game, setup, summary
from kotc.play.table import Abandoned, HumanAgent, Narrator

from .common import below_one, check_decks, edition_argument, format_option, isatty
from .files import output_problem, write_whole


def agent_option(p, human: bool) -> None:
    """`--agent`, for `play` (where a person may take a seat) and `simulate`."""
    person = "`human` asks you at the terminal, showing what that seat sees; "
    p.add_argument(
        "--agent",
        nargs="+",
        default=["random"],
        metavar="AGENT",
        help="how each seat chooses, one per seat in turn (one for all): "
        + (person if human else "")
        + "`random` (the default); `first` takes the first legal action, so it may "
        "undo and redo one forever (an exchange where the rules allow any number) "
        "until the game's decision limit ends it; `MODULE:NAME` is your own: a class "
        "or function of a module (importable, or a .py file here) that, called with "
        "a seed, makes an object with `act(game) -> action`",
    )


def _check_agents(con, command: str, specs: list[str], players: int) -> bool:
    """Whether every agent named can be made, for that many players; if not, say
    why."""
    if len(specs) > players:
        con.error(f"kotc {command}: --agent: {len(specs)} agents for {players} "
                  "players (give one per seat, or one for all)")
        return False
    for spec in specs:
        if spec == "human" and command == "play":
            continue
        try:
            agent_maker(spec)(0)  # made once, to be sure it can be
        except ValueError as err:
            con.error(f"kotc {command}: --agent: {err}")
            return False
    return True


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
    p.add_argument("--log", metavar="FILE", help="also write the event log as JSON lines")
    p.add_argument("--json", action="store_true", help="print the event log as JSON")


def play_command(args, con) -> int:
    """Play one game between agents and tell it, each line citing its rule.

    The account gives the turns and phases, each action and choice, the cards'
    moves, dice, damage and stat changes, chain links, and the result. `--json`
    prints the event log instead, one JSON object per line; `--log` also writes
    it to a file.

    With `--agent human` at a seat, you play it: before each of your decisions
    you read what happened since your last one (the cards you may not look at,
    such as the other hands, left unnamed), the table as your seat sees it, and
    the legal actions, numbered. Answer with a number or an action's label;
    `table` shows the table again, `quit` (or the end of input) leaves the game,
    exit status 1, and writes no log."""

    if below_one(con, "play", (("--players", args.players),
                               ("--max-turns", args.max_turns))):
        return 2
    if not _check_agents(con, "play", args.agent, args.players):
        return 2
    if "human" in args.agent and args.json:
        con.error("kotc play: --json prints the log once the game is over; with a "
                  "human at the table, write it with --log FILE")
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
            rs, decks, seed=args.seed, players=args.players, max_turns=args.max_turns
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
    if args.log and not write_log(con, Path(args.log), game):
        return 2
    if args.json:
        for e in game.events:
            con.print(json.dumps(e.to_json()))
        return 0
    for line in account(game, cite=lambda c: con.style(f"  [{c}]", "dim")):
        con.print(line)
    return 0


def _play_at_table(args, con, game: Game) -> int:
    """A game with people at the table: told as it goes, each person asked in
    turn; leaving the game writes no log."""

    seats = [s for s in range(args.players) if args.agent[s % len(args.agent)] == "human"]
    narrator = Narrator(con, seats, cite=lambda c: con.style(f"  [{c}]", "dim"))

    def read(prompt: str) -> str | None:
        con.out.write(prompt)
        con.out.flush()
        line = sys.stdin.readline()
        if line and not isatty(sys.stdin):  # answers from a file or a pipe: shown
            con.out.write(line if line.endswith("\n") else line + "\n")
        return line if line else None

    agents = make_agents(
        args.agent, args.seed, args.players, lambda: HumanAgent(narrator, read)
    )
    try:
        play(game, agents)
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


def write_log(con, path: Path, game: Game) -> bool:
    """Write the event log whole or not at all; whether it was written, saying
    why not."""
    try:
        write_whole(path, "".join(json.dumps(e.to_json()) + "\n" for e in game.events))
    except OSError as err:
        con.error(f"kotc play: --log: cannot write {path}: {err.strerror or err}")
        return False
    return True


def simulate_arguments(p) -> None:

    edition_argument(p)
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument(
        "--workers", type=int, default=1, help="processes to play in parallel (default 1)"
    )
    p.add_argument(
        "--decks",
        nargs="+",
        metavar="DECK",
        help="deck files, one per seat (default: the edition's starter decks)",
    )
    p.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed+i")
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    p.add_argument("--max-turns", type=int, default=300,
                   help="safety limit on turns per game (default 300)")
    agent_option(p, human=False)
    format_option(p)


def simulate_command(args, con) -> int:
    """Play many seeded games and report how they went.

    The report gives the win rate of each seat and of the player who went first,
    turns per game, what ended the games, chain lengths, and how often each
    keyword and counter was used. Game i uses seed --seed + i, so a report can be
    reproduced; games run in parallel with --workers, and the report does not
    depend on how many. The players are random agents unless --agent names
    others: your own bot against random play, say, to see how often it wins.
    A progress bar runs on standard error. An agent that fails (raises, or chooses
    an illegal action) stops the run: exit status 1, and the seed of its game."""

    if below_one(con, "simulate", (("--games", args.games), ("--workers", args.workers),
                                   ("--players", args.players),
                                   ("--max-turns", args.max_turns))):
        return 2
    if not check_decks(con, "simulate", args.decks, args.players):
        return 2
    try:
        rs = setup(args.edition, args.decks)[0]
        check_players(rs, args.players)
    except RulesetError as err:
        con.error(str(err))
        return 2
    except (ValueError, OSError) as err:
        con.error(f"kotc simulate: {err}")
        return 2
    if not _check_agents(con, "simulate", args.agent, args.players):
        return 2
    start = time.perf_counter()
    results = []
    jobs = [
        (args.edition, args.decks, args.seed + i, args.players, args.max_turns,
         args.agent)
        for i in range(args.games)
    ]
    bar = _Progress(args.games, con.err)
    if args.workers == 1:
        for job in jobs:
            results.append(one_game(*job))
            bar.tick()
            if "error" in results[-1]:
                break
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for future in as_completed([pool.submit(one_game, *job) for job in jobs]):
                results.append(future.result())
                bar.tick()
                if "error" in results[-1]:
                    pool.shutdown(wait=True, cancel_futures=True)
                    break
    bar.done()
    failed = sorted((r for r in results if "error" in r), key=lambda r: r["seed"])
    if failed:
        con.error(f"kotc simulate: the game of seed {failed[0]['seed']}: "
                  f"{failed[0]['error']}")
        return 1
    report = summary(results, args.players, time.perf_counter() - start)
    report["edition"] = rs.name
    report["agents"] = [args.agent[s % len(args.agent)] for s in range(args.players)]
    if args.format == "json":
        con.json(report)
        return 0
    _print_summary(con, report)
    return 0


def _print_summary(con, r: dict) -> None:
    con.print(
        con.style(
            f"{r['edition']}: {r['games']} games in {r['seconds']} s "
            f"({r['decisions']} decisions)",
            "bold",
        )
    )
    agents = r["agents"]
    for seat, rate in r["win_rate"].items():
        who = f"  ({agents[int(seat)]})" if len(set(agents)) > 1 else ""
        con.print(f"  seat {seat} wins {rate:6.1%}{who}")
    con.print(f"  ties        {r['ties']:6.1%}")
    con.print(f"  first player wins {r['first_player_win_rate']:.1%}")
    t = r["turns"]
    con.print(f"  turns per game: mean {t['mean']:.1f}, min {t['min']}, max {t['max']}")
    con.print("  ended by: " + ", ".join(f"{k} {v}" for k, v in r["ended_by"].items()))
    if r["chain_lengths"]:
        con.print(
            "  chain lengths: "
            + ", ".join(f"{k}: {v}" for k, v in sorted(r["chain_lengths"].items()))
        )
    for title, table in (("keywords", r["keywords"]), ("counters", r["counters"])):
        if table:
            con.print(
                f"  {title} used: "
                + ", ".join(
                    f"{k} {v}" for k, v in sorted(table.items(), key=lambda kv: -kv[1])
                )
            )


class _Progress:
    """A one-line progress bar on standard error (a line per 10% when not a terminal)."""

    def __init__(self, total: int, stream):
        self.total, self.n, self.stream = total, 0, stream or sys.stderr
        self.tty = getattr(self.stream, "isatty", lambda: False)()
        self.last = -1

    def tick(self) -> None:
        self.n += 1
        if self.tty:
            filled = int(30 * self.n / self.total)
            self.stream.write(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.n}/{self.total} games"
            )
            self.stream.flush()
        elif self.n * 10 // self.total != self.last:
            self.last = self.n * 10 // self.total
            self.stream.write(f"{self.n}/{self.total} games\n")

    def done(self) -> None:
        if self.tty:
            self.stream.write("\n")
