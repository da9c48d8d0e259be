"""A seat's taps survive a reload that comes before their draft reached the server.

table.js keeps the draft the server has not acknowledged on the phone
(localStorage), shows it again after a reload and sends it; a locked table
drops it. The drafts (acknowledged events on the page's stream, or ``PUT
/api/tables/<code>/seats/<n>`` without one) are held (Playwright's routing,
:class:`Drafts`) so that the reload surely renders the server's older draft,
as a slow network would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.conftest import load_case

pytestmark = pytest.mark.browser

CASE = load_case(Path(__file__).parents[1] / "data" / "cases" / "19-four-players.json")


def _new_phone(browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    problems: list[str] = []  # no script error, nothing of ours refused by the Content-Security-Policy
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if "Content Security" in message.text else None)
    return context, page, problems


def _take_seat(page, name: str) -> None:
    page.fill("#name", name)
    with page.expect_navigation():
        page.locator("#take-seat-button").tap()
    page.wait_for_selector("#palette:not([hidden])")


def _paint(page, card: str, cells) -> None:
    page.locator(f"#palette [data-card={card}]").tap()
    for m in cells:
        page.locator("#player-0 .cell-input").nth(m).locator(".cell-btn").tap()


def _grid(page) -> list[str]:
    return [page.input_value(f"#seat-cells-{m}") for m in range(16)]


def _stored(page) -> list[str]:
    """The seat as the server held it when it sent the page ("" for no card, as the grid's boxes)."""
    return [cell or "" for cell in json.loads(page.get_attribute("#seat-form", "data-stored"))["kingdom"]]


DRAFTS = "**/api/tables/*/seats/*"  # where a seat page's script sends its drafts without a stream
STREAM = "**/socket.io/**"


class Drafts:
    """A page's drafts on their way, however they go: acknowledged events on its stream
    (``42<id>["draft", …]`` out, ``43<id>[…]`` back) or the PUT. Passed on as they are,
    unless the test holds them before the server (:meth:`hold`), holds the server's answers
    (:meth:`hold_answers`; the server has the draft), or drops them (:meth:`drop`); held,
    they go on, in order, with :meth:`release`. *stream* False: the page has no stream
    (its WebSocket refused, as a proxy may), its drafts go as the PUT."""

    def __init__(self, page, stream: bool = True) -> None:
        self.page, self.stream = page, stream
        self.mode = ""
        self.held: list = []  # what goes on when released
        page.route_web_socket(STREAM, self._socket)

    def _socket(self, ws) -> None:
        if not self.stream:
            ws.close()
            return
        server = ws.connect_to_server()

        def out(message) -> None:
            if self.mode in ("hold", "drop") and isinstance(message, str) and message.startswith("42"):
                if self.mode == "hold":
                    self.held.append(lambda: server.send(message))
                return
            server.send(message)

        def back(message) -> None:
            if self.mode == "answers" and isinstance(message, str) and message.startswith("43"):
                self.held.append(lambda: ws.send(message))
                return
            ws.send(message)

        ws.on_message(out)
        server.on_message(back)

    def _put(self, route) -> None:
        if self.mode == "drop":
            route.abort()
        elif self.mode == "answers":
            answer = route.fetch()  # stored, its answer held
            self.held.append(lambda: route.fulfill(response=answer))
        else:
            self.held.append(route.continue_)

    def _routing(self, mode: str) -> None:
        self.mode = mode
        self.page.route(DRAFTS, self._put)

    def hold(self) -> None:
        self._routing("hold")

    def hold_answers(self) -> None:
        self._routing("answers")

    def drop(self) -> None:
        self._routing("drop")

    def wait_held(self, count: int = 1) -> None:
        while len(self.held) < count:
            self.page.wait_for_timeout(20)

    def release(self, count: int | None = None) -> None:
        """The first *count* held (all of them) go on; what comes later passes."""
        self.mode = ""
        self.page.unroute(DRAFTS)
        going, self.held = self.held[:count], self.held[count:] if count is not None else []
        for send in going:
            try:
                send()
            except Exception:  # the old page's own, gone with it
                pass


KEPT = "Object.keys(localStorage).filter(k => k.startsWith('scorekeeper.seat:')).length"  # seat drafts kept


def _saved(page) -> None:
    expect(page.locator("#save-status")).to_have_text("Saved")


def _shot(page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / name), full_page=True)


def _start_table_as(page, live_server: str, name: str) -> str:
    """*page* starts a table from the home page and takes its first seat as *name*. :returns: the code."""
    page.goto(live_server + "/")
    with page.expect_navigation():
        page.locator("#start-table-button").tap()
    code = page.inner_text("#join-code").strip()
    _take_seat(page, name)
    return code


def _seat_ada_and_bo(host, bo, live_server: str, done: bool = False) -> str:
    """A table started by *host*, seated as Ada, Bo on his own phone; with
    *done*, both kingdoms of case 19 entered and done. :returns: the code."""
    code = _start_table_as(host, live_server, "Ada")
    bo.goto(f"{live_server}/t/{code}")
    _take_seat(bo, "Bo")
    for page, player in zip((host, bo), CASE["game"]["players"], strict=False) if done else ():
        cells = [card for row in player["kingdom"] for card in row]
        fields = {f"seat-cells-{m}": card for m, card in enumerate(cells)}
        token = page.get_attribute("#seat-form input[name=csrf_token]", "value")
        answer = page.request.post(page.url, form=fields | {"action": "done", "csrf_token": token}, max_redirects=0)
        assert answer.status == 303
    for page in (host, bo) if done else ():  # each open seat page comes anew by itself: its seat is done
        expect(page.locator("#undone")).to_be_visible(timeout=10_000)
        page.wait_for_selector("#palette:not([hidden])")
    return code


def _lock_without_checks(host, live_server: str, code: str) -> None:
    """The host switches checks off and locks table *code*: its page shows the sheet."""
    host.goto(f"{live_server}/t/{code}")
    with host.expect_navigation():
        host.locator("#checks").tap()
    with host.expect_navigation():
        host.locator("#lock").tap()
    host.wait_for_selector("#score-table")


def test_taps_just_before_a_reload_are_kept_and_sent(browser, live_server):
    context, page, problems = _new_phone(browser)
    drafts = Drafts(page)
    try:
        _start_table_as(page, live_server, "Ada")
        _paint(page, "forest", [0, 1, 2])
        _saved(page)

        # three more taps, and the reload at once: their drafts have not landed when the page comes back
        drafts.hold()
        _paint(page, "elves", [3, 4, 5])
        _shot(page, "seat-before-reload.png")
        page.reload()
        page.wait_for_selector("#palette:not([hidden])")
        entered = ["forest"] * 3 + ["elves"] * 3 + [""] * 10
        assert _stored(page) == ["forest"] * 3 + [""] * 13  # the server's older draft …
        assert _grid(page) == entered  # … and the page shows every tap, painted
        assert page.locator("#player-0 .cell-btn.card-elves").count() == 3
        _shot(page, "seat-after-reload.png")
        drafts.release()  # the drafts land late, the reloaded page's last
        _saved(page)
        assert page.evaluate(KEPT) == 0  # acknowledged: nothing kept

        page.reload()
        page.wait_for_selector("#palette:not([hidden])")
        assert _stored(page) == entered and _grid(page) == entered

        # without holding anything: a tap and the reload at once
        _paint(page, "dragon", [15])
        page.reload()
        page.wait_for_selector("#palette:not([hidden])")
        entered[15] = "dragon"
        assert _grid(page) == entered
        _saved(page)
        page.reload()
        page.wait_for_selector("#palette:not([hidden])")
        assert _stored(page) == entered == _grid(page)
        assert problems == []
    finally:
        context.close()


def test_a_draft_kept_for_a_table_locked_meanwhile_is_dropped(browser, live_server):
    """Bo's last tap never reached the server; the host locks; Bo's phone keeps nothing and shows the sheet."""
    phones = [_new_phone(browser) for _ in range(2)]
    (_, host, host_problems), (_, bo, bo_problems) = phones
    try:
        drafts = Drafts(bo)
        code = _seat_ada_and_bo(host, bo, live_server, done=True)
        first = _grid(bo)[0]

        drafts.drop()
        _paint(bo, "portal" if first != "portal" else "dragon", [0])
        assert bo.evaluate(KEPT) == 1

        _lock_without_checks(host, live_server, code)

        bo.wait_for_selector("#table-done", timeout=10_000)  # moved to the sheet by the lock pushed to it
        # the sheet's table.js (a deferred script, run after #table-done is there) drops the kept draft;
        # asked from here: wait_for_function's polling evaluates strings, which the page's CSP forbids
        kept = "Object.keys(localStorage).filter(k => k.startsWith('scorekeeper.seat:'))"
        for _ in range(50):
            if not bo.evaluate(kept):
                break
            bo.wait_for_timeout(100)
        assert bo.evaluate(kept) == []
        bo.goto(f"{live_server}/t/{code}/seat/2")  # the seat's address: the sheet again, nothing applied
        bo.wait_for_selector("#table-done")
        assert bo.evaluate(KEPT) == 0
        assert host_problems == [] and bo_problems == []
    finally:
        for context, _, _ in phones:
            context.close()


def test_two_pages_on_one_seat_keep_each_other_s_cards(browser, live_server):
    """Found by a fresh tester: the host's "Enter for Bo" page and Bo's own page each
    wrote their whole grid, so each tap wiped the other's cards. Each page now sends
    only its own changes and shows what the seat holds (after a change, or when the
    table changed)."""
    phones = [_new_phone(browser) for _ in range(2)]
    (_, host, host_problems), (_, bo, bo_problems) = phones
    try:
        code = _seat_ada_and_bo(host, bo, live_server)
        host.goto(f"{live_server}/t/{code}/seat/2")  # the host enters for Bo, Bo's own page open too
        host.wait_for_selector("#palette:not([hidden])")

        _paint(host, "forest", [0])
        _saved(host)
        expect(bo.locator("#seat-cells-0")).to_have_value("forest", timeout=10_000)  # shown on Bo's page
        _paint(bo, "plain", [15])
        _saved(bo)
        expect(host.locator("#seat-cells-15")).to_have_value("plain", timeout=10_000)
        _paint(host, "swamp", [1])  # the host's page, which had Bo's Plain only from the table's change
        _saved(host)
        expect(bo.locator("#seat-cells-1")).to_have_value("swamp", timeout=10_000)
        expected = ["forest", "swamp"] + [""] * 13 + ["plain"]
        assert _grid(host) == expected == _grid(bo)
        bo.reload()
        bo.wait_for_selector("#palette:not([hidden])")
        assert _stored(bo) == expected  # the server holds both pages' cards
        # "Not done yet"/"Done" from a page are drafts too, with its base: they keep the other page's cards
        _paint(bo, "elves", [2])
        _saved(bo)
        expect(host.locator("#seat-cells-2")).to_have_value("elves", timeout=10_000)
        assert _grid(host) == expected[:2] + ["elves"] + expected[3:]
        assert host_problems == [] and bo_problems == []
    finally:
        for context, _, _ in phones:
            context.close()


def test_a_seat_reported_wrong_comes_back_not_done_on_its_open_page(browser, live_server):
    """Found by a fresh tester: Bo's open page kept "Save and back to the table"
    after another player said a card was wrong (the seat no longer done); the
    page now comes anew with the seat's buttons and the card marked."""
    phones = [_new_phone(browser) for _ in range(2)]
    (_, host, host_problems), (_, bo, bo_problems) = phones
    try:
        code = _seat_ada_and_bo(host, bo, live_server, done=True)

        host.goto(f"{live_server}/t/{code}/check/2")  # Ada checks Bo's kingdom: row 1, column 3 is wrong
        host.locator("#check-grid label").nth(2).tap()
        with host.expect_navigation():
            host.locator("#wrong").tap()

        expect(bo.locator("#done")).to_have_text("Done: all 16 cards", timeout=10_000)
        expect(bo.locator("#undone")).to_have_count(0)
        expect(bo.locator("#seat-cells-2")).to_have_attribute("aria-invalid", "true")
        assert host_problems == [] and bo_problems == []
    finally:
        for context, _, _ in phones:
            context.close()


def test_a_tap_made_offline_is_sent_when_the_phone_is_back(browser, live_server):
    """Found by a fresh tester: a tap made during a short loss of connection stayed
    "Not saved" until the next tap or a reload, and the table could lock without it."""
    context, page, problems = _new_phone(browser)
    try:
        _start_table_as(page, live_server, "Ada")
        _paint(page, "forest", [0])
        _saved(page)
        context.set_offline(True)
        _paint(page, "swamp", [1])
        expect(page.locator("#save-status")).to_have_text("Not saved: check the connection")
        context.set_offline(False)
        _saved(page)  # by itself: no tap, no reload
        page.reload()
        page.wait_for_selector("#palette:not([hidden])")
        assert _stored(page)[:2] == ["forest", "swamp"]
        assert problems == [] or all("ERR_INTERNET_DISCONNECTED" in p for p in problems)
    finally:
        context.close()


def test_a_card_tapped_offline_before_the_lock_is_said_not_sent_on_the_sheet(browser, live_server):
    """Found by a tester: Cy, done, taps a Dragon into r4c4 offline; the host locks; Cy's phone
    back online jumped to the sheet without a word. It says now which change was not sent."""
    phones = [_new_phone(browser) for _ in range(3)]
    (_, host, host_problems), (_, bo, bo_problems), (cy_context, cy, cy_problems) = phones
    try:
        code = _seat_ada_and_bo(host, bo, live_server, done=True)
        cy.goto(f"{live_server}/t/{code}")
        _take_seat(cy, "Cy")
        cells = [card for row in CASE["game"]["players"][2]["kingdom"] for card in row]
        token = cy.get_attribute("#seat-form input[name=csrf_token]", "value")
        fields = {f"seat-cells-{m}": card for m, card in enumerate(cells)} | {"action": "done", "csrf_token": token}
        assert cy.request.post(cy.url, form=fields, max_redirects=0).status == 303
        expect(cy.locator("#undone")).to_be_visible(timeout=10_000)
        cy.wait_for_selector("#palette:not([hidden])")
        card, name = ("dragon", "Dragon") if cells[15] != "dragon" else ("portal", "Portal")

        cy_context.set_offline(True)
        _paint(cy, card, [15])
        expect(cy.locator("#live-status")).to_contain_text("cards kept on this phone")
        assert cy.evaluate(KEPT) == 1

        _lock_without_checks(host, live_server, code)

        cy_context.set_offline(False)
        cy.wait_for_selector("#table-done", timeout=15_000)
        expect(cy.locator("#not-sent")).to_have_text(
            f"Your last change (r4c4: {name}) was not sent: the table was locked before it arrived. "
            "If the kingdom is wrong, correct the saved game."
        )
        _shot(cy, "table-locked-change-not-sent.png")
        for _ in range(50):  # the sheet's table.js (deferred) drops what was kept
            if not cy.evaluate(KEPT):
                break
            cy.wait_for_timeout(100)
        assert cy.evaluate(KEPT) == 0
        cy.reload()  # said once
        cy.wait_for_selector("#table-done")
        expect(cy.locator("#not-sent")).to_be_hidden()
        expect(bo.locator("#not-sent")).to_be_hidden()  # Bo had sent everything
        assert host_problems == [] and bo_problems == [] and cy_problems == []
    finally:
        for context, _, _ in phones:
            context.close()
