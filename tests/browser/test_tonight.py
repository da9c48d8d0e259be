"""A club night on one screen (issue 34, part 2): three tables started from a group's page,
four phones at each, and the group's "tonight" page on a television.

The television (opened by the group's screen link, a browser context of its own) sees every
table appear with its join code and QR code, each seat taken, each card count, each "done"
and "checked", each lock's winner and the evening's results, from its stream alone: after it
has loaded it asks the server nothing (no request at all, to the end). Neither its markup nor
anything pushed to it holds a secret: no seat's or host's, no invite link, no private link, not
the screen link itself, no CSRF token. axe-core finds nothing serious on it, on a television
and on a phone, light and dark. A table's new players' ratings, rated by the standing's job after
the lock, come to an open screen when the job is done, without a reload (one app with its job
queue in its own process, as ``make run``; and two app servers and a worker over Redis).
"""

from __future__ import annotations

import contextlib
import copy
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper.engine import Game
from scorekeeper.store import groups as store_groups
from scorekeeper.store.standing import is_behind
from scorekeeper.web.links import encode_game
from scorekeeper.words import LANGUAGES
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_entry import _check_axe
from tests.browser.test_look import contrast, srgb
from tests.browser.test_phone_screen import HEADINGS
from tests.browser.test_seat_reload import CASE, _new_phone, _paint, _take_seat
from tests.browser.test_table_screen import _check, _done, _until, _watched
from tests.conftest import make_test_app
from tests.serving.server import job_worker, redis_server, required_program

pytestmark = pytest.mark.browser

PLAYERS = CASE["game"]["players"]  # case 19: the fourth wins with 33, then 30, 13, 11
#: The three tables' players, seat by seat (each plays case 19's kingdom of its seat).
TABLES = (("Ada", "Bo", "Cy", "Di"), ("Eve", "Fay", "Gus", "Hal"), ("Ivy", "Jo", "Kai", "Lu"))


def _club(page, base: str, names=TABLES[0]) -> str:
    """On *page*'s phone, case 19 (played by *names*) saved from its score sheet into a new group
    "Club": the group's address."""
    game = copy.deepcopy(CASE["game"])
    for player, name in zip(game["players"], names, strict=True):
        player["name"] = name
    page.goto(f"{base}/sheet/{encode_game(Game.from_dict(game))}")
    page.fill("#group-name", "Club")
    with page.expect_navigation():
        page.click("#save")
    page.goto(f"{base}/groups")
    with page.expect_navigation():
        page.click("#groups a")
    return page.url


def _start(page, group_url: str) -> str:
    """A table started from the group's page on *page*'s phone: its join code."""
    page.goto(group_url)
    with page.expect_navigation():
        page.locator("#group-start-table-button").click()
    return page.inner_text("#join-code").strip()


def _screen_link(page, group_url: str) -> str:
    page.goto(group_url)
    with page.expect_navigation():
        page.locator("#make-screen-link").click()
    return page.input_value("#screen-link")


def _card(screen, code: str):
    return screen.locator(f"#table-{code}")


def _seat(screen, code: str, number: int):
    return screen.locator(f"#table-{code} .tonight-seat[data-seat='{number}']")


def _results(screen) -> dict[str, list[str]]:
    rows = screen.locator("#tonight-players tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))"
    )
    return {row[0]: row[1:4] for row in rows}


def _shot(screen, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        screen.screenshot(path=str(Path(SCREENSHOTS) / name))


@pytest.mark.slow  # thirteen browser contexts for a minute or two, run by CI; make test has the axe runs below
def test_three_tables_of_four_phones_and_a_television_that_sees_every_change_pushed_and_no_secret(browser, live_server):
    phones = [[_new_phone(browser) for _ in range(4)] for _ in TABLES]  # (context, page, problems) each
    hosts = [table[0][1] for table in phones]
    tv = browser.new_context(viewport={"width": 1280, "height": 720})
    screen = tv.new_page()
    problems, requests, frames = _watched(screen)
    try:
        # the club: a game saved from a score sheet this evening; two more members by the invite link
        group_url = _club(hosts[0], live_server)
        invite = hosts[0].input_value("#invite-link")
        for host in hosts[1:]:
            host.goto(invite)
            host.goto(group_url)
            expect(host.locator("#group-start-table-button")).to_be_visible()
        screen_url = _screen_link(hosts[0], group_url)

        # the television, by the screen link: nothing tonight yet but the sheet's game
        screen.goto(screen_url)
        expect(screen.locator("#tonight-empty")).to_be_visible()
        expect(screen.locator("#tonight-games")).to_have_text("1 game")
        _until(screen, lambda: any(frame.startswith("40") for frame in frames), 5)  # watching
        assert requests[0] == screen_url
        requests.clear()

        # each member starts a table from the group's page: it appears with its code and QR code
        codes = [_start(host, group_url) for host in hosts]
        for code in codes:
            expect(_card(screen, code).locator(".tonight-code")).to_have_text(code, timeout=10_000)
            expect(_card(screen, code).locator(".tonight-qr")).to_be_visible()
            assert _card(screen, code).locator(".tonight-qr").evaluate("img => img.naturalWidth") > 0
        assert (
            screen.locator("#tonight-tables .tonight-table").evaluate_all(
                "cards => cards.map(card => card.dataset.code)"
            )
            == codes
        )  # first started first
        expect(screen.locator("#tonight-empty")).to_be_hidden()

        # four phones sit at each table: every name shows; a full table's join code goes
        for code, names, table in zip(codes, TABLES, phones, strict=True):
            for number, (name, (_, page, _)) in enumerate(zip(names, table, strict=True), start=1):
                if number > 1:
                    page.goto(f"{live_server}/t/{code}")
                _take_seat(page, name)
                expect(_seat(screen, code, number).locator(".tonight-seat-name")).to_have_text(name, timeout=10_000)
                if number < 4:
                    expect(_card(screen, code).locator(".tonight-join")).to_be_visible()
            expect(_card(screen, code).locator(".tonight-join")).to_be_hidden()
        _shot(screen, "tonight-seated.png")

        # cards as they are painted (a draft over the phone's stream), kingdoms done
        _paint(hosts[0], "forest", [0, 1, 2])
        expect(_seat(screen, codes[0], 1).locator(".tonight-seat-cards")).to_have_text("3/16 cards", timeout=10_000)
        expect(_seat(screen, codes[0], 1).locator("progress")).to_have_attribute("value", "3")
        for code, host in zip(codes[1:], hosts[1:], strict=True):  # checks off at the other two tables
            host.goto(f"{live_server}/t/{code}")
            with host.expect_navigation():
                host.locator("#checks").click()
        for code, table in zip(codes, phones, strict=True):
            for number, ((_, page, _), player) in enumerate(zip(table, PLAYERS, strict=True), start=1):
                if page.url != f"{live_server}/t/{code}/seat/{number}":
                    page.goto(f"{live_server}/t/{code}/seat/{number}")
                _done(page, player)
                state = "done, not checked yet" if code == codes[0] else "done"
                expect(_seat(screen, code, number).locator(".tonight-seat-state")).to_have_text(state, timeout=10_000)
                expect(_seat(screen, code, number).locator(".tonight-seat-cards")).to_have_text("16/16 cards")

        # the first table checks each other's kingdoms
        first = [page for _, page, _ in phones[0]]
        for page, number in ((first[1], 1), (first[2], 2), (first[3], 3), (first[0], 4)):
            _check(page, live_server, codes[0], number)
        for number, name in {1: "Bo", 2: "Cy", 3: "Di", 4: "Ada"}.items():
            expect(_seat(screen, codes[0], number).locator(".tonight-seat-state")).to_have_text(
                f"✓ checked by {name}", timeout=10_000
            )

        # the hosts lock: each table's winner, and the evening's results with the season's ratings
        private = []
        for count, (code, host, names) in enumerate(zip(codes, hosts, TABLES, strict=True), start=2):
            host.goto(f"{live_server}/t/{code}")
            with host.expect_navigation():
                host.locator("#lock").tap()
            private.append(host.get_attribute("#private-link", "href"))
            expect(_card(screen, code).locator(".tonight-winner-names")).to_have_text(
                f"Won by {names[3]}", timeout=10_000
            )
            expect(_card(screen, code).locator(".tonight-seats")).to_be_hidden()
            expect(screen.locator("#tonight-games")).to_have_text(f"{count} games", timeout=10_000)
        results = _results(screen)
        assert results["Di"] == ["2", "2", "1 1"] and results["Cy"] == ["2", "0", "2 2"]
        assert results["Hal"] == results["Lu"] == ["1", "1", "1"] and results["Jo"] == ["1", "0", "3"]
        assert len(results) == 12
        _shot(screen, "tonight-locked.png")
        screen.wait_for_timeout(1000)

        assert requests == []  # every change came over the stream: no request, no polling, no reload

        # no secret anywhere on the screen: the phones' (seats', hosts'), the invite link, the
        # private links, the screen link, a CSRF token
        secrets = [
            secret
            for table, code in zip(phones, codes, strict=True)
            for context, _, _ in table
            for cookie in context.cookies()
            if cookie["name"] == f"sk_table_{code}"
            for secret in cookie["value"].split(".")
        ]
        assert len(secrets) == 12  # a phone each: a host phone's one secret holds its seat too
        assert all(private)
        hidden = [
            *secrets,
            *(urlsplit(link).path for link in private),
            urlsplit(invite).path.rsplit("/", 1)[1],
            urlsplit(screen_url).path.rsplit("/", 1)[1],
            "/manage",
            "csrf",
        ]
        pushed = [json.loads(frame[2:]) for frame in frames if frame.startswith("42")]
        tables = [data for event, data in pushed if event == "table"]
        assert len(tables) >= 3 * 4 + 3 * 4 + 12 + 4 + 3  # starts, seats, dones, checks, locks: each pushed
        for shown in (screen.content(), *frames):
            found = [secret for secret in hidden if secret.lower() in shown.lower()]
            assert found == [], (found, shown[:300])
        assert screen.locator("form, button, input, select, textarea").count() == 0
        assert problems == [] and all(problems == [] for table in phones for _, _, problems in table)
    finally:
        tv.close()
        for table in phones:
            for context, _, _ in table:
                context.close()


@pytest.fixture(scope="module")
def evening(browser, live_server):
    """A group's evening in three states: a table locked (Di won), one of four phones with kingdoms
    done and checked, one with two seats and a free one (its QR code). The tables are started from
    the group's page by a member's phone, the rest goes through the JSON API. Yields the screen link."""
    member = browser.new_context()
    robot = browser.new_context()  # the API's phones: no cookies, a bearer token each
    try:
        page = member.new_page()
        # (not the other test's sheet: a game saved once is saved, its sheet offers no group)
        group_url = _club(page, live_server, ("Mia", "Noor", "Sam", "Yara"))
        api = robot.request
        for names, seated, stage in ((TABLES[1], 4, "locked"), (TABLES[2], 4, "checked"), (TABLES[0], 2, "open")):
            code = _start(page, group_url)
            # off the table's page before the API plays it: locked, that page follows the lock to its
            # sheet, and the next goto of this page would be aborted by it (net::ERR_ABORTED)
            page.goto("about:blank")
            host = next(c["value"] for c in member.cookies() if c["name"] == f"sk_table_{code}")
            as_host = {"Authorization": f"Bearer {host}"}
            if stage == "locked":
                assert api.patch(
                    f"{live_server}/api/tables/{code}", data={"checks_required": False}, headers=as_host
                ).ok
            seats = []
            for number, (name, player) in enumerate(zip(names[:seated], PLAYERS, strict=False), start=1):
                seat = api.post(f"{live_server}/api/tables/{code}/seats", data={"name": name}).json()["seat_token"]
                seats.append({"Authorization": f"Bearer {seat}"})
                cards = (
                    player["kingdom"]
                    if stage != "open" or number == 1
                    else [[*row[:2], None, None] for row in player["kingdom"]]
                )
                body = {"kingdom": cards, "legends": player["legends"], "done": stage != "open"}
                assert api.put(f"{live_server}/api/tables/{code}/seats/{number}", data=body, headers=seats[-1]).ok
            if stage == "checked":  # two of the four checked
                for number, by in ((1, 1), (2, 2)):
                    seen = {"kingdom": PLAYERS[number - 1]["kingdom"], "legends": PLAYERS[number - 1]["legends"]}
                    answer = api.post(
                        f"{live_server}/api/tables/{code}/seats/{number}/check", data={"seen": seen}, headers=seats[by]
                    )
                    assert answer.ok, answer.text()
            if stage == "locked":
                assert api.post(f"{live_server}/api/tables/{code}/lock", headers=as_host).ok
        yield _screen_link(page, group_url)
    finally:
        member.close()
        robot.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 720), (360, 740)], ids=["television", "phone"])
def test_axe_finds_nothing_serious_on_the_tonight_page(browser, evening, axe_script, scheme, size):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme, bypass_csp=True)
    screen = context.new_page()  # CSP bypassed: axe-core comes as an inline script
    try:
        screen.goto(evening)
        expect(screen.locator("#tonight-tables .tonight-table")).to_have_count(3)
        expect(screen.locator(".tonight-winner-names").first).to_have_text("Won by Hal")
        expect(screen.locator("#tonight-games")).to_have_text("2 games")
        expect(screen.locator(".tonight-table:not(.locked) .tonight-qr:visible")).to_have_count(1)  # seats free
        if width > 1000 and scheme == "light":
            _shot(screen, "tonight.png")
        _check_axe(screen, axe_script)
        if width < 400:  # one column: nothing wider than the phone
            assert screen.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tonight_pages_headings_read_across_a_room(browser, evening, scheme):
    """WCAG's enhanced contrast (7:1, 1.4.6) for every heading of the tonight page on a television
    (1920 × 1080), whose picture washes greys out: the group's, each table's, the results'."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, color_scheme=scheme)
    screen = context.new_page()
    try:
        screen.goto(evening)
        expect(screen.locator("#tonight-tables .tonight-table")).to_have_count(3)
        headings = screen.evaluate(HEADINGS)
        assert len(headings) >= 5  # the group's, three tables', the results'
        for text, colour, background in headings:
            assert contrast(srgb(colour), srgb(background)) >= 7, (text, colour, background)
    finally:
        context.close()


def test_a_screen_that_was_offline_is_sent_what_it_missed_in_one_push_when_it_is_back(browser, live_server, evening):
    """Its stream reconnecting says the versions it shows: the change made meanwhile comes pushed
    (the ``tonight`` event), with nothing asked and the page not reloaded."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    screen = context.new_page()
    try:
        frames: list[str] = []
        screen.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
        screen.goto(evening)
        _until(screen, lambda: any(frame.startswith("40") for frame in frames), 5)  # watching
        requests: list[str] = []
        screen.on("request", lambda r: requests.append(r.url) if r.resource_type != "websocket" else 0)
        code = screen.locator(".tonight-table").last.get_attribute("data-code")
        context.set_offline(True)
        expect(screen.locator("#tonight-status")).to_contain_text("No connection", timeout=5_000)
        seat = browser.new_context()
        try:
            assert seat.request.post(f"{live_server}/api/tables/{code}/seats", data={"name": "Zoë"}).ok
        finally:
            seat.close()
        context.set_offline(False)
        expect(_seat(screen, code, 3).locator(".tonight-seat-name")).to_have_text("Zoë", timeout=10_000)
        expect(screen.locator("#tonight-status")).to_be_hidden()
        assert [frame for frame in frames if frame.startswith('42["tonight"')]  # the catch-up, one event
        assert requests == []
    finally:
        context.close()


@dataclass
class Night:
    """Where a club night is played: the server its screen is opened on (*pages*), the one its
    phones play on (*changes*, its *app*), and the standing's jobs held back and let go again."""

    pages: str
    changes: str
    app: Flask
    hold: Callable[[], None]
    release: Callable[[], None]

    def until_rated(self, group_url: str, seconds: float = 60) -> None:
        """Until the group's standing is up to date (a generous bound; no time asserted)."""
        deadline = time.monotonic() + seconds
        while True:
            with self.app.app_context():
                if not is_behind(store_groups.find_group(group_url.rsplit("/", 1)[1]).id):
                    return
            assert time.monotonic() < deadline, "the standing's job did not run"
            time.sleep(0.1)


@pytest.fixture(params=["embedded", "redis"])
def night(request, tmp_path):
    """``embedded``: one app whose jobs run in its own process (``make run``), held back by a hook of
    the queue's before each standing's job. ``redis``: two app servers over one database and a
    redis-server of the test's, the screen on the first, the phones on the second, and ``flask
    worker`` (a process of its own, as compose's ``worker``) stopped to hold the jobs back (they
    wait in Redis) and started again to let them go."""
    config = {"SECRET_KEY": "browser-tonight", "RATELIMIT_STORAGE_URI": "memory://"}
    with contextlib.ExitStack() as running:
        if request.param == "embedded":
            apps = [make_test_app(tmp_path, JOBS="embedded", **config)]
            released = threading.Event()
            released.set()
            jobs = apps[0].extensions["jobs"]
            jobs.huey.pre_execute("held")(lambda task: task.name != "standing" or released.wait(60))
            running.callback(jobs.stop_here)
            running.callback(released.set)
            hold, release = released.clear, released.set
        else:
            redis_url = running.enter_context(redis_server(required_program("redis-server")))
            apps = [make_test_app(tmp_path, JOBS="redis", REDIS_URL=redis_url, **config) for _ in range(2)]
            worker = contextlib.ExitStack()
            running.callback(worker.close)
            database = apps[0].config["SQLALCHEMY_DATABASE_URI"]
            environment = {"SCOREKEEPER_REDIS_URL": redis_url, "SCOREKEEPER_MIGRATE": "false"}

            def release() -> None:
                worker.enter_context(job_worker(database, tmp_path / "worker.log", **environment))

            hold = worker.close
            release()
        urls = []
        for app in apps:
            server = make_server("127.0.0.1", 0, app, threaded=True)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            running.callback(server.shutdown)
            urls.append(f"http://127.0.0.1:{server.server_port}")
        yield Night(urls[0], urls[-1], apps[-1], hold, release)


def _rating(screen, name: str):
    """The season's rating beside *name* in the screen's results."""
    row = screen.locator("#tonight-players tr").filter(has=screen.locator("th").get_by_text(name, exact=True))
    return row.locator("td").nth(3)


def test_a_locked_tables_new_ratings_come_to_an_open_screen_once_the_standings_job_has_rated_them(browser, night):
    member = browser.new_context()
    robot = browser.new_context()  # the API's phones
    tv = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = member.new_page()
        group_url = _club(page, night.changes)  # this evening: Di won, then Cy, Bo, Ada (case 19)
        night.until_rated(group_url)
        screen = tv.new_page()
        screen.goto(night.pages + urlsplit(_screen_link(page, group_url)).path)
        before = {name: _rating(screen, name).inner_text() for name in TABLES[0]}
        assert "–" not in before.values()
        screen.evaluate("window.notReloaded = true")

        # a table of four new players started from the group's page, played (case 19 again) and locked
        code = _start(page, group_url)
        page.goto("about:blank")  # off the table's page before the API locks it (see evening)
        expect(_card(screen, code).locator(".tonight-code")).to_have_text(code, timeout=10_000)
        api, host = robot.request, next(c["value"] for c in member.cookies() if c["name"] == f"sk_table_{code}")
        as_host = {"Authorization": f"Bearer {host}"}
        assert api.patch(f"{night.changes}/api/tables/{code}", data={"checks_required": False}, headers=as_host).ok
        for number, (name, player) in enumerate(zip(TABLES[1], PLAYERS, strict=True), start=1):
            seat = api.post(f"{night.changes}/api/tables/{code}/seats", data={"name": name}).json()["seat_token"]
            body = {"kingdom": player["kingdom"], "legends": player["legends"], "done": True}
            answer = api.put(
                f"{night.changes}/api/tables/{code}/seats/{number}",
                data=body,
                headers={"Authorization": f"Bearer {seat}"},
            )
            assert answer.ok, answer.text()
        night.hold()
        assert api.post(f"{night.changes}/api/tables/{code}/lock", headers=as_host).ok

        # the lock's push: the table won by Hal, the evening's two games, and no rating yet for its
        # players (the game is not rated until the standing's job has run)
        expect(_card(screen, code).locator(".tonight-winner-names")).to_have_text("Won by Hal", timeout=10_000)
        expect(screen.locator("#tonight-games")).to_have_text("2 games")
        for name in TABLES[1]:
            expect(_rating(screen, name)).to_have_text("–")

        # the job runs: each new player's rating comes, the same as the first table's player of the
        # same place (one game each, from a season's start: the same places, the same ratings)
        night.release()
        for new, first in zip(TABLES[1], TABLES[0], strict=True):
            expect(_rating(screen, new)).to_have_text(before[first], timeout=30_000)
        assert {name: _rating(screen, name).inner_text() for name in TABLES[0]} == before
        assert screen.evaluate("window.notReloaded")  # pushed, not reloaded
    finally:
        tv.close()
        robot.close()
        member.close()


#: A fresh tester's fourth player: a name longer than a column of numbers is wide.
LONG = "שרה Maximiliana Fernández de la Cruz"

#: What is split in the browser, in the cells of the tables *selector* finds: each word of a header,
#: a number or a name of fewer than 12 characters whose pieces lie on two lines (a Range's client
#: rectangles, one per line), each longer name wider than its own cell; and the page if wider than
#: the window (scrolled sideways).
SPLIT = """selector => {
  const split = [];
  for (const cell of document.querySelectorAll(`${selector} th, ${selector} td`)) {
    if (cell.querySelector('bdi') && cell.textContent.trim().length >= 12) {
      if (cell.scrollWidth > cell.clientWidth) split.push(`${cell.textContent}: wider than its cell`);
      continue;
    }
    const text = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node; (node = text.nextNode());) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const [first, ...rest] = range.getClientRects();
        if (rest.some(r => Math.abs(r.top - first.top) > first.height / 2)) split.push(word[0]);
      }
    }
  }
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth) split.push(`the page: ${page.scrollWidth} px`);
  return split;
}"""


def test_a_long_name_wraps_in_its_own_cell_and_splits_no_header_number_or_short_name(browser, live_server):
    """Found by a fresh tester: with a fourth player of 36 characters, the locked table's big
    screen broke "Ada" as "Ad / a", the tonight page's results "Gam/es", "Wi/ns", "10./4", "-5,/4"
    (every word might break anywhere, and the long name took the room of the others). On phones
    (320 and 360 px), a tablet (1024 × 768) and televisions (1280 × 720, 1920 × 1080), light and
    dark, in every language: headers, numbers and short names whole, the long name within its
    cell, no page wider than the window."""
    member = browser.new_context()
    robot = browser.new_context()  # the API's phones
    try:
        page = member.new_page()
        names = ("Ada", "Bo", "Cy", LONG)
        group_url = _club(page, live_server, names)
        code = _start(page, group_url)
        page.goto("about:blank")  # off the table's page before the API locks it (see evening)
        api, host = robot.request, next(c["value"] for c in member.cookies() if c["name"] == f"sk_table_{code}")
        as_host = {"Authorization": f"Bearer {host}"}
        assert api.patch(f"{live_server}/api/tables/{code}", data={"checks_required": False}, headers=as_host).ok
        for number, (name, player) in enumerate(zip(names, PLAYERS, strict=True), start=1):
            seat = api.post(f"{live_server}/api/tables/{code}/seats", data={"name": name}).json()["seat_token"]
            body = {"kingdom": player["kingdom"], "legends": player["legends"], "done": True}
            headers = {"Authorization": f"Bearer {seat}"}
            assert api.put(f"{live_server}/api/tables/{code}/seats/{number}", data=body, headers=headers).ok
        assert api.post(f"{live_server}/api/tables/{code}/lock", headers=as_host).ok
        pages = {
            "screen": (f"{live_server}/t/{code}/screen", "#score-table"),
            "tonight": (_screen_link(page, group_url), "#tonight-results"),
        }
        split: dict[tuple[str, str, int, str], list[str]] = {}
        for shown, (url, table) in pages.items():
            for lang in LANGUAGES:
                page.goto(f"{url}?lang={lang}")
                expect(page.locator(table)).to_contain_text("Maximiliana")
                for width, height in ((320, 640), (360, 740), (1024, 768), (1280, 720), (1920, 1080)):
                    page.set_viewport_size({"width": width, "height": height})
                    for scheme in ("light", "dark"):
                        page.emulate_media(color_scheme=scheme)
                        _shot(page, f"long-name-{shown}-{lang}-{width}-{scheme}.png")
                        if found := page.evaluate(SPLIT, table):
                            split[shown, lang, width, scheme] = found
        assert split == {}, "\n".join(f"{where}: {words}" for where, words in split.items())
    finally:
        member.close()
        robot.close()
