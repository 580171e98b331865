"""Content-addressed cache of parsed files and validated rulesets.

Keys hash the content of every file involved plus kotc's own grammar and loader
code, so an edit anywhere invalidates exactly what it should. Entries live in
memory and on disk, in the user's cache directory (`platformdirs`: on Linux
`$XDG_CACHE_HOME/kotc`, by default `~/.cache/kotc`), or `$KOTC_CACHE_DIR`; set
`KOTC_CACHE_DIR=off` to keep the cache in memory only.

What is read from disk is data, never code (`cache_format`: JSON of the syntax
tree's dataclasses, its classes and version checked), and only from a private
directory: one this user owns, that no one else may read or write (0700); any
other is not used, and a warning says so. An entry that cannot be read, or is
not what its key says, is a miss: it is removed, and the load that follows
writes it anew. An entry is written to a temporary file and renamed, so a
crash never leaves half an entry; a temporary file a killed process left
behind is removed the next time the directory is opened.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from .cache_format import CacheFormatError, decode, encode
from .shipped import RULES_DIR

T = TypeVar("T")

_log = logging.getLogger(__name__)
_memory: dict[str, Any] = {}
_enabled = True
_TMP = ".tmp-"
_STALE_SECONDS = 3600  # a temporary file older than this belongs to no live write


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
    """The key of an entry of `kind` made from `parts` (paths, digests...)."""
    h = hashlib.sha256(_code_version().encode())
    for part in parts:
        h.update(b"\0" + part.encode("utf-8", "surrogateescape"))
    return f"{kind}-{h.hexdigest()[:32]}"


def directory() -> Path | None:
    """The disk cache's directory, made if need be; None when the cache is kept in
    memory only (`KOTC_CACHE_DIR=off`) or the directory is not private."""
    setting = os.environ.get("KOTC_CACHE_DIR", "")
    if setting.lower() == "off":
        return None
    path = Path(setting) if setting else Path(
        platformdirs.user_cache_dir("kotc", appauthor=False))
    return path if _private(path) else None


@functools.lru_cache(maxsize=8)
def _private(path: Path) -> bool:
    """Whether `path` is a directory only this user may use (made 0700 if absent);
    the first time it is, temporary files left in it are swept."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(path)
    except OSError as err:
        _log.warning("kotc: cache directory %s cannot be used (%s); the cache is "
                     "kept in memory", path, err.strerror or err)
        return False
    problem = _not_private(info)
    if problem:
        _log.warning("kotc: cache directory %s is not used: %s", path, problem)
        return False
    _sweep(path)
    return True


def _not_private(info: os.stat_result) -> str | None:
    if not stat.S_ISDIR(info.st_mode):
        return "not a directory (a link or a file)"
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return "owned by another user"
    if os.name == "posix" and info.st_mode & 0o077:
        return (f"others may use it (mode {stat.S_IMODE(info.st_mode):o}; "
                f"`chmod 700` it)")
    return None


def _sweep(path: Path) -> None:
    """Remove temporary files that writes killed midway left behind."""
    old = time.time() - _STALE_SECONDS
    with contextlib.suppress(OSError):
        for entry in os.scandir(path):
            if entry.name.startswith(_TMP):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_mtime < old:
                        os.unlink(entry.path)


def get(k: str, expected: type[T]) -> T | None:
    """The entry `k` if it is there and is an `expected`, else None (a miss).

    A disk entry that cannot be read as one is removed."""
    if not _enabled:
        return None
    if k in _memory:
        found = _memory[k]
        return found if isinstance(found, expected) else None
    where = directory()
    if where is None:
        return None
    entry = where / k
    try:
        data = entry.read_bytes()
    except FileNotFoundError:
        return None
    except OSError:
        data = b""
    try:
        value = decode(data, k.partition("-")[0], expected)
    except CacheFormatError:
        with contextlib.suppress(OSError):
            entry.unlink()
        return None
    _memory[k] = value
    return value


def put(k: str, value: Any) -> None:
    """Keep `value` as entry `k`, in memory and (when it can be written) on disk."""
    if not _enabled:
        return
    _memory[k] = value
    where = directory()
    if where is None:
        return
    tmp: str | None = None
    try:
        data = encode(value, k.partition("-")[0])
        with tempfile.NamedTemporaryFile(dir=where, prefix=_TMP, delete=False) as f:
            tmp = f.name
            f.write(data)
        os.replace(tmp, where / k)
        tmp = None
    except (OSError, ValueError, RecursionError):
        pass  # a cache that cannot be written is only slower
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def clear_memory() -> None:
    """Forget in-memory entries (the disk cache stays); used to measure cold loads."""
    _memory.clear()


@contextlib.contextmanager
def enabled(on: bool) -> Iterator[None]:
    """Within the block, use the cache only if `on` (and it was on before)."""
    global _enabled
    before, _enabled = _enabled, on and _enabled
    try:
        yield
    finally:
        _enabled = before
