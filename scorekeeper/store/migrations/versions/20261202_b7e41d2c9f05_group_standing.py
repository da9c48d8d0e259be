"""group standing: rating snapshots per season and head-to-head counts (issue 26, item 2).

The tables start empty, and no group is in ``kept_standings``: each group's
standing (its games rated with OpenSkill) is built lazily, when its page is
first shown after the upgrade, 10,000 games at a time, for up to 10 s per view
(store.standing.standing), and kept from then on by every save, correction,
deletion and merge. Rating in the migration would tie it to today's rating code
and make the upgrade as long as the largest group (12 to 16 s at 100,000 games).

Revision ID: b7e41d2c9f05
Revises: 8d2b4e6f1a30
Create Date: 2026-12-02 05:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7e41d2c9f05"
down_revision = "8d2b4e6f1a30"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "kept_standings",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("built_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("rated_on", sa.Date(), nullable=True),
        sa.Column("rated_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("group_id"),
    )
    op.create_table(
        "rating_snapshots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_rating_snapshots_player",
        "rating_snapshots",
        ["group_id", "season", "player_id", "played_on", "game_id"],
    )
    op.create_index("ix_rating_snapshots_key", "rating_snapshots", ["group_id", "season", "played_on", "game_id"])
    op.create_table(
        "head_to_head",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("ahead", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("group_id", "season", "player_id", "other_id"),
    )


def downgrade():
    op.drop_table("head_to_head")
    op.drop_index("ix_rating_snapshots_key", table_name="rating_snapshots")
    op.drop_index("ix_rating_snapshots_player", table_name="rating_snapshots")
    op.drop_table("rating_snapshots")
    op.drop_table("kept_standings")
