"""R6: a claimed Legend counts whatever the final kingdom shows; its line of
"why these points" says when the kingdom no longer shows the requirement.

Kingdoms are 16 two-letter card codes, row by row, as in test_rules.py.
"""

import pytest

from scorekeeper.engine import LEGENDS, LEGENDS_BY_ID, POCKET, Game, is_legend_shown, score_game, score_kingdom
from scorekeeper.words import ENGLISH
from tests.engine.test_rules import ALL_PLAINS, kingdom

SHOWN = [
    ("tribes-dwarves", "Dw Dw Pl Pl " + "Pl " * 12),
    ("tribes-elves", "El Po El Pl " + "Pl " * 12),  # through a portal (R2)
    ("alliance-humans-elves", "Hu Pl Pl Pl El " + "Pl " * 11),
    ("battle-goblins-humans", "Go Hu Go Pl " + "Pl " * 12),  # two Goblins on one Humans card
    ("battle-goblins-humans", "Hu Go Hu Pl " + "Pl " * 12),  # or two Humans on one Goblin
    ("battle-elves-dwarves", "El Po Pl Pl Dw El " + "Pl " * 10),
    ("lands-forest", "Fo Fo Pl Pl Pl Fo " + "Pl " * 10),  # an L of three
    ("lands-forest", "Fo Po Fo Pl Pl Fo " + "Pl " * 10),  # r1c1 and r1c3 through the portal, r2c2 beside it
    ("four-tribes", "El Dw Hu Go " + "Pl " * 12),  # need not be connected
]
NOT_SHOWN = [
    ("tribes-dwarves", ALL_PLAINS),  # the kingdom without Dwarves
    ("tribes-dwarves", "Dw Pl Dw Pl " + "Pl " * 12),
    ("tribes-dwarves", "Dw Pl Pl Pl Pl Dw " + "Pl " * 10),  # diagonals never count
    ("tribes-goblins", "Go Po Go Pl " + "Pl " * 12),  # R2.1: never through a portal
    ("battle-goblins-humans", "Go Hu Pl Pl " + "Pl " * 12),  # one Goblin is not two
    ("battle-goblins-humans", "Go Po Hu Pl Go " + "Pl " * 11),  # r1c1 reaches r1c3 only through the portal
    ("lands-forest", "Fo Fo Pl Fo " + "Pl " * 12),
    ("four-tribes", "El Dw Hu Pl " + "Pl " * 12),
]


@pytest.mark.parametrize(("legend", "grid"), SHOWN)
def test_R6_a_kingdom_that_shows_the_requirement(legend, grid):
    assert is_legend_shown(LEGENDS_BY_ID[legend], kingdom(grid))


@pytest.mark.parametrize(("legend", "grid"), NOT_SHOWN)
def test_R6_a_kingdom_that_no_longer_shows_the_requirement(legend, grid):
    assert not is_legend_shown(LEGENDS_BY_ID[legend], kingdom(grid))


def test_R6_every_legend_is_shown_by_some_kingdom_and_not_by_all_plains():
    legends = {legend for legend, _grid in SHOWN}
    assert legends | {"tribes-humans", "tribes-goblins", "alliance-humans-dwarves", "battle-goblins-elves",
                      "battle-goblins-dwarves", "lands-plain", "lands-swamp", "lands-mountain"} == {
        legend.id for legend in LEGENDS
    }  # fmt: skip
    for legend in LEGENDS:
        assert is_legend_shown(legend, kingdom(ALL_PLAINS)) is (legend.id == "lands-plain")


def test_R6_a_claim_the_kingdom_no_longer_shows_still_counts_with_a_plain_note():
    score = score_kingdom(kingdom(ALL_PLAINS), POCKET, ["tribes-dwarves"])
    assert score.total == 2  # R6: never re-checked
    (claim,) = score.legend_claims()
    assert claim.message_id == "legend-not-shown"
    assert ENGLISH.reason(claim) == (
        "Tribe of Dwarves: 2 connected Dwarves → +2. Claimed at the table, so it counts (R6), "
        "but the final kingdom no longer shows it: is it ticked for the right player?"
    )
    shown = score_kingdom(kingdom("Dw Dw Pl Pl " + "Pl " * 12), POCKET, ["tribes-dwarves"])
    assert ENGLISH.reason(shown.legend_claims()[0]) == "Tribe of Dwarves: 2 connected Dwarves → +2"


def test_R6_the_notes_leave_every_total_as_it_was():
    game = {"players": [{"name": n, "kingdom": [["plain"] * 4] * 4, "legends": [legend]}
                        for n, legend in (("Ada", "tribes-dwarves"), ("Bo", "lands-plain"))]}  # fmt: skip
    sheet = score_game(Game.from_dict(game))
    assert [r.total for r in sheet.results] == [2, 4]
