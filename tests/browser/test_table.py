"""Score together (issue #10): four phones on one table at the same time.

Four Chromium contexts at 360 × 740 with touch; two of them in German, one
in dark mode. Each takes a seat (link, typed code, QR link), enters one
kingdom of case 19 by taps, interleaved with the others; one reloads half-way
and loses nothing; a wrong cell is reported and seen by its owner; each
kingdom is checked by another phone; the host locks and every phone moves to
the sheet with case 19's totals and places. axe-core runs on every page kind
(in one colour scheme where test_entry's axe runs cover the other).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_entry import _check_axe
from tests.conftest import load_case

pytestmark = pytest.mark.browser

CASE = load_case(Path(__file__).parents[1] / "data" / "cases" / "19-four-players.json")
ORDER = ["forest", "swamp", "mountain", "plain", "elves", "dwarves", "humans", "goblins", "dragon", "portal"]


def kingdom_taps(player: dict) -> list[tuple[str, object]]:
    """The taps for one kingdom: each card type on the palette, then its cells;
    then the Legends (open the list, tick each) and "Done"."""
    cells = [card for row in player["kingdom"] for card in row]
    taps: list[tuple[str, object]] = []
    for card in ORDER:
        if card in cells:
            taps.append(("palette", card))
            taps.extend(("cell", m) for m, c in enumerate(cells) if c == card)
    if player["legends"]:
        taps.append(("legends", None))
        taps.extend(("legend", legend) for legend in player["legends"])
    taps.append(("done", None))
    return taps


def tap(page, what: str, arg) -> None:
    if what == "palette":
        page.locator(f"#palette [data-card={arg}]").tap()
    elif what == "cell":
        page.locator("#player-0 .cell-input").nth(arg).locator(".cell-btn").tap()
    elif what == "legends":
        page.locator("#player-0 details.legends summary").tap()
    elif what == "legend":
        page.locator(f"#player-0 input[type=checkbox][value='{arg}']").tap()
    elif what == "done":
        with page.expect_navigation():
            page.locator("#done").tap()


@pytest.mark.slow  # 18 s of four browsers, run by CI; make test walks the same table in test_table_pages.py
def test_four_phones_score_case_19_together(browser, live_server, axe_script):
    players = CASE["game"]["players"]
    rows = list(CASE["expected"]["players"][0]["categories"])
    expected = {
        p["name"]: [*(p["categories"][r] for r in rows), p["total"], p["place"]] for p in CASE["expected"]["players"]
    }
    contexts = [
        browser.new_context(
            viewport={"width": 360, "height": 740},
            has_touch=True,
            is_mobile=True,
            color_scheme="dark" if n == 3 else "light",
            bypass_csp=n in (0, 3),  # axe-core comes as an inline script: let the test tool in on two phones
        )
        for n in range(4)
    ]
    phones = [context.new_page() for context in contexts]
    refused: list[str] = []  # the other two keep the CSP: nothing of ours may be refused by it
    for page in phones[1:3]:
        page.on("console", lambda message: refused.append(message.text) if "Content Security" in message.text else None)
    try:
        host, bo, cy, di = phones
        # the host starts a table in one tap and sees code, link and QR code
        host.goto(live_server + "/")
        with host.expect_navigation():
            host.locator("#start-table-button").tap()
        code = host.inner_text("#join-code").strip()
        link = host.get_attribute("#table-link", "href")
        assert host.locator("#table-qr").evaluate("img => img.naturalWidth > 0")
        _check_axe(host, axe_script)
        # they join: the link, the code typed (lower case, a dash), the link in German
        bo.goto(link)
        cy.goto(link + "?lang=de")
        di.goto(live_server + "/join?lang=de")
        _check_axe(di, axe_script)
        di.fill("#code", f"{code[:3].lower()}-{code[3:]}")
        with di.expect_navigation():
            di.locator("#join").tap()
        for page, player in zip(phones, players, strict=True):
            page.fill("#name", player["name"])
            with page.expect_navigation():
                page.locator("#take-seat-button").tap()
            page.wait_for_selector("#palette:not([hidden])")
        assert cy.locator("html").get_attribute("lang") == "de"
        _check_axe(di, axe_script)  # the seat page, German, dark (light: the form's axe run in test_entry)

        # all four enter at once, one tap each in turn; Bo reloads half-way
        plans = [kingdom_taps(player) for player in players]
        assert max(len(plan) for plan in plans) <= 30
        for step in range(max(len(plan) for plan in plans)):
            for page, plan in zip(phones, plans, strict=True):
                if step < len(plan):
                    tap(page, *plan[step])
            if step == 12:
                bo.wait_for_selector("#save-status:not(:empty)")
                before = [bo.input_value(f"#seat-cells-{m}") for m in range(16)]
                bo.reload()
                bo.wait_for_selector("#palette:not([hidden])")
                after = [bo.input_value(f"#seat-cells-{m}") for m in range(16)]
                assert after == before and sum(1 for v in after if v) >= 6
                chosen = [arg for what, arg in plans[1][: step + 1] if what == "palette"][-1]
                tap(bo, "palette", chosen)  # the card type chosen is the page's, not the draft's
        for page in phones:
            page.wait_for_selector("#seats")

        # Di finds a wrong cell in Ada's kingdom: Ada's phone shows it at once
        di.wait_for_selector("#check-1")
        with di.expect_navigation():
            di.locator("#check-1").tap()
        _check_axe(di, axe_script)
        di.locator("#check-grid label").nth(5).tap()
        with di.expect_navigation():
            di.locator("#wrong").tap()
        # (the notes may hold the deck note first: case 19 has 9 Elves, a 4-player deck 8, R1)
        host.locator("#table-notes p", has_text=re.compile("Di\u2069? says")).wait_for()  # the name isolated
        with host.expect_navigation():
            host.locator("#enter-1").tap()
        with host.expect_navigation():
            host.locator("#done").tap()  # looked again: the kingdom was right after all

        # each kingdom checked by the next phone
        for n, page in enumerate(phones):
            checked = (n + 1) % 4 + 1
            page.wait_for_selector(f"#check-{checked}")
            with page.expect_navigation():
                page.locator(f"#check-{checked}").tap()
            with page.expect_navigation():
                page.locator("#checked").tap()
        host.wait_for_selector("#seat-4 .checked")
        if SCREENSHOTS:
            host.screenshot(path=str(Path(SCREENSHOTS) / "table-live.png"), full_page=True)
        with host.expect_navigation():
            host.locator("#lock").tap()

        # every phone moves to the sheet: case 19's totals and places
        for page in phones:
            page.wait_for_selector("#table-done", timeout=10_000)
            page.wait_for_selector("#score-table")
            names = page.locator("#score-table th.player-name").all_inner_texts()
            values = [
                page.locator(f"#row-{row} td").evaluate_all("tds => tds.map(td => Number(td.dataset.value))")
                for row in [*rows, "total", "place"]
            ]
            columns = zip(*values, strict=True)
            assert {name.strip(): list(column) for name, column in zip(names, columns, strict=True)} == expected
        assert host.locator("#private-link").count() == 1 and bo.locator("#private-link").count() == 0
        _check_axe(host, axe_script)  # the sheet with the host's private link (dark: test_entry's axe run)
        assert di.locator("html").get_attribute("lang") == "de"

        # play again: the host opens a new table; the others take their seats back in one tap.
        # Cy's sheet, opened again just before, learns of it from the push alone.
        cy.reload()
        cy.wait_for_selector("#table-done")
        with host.expect_navigation():
            host.locator("#again").tap()
        host.wait_for_selector("#enter-1")
        cy.wait_for_selector("a#again", timeout=10_000)
        with cy.expect_navigation():
            cy.locator("a#again").tap()
        cy.wait_for_selector("#palette:not([hidden])")  # straight back in the seat, the kingdom empty
        assert cy.url.endswith("/seat/3") and cy.input_value("#seat-cells-0") == ""
        assert refused == []
    finally:
        for context in contexts:
            context.close()


def test_table_pages_without_javascript(browser, live_server):
    """Start, join and the live view work with JavaScript off ("Refresh")."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server + "/")
        with page.expect_navigation():
            page.click("#start-table-button")
        page.fill("#name", "Ada")
        with page.expect_navigation():
            page.click("#take-seat-button")
        page.click("#player-0 details.paste-field summary")
        page.fill("#seat-paste", "f e o f\ns g e m\nr h p d\np h m o")
        with page.expect_navigation():
            page.click("#save")
        assert page.input_value("#seat-cells-4") == "Sw"
        page.click("#back")
        assert "16/16" in page.inner_text("#seat-1")
        assert page.locator("#refresh button").is_visible()
    finally:
        context.close()
