"""Sharing a result and a rematch (issue 12, items 3 and 6), through the test
client: the text in the page's language, the links, the QR code on demand,
Open Graph tags, and "New game with the same players". The buttons themselves
(Web Share API, clipboard) are tried in Chromium: tests/browser/test_share.py."""

from __future__ import annotations

import copy
from datetime import date

import pytest
from bs4 import BeautifulSoup

from scorekeeper.engine import Game, score_game
from scorekeeper.web.i18n import LANGUAGES
from scorekeeper.words import Words, words_in
from tests.conftest import CASE_FILES, form_data, load_case, saved_links

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
SHARED = load_case(next(p for p in CASE_FILES if p.name.startswith("18-")))  # Ada and Bo share place 1
CLASSIC = load_case(next(p for p in CASE_FILES if p.name.startswith("20-")))
DAY = date(2026, 11, 30)


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def german() -> Words:
    from babel.support import Translations

    from scorekeeper import web

    folder = web.__file__.replace("web/__init__.py", "translations")
    return Words(Translations.load(folder, ["de"]), "de")


def test_the_result_line_names_the_winner_then_everyone_by_place():
    """Case 19: Di 33, Cy 30, Bo 13, Ada 11 (worked out in tests/data/cases)."""
    sheet = score_game(Game.from_dict(FOUR["game"]))
    assert Words().result_summary(sheet, DAY) == "DRAKO Pocket, 30 Nov 2026: Di wins with 33 · Cy 30 · Bo 13 · Ada 11"
    assert german().result_summary(sheet, DAY) == (
        "DRAKO Pocket, 30. Nov. 2026: Di gewinnt mit 33 · Cy 30 · Bo 13 · Ada 11"
    )
    assert Words().result_summary(sheet, None) == "DRAKO Pocket: Di wins with 33 · Cy 30 · Bo 13 · Ada 11"


def test_a_shared_win_reads_as_one():
    """Case 18: Ada and Bo share place 1 with 2 (R7.4), Cy 0."""
    sheet = score_game(Game.from_dict(SHARED["game"]))
    assert Words().result_summary(sheet, DAY) == "DRAKO Pocket, 30 Nov 2026: Ada and Bo share the win with 2 · Cy 0"
    assert german().result_summary(sheet, DAY) == (
        "DRAKO Pocket, 30. Nov. 2026: Ada und Bo gewinnen gemeinsam mit 2 · Cy 0"
    )
    everyone = score_game(Game.from_dict(load_case(CASE_FILES[0])["game"]))  # 0 : 0, nobody else to list
    assert Words().result_summary(everyone, None) == "DRAKO Pocket: Ada and Bo share the win with 0"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sheet_offers_the_text_the_link_and_a_qr_code_to_share(client, lang):
    sheet = client.post("/", data=form_data(FOUR["game"]) | {"played_on": "2026-11-30"}).headers["Location"]
    soup = soup_of(client.get(f"{sheet}?lang={lang}"))
    share = soup.select_one("#share")
    link = f"http://localhost{sheet}"
    # no isolates: it leaves the page
    text = words_in(lang).result_summary(score_game(Game.from_dict(FOUR["game"])), DAY)
    assert "DRAKO Pocket, 30" in text and "33 · Cy 30 · Bo 13 · Ada 11" in text
    assert share.select_one("#share-text").get_text() == f"{text}\n{link}"  # to select without JavaScript
    button = share.select_one("#share-result")
    assert button.has_attr("hidden")  # sheet.js shows it where it can work
    assert (button["data-text"], button["data-url"]) == (text, link)
    assert share.select_one("#copy-link")["data-copy"] == "share-link"
    assert share.select_one("#share-link")["value"] == link
    qr = share.select_one("details#qr-large img")  # on demand: loaded when opened
    assert qr["src"] == f"{sheet}/qr.svg" and qr["loading"] == "lazy" and int(qr["width"]) >= 256
    og = {meta["property"]: meta["content"] for meta in soup.select("meta[property^='og:']")}
    assert og["og:url"] == link and og["og:title"] == text.split(" · ")[0]
    assert og["og:description"] == "Di 33 · Cy 30 · Bo 13 · Ada 11"


def test_a_saved_game_shares_its_read_only_link_never_the_private_one(db_client):
    sheet = db_client.post("/", data=form_data(FOUR["game"])).headers["Location"]
    public, private = saved_links(db_client, db_client.post("/games", data={"token": sheet.removeprefix("/sheet/")}))
    link = f"http://localhost{public}"
    for page in (db_client.get(public), db_client.application.test_client().get(public)):  # owner, anyone
        soup = soup_of(page)
        assert soup.select_one("#share-result")["data-url"] == link
        assert soup.select_one("#share-text").get_text().endswith("\n" + link)
        assert soup.select_one("meta[property='og:url']")["content"] == link
        assert soup.select_one("#qr-large img")["src"] == public + "/qr.svg"
        assert private.rsplit("/", 1)[1] not in page.get_data(as_text=True)


def test_rematch_opens_the_form_with_the_same_players_in_the_same_order(db_client):
    game = copy.deepcopy(CLASSIC["game"])
    game["players"][0]["name"] = "Zoë & Jo"
    sheet = db_client.post("/", data=form_data(game)).headers["Location"]
    rematch = soup_of(db_client.get(sheet)).select_one("#rematch")["href"]
    names = [player["name"] for player in game["players"]]
    form = soup_of(db_client.get(rematch))
    assert [form.select_one(f"#players-{i}-name")["value"] for i in range(len(names))] == names
    assert form.select_one("input[name=ruleset][checked]")["value"] == "classic"
    assert all(not cell.get("value") for cell in form.select("#player-0 input[name^='players-0-cells-']"))
    public = db_client.post("/games", data={"token": sheet.removeprefix("/sheet/")}).headers["Location"]
    assert soup_of(db_client.get(public)).select_one("#rematch")["href"] == rematch  # saved games too
    four = soup_of(db_client.get(soup_of(db_client.get(public)).select_one("#rematch")["href"]))
    assert four.select_one("#players-0-name")["value"] == "Zoë & Jo"


def test_a_rematch_address_with_too_much_is_cut_to_a_form(client):
    names = "&".join(f"name=P{n}%07" for n in range(9))  # nine names, each with a control character
    form = soup_of(client.get(f"/?{names}&name={'x' * 500}&ruleset=nonsense"))
    assert [form.select_one(f"#players-{i}-name")["value"] for i in range(4)] == ["P0", "P1", "P2", "P3"]
    assert form.select_one("input[name=ruleset][checked]")["value"] == "pocket"
    one = soup_of(client.get("/?name=Solo"))
    assert one.select_one("#players-0-name")["value"] == "Solo" and one.select_one("#players-1-name")
