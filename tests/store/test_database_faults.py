"""Database faults (issue 14, item 5): a database that cannot be reached or
written answers 503 with ``Retry-After`` and gives back what was typed; the
app recovers without a restart once the database is back.

Found: workers that connected while the SQLite file was read-only stayed
broken after it was writable again; after a PostgreSQL restart each worker
gave one 500; with PostgreSQL down users got a generic 500 page without their
entries, and ``/healthz`` still said ok.

No test stops the PostgreSQL server (other test runs share it): "down" is a
port where nothing listens, and "restarted" is every connection to this
test's own database terminated (``pg_terminate_backend``).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy
from bs4 import BeautifulSoup
from sqlalchemy.pool import QueuePool

from scorekeeper import create_app
from scorekeeper.store import db
from tests.conftest import (
    CASE_FILES,
    POSTGRES_URL,
    _fresh_postgres,
    _postgres_engine,
    _worker_postgres_url,
    form_data,
    load_case,
    migrated_sqlite,
)

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
NOTHING_SAVED = "The saved games cannot be reached just now, so nothing was saved."


def make_app(url: str, **config):
    base = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": url,
        "MIGRATE": False,
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
        # a pool as in production (tests otherwise connect afresh for every request)
        "SQLALCHEMY_ENGINE_OPTIONS": {"poolclass": QueuePool, "pool_size": 2},
    }
    return create_app(base | config)


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def sheet_token(client, played_on: str = "2026-11-28") -> str:
    response = client.post("/", data=form_data(FOUR) | {"played_on": played_on})
    assert response.status_code == 303
    return response.headers["Location"].removeprefix("/sheet/")


def assert_save_form_back(response, token: str) -> None:
    """503, Retry-After, the sheet with its save form holding what was typed and why nothing was saved."""
    assert response.status_code == 503 and response.headers["Retry-After"] == "30"
    soup = soup_of(response)
    assert [td.get_text() for td in soup.select("#row-total td")]  # the sheet itself
    assert soup.select_one("#save-game input[name=token]")["value"] == token
    assert soup.select_one("#save-game input[name=location]")["value"] == "Café Drako"
    assert soup.select_one("#save-game textarea[name=notes]").get_text().strip() == "Cy's birthday"
    assert NOTHING_SAVED in soup.select_one("#save-errors").get_text()


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_postgresql_unreachable_answers_503_with_every_entry_back():
    # an open history, so that History asks the database (a phone in no group sees no games without asking)
    app = make_app(f"postgresql://scorekeeper:scorekeeper@127.0.0.1:{unused_port()}/scorekeeper", OPEN_HISTORY=True)
    client = app.test_client()
    assert client.get("/healthz").status_code == 200  # liveness: the process answers
    ready = client.get("/readyz")
    assert (ready.status_code, ready.headers["Retry-After"]) == (503, "30")
    token = sheet_token(client)  # scoring needs no database
    assert client.get(f"/sheet/{token}").status_code == 200
    saved = client.post("/games", data={"token": token, "location": "Café Drako", "notes": "Cy's birthday"})
    assert_save_form_back(saved, token)

    corrected = form_data(FOUR) | {"based_on": "1", "played_on": "2026-11-28", "location": "Café Drako"}
    corrected["players-1-name"] = "Bob"
    response = client.post("/g/abcdefghijklmnop/secret/edit", data=corrected)
    assert response.status_code == 503 and response.headers["Retry-After"] == "30"
    soup = soup_of(response)
    assert NOTHING_SAVED in soup.get_text()
    assert soup.select_one("input[name=players-1-name]")["value"] == "Bob"
    assert soup.select_one("input[name=location]")["value"] == "Café Drako"
    assert soup.select_one("input[name=players-0-cells-0]")["value"]  # the kingdom is there

    saved_game = client.get("/g/abcdefghijklmnop")  # a saved game's page reads the database
    assert saved_game.status_code == 503 and saved_game.headers["Retry-After"] == "30"
    assert "cannot be reached just now" in soup_of(saved_game).select_one("#error").get_text()
    assert client.get("/api/score").status_code == 405  # the API stores nothing: unaffected


@pytest.fixture
def postgres_url():
    if not POSTGRES_URL:
        if os.environ.get("SCOREKEEPER_REQUIRE_POSTGRES") == "1":
            pytest.fail("SCOREKEEPER_TEST_POSTGRES_URL is not set but PostgreSQL tests are required")
        pytest.skip("no PostgreSQL: set SCOREKEEPER_TEST_POSTGRES_URL to run this on it")
    url = _worker_postgres_url()
    _fresh_postgres(url)
    return url


def terminate_other_connections(url: str) -> int:
    """What a server restart does to the app's pooled connections, to this database only."""
    engine = _postgres_engine(url)
    try:
        with engine.connect() as connection:
            return len(
                connection.exec_driver_sql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).all()
            )
    finally:
        engine.dispose()


def test_postgresql_connections_dropped_by_the_server_are_replaced(postgres_url):
    app = make_app(postgres_url)
    client = app.test_client()
    token = sheet_token(client)
    private = client.post("/games", data={"token": token}).headers["Location"]
    public = "/g/" + private.split("/")[2]
    assert client.get(public).status_code == 200
    assert terminate_other_connections(postgres_url) >= 1
    assert client.get(public).status_code == 200  # pre-ping: a new connection, no error
    assert client.post(private + "/edit", data=form_data(FOUR) | {"based_on": "1"}).status_code == 303
    assert client.get("/readyz").status_code == 200

    # Without the pre-ping, the one request on a dropped connection is a 503
    # (not a 500), and the connection is replaced for the next.
    unpinged = make_app(postgres_url, SQLALCHEMY_ENGINE_OPTIONS={"poolclass": QueuePool, "pool_pre_ping": False})
    other = unpinged.test_client()
    assert other.get(public).status_code == 200
    assert terminate_other_connections(postgres_url) >= 1
    failed = other.get(public)
    assert (failed.status_code, failed.headers["Retry-After"]) == (503, "30")
    assert other.get(public).status_code == 200
    for each in (app, unpinged):
        with each.app_context():
            db.engine.dispose()


@contextlib.contextmanager
def read_only(path):
    """*path* made read-only, then writable again. A file mode does not stop
    root, so as root the file is made immutable (``chattr +i``) instead: both
    make SQLite open it read-only."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"running as root, and cannot make a file read-only here: {made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@contextlib.contextmanager
def other_worker(path):
    """Another process connected to the SQLite file all along, as another
    gunicorn worker is (it keeps SQLite's shared-memory file as it was). A
    process of its own: SQLite shares file handles between connections of one process."""
    script = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT 1 FROM saved_games').fetchall(); "
    )
    script += "print('connected', flush=True); sys.stdin.read()"
    worker = subprocess.Popen(
        [sys.executable, "-c", script, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert worker.stdout is not None and worker.stdout.readline() == "connected\n"
        yield
    finally:
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait(timeout=30)
        assert worker.stdout is not None
        worker.stdout.close()


def test_sqlite_read_only_then_writable_recovers_without_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    app = make_app(migrated_sqlite(path))
    client = app.test_client()
    token = sheet_token(client)
    details = {"token": token, "location": "Café Drako", "notes": "Cy's birthday"}
    with other_worker(path):
        assert client.post("/games", data={"token": sheet_token(client, "2026-11-27")}).status_code == 303
        with read_only(path):
            with app.app_context():
                db.engine.dispose()  # this worker (re)connects while the file is read-only
            assert client.get("/games").status_code == 200  # reading still works
            assert_save_form_back(client.post("/games", data=details), token)
        # writable again: the next save works, without a restart
        response = client.post("/games", data=details)
        assert response.status_code == 303, response.status_code
    assert len(client.get("/games.json").get_json()["games"]) == 2
    with app.app_context():
        db.engine.dispose()


def test_readiness_follows_the_database_and_liveness_does_not(tmp_path):
    app = make_app(migrated_sqlite(tmp_path / "games.sqlite3"))
    client = app.test_client()
    assert client.get("/readyz").get_data(as_text=True) == "ok\n"
    with app.app_context():
        db.engine.dispose()
    gone = sqlalchemy.make_url(app.config["SQLALCHEMY_DATABASE_URI"]).database
    os.rename(gone, gone + ".moved")
    (tmp_path / "games.sqlite3").mkdir()  # a directory where the file was: nothing can open it
    try:
        ready = client.get("/readyz")
        assert (ready.status_code, ready.headers["Retry-After"]) == (503, "30")
        assert client.get("/healthz").status_code == 200
    finally:
        (tmp_path / "games.sqlite3").rmdir()
        os.rename(gone + ".moved", gone)
    assert client.get("/readyz").status_code == 200
    with app.app_context():
        db.engine.dispose()


CHECKOUT = Path(__file__).resolve().parents[2]
FULL_DISK = """
import json, resource, sys
from scorekeeper import create_app
from tests.conftest import form_data, load_case, CASE_FILES
app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                  "MIGRATE": False, "PROPAGATE_EXCEPTIONS": False, "SQLALCHEMY_DATABASE_URI": sys.argv[1]})
client = app.test_client()
game = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
before = client.get("/readyz").status_code
# From here the kernel refuses every write to a file, as a full disk does (EFBIG for ENOSPC;
# output goes to a pipe, not a file).
resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
ready = client.get("/readyz")
sheet = client.post("/", data=form_data(game)).headers["Location"]
token = sheet.removeprefix("/sheet/")
saved = client.post("/games", data={"token": token, "group_name": "Full"}).status_code
print(json.dumps({"before": before, "ready": ready.status_code, "retry": ready.headers.get("Retry-After"),
                  "saved": saved, "live": client.get("/healthz").status_code}))
"""


def test_readiness_says_no_while_the_disk_takes_no_write(tmp_path):
    """Issue 24, item 9: ``/readyz`` answered ok while every write failed (a full disk): it
    answered a SELECT, which needs no write. Readiness now writes, as storing a game does."""
    url = migrated_sqlite(tmp_path / "games.sqlite3")
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, url],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answers = json.loads(done.stdout.splitlines()[-1])
    assert answers["saved"] == 503  # nothing can be stored...
    assert (answers["ready"], answers["retry"]) == (503, "30")  # ...and readiness says so
    assert (answers["before"], answers["live"]) == (200, 200)
