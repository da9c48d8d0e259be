"""readiness: the row /readyz writes (issue 24, item 9: readiness answered ok while every
write failed, a full disk on SQLite).

Revision ID: 8d2b4e6f1a30
Revises: 3c5e0f7a9b21
Create Date: 2026-12-02 02:50:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "8d2b4e6f1a30"
down_revision = "3c5e0f7a9b21"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "readiness",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade():
    op.drop_table("readiness")
