"""The card-text rulings of `rulings/` (counters removed by costs and effects...),
played under each edition they name, as `tests/test_scenarios.py` plays the
shipped ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from kotc.checking.scenario_run import run_scenario
from kotc.dsl.scenarios import load_scenarios, scenario_files

RULINGS = Path(__file__).parent / "rulings"


def _cases():
    files, _ = scenario_files([RULINGS])
    for f in files:
        for s in load_scenarios(f):
            for e in s.editions:
                yield pytest.param(s, e, id=f"{f.name}::{s.name}[{e}]")


@pytest.mark.parametrize("scenario, edition", list(_cases()))
def test_card_ruling(scenario, edition):
    result = run_scenario(scenario, edition)
    assert result.status == "passed", "\n".join(str(f) for f in result.failures)


def test_every_edition_has_a_counter_removal_ruling():
    files, _ = scenario_files([RULINGS])
    editions = {e for f in files for s in load_scenarios(f) for e in s.editions}
    assert editions == {"11th", "12th", "13th", "17th"}
