"""Shared tables: when each seat's phone and the host's phone were last seen at the table
(a phone not seen for 2 minutes is gone: its seat moves without its own "Yes").

Tables open at the upgrade count their phones as seen at their last change.

Revision ID: a3d9e5c7b1f2
Revises: 4971e2440e1b
Create Date: 2026-12-06 07:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a3d9e5c7b1f2"
down_revision = "4971e2440e1b"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("host_seen_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE table_seats SET seen_at = updated_at")
    op.execute("UPDATE tables SET host_seen_at = updated_at WHERE locked_at IS NULL")


def downgrade():
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("host_seen_at")
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.drop_column("seen_at")
