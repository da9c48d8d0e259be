"""The entry form as a table meets it on a 360 × 740 touch phone (issue 11,
items 1 to 10): Enter, a reload, the first tap, the date, adding players, the
paste box, natural words, no-JS cells, undo of Legends, folding players."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from tests.browser.test_phone import CASE, enter_game

pytestmark = pytest.mark.browser


def ready(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#palette:not([hidden])")


# 1. Implicit submission (Enter, the phone keyboard's Go) never switches the language.


@pytest.mark.parametrize("lang", ["en", "de"])
def test_enter_in_a_name_scores_the_game_and_keeps_the_language(touch_phone, live_server, lang):
    page = touch_phone
    ready(page, f"{live_server}/?lang={lang}")
    page.fill("#players-0-name", "Ada")
    with page.expect_navigation():
        page.press("#players-0-name", "Enter")
    assert page.locator("html").get_attribute("lang") == lang
    assert "lang=" not in page.url
    page.wait_for_selector("#form-errors")  # scored: the empty kingdoms are refused, every entry kept
    assert page.input_value("#players-0-name") == "Ada"


def test_enter_on_the_sheet_the_correction_and_history_forms_keeps_the_language(touch_phone, live_server):
    page = touch_phone
    game = {**CASE["game"], "players": CASE["game"]["players"][:2]}
    page.goto(live_server + "/?lang=de")  # remembered (cookie)
    enter_game(page, live_server, game)
    page.click("#score")
    page.wait_for_selector("#score-table")
    # the save form on the sheet: Enter in "Location" saves the game
    page.fill("#location", "Küche")
    with page.expect_navigation():
        page.press("#location", "Enter")
    assert page.locator("html").get_attribute("lang") == "de"
    page.wait_for_selector("#edit")
    # the correction form: Enter in "Location" saves the correction
    with page.expect_navigation():
        page.click("#edit")
    page.wait_for_selector("#palette:not([hidden])")
    page.fill("#location", "Garten")
    with page.expect_navigation():
        page.press("#location", "Enter")
    assert page.locator("html").get_attribute("lang") == "de"
    assert "Garten" in page.locator("main").inner_text()
    # the history filter: Enter filters
    page.goto(live_server + "/games")
    page.fill("#player", game["players"][0]["name"])
    with page.expect_navigation():
        page.press("#player", "Enter")
    assert page.locator("html").get_attribute("lang") == "de"
    assert "player=" in page.url


# 4. The date played is the phone's local date; saved times in the viewer's time zone.


def test_date_played_is_the_phones_local_date(browser, live_server):
    """Pacific/Auckland at 06:45 on 1 December is 17:45 UTC on 30 November."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, timezone_id="Pacific/Auckland"
    )
    context.clock.install(time=datetime(2026, 11, 30, 17, 45, tzinfo=UTC))
    page = context.new_page()
    try:
        ready(page, live_server + "/")
        assert page.input_value("#played_on") == "2026-12-01"
        # a round trip keeps the date the phone gave
        with page.expect_navigation():
            page.click("#add-player")
        assert page.input_value("#played_on") == "2026-12-01"
    finally:
        context.close()


def test_saved_times_are_shown_in_the_viewers_time_zone(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, timezone_id="Pacific/Auckland")
    page = context.new_page()
    try:
        game = {**CASE["game"], "players": CASE["game"]["players"][:2]}
        enter_game(page, live_server, game)
        page.click("#score")
        page.wait_for_selector("#score-table")
        with page.expect_navigation():
            page.click("#save")
        with page.expect_navigation():
            page.click("#edit")
        page.wait_for_selector("#palette:not([hidden])")
        page.fill("#location", "Garten")
        with page.expect_navigation():
            page.click("#score")
        shown = page.locator("#revisions summary time")
        moment = datetime.fromisoformat(shown.get_attribute("datetime").replace("Z", "+00:00"))
        local = moment.astimezone(ZoneInfo("Pacific/Auckland"))
        assert "UTC" not in shown.inner_text() and "GMT+13" in shown.inner_text()
        assert f"{local:%H}:{local:%M}" in shown.inner_text() and str(local.day) in shown.inner_text()
        assert "UTC" in shown.get_attribute("title")  # the server's words, kept
    finally:
        context.close()
