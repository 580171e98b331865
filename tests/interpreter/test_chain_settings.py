"""Chain settings the engine plays, so that a rule removed is a rule gone: a link
resolves inside the ability that performs it (`perform ... inline`) only where
the chain section says `deployed_spells inline` (13th Deploy; the 17th inherits
it), and a chain resolves newest link first, the one order the language states
(`resolve last_in_first_out`, 12th to 17th Chains): `kotc check` refuses a chain
section without either where its programs need it."""

from __future__ import annotations

import pytest


def _house(tmp_path, parent: str, removed: str, section: str):
    house = tmp_path / "house.kotc"
    house.write_text(f'edition "house" number 18 extends "{parent}"\n'
                     '  source "A chain rule removed"\n\n'
                     'chain {\n'
                     f'  remove setting {removed}  @ "{section}"\n'
                     '}\n', encoding="utf-8")
    return house


@pytest.mark.parametrize("parent", ["13th", "17th"])
def test_a_spell_performed_inline_needs_the_chain_sections_word(kotc, tmp_path, parent):
    code, out, err = kotc("check", parent)
    assert code == 0, out + err
    house = _house(tmp_path, parent, "deployed_spells_inline", "Deploy")
    code, out, err = kotc("check", str(house))
    assert code == 2, out + err
    assert f"{parent}.kotc:" in out + err
    assert "`perform cast(...) inline`" in out + err
    assert "`deployed_spells inline`" in out + err


def test_a_chain_that_does_not_resolve_newest_first_is_refused(kotc, tmp_path):
    house = _house(tmp_path, "17th", "resolve_last_in_first_out", "Chains")
    code, out, err = kotc("check", str(house))
    assert code == 2, out + err
    assert "the chain section has no `resolve` rule" in out + err
