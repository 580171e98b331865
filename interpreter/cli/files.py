"""Files the commands write (a game's log, a drawing, a counterexample): to a path
checked before the work that fills them, and whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path


def output_problem(path: Path) -> str | None:
    """Why no file can be written at `path`, or None: asked before a game or a run,
    so that its result is not lost to a mistyped path at the end."""
    try:
        if path.is_dir():
            return f"{path} is a directory"
        if not path.parent.is_dir():
            return f"no such directory: {path.parent}"
    except OSError as err:  # a name too long, a loop of links...
        return f"cannot write {path}: {err.strerror or err}"
    if not os.access(path.parent, os.W_OK):
        return f"cannot write in {path.parent}: permission denied"
    return None


def write_whole(path: Path, data: str | bytes) -> None:
    """Write the whole file or none of it: beside it first (`.part`), then moved
    into place, so a reader never sees half of one; a failed write leaves no
    `.part` behind.

    Raises:
        OSError: the file cannot be written.
    """
    tmp = path.with_name(path.name + ".part")
    try:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data, encoding="utf-8")
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
