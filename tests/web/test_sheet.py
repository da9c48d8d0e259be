"""Every worked game through the real form (POST → redirect → sheet) and the JSON API."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from scorekeeper.engine import LEGENDS
from scorekeeper.web.forms import card_id_of
from tests.conftest import CASE_FILES, form_data, load_case

ROWS = ["elves", "dwarves", "humans", "goblins", "dragons", "legends", "conflicts"]


def read_sheet(html: bytes) -> dict:
    """The score table as {"names": [...], "<row id>": [ints per player]}."""
    soup = BeautifulSoup(html, "lxml")
    table = soup.select_one("table#score-table")
    names = [th.get_text(strip=True) for th in table.select("thead th.player-name")]
    sheet = {"names": names}
    for tr in table.select("tbody tr"):
        key = tr["id"].removeprefix("row-")
        sheet[key] = [int(td["data-value"]) for td in tr.find_all("td")]
        sheet[key + "-label"] = tr.find("th").get_text(strip=True)
    return sheet


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.name for p in CASE_FILES])
def test_case_through_form(client, path):
    case = load_case(path)
    response = client.post("/", data=form_data(case["game"]))
    assert response.status_code == 303, response.data[:500]
    sheet_url = response.headers["Location"]
    assert sheet_url.startswith("/sheet/")
    page = client.get(sheet_url)
    assert page.status_code == 200
    sheet = read_sheet(page.data)
    expected = case["expected"]["players"]
    assert sheet["names"] == [p["name"] for p in expected]
    for row in ROWS:
        assert sheet[row] == [p["categories"][row] for p in expected], row
    assert sheet["total"] == [p["total"] for p in expected]
    assert sheet["place"] == [p["place"] for p in expected]
    soup = BeautifulSoup(page.data, "lxml")
    assert soup.select_one("#ruleset").get_text(strip=True).lower() == case["expected"]["ruleset"]


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.name for p in CASE_FILES])
def test_case_through_api(client, path):
    case = load_case(path)
    response = client.post("/api/score", json=case["game"])
    assert response.status_code == 200
    body = response.get_json()
    assert body["ruleset"] == case["expected"]["ruleset"]
    got = [{k: p[k] for k in ("name", "categories", "total", "place")} for p in body["players"]]
    assert got == case["expected"]["players"]


def test_every_case_file_is_checked():
    assert len(CASE_FILES) == 20


def test_sheet_table_rows_are_labelled_in_first_cell(client):
    case = load_case(CASE_FILES[18])  # 19-four-players
    page = client.get(client.post("/", data=form_data(case["game"])).headers["Location"])
    sheet = read_sheet(page.data)
    labels = [sheet[key + "-label"] for key in [*ROWS, "total", "place"]]
    assert labels == [
        "Elves",
        "Dwarves",
        "Humans",
        "Goblins",
        "Dragons",
        "Legends",
        "Conflicts",
        "Total",
        "Place",
    ]


def test_R7_5_sheet_states_the_tiebreak(client):
    case = load_case(next(p for p in CASE_FILES if p.name.startswith("17-")))
    page = client.get(client.post("/", data=form_data(case["game"])).headers["Location"])
    soup = BeautifulSoup(page.data, "lxml")
    note = soup.select_one("#tiebreaks li.tiebreak").get_text(" ", strip=True)
    assert "\u2068Ada\u2069 ahead of \u2068Bo\u2069" in note and "the highest row decides, 6 vs 4" in note
    assert soup.select_one("#winner strong").get_text() == "Ada"


def test_R7_4_shared_win_is_announced(client):
    case = load_case(next(p for p in CASE_FILES if p.name.startswith("18-")))
    page = client.get(client.post("/", data=form_data(case["game"])).headers["Location"])
    soup = BeautifulSoup(page.data, "lxml")
    winners = [s.get_text() for s in soup.select("#winner strong")]
    assert len(winners) == 2 and "share the win" in soup.select_one("#winner").get_text()
    assert soup.select("#tiebreaks li.shared-place")


def test_R1_deck_warning_shown(client):
    case = load_case(CASE_FILES[0])  # 16 Forests in a 2-player game
    page = client.get(client.post("/", data=form_data(case["game"])).headers["Location"])
    soup = BeautifulSoup(page.data, "lxml")
    warnings = [li.get_text() for li in soup.select("#warnings li.warning")]
    assert any("Forests" in w and "16 entered, 4 in the deck" in w for w in warnings)


def test_grid_shows_each_card_and_its_points(client):
    case = load_case(next(p for p in CASE_FILES if p.name.startswith("15-")))
    page = client.get(client.post("/", data=form_data(case["game"])).headers["Location"])
    soup = BeautifulSoup(page.data, "lxml")
    kingdom = case["game"]["players"][0]["kingdom"]
    cells = soup.select("#kingdom-0 table.grid td.card")
    assert [td["data-card"] for td in cells] == [card for row in kingdom for card in row]
    dragons = soup.select("#kingdom-0 td.card-dragon")
    assert dragons and all("tamed" in td["class"] or "wild" in td["class"] for td in dragons)


@pytest.mark.parametrize("lang, row, column", [("en", "row", "column"), ("de", "Zeile", "Spalte")])
def test_each_grid_card_has_a_row_and_a_column_header(client, lang, row, column):
    """What a screen reader says with each card: its row and column (axe-core's td-has-header)."""
    case = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
    sheet = client.post("/", data=form_data(case["game"])).headers["Location"]
    soup = BeautifulSoup(client.get(sheet, headers={"Accept-Language": lang}).data, "lxml")
    for grid in soup.select("table.grid"):
        rows = grid.find_all("tr")
        columns = [th.get_text() for th in rows[0].find_all("th", scope="col")]
        assert columns == [f"{column} {n}" for n in range(1, 5)]
        for number, tr in enumerate(rows[1:], start=1):
            assert tr.find("th", scope="row").get_text() == f"{row} {number}"
            cards = tr.find_all("td", class_="card")
            assert len(cards) == 4 and all(f"({row[0]}{number}{column[0]}" in td.get_text() for td in cards)


def test_explanations_name_the_tamers(client):
    case = load_case(next(p for p in CASE_FILES if p.name.startswith("15-")))
    page = client.get(client.post("/", data=form_data(case["game"])).headers["Location"])
    soup = BeautifulSoup(page.data, "lxml")
    lines = [li.get_text() for li in soup.select("#explain-0-dragons li")]
    assert lines and all(line.startswith("Dragon at r") for line in lines)
    assert any("domesticated by" in line for line in lines)


def test_sheet_reload_is_a_get_and_reproduces_the_game(client):
    case = load_case(CASE_FILES[18])
    url = client.post("/", data=form_data(case["game"])).headers["Location"]
    first, second = client.get(url), client.get(url)
    once = re.compile(rb'id="attempt" name="attempt" type="hidden" value="[\w-]+"')  # one per form shown
    assert once.search(first.data) and once.sub(b"", first.data) == once.sub(b"", second.data)


def test_edit_returns_the_filled_form(client):
    case = load_case(CASE_FILES[18])
    game = case["game"]
    url = client.post("/", data=form_data(game)).headers["Location"]
    soup = BeautifulSoup(client.get(url + "/edit").data, "lxml")
    for i, player in enumerate(game["players"]):
        assert soup.select_one(f"#players-{i}-name")["value"] == player["name"]
        cells = [card for row in player["kingdom"] for card in row]
        for m, card in enumerate(cells):
            assert card_id_of(soup.select_one(f"#players-{i}-cells-{m}")["value"]) == card
        checked = [box["value"] for box in soup.select(f"#player-{i} input[type=checkbox][checked]")]
        assert checked == [legend.id for legend in LEGENDS if legend.id in player["legends"]]
    assert soup.select_one("input[name=ruleset][checked]")["value"] == game["ruleset"]


@pytest.mark.parametrize("token", ["nope", "1", "1AAAA", "1eNo" + "A" * 20, "2abc", "1" + "A" * 5000])
def test_damaged_link_is_a_friendly_404(client, token):
    response = client.get(f"/sheet/{token}")
    assert response.status_code == 404
    soup = BeautifulSoup(response.data, "lxml")
    assert "damaged" in soup.select_one("#error").get_text()
    assert b"Traceback" not in response.data


def test_deeply_nested_token_is_a_damaged_link(client):
    import base64
    import zlib

    token = "1" + base64.urlsafe_b64encode(zlib.compress(b"[" * 1000 + b"]" * 1000)).decode().rstrip("=")
    for url in (f"/sheet/{token}", f"/sheet/{token}/edit", f"/sheet/{token}.pdf"):
        assert client.get(url).status_code == 404


def test_R7_5_tiebreak_names_the_position_of_the_sorted_rows_in_german(client):
    """ "Row 2" read as the sheet's second row (Dwarves): the note says "second-highest"."""
    from scorekeeper.engine import parse_card

    grids = {
        "Ada": ("El Fo Pl Pl  Fo Pl Pl Pl  Pl Pl Pl Pl  Pl Pl Pl Pl", ["lands-forest"]),
        "Bo": ("Dw Mo Pl Pl  Mo Pl Pl Pl  Pl Pl Pl Dw  Pl Pl Fo Hu", ["battle-goblins-dwarves"]),
    }

    def rows_of(grid: str) -> list[list[str]]:
        cards = [parse_card(code).value for code in grid.split()]
        return [cards[r * 4 : r * 4 + 4] for r in range(4)]

    players = [{"name": name, "kingdom": rows_of(grid), "legends": legends} for name, (grid, legends) in grids.items()]
    game = {"players": players}
    sheet = client.get(client.post("/", data=form_data(game)).headers["Location"] + "?lang=de")
    note = BeautifulSoup(sheet.data, "lxml").select_one("#tiebreaks li.tiebreak").get_text(" ", strip=True)
    assert note == (
        "\u2068Ada\u2069 vor \u2068Bo\u2069: beide haben 8 Harmoniepunkte; "
        "nach ihren Zeilen von der höchsten zur niedrigsten sortiert, entscheidet die zweithöchste Zeile, 4 zu 3."
    )


def test_R2_2_a_portal_between_two_conflicting_cards_is_not_itself_in_conflict(client):
    plains = [["plain"] * 4 for _ in range(4)]
    ada = [["elves", "portal", "dwarves", "plain"], *plains[1:]]  # Elves r1c1 – Dwarves r1c3 through portal r1c2
    game = {"players": [{"name": "Ada", "kingdom": ada}, {"name": "Bo", "kingdom": plains}]}
    soup = BeautifulSoup(client.get(client.post("/", data=form_data(game)).headers["Location"]).data, "lxml")
    marked = [td["id"] for td in soup.select("#kingdom-0 td.in-conflict")]
    assert marked == ["k0-r1c1", "k0-r1c3"]
    assert "k0-r1c2" in soup.select_one("#row-conflicts td a.why")["data-cells"]  # still lit when asked why
