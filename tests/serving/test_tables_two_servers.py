"""One shared table served by two gunicorn instances on two ports over one
database (issue #10): what one process stores the other answers at once, and
locking through both at the same moment makes one game. Nothing of a table
lives in a process's memory."""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.conftest import CASE_FILES, load_case
from tests.serving.server import gunicorn

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
PLAYERS = FOUR["game"]["players"]

pytestmark = pytest.mark.slow  # two gunicorn instances started per database


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_two_servers_share_a_table_and_one_lock_makes_one_game(database_url, tmp_path):
    with contextlib.ExitStack() as servers:
        # both start at once (each migrates under the app's migration lock): half the wait
        starting = [
            gunicorn(database_url, workers=1, log=tmp_path / f"{name}.log", SCOREKEEPER_OPEN_HISTORY="true")
            for name in "ab"
        ]  # an open history lists every game, so the test can count them
        with ThreadPoolExecutor(2) as pool:
            started = [pool.submit(server.__enter__) for server in starting]
        for server, future in zip(starting, started, strict=True):
            if future.exception() is None:
                servers.push(server)  # stopped on the way out, even if the other failed to start
        a, b = (future.result() for future in started)
        table = requests.post(f"{a}/api/tables", json={"played_on": "2026-11-30", "checks": False}, timeout=10).json()
        code, host = table["code"], table["host_token"]
        tokens = []
        for number, player in enumerate(PLAYERS, start=1):
            server = (a, b)[number % 2]  # seats taken through both
            answer = requests.post(f"{server}/api/tables/{code}/seats", json={"name": player["name"]}, timeout=10)
            assert answer.status_code == 201 and answer.json()["seat"] == number
            tokens.append(answer.json()["seat_token"])
        watched = requests.get(f"{b}/api/tables/{code}", timeout=10)
        etag = watched.headers["ETag"]
        assert requests.get(f"{b}/api/tables/{code}", headers={"If-None-Match": etag}, timeout=10).status_code == 304
        for number, (player, token) in enumerate(zip(PLAYERS, tokens, strict=True), start=1):
            writer, reader = (a, b) if number % 2 else (b, a)
            body = {"kingdom": player["kingdom"], "legends": player["legends"], "done": True}
            stored = requests.put(
                f"{writer}/api/tables/{code}/seats/{number}", json=body, headers=auth(token), timeout=10
            )
            assert stored.status_code == 200
            # the very next look through the other process sees it (no cache, no wait)
            seen = requests.get(f"{reader}/api/tables/{code}", headers={"If-None-Match": etag}, timeout=10)
            assert seen.status_code == 200 and seen.headers["ETag"] != etag
            etag = seen.headers["ETag"]
            seat = seen.json()["seats"][number - 1]
            assert (seat["cards_entered"], seat["done"]) == (16, True)
            assert seat["total"] == FOUR["expected"]["players"][number - 1]["total"]

        answers: list[requests.Response] = []
        start = threading.Barrier(6)

        def lock(server: str) -> None:
            start.wait()
            answers.append(requests.post(f"{server}/api/tables/{code}/lock", headers=auth(host), timeout=30))

        threads = [threading.Thread(target=lock, args=((a, b)[i % 2],)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [answer.status_code for answer in answers] == [200] * 6
        assert len({answer.json()["game_url"].split("/g/")[1] for answer in answers}) == 1
        assert len({answer.json()["edit_url"].split("/g/")[1] for answer in answers}) == 1
        assert len(requests.get(f"{a}/games.json", timeout=10).json()["games"]) == 1
        for server in (a, b):
            state = requests.get(f"{server}/api/tables/{code}", timeout=10).json()
            assert (
                state["locked"] and state["game_url"].split("/g/")[1] == answers[0].json()["game_url"].split("/g/")[1]
            )
    for log in ("a.log", "b.log"):
        assert "Traceback" not in (tmp_path / log).read_text()


def test_a_change_made_on_one_instance_reaches_a_phone_streaming_from_the_other(database_url, tmp_path):
    """Two instances over one database and one redis-server: the pages and drafts of
    the first (sync workers, deploy/gunicorn.conf.py), the streams of the second
    (gevent workers, deploy/gunicorn-live.conf.py). Each change made on the first is
    announced through Redis and reaches a phone streaming from the second, in order;
    the first refuses to hold a stream itself (its page falls back to asking)."""
    import socketio

    from tests.serving.server import DEPLOY, GUNICORN_CONF, redis_server, required_program

    redis = required_program("redis-server")
    with contextlib.ExitStack() as servers:
        env = {
            "SCOREKEEPER_REDIS_URL": servers.enter_context(redis_server(redis)),
            # a card a draft as fast as the test sends them: far faster than a page (DRAFT_RATE_LIMIT)
            "SCOREKEEPER_DRAFT_RATE_LIMIT": "100 per second",
        }
        pages = servers.enter_context(
            gunicorn(database_url, workers=2, log=tmp_path / "pages.log", config=GUNICORN_CONF, **env)
        )
        streams = servers.enter_context(
            gunicorn(database_url, workers=1, log=tmp_path / "live.log", config=DEPLOY / "gunicorn-live.conf.py", **env)
        )
        table = requests.post(f"{pages}/api/tables", json={"played_on": "2026-12-01"}, timeout=10).json()
        code = table["code"]
        page = requests.get(f"{pages}/t/{code}", timeout=10).text
        ticket = page.split('data-ticket="', 1)[1].split('"', 1)[0]
        assert requests.get(f"{pages}/socket.io/?EIO=4&transport=websocket", timeout=10).status_code == 503

        seen: list[dict] = []
        arrived = threading.Event()
        phone = socketio.Client(reconnection=False)

        @phone.on("table")
        def told(state: dict) -> None:
            seen.append(state)
            if state["seats"] and state["seats"][0]["cards_entered"] == 16:
                arrived.set()

        phone.connect(streams, transports=["websocket"], auth={"ticket": ticket}, wait_timeout=10)
        try:
            seat = requests.post(f"{pages}/api/tables/{code}/seats", json={"name": "Ada"}, timeout=10).json()
            cells: list = [None] * 16
            for m, card in enumerate(card for row in PLAYERS[0]["kingdom"] for card in row):
                cells[m] = card
                drafted = requests.put(
                    f"{pages}/api/tables/{code}/seats/1",
                    json={"kingdom": cells},
                    headers=auth(seat["seat_token"]),
                    timeout=10,
                )
                assert drafted.status_code == 200
            assert arrived.wait(10), seen
        finally:
            phone.disconnect()
        versions = [state["version"] for state in seen]
        assert versions == sorted(versions) and versions[-1] == drafted.json()["version"]
        assert [state["seats"][0]["cards_entered"] for state in seen[1:]] == list(range(1, 17))  # every change

        # a page connecting behind (it showed version 1) is sent the table as it is, at once, alone;
        # one that shows the table as it is is sent nothing
        for shown, told_now in ((1, True), (versions[-1], False)):
            caught: list[dict] = []
            late = socketio.Client(reconnection=False)
            late.on("table", caught.append)
            late.connect(streams, transports=["websocket"], auth={"ticket": ticket, "version": shown}, wait_timeout=10)
            try:
                late.sleep(1)
            finally:
                late.disconnect()
            assert [state["version"] for state in caught] == ([versions[-1]] if told_now else [])
    for log in ("pages.log", "live.log"):
        assert "Traceback" not in (tmp_path / log).read_text()
