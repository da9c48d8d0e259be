"""What a page asks of the server in real Chromium: compressed files once, then nothing it need not ask."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.browser.test_entry import GAME, cell_button

pytestmark = pytest.mark.browser

SHEET = "/sheet/" + encode_game(Game.from_dict(GAME))


def previews_asked_on_loading(page, url: str) -> list[str]:
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/api/preview" in request.url else None)
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(500)  # more than entry.js waits before asking (150 ms)
    return asked


def test_the_empty_form_asks_for_no_preview_until_a_card_is_entered(phone, live_server):
    page = phone
    assert previews_asked_on_loading(page, live_server + "/") == []
    expect(page.locator("#preview-0")).to_be_visible()
    expect(page.locator("#preview-0 [data-row=total]")).to_have_text("0")
    page.click("#palette [data-card=elves]")
    with page.expect_response("**/api/preview"):
        cell_button(page, 0, 0).click()
    page.click("#palette [data-card=forest]")
    cell_button(page, 0, 1).click()
    expect(page.locator("#preview-0 [data-row=elves]")).to_have_text("2")
    expect(cell_button(page, 0, 0).locator(".pts")).to_have_text("+2")


def test_a_form_that_comes_back_filled_shows_its_points_without_asking(phone, live_server):
    page = phone
    assert previews_asked_on_loading(page, live_server + SHEET + "/edit") == []
    expect(page.locator("#preview-3")).to_be_visible()
    expect(page.locator("#preview-3 [data-row=total]")).to_have_text("33")
    expect(cell_button(page, 3, 1).locator(".pts")).to_have_text("+9")  # Di's Goblins at r1c2


def test_entries_the_browser_gives_back_after_back_are_scored(phone, live_server):
    page = phone
    page.goto(live_server + "/")
    page.click("#palette [data-card=elves]")
    cell_button(page, 0, 0).click()
    page.click("#palette [data-card=forest]")
    cell_button(page, 0, 1).click()
    expect(page.locator("#preview-0 [data-row=elves]")).to_have_text("2")
    page.click("a[href='/games']")
    with page.expect_response("**/api/preview"):  # the entries given back differ from the page as sent
        page.go_back()
    assert page.input_value("#players-0-cells-0") == "elves"
    expect(page.locator("#preview-0 [data-row=elves]")).to_have_text("2")
    expect(cell_button(page, 0, 0).locator(".pts")).to_have_text("+2")


def _resources(page) -> list[dict]:
    return page.evaluate(
        "performance.getEntriesByType('resource').map(e => ({name: e.name, sent: e.transferSize,"
        " encoded: e.encodedBodySize, decoded: e.decodedBodySize}))"
    )


@pytest.mark.parametrize("path", ["/", SHEET, SHEET + "/edit", "/games"])
def test_a_repeated_view_takes_every_static_file_from_the_cache(phone, live_server, path):
    page = phone
    page.goto(live_server + path, wait_until="networkidle")
    first = [r for r in _resources(page) if "/static/" in r["name"]]
    assert first and all(r["sent"] > 0 for r in first)
    # compressed, but for a file under Flask-Compress's COMPRESS_MIN_SIZE (500 bytes: static/js/scored.js)
    sent_whole = [r for r in first if r["decoded"] < 500]
    assert all(r["encoded"] == r["decoded"] for r in sent_whole)
    assert all(
        r["encoded"] < r["decoded"]
        for r in first
        if r["name"].split("?")[0].endswith((".css", ".js")) and r not in sent_whole
    )
    page.goto(live_server + path, wait_until="networkidle")
    again = _resources(page)
    assert {r["name"] for r in again} >= {r["name"] for r in first}
    assert [r for r in again if r["sent"] > 0] == []  # from the cache: nothing went over the network
