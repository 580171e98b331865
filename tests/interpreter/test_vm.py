"""The program machine (`kotc.runtime.vm`): a frame stops where a statement waits
and resumes there; `run` finishes the frames on top, each block's statements once,
in order, what is pushed before what pushed it."""

from __future__ import annotations

from types import SimpleNamespace

from kotc.compiler import ir
from kotc.runtime.vm import NEXT, PUSHED, WAIT, Block, Frame, run


def _block(number: int, go) -> Block:
    return Block(ir.Block(number, (), None, f"block {number}"), go)


def _game(calls: list) -> SimpleNamespace:
    def inner(g, f):
        calls.append("inner")
        return NEXT

    return SimpleNamespace(frames=[], answer=None, inner=_block(1, inner))


def _outer(calls: list):
    """Position 0 notes itself; 1 waits until answered; 2 pushes the inner block
    and moves on first; 3 notes itself."""

    def go(g, f):
        while True:
            pc = f.pc
            if pc == 0:
                calls.append("s0")
            elif pc == 1:
                calls.append("s1")
                if g.answer is None:
                    return WAIT
                g.answer = None
            elif pc == 2:
                calls.append("s2")
                f.pc = 3
                g.frames.append(Frame(g.inner, {}))
                return PUSHED
            elif pc == 3:
                calls.append("s3")
            else:
                return NEXT
            f.pc = pc + 1

    return go


def test_a_frame_stops_where_it_waits_and_resumes_there():
    calls: list = []
    g = _game(calls)
    g.frames.append(Frame(_block(0, _outer(calls)), {}))
    assert run(g) == WAIT and g.frames[-1].pc == 1
    g.answer = "yes"
    assert run(g) == NEXT and g.frames == []
    assert calls == ["s0", "s1", "s1", "s2", "inner", "s3"]


def test_loops_go_round_with_the_next_item_bound():
    seen: list = []

    def body(g, f):
        seen.append(f.env["x"])
        return NEXT

    g = _game([])
    g.frames.append(Frame(_block(0, body), {"x": "a"}, ["each", "x", ["a", "b", "c"], 0]))
    g.frames.append(Frame(_block(0, body), {"x": 0}, ["repeat", 2]))
    assert run(g) == NEXT and g.frames == []
    assert seen == [0, 0, "a", "b", "c"]
