"""The engine agrees with bench/reference.py, a plain-loops scorer written
separately from RULES.md, on random kingdoms in both rulesets (R2–R5, R9)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import RULESETS, Card, Kingdom, Row, score_kingdom
from tests.conftest import examples

_spec = importlib.util.spec_from_file_location("reference", Path(__file__).parents[2] / "bench" / "reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

kingdoms = st.lists(
    st.lists(st.sampled_from([card.value for card in Card]), min_size=4, max_size=4), min_size=4, max_size=4
)


@settings(max_examples=examples(300), deadline=None)
@given(kingdoms, st.sampled_from(sorted(RULESETS)))
def test_engine_rows_equal_the_reference(grid, ruleset):
    score = score_kingdom(Kingdom.from_rows(grid), RULESETS[ruleset])
    rows = {row.value: value for row, value in score.rows.items() if row is not Row.LEGENDS}
    assert rows == reference.score(grid, ruleset)
