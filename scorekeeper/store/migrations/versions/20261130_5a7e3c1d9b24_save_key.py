"""One game per sheet: ``saved_games.save_key``, unique, filled in for the games saved before.

Each game already saved gets the key of the sheet it was saved from (its first
revision's entry and date played, as ``store.games.sheet_key`` computes it
today); where the same sheet was saved several times, the first saved keeps
the key and the later copies keep none (nothing is deleted).

Revision ID: 5a7e3c1d9b24
Revises: 5c4a9c93ab91
Create Date: 2026-11-30 22:20:00

"""

import hashlib
import json

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5a7e3c1d9b24"
down_revision = "5c4a9c93ab91"
branch_labels = None
depends_on = None


def _sheet_key(entry: dict, played_on) -> str:
    """A copy of ``store.games.sheet_key`` as of this revision (a migration never changes)."""
    canonical = json.dumps(
        {"game": entry, "played_on": played_on.isoformat() if played_on else None},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def upgrade():
    with op.batch_alter_table("saved_games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("save_key", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_saved_games_save_key"), ["save_key"], unique=True)

    games = sa.table("saved_games", sa.column("id", sa.Integer), sa.column("created_at"), sa.column("save_key"))
    revisions = sa.table(
        "game_revisions",
        sa.column("game_id", sa.Integer),
        sa.column("number", sa.Integer),
        sa.column("played_on", sa.Date),
        sa.column("entry", sa.JSON),
    )
    connection = op.get_bind()
    first_saves = connection.execute(
        sa.select(games.c.id, revisions.c.entry, revisions.c.played_on)
        .join(revisions, (revisions.c.game_id == games.c.id) & (revisions.c.number == 1))
        .order_by(games.c.created_at, games.c.id)
    )
    seen: set[str] = set()
    keys = []
    for game_id, entry, played_on in first_saves:
        key = _sheet_key(entry, played_on)
        if key not in seen:
            seen.add(key)
            keys.append({"game": game_id, "key": key})
    if keys:
        connection.execute(
            games.update().where(games.c.id == sa.bindparam("game")).values(save_key=sa.bindparam("key")), keys
        )


def downgrade():
    op.drop_index("ix_saved_games_save_key", table_name="saved_games")
    # Not a batch operation: on SQLite that copies the table and drops the old one,
    # which (foreign keys on) would delete every revision and result with it.
    # ALTER TABLE … DROP COLUMN: PostgreSQL, and SQLite from 3.35.
    op.execute("ALTER TABLE saved_games DROP COLUMN save_key")
