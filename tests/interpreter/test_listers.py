"""The options a window keeps from one listing to the next (`listers._Made`)."""

from __future__ import annotations

from interpreter.listers import _Made


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
