"""What a window's function is written to do: keep its options from one listing
to the next (`listers._Made`), make `env` only where it is read."""

from __future__ import annotations

import re

from kotc.compiler.listers import _Made


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


def test_a_window_makes_env_only_where_a_line_reads_it():
    """An action whose lines read nothing of `env` neither makes nor binds it (a
    pop reads its counter's kind from its local); one that does, after a cast has
    bound names in it, makes it anew after its pre-check of the hand (see
    `_Window.env_later`). What is listed stays the binders' (see test_binder)."""
    from kotc.dsl import load_edition
    from kotc.engine.game import Engine

    referee = Engine(load_edition("17th"), []).referee
    for unread in (("summon",), ("agree_to_end",)):
        assert "env" not in referee._window(unread).source
    assert "env[" not in referee._window(("pop", "cast")).source.split("('pop', ")[0]
    referee = Engine(load_edition("11th"), []).referee
    lines = referee._window(("cast", "activate_trap")).source.splitlines()
    made = [i for i, line in enumerate(lines) if line.strip().startswith("env = ")]
    # the pre-check of the hand sets a flag in a loop; `env` is made once it holds
    assert len(made) == 2 and re.fullmatch(r"\s*if _\d+:", lines[made[1] - 1])
    assert "break" in lines[made[1] - 2]
