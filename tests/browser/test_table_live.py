"""The table, live: every change pushed to every phone (issue "The table, live").

Four Chromium contexts at one table learn of each change over their stream, with
no polling: one through a stream cut and resumed, one offline and back, one
reloading, one hidden and shown again. An answer held back never takes a card off
the screen; a host whose phone is gone does not strand the table; "Done" tapped
offline is kept and sent; a refused update says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_seat_reload import (
    STREAM,
    Drafts,
    _grid,
    _new_phone,
    _paint,
    _saved,
    _seat_ada_and_bo,
    _shot,
    _take_seat,
)
from tests.conftest import load_case

pytestmark = pytest.mark.browser

CASE = load_case(Path(__file__).parents[1] / "data" / "cases" / "19-four-players.json")


def _count(page, seat: int):
    """The "n/16 cards" of *seat* in *page*'s live part."""
    return page.locator(f"#live .seat-cards[data-seat='{seat}']").first


class Stream:
    """A page's WebSocket passed on to the server by the test (Playwright's routing),
    so that the test can cut it, and refuse new ones for a while."""

    def __init__(self, page) -> None:
        self.routes: list = []
        self.refusing = False
        self.connections = 0
        page.route_web_socket(STREAM, self._route)

    def _route(self, ws) -> None:
        self.connections += 1
        if self.refusing:
            ws.close()
            return
        ws.connect_to_server()
        self.routes.append(ws)

    def cut(self) -> None:
        """Close the page's stream as a network that drops it would."""
        for ws in self.routes:
            ws.close(code=1006, reason="cut")
        self.routes.clear()


def _hide(page, hidden: bool) -> None:
    """The page goes to the background (or comes back): document.hidden and its event, as a phone's browser."""
    page.evaluate(
        "(hidden) => { Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def test_four_phones_see_every_change_pushed_through_a_cut_an_offline_spell_a_reload_and_the_background(
    browser, live_server
):
    phones = [_new_phone(browser) for _ in range(4)]
    (_, ada, problems_a), (_, bo, problems_b), (cy_context, cy, problems_c), (di_context, di, problems_d) = phones
    ada.context.clock.install()  # the host's timers stop when its page goes to the background (below)
    asked: dict[str, list[str]] = {name: [] for name in "abcd"}  # the live part asked anew, per phone
    for name, page in zip("abcd", (ada, bo, cy, di), strict=True):
        page.on("request", lambda request, name=name: asked[name].append(request.url) if "/live" in request.url else 0)
    streams = {name: Stream(page) for name, page in zip("ac", (ada, cy), strict=True)}
    try:
        ada.goto(live_server + "/")
        with ada.expect_navigation():
            ada.locator("#start-table-button").tap()
        code = ada.inner_text("#join-code").strip()
        _take_seat(ada, "Ada")
        for page, name in ((bo, "Bo"), (cy, "Cy"), (di, "Di")):
            page.goto(f"{live_server}/t/{code}")
            _take_seat(page, name)
        for page in (ada, bo, cy, di):
            expect(_count(page, 4)).to_have_text("0/16 cards", timeout=10_000)  # Di's seat, on every phone
        for name in "abcd":
            asked[name].clear()

        # Ada enters three cards: every phone shows each, told over its stream, asking nothing
        _paint(ada, "forest", [0, 1, 2])
        for page in (bo, cy, di):
            expect(_count(page, 1)).to_have_text("3/16 cards", timeout=10_000)
        assert asked == {"a": [], "b": [], "c": [], "d": []}  # no polling: counts came pushed

        # Cy's stream is cut: its page connects again and what it missed comes pushed, nothing asked
        before = streams["c"].connections
        streams["c"].cut()
        _paint(ada, "elves", [3, 4])
        expect(_count(cy, 1)).to_have_text("5/16 cards", timeout=10_000)
        assert streams["c"].connections == before + 1 and asked["c"] == []  # reconnected, caught up by the server

        # Di goes offline and taps: the top of the page says so with what it keeps; back, it is all sent
        di_context.set_offline(True)
        _paint(di, "mountain", [0, 1])
        expect(di.locator("#live-status")).to_contain_text("No connection: 2 cards kept on this phone")
        expect(di.locator("#preview-0 [data-row=total]")).to_have_text("–")  # points unknown, not 0
        _paint(bo, "swamp", [5])
        di_context.set_offline(False)
        expect(_count(ada, 4)).to_have_text("2/16 cards", timeout=10_000)
        expect(_count(di, 2)).to_have_text("1/16 cards", timeout=10_000)
        expect(di.locator("#live-status")).to_be_hidden()
        _saved(di)

        # Bo reloads: the page shows the table as it is now
        bo.reload()
        expect(_count(bo, 1)).to_have_text("5/16 cards")
        expect(_count(bo, 4)).to_have_text("2/16 cards")

        # Ada's page goes to the background; its stream is cut and its timers stop (reconnecting waits);
        # shown again, it connects at once and catches up, without waiting for any timer
        _hide(ada, True)
        ada.clock.pause_at(ada.evaluate("Date.now()") + 1000)
        streams["a"].refusing = True
        streams["a"].cut()
        _paint(cy, "plain", [0, 1, 2, 3])
        ada.wait_for_timeout(500)
        assert _count(ada, 3).text_content() == "0/16 cards"
        streams["a"].refusing = False
        _hide(ada, False)
        expect(_count(ada, 3)).to_have_text("4/16 cards", timeout=10_000)
        ada.clock.resume()

        # every phone ends with every count
        for page in (ada, bo, cy, di):
            for seat, count in ((1, 5), (2, 1), (3, 4), (4, 2)):
                expect(_count(page, seat)).to_have_text(f"{count}/16 cards", timeout=10_000)
        if SCREENSHOTS:
            di.screenshot(path=str(Path(SCREENSHOTS) / "table-live-seat.png"), full_page=True)
        assert problems_a == problems_b == problems_c == []
        assert all("ERR_INTERNET_DISCONNECTED" in p for p in problems_d)
    finally:
        for context, _, _ in phones:
            context.close()


@pytest.mark.parametrize("stream", [True, False], ids=["acked-on-the-stream", "put-without-a-stream"])
def test_an_answer_held_back_never_takes_a_card_back_off_the_screen(browser, live_server, stream):
    """A draft's answer held while the player taps on lands behind what the page shows
    already; so does every change pushed meanwhile (each drawn by the page, nothing asked).
    The drafts go as events acknowledged on the stream, or (no stream) as the PUT."""
    phones = [_new_phone(browser) for _ in range(2)]
    (_, ada, problems_a), (_, bo, problems_b) = phones
    try:
        drafts = Drafts(ada, stream=stream)
        code = _seat_ada_and_bo(ada, bo, live_server)
        puts: list[str] = []
        ada.on("request", lambda request: puts.append(request.url) if request.method == "PUT" else None)
        drafts.hold_answers()  # stored, its answer held
        _paint(ada, "goblins", [0])
        drafts.wait_held()
        _paint(ada, "dragon", [1, 2])  # tapped while the first answer is on its way
        drafts.release()  # the answer holds the goblins only
        ada.wait_for_timeout(300)
        assert _grid(ada)[:3] == ["goblins", "dragon", "dragon"]
        _saved(ada)
        assert _grid(ada)[:3] == ["goblins", "dragon", "dragon"]
        assert (len(puts) == 0) == stream  # on its stream, the drafts are no requests; without, the PUT

        # Cy sits down while Ada enters more cards: Bo's page draws each change pushed, asking nothing
        asked: list[str] = []
        bo.on("request", lambda request: asked.append(request.url))
        cy, seated, _ = _new_phone(browser)
        try:
            seated.goto(f"{live_server}/t/{code}")
            _take_seat(seated, "Cy")
            _paint(ada, "goblins", [3, 4])
            expect(_count(bo, 1)).to_have_text("5/16 cards", timeout=10_000)
            expect(bo.locator("#live")).to_contain_text("Cy")
            bo.wait_for_timeout(300)
            assert _count(bo, 1).text_content() == "5/16 cards" and asked == []
        finally:
            cy.close()
        assert problems_a == problems_b == []
    finally:
        for context, _, _ in phones:
            context.close()


def test_a_card_typed_but_not_yet_said_is_never_taken_off_by_another_seat_s_change(browser, live_server):
    """Found by a tester: three phones typing in turns, Cy's first two cards vanished. A card typed
    into a cell's box (an ``input`` event; its ``change`` comes when the box is left) was not yet a
    change the page knew of, so the next pushed change of another seat showed the server's empty
    cell over it. What the page shows apart from its base is its own: never overwritten."""
    phones = [_new_phone(browser) for _ in range(2)]
    (_, ada, problems_a), (_, bo, problems_b) = phones
    try:
        _seat_ada_and_bo(ada, bo, live_server)
        bo.fill("#seat-cells-0", "plain")  # typed, the box not left yet
        _paint(ada, "forest", [0])
        expect(_count(bo, 1)).to_have_text("1/16 cards", timeout=10_000)  # Ada's change pushed to Bo
        bo.wait_for_timeout(300)
        assert _grid(bo)[0] == "plain"
        bo.fill("#seat-cells-1", "humans")  # the first box left: its change, sent with the second's later
        bo.locator("#seat-cells-2 + button").tap()
        expect(_count(ada, 2)).to_have_text("2/16 cards", timeout=10_000)
        _saved(bo)
        assert _grid(bo)[:2] == ["plain", "humans"]
        assert problems_a == problems_b == []
    finally:
        for context, _, _ in phones:
            context.close()


def test_the_cards_of_a_done_refused_are_kept_and_sent_when_another_seat_changes(browser, live_server):
    """ "Done" tapped a moment after the 15th card: the draft carrying that card is refused (16
    cards needed) and the server stores none of it. The card stays on the page and is sent with
    the next pushed change of another seat, never taken off by it."""
    phones = [_new_phone(browser) for _ in range(2)]
    (_, ada, problems_a), (_, bo, problems_b) = phones
    try:
        _seat_ada_and_bo(ada, bo, live_server)
        _paint(bo, "plain", range(14))
        _saved(bo)
        _paint(bo, "plain", [14])
        bo.locator("#done").tap()  # before the 15th card's own draft left
        expect(bo.locator("#save-status")).to_contain_text("16")
        _paint(ada, "forest", [0])
        expect(_count(ada, 2)).to_have_text("15/16 cards", timeout=10_000)
        assert _grid(bo)[14] == "plain"
        assert problems_a == problems_b == []
    finally:
        for context, _, _ in phones:
            context.close()


def test_a_check_page_whose_kingdom_changes_comes_anew_saying_which_card(browser, live_server):
    """Found by a tester: Cy's check page of Ada redrew r1c1 quietly when Ada changed it, and
    "Checked" was taken at once: a checker halfway through would not notice. It comes anew with
    the card marked and said, in the checker's words."""
    phones = [_new_phone(browser) for _ in range(2)]
    (_, ada, problems_a), (_, bo, problems_b) = phones
    try:
        code = _seat_ada_and_bo(ada, bo, live_server, done=True)
        ada.goto(f"{live_server}/t/{code}/check/2")
        first = CASE["game"]["players"][1]["kingdom"][0][0]
        card = "dragon" if first != "dragon" else "forest"
        bo.goto(f"{live_server}/t/{code}/seat/2")
        bo.wait_for_selector("#palette:not([hidden])")
        _paint(bo, card, [0])
        _saved(bo)
        said = ada.locator("#check-errors")
        expect(said).to_contain_text(f"Bo\u2069’s kingdom changed while you were looking at it (r1c1: {card.title()})")
        expect(ada.locator("#check-grid label.changed")).to_have_count(1)
        assert ada.locator("#check-grid label").nth(0).get_attribute("class").endswith("changed")
        _shot(ada, "table-check-changed.png")
        assert problems_a == problems_b == []
    finally:
        for context, _, _ in phones:
            context.close()


def test_a_table_whose_host_phone_is_gone_is_finished_from_another_phone(browser, live_server, live_app):
    """Ada started the table and holds its host's role; her phone is gone (its context
    destroyed). On a new phone she asks to take her seat; Bo's phone, which sees the
    request, may allow it once Ada's phone has not been seen for 2 minutes (and not
    before: the phone holding a seat answers for it while it is there); her new phone
    holds her seat and the host's role, checks Bo's kingdom, and locks. Every phone
    says whom the table waits for, and for what."""
    from tests.web.test_table_seats import not_seen_since

    phones = [_new_phone(browser) for _ in range(2)]
    (ada_context, ada, _), (_, bo, problems_b) = phones
    new_context, new_ada, problems_new = _new_phone(browser)
    try:
        code = _seat_ada_and_bo(ada, bo, live_server, done=True)
        bo.goto(f"{live_server}/t/{code}")
        expect(bo.locator("#waiting")).to_contain_text("Waiting for another player to check Ada’s kingdom.")
        with bo.expect_navigation():
            bo.locator("#check-1").tap()
        with bo.expect_navigation():
            bo.locator("#checked").tap()
        ada_context.close()  # the host's phone is gone

        new_ada.goto(f"{live_server}/t/{code}")
        new_ada.locator("#move summary").tap()
        with new_ada.expect_navigation():
            new_ada.locator("#move-1").tap()
        expect(new_ada.locator("#move-request")).to_contain_text("This phone asks to take Ada’s seat")
        request = bo.locator("#move-request")
        expect(request).to_contain_text("A phone with no seat at this table asks to take Ada’s seat", timeout=10_000)
        expect(request.locator(".move-who")).to_be_visible()  # not Bo's to answer while Ada's phone may be there
        not_seen_since(live_app, code, 1)  # two minutes on, Ada's phone not seen since
        bo.reload()
        with bo.expect_navigation():
            bo.locator("#move-allow").tap()
        # the new phone comes anew holding Ada's seat and the host's role
        expect(new_ada.locator("#host")).to_be_visible(timeout=10_000)
        expect(new_ada.locator("#enter-1")).to_have_text("Your kingdom")
        expect(bo.locator("#waiting")).to_contain_text("Waiting for another player to check Bo’s kingdom.")
        with new_ada.expect_navigation():
            new_ada.locator("#check-2").tap()
        with new_ada.expect_navigation():
            new_ada.locator("#checked").tap()
        expect(bo.locator("#waiting")).to_contain_text("Waiting for the host, Ada, to lock the table.", timeout=10_000)
        expect(bo.locator("#host-gone")).to_be_visible()  # the way out, beside the wait
        bo.locator("#host-gone").tap()  # found by a tester: it led to the section still closed
        expect(bo.locator("#move-host")).to_be_visible()
        expect(new_ada.locator("#waiting")).to_contain_text("Every kingdom is ready: lock the table.")
        with new_ada.expect_navigation():
            new_ada.locator("#lock").tap()
        for page in (new_ada, bo):
            page.wait_for_selector("#score-table", timeout=10_000)
        assert new_ada.locator("#private-link").count() == 1  # the host's private link, on its new phone
        assert problems_b == problems_new == []
    finally:
        for context in (phones[1][0], new_context):
            context.close()


def test_done_tapped_offline_is_kept_and_sent_when_the_phone_is_back(browser, live_server):
    context, page, _ = _new_phone(browser)
    other, bo, _ = _new_phone(browser)
    try:
        code = _seat_ada_and_bo(page, bo, live_server)
        player = CASE["game"]["players"][0]
        cells = [card for row in player["kingdom"] for card in row]
        for card in dict.fromkeys(cells):
            _paint(page, card, [m for m, c in enumerate(cells) if c == card])
        _saved(page)
        context.set_offline(True)
        page.locator("#done").tap()  # no error page: the page stays, and says what it keeps
        expect(page.locator("#live-status")).to_contain_text("“Done” is kept on this phone")
        assert page.url.endswith("/seat/1")
        with page.expect_navigation():
            context.set_offline(False)
        page.wait_for_selector("#seats")
        expect(page.locator("#seat-1")).to_contain_text("done")
        expect(bo.locator("#live")).to_contain_text("16/16")
        assert code in page.url
    finally:
        context.close()
        other.close()


def test_a_refused_update_says_the_view_may_be_out_of_date(browser, live_server):
    context, page, _ = _new_phone(browser)
    try:
        stream = Stream(page)
        page.goto(live_server + "/")
        with page.expect_navigation():
            page.locator("#start-table-button").tap()
        while not stream.routes:
            page.wait_for_timeout(20)
        page.route("**/live*", lambda route: route.fulfill(status=429, body="Too many"))
        stream.refusing = True
        stream.cut()  # no stream: the page asks for the live part every 10 s, refused
        expect(page.locator("#live-status")).to_contain_text("may be out of date", timeout=15_000)
    finally:
        context.close()


@pytest.mark.parametrize("loss", ["silence", "offline"])
def test_a_lost_stream_is_said_at_once_and_the_table_asked_for_every_10_s(browser, live_server, loss):
    """A stream fallen silent (its watchdog, 2 s here; its close never answered) or the phone gone
    offline: "No connection" at the top at once, and the live part asked for without waiting for the close."""
    from tests.browser.test_seat_reload import _start_table_as
    from tests.browser.test_table_screen import _HastyStream, _until

    context, page, problems = _new_phone(browser)
    try:
        stream = _HastyStream(page)
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/live" in r.url and "/seat/" in page.url else None)
        _start_table_as(page, live_server, "Ada")
        page.wait_for_timeout(1000)  # the seat page connected its stream
        if loss == "offline":
            context.set_offline(True)
        else:
            stream.silent = True
        expect(page.locator("#live-status")).to_contain_text("No connection", timeout=5_000)
        before = len(asked)
        _until(page, lambda: len(asked) > before, 13)  # asked, slowly
        context.set_offline(False)
        stream.silent = False
        expect(page.locator("#live-status")).to_be_hidden(timeout=12_000)
        assert not problems
    finally:
        context.close()
