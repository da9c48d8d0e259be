"""A saved game's page: the score first, then sharing, then correcting and deleting (issue 11, items 15–17)."""

from __future__ import annotations

import copy
import re

import pytest
from bs4 import BeautifulSoup

from tests.conftest import CASE_FILES, form_data, load_case, saved_links

GAME = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]


def save(client, game=GAME, location="Café Lüders", notes=""):
    """Save *game*; the private link (this phone remembers it: the read-only page shows it the owner's controls)."""
    token = client.post("/", data=form_data(game)).headers["Location"].rsplit("/", 1)[-1]
    return saved_links(client, client.post("/games", data={"token": token, "location": location, "notes": notes}))[1]


def order_of(html: bytes, *selectors: str) -> list[int]:
    """Where each selector's element starts in the document (its index among all elements)."""
    soup = BeautifulSoup(html, "lxml")
    everything = soup.find_all(True)
    return [everything.index(soup.select_one(selector)) for selector in selectors]


@pytest.mark.pdf
def test_the_owner_sees_the_score_then_sharing_then_correcting_and_deleting(db_client):
    owner = save(db_client)
    page = db_client.get(owner, follow_redirects=True).data
    positions = order_of(page, "#winner", "#score-table", "#kingdoms", "#share-result", "#share-link", "#pdf",
                         "#rematch", "#edit", "#delete-game")  # fmt: skip
    assert positions == sorted(positions)


@pytest.mark.pdf
def test_everyone_else_sees_the_score_then_the_link(db_client):
    owner = save(db_client)
    public = "/g/" + owner.split("/")[2]
    page = db_client.application.test_client().get(public).data
    positions = order_of(page, "#score-table", "#kingdoms", "#share-link", "#pdf")  # (stats: for the group only)
    assert positions == sorted(positions)
    soup = BeautifulSoup(page, "lxml")
    assert soup.select_one("#edit") is None and soup.select_one("#delete-game") is None


def test_history_rows_show_the_time_and_the_location(db_client):
    save(db_client)
    other = copy.deepcopy(GAME)
    other["players"][0]["name"] = "Yara"
    save(db_client, other, location="")
    rows = BeautifulSoup(db_client.get("/games?lang=en").data, "lxml").select("#history li.game")
    newest, older = (row.select_one(".when").get_text() for row in rows[:2])
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC · Pocket", newest), newest
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC · Café Lüders · Pocket", older), older
    stamp = rows[0].select_one("time.local-time")["datetime"]  # for static/js/times.js
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", stamp)


def test_each_revision_lists_what_it_changed(db_client):
    game = copy.deepcopy(GAME)
    game["players"][2]["name"] = "Yara"
    owner = save(db_client, game)
    corrected = copy.deepcopy(game)
    assert corrected["players"][2]["kingdom"][2][1] == "humans"
    corrected["players"][2]["kingdom"][2][1] = "forest"  # row 3, column 2
    corrected["players"][0]["legends"] = []
    data = form_data(corrected) | {"based_on": 1, "played_on": "2026-11-30", "location": "Café Lüders"}
    assert db_client.post(owner + "/edit", data=data).status_code == 303
    soup = BeautifulSoup(db_client.get(owner + "?lang=en", follow_redirects=True).data, "lxml")
    latest, first = soup.select("#revisions > ul > li")
    changes = [li.get_text() for li in latest.select(".changes li")]
    assert changes == [
        "\u2068Ada\u2069: − Tribe of Humans",
        "\u2068Yara\u2069, row 3, column 2: Humans → Forest",
        "\u2068Ada\u2069 11 → 9",  # Yara's total stays 30: no line for it
    ]
    assert first.select_one(".changes").get_text() == "First saved."
    assert re.search(r"saved \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC", latest.get_text())  # without JavaScript
    assert latest.select_one("time.local-time")  # static/js/times.js: the viewer's time zone
    summary = soup.select_one("#revisions summary")
    assert summary.select_one(".open-hint").get_text() == "What changed"
    german = BeautifulSoup(db_client.get(owner + "?lang=de", follow_redirects=True).data, "lxml")
    line = german.select("#revisions > ul > li")[0].select(".changes li")[1].get_text()
    assert line == "\u2068Yara\u2069, Zeile 3, Spalte 2: Menschen → Wald"
