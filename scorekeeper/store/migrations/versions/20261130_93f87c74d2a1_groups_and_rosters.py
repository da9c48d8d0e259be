"""Groups and their rosters: every game belongs to a group, every result to a roster player.

Games saved before groups existed are moved into one group, "Games before
groups", with a roster made of the names in their results (one player per
name as :func:`scorekeeper.engine.names.name_key` reads it, shown as most
recently typed), so nothing saved is lost. That group has no invite link
yet: ``scorekeeper groups --base-url URL`` issues one.

Revision ID: 93f87c74d2a1
Revises: 096632609629
Create Date: 2026-11-30 22:30:00

"""

import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from scorekeeper.engine.names import display_name, name_key

# revision identifiers, used by Alembic.
revision = "93f87c74d2a1"
down_revision = "096632609629"
branch_labels = None
depends_on = None

FIRST_GROUP = "Games before groups"


def upgrade():
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_groups_public_id"), ["public_id"], unique=True)

    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=160), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("group_id", "name_key"),
    )

    # ADD COLUMN with the foreign key inline, never a batch copy of the table:
    # SQLite enforces foreign keys here, and dropping the old saved_games in a
    # copy would cascade-delete every revision and result.
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE saved_games ADD COLUMN group_id INTEGER REFERENCES groups (id)")
        op.execute("ALTER TABLE player_results ADD COLUMN player_id INTEGER REFERENCES players (id) ON DELETE SET NULL")
    else:
        op.add_column("saved_games", sa.Column("group_id", sa.Integer()))
        op.create_foreign_key("fk_saved_games_group_id_groups", "saved_games", "groups", ["group_id"], ["id"])
        op.add_column("player_results", sa.Column("player_id", sa.Integer()))
        op.create_foreign_key(
            "fk_player_results_player_id_players",
            "player_results",
            "players",
            ["player_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.create_index("ix_saved_games_group_history", "saved_games", ["group_id", "played_on", "created_at", "id"])
    op.create_index("ix_player_results_player_id", "player_results", ["player_id"])

    _move_saved_games_into_one_group()


def _move_saved_games_into_one_group() -> None:
    bind = op.get_bind()
    if not bind.execute(sa.text("SELECT 1 FROM player_results LIMIT 1")).first():
        return
    while not (public_id := secrets.token_urlsafe(12))[0].isalnum():
        pass
    bind.execute(
        sa.text(
            "INSERT INTO groups (public_id, name, invite_hash, created_at) VALUES (:public_id, :name, '', :created_at)"
        ),
        {"public_id": public_id, "name": FIRST_GROUP, "created_at": datetime.now(UTC)},
    )
    group_id = bind.execute(sa.text("SELECT id FROM groups WHERE public_id = :p"), {"p": public_id}).scalar_one()
    bind.execute(sa.text("UPDATE saved_games SET group_id = :g"), {"g": group_id})

    # One roster player per name key, shown as most recently typed (typed names in played order).
    typed_names = bind.execute(
        sa.text(
            "SELECT r.name FROM player_results r JOIN saved_games g ON g.id = r.game_id"
            " GROUP BY r.name ORDER BY max(r.played_on), max(g.created_at), max(r.id)"
        )
    ).scalars()
    shown: dict[str, str] = {}
    key_of: dict[str, str] = {}
    for typed in typed_names:
        key = key_of[typed] = name_key(typed)
        shown[key] = display_name(typed)[:40]
    players = sa.table(
        "players", sa.column("group_id", sa.Integer), sa.column("name", sa.String), sa.column("name_key", sa.String)
    )
    op.bulk_insert(players, [{"group_id": group_id, "name": name, "name_key": key} for key, name in shown.items()])
    rows = bind.execute(sa.text("SELECT name_key, id FROM players WHERE group_id = :g"), {"g": group_id}).all()
    ids = {key: player_id for key, player_id in rows}
    # one statement per name as typed (a few hundred), not per result, each on an index for the move
    op.create_index("ix_player_results_name_moving", "player_results", ["name"])
    bind.execute(
        sa.text("UPDATE player_results SET player_id = :player, name = :name, name_key = :key WHERE name = :typed"),
        [{"player": ids[key], "name": shown[key], "key": key, "typed": typed} for typed, key in key_of.items()],
    )
    op.drop_index("ix_player_results_name_moving", table_name="player_results")


def downgrade():
    op.drop_index("ix_player_results_player_id", table_name="player_results")
    op.drop_index("ix_saved_games_group_history", table_name="saved_games")
    if op.get_bind().dialect.name == "sqlite":  # DROP COLUMN, not a batch copy (see upgrade)
        # player_results is written anew instead: since 3c5e0f7a9b21 its player_id has a table
        # constraint, which SQLite's DROP COLUMN refuses (nothing refers to player_results).
        with op.batch_alter_table("player_results", recreate="always") as batch_op:
            batch_op.drop_column("player_id")
        op.execute("ALTER TABLE saved_games DROP COLUMN group_id")
    else:
        op.drop_constraint("fk_player_results_player_id_players", "player_results", type_="foreignkey")
        op.drop_column("player_results", "player_id")
        op.drop_constraint("fk_saved_games_group_id_groups", "saved_games", type_="foreignkey")
        op.drop_column("saved_games", "group_id")
    op.drop_table("players")
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_groups_public_id"))
    op.drop_table("groups")
