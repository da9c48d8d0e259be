"""Indexes for History paged by key and for per-player stats; each result knows its table size.

History pages by (played_on, id) instead of by offset, and a player's games
are read in (name_key, played_on, game_id) order; both indexes replace the
single-column ones they start with. ``player_results.players`` (2 to 4) lets
the stats count win rates by number of players without a subquery per row;
existing rows are filled from their game's results.

Revision ID: 5c4a9c93ab91
Revises: 096632609629
Create Date: 2026-11-30 22:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5c4a9c93ab91"
down_revision = "096632609629"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("saved_games", schema=None) as batch_op:
        batch_op.drop_index("ix_saved_games_played_on")
        batch_op.create_index("ix_saved_games_played_on_id", ["played_on", "id"], unique=False)

    with op.batch_alter_table("player_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("players", sa.Integer(), nullable=False, server_default="0"))
        batch_op.drop_index("ix_player_results_name_key")
        batch_op.create_index(
            "ix_player_results_name_key_played_on", ["name_key", "played_on", "game_id"], unique=False
        )
    op.execute(
        "UPDATE player_results SET players = "
        "(SELECT count(*) FROM player_results AS others WHERE others.game_id = player_results.game_id)"
    )
    with op.batch_alter_table("player_results", schema=None) as batch_op:
        batch_op.alter_column("players", server_default=None)


def downgrade():
    with op.batch_alter_table("player_results", schema=None) as batch_op:
        batch_op.drop_index("ix_player_results_name_key_played_on")
        batch_op.create_index("ix_player_results_name_key", ["name_key"], unique=False)
        batch_op.drop_column("players")

    with op.batch_alter_table("saved_games", schema=None) as batch_op:
        batch_op.drop_index("ix_saved_games_played_on_id")
        batch_op.create_index("ix_saved_games_played_on", ["played_on"], unique=False)
