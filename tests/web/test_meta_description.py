"""Every page says what it is to a search engine or a link preview: a meta description (issue 35)."""

from __future__ import annotations

import copy

from bs4 import BeautifulSoup

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.conftest import CASE_FILES, load_case

GAME = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]


def _description(response) -> str:
    tags = BeautifulSoup(response.get_data(as_text=True), "lxml").select('meta[name="description"]')
    assert len(tags) == 1  # one, not a page's own beside the site's
    return tags[0]["content"]


def test_every_page_has_one_meta_description(client):
    sheet = f"/sheet/{encode_game(Game.from_dict(copy.deepcopy(GAME)))}"
    for address in ("/", "/games", "/groups", "/offline", "/games/import", "/api/docs", "/no-such-page", sheet):
        assert _description(client.get(address)).strip(), address
    assert _description(client.get(sheet)) != _description(client.get("/"))  # the sheet's is its result


def test_the_description_speaks_the_pages_language(client):
    assert _description(client.get("/?lang=de")).startswith("Wertet DRAKO")
