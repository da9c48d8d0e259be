"""The models and the migrated schema agree on both databases (issue 24, item 10): after
``flask db upgrade``, ``flask db check`` finds nothing to do, so ``flask db migrate`` writes
no migration out of a difference that is not there."""

from __future__ import annotations

import sqlalchemy

from tests.store.test_migrate_setting import flask
from tests.web.test_groups import FOUR, save


def player_results(url: str) -> list[tuple]:
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            return connection.exec_driver_sql("SELECT id, game_id, name, player_id, total FROM player_results").all()
    finally:
        engine.dispose()


def test_the_migrated_schema_checks_clean_and_keeps_its_rows(database_url, db_client):
    save(db_client, FOUR["game"], group_name="Tuesdays")  # rows with a roster player each
    rows = player_results(database_url)
    assert len(rows) == 4 and all(row[3] is not None for row in rows)
    check = flask("db", "check", url=database_url)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "No new upgrade operations detected" in check.stdout + check.stderr
    # the newest migrations again, over those rows (SQLite's table written anew): every row kept
    for step in (("db", "downgrade", "56bfe652a41e"), ("db", "upgrade"), ("db", "check")):
        done = flask(*step, url=database_url)
        assert done.returncode == 0, (step, done.stdout + done.stderr)
    assert player_results(database_url) == rows
