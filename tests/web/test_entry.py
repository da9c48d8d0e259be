"""Entering a kingdom: the live preview endpoint, the text box (paste), languages."""

from __future__ import annotations

import copy

import pytest
from bs4 import BeautifulSoup

from scorekeeper.engine import Game, Row, score_game
from scorekeeper.web.i18n import explain
from scorekeeper.words import ENGLISH
from tests.conftest import CASE_FILES, form_data, load_case

CASE = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
GAME = CASE["game"]
ADA = [card for row in GAME["players"][0]["kingdom"] for card in row]


def preview(client, **body):
    return client.post("/api/preview", json={"ruleset": "pocket", **body})


def test_preview_of_a_complete_kingdom_is_the_sheet_row(client):
    answer = preview(client, cells=ADA, legends=["tribes-humans"]).get_json()
    assert answer["rows"] == CASE["expected"]["players"][0]["categories"]
    assert answer["total"] == CASE["expected"]["players"][0]["total"] == 11
    assert answer["complete"] is True
    assert answer["points"][1] == 4  # Elves at r1c2: two Forests (R3)


def test_preview_blank_cells_are_no_lands(client):
    # Elves beside a blank: nothing yet; a Forest entered beside them gives +2 (R3)
    cells = [""] * 16
    cells[0] = "elves"
    assert preview(client, cells=cells).get_json()["rows"]["elves"] == 0
    cells[1] = "Fo"
    answer = preview(client, cells=cells).get_json()
    assert answer["rows"]["elves"] == 2 and answer["cells"][:2] == ["elves", "forest"] and not answer["complete"]


def test_preview_blank_cell_joins_no_portal_network(client):
    # Elves r1c1, portal r1c2, blank r1c3 ... Forest r2c2 under the portal: +2 once (R2)
    cells = ["elves", "portal", None, ""] + ["", "forest"] + [""] * 10
    assert preview(client, cells=cells).get_json()["rows"]["elves"] == 2


def test_preview_reads_the_text_box_format(client):
    text = "Fo El Po Fo\nsw go el mo\nR H P D\nplain,humans,mountain,portal"
    answer = preview(client, text=text, legends=["tribes-humans"]).get_json()
    assert answer["cells"] == ADA
    assert answer["total"] == 11


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"cells": ["forest"] * 15}, "16 cells"),
        ({"cells": ["troll"] + [""] * 15}, "Row 1, column 1: not a card."),
        ({"cells": [""] * 16, "ruleset": "chess"}, "unknown ruleset"),
        ({"cells": [""] * 16, "legends": ["nope"]}, "Legend ids"),
        ({"text": "Fo Fo\nFo"}, "not 2"),
    ],
)
def test_preview_refusals_are_400_with_errors(client, body, message):
    response = preview(client, **body)
    assert response.status_code == 400
    assert any(message in error for error in response.get_json()["errors"])


def test_preview_errors_in_german(client):
    response = client.post("/api/preview", json={"text": "Fo Fo"}, headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert response.get_json() == {  # the API's one shape of a refusal (web/refusals.py)
        "errors": ["Nötig sind vier Zeilen mit je vier Karten, nicht 1."],
        "problems": [{"id": "kingdom-text", "seat": None, "cell": None}],
    }


def test_text_box_fills_the_cells_without_javascript(client):
    game = copy.deepcopy(GAME)
    data = form_data(game)
    for m in range(16):
        data[f"players-0-cells-{m}"] = ""
    data["players-0-paste"] = "Wald Elfen Portal Wald\nSw Go El Mo\nrhpd\nPlain Humans Mountain Magical Portal"
    response = client.post("/", data=data)
    assert response.status_code == 303
    sheet = client.get(response.headers["Location"])
    soup = BeautifulSoup(sheet.data, "lxml")
    assert soup.select_one("#row-total td")["data-value"] == "11"


def test_text_box_error_is_shown_beside_it_with_entries_kept(client):
    data = form_data(GAME)
    data["players-1-paste"] = "Fo El Po\nSw Go El Mo\nDr Hu Pl Dw\nPl Hu Mo Troll"
    response = client.post("/", data=data)
    assert response.status_code == 422
    soup = BeautifulSoup(response.data, "lxml")
    errors = soup.select_one("#players-1-paste-errors").get_text()
    assert "Line 1 has 3 cards, not 4." in errors and "Line 4: “Troll” is not a card." in errors
    assert soup.select_one("#players-1-paste").get_text().strip().startswith("Fo El Po")
    assert soup.select_one("input[name='players-3-cells-15']")["value"] == "Dw"  # the code, whole in the box


def test_card_codes_are_documented_on_the_form(client):
    soup = BeautifulSoup(client.get("/").data, "lxml")
    codes = soup.select_one("#codes").get_text(" ")
    for word in ("Fo", "Sw", "Mo", "Pl", "El", "Dw", "Hu", "Go", "Dr", "Po", "Magical Portal"):
        assert word in codes


def test_language_from_accept_language_switch_and_cookie(client):
    german = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
    soup = BeautifulSoup(client.get("/", headers=german).data, "lxml")
    assert soup.html["lang"] == "de" and soup.select_one("#score").get_text() == "Partie werten"
    response = client.get("/?lang=en", headers=german)
    assert "lang=en" in response.headers["Set-Cookie"]
    soup = BeautifulSoup(client.get("/", headers=german).data, "lxml")  # remembered
    assert soup.html["lang"] == "en" and soup.select_one("#score").get_text() == "Score the game"


def test_german_sheet_uses_the_german_edition_words(client):
    token = client.post("/", data=form_data(GAME)).headers["Location"]
    soup = BeautifulSoup(client.get(token + "?lang=de").data, "lxml")
    rows = [th.get_text() for th in soup.select("#score-table tbody th")]
    assert rows == ["Elfen", "Zwerge", "Menschen", "Goblins", "Drachen", "Legenden", "Konflikte", "Summe", "Platz"]
    assert "Harmoniepunkte" in soup.select_one("#winner").get_text()
    lines = [li.get_text() for li in soup.select("#explain-0-conflicts li")]
    assert lines[0] == "Elfen Z1S2 – Goblins Z2S2 (benachbart) → -2"
    assert "Drache auf Z3S1: wild" in soup.select_one("#explain-0-dragons li").get_text()
    assert "Magisches Portal" in soup.select_one(".grid-key").get_text()


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.name)
def test_english_explanations_on_the_page_are_the_command_lines(app, path):
    sheet = score_game(Game.from_dict(load_case(path)["game"]))
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        for result in sheet.results:
            for row in Row:
                assert explain(result.score, row) == ENGLISH.explain(result.score, row)


# Case 19, Cy's Dragons row: the Dragons r2c2 and r3c3, their tamers (Humans r1c2 r2c1 r2c3 r3c2;
# Elves r4c2 r4c4, through the portals) and the portals r3c4 r4c3 between.
CY_DRAGON_CELLS = [
    *("k2-r1c2", "k2-r2c1", "k2-r2c2", "k2-r2c3", "k2-r3c2"),
    *("k2-r3c3", "k2-r3c4", "k2-r4c2", "k2-r4c3", "k2-r4c4"),
]


def test_why_links_name_the_cells_behind_each_number(client):
    token = client.post("/", data=form_data(GAME)).headers["Location"]
    soup = BeautifulSoup(client.get(token).data, "lxml")
    dragons_of_cy = soup.select("#row-dragons td a.why")[2]
    assert dragons_of_cy["href"] == "#explain-2-dragons"
    assert dragons_of_cy["data-cells"].split() == CY_DRAGON_CELLS
    assert len(soup.select("#kingdom-0 .conflict-lines path")) == 3  # Ada: three conflicts


def test_german_dragon_line_names_tamers_in_the_dative_and_their_portal(app):
    from scorekeeper.engine import POCKET, Kingdom, parse_card, score_kingdom

    codes = "Dr Po Dw Pl  Dw Pl Pl Pl  Pl Pl Pl Pl  Pl Pl Pl Pl"  # Dwarves r2c1 beside, r1c3 through portal r1c2
    scored = score_kingdom(Kingdom(tuple(parse_card(code) for code in codes.split())), POCKET)
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        assert explain(scored, Row.DRAGONS) == [
            "Drache auf Z1S1: gezähmt von 2 Zwergen (Z1S3 durch Portal Z1S2 und Z2S1); "
            "der einzige Drache im Königreich (R5.2) → +3"
        ]


def test_a_line_of_key_letters_may_leave_a_cell_empty_with_a_dot(app):
    from scorekeeper.web.forms import KingdomTextError, parse_kingdom_text

    with app.test_request_context("/"):
        assert parse_kingdom_text("FE.F\nFEOF\nFEOF\nFEOF")[:4] == ["forest", "elves", "", "forest"]
        with pytest.raises(KingdomTextError, match="Line 4 has 1 card, not 4."):
            parse_kingdom_text("FEOF\nFEOF\nFEOF\nFEO")
