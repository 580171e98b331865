"""Build the engine's modules, unchanged, as Cython extension modules.

    python benchmarks/compiled.py            # build (or reuse) and print the folder

How much of the engine's time is the CPython interpreter's own overhead? This
compiles the same source files, with no change and no type declarations, to C
extension modules in a folder of their own (never beside the sources, where a
stale build would shadow later edits): a copy of the `interpreter` package
whose hot modules are compiled. `engine_speed.py --compiled` runs the benchmark
with that folder first on the path. The hand-written baseline is
compiled the same way, so the ratios still compare like with like.

Annotations are not read as C types (`annotation_typing=False`): a `Seat` passed
where `int` is annotated must stay a `Seat`. The build is keyed by the sources'
contents and reused while they do not change; a new build removes the older
ones. Needs Cython and a C compiler.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the modules a game runs through, decision after decision
ENGINE = [
    "abilities",
    "actions",
    "agents",
    "dice",
    "game",
    "listing",
    "prefilter",
    "programs",
    "pyexpr",
    "referee",
    "state",
    "values",
]
BASELINE = ROOT / "benchmarks" / "baseline17.py"
BUILDS = ROOT / "build" / "compiled"

_SETUP = """
import sys
from setuptools import setup
from Cython.Build import cythonize

setup(
    script_args=["build_ext", "--inplace", "-j", "2"],
    ext_modules=cythonize(
        sys.argv[1:],
        nthreads=2,
        quiet=True,
        compiler_directives={
            "language_level": 3,
            "binding": True,
            "annotation_typing": False,
        },
    ),
)
"""


def sources() -> list[Path]:
    """What the build copies: its key."""
    decks = sorted(p for p in (ROOT / "decks").rglob("*") if p.is_file())
    return sorted((ROOT / "interpreter").glob("*.py")) + [BASELINE, *decks]


def build() -> Path:
    """The folder holding the compiled modules, built if the sources changed."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        sys.exit("compiled.py: Cython is not installed (pip install cython)")
    digest = hashlib.sha256()
    for path in sources():
        digest.update(path.read_bytes())
    target = BUILDS / digest.hexdigest()[:16]
    if (target / "done").exists():
        _remove_others(target)
        return target
    work = target.with_suffix(".tmp")
    shutil.rmtree(work, ignore_errors=True)
    # a whole `interpreter` package: the hot modules compiled, the rest as they are
    shutil.copytree(
        ROOT / "interpreter",
        work / "interpreter",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    shutil.copy(BASELINE, work / "baseline17.py")
    # the package finds the starter decks beside it, as in the repository
    shutil.copytree(ROOT / "decks", work / "decks")
    (work / "setup_compiled.py").write_text(_SETUP)
    modules = [f"interpreter/{m}.py" for m in ENGINE] + ["baseline17.py"]
    print(f"compiling {len(modules)} modules with Cython (a few minutes)...", flush=True)
    done = subprocess.run(
        [sys.executable, "setup_compiled.py", *modules],
        cwd=work,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"compiled.py: the build failed:\n{done.stderr[-2000:]}")
    for m in ENGINE:  # only the extension modules stay: nothing to shadow them
        (work / "interpreter" / f"{m}.py").unlink()
    (work / "baseline17.py").unlink()
    shutil.rmtree(work / "build", ignore_errors=True)
    (work / "done").write_text("")
    shutil.rmtree(target, ignore_errors=True)
    work.rename(target)
    _remove_others(target)
    return target


def _remove_others(target: Path) -> None:
    """Builds of earlier sources (some 40 MB each) go; one under way stays."""
    for old in BUILDS.iterdir():
        if old != target and old.suffix != ".tmp":
            shutil.rmtree(old, ignore_errors=True)


if __name__ == "__main__":
    print(build())
