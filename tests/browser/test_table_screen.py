"""The table on a big screen (issue 26, item 4): four phones and one screen at one table.

The screen (a fifth browser context, landscape) sees each seat taken, each card count,
each "done" and "checked", and the lock with its winner, from the table's announcements
alone: after it has loaded and caught up once, it asks the server nothing until the lock
loads the sheet (once). Neither its markup nor anything pushed to it holds a secret.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_entry import _check_axe
from tests.browser.test_seat_reload import CASE, _new_phone, _paint, _take_seat

pytestmark = pytest.mark.browser

PLAYERS = CASE["game"]["players"]


def _seat(screen, number: int):
    return screen.locator(f"#screen-seats .screen-seat[data-seat='{number}']")


def _done(page, player: dict) -> None:
    """The seat page *page* shows posts *player*'s whole kingdom and "Done", as its form does without JavaScript."""
    cells = [card for row in player["kingdom"] for card in row]
    fields = [(f"seat-cells-{m}", card) for m, card in enumerate(cells)]
    fields += [("seat-legends", legend) for legend in player["legends"]]
    fields += [("action", "done"), ("csrf_token", page.get_attribute("#seat-form input[name=csrf_token]", "value"))]
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    answer = page.request.post(page.url, data=urlencode(fields), headers=form, max_redirects=0)
    assert answer.status == 303


def _check(page, base: str, code: str, number: int) -> None:
    page.goto(f"{base}/t/{code}/check/{number}")
    with page.expect_navigation():
        page.locator("#checked").tap()


def _shot(screen, name: str) -> None:
    if SCREENSHOTS:
        screen.screenshot(path=str(Path(SCREENSHOTS) / name))


def _watched(screen) -> tuple[list[str], list[str], list[str]]:
    """What a screen's page is watched for, each list filled as it comes: its script errors and
    refusals by the content security policy, every HTTP request it makes (its WebSocket is no
    request), and every frame its stream receives."""
    problems: list[str] = []
    screen.on("pageerror", lambda error: problems.append(str(error)))
    screen.on("console", lambda m: problems.append(m.text) if "Content Security" in m.text else None)
    requests: list[str] = []
    screen.on("request", lambda request: requests.append(request.url) if request.resource_type != "websocket" else 0)
    frames: list[str] = []
    screen.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    return problems, requests, frames


@pytest.mark.slow  # 20 s of five browsers, run by CI; make test has the axe runs below (one screen, live)
def test_four_phones_and_a_big_screen_that_sees_every_change_pushed_and_no_secret(browser, live_server):
    phones = [_new_phone(browser) for _ in range(4)]
    (_, ada, problems_a), (_, bo, problems_b), (_, cy, problems_c), (_, di, problems_d) = phones
    tv = browser.new_context(viewport={"width": 1280, "height": 720})
    screen = tv.new_page()
    problems, requests, frames = _watched(screen)
    try:
        ada.goto(live_server + "/")
        with ada.expect_navigation():
            ada.locator("#start-table-button").tap()
        code = ada.inner_text("#join-code").strip()
        _take_seat(ada, "Ada")

        # the big screen: opened from the table's page by its link, as anyone at the table would
        ada.goto(f"{live_server}/t/{code}")
        screen_url = live_server + ada.get_attribute("#big-screen-link", "href")
        screen.goto(screen_url)  # connecting, it says the version it shows: what it missed comes pushed
        expect(screen.locator("#join-code")).to_have_text(code)
        expect(screen.locator("#screen-qr")).to_be_visible()
        screen.wait_for_timeout(500)
        loaded = list(requests)
        assert not any("/api/" in url for url in loaded) and loaded[0] == screen_url  # no catch-up asked
        requests.clear()

        # seats fill: each name, then each card, appears on the screen as it is stored
        ada.goto(f"{live_server}/t/{code}/seat/1")
        ada.wait_for_selector("#palette:not([hidden])")
        for page, name, number in ((bo, "Bo", 2), (cy, "Cy", 3)):
            page.goto(f"{live_server}/t/{code}")
            _take_seat(page, name)
            expect(_seat(screen, number).locator(".screen-seat-name")).to_have_text(name, timeout=10_000)
        _paint(ada, "forest", [0, 1, 2])
        expect(_seat(screen, 1).locator(".screen-seat-cards")).to_have_text("3/16 cards", timeout=10_000)
        expect(_seat(screen, 1).locator("progress")).to_have_attribute("value", "3")
        _done(bo, PLAYERS[1])
        expect(_seat(screen, 2).locator(".screen-seat-state")).to_have_text("done, not checked yet", timeout=10_000)
        expect(screen.locator("#screen-join")).to_be_visible()  # a seat is still free
        _shot(screen, "screen-filling.png")

        di.goto(f"{live_server}/t/{code}")
        _take_seat(di, "Di")
        expect(_seat(screen, 4).locator(".screen-seat-name")).to_have_text("Di", timeout=10_000)
        expect(screen.locator("#screen-join")).to_be_hidden()  # full: nobody else joins
        for page, player in ((ada, PLAYERS[0]), (cy, PLAYERS[2]), (di, PLAYERS[3])):
            _done(page, player)
        for number in range(1, 5):
            expect(_seat(screen, number).locator(".screen-seat-cards")).to_have_text("16/16 cards", timeout=10_000)
        for page, number in ((bo, 1), (cy, 2), (di, 3), (ada, 4)):
            _check(page, live_server, code, number)
        checker = {1: "Bo", 2: "Cy", 3: "Di", 4: "Ada"}
        for number, name in checker.items():
            expect(_seat(screen, number).locator(".screen-seat-state")).to_have_text(
                f"✓ checked by {name}", timeout=10_000
            )
        assert requests == []  # every change so far came over the stream: no request, no polling
        html_before = screen.content()

        # the host locks: the screen loads the sheet once, with its winner large
        ada.goto(f"{live_server}/t/{code}")
        with screen.expect_navigation():
            with ada.expect_navigation():
                ada.locator("#lock").tap()
        expect(screen.locator("#winner")).to_have_text("★ Di wins with 33 Harmony Points.", timeout=10_000)
        expect(screen.locator("#row-total td")).to_have_text(["11", "13", "30", "33"])
        _shot(screen, "screen-locked.png")
        screen.wait_for_timeout(1500)
        # the sheet and its assets, each once; its stream (for "Play again") asks nothing
        assert requests.count(screen_url) == 1 and not any("/api/" in url for url in requests)
        assert len(requests) == len(set(requests)) and not any("/live" in url for url in requests)

        # no secret anywhere on the screen: not the phones' (host's, seats'), not the host's edit link
        private = ada.get_attribute("#private-link", "href")
        secrets = [
            secret
            for context, _, _ in phones
            for cookie in context.cookies()
            if cookie["name"] == f"sk_table_{code}"
            for secret in cookie["value"].split(".")
        ]
        assert len(secrets) == 4 and private
        pushed = [json.loads(frame[2:])[1] for frame in frames if frame.startswith("42")]
        assert len(pushed) >= 12 and pushed[-1]["locked"]  # seats, cards, done, checks, lock: all pushed
        for shown in (html_before, screen.content(), *frames):
            assert private not in shown and "/manage" not in shown
            assert not any(secret in shown for secret in secrets)
        for shown in (html_before, screen.content()):
            assert "<form" not in shown and "<button" not in shown and "<input" not in shown

        # "Play again" on the host's phone: the screen moves to the new table's screen, its code to join
        with screen.expect_navigation(url="**/screen"):
            with ada.expect_navigation():
                ada.locator("#again").tap()
        new_code = ada.url.split("/t/")[1][:6]
        assert new_code != code and screen.url == f"{live_server}/t/{new_code}/screen"
        expect(screen.locator("#join-code")).to_have_text(new_code)
        assert problems == problems_a == problems_b == problems_c == problems_d == []
    finally:
        tv.close()
        for context, _, _ in phones:
            context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_the_screen_while_seats_fill_and_once_locked(
    browser, live_server, axe_script, scheme
):
    """A tablet (1024 × 768) in each colour scheme; the table driven through the JSON API."""
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, color_scheme=scheme, bypass_csp=True)
    screen = tablet.new_page()  # CSP bypassed: axe-core comes as an inline script
    try:
        api = screen.request
        table = api.post(f"{live_server}/api/tables", data={"checks": False}).json()
        code, host = table["code"], {"Authorization": f"Bearer {table['host_token']}"}
        tokens = [
            api.post(f"{live_server}/api/tables/{code}/seats", data={"name": p["name"]}).json() for p in PLAYERS[:3]
        ]
        screen.goto(f"{live_server}/t/{code}/screen")
        for number, (seat, player) in enumerate(zip(tokens, PLAYERS, strict=False), start=1):
            body = {"kingdom": player["kingdom"], "legends": player["legends"], "done": number < 3}
            answer = api.put(
                f"{live_server}/api/tables/{code}/seats/{number}",
                data=body,
                headers={"Authorization": f"Bearer {seat['seat_token']}"},
            )
            assert answer.status == 200
        expect(_seat(screen, 3).locator(".screen-seat-cards")).to_have_text("16/16 cards", timeout=10_000)
        _check_axe(screen, axe_script)
        api.put(
            f"{live_server}/api/tables/{code}/seats/3",
            data={"done": True},
            headers={"Authorization": f"Bearer {tokens[2]['seat_token']}"},
        )
        with screen.expect_navigation():
            assert api.post(f"{live_server}/api/tables/{code}/lock", headers=host).status == 200
        expect(screen.locator("#winner")).to_be_visible()
        _check_axe(screen, axe_script)
    finally:
        tablet.close()


class _HastyStream:
    """The screen's WebSocket passed on to the server, its handshake's ping interval and timeout
    made 1 s each (so its watchdog gives up on a silent stream after 2 s), and its closing never
    answered: the socket stays closing, as on a dead network whose TCP close takes minutes."""

    def __init__(self, page) -> None:
        self.silent = False
        self.received: list[str] = []  # what the page was sent
        page.route_web_socket("**/socket.io/**", self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()
        ws.on_close(lambda code, reason: None)  # the page's close goes nowhere
        server.on_message(self._relay(ws))

    def _relay(self, ws):
        def relay(message) -> None:
            if self.silent:
                return
            self.received.append(str(message))
            if isinstance(message, str) and message.startswith("0{"):
                handshake = json.loads(message[1:]) | {"pingInterval": 1000, "pingTimeout": 1000}
                message = "0" + json.dumps(handshake)
            ws.send(message)

        return relay


def _until(page, holds, seconds: float) -> None:
    """Waits in *page* until *holds()* is true, at most *seconds*; fails then."""
    for _ in range(int(seconds * 10)):
        if holds():
            return
        page.wait_for_timeout(100)
    assert holds()


def _new_screen(browser, live_server: str):
    tablet = browser.new_context(viewport={"width": 1024, "height": 768})
    screen = tablet.new_page()
    table = screen.request.post(f"{live_server}/api/tables", data={"checks": False}).json()
    return tablet, screen, table["code"]


def test_a_screen_whose_stream_falls_silent_says_so_and_asks_every_10_s(browser, live_server):
    """The watchdog gives up on a silent stream whose close never comes: the notice at once, then asking."""
    tablet, screen, code = _new_screen(browser, live_server)
    try:
        stream = _HastyStream(screen)
        asked: list[str] = []
        screen.on("request", lambda r: asked.append(r.url) if "/api/tables/" in r.url else None)
        screen.goto(f"{live_server}/t/{code}/screen")
        _until(screen, lambda: "40" in [m[:2] for m in stream.received], 5)  # watching (nothing asked)
        assert asked == []
        stream.silent = True  # no ping, no pong: the network is gone, no close arrives
        expect(screen.locator("#screen-status")).to_contain_text("No connection", timeout=5_000)
        before = len(asked)
        _until(screen, lambda: len(asked) > before, 13)  # asked, slowly
    finally:
        tablet.close()


def test_a_screen_that_goes_offline_says_so_at_once_and_asks_every_10_s(browser, live_server):
    tablet, screen, code = _new_screen(browser, live_server)
    try:
        asked: list[str] = []
        screen.on("request", lambda r: asked.append(r.url) if "/api/tables/" in r.url else None)
        frames: list[str] = []
        screen.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
        screen.goto(f"{live_server}/t/{code}/screen")
        _until(screen, lambda: "40" in [m[:2] for m in frames], 5)  # watching (nothing asked)
        assert asked == []
        tablet.set_offline(True)
        expect(screen.locator("#screen-status")).to_contain_text("No connection", timeout=3_000)
        before = len(asked)
        _until(screen, lambda: len(asked) > before, 13)  # asked, slowly
        tablet.set_offline(False)
        expect(screen.locator("#screen-status")).to_be_hidden(timeout=10_000)  # the stream back
    finally:
        tablet.close()


def test_a_stream_cut_each_time_it_connects_backs_off_instead_of_retrying_every_second(browser, live_server):
    """Found by a tester: a proxy that closes every stream just after it connects had the
    page reconnect every 1.5 s for ever (a stream watching reset the backoff at once). The backoff
    starts again only once a stream has held for a while (stream.js's STEADY)."""
    tablet, screen, code = _new_screen(browser, live_server)
    try:
        opened: list[float] = []

        def cut_soon(ws) -> None:
            server = ws.connect_to_server()
            opened.append(time.monotonic())

            def relay(message) -> None:
                ws.send(message)
                if isinstance(message, str) and message.startswith("40"):  # watching: cut at once
                    ws.close()

            server.on_message(relay)

        screen.route_web_socket("**/socket.io/**", cut_soon)
        screen.goto(f"{live_server}/t/{code}/screen")
        _until(screen, lambda: len(opened) >= 4, 15)
        gaps = [later - earlier for earlier, later in zip(opened, opened[1:], strict=False)]
        assert gaps[2] > 3, gaps  # 1 s, 2 s, 4 s after each cut (was 1 s each time)
    finally:
        tablet.close()
