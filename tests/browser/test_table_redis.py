"""Redis lost, pages told (issue 32, item 4): a table's pages whose stream stays open but whose
changes stop coming (Redis, which carries them between processes, stopped by the test) say so
within a few seconds, in their language, and ask for the table slowly; once Redis is back they
say nothing again and show what they missed, without a reload.

Two app servers over one database and one redis-server of the test's own, as two processes of
production are: the pages watch through the first, the changes are made through the second, so
that a change reaches the pages through Redis only (a process's own changes go to its own
phones at once). The production shape (gunicorn's stream worker) is
tests/serving/test_stream_attacks.py.
"""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from tests.browser.test_table_screen import _until
from tests.conftest import make_test_app
from tests.serving.server import RedisServer, required_program

pytestmark = pytest.mark.browser


@pytest.fixture
def two_servers(tmp_path):
    """The redis-server (stopped and started by the test) and the two servers' URLs."""
    redis = RedisServer(required_program("redis-server"))
    redis.start()
    servers = []
    try:
        for _ in range(2):
            app = make_test_app(
                tmp_path,  # one database file for both
                SECRET_KEY="browser-redis",
                REDIS_URL=redis.url,
                RATELIMIT_STORAGE_URI="memory://",
            )
            server = make_server("127.0.0.1", 0, app, threaded=True)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
        yield redis, [f"http://127.0.0.1:{server.server_port}" for server in servers]
    finally:
        for server in servers:
            server.shutdown()
        redis.stop()


def test_pages_say_within_seconds_that_changes_stopped_coming_and_catch_up_when_redis_is_back(browser, two_servers):
    redis, (pages, changes) = two_servers
    host = browser.new_context(locale="en-GB")  # the host's table page, in English
    watcher = browser.new_context(locale="de-DE")  # a phone without a seat, in German
    tablet = browser.new_context(locale="fr-FR", viewport={"width": 1024, "height": 768})  # the big screen
    try:
        started = host.request.post(f"{changes}/api/tables", data={"checks": False}).json()
        code = started["code"]
        host.add_cookies([{"name": f"sk_table_{code}", "value": started["host_token"], "url": pages}])
        beats: dict[str, int] = {}
        pushed: dict[str, list[str]] = {}  # the tables each page was sent over its stream
        opened = []
        for name, context, path in (
            ("host", host, f"/t/{code}"),
            ("watcher", watcher, f"/t/{code}"),
            ("screen", tablet, f"/t/{code}/screen"),
        ):
            page = context.new_page()
            beats[name], pushed[name] = 0, []

            def heard(frame, name=name) -> None:
                if str(frame).startswith('42["beat"'):
                    beats[name] += 1
                elif str(frame).startswith('42["table"'):
                    pushed[name].append(str(frame))

            page.on("websocket", lambda ws, heard=heard: ws.on("framereceived", heard))
            page.goto(pages + path)
            page.evaluate("window.notReloaded = true")
            opened.append(page)
        table, german, screen = opened
        _until(table, lambda: min(beats.values()) >= 2, 10)  # the first as each connected, then every second
        for page in opened:
            expect(page.locator("#live-status, #screen-status")).to_be_hidden()

        redis.stop()
        late = {
            table: "Changes are not coming through live just now: this page asks for them every 10 seconds "
            "until they are back.",
            german: "Änderungen kommen gerade nicht live an: Diese Seite fragt alle 10 Sekunden nach ihnen, "
            "bis sie wieder ankommen.",
            screen: "Les changements n’arrivent pas en direct pour le moment\u00a0: cet écran les demande "
            "toutes les 10\u00a0secondes jusqu’à leur retour.",
        }
        for page, said in late.items():  # two beats missed and half a second: 2.5 s
            expect(page.locator("#live-status, #screen-status")).to_have_text(said, timeout=6_000)

        seat = table.request.post(f"{changes}/api/tables/{code}/seats", data={"name": "Bo"})
        assert seat.status == 201  # stored, and told to no page: Redis is away
        redis.start()
        for page in opened:  # beats again: the notice goes, what was missed is asked for once
            expect(page.locator("#live-status, #screen-status")).to_be_hidden(timeout=15_000)
        expect(table.locator("#seats")).to_contain_text("Bo", timeout=5_000)
        expect(german.locator("#seats")).to_contain_text("Bo", timeout=5_000)
        expect(screen.locator("#screen-seats")).to_contain_text("Bo", timeout=5_000)
        assert all(page.evaluate("window.notReloaded") for page in opened)
        # and sent again by the pages' stream worker at Redis's return, not only asked for by the
        # pages: a page that connected in the gap's last seconds never noticed it, so never asks
        _until(table, lambda: all(any('"Bo"' in frame for frame in frames) for frames in pushed.values()), 5)
    finally:
        for context in (host, watcher, tablet):
            context.close()
