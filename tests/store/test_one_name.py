"""One person, one name (issue 33, item 2): a name typed with another apostrophe is the
same roster player, with one rating; a name drawn alike with a letter of another
script is flagged on the roster; the migration merges the players that a group's
roster kept apart until now. SQLite, and PostgreSQL when configured."""

from __future__ import annotations

import copy
import logging
import unicodedata
from datetime import date

import pytest
import sqlalchemy
from flask_migrate import downgrade, upgrade
from sqlalchemy import select

from scorekeeper.engine import Game, GameErrors
from scorekeeper.store import MIGRATIONS, db
from scorekeeper.store import games as store
from scorekeeper.store import groups as store_groups
from scorekeeper.store.exchange import read_games
from scorekeeper.store.models import Group, Player, PlayerResult
from scorekeeper.store.standing import bring_up_to_date, standing
from tests.conftest import CASE_FILES, load_case

TWO = load_case(next(p for p in CASE_FILES if p.name.startswith("02-")))  # seat 1 wins 21 to 0
BEFORE = "4f1c2a7e9d30"
#: "D'Arcy" as four phones type it: the keyboard's apostrophe, the curly one, the modifier letter, the backtick.
DARCYS = ("D'Arcy", "D\u2019Arcy", "D\u02bcArcy", "D`Arcy")


def game_of(*names: str) -> Game:
    data = copy.deepcopy(TWO["game"])
    for player, name in zip(data["players"], names, strict=True):
        player["name"] = name
    return Game.from_dict(data)


def test_darcy_typed_four_ways_in_four_games_is_one_roster_player_with_one_rating(db_app):
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        for day, darcy in enumerate(DARCYS, start=1):
            store.save_game(game_of(darcy, "Bo"), store.Details(date(2026, 3, day)), group=group)
        bring_up_to_date(group.id)
        assert [(e.player.name, e.games) for e in store_groups.roster_entries(group)] == [("Bo", 4), ("D'Arcy", 4)]
        players = standing(group).players
        assert [(p.name, p.games, p.wins) for p in players] == [("D'Arcy", 4, 4), ("Bo", 4, 0)]
        # every result under the first spelling, the games' entries as typed
        assert set(db.session.scalars(select(PlayerResult.name).where(PlayerResult.seat == 0))) == {"D'Arcy"}


def test_a_name_with_a_letter_of_another_script_is_flagged_on_the_roster(db_app):
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        # saved one by one (a table refuses the two together): "\u0410da" begins with the Cyrillic А
        store.save_game(game_of("Ada", "Bo"), store.Details(date(2026, 3, 1)), group=group)
        store.save_game(game_of("\u0410da", "Bo"), store.Details(date(2026, 3, 2)), group=group)
        flags = {e.player.name: (e.looks_like, e.mixes_scripts) for e in store_groups.roster_entries(group)}
        assert flags == {"Ada": ("\u0410da", False), "\u0410da": ("Ada", True), "Bo": (None, False)}


def _old_key(name: str) -> str:
    """The key as it was stored before: NFC, case-folded (no apostrophe folded)."""
    return unicodedata.normalize("NFC", name.strip().casefold())


def _name_as_before(connection, typed: str, stand_in: str) -> None:
    """Give the roster player saved as *stand_in* the name *typed*, as the roster kept it before."""
    params = {"name": typed, "key": _old_key(typed), "stand_in": stand_in}
    connection.execute(
        sqlalchemy.text("UPDATE players SET name = :name, name_key = :key WHERE name = :stand_in"), params
    )
    connection.execute(
        sqlalchemy.text("UPDATE player_results SET name = :name, name_key = :key WHERE name = :stand_in"), params
    )


def test_the_migration_merges_the_players_whose_names_are_one_name_and_says_so(db_app, caplog):
    caplog.set_level(logging.INFO, logger="alembic.runtime.migration")
    with db_app.app_context():
        # saved with the schema of today, then taken back to the revision before: the stand-ins'
        # names are the only thing this migration reads that differs (the older schema lacks
        # later migrations' columns, which today's models would write)
        group, _ = store_groups.create_group("Friday")
        for day, stand_in in enumerate(("Darcy1", "Darcy2", "Darcy3", "Darcy4"), start=1):
            store.save_game(game_of(stand_in, "Bo"), store.Details(date(2026, 3, day)), group=group)
        # Ana-Lu and Ana–Lu (an en dash) played in one game: two people, kept apart
        store.save_game(game_of("Analu1", "Analu2"), store.Details(date(2026, 3, 5)), group=group)
        group = db.session.get(Group, group.id)
        db.session.expunge(group)
        db.session.remove()
        downgrade(directory=str(MIGRATIONS), revision=BEFORE)
        bring_up_to_date(group.id)
        with db.engine.begin() as connection:
            for typed, stand_in in zip(DARCYS, ("Darcy1", "Darcy2", "Darcy3", "Darcy4"), strict=True):
                _name_as_before(connection, typed, stand_in)
            _name_as_before(connection, "Ana-Lu", "Analu1")
            _name_as_before(connection, "Ana\u2013Lu", "Analu2")
        db.session.expire_all()
        assert len(standing(group).players) == 7  # four D'Arcys, each with a rating of their own
        group_id = group.id
        db.session.remove()  # no transaction left open: a later migration's DDL on saved_games would wait for it

        upgrade(directory=str(MIGRATIONS))
        group = db.session.get(Group, group_id)

        db.session.expire_all()
        roster = {p.name: p for p in db.session.scalars(select(Player).where(Player.group_id == group.id))}
        assert set(roster) == {"D'Arcy", "Bo", "Ana-Lu", "Ana\u2013Lu"}
        assert roster["D'Arcy"].name_key == "d'arcy"
        assert roster["Ana-Lu"].name_key == "ana-lu"
        assert roster["Ana\u2013Lu"].name_key == f"ana-lu\x1f{roster['Ana–Lu'].id}"
        darcy = db.session.scalars(select(PlayerResult).where(PlayerResult.player_id == roster["D'Arcy"].id)).all()
        assert [(r.name, r.name_key) for r in darcy] == [("D'Arcy", "d'arcy")] * 4  # every game kept
        bring_up_to_date(group.id)
        players = {p.name: (p.games, p.wins) for p in standing(group).players}
        darcy_id = roster["D'Arcy"].id
        assert players == {"D'Arcy": (4, 4), "Bo": (4, 0), "Ana-Lu": (1, 1), "Ana\u2013Lu": (1, 0)}

    merges = [r.getMessage() for r in caplog.records if "merged into" in r.getMessage()]
    assert len(merges) == 3
    assert all(m.endswith(f'merged into "D\'Arcy" (player {darcy_id}): one name') for m in merges)
    assert any("'Ana–Lu'" in r.getMessage() and "kept apart" in r.getMessage() for r in caplog.records)


def test_an_import_refuses_a_game_with_two_names_drawn_alike_naming_the_game():
    fine, alike = (copy.deepcopy(TWO["game"]) for _ in range(2))
    alike["players"][1]["name"] = "\u0410da"  # beside "Ada"; its first letter the Cyrillic А
    with pytest.raises(GameErrors) as refused:
        read_games({"games": [fine, alike]})
    assert [(e.message_id, e.game, e.player) for e in refused.value.errors] == [("name-looks-alike", 2, 1)]
