"""A group's standing (store/standing.py) worked by hand: OpenSkill's Bradley-Terry full-pairing
model with the library's defaults (a new player: mu 25, sigma 25/3 = 8.333, rating mu − 3·sigma = 0).

The numbers in the comments are what ``openskill`` 6.2.0 gives for each game (a reader can check
them with ``BradleyTerryFull().rate([[BradleyTerryFullRating(mu, sigma)], …], ranks=[…])``); where a
number is not needed the statement is relative: the winner rises, tied players move equally.
SQLite, and PostgreSQL when configured.

The apps here run each standing's job at once, after the commit (``JOBS`` ``immediate``, the
default of a testing app), so a change shows on the next reading; the jobs themselves, with
real workers beside the requests, are tests/test_jobs.py's.
"""

from __future__ import annotations

import copy
from datetime import date

import pytest
from sqlalchemy import func, select

from scorekeeper.engine import Game
from scorekeeper.store import db
from scorekeeper.store import games as store
from scorekeeper.store import groups as store_groups
from scorekeeper.store.models import HeadToHeadCount, KeptStanding, PlayerResult, RatingSnapshot, SavedGame
from scorekeeper.store.standing import (
    ALL_TIME,
    _one_at_a_time,
    bring_up_to_date,
    build_step,
    is_behind,
    note_change,
    seasons,
    standing,
)
from tests.bulk import add_games, make_group
from tests.conftest import CASE_FILES, load_case

TWO = load_case(next(p for p in CASE_FILES if p.name.startswith("02-")))  # seat 1 wins 21 to 0
SHARED = load_case(next(p for p in CASE_FILES if p.name.startswith("18-")))  # seats 1 and 2 share place 1 (2, 2, 0)
NEW_YEARS_EVE, NEW_YEAR = date(2025, 12, 31), date(2026, 1, 1)


def shared_first_of_four(*names: str) -> Game:
    """Case 18's game (seats 1 and 2 share place 1 with 2 points, seat 3 has 0) and a fourth
    seat whose one wild dragon costs 3 points (R5.3): places 1, 1, 3, 4."""
    data = copy.deepcopy(SHARED["game"])
    data["players"].append(copy.deepcopy(data["players"][2]))
    data["players"][3]["kingdom"][0][0] = "dragon"
    for player, name in zip(data["players"], names, strict=True):
        player["name"] = name
    return Game.from_dict(data)


def game_of(case: dict, *names: str) -> Game:
    data = copy.deepcopy(case["game"])
    for player, name in zip(data["players"], names, strict=True):
        player["name"] = name
    return Game.from_dict(data)


def table(group, season=ALL_TIME) -> dict[str, tuple[float, int, int, float]]:
    """Name: (rating, games, wins, average total), in the standing's order."""
    return {p.name: (round(p.rating, 3), p.games, p.wins, p.average) for p in standing(group, season).players}


def test_worked_games_ties_a_correction_a_deletion_and_the_new_year(db_app):
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        # 31 Dec 2025: Ada and Bo share place 1 (2 points each), Cy is third (0).
        # All three start at mu 25, sigma 8.333. OpenSkill: Ada and Bo → mu 27.635, sigma 7.789
        # (rating 27.635 − 3·7.789 = 4.269); Cy → mu 19.729, sigma 7.789 (rating −3.637).
        eve, _ = store.save_game(game_of(SHARED, "Ada", "Bo", "Cy"), store.Details(NEW_YEARS_EVE), group=group)
        assert table(group) == {
            "Ada": (4.269, 1, 0, 2.0),  # a shared place 1 is not a win (wins: place 1 alone)
            "Bo": (4.269, 1, 0, 2.0),  # tied with Ada: moved exactly as she did
            "Cy": (-3.637, 1, 0, 0.0),
        }
        # 1 Jan 2026: Cy beats Ada 21 to 0. All time, from their ratings after 31 Dec:
        # Cy → mu 22.901, sigma 7.572 (rating 0.184), Ada → mu 24.463 (rating 1.746): one win back
        # does not undo a shared first place against a third, so Ada stays above Cy.
        new_year, _ = store.save_game(game_of(TWO, "Cy", "Ada"), store.Details(NEW_YEAR), group=group)
        assert table(group) == {
            "Bo": (4.269, 1, 0, 2.0),  # did not play: unchanged
            "Ada": (1.746, 2, 0, 1.0),
            "Cy": (0.184, 2, 1, 10.5),
        }
        assert list(table(group)) == ["Bo", "Ada", "Cy"]
        # The season 2026 starts afresh: Cy and Ada as new players, Cy wins:
        # Cy → mu 27.635, sigma 8.066 (rating 3.438); Ada → 22.365 (rating −1.833).
        assert table(group, 2026) == {"Cy": (3.438, 1, 1, 21.0), "Ada": (-1.833, 1, 0, 0.0)}
        # … and 2025 holds 31 Dec only.
        assert table(group, 2025) == {"Ada": (4.269, 1, 0, 2.0), "Bo": (4.269, 1, 0, 2.0), "Cy": (-3.637, 1, 0, 0.0)}
        assert seasons(group.id) == [2026, 2025]
        rivalries = [(r.player, r.other, r.games, r.ahead, r.behind) for r in standing(group).rivalries]
        assert rivalries == [("Bo", "Ada", 1, 0, 0), ("Bo", "Cy", 1, 1, 0), ("Ada", "Cy", 2, 1, 1)]

        # A correction: it was Ada who won on 1 Jan. All time Ada → mu 29.320 (rating 6.603), Cy → −4.673.
        store.correct_game(new_year, game_of(TWO, "Ada", "Cy"), store.Details(NEW_YEAR), based_on=1)
        assert table(group) == {"Ada": (6.603, 2, 1, 11.5), "Bo": (4.269, 1, 0, 2.0), "Cy": (-4.673, 2, 0, 0.0)}
        assert table(group, 2026) == {"Ada": (3.438, 1, 1, 21.0), "Cy": (-1.833, 1, 0, 0.0)}  # mirrored
        rivalries = [(r.player, r.other, r.games, r.ahead, r.behind) for r in standing(group).rivalries]
        assert rivalries == [("Ada", "Bo", 1, 0, 0), ("Ada", "Cy", 2, 2, 0), ("Bo", "Cy", 1, 1, 0)]

        # Deleting 31 Dec: all time is then the 2026 season, and 2025 is no season any more.
        store.delete_game(eve)
        assert table(group) == table(group, 2026) == {"Ada": (3.438, 1, 1, 21.0), "Cy": (-1.833, 1, 0, 0.0)}
        assert table(group, 2025) == {}
        assert seasons(group.id) == [2026]
        assert [(r.player, r.other, r.games, r.ahead) for r in standing(group).rivalries] == [("Ada", "Cy", 1, 1)]


def test_a_third_place_never_tops_the_two_who_shared_the_first(db_app):
    """Issue 33: Ada and Bo share 1st, Cy is 3rd, Di 4th, in a new group. Plackett-Luce showed
    Cy 1.4, Ada 1.1, Bo 1.1, Di −2.3; Bradley-Terry: Ada and Bo mu 30.271, sigma 7.502
    (rating 7.766), Cy mu 22.365 (−0.140), Di mu 17.094 (−5.411)."""
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        game, _ = store.save_game(shared_first_of_four("Ada", "Bo", "Cy", "Di"), store.Details(NEW_YEAR), group=group)
        assert [(r.name, r.place) for r in sorted(game.results, key=lambda r: r.seat)] == [
            ("Ada", 1),
            ("Bo", 1),
            ("Cy", 3),
            ("Di", 4),
        ]
        assert table(group) == {
            "Ada": (7.766, 1, 0, 2.0),
            "Bo": (7.766, 1, 0, 2.0),
            "Cy": (-0.14, 1, 0, 0.0),
            "Di": (-5.411, 1, 0, -3.0),
        }
        assert list(table(group)) == ["Ada", "Bo", "Cy", "Di"]


def test_a_game_saved_with_an_earlier_date_rates_the_later_ones_again(db_app):
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2026, 3, 2)), group=group)
        store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2026, 3, 3)), group=group)
        late_entry = table(group)
        # the same two wins in the same order, but a game of 1 March entered last comes first
        store.save_game(game_of(TWO, "Bo", "Ada"), store.Details(date(2026, 3, 1)), group=group)
        in_order = make_group("Same games in order")
        # the snapshots after a save with an earlier date equal a full build of the same games
        for day, names in ((1, ("Bo", "Ada")), (2, ("Ada", "Bo")), (3, ("Ada", "Bo"))):
            store.save_game(game_of(TWO, *names), store.Details(date(2026, 3, day)), group=in_order)
        bring_up_to_date(in_order.id)  # a group from before the standing: built in full by its job
        assert table(group) == table(in_order)
        assert table(group) != late_entry
        ada = standing(group).players[0]
        assert ada.name == "Ada" and ada.games == 3 and len(ada.path) == 3
        assert ada.path[0] < 0 < ada.path[1] < ada.path[2]  # lost the first game, then won twice: rising


def test_a_merge_moves_ratings_and_head_to_head_to_the_one_player(db_app):
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        store.save_game(game_of(TWO, "Ana", "Bo"), store.Details(date(2026, 3, 1)), group=group)
        store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2026, 3, 2)), group=group)
        assert set(table(group)) == {"Ana", "Ada", "Bo"}
        ana = next(p for p in group.players if p.name == "Ana")
        ada = next(p for p in group.players if p.name == "Ada")
        store_groups.merge_players(ana, ada)
        # Ada now won both games against Bo: the same as two wins saved under her name at once
        other = make_group("Two wins of Ada")
        store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2026, 3, 1)), group=other)
        store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2026, 3, 2)), group=other)
        bring_up_to_date(other.id)
        assert table(group) == table(other)
        assert table(group)["Ada"][1:3] == (2, 2)
        assert [(r.player, r.other, r.games, r.ahead) for r in standing(group).rivalries] == [("Ada", "Bo", 2, 2)]
        snapshots = db.session.scalar(
            select(func.count()).select_from(RatingSnapshot).where(RatingSnapshot.group_id == group.id)
        )
        assert snapshots == 2 * 2 * 2  # two games, two players, 2026 and all time; none left of Ana


def test_a_group_from_before_the_standing_is_built_by_its_job(db_app):
    with db_app.app_context():
        group = make_group()  # straight into the tables, as the migration leaves a group: not kept
        add_games(40, group=group, first=date(2025, 11, 1), days=90)
        assert db.session.get(KeptStanding, group.id) is None
        assert is_behind(group.id)
        assert standing(group).building == (0, 40)  # the page rates nothing, and says so
        assert db.session.get(KeptStanding, group.id) is None
        bring_up_to_date(group.id)
        assert not is_behind(group.id)
        built = standing(group)
        assert built.building is None and not built.catching_up
        assert built.seasons == [2026, 2025]
        assert sum(p.games for p in built.players) == db.session.scalar(
            select(func.count())
            .select_from(RatingSnapshot)
            .where(RatingSnapshot.group_id == group.id, RatingSnapshot.season == ALL_TIME)
        )
        ada = next(p for p in built.players if p.name == "Ada")
        assert ada.games == 40 and len(ada.path) == 10  # Ada plays every bulk game
        head = db.session.scalars(select(HeadToHeadCount).where(HeadToHeadCount.group_id == group.id)).all()
        assert sum(h.games for h in head if h.season == ALL_TIME) == sum(
            h.games for h in head if h.season != ALL_TIME
        )  # every game in one year and in all time


def kept_rows(group) -> tuple[dict, dict]:
    """Every snapshot and head-to-head count of *group*, by their keys."""
    snapshots = {
        (r.season, r.game_id, r.player_id): (round(r.mu, 9), round(r.sigma, 9), r.games, r.wins, r.points)
        for r in db.session.scalars(select(RatingSnapshot).where(RatingSnapshot.group_id == group.id))
    }
    counts = {
        (h.season, h.player_id, h.other_id): (h.games, h.ahead)
        for h in db.session.scalars(select(HeadToHeadCount).where(HeadToHeadCount.group_id == group.id))
    }
    return snapshots, counts


def test_a_group_from_before_is_built_a_step_at_a_time_and_kept_meanwhile(db_app):
    with db_app.app_context():
        group = make_group()
        add_games(40, group=group, first=date(2025, 11, 1), days=90)  # 1 Nov 2025 to 29 Jan 2026
        # A worker holds the group (it is rating it): the jobs the changes below ask for find it
        # taken and leave them to that worker, which takes them in its next round.
        with _one_at_a_time(group.id) as ours:
            assert ours
            # each step rates 15 games, commits, and the page says how far it is
            assert build_step(group.id, 15) is False
            assert standing(group).building == (15, 40)
            assert build_step(group.id, 15) is False
            assert standing(group).building == (30, 40)
            # meanwhile: a game dated before all others, one after, a correction and a deletion on either side
            store.save_game(game_of(TWO, "Bo", "Ada"), store.Details(date(2025, 10, 1)), group=group)
            store.save_game(game_of(TWO, "Cy", "Ada"), store.Details(date(2026, 3, 1)), group=group)
            games = db.session.scalars(
                select(SavedGame).where(SavedGame.group_id == group.id).order_by(SavedGame.played_on, SavedGame.id)
            ).all()
            store.correct_game(games[5], game_of(TWO, "Di", "Eli"), store.Details(date(2026, 2, 1)), based_on=1)
            store.delete_game(games[3])  # in the part built
            store.delete_game(games[-2])  # in the part not built yet
            # 42 games saved, 2 deleted; of the 30 rated: one more before them (1 Oct), one corrected
            # to a date beyond them (1 Feb), one deleted
            assert standing(group).building == (29, 40)
        bring_up_to_date(group.id)  # the worker's next round: the rest, and the changes to the part built
        assert standing(group).building is None and not is_behind(group.id)
        stepwise = kept_rows(group)
        db.session.delete(db.session.get(KeptStanding, group.id))  # built again from nothing, at once
        db.session.commit()
        bring_up_to_date(group.id)
        assert kept_rows(group) == stepwise
        seats = select(func.count()).select_from(PlayerResult).join(SavedGame).where(SavedGame.group_id == group.id)
        assert sum(p.games for p in standing(group).players) == db.session.scalar(seats)  # every seat counted once


@pytest.mark.parametrize("failing", ["correct", "delete"])
def test_a_change_that_fails_leaves_the_standing_as_it_was(db_app, failing):
    with db_app.app_context():
        group, _ = store_groups.create_group("Friday")
        saved, _ = store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2026, 3, 1)), group=group)
        before = table(group)
        if failing == "correct":  # someone else corrected it meanwhile: nothing is written
            with pytest.raises(store.GameChanged):
                store.correct_game(saved, game_of(TWO, "Bo", "Ada"), store.Details(date(2026, 3, 1)), based_on=7)
        else:  # the deletion's transaction is rolled back before its commit
            note_change(saved)
            db.session.delete(saved)
            db.session.rollback()
        assert table(group) == before
