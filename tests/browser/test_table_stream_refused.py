"""A page whose stream is refused or lost says so within 3 s (issue 33, item 6): before, a page
whose WebSocket a proxy refused showed its counts for up to 10 s without a word."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_seat_reload import STREAM, _new_phone, _start_table_as, _take_seat

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a live server and two browsers

LATE = "Changes are not coming through live just now"


def test_a_page_whose_stream_is_refused_says_so_within_3_s_and_asks_for_the_table_at_once(browser, live_server):
    host_context, host, _ = _new_phone(browser)
    context, page, problems = _new_phone(browser)
    try:
        code = _start_table_as(host, live_server, "Ada")
        page.route_web_socket(STREAM, lambda ws: ws.close())  # a proxy that refuses every stream
        asked: list[float] = []
        page.on("request", lambda r: asked.append(time.monotonic()) if "/live" in r.url else None)
        page.goto(f"{live_server}/t/{code}")
        loaded = time.monotonic()
        expect(page.locator("#live-status")).to_contain_text(LATE, timeout=3_000)
        assert asked and asked[0] - loaded < 3, asked  # the table asked for at once, not 10 s later
        # a change made meanwhile is on the page without a reload: the asking goes on
        _take_seat(page, "Bo")
        expect(host.locator("#seats")).to_contain_text("Bo", timeout=12_000)
        assert not problems
    finally:
        context.close()
        host_context.close()


def test_a_stream_that_never_opens_is_said_within_3_s(browser, live_server):
    """A WebSocket that neither opens nor fails (a proxy holding it)."""
    host_context, host, _ = _new_phone(browser)
    context, page, problems = _new_phone(browser)
    try:
        code = _start_table_as(host, live_server, "Ada")
        page.route_web_socket(STREAM, lambda ws: None)  # held: never connected, never closed
        page.goto(f"{live_server}/t/{code}")
        expect(page.locator("#live-status")).to_contain_text(LATE, timeout=3_000)
        assert not problems
    finally:
        context.close()
        host_context.close()
