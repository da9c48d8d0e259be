"""Every player's name isolated from its neighbours wherever it is shown (issue 11, item 18)."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup

from scorekeeper.engine import Game, score_game
from scorekeeper.words import ENGLISH, Words
from tests.browser.test_sheet import RTL_GAME
from tests.conftest import form_data
from tests.web.test_table_pages import check_page, seat_fields, start_table

NAMES = {"سارة", "דנה", "Ann", "Bo"}


def isolated_names(html: bytes) -> tuple[list[str], list[str]]:
    """The texts holding a name: (isolated, not isolated). Isolated: the whole text of a <bdi> or a
    dir="auto" element, or between U+2068 and U+2069 inside a sentence."""
    soup = BeautifulSoup(html, "lxml")
    inside, outside = [], []
    for text in soup.find_all(string=True):
        if text.parent.name in ("script", "style", "title", "textarea"):
            continue  # a title and the result to copy leave the page: plain text, no isolates (issue 24, item 15)
        for name in NAMES:
            # the name as a word: a link's random id may hold "Bo" ("…rcBox…"), which is no name
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text):
                whole = text.strip() == name and (text.parent.name == "bdi" or text.parent.get("dir") == "auto")
                isolated = whole or text.count(name) == text.count(f"\u2068{name}\u2069")
                (inside if isolated else outside).append(f"{text.parent.name}: {text.strip()}")
    for element in soup.find_all(attrs={"aria-label": True}):  # a label read aloud is a sentence too
        label = element["aria-label"]
        for name in NAMES:
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", label):
                isolated = label == name or label.count(name) == label.count(f"\u2068{name}\u2069")
                (inside if isolated else outside).append(f"{element.name}[aria-label]: {label}")
    return inside, outside


def test_names_are_isolated_on_the_sheet_saved_page_history_and_stats(db_client):
    sheet = db_client.post("/", data=form_data(RTL_GAME)).headers["Location"]
    saved = db_client.post("/games", data={"token": sheet.rsplit("/", 1)[-1], "location": "", "notes": ""})
    owner_page = saved.headers["Location"]
    for url in (sheet, owner_page, "/games", "/games?player=Ann"):
        inside, outside = isolated_names(db_client.get(url, follow_redirects=True).data)
        assert inside and not outside, (url, outside)
    stats = BeautifulSoup(db_client.get("/games?player=Ann").data, "lxml").select_one("#player-stats")["href"]
    inside, outside = isolated_names(db_client.get(stats).data)
    assert inside and not outside, outside


def test_names_inside_sentences_are_isolated_on_pages_only():
    sheet = score_game(Game.from_dict(RTL_GAME))
    on_a_page = Words(isolate_names=True)
    assert on_a_page.shared(sheet, sheet.shared[0]).startswith("\u2068سارة\u2069 and \u2068Bo\u2069 share place 1")
    assert ENGLISH.shared(sheet, sheet.shared[0]).startswith("سارة and Bo share place 1")  # CLI and JSON: plain


def test_names_are_isolated_on_a_tables_pages_its_check_page_and_seat_page(app, client):
    """Found by a tester: /t/<code>/check/2 for "דנה" read "Kingdom of 4 :דנה rows of 4 cards"
    (the grid's legend), and the seat page's grid and cells were labelled the same way."""
    code = start_table(client)
    phones = {"Ann": client, "דנה": app.test_client(), "سارة": app.test_client()}
    for name, phone in phones.items():
        assert phone.post(f"/t/{code}/seats", data={"name": name}).status_code == 303
    players = {p["name"]: p for p in RTL_GAME["players"]}
    for number, name in enumerate(phones, start=1):
        answer = phones[name].post(f"/t/{code}/seat/{number}", data=seat_fields(players[name], "save"))
        assert answer.status_code == 303
    ann, dana, sara = client, phones["דנה"], phones["سارة"]
    for phone, number, name in [(dana, 2, "דנה"), (sara, 3, "سارة")]:
        assert phone.post(f"/t/{code}/seat/{number}", data=seat_fields(players[name])).status_code == 303
    assert check_page(dana, code, 3, "wrong", "5").status_code == 303  # a note to the host names both
    pages = [(ann, f"/t/{code}"), (sara, f"/t/{code}"), (ann, f"/t/{code}/live"), (sara, f"/t/{code}/live")]
    pages += [(ann, f"/t/{code}/seat/1"), (dana, f"/t/{code}/seat/2"), (ann, f"/t/{code}/check/2")]
    for language in ("en", "de", "fr"):
        for phone, url in pages:
            answer = phone.get(f"{url}?lang={language}")
            inside, outside = isolated_names(answer.data)
            assert answer.status_code == 200 and inside and not outside, (url, language, outside)
    legend = BeautifulSoup(client.get(f"/t/{code}/check/2").data, "lxml").select_one("#check-grid legend")
    assert legend.bdi.get_text() == "דנה"
    # a button or a link drawn as one is a flex box: a <bdi> in it would be an item of its own and
    # the space before it would go ("CheckAda", seen in a screenshot), so its name is isolated in text
    page = BeautifulSoup(sara.get(f"/t/{code}?lang=en").data, "lxml")
    buttons = page.select("a.button, button")
    assert buttons and all(button.find("bdi") is None for button in buttons)
    assert page.select_one("#check-2").get_text() == "Check \u2068דנה\u2069"
