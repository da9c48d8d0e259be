"""Tap, keyboard and text entry, live preview, explanations, German, axe-core:
in real Chromium at 360 × 740 (touch) and 1280 × 800."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import Game, Row, score_game
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_phone import read_table
from tests.conftest import CASE_FILES, load_case
from tests.web.test_entry import CY_DRAGON_CELLS

pytestmark = pytest.mark.browser

CASE = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
GAME = CASE["game"]
SHEET = score_game(Game.from_dict(GAME))
KEYS = {"forest": "f", "swamp": "s", "mountain": "m", "plain": "p", "elves": "e", "dwarves": "d",
        "humans": "h", "goblins": "g", "dragon": "r", "portal": "o"}  # fmt: skip
CODES = {"forest": "Fo", "swamp": "Sw", "mountain": "Mo", "plain": "Pl", "elves": "El", "dwarves": "Dw",
         "humans": "Hu", "goblins": "Go", "dragon": "Dr", "portal": "Po"}  # fmt: skip


def _taps_module():
    spec = importlib.util.spec_from_file_location("taps", Path(__file__).parents[2] / "bench" / "taps.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TAPS = _taps_module()


def cell_button(page, player: int, cell: int):
    return page.locator(f"#player-{player} .cell-input").nth(cell).locator(".cell-btn")


def start(page, base: str, players: int = 4, tap: bool = False) -> int:
    """Open the form with *players* panels; the taps it took."""
    page.goto(base + "/")
    page.wait_for_selector("#palette:not([hidden])")
    for _ in range(players - 2):  # a new panel at once, its name field focused
        (page.tap if tap else page.click)("#add-player")
    return players - 2


def names_and_legends(page, game: dict, tap: bool = False) -> int:
    taps = 0
    press = page.tap if tap else page.click
    for i, player in enumerate(game["players"]):
        page.fill(f"#players-{i}-name", player["name"])
        if player["legends"]:
            press(f"#player-{i} details.legends summary")
            taps += 1
        for legend in player["legends"]:
            press(f"#player-{i} input[type=checkbox][value='{legend}']")
            taps += 1
    return taps


def expect_sheet(page) -> None:
    page.wait_for_selector("#score-table")
    table = read_table(page)
    for row in Row:
        assert table[row.value] == [r.rows[row] for r in SHEET.results], row
    assert table["total"] == [r.total for r in SHEET.results]
    assert table["place"] == [r.place for r in SHEET.results]


def cells_entered(page, player: int) -> list[str]:
    return page.locator(f"#player-{player} .cell-input input").evaluate_all("ss => ss.map(s => s.value)")


def kingdom(player: int) -> list[str]:
    return [card for row in GAME["players"][player]["kingdom"] for card in row]


def shoot(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"))


def test_full_game_by_palette_taps_on_a_phone(touch_phone, live_server):
    page = touch_phone
    taps = start(page, live_server, tap=True)
    plan = TAPS.by_type(GAME)
    for kind, what, cell in plan:
        if kind == "palette":
            page.tap(f"#palette [data-card={what}]")
        else:
            cell_button(page, what, cell).tap()
        taps += 1
    for i in range(4):
        assert cells_entered(page, i) == kingdom(i)
    taps += names_and_legends(page, GAME, tap=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    expect(page.locator("#preview-3 [data-row=total]")).to_have_text("33")
    page.locator("#player-3 .kingdom-input").scroll_into_view_if_needed()
    shoot(page, "form-phone-taps")
    page.tap("#score")
    taps += 1
    expect_sheet(page)
    assert taps == len(plan) + TAPS.other_taps(GAME) == 87  # bench/README.md


def test_full_game_by_keyboard_on_a_desktop(desktop, live_server):
    page = desktop
    start(page, live_server)
    for i in range(4):
        cell_button(page, i, 0).focus()
        page.keyboard.type("".join(KEYS[card] for card in kingdom(i)))
        assert cells_entered(page, i) == kingdom(i)
    names_and_legends(page, GAME)
    page.click("#score")
    expect_sheet(page)


def test_full_game_by_typing_the_text_box(desktop, live_server):
    page = desktop
    start(page, live_server)
    for i in range(4):
        cells = kingdom(i)
        page.click(f"#player-{i} details.paste-field summary")
        text = "\n".join(" ".join(CODES[c] for c in cells[r * 4 : r * 4 + 4]) for r in range(4))
        page.fill(f"#players-{i}-paste", text)
        page.locator(f"#players-{i}-paste").blur()  # typed text fills the grid when the box is left
        expect(page.locator(f"#players-{i}-cells-15")).to_have_value(cells[15])
        assert cells_entered(page, i) == cells
    names_and_legends(page, GAME)
    page.click("#score")
    expect_sheet(page)


def test_live_preview_follows_each_change_and_undo_redo(touch_phone, live_server):
    page = touch_phone
    start(page, live_server, players=2)
    total = "#preview-0 [data-row=elves]"
    page.tap("#palette [data-card=elves]")
    cell_button(page, 0, 0).tap()
    page.tap("#palette [data-card=forest]")
    cell_button(page, 0, 1).tap()
    expect(page.locator(total)).to_have_text("2")  # R3: Forest +2
    assert "+2" in cell_button(page, 0, 0).inner_text()
    page.tap("#undo")
    expect(page.locator(total)).to_have_text("0")
    assert cells_entered(page, 0)[:2] == ["elves", ""]
    page.tap("#redo")
    expect(page.locator(total)).to_have_text("2")
    cell_button(page, 0, 1).tap()  # a second tap with the same type clears
    assert cells_entered(page, 0)[1] == ""


def test_sheet_explains_a_row_by_highlighting_its_cards(desktop, live_server):
    page = desktop
    page.goto(live_server + "/")
    token_url = _score_by_post(page, live_server)
    page.goto(token_url)
    page.click("#row-dragons td[data-player='2'] a.why")
    highlighted = page.locator("#kingdom-2 td.hl").evaluate_all("tds => tds.map(td => td.id)")
    assert highlighted == CY_DRAGON_CELLS
    why = page.locator("#why").inner_text()
    assert "Dragon at r2c2: domesticated by" in why and "+4" in why
    page.click("#row-conflicts td[data-player='0'] a.why")
    assert page.locator("#kingdom-0 .conflict-lines.show path").count() == 3
    shoot(page, "sheet-desktop-why")


def _score_by_post(page, base: str) -> str:
    """Score case 19 through the API-free path: the form's own POST, in the page."""
    start(page, base)
    for i in range(4):
        page.click(f"#player-{i} details.paste-field summary")
        page.fill(f"#players-{i}-paste", "\n".join(" ".join(kingdom(i)[r * 4 : r * 4 + 4]) for r in range(4)))
    names_and_legends(page, GAME)
    page.click("#score")
    page.wait_for_selector("#score-table")
    return page.url


def test_german_form_and_sheet(touch_phone, live_server):
    page = touch_phone
    page.goto(live_server + "/?lang=de")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("#palette [data-card=portal]").inner_text().strip().endswith("Portal")
    assert page.locator("#palette [data-card=forest]").inner_text().strip().endswith("Wald")
    url = _score_by_post(page, live_server)  # the cookie keeps German
    assert page.locator("#row-dragons th").inner_text() == "Drachen"
    assert "Harmoniepunkten" in page.locator("#winner").inner_text()
    expect_sheet(page)
    page.goto(url + "?lang=en")
    assert page.locator("#row-dragons th").inner_text() == "Dragons"


def test_no_javascript_keeps_the_plain_form(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        page.goto(live_server + "/")
        assert page.locator("#palette").is_hidden()
        assert page.locator("#players-0-cells-0").is_visible()
        page.click("#player-0 details.paste-field summary")
        page.fill("#players-0-paste", "f e o f\ns g e m\nr h p d\np h m o")
        page.click("#player-1 details.paste-field summary")
        page.fill("#players-1-paste", "\n".join(" ".join(kingdom(1)[r * 4 : r * 4 + 4]) for r in range(4)))
        page.fill("#players-0-name", "Ada")
        page.fill("#players-1-name", "Bo")
        page.click("#score")
        page.wait_for_selector("#score-table")
        totals = page.locator("#row-total td").evaluate_all("t => t.map(x => Number(x.dataset.value))")
        assert totals == [9, 6]
    finally:
        context.close()


def test_axe_finds_nothing_serious_and_no_other_host_is_asked(browser, live_server, axe_script):
    """The form and the sheet, light and dark: on a phone in English and German,
    then the same pages on a desktop screen (English: the markup is the same in
    both languages, the layout changes with the width)."""
    # axe-core is injected as an inline script, which the app's CSP forbids: let the test tool in.
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    page = context.new_page()
    hosts = []
    page.on("request", lambda request: hosts.append(request.url.split("/")[2]))
    try:
        sheets = {}
        for lang in ("en", "de"):
            page.goto(f"{live_server}/?lang={lang}")
            _check_form(page, axe_script, f"360-{lang}")
            page.goto(_score_by_post(page, live_server))
            sheets[lang] = page.url
            _check_sheet(page, axe_script, f"360-{lang}")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"{live_server}/?lang=en")
        _check_form(page, axe_script, "1280-en")
        page.goto(sheets["en"])
        _check_sheet(page, axe_script, "1280-en")
    finally:
        context.close()
    assert set(hosts) == {live_server.split("/")[2]}


def _check_form(page, axe_script: Path, name: str) -> None:
    """The form just opened, after a palette tap and a cell: axe, light and dark."""
    page.wait_for_selector("#palette:not([hidden])")
    page.click("#palette [data-card=dragon]")
    page.locator("#player-0 .cell-btn").first.click()
    check_axe_light_and_dark(page, axe_script, f"form-{name}")


def _check_sheet(page, axe_script: Path, name: str) -> None:
    """The sheet just opened, with a row explained: axe, light and dark."""
    page.click("#row-dragons td[data-player='2'] a.why")
    check_axe_light_and_dark(page, axe_script, f"sheet-{name}")


def check_axe_light_and_dark(page, axe_script: Path, name: str = "") -> None:
    """axe on the page as it stands in the light, then the dark colour scheme
    (the media emulated, no reload); a screenshot of each when asked for.
    A German page is checked light only: its markup and colours are the English
    page's (checked in both schemes), only its words differ."""
    german = page.evaluate("document.documentElement.lang") == "de"
    for scheme in ("light",) if german else ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        _check_axe(page, axe_script)
        if name:
            shoot(page, f"{name}-{scheme}")
    page.emulate_media(color_scheme=None)


def _check_axe(page, axe_script: Path) -> None:
    if not page.evaluate("typeof axe !== 'undefined'"):  # once per page
        page.add_script_tag(path=str(axe_script))
    # td-has-header is experimental in axe-core (off unless asked): the kingdom grids must pass it
    options = "{resultTypes: ['violations'], rules: {'td-has-header': {enabled: true}}}"
    results = page.evaluate(f"axe.run(document, {options})")
    serious = [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == [], json.dumps(serious, indent=1)


@pytest.mark.parametrize("entry", ["cells", "paste", "name", "nothing"])
def test_removing_a_player_with_entries_asks_first(phone, live_server, entry):
    """A kingdom painted on the palette counts as entries even without a name."""
    page = phone
    start(page, live_server, players=3)
    if entry == "cells":
        page.click("#palette [data-card=forest]")
        for cell in range(16):
            cell_button(page, 2, cell).click()
    elif entry == "paste":
        page.click("#player-2 details.paste-field summary")
        page.fill("#players-2-paste", "f f f f")
    elif entry == "name":
        page.fill("#players-2-name", "Cy")
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    if entry == "nothing":
        page.click("#player-2 .remove-player")
        page.wait_for_selector("#player-2", state="hidden")  # hidden at once: no question asked
        assert asked == []
    else:
        with page.expect_event("dialog"):  # the click returns once the question is answered (dismissed)
            page.click("#player-2 .remove-player", no_wait_after=True)
        assert asked == ["Remove player 3 and everything entered for them?"]
        expect(page.locator("#player-2")).to_be_visible()


def test_switching_language_keeps_what_was_tapped(phone, live_server):
    page = phone
    start(page, live_server, players=2)
    page.fill("#players-0-name", "Ada")
    page.click("#palette [data-card=forest]")
    for cell in range(3):
        cell_button(page, 0, cell).click()
    page.click(".languages summary")  # the languages fold out of the header
    with page.expect_navigation():
        page.click("#lang-de")
    page.wait_for_selector("#palette:not([hidden])")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.input_value("#players-0-name") == "Ada"
    assert cells_entered(page, 0)[:4] == ["forest", "forest", "forest", ""]


def test_a_pause_while_typing_in_the_text_box_reads_nothing_early(phone, live_server):
    """ "Go Sw Go D", a pause, then "r": the last card is a Dragon, not the Dwarves of key letter D."""
    page = phone
    page.clock.install()  # the page's timers: the pause below passes on the page's clock, not the test's
    start(page, live_server, players=2)
    reads = []  # the box's text sent to be read (the cells' own previews aside)
    page.on(
        "request",
        lambda request: (
            "/api/preview" in request.url
            and "text" in json.loads(request.post_data or "{}")
            and reads.append(request.post_data)
        ),
    )
    page.click("#player-0 details.paste-field summary")
    box = page.locator("#players-0-paste")
    box.fill("Mo Dw Mo Dr\nDw Po Dw El\nHu Pl Fo El\nGo Sw Go D")
    page.clock.run_for(5000)  # a five-second pause: every timer due in it fires
    page.evaluate("1")  # a round trip: a request a timer started has been reported by now
    assert reads == [] and cells_entered(page, 0)[15] == ""  # nothing read yet
    box.press("End")
    box.type("r")
    box.blur()
    expect(page.locator("#players-0-cells-15")).to_have_value("dragon")
    assert cells_entered(page, 0)[:4] == ["mountain", "dwarves", "mountain", "dragon"]
