"""A new user's trial at the table on a 360 × 740 touch phone (issue 24,
items 11 to 15): the language switch and Back, the chosen palette button's
name, taps lost by accident, the form without JavaScript, the shared text."""

from __future__ import annotations

import copy
import re
from datetime import date

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.browser.test_entry import GAME
from tests.browser.test_phone_screen import _seat_page

pytestmark = pytest.mark.browser


def ready(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#palette:not([hidden])")


# 11. The language switch posts nothing and keeps every entry; Back after scoring gives the form.

TWO = {**GAME, "players": GAME["players"][:2]}


def _posts(page) -> list[str]:
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    return posts


def test_switching_language_posts_nothing_and_keeps_every_entry(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    page.tap("#add-player")
    page.fill("#players-0-name", "Ada")
    page.fill("#players-2-name", "Cy")
    page.locator("#palette [data-card=forest]").tap()
    for m in range(3):
        _cell(page, m).tap()
    page.tap("#player-0 details.legends summary")
    page.locator("#player-0 .legend-list input").first.tap()
    page.tap("#player-1 details.paste-field summary")
    page.fill("#players-1-paste", "Mo Dw Mo Dr")  # a line typed, three to go
    page.check("input[name=ruleset][value=classic]")
    posts = _posts(page)
    page.tap(".languages summary")  # the languages fold out of the header
    with page.expect_navigation():
        page.tap("#lang-de")
    page.wait_for_selector("#palette:not([hidden])")
    assert [url for url in posts if "/api/" not in url] == []  # the game was not sent
    assert page.locator("html").get_attribute("lang") == "de" and page.url == live_server + "/?lang=de"
    expect(page.locator("#draft-offer")).to_be_hidden()  # given back at once, not offered
    expect(page.locator("fieldset.player:visible")).to_have_count(3)
    assert [page.input_value(f"#players-{i}-name") for i in range(3)] == ["Ada", "", "Cy"]
    expect(page.locator("#player-switch button")).to_have_text(["Ada", "Spieler 2", "Cy"])
    assert [page.input_value(f"#players-0-cells-{m}") for m in range(4)] == ["forest", "forest", "forest", ""]
    expect(page.locator("#player-0 .legend-list input").first).to_be_checked()
    expect(page.locator("#player-0 details.legends .count")).to_have_text("(1)")
    assert page.input_value("#players-1-paste") == "Mo Dw Mo Dr"
    assert page.is_checked("input[name=ruleset][value=classic]")
    expect(_cell(page, 0)).to_have_attribute("aria-label", re.compile("Wald$"))  # in German


def _fill(page, game: dict) -> None:
    for i, player in enumerate(game["players"]):
        page.fill(f"#players-{i}-name", player["name"])
        page.click(f"#player-{i} details.paste-field summary")
        page.fill(f"#players-{i}-paste", "\n".join(" ".join(row) for row in player["kingdom"]))


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_back_after_scoring_in_another_language_gives_the_form(browser, live_server, javascript):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=javascript)
    page = context.new_page()
    try:
        page.goto(live_server + "/?lang=en")
        _fill(page, TWO)
        page.click(".languages summary")  # the languages fold out of the header
        with page.expect_navigation():
            page.click("#lang-de")  # without JavaScript: posted, answered with the form's address
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.input_value("#players-1-name") == TWO["players"][1]["name"]
        if javascript:  # the text boxes were read into the grids on the way
            page.wait_for_selector("#palette:not([hidden])")
        with page.expect_navigation():
            page.click("#score")
        page.wait_for_selector("#score-table")
        page.go_back()
        expect(page.locator("#game-form")).to_be_visible()  # not "Confirm Form Resubmission"
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.input_value("#players-0-name") == TWO["players"][0]["name"]
        page.go_back()  # and the English form before it
        expect(page.locator("#game-form")).to_be_visible()
    finally:
        context.close()


def _back_to_the_form_after_a_cookie_changed(page) -> None:
    """From a new sheet: its German page (the language cookie changes, and every page varies with the
    cookies: a posted page kept by the browser no longer matches), then Back to the form before it."""
    page.click(".languages summary")  # the languages fold out of the header
    with page.expect_navigation():
        page.click("#lang-de")
    page.go_back()
    page.wait_for_selector("#score-table")
    page.go_back()  # the old pages: net::ERR_CACHE_MISS, "Confirm Form Resubmission"
    expect(page.locator("#game-form")).to_be_visible()


def test_back_to_a_player_added_without_javascript_gives_the_form(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server + "/?lang=en")
        with page.expect_navigation():
            page.click("#add-player")  # posted: the form comes back from its own address
        expect(page.locator("#players-2-name")).to_be_focused()
        with page.expect_navigation():
            page.click("#player-2 .remove-player")
        _fill(page, TWO)
        with page.expect_navigation():
            page.click("#score")
        page.wait_for_selector("#score-table")
        _back_to_the_form_after_a_cookie_changed(page)
        expect(page.locator("fieldset.player:not([disabled])")).to_have_count(2)
    finally:
        context.close()


def test_back_to_a_refused_score_gives_the_form(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/?lang=en")
    _fill(page, TWO)
    page.fill("#players-0-name", "")
    with page.expect_navigation():
        page.click("#score")  # refused: the name is empty
    page.wait_for_selector("#form-errors")
    page.fill("#players-0-name", TWO["players"][0]["name"])
    with page.expect_navigation():
        page.click("#score")
    page.wait_for_selector("#score-table")
    _back_to_the_form_after_a_cookie_changed(page)
    assert page.input_value("#players-1-name") == TWO["players"][1]["name"]


# 12. The chosen palette button's name is whole ("Mountain", "Menschen"), light and dark.


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_chosen_palette_buttons_name_is_whole(touch_phone, live_server, lang, scheme):
    page = touch_phone
    page.emulate_media(color_scheme=scheme)
    ready(page, f"{live_server}/?lang={lang}")
    cut = []
    for button in page.locator("#palette [data-card]").all():
        button.tap()
        expect(button).to_have_attribute("aria-pressed", "true")
        name = button.locator(".pname")
        if name.evaluate("e => e.scrollWidth > e.clientWidth"):
            cut.append(name.inner_text())
    assert cut == []


# 13. Taps lost by accident: the chosen type tapped again, a double tap on a cell, a reload.


def _cell(page, m: int):
    return page.locator("#player-0 .cell-input").nth(m).locator(".cell-btn")


def _open(page, live_server: str, where: str):
    """The game form or a seat page, its palette ready; :returns: cell *m*'s submitted box."""
    if where == "form":
        ready(page, live_server + "/")
        return lambda m: page.locator(f"#players-0-cells-{m}")
    _seat_page(page, live_server)  # the seat page's palette
    return lambda m: page.locator(f"#seat-cells-{m}")


@pytest.mark.parametrize("where", ["form", "seat"])
def test_the_chosen_type_tapped_again_stays_chosen(touch_phone, live_server, where):
    page = touch_phone
    box = _open(page, live_server, where)
    mountain = page.locator("#palette [data-card=mountain]")
    mountain.tap()
    mountain.tap()
    expect(mountain).to_have_attribute("aria-pressed", "true")
    _cell(page, 0).tap()
    expect(box(0)).to_have_value("mountain")
    expect(page.locator("#tap-note")).to_have_count(0)  # no "First choose a card type"


@pytest.mark.parametrize("where", ["form", "seat"])
def test_a_double_tap_on_a_cell_paints_one_card(touch_phone, live_server, where):
    page = touch_phone
    box = _open(page, live_server, where)
    page.locator("#palette [data-card=mountain]").tap()
    _cell(page, 1).evaluate("b => { b.click(); return new Promise(r => setTimeout(() => { b.click(); r(); }, 60)); }")
    expect(box(1)).to_have_value("mountain")
    page.wait_for_timeout(600)  # a tap later still empties the cell, as the palette's help says
    _cell(page, 1).tap()
    expect(box(1)).to_have_value("")


@pytest.mark.parametrize("where", ["form", "seat"])
def test_a_reload_keeps_the_chosen_card_type(touch_phone, live_server, where):
    page = touch_phone
    box = _open(page, live_server, where)
    page.locator("#palette [data-card=forest]").tap()
    page.reload()
    page.wait_for_selector("#palette:not([hidden])")
    expect(page.locator("#palette [data-card=forest]")).to_have_attribute("aria-pressed", "true")
    _cell(page, 2).tap()
    expect(box(2)).to_have_value("forest")


# 14. Without JavaScript: what to type in the boxes, the Legends' count, a message clear of the Score bar.


@pytest.fixture
def no_js_phone(browser):
    """A 360 × 640 phone (16:9) with JavaScript off."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 640})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_without_javascript_the_boxes_say_what_to_type(no_js_phone, live_server, lang):
    page = no_js_phone
    page.goto(f"{live_server}/?lang={lang}")
    hint = page.locator("#type-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Fo Forest" if lang == "en" else "Wa Wald")
    expect(hint).to_contain_text("Dr Dragon" if lang == "en" else "Dr Drache")
    grid = page.locator("#player-0 .kingdom-input").bounding_box()
    box = hint.bounding_box()
    assert box["y"] + box["height"] <= grid["y"] < box["y"] + box["height"] + 40  # right above the first grid
    assert page.locator("#codes").get_attribute("open") is None  # the hint needs no section opened


def test_with_javascript_the_palette_replaces_the_typing_hint(touch_phone, live_server):
    ready(touch_phone, live_server + "/")
    expect(touch_phone.locator("#type-hint")).to_be_hidden()
    expect(touch_phone.locator("#tap-hint")).to_be_visible()


def test_without_javascript_no_legends_count_is_left_wrong(no_js_phone, live_server):
    page = no_js_phone
    page.goto(live_server + "/")
    summary = page.locator("#player-0 details.legends summary")
    summary.click()
    page.locator("#player-0 .legend-list input").first.check()
    page.locator("#player-0 .legend-list input").nth(1).check()
    shown = summary.inner_text()
    assert "(0)" not in shown and (not any(c.isdigit() for c in shown) or "(2)" in shown), shown
    with page.expect_navigation():
        page.click("#add-player")  # a round trip, then one tick taken back
    page.locator("#player-0 .legend-list input").first.uncheck()
    shown = page.locator("#player-0 details.legends summary").inner_text()
    assert "(2)" not in shown and (not any(c.isdigit() for c in shown) or "(1)" in shown), shown


def _covered(page, selector: str) -> bool:
    """Whether something else (the sticky Score bar) lies over a part of the element within the viewport."""
    return page.locator(selector).evaluate(
        """e => {
          const r = e.getBoundingClientRect();
          const corners = [[r.left + 2, r.top + 2], [r.right - 2, r.top + 2], [r.left + 2, r.bottom - 2],
                           [r.right - 2, r.bottom - 2]].filter(([x, y]) => y >= 0 && y < innerHeight);
          return corners.some(([x, y]) => !e.contains(document.elementFromPoint(x, y)));
        }"""
    )


@pytest.mark.parametrize("where", ["paste", "cell"])
def test_without_javascript_a_typo_message_is_not_behind_the_score_bar(no_js_phone, live_server, where):
    page = no_js_phone
    page.goto(live_server + "/")
    page.fill("#players-0-name", "Ada")
    page.fill("#players-1-name", "Bo")
    if where == "paste":
        page.click("#player-0 details.paste-field summary")
        page.fill("#players-0-paste", "Fo Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Mountian")
        message = "#players-0-paste-errors li"
    else:
        for m in range(16):
            page.fill(f"#players-0-cells-{m}", "Fo")
        page.fill("#players-0-cells-15", "Mountian")
        message = "#players-0-cells-errors li"
    with page.expect_navigation():
        page.click("#score")
    expect(page.locator(message)).to_contain_text("did you mean Mountain?")
    page.click("#form-errors .error-players a")  # "Ada": to her panel
    assert not _covered(page, message)
    page.locator(message).evaluate("e => e.scrollIntoView({block: 'end'})")  # scrolled to: at the foot of the screen
    box = page.locator(message).bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 640
    assert not _covered(page, message)


# 15. Text that leaves the page carries no invisible isolates (U+2068, U+2069) around names.

ISOLATES = ("\u2068", "\u2069")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_text_that_leaves_the_page_has_no_isolates(browser, live_server, lang):
    from tests.browser.test_share import NO_SHARE_SHEET, SHARE_SHEET, SHARED_GAME

    game = copy.deepcopy(SHARED_GAME)  # a sheet of its own: saved below, it must not be saved already
    game["players"][3]["name"] = f"Quin {lang}"
    sheet = "/sheet/" + encode_game(Game.from_dict(game), date(2026, 11, 30))
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = context.new_page()
    try:
        page.add_init_script(NO_SHARE_SHEET)
        page.goto(f"{live_server}{sheet}?lang={lang}")
        page.tap("#share-result")  # no share sheet: copied
        expect(page.locator("#share-status")).not_to_be_empty()
        left = {"clipboard": page.evaluate("navigator.clipboard.readText()")}
        left["box"] = page.input_value("#share-text")
        for tag in ("og:title", "og:description"):
            left[tag] = page.get_attribute(f"meta[property='{tag}']", "content")
        left["description"] = page.get_attribute("meta[name=description]", "content")
        with page.expect_navigation():
            page.tap("#save")
        page.add_init_script(SHARE_SHEET)
        page.reload()
        page.tap("#share-result")  # the phone's share sheet
        shared = page.evaluate("window.sharedData")
        left |= {"share title": shared["title"], "share text": shared["text"]}
        with page.expect_navigation():
            page.locator("#player-links a").first.tap()
        left["player page title"] = page.title()  # bookmarks, the browser's own Share
        assert "Quin" in left["clipboard"] and "Quin" in left["share text"]
        assert {what: text for what, text in left.items() if any(c in text for c in ISOLATES)} == {}
    finally:
        context.close()
