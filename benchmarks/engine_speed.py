"""How fast the engine plays: decisions and games per second, per edition.

    python benchmarks/engine_speed.py [--games 40] [--repeat 3] [--work] [--compiled]
    python benchmarks/engine_speed.py --against REV [--games 40] [--repeat 3] [--work]

For each edition, random agents play seeded games on its starter decks. Then the
vanilla 17th rules (minions without abilities, generated decks) are played by
the DSL engine and by a hand-written Python engine of the same rules
(`baseline17.py`) on the same decks, in the same process, and the ratios of their
speeds are printed: against the hand-written engine behind the same API (action
objects, legality checked, events citing rules) and against its bare form
(indices in, nothing recorded). Seeded games differ between the engines (their
dice and shuffles are drawn differently), so time per game is printed too.
Each DSL engine is built once and timed in steady play, as a long simulation
runs it: it first plays the games once, untimed, writing the code of each
window as the window first opens and filling the tables it keeps (`--cold`
gives each run a new engine, and times that work with the games).
`--compiled` runs the same code compiled with Cython, the baseline included
(`compiled.py`). Times are the process's CPU time, so time the machine gives to
others does not count; `--work` adds Python calls and bytecodes per decision,
which do not move with the machine's load at all, and the DSL engine's bytecodes
by layer (see `LAYERS`). The time a clone of a game in progress takes is
printed too (a searching bot pays it for each line it tries). Last, the figures
the engine's targets are about, beside the targets.

`--against REV` times a git revision (a commit, a branch, `HEAD~3`) beside the
working tree in the same run: each is installed apart (the revision into
`build/revisions/`, kept while its commit is), and the two play the same seeded
games in separate processes, in alternating rounds, so a spell of load on the
machine falls on both alike; the fastest round of each is kept. The games are
played through the public API only (`Game.new`, `legal_actions`, `apply`), which
both sides have. With `--work`, each side then counts its Python calls and
bytecodes per decision on the same games (once: they do not vary). Where the two
sides' rules differ, their seeded games differ too: the table says so. Figures
only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import json
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
if os.environ.get("KOTC_COMPILED"):  # set by --compiled: the compiled build first
    sys.path.insert(0, os.environ["KOTC_COMPILED"])

from kotc.dsl import edition_files, load_edition  # noqa: E402
from kotc.engine.decks import (
    default_decks,  # noqa: E402
    vanilla_deck,  # noqa: E402
)
from kotc.engine.game import Engine, Game, card_pool  # noqa: E402

# the engine's speed targets: decisions per second on the newest edition's starter
# decks, and the DSL engine's time per decision against the hand-written engine's
# behind the same API
TARGET_RATE, TARGET_RATIO = 50_000, 2.0


def dsl_games(
    rs, decks, games: int, meter=None, engine: Engine | None = None
) -> tuple[int, float]:
    """Decisions and seconds of `games` seeded games, on `engine` (a new one:
    None)."""
    if engine is None:
        engine = Engine(rs, card_pool(decks))
    if meter is not None:  # the games only, not the engine's compiling
        meter.enable()
    giving_up = rs.concessions
    decisions, start = 0, time.process_time()
    for seed in range(games):
        g = Game.new(rs, decks, seed=seed, players=2, engine=engine)
        # a random player, as `RandomAgent` and written as `hand_games` plays: the
        # two engines' figures differ by the engines alone
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            keep = [
                a for a in legal if not (a.kind == "act" and a.value[0] in giving_up)
            ]
            g.apply(rng.choice(keep or legal))
        decisions += g.applied
    spent = time.process_time() - start
    if meter is not None:
        meter.disable()
    return decisions, spent


class Bytecodes:
    """Counts the bytecodes Python executes while enabled (a tracer: slow), in all
    and by the part of the engine that runs them (`layers`): a function in
    `LAYERS` starts its part, any other runs in its caller's."""

    def __init__(self):
        self.executed = 0
        self.by_layer: dict[str, int] = {}

    def enable(self) -> None:
        sys.settrace(self._frame)

    def disable(self) -> None:
        sys.settrace(None)

    def _frame(self, frame, event, arg):
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        layer = LAYERS.get(frame.f_code)
        if layer is None:
            caller = frame.f_back.f_trace if frame.f_back is not None else None
            layer = getattr(caller, "layer", "player")
        return _Counter(self, layer)


class _Counter:
    """The local tracer of one frame: counts its bytecodes into its layer."""

    __slots__ = ("meter", "layer")

    def __init__(self, meter: Bytecodes, layer: str):
        self.meter, self.layer = meter, layer

    def __call__(self, frame, event, arg):
        if event == "opcode":
            meter = self.meter
            meter.executed += 1
            meter.by_layer[self.layer] = meter.by_layer.get(self.layer, 0) + 1
        return self


# Where a decision's work goes in the DSL engine: listing the legal actions, running
# effects, the flow of turns, battles and chains around them, taking the answer
# (`apply`), and setting games up; the rest is the player's loop (`player`). Named
# as `module:qualified name`; a name this version of the engine lacks is passed over.
LAYER_FUNCTIONS = (
    ("kotc.compiler.listing:Listing.options", "listing"),
    ("kotc.compiler.listing:Listing.bindings", "listing"),
    ("kotc.engine.listing:options", "listing"),
    ("kotc.compiler.programs:run", "effects"),
    ("kotc.runtime.vm:run", "effects"),
    ("kotc.engine.game:Game.advance", "flow"),
    ("kotc.engine.runner:Runner.advance", "flow"),
    ("kotc.engine.game:Game.apply", "apply"),
    ("kotc.engine.game:Game.new", "setup"),
)


def _code(name: str):
    """The code object of `module:qualified.name`, or None where there is none."""
    module, _, qualname = name.partition(":")
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return None
    return getattr(getattr(obj, "__func__", obj), "__code__", None)


LAYERS = {code: layer for name, layer in LAYER_FUNCTIONS if (code := _code(name))}


def steady_engine(rs, decks, games: int, cold: bool) -> Engine | None:
    """An engine that has played the games once, so that what it makes on first
    use is made (None, `cold`: each run makes an engine of its own)."""
    if cold:
        return None
    engine = Engine(rs, card_pool(decks))
    dsl_games(rs, decks, games, engine=engine)
    return engine


def work_per_decision(run, *args, **kwargs) -> tuple[float, float, dict[str, float]]:
    """Python function calls (cProfile) and bytecodes per decision of `run`'s
    games, and the bytecodes by layer: measures of an engine's work that do not
    move with the machine's load."""
    profiler, bytecodes = cProfile.Profile(), Bytecodes()
    decisions, _ = run(*args, profiler, **kwargs)
    calls = pstats.Stats(profiler).total_calls / decisions
    decisions, _ = run(*args, bytecodes, **kwargs)
    layers = {k: n / decisions for k, n in bytecodes.by_layer.items()}
    return calls, bytecodes.executed / decisions, layers


def clone_time(rs, decks, decisions: int = 100, repeat: int = 1000) -> float:
    """Seconds per `Game.clone()` of a game some decisions in (the best of three)."""
    g = Game.new(rs, decks, seed=1, players=2)
    rng = random.Random(1)
    giving_up = rs.concessions
    while not g.is_over and g.applied < decisions:
        legal = g.legal_actions()
        keep = [a for a in legal if not (a.kind == "act" and a.value[0] in giving_up)]
        g.apply(rng.choice(keep or legal))
    timer = timeit.Timer(g.clone, timer=time.process_time)
    return min(timer.repeat(3, repeat)) / repeat


def hand_games(
    deck: list[tuple[int, int, int]], games: int, api: bool, meter=None
) -> tuple[int, float]:
    # imported here, not above: `--against` runs this file with another revision's
    # kotc, which the hand-written engine (written against this one) may not fit
    from baseline17 import HandGame

    if meter is not None:
        meter.enable()
    decisions, start = 0, time.process_time()
    for seed in range(games):
        g = HandGame([deck, deck], seed=seed, api=api)
        rng = random.Random(seed)
        while not g.over:
            legal = g.legal_actions()
            # like the DSL's random agent, never agree to stop the game
            if api:
                keep = [a for a in legal if a.kind != "agree"] or legal
                g.apply(rng.choice(keep))
            else:
                keep = [i for i, o in enumerate(legal) if o != "agree"]
                g.apply(rng.choice(keep))
            decisions += 1
    spent = time.process_time() - start
    if meter is not None:
        meter.disable()
    return decisions, spent


def best(repeat: int, run, *args) -> tuple[int, float]:
    """The fastest of `repeat` runs: (decisions, seconds)."""
    return min((run(*args) for _ in range(max(repeat, 1))), key=lambda r: r[1])


ROOT = Path(__file__).resolve().parents[1]
REVISIONS = ROOT / "build" / "revisions"


def install_revision(rev: str) -> tuple[str, Path]:
    """The commit `rev` names, and a folder its kotc package is installed in (made
    once per commit, with pip, from the commit's tree as `git archive` gives it)."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify",
                          f"{rev}^{{commit}}"], capture_output=True, text=True)
    if sha.returncode != 0:
        sys.exit(f"engine_speed: no commit named {rev!r}: {sha.stderr.strip()}")
    commit = sha.stdout.strip()
    target = REVISIONS / commit
    if (target / "kotc").is_dir():
        return commit, target
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        staging = Path(tmp) / "stage"
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-compile", "--target", str(staging), str(tree)],
                       check=True, stdout=subprocess.DEVNULL)
        REVISIONS.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target, ignore_errors=True)
        shutil.move(str(staging), str(target))
    return commit, target


def measure(games: int, work: bool = False) -> dict:
    """One run for `--against`: per edition's starter decks and for the vanilla
    17th decks, (decisions, seconds) of `games` seeded games in steady play, and
    where the engine played from; with `work`, (decisions, Python calls and
    bytecodes per decision) in place of the seconds."""
    import kotc

    out: dict = {"kotc": str(Path(kotc.__file__).parent)}
    for name in edition_files():
        rs = load_edition(name)
        decks, _ = default_decks(rs)
        out[name] = measured(rs, decks, games, work)
    rs = load_edition("17th")
    out["vanilla 17th"] = measured(rs, [vanilla_deck(rs)], games, work)
    return out


def measured(rs, decks, games: int, work: bool) -> tuple:
    """(decisions, seconds) of the games in steady play; with `work`, (decisions,
    calls per decision, bytecodes per decision)."""
    engine = steady_engine(rs, decks, games, cold=False)
    if not work:
        return dsl_games(rs, decks, games, None, engine)
    decisions, _ = dsl_games(rs, decks, games, None, engine)
    calls, bytecodes, _ = work_per_decision(dsl_games, rs, decks, games, engine=engine)
    return decisions, calls, bytecodes


def against(rev: str, games: int, repeat: int, work: bool = False) -> None:
    """Time revision `rev` beside the working tree, in alternating rounds; with
    `work`, count each one's Python calls and bytecodes per decision too."""
    commit, folder = install_revision(rev)
    sides = {
        f"{rev} ({commit[:10]})": dict(os.environ, PYTHONPATH=str(folder)),
        "working tree": {k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    }

    def run(label: str, *flags: str) -> dict:
        done = subprocess.run(
            [sys.executable, __file__, "--measure", "--games", str(games), *flags],
            env=sides[label], capture_output=True, text=True,
            cwd=tempfile.gettempdir())
        if done.returncode != 0:
            sys.exit(f"engine_speed: the {label} failed:\n{done.stderr}")
        result: dict = json.loads(done.stdout)
        where[label] = result.pop("kotc")
        return result

    best: dict[str, dict[str, tuple[int, float]]] = {label: {} for label in sides}
    where: dict[str, str] = {}
    for _ in range(max(repeat, 1)):
        for label in sides:
            for name, (n, secs) in run(label).items():
                kept = best[label].get(name)
                if kept is None or secs < kept[1]:
                    best[label][name] = (n, secs)
    (old, new) = sides
    for label in sides:
        print(f"{label}: kotc from {where[label]}")
    print(f"\n{games} seeded games each, best of {repeat} alternating rounds, "
          "decisions per second")
    print(f"{'games':<16}{old:>26}{new:>16}{'new / old':>11}")
    for name in best[new]:
        if name not in best[old]:
            continue
        (n_old, s_old), (n_new, s_new) = best[old][name], best[new][name]
        r_old, r_new = n_old / s_old, n_new / s_new
        differ = "" if n_old == n_new else "  (different games)"
        print(f"{name:<16}{r_old:>26,.0f}{r_new:>16,.0f}{r_new / r_old:>10.2f}x"
              f"{differ}")
    if not work:
        return
    counts = {label: run(label, "--work") for label in sides}
    print(f"\nwork per decision, {games} seeded games each: Python calls and "
          "bytecodes (the machine's load does not move these)")
    print(f"{'games':<16}{'calls':>12}{'calls':>10}{'bytecodes':>14}{'bytecodes':>12}"
          f"{'new / old':>11}")
    print(f"{'':<16}{'old':>12}{'new':>10}{'old':>14}{'new':>12}")
    for name in counts[new]:
        if name not in counts[old]:
            continue
        n_old, c_old, b_old = counts[old][name]
        n_new, c_new, b_new = counts[new][name]
        differ = "" if n_old == n_new else "  (different games)"
        print(f"{name:<16}{c_old:>12.1f}{c_new:>10.1f}{b_old:>14,.0f}{b_new:>12,.0f}"
              f"{b_new / b_old:>10.2f}x{differ}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="play each set of games this many times and keep the fastest (the "
        "least disturbed by the rest of the machine, as timeit does)",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="a new DSL engine for each run of games, the code it writes on first "
        "use timed with them (by default an engine is reused: steady play)",
    )
    parser.add_argument(
        "--work",
        action="store_true",
        help="also count Python calls (cProfile) and bytecodes per decision, "
        "figures that do not move with the machine's load (slow)",
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="run the same code compiled with Cython (see compiled.py); needs Cython",
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="time this git revision beside the working tree, in the same run",
    )
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # one side of `--against`: figures as JSON, nothing else
        print(json.dumps(measure(args.games, args.work)))
        return
    if args.against:
        against(args.against, args.games, args.repeat, args.work)
        return
    if args.compiled and not os.environ.get("KOTC_COMPILED"):
        from compiled import build

        folder = build()
        env = dict(os.environ, KOTC_COMPILED=str(folder))
        argv = [sys.executable, __file__, "--games", str(args.games)]
        argv += ["--repeat", str(args.repeat)] + (["--work"] if args.work else [])
        argv += ["--cold"] if args.cold else []
        sys.exit(subprocess.run(argv, env=env).returncode)
    import kotc.engine.game

    compiled = not kotc.engine.game.__file__.endswith(".py")
    print(f"engine: {'compiled with Cython' if compiled else 'CPython, as written'}")
    print(
        f"{'edition':<10}{'decks':<12}{'decisions':>10}{'decisions/s':>14}{'games/s':>10}"
    )
    tables, rates = [], {}
    for name in edition_files():
        rs = load_edition(name)
        decks, names = default_decks(rs)
        engine = steady_engine(rs, decks, args.games, args.cold)
        tables.append((name, rs, decks, engine))  # `--work` reads them again
        n, secs = best(args.repeat, dsl_games, rs, decks, args.games, None, engine)
        rates[name] = n / secs
        print(
            f"{name:<10}{'+'.join(names)[:11]:<12}{n:>10}{n / secs:>14,.0f}"
            f"{args.games / secs:>10.1f}"
        )
    newest = list(edition_files())[-1]
    print(
        f"clone of a {newest} game after 100 decisions: "
        f"{clone_time(*tables[-1][1:3]) * 1e6:,.0f} us "
        "(what a searching bot pays for each line it tries)"
    )
    rs = load_edition("17th" if "17th" in edition_files() else newest)
    deck = vanilla_deck(rs)
    stats = [{s.stat: s.value for s in c.stats} for c in deck.cards]
    plain = [(s["level"], s["sp"], s["hp"]) for s in stats]
    engine = steady_engine(rs, [deck], args.games, args.cold)
    engines = [
        ("DSL engine", dsl_games, (rs, [deck], args.games, None, engine)),
        ("hand-written, engine API", hand_games, (plain, args.games, True)),
        ("hand-written, bare", hand_games, (plain, args.games, False)),
    ]
    # in rounds, one run of each engine per round, so a spell of load on the
    # machine falls on all of them alike; the fastest run of each is kept
    runs: dict[str, list] = {label: [] for label, _, _ in engines}
    for _ in range(max(args.repeat, 1)):
        for label, run, run_args in engines:
            runs[label].append(run(*run_args))
    rows = [(label, *min(runs[label], key=lambda r: r[1])) for label, _, _ in engines]
    print(
        f"\nvanilla {rs.name}, same decks, same process, {args.games} games each, "
        f"best of {args.repeat}"
    )
    print(f"{'engine':<26}{'decisions':>10}{'decisions/s':>14}{'games/s':>10}")
    for label, n, secs in rows:
        print(f"{label:<26}{n:>10}{n / secs:>14,.0f}{args.games / secs:>10.1f}")
    dsl, ratios = rows[0], {}
    for label, n, secs in rows[1:]:
        per_decision = ratios[label] = (dsl[2] / dsl[1]) / (secs / n)
        print(
            f"DSL / {label}: {per_decision:.2f}x time per decision, "
            f"{dsl[2] / secs:.2f}x time per game"
        )
    rate, ratio = rates[newest], ratios["hand-written, engine API"]
    print("\ntargets")
    print(f"{newest} starter decks: {rate:,.0f} decisions/s, target at least "
          f"{TARGET_RATE:,} ({'met' if rate >= TARGET_RATE else 'not met'})")
    print(f"DSL / hand-written, engine API: {ratio:.2f}x, target at most "
          f"{TARGET_RATIO:.0f}x ({'met' if ratio <= TARGET_RATIO else 'not met'})")
    if args.work:  # last: once a tracer has run, what runs after it is slower
        print(f"\nwork per decision, {args.games} games each")
        print(f"{'games':<34}{'Python calls':>14}{'bytecodes':>12}")
        rows = []
        for name, table_rs, decks, table_engine in tables:
            work = work_per_decision(
                dsl_games, table_rs, decks, args.games, engine=table_engine
            )
            rows.append((f"{name} starter, DSL engine", *work))
        dsl = work_per_decision(dsl_games, rs, [deck], args.games, engine=engine)
        hand = work_per_decision(hand_games, plain, args.games, True)
        rows.append(("vanilla, DSL engine", *dsl))
        hand_row = ("vanilla, hand-written engine API", *hand)
        for label, calls, bytecodes, _ in [*rows, hand_row]:
            print(f"{label:<34}{calls:>14.1f}{bytecodes:>12,.0f}")
        print(
            f"DSL / hand-written, engine API: {dsl[0] / hand[0]:.2f}x Python calls, "
            f"{dsl[1] / hand[1]:.2f}x bytecodes per decision"
        )
        names = ("listing", "effects", "flow", "apply", "setup", "player")
        print("\nDSL engine, bytecodes per decision by layer")
        print(f"{'games':<26}" + "".join(f"{n:>9}" for n in names))
        for label, _, _, layers in rows:
            print(
                f"{label.removesuffix(', DSL engine'):<26}"
                + "".join(f"{layers.get(n, 0):>9,.0f}" for n in names)
            )


if __name__ == "__main__":
    main()
