"""Fixtures shared by every test folder: the app factory, a client, the worked games."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from scorekeeper import create_app

DATA = Path(__file__).parent / "data"
CASE_FILES = sorted((DATA / "cases").glob("*.json"))


def load_case(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "RATELIMIT_ENABLED": False,  # tests/security checks the limits
        }
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
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL", "")


def _reset_postgres(url: str) -> None:
    """Drop every table, so the app's start-up migration builds the schema again."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as connection:
        connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """Each test using this runs on a fresh SQLite file, and on PostgreSQL when
    one is configured (skipped otherwise; ``SCOREKEEPER_REQUIRE_POSTGRES=1``
    makes a missing server a failure)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    if not POSTGRES_URL:
        if os.environ.get("SCOREKEEPER_REQUIRE_POSTGRES") == "1":
            pytest.fail("SCOREKEEPER_TEST_POSTGRES_URL is not set but PostgreSQL tests are required")
        pytest.skip("no PostgreSQL: set SCOREKEEPER_TEST_POSTGRES_URL to run these on it too")
    _reset_postgres(POSTGRES_URL)
    return POSTGRES_URL


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
