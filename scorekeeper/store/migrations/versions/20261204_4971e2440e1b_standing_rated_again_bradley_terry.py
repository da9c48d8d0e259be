"""every group's standing rated again: the Bradley-Terry model, whose ratings follow the places (issue 33, item 1).

The ratings kept so far are Plackett-Luce's, which with a shared place could rate a third
place above the two who shared the first (docs/standing.md). Every group's kept standing is
let go (its snapshots, head-to-head counts, notes of changes and its ``kept_standings``
row), so that each group is again one "from before the standing": the job that builds such
a group (store.standing.build_step, 2,000 games a committed step, with the model of the
code that runs it) rates all its games again, counting head to head as it goes. The
worker's sweep asks for every such group as soon as it starts, and the group's page says
how far it is meanwhile; nothing from the old model is shown again.

Rating here, in the upgrade, would tie the migration to today's rating code and make it
last as long as the largest group (12 to 16 s at 100,000 games); the same reasons kept
revision b7e41d2c9f05 from rating. The downgrade lets the standings go the same way, for
the older code to build them again with its own model.

Revision ID: 4971e2440e1b
Revises: c3d5e8a1f2b4
Create Date: 2026-12-04 09:00:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "4971e2440e1b"
down_revision = "c3d5e8a1f2b4"
branch_labels = None
depends_on = None

#: What a kept standing is made of, each row of each group: the job builds it all again.
_KEPT = ("standing_changes", "rating_snapshots", "head_to_head", "kept_standings")


def _let_every_standing_go() -> None:
    for table in _KEPT:
        op.execute(f"DELETE FROM {table}")


def upgrade():
    _let_every_standing_go()


def downgrade():
    _let_every_standing_go()
