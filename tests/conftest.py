"""Fixtures shared by every test folder: the app factory, a client, the worked games."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import shutil
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool, QueuePool

from scorekeeper import create_app

DATA = Path(__file__).parent / "data"


def _route_builders_compiled_once() -> None:
    """Werkzeug compiles two URL builders for every route (generated Python,
    through ``ast`` and ``compile()``) each time an app registers its routes:
    18 ms of each ``create_app``, and the suite makes over a thousand apps. A
    builder depends only on the route's parts, defaults and kind, so each test
    process compiles it once and every later app's route reuses the function.
    If werkzeug's private method changes shape, the apps compile as before."""
    from werkzeug.routing.rules import Rule

    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:
        return
    builders: dict[tuple, object] = {}

    def reused(self, append_unknown: bool = True):
        converters = tuple(sorted((name, type(c).__qualname__, c.regex) for name, c in self._converters.items()))
        key = (self.rule, tuple(self._trace), repr(sorted((self.defaults or {}).items())), converters, append_unknown)
        builder = builders.get(key)
        if builder is None:
            builder = builders[key] = compile_builder(self, append_unknown)
        return builder

    Rule._compile_builder = reused


_route_builders_compiled_once()
CASE_FILES = sorted((DATA / "cases").glob("*.json"))


def examples(count: int) -> int:
    """Hypothesis examples for a property: *count* in CI (``SCOREKEEPER_THOROUGH=1``,
    set by .ci/run), half of them in a developer's ``make test``."""
    return count if os.environ.get("SCOREKEEPER_THOROUGH") == "1" else max(count // 2, 10)


def pytest_runtest_setup(item):
    """Tests marked ``pdf`` need WeasyPrint and Pango: without them they skip
    with the reason, or fail when ``SCOREKEEPER_REQUIRE_PDF=1`` (CI)."""
    if item.get_closest_marker("pdf") is None:
        return
    from scorekeeper.web.pdf import unavailable

    reason = unavailable()
    if reason is None:
        return
    if os.environ.get("SCOREKEEPER_REQUIRE_PDF") == "1":
        pytest.fail(f"PDFs are required (SCOREKEEPER_REQUIRE_PDF=1) but cannot be made: {reason}")
    pytest.skip(f"no PDFs here (install Pango: libpango-1.0-0 libpangoft2-1.0-0): {reason}")


def load_case(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@dataclass
class CliResult:
    """What one `scorekeeper` command did: its exit status and what it wrote."""

    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        """Standard output, then standard error."""
        return self.stdout + self.stderr


def run_cli(args: list[str], input: str | bytes | None = None, env: dict[str, str] | None = None) -> CliResult:
    """`scorekeeper ARGS` in this process (``scorekeeper.cli.main``), reading
    *input* (text as UTF-8) as standard input, with the variables *env* set for
    the call. Its exit status is SystemExit's code (0 if it returns); any
    other exception the command does not handle is raised here."""
    from scorekeeper.cli import main

    data = input.encode("utf-8") if isinstance(input, str) else input or b""
    streams = sys.stdin, sys.stdout, sys.stderr
    saved_env = {name: os.environ.get(name) for name in env or {}}
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    sys.stdout, sys.stderr = stdout, stderr = io.StringIO(), io.StringIO()
    os.environ.update(env or {})
    try:
        main(args)
        exit_code = 0
    except SystemExit as stop:  # as Python ends a process: a message is written to stderr, status 1
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
            exit_code = 1
        else:
            exit_code = stop.code or 0
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return CliResult(exit_code, stdout.getvalue(), stderr.getvalue())


# The schema is migrated once per session (by the app's own start-up migration)
# into a template database; each test gets a copy (SQLite) or the emptied tables
# (PostgreSQL), and its apps are made with MIGRATE false.
_TEMPLATES: dict[str, Path] = {}


@pytest.fixture(scope="session", autouse=True)
def _template_folder(tmp_path_factory):
    _TEMPLATES["folder"] = tmp_path_factory.getbasetemp()


@functools.cache
def _sqlite_template() -> Path:
    path = _TEMPLATES["folder"] / "template.sqlite3"
    app = create_app({"TESTING": True, "SECRET_KEY": "template", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    _close_connections(app)
    with contextlib.closing(sqlite3.connect(path)) as connection:  # all in the main file, none in the WAL
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def _close_connections(app) -> None:
    with app.app_context():
        app.extensions["sqlalchemy"].engine.dispose()


def migrated_sqlite(path: Path) -> str:
    """The URL of an SQLite file at *path* holding the migrated, empty schema
    (a copy of the session's template; an existing file is kept)."""
    if not path.exists():
        shutil.copyfile(_sqlite_template(), path)
    return f"sqlite:///{path}"


def make_test_app(tmp_path: Path, **config):
    """An app for tests on a migrated SQLite copy in *tmp_path*, not migrating again."""
    base = {
        "TESTING": True,
        "SECRET_KEY": "t",
        "SQLALCHEMY_DATABASE_URI": migrated_sqlite(tmp_path / "app.sqlite3"),
        "MIGRATE": False,
    }
    return create_app(base | config)


@pytest.fixture
def app(tmp_path):
    return make_test_app(
        tmp_path,
        SECRET_KEY="test",
        WTF_CSRF_ENABLED=False,
        RATELIMIT_ENABLED=False,  # tests/security checks the limits
    )


@pytest.fixture
def client(app):
    return app.test_client()


def form_data(game: dict, action: str = "score") -> dict:
    """The fields a browser posts for *game* (a game file object), WTForms naming."""
    data: dict = {"ruleset": game.get("ruleset", "pocket"), "action": action}
    for i, player in enumerate(game["players"]):
        data[f"players-{i}-name"] = player["name"]
        cells = [card for row in player["kingdom"] for card in row]
        for m, card in enumerate(cells):
            data[f"players-{i}-cells-{m}"] = card
        data[f"players-{i}-legends"] = list(player.get("legends", []))
    return data


#: A PostgreSQL database the tests may wipe, e.g. set by .ci/run:
#: postgresql://scorekeeper:scorekeeper@127.0.0.1:5432/scorekeeper_test
#: Run in parallel (pytest -n), each worker uses its own database beside it,
#: <name>_gw0, <name>_gw1, …, created when missing (the role needs CREATEDB).
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL", "")


_postgres: dict[str, str] = {}


def _postgres_engine(url: str, **options):
    url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    return sqlalchemy.create_engine(url, poolclass=NullPool, **options)


@functools.cache
def _worker_postgres_url() -> str:
    """This test process's PostgreSQL database: ``POSTGRES_URL``, or beside it one per xdist worker."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return POSTGRES_URL
    url = sqlalchemy.make_url(POSTGRES_URL)
    name = f"{url.database}_{worker}"
    engine = _postgres_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            exists = connection.exec_driver_sql("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).scalar()
            if not exists:
                try:
                    connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
                except DBAPIError as error:
                    pytest.fail(f"parallel tests need a database per worker: cannot create {name}: {error.orig}")
    finally:
        engine.dispose()
    return url.set(database=name).render_as_string(hide_password=False)


def _fresh_postgres(url: str) -> None:
    """Empty every table of the test database, RESTART IDENTITY, so it is as new.

    The first time in a session (or when a test left the schema at another
    revision) the schema is dropped and built again by the app's start-up
    migration; after that only the rows go (TRUNCATE), which is much quicker."""
    engine = _postgres_engine(url)
    try:
        with engine.begin() as connection:
            version = None
            if _postgres.get("version"):
                try:
                    with connection.begin_nested():
                        version = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
                except DBAPIError:  # no table: a test took the schema down
                    version = None
            if version is not None and version == _postgres["version"]:
                tables = (
                    connection.exec_driver_sql(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
                    )
                    .scalars()
                    .all()
                )
                if tables:
                    names = ", ".join(f'"{name}"' for name in tables)
                    connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
                return
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        app = create_app({"TESTING": True, "SECRET_KEY": "template", "SQLALCHEMY_DATABASE_URI": url})
        _close_connections(app)
        with engine.connect() as connection:
            _postgres["version"] = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """Each test using this runs on a fresh, migrated SQLite file, and on
    PostgreSQL when one is configured (skipped otherwise;
    ``SCOREKEEPER_REQUIRE_POSTGRES=1`` makes a missing server a failure).
    Apps made on it need not migrate (``MIGRATE`` false)."""
    if request.param == "sqlite":
        return migrated_sqlite(tmp_path / "games.sqlite3")
    if not POSTGRES_URL:
        if os.environ.get("SCOREKEEPER_REQUIRE_POSTGRES") == "1":
            pytest.fail("SCOREKEEPER_TEST_POSTGRES_URL is not set but PostgreSQL tests are required")
        pytest.skip("no PostgreSQL: set SCOREKEEPER_TEST_POSTGRES_URL to run these on it too")
    url = _worker_postgres_url()
    _fresh_postgres(url)
    return url


def app_on(database_url: str, **config):
    """The app on *database_url* (migrated already, see ``database_url``) as production has
    it but for its rate limits: CSRF on; *config* on top."""
    base = {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url}
    return create_app(base | {"RATELIMIT_ENABLED": False, "MIGRATE": False} | config)


@pytest.fixture
def db_app(database_url):
    """The app on a fresh database of each kind (see ``database_url``)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "RATELIMIT_ENABLED": False,
            "MIGRATE": False,
            # A pool of its own (the app's NullPool for tests would connect anew for
            # every query: a PostgreSQL backend started and authenticated each time),
            # closed below with the test.
            "SQLALCHEMY_ENGINE_OPTIONS": {"poolclass": QueuePool, "pool_size": 2},
        }
    )
    yield app
    with app.app_context():
        from scorekeeper.store import db

        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def db_client(db_app):
    return db_app.test_client()


def saved_links(client, response) -> tuple[str, str]:
    """The read-only and private paths of a saved game, from the answer to its
    save (a 303 to the read-only page, which shows the private link once)."""
    assert response.status_code == 303, response.status_code
    public = response.headers["Location"]
    assert re.fullmatch(r"/g/[\w-]+", public), public
    page = client.get(public).get_data(as_text=True)
    found = re.search(r'id="private-link" type="url" readonly value="https?://[^/"]+(/g/[\w-]+/[\w-]+)"', page)
    assert found, "no private link on the page after saving"
    return public, found[1]


def pytest_terminal_summary(terminalreporter):
    """How many requests the fuzz sent (tests/security/test_fuzz.py), per database, and
    Schemathesis (tests/web/test_openapi.py), workers included."""
    sent: dict[str, int] = {}
    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", []):
            if name == "fuzz_requests":
                database = "postgresql" if "postgresql" in report.nodeid else "sqlite"
                sent[database] = sent.get(database, 0) + value
    if sent:
        counts = ", ".join(f"{count:,} on {database}" for database, count in sorted(sent.items()))
        terminalreporter.write_line(f"fuzz: {sum(sent.values()):,} requests, none answered 5xx ({counts})")
    # recorded as each operation's test is torn down (the count is known only then); the
    # operations' items share one node id
    contract = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "teardown" and report.passed
        for name, value in getattr(report, "user_properties", [])
        if name == "schemathesis_requests"
    ]
    if contract:
        terminalreporter.write_line(
            f"schemathesis: {sum(contract):,} requests to gunicorn over {len(contract)} operations, "
            "none answered 5xx, every answer as the contract says (tests/web/test_openapi.py)"
        )
