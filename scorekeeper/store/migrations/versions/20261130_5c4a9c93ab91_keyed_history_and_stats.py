"""Indexes for History paged by key and for per-player stats; each result knows its table size.

History pages by (played_on, id) instead of by offset, and a player's games
are read in (name_key, played_on, game_id) order; both indexes replace the
single-column ones they start with; a group's History
reads (group_id, played_on, id), and a roster player's games (player_id,
played_on, game_id). ``player_results.players`` (2 to 4) lets
the stats count win rates by number of players without a subquery per row;
existing rows are filled from their game's results.

Revision ID: 5c4a9c93ab91
Revises: 93f87c74d2a1
Create Date: 2026-11-30 22:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5c4a9c93ab91"
down_revision = "93f87c74d2a1"
branch_labels = None
depends_on = None


def upgrade():
    # Plain ALTERs, never a batch copy of a table (see the groups migration).
    op.drop_index("ix_saved_games_played_on", table_name="saved_games")
    op.create_index("ix_saved_games_played_on_id", "saved_games", ["played_on", "id"])
    op.create_index("ix_saved_games_group_played_on_id", "saved_games", ["group_id", "played_on", "id"])

    op.add_column("player_results", sa.Column("players", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "UPDATE player_results SET players = "
        "(SELECT count(*) FROM player_results AS others WHERE others.game_id = player_results.game_id)"
    )
    if op.get_bind().dialect.name != "sqlite":  # SQLite cannot drop a default without copying the table
        op.alter_column("player_results", "players", server_default=None)
    op.drop_index("ix_player_results_name_key", table_name="player_results")
    # The place rides along, so a player's keyset pages, streak and head-to-head read no table rows.
    key_of_games = ["played_on", "game_id", "place"]
    op.create_index("ix_player_results_name_key_played_on", "player_results", ["name_key", *key_of_games])
    op.create_index("ix_player_results_player_id_played_on", "player_results", ["player_id", *key_of_games])
    op.drop_index("ix_player_results_game_id", table_name="player_results")
    op.create_index("ix_player_results_game_id_name_key", "player_results", ["game_id", "name_key", "place"])


def downgrade():
    op.drop_index("ix_player_results_game_id_name_key", table_name="player_results")
    op.create_index("ix_player_results_game_id", "player_results", ["game_id"])
    op.drop_index("ix_player_results_player_id_played_on", table_name="player_results")
    op.drop_index("ix_player_results_name_key_played_on", table_name="player_results")
    op.create_index("ix_player_results_name_key", "player_results", ["name_key"])
    if op.get_bind().dialect.name == "sqlite":  # DROP COLUMN, not a batch copy
        op.execute("ALTER TABLE player_results DROP COLUMN players")
    else:
        op.drop_column("player_results", "players")
    op.drop_index("ix_saved_games_group_played_on_id", table_name="saved_games")
    op.drop_index("ix_saved_games_played_on_id", table_name="saved_games")
    op.create_index("ix_saved_games_played_on", "saved_games", ["played_on"])
