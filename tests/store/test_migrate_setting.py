"""Start-up migration: on by default (the embedded SQLite database needs no
command), off with ``SCOREKEEPER_MIGRATE=false``, when ``flask db upgrade``
migrates as a release step. Also: ``.flaskenv`` lets a plain ``flask`` find the app."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy

from scorekeeper import create_app

CHECKOUT = Path(__file__).resolve().parents[2]
FLASK = Path(sys.executable).with_name("flask")
TABLES = {"saved_games", "game_revisions", "player_results", "alembic_version"}


def tables(url: str) -> set[str]:
    engine = sqlalchemy.create_engine(url)
    try:
        return set(sqlalchemy.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def flask(*args: str, url: str, **env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("SCOREKEEPER_", "FLASK_"))}
    environment |= {"SCOREKEEPER_DATABASE_URL": url, "SCOREKEEPER_SECRET_KEY": "t", **env}
    return subprocess.run(
        [str(FLASK), *args], cwd=CHECKOUT, env=environment, capture_output=True, text=True, timeout=120
    )


def test_the_app_migrates_at_start_up_by_default(tmp_path):
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url})
    assert TABLES <= tables(url)


def test_migrate_false_starts_on_an_empty_database_without_creating_tables(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    monkeypatch.setenv("SCOREKEEPER_MIGRATE", "false")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url})
    assert app.config["MIGRATE"] is False
    assert app.test_client().get("/healthz").status_code == 200
    assert tables(url) == set()


def test_migrate_off_in_words_too(tmp_path):
    url = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    for word in ("off", "no", "0"):
        create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url, "MIGRATE": word})
        assert tables(url) == set(), word


def test_flask_db_upgrade_creates_the_tables(tmp_path):
    url = f"sqlite:///{tmp_path / 'release.sqlite3'}"
    upgraded = flask("--app", "scorekeeper", "db", "upgrade", url=url, SCOREKEEPER_MIGRATE="false")
    assert upgraded.returncode == 0, upgraded.stderr
    assert TABLES <= tables(url)


def test_a_plain_flask_command_in_the_checkout_finds_the_app(tmp_path):
    """``.flaskenv`` names the app, so ``flask run`` needs no ``--app``."""
    routes = flask("routes", url=f"sqlite:///{tmp_path / 'routes.sqlite3'}", SCOREKEEPER_MIGRATE="false")
    assert routes.returncode == 0, routes.stderr
    assert "/healthz" in routes.stdout and "/sheet/<token>" in routes.stdout
