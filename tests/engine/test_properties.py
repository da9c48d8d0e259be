"""Properties that hold for every kingdom and game, checked on random ones (hypothesis).

Connection (R2) depends only on edges and portal networks, so turning or
mirroring the grid never changes a row; places (R7) depend only on each
player's own rows, so reordering the players changes nobody's result.
"""

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    LEGENDS,
    POCKET,
    RULESETS,
    Card,
    Game,
    Kingdom,
    Player,
    Row,
    score_game,
    score_kingdom,
)
from scorekeeper.engine.kingdom import neighbours
from tests.conftest import examples

SIZE = 4
MODERATE = settings(max_examples=examples(200), deadline=None)

kingdoms = st.lists(st.sampled_from(list(Card)), min_size=16, max_size=16).map(lambda cards: Kingdom(tuple(cards)))
rulesets = st.sampled_from(list(RULESETS.values()))


def moved(cells: tuple, source: Callable[[int, int], tuple[int, int]]) -> tuple:
    """The 16 cells rearranged: cell (r, c) gets what was at ``source(r, c)`` (0-based)."""
    return tuple(cells[sr * SIZE + sc] for sr, sc in (source(r, c) for r in range(SIZE) for c in range(SIZE)))


def transformed(kingdom: Kingdom, source: Callable[[int, int], tuple[int, int]]) -> Kingdom:
    return Kingdom(moved(kingdom.cards, source))


LAST = SIZE - 1
SYMMETRIES = {
    "rotate 90": lambda r, c: (LAST - c, r),
    "rotate 180": lambda r, c: (LAST - r, LAST - c),
    "rotate 270": lambda r, c: (c, LAST - r),
    "mirror left-right": lambda r, c: (r, LAST - c),
    "mirror top-bottom": lambda r, c: (LAST - r, c),
}


def test_symmetries_move_cells_as_expected():
    cells = tuple(range(16))
    # Turning clockwise brings the left column up to the top row, bottom card first.
    assert moved(cells, SYMMETRIES["rotate 90"])[:4] == (12, 8, 4, 0)
    assert moved(cells, SYMMETRIES["rotate 180"]) == tuple(reversed(cells))
    assert moved(cells, SYMMETRIES["rotate 270"])[:4] == (3, 7, 11, 15)
    assert moved(cells, SYMMETRIES["mirror left-right"])[:4] == (3, 2, 1, 0)
    assert moved(cells, SYMMETRIES["mirror top-bottom"])[:4] == (12, 13, 14, 15)
    assert moved(moved(cells, SYMMETRIES["rotate 90"]), SYMMETRIES["rotate 270"]) == cells


@MODERATE
@given(kingdom=kingdoms, ruleset=rulesets, symmetry=st.sampled_from(sorted(SYMMETRIES)))
def test_R2_turning_or_mirroring_the_kingdom_never_changes_a_row(kingdom, ruleset, symmetry):
    before = score_kingdom(kingdom, ruleset).rows
    after = score_kingdom(transformed(kingdom, SYMMETRIES[symmetry]), ruleset).rows
    assert after == before


@MODERATE
@given(kingdom=kingdoms)
def test_R2_3_links_are_pairs_of_distinct_non_portal_cards_listed_by_cell_order(kingdom):
    for (a, b), link in kingdom.links.items():
        assert a < b and link.cells == (a, b)
        assert Card.PORTAL not in (kingdom.cards[a], kingdom.cards[b])  # R2.2
        assert link.adjacent or link.networks
    for cell in range(16):
        others = [other for other, _ in kingdom.linked_to(cell)]
        assert others == sorted(set(others)) and cell not in others
        assert all(cell in [o for o, _ in kingdom.linked_to(other)] for other in others)


@MODERATE
@given(kingdom=kingdoms, ruleset=rulesets)
def test_R7_1_total_is_the_sum_of_the_rows(kingdom, ruleset):
    scored = score_kingdom(kingdom, ruleset)
    assert list(scored.rows) == list(Row)
    assert scored.total == sum(scored.rows.values())


@MODERATE
@given(kingdom=kingdoms, ruleset=rulesets)
def test_explanations_are_the_rows_explained_one_by_one(kingdom, ruleset):
    scored = score_kingdom(kingdom, ruleset, ["four-tribes"])
    assert scored.explanations() == {row: scored.explain(row) for row in Row}
    assert list(scored.explanations()) == list(Row)


@MODERATE
@given(kingdom=kingdoms)
def test_R3_tribe_land_records_say_what_the_points_are(kingdom):
    """The records a tribe line is written from: each connected land once, by
    cell order, reached beside the card or through a portal network it
    shares (never for Goblins, R2.1), and adding up to the card's points."""
    for tribe in score_kingdom(kingdom, POCKET).tribes:
        assert [lp.cell for lp in tribe.lands] == sorted({lp.cell for lp in tribe.lands})
        assert tribe.message_id == ("tribe-lands" if tribe.lands else "tribe-no-land")
        for lp in tribe.lands:
            assert lp.land.is_land and lp.land is kingdom.cards[lp.cell]
            assert lp.adjacent or lp.networks
            assert lp.adjacent == (lp.cell in neighbours(tribe.cell))
            assert all(tribe.cell in n.members and lp.cell in n.members for n in lp.networks)
            if tribe.tribe is Card.GOBLINS:
                assert lp.adjacent and not lp.networks
        assert tribe.points == sum(lp.points for lp in tribe.lands)


@MODERATE
@given(kingdom=kingdoms, ruleset=rulesets)
def test_R4_4_R5_rows_have_their_sign_and_step(kingdom, ruleset):
    rows = score_kingdom(kingdom, ruleset).rows
    assert rows[Row.CONFLICTS] <= 0 and rows[Row.CONFLICTS] % 2 == 0
    dragons = kingdom.count(Card.DRAGON)
    if dragons == 0:
        assert rows[Row.DRAGONS] == 0
    else:
        value = ruleset.dragon_value(dragons)
        assert rows[Row.DRAGONS] % value == 0
        assert -dragons * value <= rows[Row.DRAGONS] <= min(dragons, 3) * value
    assert rows[Row.DWARVES] >= 0 and rows[Row.DWARVES] % 2 == 0  # only Mountains score, +2 each
    assert rows[Row.GOBLINS] >= 0 and rows[Row.GOBLINS] % 3 == 0  # only Swamps score, +3 each


@st.composite
def games(draw) -> Game:
    """2–4 players with random kingdoms and disjoint random Legends (R6.1)."""
    count = draw(st.integers(min_value=2, max_value=4))
    legend_ids = draw(st.permutations([legend.id for legend in LEGENDS]))
    claims = draw(st.lists(st.integers(min_value=0, max_value=3), min_size=count, max_size=count))
    players, start = [], 0
    for index, claimed in enumerate(claims):
        legends = tuple(legend_ids[start : start + claimed])
        start += claimed
        players.append(Player(f"P{index + 1}", draw(kingdoms), legends))
    return Game(tuple(players), draw(rulesets))


def results_by_name(game: Game) -> dict[str, tuple[dict, int, int]]:
    return {r.player.name: (r.rows, r.total, r.place) for r in score_game(game).results}


@MODERATE
@given(game=games(), data=st.data())
def test_R7_reordering_players_changes_no_one_s_rows_total_or_place(game, data):
    order = data.draw(st.permutations(game.players))
    reordered = Game(tuple(order), game.ruleset)
    assert results_by_name(reordered) == results_by_name(game)


@MODERATE
@given(game=games())
def test_R7_4_places_are_competition_ranking(game):
    sheet = score_game(game)
    places = sorted(r.place for r in sheet.results)
    assert places[0] == 1
    for place in set(places):
        # Standard competition ranking (1, 1, 3): place p has exactly p - 1 players ahead.
        assert sum(1 for p in places if p < place) == place - 1
    assert len(sheet.winners) == places.count(1) >= 1


@MODERATE
@given(game=games())
def test_R7_2_R7_3_places_follow_totals_then_sorted_rows(game):
    results = score_game(game).results
    for a in results:
        for b in results:
            if a.total > b.total:
                assert a.place < b.place
            elif a.total == b.total and a.tiebreak_key > b.tiebreak_key:
                assert a.place < b.place
            elif a.total == b.total and a.tiebreak_key == b.tiebreak_key:
                assert a.place == b.place


@MODERATE
@given(game=games())
def test_R7_5_every_tiebreak_names_the_first_differing_position(game):
    sheet = score_game(game)
    for tiebreak in sheet.tiebreaks:
        ahead, behind = sheet.results[tiebreak.ahead], sheet.results[tiebreak.behind]
        assert ahead.total == behind.total == tiebreak.total
        position = tiebreak.position - 1
        assert ahead.tiebreak_key[:position] == behind.tiebreak_key[:position]
        assert tiebreak.values == (ahead.tiebreak_key[position], behind.tiebreak_key[position])
        assert tiebreak.values[0] > tiebreak.values[1]
        assert ahead.place < behind.place


@MODERATE
@given(game=games())
def test_game_file_round_trip(game):
    again = Game.from_dict(game.to_dict())
    assert again == game


def test_pocket_is_the_default_ruleset():
    assert Game(()).ruleset is POCKET
