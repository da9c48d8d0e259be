"""The entry form as a table meets it on a 360 × 740 touch phone (issue 11,
items 1 to 10): Enter, a reload, the first tap, the date, adding players, the
paste box, natural words, no-JS cells, undo of Legends, folding players."""

from __future__ import annotations

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
