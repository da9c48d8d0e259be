"""Every page in every language of LANGUAGES, asked for as a browser does
(Accept-Language): the page says its language, its messages are the
catalogue's (no English left where the language has its own words), the
explanations are the sentence writer's in that language, the CSV links split
the way the language's spreadsheets do, and the PDF is in the language.

The tests loop over the languages: a new language needs no edit here
(docs/languages.md).
"""

from __future__ import annotations

import io
import re
from functools import cache

import pytest
from babel.messages.pofile import read_po
from babel.numbers import get_decimal_symbol
from bs4 import BeautifulSoup

from scorekeeper.engine import Card, Game, Row, score_game
from scorekeeper.words import LANGUAGES, TRANSLATIONS, words_in
from tests.conftest import form_data
from tests.web.test_games import FOUR, save, sheet_token
from tests.web.test_table_pages import seat_fields, start_table


@cache
def translated_messages(language: str) -> tuple[str, ...]:
    """The catalogue's messages of three words or more, without parameters or
    markup, that *language* writes otherwise than English."""
    if language == "en":
        return ()
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalogue = read_po(po)
    return tuple(
        message.id
        for message in catalogue
        if isinstance(message.id, str) and len(message.id.split()) >= 3 and not set("%<") & set(message.id)
        if message.string and message.string != message.id
    )


def english_leaks(soup: BeautifulSoup, language: str) -> list[str]:
    """The English messages shown on a page in *language* (its text, scripts left out)."""
    for script in soup.select("script, style"):
        script.decompose()
    text = " ".join(soup.get_text(" ").split())
    return [message for message in translated_messages(language) if message in text]


def page(client, path: str, language: str) -> BeautifulSoup:
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200, (path, language)
    soup = BeautifulSoup(response.data, "lxml")
    assert soup.html["lang"] == language, path
    return soup


def every_page(app, client) -> list[str]:
    """A path of each kind of page: the form, a sheet and its edit form, a saved game
    (read-only, its edit form by the private link), History, import, groups, a group,
    a player's stats, and a shared table (joining, the table, a seat, a check, locked)."""
    token = sheet_token(client, FOUR["game"], "2026-11-30")
    public, private = save(client, FOUR["game"], "2026-11-29")
    groups = BeautifulSoup(client.get("/groups").data, "lxml")
    group = groups.select_one("main a[href^='/groups/']")["href"]
    pages = ["/", f"/sheet/{token}", f"/sheet/{token}/edit", public, private + "/edit", "/games"]
    pages += ["/games/import", "/groups", group, "/player?name=Ada", "/join"]
    code = start_table(client)
    for number, phone in enumerate([client, app.test_client()], start=1):
        player = FOUR["game"]["players"][number - 1]
        phone.post(f"/t/{code}/seats", data={"name": player["name"]})
        phone.post(f"/t/{code}/seat/{number}", data=seat_fields(player))
    return [*pages, f"/t/{code}", f"/t/{code}/seat/1", f"/t/{code}/check/2"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_is_in_the_browser_s_language(app, client, language):
    if language != "en":  # the check sees English where it is
        assert len(english_leaks(page(client, "/", "en"), language)) > 5
    for path in every_page(app, client):
        soup = page(client, path, language)
        assert english_leaks(soup, language) == [], path
    missing = client.get("/nowhere", headers={"Accept-Language": language})
    soup = BeautifulSoup(missing.data, "lxml")
    assert missing.status_code == 404 and soup.html["lang"] == language
    assert english_leaks(soup, language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheet_s_explanations_codes_and_places_are_the_language_s(client, language):
    words = words_in(language)
    sheet = client.post("/", data=form_data(FOUR["game"])).headers["Location"]
    soup = page(client, sheet, language)
    scored = score_game(Game.from_dict(FOUR["game"]))
    written = {line for result in scored.results for row in Row for line in words.explain(result.score, row)}
    shown = {li.get_text() for li in soup.select("[id^=explain-] li")}
    assert shown and shown <= {line.replace("\u2068", "").replace("\u2069", "") for line in written} | written
    codes = {td["data-card"]: td.select_one(".code").get_text() for td in soup.select("#kingdom-0 td.card")}
    assert codes == {card.value: words.code(card) for card in Card if card.value in codes}
    places = [td.get_text(" ", strip=True).split()[0] for td in soup.select("#row-place td")]
    assert places == [words.place(result.place) for result in scored.results]
    assert words.cell(6) in soup.select_one(".grid-key").get_text()


@pytest.mark.parametrize("language", LANGUAGES)
def test_csv_links_split_on_semicolons_where_the_language_writes_decimals_with_a_comma(client, language):
    public, _private = save(client)
    comma = get_decimal_symbol(words_in(language).locale) == ","
    for path in ("/games", public):
        href = page(client, path, language).select_one("#export-csv")["href"]
        assert href.endswith("sep=semicolon") == comma, (path, href)
    assert client.get(href).get_data(as_text=True).startswith("\ufeffgame;" if comma else "\ufeffgame,")


@pytest.mark.pdf
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdf_is_in_the_language(client, language):
    from pypdf import PdfReader

    words = words_in(language)
    sheet = client.post("/", data=form_data(FOUR["game"]) | {"played_on": "2026-11-30"}).headers["Location"]
    response = client.get(sheet + ".pdf", headers={"Accept-Language": language})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.data)).pages)
    for words_on_it in (words._("Score sheet"), words._("Harmony Points"), words.row(Row.DWARVES), words.place(1)):
        assert " ".join(words_on_it.split()) in text, words_on_it
    assert re.search(re.escape(words.code(Card.SWAMP)) + r"\s", text), words.code(Card.SWAMP)
