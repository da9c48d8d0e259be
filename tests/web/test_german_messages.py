"""Refusals on German pages are German through and through (issue: English
leaked into German pages where the engine's sentences were matched by pattern)."""

from __future__ import annotations

import io
import json

from bs4 import BeautifulSoup

from tests.conftest import CASE_FILES, form_data, load_case

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))


def test_a_refused_game_of_a_history_import_reads_in_german(db_client):
    one_player = {"players": FOUR["game"]["players"][:1]}
    history = {"games": [FOUR["game"], one_player]}
    response = db_client.post(
        "/games/import?lang=de",
        data={"file": (io.BytesIO(json.dumps(history).encode()), "verlauf.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    errors = [li.get_text() for li in BeautifulSoup(response.data, "lxml").select("#form-errors li")]
    assert errors == ["Partie 2: eine Partie hat 2 bis 4 Spieler, nicht 1"]
    assert db_client.get("/games.json").get_json() == {"games": []}


def test_a_legend_claimed_by_a_player_without_a_name_reads_in_german(client):
    game = json.loads(json.dumps(FOUR["game"]))
    game["players"][0]["name"] = ""
    game["players"][0]["legends"] = ["lands-forest"]
    game["players"][1]["legends"] = ["lands-forest"]
    response = client.post("/?lang=de", data=form_data(game))
    assert response.status_code == 422
    soup = BeautifulSoup(response.data, "lxml")
    legends = soup.select_one("#players-1-legends-errors").get_text(" ", strip=True)
    assert legends.startswith("Die Legende „Land der Wälder“ hat schon Spieler 1 beansprucht")  # a sentence
    assert "Player" not in soup.get_text()


def test_a_date_that_is_none_is_refused_in_the_apps_words_in_the_page_language(client):
    """WTForms' own "Not a valid date value." said neither what was wrong nor what to do, and a
    date input shows such a value empty: the refusal says what was typed and the dates to choose
    from (forms.PlayedOnField), in the page's language, for each request's language in turn."""
    game = load_case(next(path for path in CASE_FILES if path.name.startswith("19-")))["game"]
    expected = {
        "en": "“2026-02-30” is not a date. Choose a date from 1 January 2000 to today.",
        "de": "„2026-02-30“ ist kein Datum. Wähle ein Datum vom 1. Januar 2000 bis heute.",
        "fr": "« 2026-02-30 » n’est pas une date. Choisissez une date du 1 janvier 2000 à aujourd’hui.",
    }
    for language in ("en", "de", "fr", "en"):
        page = client.post(f"/?lang={language}", data=form_data(game) | {"played_on": "2026-02-30"})
        assert page.status_code == 422
        soup = BeautifulSoup(page.data, "lxml")
        assert soup.select_one("#played_on-errors").get_text(strip=True) == expected[language]
        assert soup.select_one("#played_on")["value"] == "2026-02-30"
        assert "Not a valid" not in page.get_data(as_text=True)


def test_french_writes_a_space_before_a_colon_where_the_app_joins_a_label_and_its_text(client):
    """Found by a fresh tester: "Ada: 1 case marquée en rouge." in the list of refused entries
    (French writes "Ada : …", as the app's other French lines do)."""
    game = load_case(next(path for path in CASE_FILES if path.name.startswith("19-")))["game"]
    page = client.post("/?lang=fr", data=form_data(game) | {"players-0-cells-3": ""})
    assert page.status_code == 422
    line = BeautifulSoup(page.data, "lxml").select_one("#form-errors .error-players li").get_text()
    assert line.replace("\u2068", "").replace("\u2069", "").startswith(game["players"][0]["name"] + "\u00a0: ")
    english = client.post("/?lang=en", data=form_data(game) | {"players-0-cells-3": ""})
    line = BeautifulSoup(english.data, "lxml").select_one("#form-errors .error-players li").get_text()
    assert line.replace("\u2068", "").replace("\u2069", "").startswith(game["players"][0]["name"] + ": ")
