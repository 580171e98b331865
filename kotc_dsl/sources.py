"""Reading the files kotc is given: regular files only, each read once.

A rule, card or deck file is opened without blocking and checked to be a
regular file before a byte is read, so a FIFO, a device or a directory where a
file is expected is a located problem instead of a hang or a traceback.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["NotRegular", "kind_of", "read_regular"]


class NotRegular(OSError):
    """A path that names something other than a regular file; its `strerror`
    says what it is ("a FIFO, not a regular file")."""

    def __init__(self, kind: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a regular file")


def kind_of(mode: int) -> str:
    """What a file of `mode` is, in words.

    >>> kind_of(stat.S_IFCHR)
    'a character device'
    """
    for test, words in ((stat.S_ISDIR, "a directory"),
                        (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "something else"


def read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file at `path` (its first `limit` bytes if given).

    Raises:
        NotRegular: `path` is a directory, a FIFO, a device or a socket.
        OSError: the file cannot be read (missing, permission, a name too long).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise NotRegular("a directory") from None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(kind_of(mode))
        return f.read() if limit is None else f.read(limit)
