"""The page's language: chosen, remembered, or the browser's (issue 11, items 22 and 23)."""

from __future__ import annotations

import copy

import pytest
from bs4 import BeautifulSoup

from tests.conftest import CASE_FILES, form_data, load_case

GAME = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        ("de-DE,en;q=0.8", "de"),  # a region falls back to its language before a lower-ranked match
        ("de-CH,en;q=0.5", "de"),
        ("de-AT", "de"),
        ("qaa-FR,de;q=0.9,en;q=0.8", "de"),  # qaa: reserved for local use, never one of ours
        ("qaa-CH,en-GB;q=0.7,de;q=0.6", "en"),
        ("en-US,de;q=0.9", "en"),
        ("fr-CA,de;q=0.9", "fr"),
        ("qaa", "en"),  # nothing we speak: English
        ("de;q=0,en", "en"),  # refused outright
    ],
)
def test_the_browser_language_with_its_region_falls_back_before_lower_ranks(client, accept, language):
    soup = BeautifulSoup(client.get("/", headers={"Accept-Language": accept}).data, "lxml")
    assert soup.html["lang"] == language


def test_pages_that_depend_on_the_language_say_so_to_caches(client):
    sheet = client.post("/", data=form_data(GAME)).headers["Location"]
    for url in ("/", sheet, "/nowhere"):
        vary = client.get(url).headers.get("Vary", "")
        assert {"Accept-Language", "Cookie"} <= {part.strip() for part in vary.split(",")}, url
    for url in ("/healthz", "/static/css/app.css"):
        with client.get(url) as response:
            assert "Accept-Language" not in response.headers.get("Vary", ""), url


def test_german_pages_use_german_codes_cells_and_words(client):
    """Item 23: no English leftovers beside the German palette and explanations."""
    sheet = client.post("/", data=form_data(GAME)).headers["Location"]
    german = BeautifulSoup(client.get(sheet + "?lang=de").data, "lxml")
    codes = {td["data-card"]: td.select_one(".code").get_text() for td in german.select("#kingdom-0 td.card")}
    assert codes["forest"] == "Wa" and codes["swamp"] == "Su" and codes["dwarves"] == "Zw" and codes["humans"] == "Me"
    key = german.select_one(".grid-key").get_text()
    assert key.startswith("Zeichenerklärung:") and "Legende:" not in key
    assert "Wa Wald" in key and "Be Berg" in key and "Eb Ebene" in key
    assert "In Erklärungen steht Z2S3 für Zeile 2, Spalte 3." in key  # the cell references' key
    assert "Elfen Z1S2 – Goblins Z2S2" in german.select_one("#explain-0-conflicts li").get_text()
    assert "r1c" not in german.select_one("#kingdoms").get_text(" ")
    english = BeautifulSoup(client.get(sheet + "?lang=en").data, "lxml")
    assert "In explanations, r2c3 is row 2, column 3." in english.select_one(".grid-key").get_text()
    assert english.select_one("#kingdom-0 td.card-forest .code").get_text() == "Fo"
    places = {"en": ["4th", "3rd", "2nd", "1st"], "de": ["4.", "3.", "2.", "1."]}  # R7's, by Words.place
    for language, soup in (("en", english), ("de", german)):
        row = [td.get_text(" ", strip=True) for td in soup.select("#row-place td")]
        assert [text.split()[0] for text in row] == places[language], (language, row)
        assert soup.select_one("#kingdom-0 .ktotal").get_text().endswith(" · " + row[0].split()[0])
    form = BeautifulSoup(client.get("/?lang=de").data, "lxml")
    assert [kbd.get_text() for kbd in form.select("#codes kbd")][:2] == ["F", "Wa"]
    assert form.select_one(".code-list [data-card=portal]")["data-short"] == "Portal"  # the palette's name
    assert form.select_one("#undo .pname").get_text() == "Rückgängig"
    assert form.select_one("#redo .pname").get_text() == "Wiederholen"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_both_languages_codes_are_accepted_when_typing(client, lang):
    game = copy.deepcopy(GAME)
    english = [card for row in game["players"][0]["kingdom"] for card in row]
    german_codes = {"forest": "Wa", "swamp": "su", "mountain": "BE", "plain": "Eb", "dwarves": "Zw", "humans": "me"}
    english_codes = {"forest": "Fo", "swamp": "Sw", "mountain": "Mo", "plain": "Pl", "dwarves": "Dw", "humans": "Hu"}
    data = form_data(game)
    for m, card in enumerate(english):
        data[f"players-0-cells-{m}"] = german_codes.get(card, card)
        data[f"players-1-cells-{m}"] = english_codes.get(data[f"players-1-cells-{m}"], data[f"players-1-cells-{m}"])
    assert client.post(f"/?lang={lang}", data=data).status_code == 303
    paste = "Wa El Po Wa\nSu Go El Be\nDr Me Eb Zw\nEb Hu Mo Po"
    response = client.post(f"/?lang={lang}", data=form_data(game) | {"players-0-paste": paste})
    assert response.status_code == 303


def test_a_template_s_gettext_escapes_its_parameters_and_reads_percent_signs(app):
    """_() in a template: the page language's words, every %(name)s escaped, %% one sign (jinja2's newstyle)."""
    from flask import render_template_string

    with app.test_request_context("/?lang=de"):
        app.preprocess_request()
        got = render_template_string(
            '{{ _("%(name)s wins with %(total)d Harmony Points.", name="<b>Ada</b>", total=7) }} {{ _("100%%") }}'
        )
    assert "&lt;b&gt;Ada&lt;/b&gt;" in got and "<b>" not in got and "100%" in got and "100%%" not in got
