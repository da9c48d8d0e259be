"""Small kingdoms, one rule each, with values checkable by hand from RULES.md.

Kingdoms are written as 16 two-letter card codes, row by row (``Card.code``):
Fo Sw Mo Pl (lands), El Dw Hu Go (tribes), Dr (Dragon), Po (Magical Portal).
Cells are named as the sheet names them: r1c1 is the top-left corner.
"""

import pytest

from scorekeeper.engine import (
    CLASSIC,
    LEGENDS,
    LEGENDS_BY_ID,
    POCKET,
    Card,
    DeckWarning,
    Game,
    Kingdom,
    Player,
    PortalNetwork,
    Row,
    Tiebreak,
    cards_over_deck,
    cell_name,
    deck_warnings,
    parse_card,
    score_game,
    score_kingdom,
)
from scorekeeper.engine.kingdom import neighbours
from scorekeeper.words import ENGLISH

ALL_PLAINS = " ".join(["Pl"] * 16)


def kingdom(grid: str) -> Kingdom:
    """A kingdom from 16 two-letter card codes, row by row."""
    return Kingdom(tuple(parse_card(code) for code in grid.split()))


def rows(grid: str, ruleset=POCKET, legends=()) -> dict[Row, int]:
    return score_kingdom(kingdom(grid), ruleset, legends).rows


def game(*players: tuple[str, str, list[str]], ruleset=POCKET) -> Game:
    """A game from ``(name, grid, legends)`` triples, in input order."""
    return Game(tuple(Player(name, kingdom(grid), tuple(legends)) for name, grid, legends in players), ruleset)


# R2. Connection


def test_R2_1_edge_neighbours_only_diagonals_never_count():
    assert neighbours(0) == (1, 4)  # r1c1: right and below
    assert neighbours(5) == (1, 4, 6, 9)  # r2c2: four edges
    assert neighbours(15) == (11, 14)  # r4c4
    diagonal = kingdom("""
        El Pl Pl Pl
        Pl Fo Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """)
    assert (0, 5) not in diagonal.links
    assert score_kingdom(diagonal, POCKET).rows[Row.ELVES] == 0


def test_R2_1_edge_neighbour_forest_counts():
    assert (
        rows("""
        El Fo Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """)[Row.ELVES]
        == 2
    )


def test_R2_single_portal_connects_its_edge_neighbours():
    k = kingdom("""
        Pl El Pl Pl
        Pl Po Fo Pl
        Pl Fo Pl Pl
        Pl Pl Pl Pl
    """)
    # Elves r1c2 reaches Forest r2c3 and Forest r3c2 only through the portal r2c2.
    assert k.portal_networks == (PortalNetwork(portals=(5,), members=(1, 4, 6, 9)),)
    assert score_kingdom(k, POCKET).rows[Row.ELVES] == 4


def test_R2_portal_chain_is_one_network():
    k = kingdom("""
        Pl El Pl Pl
        Pl Po Po Pl
        Pl Pl Po Pl
        Pl Pl Fo Pl
    """)
    assert k.portal_networks == (PortalNetwork(portals=(5, 6, 10), members=(1, 2, 4, 7, 9, 11, 14)),)
    # Elves r1c2 and Forest r4c3 both border the chain r2c2+r2c3+r3c3.
    assert score_kingdom(k, POCKET).rows[Row.ELVES] == 2
    assert ENGLISH.way(False, k.portal_networks) == "through portals r2c2+r2c3+r3c3"


def test_R2_two_networks_stay_apart():
    k = kingdom("""
        Po El Pl Pl
        Fo Pl Pl Pl
        Pl Pl Pl Fo
        Pl Pl Pl Po
    """)
    assert k.portal_networks == (
        PortalNetwork(portals=(0,), members=(1, 4)),
        PortalNetwork(portals=(15,), members=(11, 14)),
    )
    # Forest r2c1 shares portal r1c1 with the Elves; Forest r3c4 borders the other network.
    assert score_kingdom(k, POCKET).rows[Row.ELVES] == 2


def test_R2_1_goblin_beside_portal_reaches_nothing_through_it_and_does_not_block_it():
    grid = """
        Pl Go Pl Pl
        El Po Fo Pl
        Pl Sw Pl Pl
        Pl Pl Pl Pl
    """
    pocket = rows(grid)
    # Elves r2c1 through portal r2c2: Forest r2c3 +2, Swamp r3c2 -1.
    assert pocket[Row.ELVES] == 1
    # Goblins r1c2 borders the same portal but not Swamp r3c2: nothing.
    assert pocket[Row.GOBLINS] == 0
    # Goblins–Elves only through the portal: no conflict in pocket (R4.3).
    assert pocket[Row.CONFLICTS] == 0


def test_R2_2_portals_neither_score_nor_count_as_connected_cards():
    only_portals = kingdom(" ".join(["Po"] * 16))
    assert only_portals.links == {}
    assert set(score_kingdom(only_portals, POCKET).rows.values()) == {0}
    # A Dragon surrounded by portals has nothing connected: one wild Dragon, -3.
    lone_dragon = "Dr " + " ".join(["Po"] * 15)
    assert kingdom(lone_dragon).links == {}
    assert rows(lone_dragon)[Row.DRAGONS] == -3


def test_R2_3_pair_adjacent_and_through_a_portal_is_one_connection():
    k = kingdom("""
        El Fo Pl Pl
        Po Po Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """)
    link = k.links[(0, 1)]
    assert link.adjacent and len(link.networks) == 1
    assert score_kingdom(k, POCKET).rows[Row.ELVES] == 2  # not 4


def test_R2_3_pair_linked_through_two_networks_is_one_connection():
    grid = """
        Pl Pl Pl Pl
        Pl El Po Pl
        Pl Po Fo Pl
        Pl Pl Pl Pl
    """
    k = kingdom(grid)
    # Portals r2c3 and r3c2 touch only diagonally: two networks, both bordering both cards.
    assert len(k.portal_networks) == 2
    link = k.links[(5, 10)]
    assert not link.adjacent and len(link.networks) == 2
    assert rows(grid)[Row.ELVES] == 2  # not 4


def test_R2_3_R4_2_conflict_through_two_networks_counts_once():
    assert (
        rows("""
        Pl Pl Pl Pl
        Pl El Po Pl
        Pl Po Dw Pl
        Pl Pl Pl Pl
    """)[Row.CONFLICTS]
        == -2
    )


def test_R2_3_a_card_is_never_connected_to_itself():
    k = kingdom("""
        El Po Pl Pl
        Po Po Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """)
    assert all(a != b for a, b in k.links)
    assert [other for other, _ in k.linked_to(0)] == [2, 6, 8, 9]


def test_R2_4_connection_is_not_transitive_through_portals():
    grid = """
        El Po Hu Po
        Pl Pl Pl Fo
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """
    scored = rows(grid)
    # Elves r1c1 – Humans r1c3 (portal r1c2) and Humans – Forest r2c4 (portal r1c4),
    # but Elves – Forest is no connection.
    assert scored[Row.ELVES] == 0
    # Humans r1c3: Plain r2c3 +2 (adjacent), Plain r2c2 +2 (portal r1c2), Forest r2c4 +1.
    assert scored[Row.HUMANS] == 5


def test_R2_4_connection_is_not_transitive_between_neighbours():
    # Elves – Humans – Dwarves in a row: Elves and Dwarves are not connected.
    assert rows("El Hu Dw Pl " + " ".join(["Pl"] * 12))[Row.CONFLICTS] == 0


# R3. Tribe points

TRIBE_LAND_TABLE = [
    ("elves", "forest", 2),
    ("elves", "swamp", -1),
    ("elves", "mountain", 0),
    ("elves", "plain", 0),
    ("dwarves", "forest", 0),
    ("dwarves", "swamp", 0),
    ("dwarves", "mountain", 2),
    ("dwarves", "plain", 0),
    ("humans", "forest", 1),
    ("humans", "swamp", -1),
    ("humans", "mountain", 1),
    ("humans", "plain", 2),
    ("goblins", "forest", 0),
    ("goblins", "swamp", 3),
    ("goblins", "mountain", 0),
    ("goblins", "plain", 0),
]


@pytest.mark.parametrize(
    ("tribe", "land", "points"), TRIBE_LAND_TABLE, ids=[f"R3-{t}-{land}" for t, land, _ in TRIBE_LAND_TABLE]
)
def test_R3_tribe_scores_one_connected_land(tribe, land, points):
    # The tribe at r1c1, the land at r1c2, Dragons everywhere else (neither land nor tribe).
    cards = [Card.DRAGON] * 16
    cards[0], cards[1] = Card(tribe), Card(land)
    scored = score_kingdom(Kingdom(tuple(cards)), POCKET)
    assert scored.rows[Row(tribe)] == points
    assert [t.points for t in scored.tribes] == [points]


def test_R3_1_a_forest_next_to_two_elves_scores_for_each():
    scored = score_kingdom(kingdom("El Fo El " + " ".join(["Pl"] * 13)), POCKET)
    assert [(t.cell, t.points) for t in scored.tribes] == [(0, 2), (2, 2)]
    assert scored.rows[Row.ELVES] == 4


@pytest.mark.parametrize("ruleset", [POCKET, CLASSIC], ids=["pocket", "classic"])
def test_R3_2_goblins_score_only_edge_adjacent_swamps(ruleset):
    # Swamp r2c1 is an edge neighbour (+3); Swamp r1c3 only shares portal r1c2.
    assert (
        rows(
            """
        Go Po Sw Pl
        Sw Pl Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """,
            ruleset,
        )[Row.GOBLINS]
        == 3
    )


def test_R3_3_a_row_can_be_negative():
    assert (
        rows("""
        Pl Sw Pl Pl
        Sw El Sw Pl
        Pl Sw Pl Pl
        Pl Pl Pl Pl
    """)[Row.ELVES]
        == -4
    )


def test_R3_3_row_sums_every_card_of_the_type():
    # Humans r1c1: Forest +1, Plain +2; Humans r4c4: Swamp -1, Mountain +1.
    assert (
        rows("""
        Hu Fo Dr Dr
        Pl Dr Dr Dr
        Dr Dr Dr Sw
        Dr Dr Mo Hu
    """)[Row.HUMANS]
        == 3
    )


# R4. Conflicts

HATED_PAIRS = [
    # a, b, pocket, classic
    ("elves", "dwarves", -2, -2),
    ("goblins", "elves", -2, -2),
    ("goblins", "dwarves", -2, -2),
    ("goblins", "humans", -2, -2),
    ("goblins", "goblins", -2, 0),
    ("elves", "elves", 0, 0),
    ("dwarves", "dwarves", 0, 0),
    ("humans", "humans", 0, 0),
    ("humans", "elves", 0, 0),
    ("humans", "dwarves", 0, 0),
]


@pytest.mark.parametrize(
    ("a", "b", "ruleset", "points"),
    [(a, b, POCKET, p) for a, b, p, _ in HATED_PAIRS] + [(a, b, CLASSIC, c) for a, b, _, c in HATED_PAIRS],
    ids=[f"R4.1-{a}-{b}-pocket" for a, b, *_ in HATED_PAIRS] + [f"R9-{a}-{b}-classic" for a, b, *_ in HATED_PAIRS],
)
def test_R4_1_hated_pairs_side_by_side(a, b, ruleset, points):
    cards = [Card.PLAIN] * 16
    cards[0], cards[1] = Card(a), Card(b)
    assert score_kingdom(Kingdom(tuple(cards)), ruleset).rows[Row.CONFLICTS] == points


def test_R4_2_two_elves_one_dwarf_make_two_conflicts():
    scored = score_kingdom(kingdom("El Dw El " + " ".join(["Pl"] * 13)), POCKET)
    assert [c.cells for c in scored.conflicts] == [(0, 1), (1, 2)]
    assert scored.rows[Row.CONFLICTS] == -4


def test_R4_2_elves_and_dwarves_conflict_through_a_portal():
    scored = score_kingdom(kingdom("El Po Dw " + " ".join(["Pl"] * 13)), POCKET)
    assert scored.rows[Row.CONFLICTS] == -2
    conflict = scored.conflicts[0]
    assert (conflict.adjacent, [network.portals for network in conflict.networks]) == (False, [(1,)])


@pytest.mark.parametrize(("ruleset", "points"), [(POCKET, 0), (CLASSIC, -2)], ids=["R4.3-pocket", "R9-classic"])
def test_R4_3_goblin_conflicts_through_portals_only_in_classic(ruleset, points):
    assert rows("Go Po Hu " + " ".join(["Pl"] * 13), ruleset)[Row.CONFLICTS] == points


@pytest.mark.parametrize("ruleset", [POCKET, CLASSIC], ids=["R4.3-pocket", "R9-classic"])
def test_R4_3_goblins_through_a_portal_never_conflict_with_goblins(ruleset):
    assert rows("Go Po Go " + " ".join(["Pl"] * 13), ruleset)[Row.CONFLICTS] == 0


@pytest.mark.parametrize(("ruleset", "points"), [(POCKET, -8), (CLASSIC, 0)], ids=["R4.4-pocket", "R9-classic"])
def test_R4_4_conflicts_row_is_minus_two_per_conflict(ruleset, points):
    # Four Goblins in a square: four edge-adjacent pairs (the diagonals do not count).
    assert (
        rows(
            """
        Go Go Pl Pl
        Go Go Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """,
            ruleset,
        )[Row.CONFLICTS]
        == points
    )


def test_R4_4_no_conflict_row_is_zero():
    assert rows(ALL_PLAINS)[Row.CONFLICTS] == 0


# R5. Dragons

# Portals r2c2+r2c3+r3c2+r3c3 form one network bordering r1c2 r1c3 r2c1 r2c4 r3c1 r3c4 r4c2 r4c3.
# Two Elves sit at r1c2 and r1c3; Dragons take the other bordering cells.
DRAGON_CELLS = (4, 7, 8, 11, 13)


def dragons_around_portals(count: int, elves: bool) -> Kingdom:
    cards = [Card.PLAIN] * 16
    for cell in (5, 6, 9, 10):
        cards[cell] = Card.PORTAL
    if elves:
        cards[1] = cards[2] = Card.ELVES
    for cell in DRAGON_CELLS[:count]:
        cards[cell] = Card.DRAGON
    return Kingdom(tuple(cards))


DRAGON_ROWS = [
    # N, ruleset, all domesticated, all wild
    (1, POCKET, 3, -3),
    (2, POCKET, 8, -8),
    (3, POCKET, 15, -15),
    (4, POCKET, 10, -20),  # R5.3: 3 × 5 - 1 × 5
    (5, POCKET, 5, -25),  # R5.3: 3 × 5 - 2 × 5
    (1, CLASSIC, 3, -3),
    (2, CLASSIC, 10, -10),
    (3, CLASSIC, 18, -18),
    (4, CLASSIC, 12, -24),  # R9: 3 × 6 - 1 × 6
    (5, CLASSIC, 6, -30),  # R9: 3 × 6 - 2 × 6
]
DRAGON_IDS = [f"{'R5.3' if n >= 4 else 'R5.2'}-{n}-dragons-{rs.id}" for n, rs, *_ in DRAGON_ROWS]


@pytest.mark.parametrize(("count", "ruleset", "tamed", "wild"), DRAGON_ROWS, ids=DRAGON_IDS)
def test_R5_2_dragon_values_by_number_of_dragons(count, ruleset, tamed, wild):
    domesticated = score_kingdom(dragons_around_portals(count, elves=True), ruleset)
    assert all(d.is_domesticated for d in domesticated.dragons)
    assert domesticated.rows[Row.DRAGONS] == tamed
    untamed = score_kingdom(dragons_around_portals(count, elves=False), ruleset)
    assert not any(d.is_domesticated for d in untamed.dragons)
    assert untamed.rows[Row.DRAGONS] == wild


@pytest.mark.parametrize(("count", "beyond"), [(4, 1), (5, 2)], ids=["R5.3-4-dragons", "R5.3-5-dragons"])
def test_R5_3_only_three_domesticated_dragons_count_positive(count, beyond):
    dragons = score_kingdom(dragons_around_portals(count, elves=True), POCKET).dragons
    assert sorted(d.points for d in dragons) == [-5] * beyond + [5] * 3
    assert [d.beyond_limit for d in dragons].count(True) == beyond
    assert all(d.points == -5 for d in dragons if d.beyond_limit)


def test_R5_3_four_dragons_two_domesticated_cancel_out():
    scored = score_kingdom(
        kingdom("""
        El Dr El Pl
        Pl Pl Pl Pl
        Hu Dr Hu Pl
        Dr Pl Pl Dr
    """),
        POCKET,
    )
    # Dragon r1c2 (two Elves) and r3c2 (two Humans) domesticated; r4c1 and r4c4 wild.
    assert [(d.cell, d.is_domesticated) for d in scored.dragons] == [
        (1, True),
        (9, True),
        (12, False),
        (15, False),
    ]
    assert scored.rows[Row.DRAGONS] == 5 * 2 - 5 * 2


def test_R5_1_goblins_never_tame():
    scored = score_kingdom(
        kingdom("""
        Pl Go Pl Pl
        Go Dr Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """),
        POCKET,
    )
    assert scored.dragons[0].tamers == ()
    assert scored.rows[Row.DRAGONS] == -3


def test_R5_1_mixed_tribes_do_not_tame():
    # One Elves, one Humans, one Dwarves around the Dragon: no two of one type.
    assert (
        rows("""
        Pl El Pl Pl
        Hu Dr Dw Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """)[Row.DRAGONS]
        == -3
    )


def test_R5_1_two_of_one_type_tame_whatever_else_is_connected():
    scored = score_kingdom(
        kingdom("""
        Pl El Pl Pl
        Go Dr El Pl
        Pl Hu Pl Pl
        Pl Pl Pl Pl
    """),
        POCKET,
    )
    assert scored.dragons[0].tamers == ((Card.ELVES, (1, 6)),)
    assert scored.rows[Row.DRAGONS] == 3


def test_R5_1_dragon_is_tamed_through_a_portal():
    scored = score_kingdom(
        kingdom("""
        Dr Po Hu Pl
        Pl Hu Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """),
        POCKET,
    )
    assert scored.dragons[0].tamers == ((Card.HUMANS, (2, 5)),)
    assert scored.rows[Row.DRAGONS] == 3


def test_R5_1_goblins_through_a_portal_do_not_tame_either():
    assert (
        rows("""
        Dr Po Go Pl
        Pl Go Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """)[Row.DRAGONS]
        == -3
    )


def test_R5_no_dragon_no_dragon_points():
    assert rows(ALL_PLAINS)[Row.DRAGONS] == 0


# R6. Legends

LEGEND_VALUES = [
    ("tribes-elves", 2),
    ("tribes-dwarves", 2),
    ("tribes-humans", 2),
    ("tribes-goblins", 2),
    ("alliance-humans-elves", 2),
    ("alliance-humans-dwarves", 2),
    ("battle-goblins-humans", 3),
    ("battle-goblins-elves", 3),
    ("battle-goblins-dwarves", 3),
    ("battle-elves-dwarves", 3),
    ("lands-plain", 4),
    ("lands-swamp", 4),
    ("lands-mountain", 4),
    ("lands-forest", 4),
    ("four-tribes", 4),
]


@pytest.mark.parametrize(("legend_id", "value"), LEGEND_VALUES, ids=[f"R6-{i}" for i, _ in LEGEND_VALUES])
def test_R6_legend_printed_value(legend_id, value):
    assert LEGENDS_BY_ID[legend_id].value == value


def test_R6_there_are_fifteen_legends():
    assert [legend.id for legend in LEGENDS] == [legend_id for legend_id, _ in LEGEND_VALUES]


def test_R6_2_legends_row_is_the_sum_and_requirements_are_not_rechecked():
    # An all-Plains kingdom meets none of these requirements; claimed Legends stay claimed.
    claimed = ["tribes-elves", "battle-elves-dwarves", "lands-forest", "four-tribes"]
    assert rows(ALL_PLAINS, legends=claimed)[Row.LEGENDS] == 2 + 3 + 4 + 4


def test_R6_2_all_fifteen_legends():
    assert rows(ALL_PLAINS, legends=[i for i, _ in LEGEND_VALUES])[Row.LEGENDS] == 6 * 2 + 4 * 3 + 5 * 4


def test_R6_2_no_legend_no_points():
    assert rows(ALL_PLAINS)[Row.LEGENDS] == 0


# R7. Total, places and tiebreak


def test_R7_1_total_is_the_sum_of_the_seven_rows():
    scored = score_kingdom(
        kingdom("""
        El Dw Fo Pl
        Go Sw Dr Hu
        Pl Hu Mo Po
        Pl Pl Pl Pl
    """),
        POCKET,
        ["four-tribes"],
    )
    assert len(scored.rows) == 7
    assert scored.total == sum(scored.rows.values())


def test_R7_2_higher_total_places_higher():
    sheet = score_game(
        game(
            ("Ada", ALL_PLAINS, ["lands-plain"]),
            ("Bo", ALL_PLAINS, ["tribes-elves"]),
            ("Cy", ALL_PLAINS, ["battle-elves-dwarves"]),
        )
    )
    assert [(r.total, r.place) for r in sheet.results] == [(4, 1), (2, 3), (3, 2)]
    assert [r.player.name for r in sheet.winners] == ["Ada"]
    assert [r.player.name for r in sheet.ranked] == ["Ada", "Cy", "Bo"]
    assert sheet.tiebreaks == () and sheet.shared == ()


# Three players on 8 Harmony Points:
#   Ada: Elves 4 (two Forests), Legends 4          sorted rows 4, 4, 0, …
#   Bo:  Dwarves 4 (two Mountains), Legends 3, Humans 1 (one Forest)   sorted 4, 3, 1, 0, …
#   Cy:  Legends 4, Goblins 3 (one Swamp), Humans 1                     sorted 4, 3, 1, 0, …
# and Di on 2. Ada beats Bo and Cy at position 2 (4 vs 3); Bo and Cy share place 2.
TIED_GAME = (
    ("Ada", "El Fo Pl Pl  Fo Pl Pl Pl  Pl Pl Pl Pl  Pl Pl Pl Pl", ["lands-forest"]),
    ("Bo", "Dw Mo Pl Pl  Mo Pl Pl Pl  Pl Pl Pl Dw  Pl Pl Fo Hu", ["battle-goblins-dwarves"]),
    ("Cy", "Go Sw Pl Pl  Pl Pl Pl Pl  Pl Pl Pl Dw  Pl Pl Fo Hu", ["lands-plain"]),
    ("Di", ALL_PLAINS, ["tribes-humans"]),
)


def test_R7_3_tiebreak_compares_sorted_rows_position_by_position():
    sheet = score_game(game(*TIED_GAME))
    assert [r.total for r in sheet.results] == [8, 8, 8, 2]
    assert [r.tiebreak_key for r in sheet.results[:3]] == [
        [4, 4, 0, 0, 0, 0, 0],
        [4, 3, 1, 0, 0, 0, 0],
        [4, 3, 1, 0, 0, 0, 0],
    ]
    assert [r.place for r in sheet.results] == [1, 2, 2, 4]


def test_R7_5_sheet_states_position_and_values_that_decided():
    sheet = score_game(game(*TIED_GAME))
    assert sheet.tiebreaks == (Tiebreak(ahead=0, behind=1, total=8, position=2, values=(4, 3)),)
    assert ENGLISH.tiebreak(sheet, sheet.tiebreaks[0]) == (
        "Ada ahead of Bo: both have 8 Harmony Points; with their rows sorted from highest to lowest, "
        "the second-highest row decides, 4 vs 3."
    )
    assert sheet.shared == ((1, 2),)
    assert ENGLISH.shared(sheet, sheet.shared[0]).startswith("Bo and Cy share place 2")


def test_R7_3_tiebreak_decided_at_position_one():
    # Ada: Elves 6. Bo: Dwarves 4 + Legends 2. Both 6; 6 vs 4 at position 1.
    sheet = score_game(
        game(
            ("Ada", "Fo El Fo Pl  Pl Fo Pl Pl  Pl Pl Pl Pl  Pl Pl Pl Pl", []),
            ("Bo", "Dw Mo Pl Pl  Mo Pl Pl Pl  Pl Pl Pl Pl  Pl Pl Pl Pl", ["tribes-dwarves"]),
        )
    )
    assert [r.place for r in sheet.results] == [1, 2]
    assert sheet.tiebreaks == (Tiebreak(ahead=0, behind=1, total=6, position=1, values=(6, 4)),)


def test_R7_3_tiebreak_lower_in_input_order_can_win():
    sheet = score_game(
        game(
            ("Ada", ALL_PLAINS, ["tribes-elves", "tribes-dwarves"]),  # Legends 4: sorted 4, 0, …
            ("Bo", "El Fo Pl Pl  Fo Pl Pl Pl  Pl Pl Pl Pl  Pl Pl Pl Pl", ["lands-forest"]),  # 4, 4
            ("Cy", ALL_PLAINS, ["lands-plain", "lands-swamp"]),  # Legends 8: sorted 8, 0, …
        )
    )
    assert [r.total for r in sheet.results] == [4, 8, 8]
    assert [r.place for r in sheet.results] == [3, 2, 1]
    assert sheet.tiebreaks == (Tiebreak(ahead=2, behind=1, total=8, position=1, values=(8, 4)),)


def test_R7_4_equal_after_tiebreak_share_the_place_one_one_three():
    sheet = score_game(
        game(
            ("Ada", ALL_PLAINS, ["tribes-elves"]),
            ("Bo", ALL_PLAINS, ["tribes-dwarves"]),
            ("Cy", ALL_PLAINS, []),
        )
    )
    assert [r.place for r in sheet.results] == [1, 1, 3]
    assert [r.player.name for r in sheet.winners] == ["Ada", "Bo"]
    assert sheet.shared == ((0, 1),)
    assert sheet.tiebreaks == ()
    assert ENGLISH.shared(sheet, (0, 1)) == ("Ada and Bo share place 1: equal totals and equal sorted rows (R7.4).")


def test_R7_4_four_equal_players_all_share_the_win():
    sheet = score_game(game(*[(name, ALL_PLAINS, []) for name in ("Ada", "Bo", "Cy", "Di")]))
    assert [r.place for r in sheet.results] == [1, 1, 1, 1]
    assert len(sheet.winners) == 4
    assert sheet.shared == ((0, 1, 2, 3),)


# R1. Deck warnings

# Ada holds 3 Dragons and Bo 2: 5 in the game, one more than a 2-player deck's 4.
ADA_THREE_DRAGONS = "Dr Dr Dr Fo  Sw Mo Pl El  Dw Hu Go Po  Fo Sw Mo Pl"
BO_TWO_DRAGONS = "Dr Dr El El  Dw Dw Hu Hu  Go Go Po Po  Fo Fo Sw Sw"


def test_R1_deck_warning_counts_across_the_game():
    two = game(("Ada", ADA_THREE_DRAGONS, []), ("Bo", BO_TWO_DRAGONS, []))
    assert deck_warnings(two) == (DeckWarning(Card.DRAGON, count=5, deck=4, players=2),)
    assert ENGLISH.warning(deck_warnings(two)[0]) == (
        "more Dragons than a 2-player deck holds (5 entered, 4 in the deck) — check your entry"
    )


def test_R1_deck_warning_of_kingdoms_still_being_entered():
    """A shared table's kingdoms, cells without a card yet (None): only the cards there count."""
    ada = [Card.DRAGON] * 3 + [None] * 13
    bo = [Card.DRAGON, Card.DRAGON, None]
    assert cards_over_deck([ada, bo]) == (DeckWarning(Card.DRAGON, count=5, deck=4, players=2),)
    assert cards_over_deck([ada, bo[:1]]) == ()
    assert cards_over_deck([[None] * 16, [None] * 16]) == ()


def test_R1_deck_warning_is_not_a_refusal():
    sheet = score_game(game(("Ada", ADA_THREE_DRAGONS, []), ("Bo", BO_TWO_DRAGONS, [])))
    assert [w.card for w in sheet.warnings] == [Card.DRAGON]
    assert len(sheet.results) == 2
    assert ENGLISH.sheet(sheet)["warnings"] == [ENGLISH.warning(sheet.warnings[0])]


def test_R1_deck_grows_with_players():
    # A third player without Dragons: the 3-player deck holds 6 of each type.
    cy = "Mo Mo Mo Mo  Pl Pl Pl Pl  El El El Dw  Dw Dw Hu Hu"
    three = game(("Ada", ADA_THREE_DRAGONS, []), ("Bo", BO_TWO_DRAGONS, []), ("Cy", cy, []))
    assert deck_warnings(three) == ()


def test_R1_deck_warning_for_each_type_over():
    warnings = deck_warnings(game(("Ada", ALL_PLAINS, []), ("Bo", " ".join(["Fo"] * 16), [])))
    assert [(w.card, w.count, w.deck) for w in warnings] == [(Card.FOREST, 16, 4), (Card.PLAIN, 16, 4)]


# Explanations: every number names the cards behind it.


def test_cell_names_are_one_based_row_then_column():
    assert [cell_name(c) for c in (0, 3, 6, 15)] == ["r1c1", "r1c4", "r2c3", "r4c4"]


def test_R3_explanation_lists_each_land_and_how_it_is_connected():
    scored = score_kingdom(
        kingdom("""
        El Fo Pl Pl
        Po Po Pl Pl
        Pl Sw Pl Pl
        Pl Pl Pl Pl
    """),
        POCKET,
    )
    assert ENGLISH.explain(scored, Row.ELVES) == [
        "Elves at r1c1: Forest r1c2 +2 (adjacent and through portals r2c1+r2c2), "
        "Plain r2c3 +0 (through portals r2c1+r2c2), Plain r3c1 +0 (through portals r2c1+r2c2), "
        "Swamp r3c2 -1 (through portals r2c1+r2c2) → +1"
    ]


def test_R5_explanation_names_the_tamers_cells():
    scored = score_kingdom(
        kingdom("""
        Dr Po Hu Pl
        Pl Hu Pl Pl
        Pl Pl Pl Pl
        Pl Pl Pl Pl
    """),
        POCKET,
    )
    assert ENGLISH.explain(scored, Row.DRAGONS) == [
        "Dragon at r1c1: domesticated by 2 Humans (r1c3 through portal r1c2, r2c2 through portal r1c2); "
        "the only Dragon in the kingdom (R5.2) → +3"
    ]


def test_R5_explanation_leaves_out_the_way_for_a_tamer_beside_the_dragon():
    scored = score_kingdom(kingdom("Dr Hu Po Pl  Hu Pl Hu Pl" + " Pl" * 8), POCKET)
    assert ENGLISH.explain(scored, Row.DRAGONS) == [
        "Dragon at r1c1: domesticated by 2 Humans (r1c2, r2c1); the only Dragon in the kingdom (R5.2) → +3"
    ]


def test_R5_explanation_of_a_wild_dragon():
    assert ENGLISH.explain(score_kingdom(kingdom("Dr " + " ".join(["Pl"] * 15)), POCKET), Row.DRAGONS) == [
        "Dragon at r1c1: wild, no two Elves, Dwarves or Humans connected; the only Dragon in the kingdom (R5.2) → -3"
    ]


def test_R5_2_explanation_says_how_many_dragons_set_the_value():
    """Found by a fresh tester: two wild Dragons at -3 and -4 had the same sentence."""
    two = score_kingdom(kingdom("Dr Pl Pl Dr " + " ".join(["Pl"] * 12)), POCKET)
    assert ENGLISH.explain(two, Row.DRAGONS) == [
        f"Dragon at {cell}: wild, no two Elves, Dwarves or Humans connected; "
        "one of 2 Dragons in the kingdom (R5.2) → -4"
        for cell in ("r1c1", "r1c4")
    ]


def test_R5_3_explanation_says_why_a_domesticated_dragon_counts_negative():
    scored = score_kingdom(dragons_around_portals(4, elves=True), POCKET)
    beyond = [line for line in ENGLISH.explain(scored, Row.DRAGONS) if "(R5.3)" in line]
    assert len(beyond) == 1 and beyond[0].endswith("→ -5")


def test_R4_explanation_names_both_cards_and_the_portal():
    scored = score_kingdom(kingdom("El Po Dw " + " ".join(["Pl"] * 13)), POCKET)
    assert ENGLISH.explain(scored, Row.CONFLICTS) == ["Elves r1c1 – Dwarves r1c3 (through portal r1c2) → -2"]


def test_R6_explanation_lists_claimed_legends():
    scored = score_kingdom(kingdom("El Dw Hu Go El " + "Pl " * 11), POCKET, ["four-tribes", "tribes-elves"])
    assert ENGLISH.explain(scored, Row.LEGENDS) == [
        "Four Tribes: all four tribe types present → +4",
        "Tribe of Elves: 2 connected Elves → +2",
    ]
    # a claim the final kingdom no longer shows still counts, with a note (tests/engine/test_legend_claims.py)
    scored = score_kingdom(kingdom(ALL_PLAINS), POCKET, ["four-tribes", "tribes-elves"])
    assert scored.rows[Row.LEGENDS] == 6
    assert [line.split(".")[0] for line in ENGLISH.explain(scored, Row.LEGENDS)] == [
        "Four Tribes: all four tribe types present → +4",
        "Tribe of Elves: 2 connected Elves → +2",
    ]


def test_sheet_dict_carries_an_explanation_list_per_row():
    sheet = ENGLISH.sheet(score_game(game(*TIED_GAME)))
    ada = sheet["players"][0]
    assert list(ada["explanations"]) == [row.value for row in Row]
    assert ada["explanations"]["elves"] == ["Elves at r1c1: Forest r1c2 +2 (adjacent), Forest r2c1 +2 (adjacent) → +4"]
    assert sheet["winners"] == ["Ada"]
    assert len(sheet["tiebreaks"]) == 2  # one R7.3 note, one R7.4 note


def test_R7_4_three_players_sharing_a_place_are_listed_once():
    kingdom = [["plain"] * 4 for _ in range(4)]
    game = Game.from_dict({"players": [{"name": n, "kingdom": kingdom, "legends": []} for n in ("Ada", "Bo", "Cy")]})
    sheet = score_game(game)
    assert [r.place for r in sheet.results] == [1, 1, 1]
    assert sheet.shared == ((0, 1, 2),)
    assert ENGLISH.shared(sheet, sheet.shared[0]).startswith("Ada, Bo and Cy share place 1")


def test_partial_kingdom_blank_cells_connect_nothing():
    """A kingdom being entered: blanks are no lands and join no portal network (R2, R3)."""
    cards = [None] * 16
    cards[0], cards[1], cards[5] = Card.ELVES, Card.PORTAL, Card.FOREST
    partial = Kingdom.partial(cards)
    assert not partial.is_complete
    assert score_kingdom(partial, POCKET).rows[Row.ELVES] == 2  # Forest r2c2 through the portal
    cards[4] = Card.SWAMP  # adjacent to the Elves and beside nothing else
    assert score_kingdom(Kingdom.partial(cards), POCKET).rows[Row.ELVES] == 1
    assert score_kingdom(Kingdom.partial([None] * 16), POCKET).total == 0
