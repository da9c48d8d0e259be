"""The entry form as a table meets it on a 360 × 740 touch phone (issue 11,
items 1 to 10): Enter, a reload, the first tap, the date, adding players, the
paste box, natural words, no-JS cells, undo of Legends, folding players."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.browser.test_entry import CODES
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
        # a round trip (the language) keeps the date the phone gave
        page.click(".languages summary")  # the languages fold out of the header
        with page.expect_navigation():
            page.click("#lang-de")
        assert page.input_value("#played_on") == "2026-12-01"
    finally:
        context.close()


def test_saved_times_are_shown_in_the_viewers_time_zone(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, timezone_id="Pacific/Auckland")
    page = context.new_page()
    try:
        # a name of its own: a sheet saved by another test of this server would say "Already saved"
        game = {
            **CASE["game"],
            "players": [{**CASE["game"]["players"][0], "name": "Aroha"}, CASE["game"]["players"][1]],
        }
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
        assert "UTC" not in shown.inner_text()
        assert f"{local:%H}:{local:%M}" in shown.inner_text() and str(local.day) in shown.inner_text()
        assert "UTC" in shown.get_attribute("title")  # the server's words, kept
    finally:
        context.close()


# 5. Adding players: 2, 3 or 4 at once; the new name field in view and focused; "2 to 4 players".


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740 - 112  # above the palette


def test_add_a_player_is_the_one_way_and_shows_the_next_panel_at_once(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    requests = []
    page.on("request", lambda request: requests.append(request.method))
    assert page.locator(".player-count, [data-count]").count() == 0  # no second way (issue 35)
    page.tap("#add-player")
    expect(page.locator("fieldset.player:visible")).to_have_count(3)
    expect(page.locator("#player-limit")).to_be_hidden()
    page.tap("#add-player")
    expect(page.locator("fieldset.player:visible")).to_have_count(4)
    expect(page.locator("#add-player")).to_be_hidden()
    expect(page.locator("#player-limit")).to_have_text("A game has 2 to 4 players.")
    assert "POST" not in requests or set(requests) <= {"POST"} and page.url == live_server + "/"
    assert not any(r == "GET" for r in requests)  # no page load


def test_add_a_player_shows_and_focuses_the_new_name_field(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    page.tap("#add-player")
    expect(page.locator("#players-2-name")).to_be_focused()
    assert in_view(page, "#players-2-name")
    page.tap("#add-player")
    expect(page.locator("#players-3-name")).to_be_focused()
    assert in_view(page, "#players-3-name")
    expect(page.locator("#add-player")).to_be_hidden()
    expect(page.locator("#player-limit")).to_be_visible()


def test_add_a_player_without_javascript_focuses_the_new_name_field(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        page.goto(live_server + "/")
        with page.expect_navigation():
            page.click("#add-player")
        expect(page.locator("#players-2-name")).to_be_focused()
        assert in_view(page, "#players-2-name")
        with page.expect_navigation():
            page.click("#add-player")
        expect(page.locator("#add-player")).to_be_hidden()
        expect(page.locator("#player-limit")).to_have_text("A game has 2 to 4 players.")
    finally:
        context.close()


# 2. A reload or a closed tab loses nothing: a draft kept in the browser, offered back.


def fill_two_players_and_a_legend(page) -> None:
    page.fill("#players-0-name", "Ada")
    page.fill("#players-1-name", "Bo")
    page.tap("#palette [data-card=forest]")
    for cell in range(3):
        page.tap(f"#player-0 .cell-input:nth-child({cell + 1}) .cell-btn")
    page.tap("#player-1 details.legends summary")
    page.tap("#player-1 input[type=checkbox][value='lands-forest']")


def expect_restored(page) -> None:
    assert page.input_value("#players-0-name") == "Ada"
    assert page.input_value("#players-1-name") == "Bo"
    cells = page.locator("#player-0 .cell-input input").evaluate_all("ss => ss.map(s => s.value)")
    assert cells[:4] == ["forest", "forest", "forest", ""]
    assert page.is_checked("#player-1 input[type=checkbox][value='lands-forest']")
    expect(page.locator("#player-1 details.legends .count")).to_have_text("(1)")
    expect(page.locator("#player-0 .cell-input:nth-child(1) .cell-btn .code")).to_have_text("Fo")


def test_a_reload_offers_the_entries_back(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    assert page.evaluate("getComputedStyle(document.documentElement).overscrollBehaviorY") == "contain"
    fill_two_players_and_a_legend(page)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))
    page.reload()  # what pull-to-refresh does
    page.wait_for_selector("#palette:not([hidden])")
    assert dialogs == []  # everything was kept: no leave-page prompt
    offer = page.locator("#draft-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("Continue where you left off? (Ada, Bo)")
    page.tap("#draft-continue")
    expect(offer).to_be_hidden()
    expect_restored(page)


def test_the_offer_is_in_view_and_a_change_before_answering_keeps_the_draft(touch_phone, live_server):
    """Found by a fresh tester: reloaded far down the form, the offer stood
    1,200 px above the screen, and typing on overwrote the only copy of the
    draft. The offer is scrolled into view, and until it is answered a change
    is not kept over it (the browser asks before leaving instead)."""
    page = touch_phone
    ready(page, live_server + "/")
    fill_two_players_and_a_legend(page)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))
    page.reload()
    page.wait_for_selector("#palette:not([hidden])")
    offer = page.locator("#draft-offer")
    expect(offer).to_be_in_viewport()
    page.fill("#players-1-name", "Yan")  # a change before answering
    page.reload()
    page.wait_for_selector("#palette:not([hidden])")
    assert dialogs == ["beforeunload"]
    expect(offer).to_contain_text("Continue where you left off? (Ada, Bo)")
    page.tap("#draft-continue")
    expect_restored(page)


def test_a_closed_tab_offers_the_entries_back_and_a_scored_game_does_not(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    fill_two_players_and_a_legend(page)
    page.close()
    page = touch_phone.context.new_page()
    ready(page, live_server + "/")
    page.tap("#draft-continue")
    expect_restored(page)
    # "Start afresh" on another visit empties nothing that is shown and offers nothing again
    page2 = touch_phone.context.new_page()
    ready(page2, live_server + "/")
    page2.tap("#draft-discard")
    expect(page2.locator("#draft-offer")).to_be_hidden()
    page2.reload()
    page2.wait_for_selector("#palette:not([hidden])")
    expect(page2.locator("#draft-offer")).to_be_hidden()


def test_a_scored_game_is_not_offered_again(touch_phone, live_server):
    page = touch_phone
    enter_game(page, live_server, {**CASE["game"], "players": CASE["game"]["players"][:2]})
    page.click("#score")
    page.wait_for_selector("#score-table")
    ready(page, live_server + "/")
    page.wait_for_timeout(200)
    expect(page.locator("#draft-offer")).to_be_hidden()
    assert page.input_value("#players-0-name") == ""


# 3. The first tap with no card type chosen says so beside the cell; a hint above the first grid.


def test_a_first_tap_with_no_card_type_says_so_beside_the_cell(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    hint = page.locator("#tap-hint")
    expect(hint).to_have_text("Tap a card type in the palette below, then the cells it goes in.")
    assert hint.bounding_box()["y"] < page.locator("#player-0 .kingdom-input").bounding_box()["y"]
    page.fill("#players-0-name", "Ada")
    cell = page.locator("#player-0 .cell-input:nth-child(6) .cell-btn")  # row 2, column 2
    cell.tap()
    note = page.locator("#tap-note")
    expect(note).to_have_text("First choose a card type in the palette below.")
    cell_box, note_box = cell.bounding_box(), note.bounding_box()
    assert 0 <= note_box["y"] - (cell_box["y"] + cell_box["height"]) < 12  # right below the cell's row
    assert page.input_value("#players-0-cells-5") == ""
    page.tap("#palette [data-card=forest]")
    expect(note).to_be_hidden()
    cell.tap()
    assert page.input_value("#players-0-cells-5") == "forest"


# 6. The text box fills the grid as soon as four valid lines are there, or on "Fill the grid".

KINGDOM = "Mo Dw Mo Dr\nDw Po Dw El\nHu Pl Fo El\nGo Sw Go Dr"
KINGDOM_CELLS = ["mountain", "dwarves", "mountain", "dragon"]


def test_four_typed_lines_fill_the_grid_without_leaving_the_box(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    page.tap("#player-0 details.paste-field summary")
    box = page.locator("#players-0-paste")
    box.tap()
    box.press_sequentially(KINGDOM[:-1], delay=5)  # typed, the last word unfinished: nothing read
    page.wait_for_timeout(500)
    assert page.input_value("#players-0-cells-15") == ""
    box.press_sequentially("r ")  # the last word ends: the grid fills while the box keeps the focus
    expect(page.locator("#players-0-cells-15")).to_have_value("dragon")
    assert page.locator("#player-0 .cell-input input").evaluate_all("ss => ss.map(s => s.value)")[:4] == KINGDOM_CELLS
    expect(box).to_be_focused()


def test_fill_the_grid_button(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    page.tap("#player-1 details.paste-field summary")
    page.fill("#players-1-paste", KINGDOM.replace("Fo", "Forrest"))
    page.tap("#player-1 .fill-grid")
    expect(page.locator("#player-1 .paste-status")).to_contain_text("did you mean Forest?")
    # shown as a problem (found by a fresh tester: it looked like the grey "filled" message)
    expect(page.locator("#player-1 .paste-status")).to_have_class("paste-status is-error")
    expect(page.locator("#players-1-paste")).to_have_attribute("aria-invalid", "true")
    page.fill("#players-1-paste", KINGDOM)
    page.tap("#player-1 .fill-grid")
    expect(page.locator("#players-1-cells-15")).to_have_value("dragon")
    expect(page.locator("#player-1 .paste-status")).to_have_text("The grid was filled from the text.")
    expect(page.locator("#player-1 .paste-status")).to_have_class("paste-status")
    expect(page.locator("#players-1-paste")).not_to_have_attribute("aria-invalid", "true")


def test_fill_the_grid_says_what_is_wrong_with_fewer_than_four_lines(touch_phone, live_server):
    # found by a fresh tester: "hello" and "Fill the grid" said nothing (the answer's error was kept
    # for four lines and more, as typing is)
    page = touch_phone
    ready(page, live_server + "/")
    page.tap("#player-1 details.paste-field summary")
    page.fill("#players-1-paste", "hello")
    page.tap("#player-1 .fill-grid")
    expect(page.locator("#player-1 .paste-status")).to_contain_text("Four lines of four cards are needed")
    expect(page.locator("#player-1 .paste-status")).to_have_class("paste-status is-error")
    assert page.input_value("#players-1-paste") == "hello" and page.input_value("#players-1-cells-0") == ""


def test_fill_the_grid_without_a_connection_says_so_and_keeps_the_text(touch_phone, live_server):
    # found by a tester: offline, "Fill the grid" did nothing and said nothing
    page = touch_phone
    ready(page, live_server + "/")
    page.route("**/api/preview", lambda route: route.abort("internetdisconnected"))
    page.tap("#player-1 details.paste-field summary")
    page.fill("#players-1-paste", KINGDOM)
    page.tap("#player-1 .fill-grid")
    expect(page.locator("#player-1 .paste-status")).to_have_text(
        "No connection to fill the grid now: the text stays here, and the game is scored from it."
    )
    expect(page.locator("#player-1 .paste-status")).to_have_class("paste-status")
    assert page.input_value("#players-1-paste") == KINGDOM and page.input_value("#players-1-cells-15") == ""


# 9. Undo and Redo cover Legend ticks and every change.


def test_undo_and_redo_cover_legend_ticks_and_every_change(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    page.tap("#palette [data-card=forest]")
    page.tap("#player-0 .cell-input:nth-child(1) .cell-btn")
    page.tap("#player-0 details.legends summary")
    legend = "#player-0 input[type=checkbox][value='lands-forest']"
    page.tap(legend)
    page.fill("#players-0-name", "Ada")
    page.locator("#players-0-name").blur()
    page.tap("#add-player")
    page.tap("input[name=ruleset][value=classic]")
    count = page.locator("#player-0 details.legends .count")
    expect(count).to_have_text("(1)")
    page.tap("#undo")  # the ruleset
    assert page.is_checked("input[name=ruleset][value=pocket]")
    page.tap("#undo")  # the third player
    expect(page.locator("#player-2")).to_be_hidden()
    page.tap("#undo")  # the name
    assert page.input_value("#players-0-name") == ""
    page.tap("#undo")  # the tick, not the cell
    assert not page.is_checked(legend)
    expect(count).to_have_text("(0)")
    assert page.input_value("#players-0-cells-0") == "forest"
    page.tap("#redo")
    assert page.is_checked(legend)
    expect(count).to_have_text("(1)")
    page.tap("#undo")
    page.tap("#undo")  # the cell
    assert page.input_value("#players-0-cells-0") == ""
    for _ in range(4):
        page.tap("#redo")
    assert page.input_value("#players-0-name") == "Ada" and page.is_checked(legend)
    expect(page.locator("#player-2")).to_be_visible()
    expect(page.locator("#redo")).to_be_enabled()
    page.tap("#redo")
    assert page.is_checked("input[name=ruleset][value=classic]")
    expect(page.locator("#redo")).to_be_disabled()


# 8. Without JavaScript, cells that come back after a round trip show their card whole; Legends ticked in view.


@pytest.mark.parametrize("width", [320, 360])
def test_without_javascript_cells_come_back_whole_and_legends_ticked_in_view(browser, live_server, width):
    context = browser.new_context(java_script_enabled=False, viewport={"width": width, "height": 740})
    page = context.new_page()
    try:
        game = CASE["game"]
        enter_game(page, live_server, game)  # four players: three round trips
        page.fill("#players-0-name", "")  # refused: the form comes back
        with page.expect_navigation():
            page.click("#score")
        page.wait_for_selector("#form-errors")
        cut = page.locator(".cell-input input").evaluate_all(
            "boxes => boxes.filter(b => b.offsetParent && b.scrollWidth > b.clientWidth).map(b => b.value)"
        )
        assert cut == []
        shown = page.locator("#player-2 .cell-input input").evaluate_all("boxes => boxes.map(b => b.value)")
        assert shown == [CODES[card] for row in game["players"][2]["kingdom"] for card in row]  # "Dr", not "dra…"
        tints = page.locator("#player-2 .cell-input input").evaluate_all(
            "boxes => boxes.map(b => getComputedStyle(b).backgroundColor)"
        )
        assert len(set(tints)) == len(set(shown))  # each card keeps its tint
        # the Legends come back ticked, their lists open; no count (it could not follow a tick: issue 24, item 14)
        for i, player in enumerate(game["players"]):
            ticked = page.locator(f"#player-{i} .legend-list input:checked").evaluate_all("bs => bs.map(b => b.value)")
            assert sorted(ticked) == sorted(player["legends"])
            if player["legends"]:
                expect(page.locator(f"#player-{i} details.legends")).to_have_attribute("open", "")
        expect(page.locator("details.legends .count").first).to_be_hidden()
    finally:
        context.close()


# 10. A finished player folds to one line; a player switcher; two players side by side at 1024 px and wider.


def test_a_finished_player_folds_to_one_line_with_a_switcher(touch_phone, live_server):
    page = touch_phone
    ready(page, live_server + "/")
    page.tap("#add-player")
    page.tap("#add-player")
    page.fill("#players-0-name", "Ada")
    page.locator("#players-0-name").blur()
    page.tap("#player-0 details.paste-field summary")
    page.fill("#players-0-paste", KINGDOM)
    page.tap("#player-0 .fill-grid")
    expect(page.locator("#players-0-cells-15")).to_have_value("dragon")
    expect(page.locator("#preview-0 [data-row=total]")).not_to_have_text("0")
    total = page.locator("#preview-0 [data-row=total]").inner_text()
    page.tap("#player-0 .fold-player")
    folded = page.locator("#player-0 .fold-line")
    expect(folded).to_be_visible()
    expect(folded).to_contain_text("Ada")
    expect(folded).to_contain_text("16 of 16 cards")
    expect(folded).to_contain_text(f"{total} points so far")
    assert page.locator("#player-0").bounding_box()["height"] < 80  # one line
    expect(page.locator("#players-1-name")).to_be_focused()  # on to the next player
    switcher = page.locator("#player-switch button")
    expect(switcher).to_have_text(["Ada", "Player 2", "Player 3", "Player 4"])
    page.locator("#player-switch button", has_text="Ada").tap()
    expect(page.locator("#player-0 .kingdom-input")).to_be_visible()
    expect(page.locator("#players-0-name")).to_be_focused()
    page.tap("#player-switch button:has-text('Player 4')")
    top = page.locator("#player-3").bounding_box()["y"]
    assert 0 <= top < 740 / 2


def test_two_players_side_by_side_on_a_wide_screen(desktop, live_server):
    page = desktop
    ready(page, live_server + "/")
    first, second = page.locator("#player-0").bounding_box(), page.locator("#player-1").bounding_box()
    assert first["y"] == second["y"] and second["x"] >= first["x"] + first["width"]


def test_axe_finds_nothing_serious_in_the_new_parts_of_the_form(browser, live_server, axe_script):
    """The draft offer, the first-tap note, a folded player and the switcher,
    light and dark, in English and German."""
    from tests.browser.test_entry import check_axe_light_and_dark

    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True, has_touch=True)
    page = context.new_page()
    try:
        for lang in ("en", "de"):
            ready(page, f"{live_server}/?lang={lang}")
            page.fill("#players-0-name", "Ada")
            page.locator("#players-0-name").blur()
            page.reload()
            page.wait_for_selector("#draft-offer:not([hidden])")
            check_axe_light_and_dark(page, axe_script)
            page.tap("#draft-continue")
            page.tap("#player-1 .cell-input:nth-child(2) .cell-btn")
            page.tap("#player-0 .fold-player")
            while page.locator("#add-player").is_visible():
                page.tap("#add-player")
            check_axe_light_and_dark(page, axe_script)
            page.evaluate("localStorage.clear()")
    finally:
        context.close()


@pytest.mark.parametrize("width", [320, 360])
def test_every_palette_label_is_whole_in_german(browser, live_server, width):
    """Found by a fresh tester: "Rückgän…" and "Wiederh…" on a 360 px phone."""
    context = browser.new_context(viewport={"width": width, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(live_server + "/?lang=de")
        page.wait_for_selector("#palette:not([hidden])")
        cut = page.evaluate(
            "[...document.querySelectorAll('.pal .pname')].filter(e => e.scrollWidth > e.clientWidth)"
            ".map(e => e.textContent)"
        )
        assert cut == []
    finally:
        context.close()
