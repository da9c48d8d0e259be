"""tonight: tables started from a group's page, and the group's screen link (issue 34, part 2).

``tables.group_id``: the group a table was started from (``NULL``: none, every table before);
its game goes to that group at the lock, and the group's "tonight" page shows it. A group
deleted takes its open tables' link with it (``SET NULL``), never the tables.
``groups.screen_hash``: SHA-256 (hex) of the secret of the group's screen link, ``""`` while
there is none (every group before: its members open the page by their membership).

Revision ID: c3a9d1e5f702
Revises: 9e3b7c5a1f42
Create Date: 2026-12-04 18:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c3a9d1e5f702"
down_revision = "9e3b7c5a1f42"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_tables_group_id_groups", "groups", ["group_id"], ["id"], ondelete="SET NULL")
        batch.create_index("ix_tables_group_created", ["group_id", "created_at"])
    op.add_column("groups", sa.Column("screen_hash", sa.String(length=64), nullable=False, server_default=""))


def downgrade():
    op.drop_column(
        "groups", "screen_hash"
    )  # not batched: SQLite drops the column itself, never the table others point to
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_group_created")
        batch.drop_constraint("fk_tables_group_id_groups", type_="foreignkey")
        batch.drop_column("group_id")
