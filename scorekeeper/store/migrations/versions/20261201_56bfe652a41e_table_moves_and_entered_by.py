"""Shared tables: who entered each kingdom (no phone checks a kingdom it entered), and a
request to move a seat to another phone (its own phone gone) waiting to be allowed.

Revision ID: 56bfe652a41e
Revises: 67aff881d547
Create Date: 2026-12-01 23:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "56bfe652a41e"
down_revision = "67aff881d547"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("entered_by", sa.JSON(), nullable=False, server_default=sa.text("'[]'")))
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("move_seat", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("move_asker", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("move_asked_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("move_asked_at")
        batch_op.drop_column("move_asker")
        batch_op.drop_column("move_seat")
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.drop_column("entered_by")
