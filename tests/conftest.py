"""Test-session settings: hypothesis profiles, and a private kotc cache.

`CI=true` selects the bounded, derandomized `ci` profile, so a CI run is quick and
repeatable; anywhere else the `dev` profile searches more widely. The kotc disk
cache points at a fresh temporary directory for the session (subprocesses
inherit it), so no test reads or pollutes a user's `~/.cache/kotc`.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True,
                          print_blob=True)
settings.register_profile("dev", max_examples=100, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(
    "ci" if os.environ.get("CI", "").lower() not in ("", "0", "false", "no") else "dev")

_saved_cache_dir: str | None = None
_session_cache_dir: str | None = None


def pytest_configure(config) -> None:
    """Point the kotc cache at a fresh directory before any test module loads."""
    global _saved_cache_dir, _session_cache_dir
    _saved_cache_dir = os.environ.get("KOTC_CACHE_DIR")
    _session_cache_dir = tempfile.mkdtemp(prefix="kotc-test-cache-")
    os.environ["KOTC_CACHE_DIR"] = _session_cache_dir


def pytest_unconfigure(config) -> None:
    if _session_cache_dir is not None:
        shutil.rmtree(_session_cache_dir, ignore_errors=True)
    if _saved_cache_dir is None:
        os.environ.pop("KOTC_CACHE_DIR", None)
    else:
        os.environ["KOTC_CACHE_DIR"] = _saved_cache_dir


@pytest.fixture
def kotc(capsys):
    """The `kotc` command, run in this process: `kotc(*argv)` gives its exit status,
    standard output and standard error."""
    from kotc.cli import main as cli

    def run(*argv: str) -> tuple[int, str, str]:
        code = cli.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run
