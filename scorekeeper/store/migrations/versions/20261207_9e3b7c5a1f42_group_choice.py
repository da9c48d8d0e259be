"""the game where the group plays (issue 33, item 3): a sheet's key unique per group, and the groups offered at a table.

``saved_games.save_key`` was unique over every group: the same sheet saved by a phone of
another group gave that group's game ("Already saved: open it"), a link into a group the
phone is not in, and no way to keep the game in its own group. It is unique per group now
(``ix_saved_games_group_save_key``); the index on the key alone stays, not unique, for
"is this sheet saved in one of this phone's groups". Every key stored so far was unique
over all groups, so unique in its group too: nothing to fill in. What kept one save form
sent twice (a double tap into "A new group") to one game is now the edit secret the form
derives: ``edit_token_hash`` is unique (every secret so far was random, or derived from
one form or one table).

``table_group_offers`` holds the groups the phones seated at a shared table offer for its
game, so that the host may lock it into one of them (a borrowed host's phone in no group).
It starts empty.

Revision ID: 9e3b7c5a1f42
Revises: a3d9e5c7b1f2
Create Date: 2026-12-06 07:40:00

"""

import hashlib
import logging

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "9e3b7c5a1f42"
down_revision = "a3d9e5c7b1f2"
branch_labels = None
depends_on = None


def upgrade():
    op.drop_index("ix_saved_games_save_key", table_name="saved_games")
    op.create_index("ix_saved_games_save_key", "saved_games", ["save_key"], unique=False)
    op.create_index("ix_saved_games_group_save_key", "saved_games", ["group_id", "save_key"], unique=True)
    _one_game_per_edit_hash()
    op.create_index("ix_saved_games_edit_token_hash", "saved_games", ["edit_token_hash"], unique=True)
    op.create_table(
        "table_group_offers",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=False),
        sa.Column("offered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "group_id"),
    )
    op.create_index("ix_table_group_offers_group", "table_group_offers", ["group_id"])


def _one_game_per_edit_hash():
    """Two games with one edit hash come only from rows written by hand (a secret is random,
    or derived from one form or one table): the first keeps it, each other gets a hash no
    secret has (its private link stops working; said in the log)."""
    games = sa.table("saved_games", sa.column("id", sa.Integer), sa.column("edit_token_hash", sa.String))
    connection = op.get_bind()
    seen: set[str] = set()
    for game_id, hashed in connection.execute(sa.select(games.c.id, games.c.edit_token_hash).order_by(games.c.id)):
        if hashed not in seen:
            seen.add(hashed)
            continue
        fresh = hashlib.sha256(f"no secret:{game_id}:{hashed}".encode()).hexdigest()
        connection.execute(games.update().where(games.c.id == game_id).values(edit_token_hash=fresh))
        logging.getLogger("alembic").warning(
            "game %d shared its edit hash with an earlier game: given a new one", game_id
        )


def downgrade():
    op.drop_index("ix_table_group_offers_group", table_name="table_group_offers")
    op.drop_table("table_group_offers")
    # a sheet saved into two groups keeps its key in the first saved only, as before
    op.execute(
        "UPDATE saved_games SET save_key = NULL WHERE save_key IS NOT NULL AND id NOT IN "
        "(SELECT MIN(id) FROM saved_games WHERE save_key IS NOT NULL GROUP BY save_key)"
    )
    op.drop_index("ix_saved_games_edit_token_hash", table_name="saved_games")
    op.drop_index("ix_saved_games_group_save_key", table_name="saved_games")
    op.drop_index("ix_saved_games_save_key", table_name="saved_games")
    op.create_index("ix_saved_games_save_key", "saved_games", ["save_key"], unique=True)
