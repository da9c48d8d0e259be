"""The migration to groups: every game saved before it lands in one group, with a
roster made of its results' names (one player per name as the engine reads it)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import sqlalchemy
from flask_migrate import downgrade, upgrade

from scorekeeper.store import MIGRATIONS, db

BEFORE_GROUPS = "096632609629"


def _insert_old_game(connection, public_id: str, names: list[str], played_on: date) -> None:
    now = datetime(2026, 11, 1, tzinfo=UTC)
    game_id = connection.execute(
        sqlalchemy.text(
            "INSERT INTO saved_games (public_id, edit_token_hash, created_at, updated_at, revision, played_on,"
            " location, notes, ruleset, rules_version, entry, winners)"
            " VALUES (:p, :h, :now, :now, 1, :day, '', '', 'pocket', '1', :entry, '') RETURNING id"
        ),
        {
            "p": public_id,
            "h": public_id.encode().hex()[:64].ljust(64, "0"),
            "now": now,
            "day": played_on,
            "entry": json.dumps({"players": []}),
        },
    ).scalar_one()
    for seat, name in enumerate(names):
        connection.execute(
            sqlalchemy.text(
                "INSERT INTO player_results (game_id, seat, name, name_key, played_on, ruleset, place, shared_win,"
                " total, elves, dwarves, humans, goblins, dragons, legends, conflicts)"
                " VALUES (:g, :seat, :name, :key, :day, 'pocket', :place, false, 10, 0, 0, 0, 0, 0, 0, 0)"
            ),
            {
                "g": game_id,
                "seat": seat,
                "name": name,
                "key": name.strip().casefold(),
                "day": played_on,
                "place": seat + 1,
            },
        )


def test_games_saved_before_groups_move_into_one_group_with_a_roster(db_app):
    with db_app.app_context():
        downgrade(directory=str(MIGRATIONS), revision=BEFORE_GROUPS)
        with db.engine.begin() as connection:
            _insert_old_game(connection, "old1", ["Mia Sophie", "Rin"], date(2026, 10, 1))
            _insert_old_game(connection, "old2", ["Mia  Sophie", "rin "], date(2026, 10, 2))
            _insert_old_game(
                connection, "old3", ["Mia\u00a0Sophie\u200b", "👨‍👩‍👧 Team", "👨👩👧 Team"], date(2026, 10, 3)
            )
        upgrade(directory=str(MIGRATIONS))
        with db.engine.connect() as connection:
            groups = connection.execute(sqlalchemy.text("SELECT id, name, invite_hash FROM groups")).all()
            assert [(name, invite) for _, name, invite in groups] == [("Games before groups", "")]
            group_id = groups[0][0]
            assert connection.execute(sqlalchemy.text("SELECT DISTINCT group_id FROM saved_games")).scalars().all() == [
                group_id
            ]
            roster = connection.execute(sqlalchemy.text("SELECT name FROM players ORDER BY name")).scalars().all()
            # shown as most recently typed, spaces read as one
            assert sorted(roster) == sorted(["Mia Sophie", "rin", "👨‍👩‍👧 Team", "👨👩👧 Team"])
            results = connection.execute(
                sqlalchemy.text(
                    "SELECT r.name, p.name FROM player_results r JOIN players p ON p.id = r.player_id"
                    " JOIN saved_games g ON g.id = r.game_id ORDER BY g.public_id, r.seat"
                )
            ).all()
            assert len(results) == 7
            assert all(result == player for result, player in results)
            assert [r for r, _ in results][:2] == ["Mia Sophie", "rin"]


def test_an_empty_database_gets_no_group(db_app):
    with db_app.app_context(), db.engine.connect() as connection:
        assert connection.execute(sqlalchemy.text("SELECT count(*) FROM groups")).scalar() == 0
