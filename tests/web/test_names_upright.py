"""The score table's names stand upright whenever they fit (issue 35): the view's estimate."""

from __future__ import annotations

import pytest

from scorekeeper.web.sheet_parts import names_stand_upright


@pytest.mark.parametrize(
    ("names", "upright"),
    [
        (["Ada", "Bo", "Cy", "Di"], True),
        (["Anna", "Bern", "Clara", "Dora"], True),
        (["Anna", "Bernd", "Clara", "Dora"], False),  # 2.68 ems in a column of 2.6
        (["Gustav", "Wilhelm", "Ingrid"], True),
        (["Maximilian", "Bo", "Cy"], False),
        (["Anna Lena", "Bo", "Cy", "Di"], True),  # a name breaks at its space: its longest word counts
        (["漢字漢", "Bo", "Cy", "Di"], False),  # wide letters count one em each
        (["Maximilian", "Bartholomäus"], True),  # two players: wide columns
    ],
)
def test_names_stand_upright_when_their_longest_word_fits_at_320_px(names, upright):
    assert names_stand_upright(names) is upright
