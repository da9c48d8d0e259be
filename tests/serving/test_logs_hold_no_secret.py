"""No secret in any log, the error logs too (issue 32, items 6 and 8), in the production shape:
nginx with the repository's settings in front of two gunicorn instances (the production
settings) and their stream workers, Redis, the database. The run uses private links, an invite
link, a table's code, its host's and a seat's secrets and a stream's ticket; it saves a
correction whose note is larger than nginx's 8 KB body buffer (written to a file, and nginx's
error log wrote the request line), has a worker stopped mid-request for taking too long
(gunicorn wrote ``Error handling request POST /g/<id>/<secret>/edit``) and sends a request
line gunicorn refuses (its warning quotes the line). Then every log of the run is read: not
one of those secrets is in any of them."""

from __future__ import annotations

import contextlib
import copy
import re
import socket
import sqlite3
import time
from pathlib import Path

import pytest
import requests
import socketio
from bs4 import BeautifulSoup

from tests.conftest import CASE_FILES, form_data, load_case
from tests.serving.databases import fresh_database
from tests.serving.server import (
    DEPLOY,
    GUNICORN_CONF,
    browser_from,
    gunicorn,
    job_worker,
    nginx,
    redis_server,
    release_step,
    required_program,
)

pytestmark = pytest.mark.slow

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
LIVE_CONF = DEPLOY / "gunicorn-live.conf.py"
WORKER_TIMEOUT = 4  # seconds: gunicorn stops a worker busy this long with one request


class Run:
    """The setup: nginx's base URL, the database's URL, the folder every log of the run is in."""

    def __init__(self, proxy: str, database_url: str, folder: Path) -> None:
        self.proxy, self.database_url, self.folder = proxy, database_url, folder

    def logs(self) -> dict[str, str]:
        """Every log file of the run, by its path in the run's folder (whatever processes the
        setup starts, each writes its log there)."""
        files = sorted(self.folder.rglob("*.log"))
        return {str(path.relative_to(self.folder)): path.read_text(errors="replace") for path in files}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    redis, nginx_program = required_program("redis-server"), required_program("nginx")
    tmp = tmp_path_factory.mktemp("no-secret")
    url = fresh_database(tmp)
    release_step(url)
    env = {"SCOREKEEPER_MIGRATE": "false", "SCOREKEEPER_PROXY_FIX_X_FOR": "1", "SCOREKEEPER_PROXY_FIX_X_PROTO": "1"}
    with contextlib.ExitStack() as stack:
        env["SCOREKEEPER_REDIS_URL"] = stack.enter_context(redis_server(redis))
        stack.enter_context(job_worker(url, tmp / "worker.log", **env))  # the jobs: each group's standing
        instances = [
            stack.enter_context(
                gunicorn(
                    url, workers=2, log=tmp / f"gunicorn-{n}.log", config=GUNICORN_CONF, timeout=WORKER_TIMEOUT, **env
                )
            )
            for n in (1, 2)
        ]
        live = [
            stack.enter_context(gunicorn(url, workers=1, log=tmp / f"gunicorn-live-{n}.log", config=LIVE_CONF, **env))
            for n in (1, 2)
        ]
        proxy = stack.enter_context(
            nginx(
                [base.removeprefix("http://") for base in instances],
                tmp / "nginx",
                program=nginx_program,
                live=[base.removeprefix("http://") for base in live],
            )
        )
        yield Run(proxy, url, tmp)


def fields_of(page: requests.Response, form: str) -> dict[str, str]:
    """The hidden fields of the form *form* (a CSS selector) on *page*."""
    soup = BeautifulSoup(page.text, "lxml")
    return {field["name"]: field.get("value", "") for field in soup.select(f"{form} input[type=hidden]")}


def save_in_group(browser: requests.Session, proxy: str) -> tuple[str, str, str]:
    """Score and save a game into a new group: ``(its private link's path, its id, the group's page)``."""
    game = copy.deepcopy(FOUR)
    game["players"][0]["name"] = "Ada Log"
    front = browser.get(proxy + "/", timeout=30)
    scored = browser.post(proxy + "/", data=form_data(game) | fields_of(front, "#game-form"), timeout=30)
    assert scored.status_code == 200 and "/sheet/" in scored.url, scored.text[:300]
    saving = fields_of(scored, "#save-game") | {"group_name": "Log club"}
    saved = browser.post(proxy + "/games", data=saving, timeout=30)
    assert saved.status_code == 200, saved.text[:300]
    private = BeautifulSoup(saved.text, "lxml").select_one("#private-link")["value"]  # shown once
    public_id = re.search(r"/g/([\w-]+)/[\w-]+$", private)[1]
    group = BeautifulSoup(browser.get(proxy + "/groups", timeout=30).text, "lxml").select_one("#groups a")["href"]
    return private.split("://", 1)[1].split("/", 1)[1], public_id, group


def correction(browser: requests.Session, proxy: str, private: str, notes: str) -> dict[str, str]:
    """The correction form of the game at the private link *private*, opened and filled in with *notes*."""
    edit = browser.get(f"{proxy}/{private}/edit", timeout=30)
    assert edit.status_code == 200
    return form_data(FOUR) | fields_of(edit, "#game-form") | {"location": "Club", "notes": notes}


@contextlib.contextmanager
def games_locked(database_url: str):
    """Another client holding the saved games' table locked, so that a correction waits."""
    if database_url.startswith("sqlite:"):
        connection = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
        connection.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            connection.execute("ROLLBACK")
            connection.close()
        return
    import psycopg

    with psycopg.connect(database_url) as connection:
        connection.execute("LOCK TABLE saved_games IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            connection.rollback()


def test_no_log_of_a_run_holds_a_secret_it_used(run):
    proxy = run.proxy
    ana, bo = browser_from("127.0.5.1"), browser_from("127.0.5.2")
    secrets: dict[str, str] = {}

    # a private link, its correction with a note larger than nginx's body buffer (2,000
    # Cyrillic letters: 12 KB as a form), and an invite link opened by another phone
    private, public_id, group = save_in_group(ana, proxy)
    secrets["private link"] = private.rsplit("/", 1)[1]
    corrected = ana.post(f"{proxy}/{private}/edit", data=correction(ana, proxy, private, "Ж" * 2000), timeout=30)
    assert corrected.status_code == 200 and corrected.url.endswith(f"/g/{public_id}"), corrected.text[:300]
    invite = BeautifulSoup(ana.get(proxy + group, timeout=30).text, "lxml").select_one("#invite-link")["value"]
    secrets["invite link"] = invite.rsplit("/", 1)[1]
    assert bo.get(proxy + "/" + invite.split("://", 1)[1].split("/", 1)[1], timeout=30).status_code == 200
    assert bo.get(proxy + group, timeout=30).status_code == 200  # it joined

    # a table: its code, its host's and a seat's secrets, a stream's ticket, a draft sent on it
    table = bo.post(f"{proxy}/api/tables", json={"played_on": "2026-12-01"}, timeout=30).json()
    code = secrets["table code"] = table["code"]
    secrets["host secret"] = table["host_token"]
    seat = bo.post(f"{proxy}/api/tables/{code}/seats", json={"name": "Ada"}, timeout=30).json()
    secrets["seat secret"] = seat["seat_token"]
    page = bo.get(f"{proxy}/t/{code}", timeout=30)
    ticket = secrets["ticket"] = page.text.split('data-ticket="', 1)[1].split('"', 1)[0]
    assert bo.get(f"{proxy}/t/{code}/check/1?seen={seat['version']}", timeout=30).status_code < 500
    phone = socketio.Client(reconnection=False, http_session=bo)
    phone.connect(proxy, transports=["websocket"], auth={"ticket": ticket, "lang": "en"}, wait_timeout=10)
    try:
        player = FOUR["players"][0]
        draft = {"seat": 1, "secret": seat["seat_token"], "kingdom": player["kingdom"], "legends": player["legends"]}
        assert phone.call("draft", draft, timeout=30)["cards_entered"] == 16
        assert phone.call("draft", draft | {"secret": table["host_token"][::-1]}, timeout=30)["status"] == 403
    finally:
        phone.disconnect()

    # a request line gunicorn refuses (a raw byte nginx passes on): its warning quotes the line
    port = int(proxy.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), source_address=("127.0.5.3", 0), timeout=30) as raw:
        raw.sendall(f"GET /join/x/{secrets['invite link']}\xe9 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode("latin-1"))
        assert raw.recv(64).startswith(b"HTTP/1.1 400")

    # a worker stopped for taking too long with a correction: the saved games are locked meanwhile
    fields = correction(ana, proxy, private, "Stopped")
    with games_locked(run.database_url):
        stopped = ana.post(f"{proxy}/{private}/edit", data=fields, timeout=120)
    assert stopped.status_code in (500, 502)  # gunicorn's answer for a stopped worker; nginx's if it was killed
    time.sleep(1)  # nginx and gunicorn write their last lines
    gunicorn_logs = "\n".join(text for name, text in run.logs().items() if name.startswith("gunicorn-"))
    assert "WORKER TIMEOUT" in gunicorn_logs
    if run.database_url.startswith("postgresql"):  # (SQLite waits in C, and the worker is killed)
        assert "Error handling request POST /g/<public_id>/<secret>/edit" in gunicorn_logs
    assert "Invalid HTTP request line: 'GET /join/<public_id>/<secret> HTTP/1.0'" in gunicorn_logs  # (nginx's)

    logs = run.logs()
    assert {"nginx/access.log", "nginx/error.log", "gunicorn-1.log", "gunicorn-live-1.log"} <= set(logs)
    assert '"POST /g/<public_id>/<secret>/edit HTTP/1.1" 303' in logs["nginx/access.log"]
    for what, secret in secrets.items():
        for name, text in logs.items():
            assert secret not in text, f"{what} in {name}: " + text[max(0, text.find(secret) - 300) :][:600]
