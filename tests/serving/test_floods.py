"""Fair under floods, in the production shape (issue 32, item 5): nginx with the repository's
settings in front of two gunicorn instances sharing Redis. Each client connects from an
address of its own (any of 127/8 is this machine), as nginx and the app see it.

- PDFs: a few addresses asking for PDF after PDF held both of nginx's PDF turns for good, and
  another user got 503 for 20 of 20 PDFs; their refused requests counted against nothing.
- Imports: an 8 MiB history was read and parsed before the save limit refused it."""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import threading
import time
from collections import Counter
from datetime import date

import pytest
import requests
from bs4 import BeautifulSoup

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.conftest import CASE_FILES, load_case
from tests.serving.databases import fresh_database
from tests.serving.server import (
    GUNICORN_CONF,
    browser_from,
    gunicorn,
    nginx,
    redis_server,
    release_step,
    required_program,
)

pytestmark = [pytest.mark.slow, pytest.mark.pdf]

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
SAVES = 3  # the save limit of this setup, per minute
FLOODERS = [f"127.0.1.{n}" for n in range(1, 4)]  # three addresses, each asking with three threads
BURST = 20  # deploy/nginx/default.conf.template: an address's PDFs at once, then one every 20 s


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    """The base URL of nginx in front of the two instances."""
    redis, nginx_program = required_program("redis-server"), required_program("nginx")
    tmp = tmp_path_factory.mktemp("floods")
    url = fresh_database(tmp)
    release_step(url)
    env = {
        "SCOREKEEPER_MIGRATE": "false",
        "SCOREKEEPER_SAVE_RATE_LIMIT": f"{SAVES} per minute",
        "SCOREKEEPER_PROXY_FIX_X_FOR": "1",
        "SCOREKEEPER_PROXY_FIX_X_PROTO": "1",
    }
    with contextlib.ExitStack() as stack:
        env["SCOREKEEPER_REDIS_URL"] = stack.enter_context(redis_server(redis))
        instances = [
            stack.enter_context(gunicorn(url, workers=2, log=tmp / f"gunicorn-{n}.log", config=GUNICORN_CONF, **env))
            for n in (1, 2)
        ]
        upstreams = [base.removeprefix("http://") for base in instances]
        yield stack.enter_context(nginx(upstreams, tmp / "nginx", program=nginx_program))


def sheet_pdf(name: str) -> str:
    """The address of a sheet's PDF, a sheet of its own (no PDF of it kept from before)."""
    game = Game.from_dict(FOUR | {"players": [FOUR["players"][0] | {"name": name}, *FOUR["players"][1:]]})
    return f"/sheet/{encode_game(game, date(2031, 1, 1))}.pdf"


def test_another_address_gets_its_pdfs_while_three_addresses_flood(proxy):
    names = itertools.count()
    answers: dict[str, list[int]] = {address: [] for address in FLOODERS}
    asked_since = [False] * 9  # per flooding thread: a request of it asked after `since` was set answered
    since = threading.Event()
    answered = threading.Condition()
    over = threading.Event()

    def flood(thread: int, address: str) -> None:
        browser = browser_from(address)
        while not over.is_set():
            after = since.is_set()
            status = browser.get(proxy + sheet_pdf(f"Flood {next(names)}"), timeout=60).status_code
            with answered:
                answers[address].append(status)
                asked_since[thread] = asked_since[thread] or after
                answered.notify_all()

    threads = [threading.Thread(target=flood, args=(thread, FLOODERS[thread % len(FLOODERS)])) for thread in range(9)]
    for thread in threads:
        thread.start()
    try:
        with answered:  # each address has spent what it may ask at once: asking more is refused (429)
            assert answered.wait_for(lambda: all(429 in statuses for statuses in answers.values()), timeout=120)
            since.set()  # and every request under way then has been answered: none holds a turn
            assert answered.wait_for(lambda: all(asked_since), timeout=120)
        ordinary = browser_from("127.0.2.1")
        mine = [ordinary.get(proxy + sheet_pdf(f"Ordinary {n}"), timeout=60) for n in range(4)]
    finally:
        over.set()
        for thread in threads:
            thread.join(timeout=120)
    assert [response.status_code for response in mine] == [200] * 4
    assert all(response.content.startswith(b"%PDF") for response in mine)
    for address, statuses in answers.items():
        counted = Counter(statuses)
        # every request was counted, those refused for want of a turn (503) too: an address had its
        # 20 at once and at most one more every 20 s; the rest were refused (429) at once
        assert counted[200] + counted[503] <= BURST + 2, (address, counted)
        assert counted[429] > counted[200] + counted[503], (address, counted)
        assert set(counted) <= {200, 429, 503}, (address, counted)


def test_an_import_over_the_save_limit_is_refused_unread_through_the_proxy(proxy):
    """The app refuses it before reading its body; nginx, which had read the body whole, still
    passes that answer on (not a 502 for an upstream that stopped reading)."""
    browser = browser_from("127.0.3.1")
    page = BeautifulSoup(browser.get(proxy + "/games/import", timeout=30).text, "lxml")
    fields = {"csrf_token": page.select_one("input[name=csrf_token]")["value"]}
    saves = {"games": [FOUR | {"date": "2026-11-01"}] * SAVES}
    upload = {"file": ("a.json", json.dumps(saves))}
    first = browser.post(proxy + "/games/import", data=fields, files=upload, timeout=60)
    assert first.status_code == 200  # the address's saves, all used
    game = json.dumps(FOUR | {"date": "2026-11-02"}, separators=(",", ":"))
    history = '{"games":[' + ",".join([game] * (7_500_000 // len(game))) + "]}"  # 7.5 MB, under nginx's 8 MiB
    for _ in range(3):
        refused = browser.post(proxy + "/games/import", data=fields, files={"file": ("b.json", history)}, timeout=60)
        assert refused.status_code == 429
        errors = [li.get_text() for li in BeautifulSoup(refused.text, "lxml").select("#form-errors li")]
        assert errors == [
            f"Your address may save at most {SAVES} games in 1 minute and has no save left just now; "
            "the file was not read. Wait, then import it again."
        ]


def test_one_address_imports_one_file_at_a_time(proxy):
    """nginx takes one import at a time from an address (another is refused at once, before its
    body is read), so that one address's imports never hold several workers at once: 48 files
    of 8 MB, 16 at a time, held the workers up to 27 s. Another address imports meanwhile."""
    game = json.dumps({"games": [FOUR | {"date": "2026-11-03"}]})
    slow = browser_from("127.0.3.2")  # its import's body arrives slowly: nginx counts it from its headers on
    fields = {
        "csrf_token": BeautifulSoup(slow.get(proxy + "/games/import", timeout=30).text, "lxml").select_one(
            "input[name=csrf_token]"
        )["value"]
    }
    prepared = slow.prepare_request(
        requests.Request("POST", proxy + "/games/import", data=fields, files={"file": ("c.json", game)})
    )
    head = "POST /games/import HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in prepared.headers.items()
    )
    port = int(proxy.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), source_address=("127.0.3.2", 0), timeout=30) as trickle:
        trickle.sendall(head.encode() + b"\r\n" + prepared.body[:100])
        time.sleep(0.5)  # (nginx has read the headers: the import is under way)
        second = slow.post(proxy + "/games/import", data=fields, files={"file": ("d.json", game)}, timeout=30)
        other = browser_from("127.0.3.3")
        other_csrf = BeautifulSoup(other.get(proxy + "/games/import", timeout=30).text, "lxml")
        other_fields = {"csrf_token": other_csrf.select_one("input[name=csrf_token]")["value"]}
        elsewhere = other.post(proxy + "/games/import", data=other_fields, files={"file": ("e.json", game)}, timeout=30)
        trickle.sendall(prepared.body[100:])
        first = trickle.recv(4096)
    assert second.status_code == 503 and "Another import from your address is under way" in second.text
    assert second.headers["Retry-After"] == "5"
    assert elsewhere.status_code == 200  # another address, meanwhile
    assert first.startswith(b"HTTP/1.1 200")  # the one under way, stored
