"""Files the commands write (a game's log, a drawing, a counterexample): to a path
checked before the work that fills them, whole or not at all, and never by
replacing what is not a plain file.

How a path is written depends on what is there:

- nothing, or a regular file: the whole text is written beside it (`.NAME.*.part`)
  and renamed over it, so a reader never sees half a file and a failure leaves
  the old one as it was;
- `-`: standard output;
- a device, a FIFO, a socket, or a process's open file (`/dev/stdout`,
  `/dev/fd/N`): written straight into, appended, never replaced;
- a symbolic link: followed; the file it names is written as above and the link
  stays a link.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

STDOUT = "-"

# How `--help` says it, for every option that names an output file.
OUTPUT_HELP = ("`-` is standard output; a device or FIFO is written straight into; "
               "a regular file is replaced whole, only once the work is done; a "
               "symbolic link is followed and stays a link")


def is_stdout(path: Path | str) -> bool:
    """Whether an output path names standard output (`-`)."""
    return str(path) == STDOUT


def _target(path: Path) -> Path:
    """The file a path finally names, its symbolic links followed (a path that
    leads into a process's open files, /proc on Linux, is left as given: its
    target is another program's file, written through the link only)."""
    resolved = Path(os.path.realpath(path))
    hops, current = 0, path
    while current.is_symlink() and hops < 40:
        link = Path(os.readlink(current))
        current = link if link.is_absolute() else current.parent / link
        if current.parts[:2] == ("/", "proc"):
            return path
        hops += 1
    return resolved


def _streamed(path: Path) -> bool:
    """Whether `path` is written straight into (a device, FIFO, socket, or a
    process's open file) rather than replaced whole."""
    if is_stdout(path):
        return True
    target = _target(path)
    if target == path and path.is_symlink():  # through /proc: another's open file
        return True
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def output_problem(path: Path) -> str | None:
    """Why nothing can be written at `path`, or None: asked before a game or a run,
    so that its result is not lost to a mistyped path at the end."""
    if is_stdout(path):
        return None
    try:
        if _streamed(path):
            if not os.access(path, os.W_OK):
                return f"cannot write {path}: permission denied"
            return None
        target = _target(path)
        if target.is_dir():
            return f"{path} is a directory"
        if not target.parent.is_dir():
            # name the directory as it was written, unless a link led elsewhere
            written = path.parent if not path.parent.is_dir() else target.parent
            return f"no such directory: {written}"
    except OSError as err:  # a name too long, a loop of links...
        return f"cannot write {path}: {err.strerror or err}"
    if not os.access(target.parent, os.W_OK):
        return f"cannot write in {target.parent}: permission denied"
    return None


def write_whole(path: Path, data: str | bytes) -> None:
    """Write `data` to `path` as its kind asks (see the module's docstring): a
    regular file (or none) whole or not at all, a stream straight into.

    Raises:
        OSError: the file cannot be written.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if is_stdout(path):
        sys.stdout.flush()
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return
    if _streamed(path):
        with open(path, "ab") as stream:  # appended: a device or pipe is not truncated
            stream.write(raw)
        return
    target = _target(path)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                suffix=".part")
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as part:
            part.write(raw)
        tmp.chmod(mode)
        tmp.replace(target)
    except BaseException:  # Ctrl-C too: no part left behind
        tmp.unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's file mode mask (read by setting it, then put back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
