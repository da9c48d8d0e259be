"""The page's language: chosen, remembered, or the browser's (issue 11, items 22 and 23)."""

from __future__ import annotations

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
        ("fr-FR,de;q=0.9,en;q=0.8", "de"),
        ("fr-CH,en-GB;q=0.7,de;q=0.6", "en"),
        ("en-US,de;q=0.9", "en"),
        ("fr", "en"),  # nothing we speak: English
        ("de;q=0,en", "en"),  # refused outright
    ],
)
def test_the_browser_language_with_its_region_falls_back_before_lower_ranks(client, accept, language):
    soup = BeautifulSoup(client.get("/", headers={"Accept-Language": accept}).data, "html.parser")
    assert soup.html["lang"] == language


def test_pages_that_depend_on_the_language_say_so_to_caches(client):
    sheet = client.post("/", data=form_data(GAME)).headers["Location"]
    for url in ("/", sheet, "/nowhere"):
        vary = client.get(url).headers.get("Vary", "")
        assert {"Accept-Language", "Cookie"} <= {part.strip() for part in vary.split(",")}, url
    for url in ("/healthz", "/static/css/app.css"):
        with client.get(url) as response:
            assert "Accept-Language" not in response.headers.get("Vary", ""), url
