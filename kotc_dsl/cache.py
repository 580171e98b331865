"""Content-addressed cache of parsed files and validated rulesets.

Keys hash the content of every file involved plus kotc's own grammar and loader
code, so an edit anywhere invalidates exactly what it should. Entries live in
memory and on disk (`$KOTC_CACHE_DIR`, default `~/.cache/kotc`); a disk entry is
written to a temporary file and renamed, so a crash never leaves half an entry.
Set `KOTC_CACHE_DIR=off` to keep the cache in memory only.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .shipped import RULES_DIR

_memory: dict[str, Any] = {}
_enabled = True


@functools.lru_cache(maxsize=1)
def _code_version() -> str:
    """A digest of the grammar and the loader: what a cached result depends on."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(RULES_DIR.glob("*.tx")) + sorted(here.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def key(kind: str, *parts: str) -> str:
    h = hashlib.sha256(_code_version().encode())
    for part in parts:
        h.update(b"\0" + part.encode())
    return f"{kind}-{h.hexdigest()[:32]}"


def digest_of(edition_file: Any) -> str:
    """The digest of a parsed file's source text."""
    return hashlib.sha256(Path(edition_file.path).read_bytes()).hexdigest()


def _directory() -> Path | None:
    setting = os.environ.get("KOTC_CACHE_DIR", "")
    if setting.lower() == "off":
        return None
    return Path(setting) if setting else Path.home() / ".cache" / "kotc"


def get(k: str) -> Any | None:
    if not _enabled:
        return None
    if k in _memory:
        return _memory[k]
    directory = _directory()
    if directory is None:
        return None
    try:
        value = pickle.loads((directory / k).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return None
    _memory[k] = value
    return value


def put(k: str, value: Any) -> None:
    if not _enabled:
        return
    _memory[k] = value
    directory = _directory()
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, delete=False) as tmp:
            pickle.dump(value, tmp, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp.name, directory / k)
    except OSError:
        pass  # a cache that cannot be written is only slower


def clear_memory() -> None:
    """Forget in-memory entries (the disk cache stays); used to measure cold loads."""
    _memory.clear()


@contextlib.contextmanager
def enabled(on: bool) -> Iterator[None]:
    global _enabled
    before, _enabled = _enabled, on and _enabled
    try:
        yield
    finally:
        _enabled = before
