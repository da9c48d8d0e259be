"""The migration that rates every group's standing again with the model whose ratings follow
the places (issue 33, item 1; revision 4971e2440e1b). SQLite, and PostgreSQL when configured.

The database is taken to the revision before it and given the standing the code before kept:
the issue's game (Ada and Bo share 1st, Cy 3rd, Di 4th) rated by Plackett-Luce, which put Cy
on top (1.4 against 1.1); after the upgrade, the group's job builds it again, and Cy is third.
"""

from __future__ import annotations

import importlib
import itertools
from datetime import UTC, datetime

import sqlalchemy
from flask_migrate import downgrade, upgrade
from openskill.models import PlackettLuce

from scorekeeper.store import MIGRATIONS, db
from scorekeeper.store import games as store
from scorekeeper.store import groups as store_groups
from scorekeeper.store.models import Group
from scorekeeper.store.standing import ALL_TIME, behind_groups, bring_up_to_date, is_behind, standing
from tests.store.test_standing import NEW_YEAR, shared_first_of_four, table

MIGRATION = importlib.import_module(
    "scorekeeper.store.migrations.versions.20261204_4971e2440e1b_standing_rated_again_bradley_terry"
)


def _keep_as_plackett_luce_did(connection, group_id: int, game_id: int, places: dict[int, int]) -> None:
    """The standing of one game as the code before this migration kept it: every player's
    Plackett-Luce rating after it (openskill 6.2.0, computed here), for the season and all
    time, the head-to-head counts, and a note of a change not yet rated."""
    model = PlackettLuce()
    players = sorted(places)
    rated = model.rate([[model.rating()] for _ in players], ranks=[float(places[p]) for p in players])
    day = NEW_YEAR
    connection.execute(
        sqlalchemy.text("INSERT INTO kept_standings (group_id, built_at, complete) VALUES (:g, :at, :complete)"),
        {"g": group_id, "at": datetime.now(UTC), "complete": True},
    )
    for season, (player, [rating]) in itertools.product((ALL_TIME, day.year), zip(players, rated, strict=True)):
        connection.execute(
            sqlalchemy.text(
                "INSERT INTO rating_snapshots (group_id, season, game_id, player_id, played_on, mu, sigma, games,"
                " wins, points) VALUES (:g, :season, :game, :player, :day, :mu, :sigma, 1, 0, 0)"
            ),
            {"g": group_id, "season": season, "game": game_id, "player": player, "day": day}
            | {"mu": rating.mu, "sigma": rating.sigma},
        )
    for season, (player, other) in itertools.product((ALL_TIME, day.year), itertools.permutations(players, 2)):
        connection.execute(
            sqlalchemy.text(
                "INSERT INTO head_to_head (group_id, season, player_id, other_id, games, ahead)"
                " VALUES (:g, :season, :player, :other, 1, :ahead)"
            ),
            {
                "g": group_id,
                "season": season,
                "player": player,
                "other": other,
                "ahead": int(places[player] < places[other]),
            },
        )
    connection.execute(
        sqlalchemy.text(
            "INSERT INTO standing_changes (group_id, season, played_on, game_id) VALUES (:g, :season, :day, :game)"
        ),
        {"g": group_id, "season": ALL_TIME, "day": day, "game": game_id},
    )


def test_the_upgrade_rates_every_group_again_and_the_third_place_no_longer_tops(db_app):
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        game, _ = store.save_game(shared_first_of_four("Ada", "Bo", "Cy", "Di"), store.Details(NEW_YEAR), group=group)
        places = {result.player_id: result.place for result in game.results}
        group_id, game_id = group.id, game.id
        db.session.commit()
        group = db.session.get(Group, group_id)
        db.session.expunge(group)  # read with the schema of today: the older one lacks later groups' columns
        db.session.remove()

        downgrade(directory=str(MIGRATIONS), revision=MIGRATION.down_revision)
        with db.engine.begin() as connection:
            assert connection.execute(sqlalchemy.text("SELECT count(*) FROM kept_standings")).scalar() == 0
            _keep_as_plackett_luce_did(connection, group_id, game_id, places)
        # the standing as kept before: the numbers, Cy (3rd) on top
        before = {p.name: f"{p.rating:.1f}" for p in standing(group).players}
        assert before == {"Cy": "1.4", "Ada": "1.1", "Bo": "1.1", "Di": "-2.3"}
        assert list(before)[0] == "Cy"
        db.session.remove()

        upgrade(directory=str(MIGRATIONS))
        group = db.session.get(Group, group_id)
        with db.engine.connect() as connection:
            for kept in ("kept_standings", "rating_snapshots", "head_to_head", "standing_changes"):
                assert connection.execute(sqlalchemy.text(f"SELECT count(*) FROM {kept}")).scalar() == 0, kept
        # nothing of the old model is shown: the page says the standing is being worked out
        assert standing(group).building == (0, 1) and standing(group).players == []
        assert is_behind(group_id) and behind_groups() == [group_id]  # what the worker's sweep asks for

        bring_up_to_date(group_id)  # the job the sweep runs
        assert table(group) == {
            "Ada": (7.766, 1, 0, 2.0),
            "Bo": (7.766, 1, 0, 2.0),
            "Cy": (-0.14, 1, 0, 0.0),
            "Di": (-5.411, 1, 0, -3.0),
        }
        assert list(table(group)) == ["Ada", "Bo", "Cy", "Di"]
        assert table(group, NEW_YEAR.year) == table(group)
        rivalries = [(r.player, r.other, r.games, r.ahead, r.behind) for r in standing(group).rivalries]
        assert rivalries == [
            ("Ada", "Bo", 1, 0, 0),
            ("Ada", "Cy", 1, 1, 0),
            ("Ada", "Di", 1, 1, 0),
            ("Bo", "Cy", 1, 1, 0),
            ("Bo", "Di", 1, 1, 0),
            ("Cy", "Di", 1, 1, 0),
        ]
        assert not is_behind(group_id) and behind_groups() == []


def test_the_downgrade_lets_the_standings_go_for_the_older_code_to_build(db_app):
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        store.save_game(shared_first_of_four("Ada", "Bo", "Cy", "Di"), store.Details(NEW_YEAR), group=group)
        group_id = group.id
        assert not is_behind(group_id)
        db.session.remove()
        downgrade(directory=str(MIGRATIONS), revision=MIGRATION.down_revision)
        with db.engine.connect() as connection:
            for kept in ("kept_standings", "rating_snapshots", "head_to_head", "standing_changes"):
                assert connection.execute(sqlalchemy.text(f"SELECT count(*) FROM {kept}")).scalar() == 0, kept
        assert is_behind(group_id)
        db.session.remove()  # no transaction left open: the upgrade's DDL on groups would wait for it
        upgrade(directory=str(MIGRATIONS))
