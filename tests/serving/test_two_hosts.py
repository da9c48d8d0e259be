"""The production shape of compose.yaml, from Debian's packages (CI has no Docker): the
schema migrated once as a release step, two gunicorn instances of two workers each on
two ports (the production settings, deploy/gunicorn.conf.py) and a stream worker beside
each (deploy/gunicorn-live.conf.py), one PostgreSQL database (SQLite without one), one
redis-server for the rate-limit counts and the tables' announcements, nginx in front with
the production settings (deploy/nginx/default.conf.template).

Each test comes from a new client address (``X-Forwarded-For``, trusted from one
proxy as in compose), so the rate limits of one do not touch another."""

from __future__ import annotations

import contextlib
import copy
import itertools
import re
import socket

import pytest
import requests
from bs4 import BeautifulSoup

from tests.conftest import CASE_FILES, form_data, load_case
from tests.serving.databases import fresh_database
from tests.serving.server import DEPLOY, GUNICORN_CONF, gunicorn, nginx, redis_server, release_step, required_program

pytestmark = pytest.mark.slow

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
SAVES, PDFS = 10, 3  # the configured limits, per minute
LIVE_CONF = DEPLOY / "gunicorn-live.conf.py"
_addresses = (f"203.0.113.{n}" for n in itertools.count(10))


@pytest.fixture(scope="module")
def hosts(tmp_path_factory):
    """``(first, second, proxy)`` base URLs of the running setup."""
    redis, nginx_program = required_program("redis-server"), required_program("nginx")
    tmp = tmp_path_factory.mktemp("two-hosts")
    url = fresh_database(tmp)
    release_step(url)
    env = {
        "SCOREKEEPER_MIGRATE": "false",
        "SCOREKEEPER_SAVE_RATE_LIMIT": f"{SAVES} per minute",
        "SCOREKEEPER_PDF_RATE_LIMIT": f"{PDFS} per minute",
        "SCOREKEEPER_PROXY_FIX_X_FOR": "1",
        "SCOREKEEPER_PROXY_FIX_X_PROTO": "1",
    }
    with contextlib.ExitStack() as stack:
        env["SCOREKEEPER_REDIS_URL"] = stack.enter_context(redis_server(redis))
        first, second = (
            stack.enter_context(gunicorn(url, workers=2, log=tmp / f"gunicorn-{n}.log", config=GUNICORN_CONF, **env))
            for n in (1, 2)
        )
        live = [  # the tables' stream workers, one process beside each instance (compose's "live")
            stack.enter_context(gunicorn(url, workers=1, log=tmp / f"gunicorn-live-{n}.log", config=LIVE_CONF, **env))
            for n in (1, 2)
        ]
        upstreams = [first.removeprefix("http://"), second.removeprefix("http://")]
        streams = [base.removeprefix("http://") for base in live]
        proxy = stack.enter_context(nginx(upstreams, tmp / "nginx", program=nginx_program, live=streams))
        yield first, second, proxy
    for log in tmp.glob("gunicorn-*.log"):
        assert "Traceback" not in log.read_text()


def game_of_its_own(test: str) -> dict:
    """The 4-player case with its first player renamed, so that no other test saved its
    sheet already (a sheet once saved shows its saved game instead of the save form)."""
    game = copy.deepcopy(FOUR["game"])
    game["players"][0]["name"] = f"Ada {test}"
    return game


class Client(requests.Session):
    """One person's browser, from an address of its own, on either instance."""

    def __init__(self) -> None:
        super().__init__()
        self.headers["X-Forwarded-For"] = next(_addresses)

    def csrf(self, url: str) -> str:
        return BeautifulSoup(self.get(url, timeout=30).text, "lxml").select_one("input[name=csrf_token]")["value"]

    def sheet(self, base: str, game: dict) -> str:
        """Score *game* through the form; its sheet token."""
        scored = self.post(base + "/", data=form_data(game) | {"csrf_token": self.csrf(base + "/")}, timeout=30)
        assert scored.status_code == 200 and "/sheet/" in scored.url, scored.text[:300]
        return scored.url.rsplit("/", 1)[1]


def test_save_limit_is_counted_once_for_both_instances(hosts):
    first, second, _proxy = hosts
    client = Client()
    token = client.sheet(first, game_of_its_own("limit"))
    csrf = client.csrf(f"{first}/sheet/{token}")
    statuses = [
        client.post(f"{base}/games", data={"csrf_token": csrf, "token": token}, allow_redirects=False, timeout=30)
        for base in [first, second] * (SAVES // 2 + 2)
    ]
    allowed = [response.status_code for response in statuses].index(429)
    # per-process counts would allow 4 × SAVES (two instances of two workers); shared, SAVES (within one)
    assert SAVES - 1 <= allowed <= SAVES + 1, [response.status_code for response in statuses]
    assert {response.status_code for response in statuses[allowed:]} == {429}
    assert {response.status_code for response in statuses[:allowed]} == {303}


def test_pdf_limit_is_counted_once_for_both_instances(hosts):
    first, second, _proxy = hosts
    client = Client()
    token = client.sheet(second, game_of_its_own("pdf"))
    statuses = [client.get(f"{base}/sheet/{token}.pdf", timeout=60).status_code for base in [first, second] * 3]
    assert statuses == [200] * PDFS + [429] * (6 - PDFS)


def test_game_saved_through_one_instance_is_read_and_corrected_through_the_other(hosts):
    first, second, _proxy = hosts
    client = Client()
    token = client.sheet(first, game_of_its_own("correct"))
    csrf = client.csrf(f"{first}/sheet/{token}")
    saved = client.post(f"{first}/games", data={"csrf_token": csrf, "token": token, "location": "Club"}, timeout=30)
    private = BeautifulSoup(saved.text, "lxml").select_one("#private-link")["value"]  # shown once
    public_id, secret = re.search(r"/g/([\w-]+)/([\w-]+)$", private).groups()

    page = BeautifulSoup(requests.get(f"{second}/g/{public_id}", timeout=30).text, "lxml")
    totals = [int(td["data-value"]) for td in page.select("#row-total td")]
    assert totals == [p["total"] for p in FOUR["expected"]["players"]]

    # the form opened on the second instance, its CSRF token from there, the correction saved there
    edit = BeautifulSoup(client.get(f"{second}/g/{public_id}/{secret}/edit", timeout=30).text, "lxml")
    based_on = edit.select_one("input[name=based_on]")["value"]
    fields = form_data(FOUR["game"]) | {"players-0-name": "Adele", "location": "Club"}
    fields |= {"based_on": based_on, "csrf_token": edit.select_one("input[name=csrf_token]")["value"]}
    corrected = client.post(f"{second}/g/{public_id}/{secret}/edit", data=fields, timeout=30)
    assert corrected.status_code == 200 and corrected.url.endswith(f"/g/{public_id}")  # its phone remembers it

    stored = requests.get(f"{first}/g/{public_id}.json", timeout=30).json()
    assert [p["name"] for p in stored["players"]] == ["Adele"] + [p["name"] for p in FOUR["game"]["players"][1:]]
    assert stored["location"] == "Club"
    # a correction opened before that one, saved through the first instance: refused, entries kept
    stale = client.post(f"{first}/g/{public_id}/{secret}/edit", data=fields | {"players-0-name": "Ada B"}, timeout=30)
    assert stale.status_code == 409
    assert BeautifulSoup(stale.text, "lxml").select_one("#players-0-name")["value"] == "Ada B"


def test_proxy_answers_while_200_slow_clients_hold_connections(hosts):
    """Each instance has two sync workers: four clients sending their headers slowly
    would hold all four without the proxy. nginx reads requests whole first, so 200
    such clients hold nothing of the app's, and others are answered meanwhile."""
    _first, _second, proxy = hosts
    port = int(proxy.rsplit(":", 1)[1])
    slow = []
    try:
        for _ in range(200):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n")  # never finished
            slow.append(connection)
        for connection in slow:
            connection.sendall(b"X-Slow: 1\r\n")  # one more line from each, still no end
        page = requests.get(proxy + "/", timeout=30)
        assert page.status_code == 200 and 'name="csrf_token"' in page.text
        assert requests.get(proxy + "/games", timeout=30).status_code == 200
        for connection in slow:  # every slow client still connected, unanswered
            connection.setblocking(False)
            with pytest.raises(BlockingIOError):
                connection.recv(1)
    finally:
        for connection in slow:
            connection.close()


def test_a_table_streams_through_the_proxy_to_a_phone_whatever_instance_made_the_change(hosts):
    """nginx passes the WebSocket on to the stream workers (an upgrade, nothing buffered):
    a phone watching through the proxy is told of each change, made through the proxy
    (either instance) or straight on either instance."""
    import threading

    import socketio

    first, second, proxy = hosts
    client = Client()
    table = client.post(f"{proxy}/api/tables", json={"played_on": "2026-12-01"}, timeout=30).json()
    code = table["code"]
    ticket = client.get(f"{proxy}/t/{code}", timeout=30).text.split('data-ticket="', 1)[1].split('"', 1)[0]
    told: list[int] = []
    four = threading.Event()
    phone = socketio.Client(reconnection=False, http_session=client)

    @phone.on("table")
    def change(state: dict) -> None:
        told.append(len(state["seats"]))
        if len(state["seats"]) == 4:
            four.set()

    phone.connect(proxy, transports=["websocket"], auth={"ticket": ticket}, wait_timeout=10)
    try:
        for base, name in zip((proxy, first, second, proxy), ("Ada", "Bo", "Cy", "Di"), strict=True):
            assert client.post(f"{base}/api/tables/{code}/seats", json={"name": name}, timeout=30).status_code == 201
        assert four.wait(10), told
    finally:
        phone.disconnect()
    assert told == [1, 2, 3, 4]


def test_a_draft_sent_on_a_stream_through_the_proxy_is_stored_by_a_stream_worker(hosts):
    """A seat page's draft as an acknowledged event (scorekeeper/web/tables/stream.py): through nginx
    to a gevent stream worker, stored in the database the sync workers read, acknowledged
    with the seat's points and announced to the phones, through Redis, whichever worker."""
    import socketio

    first, second, proxy = hosts
    client = Client()
    table = client.post(f"{proxy}/api/tables", json={"played_on": "2026-12-01"}, timeout=30).json()
    code = table["code"]
    seat = client.post(f"{proxy}/api/tables/{code}/seats", json={"name": "Ada"}, timeout=30).json()
    ticket = client.get(f"{proxy}/t/{code}", timeout=30).text.split('data-ticket="', 1)[1].split('"', 1)[0]
    phones = [socketio.Client(reconnection=False, http_session=client) for _ in range(2)]
    told: list[dict] = []
    phones[1].on("table", told.append)
    for phone in phones:
        phone.connect(proxy, transports=["websocket"], auth={"ticket": ticket, "lang": "en"}, wait_timeout=10)
    try:
        player = FOUR["game"]["players"][0]
        draft = {"seat": 1, "secret": seat["seat_token"], "kingdom": player["kingdom"], "legends": player["legends"]}
        answer = phones[0].call("draft", draft, timeout=30)
        assert answer["cards_entered"] == 16 and answer["total"] == FOUR["expected"]["players"][0]["total"]
        stored = requests.get(f"{second}/api/tables/{code}", timeout=30).json()
        assert stored["version"] == answer["version"] and stored["seats"][0]["cards_entered"] == 16
        refused = phones[0].call("draft", draft | {"secret": table["host_token"][::-1]}, timeout=30)
        assert refused["status"] == 403
        for _ in range(100):
            if told:
                break
            phones[1].sleep(0.1)
        assert told and told[-1]["version"] == answer["version"]
    finally:
        for phone in phones:
            phone.disconnect()
