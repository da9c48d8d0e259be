"""one person, one name: roster players whose names are one name now are merged (issue 33, item 2).

A name's key (scorekeeper.engine.names.name_key) now reads a name as a person does: NFKC,
the apostrophe, quote and dash variants as one, variation selectors dropped. So "D'Arcy",
"D’Arcy", "DʼArcy" and "D`Arcy", four roster players until now, are one name. In each group,
the players whose names share a key are merged into the first of them (the one added to the
roster first: its spelling stays the one shown), and every game of the others becomes theirs,
as a merge on the group's page does. Each merge is written to the log (``alembic.runtime.migration``,
beside "Running upgrade").

Two of them who played in one game were two people (a merge on the page refuses them too):
the later stays on the roster, under its own key (the name's key, a unit separator and the
player's id; no typed name has one), and the log says so.

Every stored key is then written anew, the results' too, and a group with a merge has its
standing rated again from its first game (its snapshots and counts deleted: the job that
builds a group from before the standing does it, 2,000 games a step).

The downgrade changes nothing: merged players stay merged, keys stay in the new form.

Revision ID: c3d5e8a1f2b4
Revises: 4f1c2a7e9d30
Create Date: 2026-12-06 08:00:00

"""

import logging
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

from scorekeeper.engine.names import KEY_LENGTH, name_key

# revision identifiers, used by Alembic.
revision = "c3d5e8a1f2b4"
down_revision = "4f1c2a7e9d30"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")

#: Between a name's key and the player's id in the key of a player kept apart (see above).
APART = "\x1f"


def upgrade():
    bind = op.get_bind()
    players = bind.execute(sa.text("SELECT id, group_id, name, name_key FROM players ORDER BY group_id, id")).all()
    names: dict[int, str] = {}
    same: dict[tuple[int, str], list[int]] = defaultdict(list)
    old_keys: dict[int, str] = {}
    for player_id, group_id, name, old_key in players:
        names[player_id] = name
        old_keys[player_id] = old_key
        same[(group_id, name_key(name))].append(player_id)

    new_keys: dict[int, str] = {}
    merged_groups: set[int] = set()
    for (group_id, key), ids in same.items():
        first, *others = ids
        new_keys[first] = key
        kept_games = set(_games(bind, first))
        for other in others:
            games = _games(bind, other)
            together = kept_games.intersection(games)
            if together:
                new_keys[other] = f"{key[: KEY_LENGTH - 12]}{APART}{other}"
                log.info(
                    "group %d: %r (player %d) kept apart from %r (player %d): both played in game %d",
                    group_id,
                    names[other],
                    other,
                    names[first],
                    first,
                    min(together),
                )
                continue
            bind.execute(
                sa.text("UPDATE player_results SET player_id = :first, name = :name WHERE player_id = :other"),
                {"first": first, "name": names[first], "other": other},
            )
            bind.execute(sa.text("DELETE FROM players WHERE id = :other"), {"other": other})
            kept_games.update(games)
            merged_groups.add(group_id)
            log.info(
                "group %d: %r (player %d, %d games) merged into %r (player %d): one name",
                group_id,
                names[other],
                other,
                len(games),
                names[first],
                first,
            )

    changed = {player_id: key for player_id, key in new_keys.items() if key != old_keys[player_id]}
    if changed:  # in two steps, so that no key is briefly another's (a roster's keys are unique)
        rename = sa.text("UPDATE players SET name_key = :key WHERE id = :id")
        bind.execute(rename, [{"id": player_id, "key": f"{APART}{player_id}"} for player_id in changed])
        bind.execute(rename, [{"id": player_id, "key": key} for player_id, key in changed.items()])
    players_key = "(SELECT p.name_key FROM players p WHERE p.id = player_results.player_id)"
    bind.execute(
        sa.text(
            f"UPDATE player_results SET name_key = {players_key}"
            f" WHERE player_id IS NOT NULL AND name_key <> {players_key}"
        )
    )
    loose = bind.execute(sa.text("SELECT DISTINCT name, name_key FROM player_results WHERE player_id IS NULL")).all()
    rekeyed = [{"name": name, "key": name_key(name)} for name, key in loose if name_key(name) != key]
    if rekeyed:
        bind.execute(
            sa.text("UPDATE player_results SET name_key = :key WHERE player_id IS NULL AND name = :name"), rekeyed
        )

    for group_id in sorted(merged_groups):  # rated again from the first game by the standing's job
        for table in ("rating_snapshots", "head_to_head", "standing_changes", "kept_standings"):
            bind.execute(sa.text(f"DELETE FROM {table} WHERE group_id = :g"), {"g": group_id})
    if merged_groups:
        log.info("standing to be rated again from the first game in group(s) %s", sorted(merged_groups))


def _games(bind, player_id: int) -> list[int]:
    query = sa.text("SELECT game_id FROM player_results WHERE player_id = :p")
    return list(bind.execute(query, {"p": player_id}).scalars())


def downgrade():
    pass
