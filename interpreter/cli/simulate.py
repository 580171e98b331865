"""`kotc simulate`: many seeded games between agents, tallied."""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TextIO

from kotc.dsl import RulesetError
from kotc.engine.game import check_players
from kotc.play.simulate import one_game, setup, summary

from .common import (
    Console,
    agent_option,
    below_one,
    check_agents,
    check_decks,
    edition_argument,
    format_option,
)


def simulate_arguments(p: argparse.ArgumentParser) -> None:
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


def simulate_command(args: argparse.Namespace, con: Console) -> int:
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
    if not check_agents(con, "simulate", args.agent, args.players):
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


def _print_summary(con: Console, r: dict[str, Any]) -> None:
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

    def __init__(self, total: int, stream: TextIO | None):
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

