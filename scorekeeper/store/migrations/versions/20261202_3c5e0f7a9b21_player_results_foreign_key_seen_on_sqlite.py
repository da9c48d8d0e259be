"""player_results.player_id's ON DELETE SET NULL where SQLite's reflection sees it.

Migration 93f87c74d2a1 added the column with ``ALTER TABLE … ADD COLUMN``, which SQLite
writes as a column constraint (``player_id INTEGER REFERENCES players (id) ON DELETE SET
NULL``). SQLite keeps and enforces it, but SQLAlchemy reads a foreign key's ``ON DELETE``
only from a table constraint, so ``flask db check`` saw a difference from the models and
``flask db migrate`` wrote a migration that could not run (issue 24, item 10). On SQLite the
table is written anew with the same columns, rows and indexes, the foreign key as a table
constraint; PostgreSQL's reflection sees it already: nothing changes there.

Revision ID: 3c5e0f7a9b21
Revises: 56bfe652a41e
Create Date: 2026-12-02 02:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "3c5e0f7a9b21"
down_revision = "56bfe652a41e"
branch_labels = None
depends_on = None


def _player_results() -> sa.Table:
    """player_results as of this revision (the source of the copy: not reflected)."""
    return sa.Table(
        "player_results",
        sa.MetaData(),
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("saved_games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=160), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("ruleset", sa.String(length=16), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("shared_win", sa.Boolean(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("elves", sa.Integer(), nullable=False),
        sa.Column("dwarves", sa.Integer(), nullable=False),
        sa.Column("humans", sa.Integer(), nullable=False),
        sa.Column("goblins", sa.Integer(), nullable=False),
        sa.Column("dragons", sa.Integer(), nullable=False),
        sa.Column("legends", sa.Integer(), nullable=False),
        sa.Column("conflicts", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id", ondelete="SET NULL"), nullable=True),
        sa.Column("players", sa.Integer(), nullable=False, server_default=sa.text("'0'")),
        sa.Index("ix_player_results_player_id", "player_id"),
        sa.Index("ix_player_results_name_key_played_on", "name_key", "played_on", "game_id", "place"),
        sa.Index("ix_player_results_player_id_played_on", "player_id", "played_on", "game_id", "place"),
        sa.Index("ix_player_results_game_id_name_key", "game_id", "name_key", "place"),
    )


def upgrade():
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("player_results", recreate="always", copy_from=_player_results()):
        pass


def downgrade():
    pass  # the same table, the foreign key written as a column constraint or as a table one
