"""Saving and sharing in Chromium (issue 12, items 2 and 3; issue 14, item 9).

``navigator.share`` is the browser's API, not ours: an init script stands in
for the phone's share sheet and keeps what the page hands it. Without it, the
same button copies to the clipboard (permission granted to the test)."""

from __future__ import annotations

import copy
import re
from datetime import date

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.browser.test_entry import GAME, _check_axe

pytestmark = pytest.mark.browser

#: Case 19 with the names of the issue: Quin 33, Mads 30, Rin 13, Yara 11.
SHARED_GAME = copy.deepcopy(GAME)
for player, name in zip(SHARED_GAME["players"], ["Yara", "Rin", "Mads", "Quin"], strict=True):
    player["name"] = name
SHEET = "/sheet/" + encode_game(Game.from_dict(SHARED_GAME), date(2026, 11, 30))
TEXT = "DRAKO Pocket, 30 Nov 2026: Quin wins with 33 · Mads 30 · Rin 13 · Yara 11"  # no isolates: it leaves the page

SHARE_SHEET = """
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  value: function (data) { window.sharedData = data; return Promise.resolve(); },
});
"""
NO_SHARE_SHEET = "delete Navigator.prototype.share;"


def test_save_then_share_the_read_only_link_through_the_phones_share_sheet(browser, live_server, axe_script):
    # axe-core is injected as an inline script, which the app's CSP forbids: let the test tool in.
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    requests: list = []
    page.on("request", lambda request: requests.append(request))
    try:
        page.goto(f"{live_server}{SHEET}?lang=en")
        with page.expect_navigation():
            page.click("#save")
        public = page.url
        assert re.fullmatch(re.escape(live_server) + r"/g/[\w-]+", public)  # no secret in the address bar
        private = page.input_value("#private-link")
        assert private.startswith(public + "/") and len(private) == len(public) + 33
        expect(page.locator("#copy-private-link")).to_be_visible()
        _check_axe(page, axe_script)  # the one-time box too
        expect(page.locator("#share-result")).to_be_visible()
        page.click("#share-result")
        shared = page.evaluate("window.sharedData")
        assert shared["url"] == public and shared["text"] == TEXT
        assert page.input_value("#share-text") == f"{TEXT}\n{public}"
        page.click("#qr-large summary")
        page.wait_for_function("document.querySelector('#qr-large img').naturalWidth > 0")  # loaded when opened
        assert page.locator("#qr-large img").bounding_box()["width"] >= 256  # large, to scan across a table
        page.goto(private)  # the old private link: remembered, and off the address bar
        assert page.url == public and page.locator("#edit").is_visible()
        with page.expect_navigation():
            page.click("#rematch")
        names = [page.input_value(f"#players-{i}-name") for i in range(4)]
        assert names == ["Yara", "Rin", "Mads", "Quin"]
        sent = [(r.url, r.all_headers().get("referer")) for r in requests if r.url.startswith(live_server)]
        assert any("/static/" in url for url, _ in sent)
        assert [(url, referer) for url, referer in sent if referer] == []  # no Referer, to static files or pages
    finally:
        context.close()


def test_without_a_share_sheet_share_result_and_copy_link_use_the_clipboard(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(NO_SHARE_SHEET)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = context.new_page()
    try:
        page.goto(f"{live_server}{SHEET}?lang=de")  # a sheet not saved: its own link
        page.click("#share-result")
        expect(page.locator("#share-status")).to_have_text("Ergebnis und Link kopiert: Füge sie in einen Chat ein.")
        german = TEXT.replace("30 Nov 2026", "30. Nov. 2026").replace("wins with", "gewinnt mit")
        assert page.evaluate("navigator.clipboard.readText()") == f"{german}\n{live_server}{SHEET}"
        page.click("#copy-link")
        expect(page.locator("#share-status")).to_have_text("Link kopiert.")
        assert page.evaluate("navigator.clipboard.readText()") == f"{live_server}{SHEET}"
    finally:
        context.close()
