"""The form's points so far come with the page (R3–R6 scored by the engine), so loading it asks nothing more."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from scorekeeper.engine import Game, Row, score_game
from scorekeeper.web.preview import kingdom_preview
from tests.conftest import CASE_FILES, form_data, load_case

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
CLASSIC = load_case(next(p for p in CASE_FILES if p.name.startswith("20-")))["game"]


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def shown_rows(soup: BeautifulSoup, player: int) -> dict[str, int]:
    return {td["data-row"]: int(td.get_text()) for td in soup.select(f"#preview-{player} td[data-row]")}


def signed(points: int | None) -> str | None:
    return None if points is None else (f"+{points}" if points > 0 else str(points))


@pytest.mark.parametrize("game", [FOUR, CLASSIC], ids=["pocket, 4 players", "classic"])
def test_a_filled_form_shows_the_engines_rows_and_card_points(client, game):
    sheet = score_game(Game.from_dict(game))
    soup = soup_of(client.get(client.post("/", data=form_data(game)).headers["Location"] + "/edit"))
    for result in sheet.results:
        i = result.index
        assert soup.select_one(f"#preview-{i}").has_attr("data-scored")
        expected = {row.value: result.rows[row] for row in Row} | {"total": result.total}
        assert shown_rows(soup, i) == expected
        cells = soup.select(f"#player-{i} .cell-input input")
        assert [cell.get("data-pts") for cell in cells] == [signed(result.score.cell_points(m)) for m in range(16)]


def test_the_empty_form_shows_zero_points_without_asking(client):
    soup = soup_of(client.get("/"))
    for i in range(2):
        assert soup.select_one(f"#preview-{i}").has_attr("data-scored")
        assert set(shown_rows(soup, i).values()) == {0}
        assert not soup.select(f"#player-{i} .cell-input input[data-pts]")


def test_a_kingdom_with_a_word_that_is_no_card_gets_no_points(client):
    data = form_data(FOUR) | {"players-1-cells-5": "wizard"}
    soup = soup_of(client.post("/", data=data))
    assert soup.select_one("#players-1-cells-5")["value"] == "wizard"
    assert not soup.select_one("#preview-1").has_attr("data-scored")  # as POST /api/preview refuses it
    assert soup.select_one("#preview-0").has_attr("data-scored")


def test_a_kingdom_half_entered_scores_what_is_entered(client):
    """Blank cells are no cards yet (Kingdom.partial): two Elves beside a Forest score 2 each (R3)."""
    data = form_data(FOUR, action="add")
    for m in range(16):
        data[f"players-0-cells-{m}"] = {0: "elves", 1: "forest", 2: "elves"}.get(m, "")
    data["players-0-legends"] = []
    soup = soup_of(client.post("/", data=data, follow_redirects=True))
    assert shown_rows(soup, 0)["elves"] == 4
    assert [cell.get("data-pts") for cell in soup.select("#player-0 .cell-input input")][:3] == ["+2", None, "+2"]


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_the_page_and_the_api_agree(client, path):
    game = load_case(path)["game"]
    ruleset = game.get("ruleset", "pocket")
    for player in game["players"]:
        cells = [card for row in player["kingdom"] for card in row]
        cells[5] = cells[9] = ""  # while entering
        answer = client.post(
            "/api/preview", json={"ruleset": ruleset, "cells": cells, "legends": player["legends"]}
        ).get_json()
        preview = kingdom_preview(ruleset, cells, player["legends"])
        assert preview.rows == answer["rows"] and preview.total == answer["total"]
        assert list(preview.points) == answer["points"]


@pytest.mark.parametrize(
    "ruleset, words, legends",
    [("chess", [""] * 16, []), ("pocket", [""] * 15, []), ("pocket", [""] * 16, ["no-such-legend"])],
    ids=["unknown ruleset", "15 cells", "unknown legend"],
)
def test_no_points_where_the_api_would_refuse(ruleset, words, legends):
    assert kingdom_preview(ruleset, words, legends) is None
