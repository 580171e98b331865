"""The statements that only read their operands and call one primitive of the
game are lowered by one table (`lower.PRIMITIVES`) to one form (`ir.Primitive`):
each row must name a primitive `Game` has, fields its statement has, and as many
operands (and the citation, where it says so) as the primitive takes."""

from __future__ import annotations

import inspect
from dataclasses import fields

import pytest
from kotc.compiler import ir
from kotc.compiler.lower import PRIMITIVES
from kotc.engine.game import Game


@pytest.mark.parametrize("stmt", list(PRIMITIVES), ids=lambda c: c.__name__)
def test_each_row_fits_its_statement_and_its_primitive(stmt):
    call = PRIMITIVES[stmt]
    names = {f.name for f in fields(stmt)}
    assert {name for name, _ in call.operands} <= names
    reads = [read for _, read in call.operands]
    assert set(reads) <= {ir.VALUE, ir.LIST, ir.EACH}
    assert reads.count(ir.EACH) <= 1
    method = getattr(Game, call.name)
    params = list(inspect.signature(method).parameters)[1:]  # the game apart
    assert len(params) == len(call.operands) + call.cited, (call.name, params)
