"""The small machine programs run on: blocks, frames, and the loop that runs them.

A `Block` is a compiled list of statements, numbered so that a suspended program
can be saved as plain data: a stack of `Frame`s, each a block, a position (`pc`)
and the names bound so far (`env`, shared by the blocks of one program). A
block's `go(game, frame)` runs its statements from the frame's position on and
returns:

- `NEXT`: the block is done (or its loop goes round again);
- `PUSHED`: a statement pushed a frame (or ended some), having moved the frame
  past itself first; the machine runs what is now on top;
- `WAIT`: a statement set a decision and waits for its answer, the frame left at
  that statement, which runs again once the answer is in.

How `go` runs the statements is the backend's business: the reference
interpreter's loop, or a function written for the block (`kotc.compiler`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

NEXT, PUSHED, WAIT = 0, 1, 2


class Block:
    """A block of statements ready to run: its number, statements (the
    intermediate form's), citation, where it comes from, and `go`; for a block
    whose statements never wait (the form's `frameless`), `in_place` runs them
    with no frame of their own, `(game, env)`, and returns `NEXT` (nothing
    pushed), or `PUSHED` where a statement may have pushed a frame (to run next,
    in the block's place): one before the last leaves the rest of the block in a
    frame of its own, under what it pushed (`leave_rest`); else it is None."""

    __slots__ = ("id", "stmts", "cite", "where", "go", "form", "in_place")

    def __init__(self, form: Any, go: Callable[[Any, Frame], int],
                 in_place: Callable[[Any, dict[str, Any]], int] | None = None):
        self.form = form  # the intermediate form's block
        self.id: int = form.id
        self.stmts: tuple[Any, ...] = form.stmts
        self.cite = form.cite
        self.where: str = form.where
        self.go = go
        self.in_place = in_place

    def __repr__(self) -> str:
        return f"<Block {self.id} {self.where}>"


class Frame:
    """A block being run: position, bound names, loop state, a statement's state
    between decisions (`scratch`), and the event a reaction reads."""

    __slots__ = ("block", "pc", "env", "loop", "scratch", "event")

    def __init__(
        self,
        block: Block,
        env: dict[str, Any],
        loop: list[Any] | None = None,
        event: dict[str, Any] | None = None,
    ):
        # one by one: fewer steps than assigning them as tuples
        self.block = block
        self.pc = 0
        self.env = env
        self.loop = loop
        self.scratch: Any = None
        self.event = event


def run(g: Any) -> int:
    """Run the frames on top of `g.frames` until they finish or a decision is
    pending (WAIT)."""
    frames = g.frames
    while frames:
        f = frames[-1]
        # `go` read as a field, then called (as a method, a field's function is
        # looked up the slow way)
        go = f.block.go
        code = go(g, f)
        if not code:  # NEXT: the frame is done, or its loop goes round again
            loop = f.loop  # a list, never empty
            if loop and next_iteration(f, loop):
                continue
            frames.pop()
        elif code == WAIT:
            return WAIT
    return NEXT


def leave_rest(g: Any, height: int, block: Block, env: dict[str, Any], pc: int) -> int:
    """A block run in place (`Block.in_place`) whose statement before `pc` pushed
    frames onto `g.frames`, which stood `height` high before it: the rest of the
    block, from `pc`, left in a frame of its own under them (where its frame,
    had it run in one, would stand). Returns PUSHED."""
    f = Frame(block, env)
    f.pc = pc
    g.frames.insert(height, f)
    return PUSHED


def leave_rounds(g: Any, height: int, block: Block, env: dict[str, Any],
                 rounds: int) -> None:
    """A `repeat` whose rounds run in place (its body's `Block.in_place`), one of
    which pushed frames onto `g.frames`, which stood `height` high before it: the
    `rounds` left, if any, go round in a frame of their own under them."""
    if rounds > 0:
        g.frames.insert(height, Frame(block, env, ["repeat", rounds]))


def next_iteration(f: Frame, loop: list[Any]) -> bool:
    """Advance a `for each` or `repeat` frame; False when the loop is done."""
    if loop[0] == "repeat":
        if loop[1] <= 1:
            return False
        loop[1] -= 1
        f.pc = 0
        return True
    _, var, items, index = loop
    index += 1
    if index >= len(items):
        return False
    loop[3] = index
    f.env[var] = items[index]
    f.pc = 0
    return True


__all__ = ["NEXT", "PUSHED", "WAIT", "Block", "Frame", "leave_rest", "leave_rounds",
           "next_iteration", "run"]
