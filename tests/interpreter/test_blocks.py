"""A block's written function (`Block.go`): where it starts, stops and resumes."""

from __future__ import annotations

from types import SimpleNamespace

from kotc.compiler.programs import NEXT, PUSHED, WAIT, Block, Frame, run


def _statements(calls: list):
    """s0 simple; s1 waits until answered; s2 fires something that pushes a frame
    and goes on; s3 pushes a frame of its own, moving on first."""

    def s0(g, f):
        calls.append("s0")
        return NEXT

    s0.simple = True

    def s1(g, f):
        calls.append(("s1", f.pc))
        if g.answer is None:
            return WAIT
        g.answer = None
        return NEXT

    def s2(g, f):
        calls.append(("s2", f.pc))
        g.frames.append(Frame(g.inner, {}))
        return NEXT

    def s3(g, f):
        calls.append(("s3", f.pc))
        f.pc += 1
        g.frames.append(Frame(g.inner, {}))
        return PUSHED

    return [s0, s1, s2, s3]


def _game(calls: list) -> SimpleNamespace:
    def note(g, f):
        calls.append("inner")
        return NEXT

    note.simple = True
    return SimpleNamespace(frames=[], answer=None, inner=Block(1, [note], None, "inner"))


def test_a_block_stops_where_a_statement_waits_and_resumes_there():
    calls: list = []
    g = _game(calls)
    f = Frame(Block(0, _statements(calls), None, "test"), {})
    g.frames.append(f)
    assert f.block.go(g, f) == WAIT and f.pc == 1
    assert calls == ["s0", ("s1", 1)]
    g.answer = "yes"
    # the frame's position decides where it picks up: s0 is not run again
    assert f.block.go(g, f) == PUSHED and f.pc == 3
    assert calls[2:] == [("s1", 1), ("s2", 2)]
    assert g.frames[-1].block is g.inner


def test_run_finishes_the_frames_each_statement_once_in_order():
    calls: list = []
    g = _game(calls)
    g.answer = "yes"
    g.frames.append(Frame(Block(0, _statements(calls), None, "test"), {}))
    assert run(g) == NEXT and g.frames == []
    assert calls == ["s0", ("s1", 1), ("s2", 2), "inner", ("s3", 3), "inner"]


def test_an_empty_block_is_done_at_once():
    g = _game([])
    f = Frame(Block(0, [], None, "empty"), {})
    assert f.block.go(g, f) == NEXT and f.pc == 0
