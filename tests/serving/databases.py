"""A database for a whole setup of app servers (the release step migrates it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import POSTGRES_URL, _postgres_engine, _worker_postgres_url


def fresh_database(tmp: Path) -> str:
    """An empty database: the configured PostgreSQL one emptied, else a new SQLite file."""
    if not POSTGRES_URL:
        if os.environ.get("SCOREKEEPER_REQUIRE_POSTGRES") == "1":
            pytest.fail("SCOREKEEPER_TEST_POSTGRES_URL is not set but PostgreSQL tests are required")
        return f"sqlite:///{tmp / 'games.sqlite3'}"
    url = _worker_postgres_url()
    engine = _postgres_engine(url)
    try:
        with engine.begin() as connection:
            # the release step builds it again (the conftest's fixtures notice and rebuild theirs)
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
    finally:
        engine.dispose()
    return url
