"""standing changes: what a group's standing has yet to catch up with (issue 32, item 2).

A save, correction, deletion or merge no longer rates the group's games again inside its
request: it notes, in its own transaction, from which game on each season is to be rated
again (``standing_changes``), and a job outside the request does it
(store.standing.bring_up_to_date) and deletes the note. The table starts empty: every
standing kept so far is current.

Revision ID: 4f1c2a7e9d30
Revises: b7e41d2c9f05
Create Date: 2026-12-03 04:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "4f1c2a7e9d30"
down_revision = "b7e41d2c9f05"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "standing_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_standing_changes_group", "standing_changes", ["group_id", "id"])


def downgrade():
    op.drop_index("ix_standing_changes_group", table_name="standing_changes")
    op.drop_table("standing_changes")
