"""What a window's writing does to its lines, and the options it keeps."""

from __future__ import annotations

from interpreter.listers import _copies_merged, _live, _Made


def test_a_branch_under_if_false_goes_and_its_else_is_kept():
    text = (
        "    if False:\n"
        "        _3 = _2.stats[env['x']]\n"
        "    else:\n"
        "        _3 = _2.x\n"
        "    _4 = not _3\n"
    )
    assert _live(text) == "    _3 = _2.x\n    _4 = not _3\n"


def test_an_if_false_before_an_elif_leaves_the_elif_as_the_if():
    text = "    if False:\n        a\n    elif b:\n        c\n    else:\n        d\n"
    assert _live(text) == "    if b:\n        c\n    else:\n        d\n"


def test_an_elif_false_goes():
    text = "    if a:\n        b\n    elif False:\n        c\n    else:\n        d\n"
    assert _live(text) == "    if a:\n        b\n    else:\n        d\n"


def test_a_branch_of_more_than_one_line_is_left():
    text = "    if False:\n        a\n        b\n    else:\n        c\n"
    assert _live(text) == text


def test_a_local_copied_at_once_and_read_nowhere_else_is_not_set():
    lines = ["    _2 = _1 == 3", "    _4 = _2", "    if _4:", "        _5 = _4"]
    assert _copies_merged(lines) == ["    _4 = _1 == 3", "    if _4:", "        _5 = _4"]


def test_a_local_read_again_is_still_copied():
    lines = ["    _2 = _1 == 3", "    _4 = _2", "    _6 = _2"]
    assert _copies_merged(lines) == lines


def test_a_copy_at_another_depth_is_left():
    lines = ["        _2 = _1 == 3", "    _4 = _2"]
    assert _copies_merged(lines) == lines


class _Namer:
    def label_of(self, action) -> str:
        return f"{action.value[0]} {action.value[1][0]}"


def test_an_option_listed_again_is_the_same_action_with_its_label():
    made = _Made()
    made.namer = _Namer()
    first = made[("summon", (3,))]
    assert made[("summon", (3,))] is first
    assert made[("summon", (4,))] is not first
    assert (first.kind, first.value, first.label) == ("act", ("summon", (3,)), "summon 3")
