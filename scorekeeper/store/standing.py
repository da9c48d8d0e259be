"""A group's standing: each roster player's rating, games, wins and average
total, the rating's path over their latest games, and head to head, for each
calendar year (a season) and for all time (docs/standing.md).

Ratings are OpenSkill's Bradley-Terry "full pairing" model (the ``openskill``
library's ``BradleyTerryFull``, its default settings: a new player has mu 25,
sigma 25/3): every game of a group's season, in History's order (date played,
then the order saved), rates its players by their places (R7), a shared place
as a tie. It was chosen for a property, not its name (docs/standing.md,
tests/store/test_ratings_follow_places.py): from equal ratings a better place
rates higher and a shared place equal, and a player who finished ahead of
another in every game they played (always together) is never rated below them;
the library's default, Plackett-Luce, fails it with shared places (a third place
rated above the two who shared the first). The rating shown is the *ordinal*,
mu − 3·sigma: it starts at 0 and rises as a player both wins and becomes known,
so a lucky first game does not top the table.

Rating 100,000 games takes seconds, so nothing is rated when a page is shown,
nor while a change is saved: the player's rating after each game is stored
(``rating_snapshots``, per season and for all time) and head-to-head counts are
kept (``head_to_head``).

In the change's own transaction (a save, correction or deletion notes itself,
:func:`note_change`; a roster merge, :func:`players_merged`), just before it
commits, the group's row is locked, its head-to-head counts are moved by the
game's old and new places (a few rows), and a :class:`~.models.StandingChange`
notes from which game on each season it was or is in is to be rated again. So
the change answers at once, and what is to be rated again is kept exactly when
the change is. After the commit the app is asked to catch up (:func:`set_catch_up`:
a job on the app's queue, :mod:`scorekeeper.jobs`), and outside the request
:func:`bring_up_to_date` rewrites the snapshots from the earliest noted game
on, a few thousand games per committed step, then deletes the notes it read.
Per group one job rates at a time (a lock in the database); a job that finds
the group taken leaves it to the one rating, which looks again when done, so
the latest notes always win. A job that fails leaves its notes, and is run
again (the queue's retries, and the worker's sweep over every group behind:
:func:`behind_groups`). Until then the group's page says that its standing is
being brought up to date (:attr:`Standing.catching_up`).

A group made before the standing existed gets its snapshots built by the same
job, 2,000 games a step, each step committed; its page says how far it is
(:attr:`Standing.building`), and changes meanwhile keep what is built so far.
"""

from __future__ import annotations

import fcntl
import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import cast

from flask import Flask, current_app, has_app_context
from openskill.models import BradleyTerryFull, BradleyTerryFullRating
from sqlalchemy import delete, event, exists, func, insert, select, tuple_, union
from sqlalchemy.orm import Session, scoped_session

from .db import db, lock_group
from .models import (
    Group,
    HeadToHeadCount,
    KeptStanding,
    Player,
    PlayerResult,
    RatingSnapshot,
    SavedGame,
    StandingChange,
)

#: The season that holds every game.
ALL_TIME = 0
#: How many of a player's latest ratings the path shows.
PATH_GAMES = 10
#: OpenSkill's Bradley-Terry full-pairing model with the library's defaults (mu 25, sigma 25/3,
#: beta 25/6, tau 25/300): every pair of players in a game is one result, a shared place a draw.
MODEL = BradleyTerryFull()

#: A player's running figures in a snapshot: the rating (mu, sigma) and the season's games, wins and points so far.
_RUNNING = (RatingSnapshot.mu, RatingSnapshot.sigma, RatingSnapshot.games, RatingSnapshot.wins, RatingSnapshot.points)

_PENDING = "standing-changes"
_MERGED = "standing-merged"
_BEHIND = "standing-behind"
_CATCH_UP = "scorekeeper.standing.catch_up"
_BEFORE: tuple[date, int] = (date.min, -1)  # before every game: nothing rated yet
#: A job rates this many games per committed step (a fraction of a second each): on SQLite,
#: where one transaction writes at a time, a save waits for one step at most.
STEP_GAMES = 2_000
#: The database's advisory locks of the jobs (PostgreSQL: this and the group's id), one group each.
_REBUILD_LOCKS = 720_461_114

#: A game as the standing reads it: the date played and (roster player id, place) per seat.
Places = tuple[date, list[tuple[int, int]]]
Key = tuple[date, int]


#: A player's rating: mu and sigma (skill points), as :data:`MODEL` rates them.
Rating = BradleyTerryFullRating


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: OpenSkill's own ``ordinal()``, mu − 3·sigma, in skill points."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def new_rating() -> Rating:
    """A new player's rating: mu 25, sigma 25/3 (ordinal 0), a new object each
    call (rating copies the teams: one object on two seats would be one player)."""
    return MODEL.rating()


def rate_game(ratings: list[Rating], places: list[int]) -> list[Rating]:
    """The players' ratings after one game: *ratings* before it, one per seat, and
    their *places* (R7: 1 is first; a shared place, R7.4, is the same number
    for each, the next place skipped, ``[1, 1, 3]``), in the same order.

    :raises ValueError: (the library's) when the two lists differ in length or
        hold fewer than two players.
    """
    return [team[0] for team in MODEL.rate([[rating] for rating in ratings], ranks=[float(place) for place in places])]


# --- noting a change, in its transaction ------------------------------------------------------


def set_catch_up(app: Flask, ask: Callable[[int], None]) -> None:
    """Have *ask(group_id)* called, in *app*, after each commit that leaves a
    group's standing behind (the app's job queue, :mod:`scorekeeper.jobs`).
    It is called on the committing thread, after the commit: it must not
    raise, and must not wait for the standing. Without one nothing is asked
    (the notes stay, for whoever runs :func:`bring_up_to_date`)."""
    app.extensions[_CATCH_UP] = ask


def note_change(saved: SavedGame) -> None:
    """Note that *saved* is about to be saved, corrected, deleted or moved to another
    group (call it before the change, while its results and group are still the old
    ones): just before the session commits, its group's head-to-head counts follow
    and what is to be rated again is noted (a game moved: in the group it left, as
    if deleted, and in the one it joined, as if saved); after the commit the app is
    asked to catch up."""
    if saved.group_id is None and saved.group is None:
        return
    old: Places | None = None
    if saved.id is not None and saved.group_id is not None:
        old = (saved.played_on, [(r.player_id, r.place) for r in saved.results if r.player_id is not None])
    db.session.info.setdefault(_PENDING, []).append((saved, old, saved.group_id))


@event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    pending = session.info.pop(_PENDING, None)
    merged = session.info.pop(_MERGED, None)
    if not pending and not merged:
        return
    session.flush()
    changes: dict[int, list[tuple[int, Places | None, bool]]] = defaultdict(list)
    for saved, old, before in pending or []:
        group_id = saved.group_id if saved.group_id is not None else (saved.group.id if saved.group else None)
        if saved.id is None:
            continue
        if before is not None and before != group_id:  # moved: it left *before*
            changes[before].append((saved.id, old, False))
            old = None
        if group_id is not None:
            changes[group_id].append((saved.id, old, True))
    for group_id in sorted({*changes, *(merged or {})}):  # one order of the groups' rows for every writer
        if _note(session, group_id, changes.get(group_id, []), (merged or {}).get(group_id, {})):
            session.info.setdefault(_BEHIND, set()).add(group_id)


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    behind = session.info.pop(_BEHIND, None)
    if not behind or not has_app_context():
        return
    ask = current_app.extensions.get(_CATCH_UP)
    for group_id in sorted(behind):
        if ask is not None:
            ask(group_id)


@event.listens_for(Session, "after_soft_rollback")
def _after_rollback(session: Session, previous_transaction: object) -> None:
    session.info.pop(_PENDING, None)
    session.info.pop(_MERGED, None)
    session.info.pop(_BEHIND, None)


def players_merged(group_id: int, source_id: int, target_id: int) -> None:
    """Note that every result of roster player *source_id* is about to become
    *target_id*'s (call it before the results change): their head-to-head
    counts become the target's now, and just before the session commits every
    season the source played in is noted to be rated again from the source's
    first game in it, now as the target's (the source's snapshots go then)."""
    session = db.session()
    if _lock(session, group_id) is None:
        return
    since: dict[int, Key] = session.info.setdefault(_MERGED, {}).setdefault(group_id, {})
    order = (PlayerResult.played_on, PlayerResult.game_id)
    first = session.execute(select(*order).where(PlayerResult.player_id == source_id).order_by(*order).limit(1)).first()
    while first is not None:
        key: Key = (first[0], first[1])
        since[first[0].year] = min(since.get(first[0].year, key), key)
        since[ALL_TIME] = min(since.get(ALL_TIME, key), key)
        first = session.execute(
            select(*order)
            .where(PlayerResult.player_id == source_id, PlayerResult.played_on >= date(key[0].year + 1, 1, 1))
            .order_by(*order)
            .limit(1)
        ).first()
    moved: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0])
    for row in session.scalars(
        select(HeadToHeadCount).where(
            HeadToHeadCount.group_id == group_id,
            (HeadToHeadCount.player_id == source_id) | (HeadToHeadCount.other_id == source_id),
        )
    ):
        player = target_id if row.player_id == source_id else row.player_id
        other = target_id if row.other_id == source_id else row.other_id
        moved[(row.season, player, other)][0] += row.games
        moved[(row.season, player, other)][1] += row.ahead
        session.delete(row)
    session.flush()
    _move_counts(session, group_id, moved)


def _lock(session: Session, group_id: int) -> KeptStanding | None:
    """Take the group's lock for this transaction (:func:`~.db.lock_group`: a change
    of the group holds it already; a build step takes it here, so that a change
    meanwhile waits for the step) and read, afresh, whether and how far its
    standing is kept."""
    lock_group(group_id)
    return session.scalar(
        select(KeptStanding).where(KeptStanding.group_id == group_id).execution_options(populate_existing=True)
    )


def _rated_through(kept: KeptStanding) -> Key | None:
    """The last key the standing holds while it is being built (``None``: complete, no limit)."""
    if kept.complete:
        return None
    return (kept.rated_on, kept.rated_id) if kept.rated_on is not None and kept.rated_id is not None else _BEFORE


def _note(
    session: Session, group_id: int, changes: list[tuple[int, Places | None, bool]], merged: dict[int, Key]
) -> bool:
    """Move the group's head-to-head counts after *changes* (game id, its
    places before or ``None``, whether it is in the group now: ``False`` for a
    game moved out of it) and note, per season, the earliest game to be
    rated again (those changes, and a merge's seasons from a key).

    :returns: whether anything was noted (the standing is behind until a job catches up).
    """
    kept = _lock(session, group_id)
    if kept is None:
        return False  # built by a job later, from the games as they are then
    limit = _rated_through(kept)  # while it is being built, beyond this the build counts each game
    since: dict[int, Key] = {season: key for season, key in merged.items() if limit is None or key <= limit}
    counts: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0])
    for game_id, old, here in changes:
        for state, sign in ((old, -1), (_places(session, game_id) if here else None, 1)):
            if state is None or (limit is not None and (state[0], game_id) > limit):
                continue
            day, places = state
            for season in (ALL_TIME, day.year):
                since[season] = min(since.get(season, (day, game_id)), (day, game_id))
                _count_pairs(counts, season, places, sign)
    _move_counts(session, group_id, counts)
    if since:
        session.execute(
            insert(StandingChange),
            [
                {"group_id": group_id, "season": season, "played_on": day, "game_id": game_id}
                for season, (day, game_id) in sorted(since.items())
            ],
        )
    return bool(since)


def _places(session: Session, game_id: int) -> Places | None:
    """The game's date and places as stored now (``None``: it was deleted)."""
    rows = session.execute(
        select(PlayerResult.played_on, PlayerResult.player_id, PlayerResult.place)
        .where(PlayerResult.game_id == game_id, PlayerResult.player_id.is_not(None))
        .order_by(PlayerResult.seat)
    ).all()
    if not rows:
        return None
    return rows[0][0], [(cast(int, player_id), place) for _, player_id, place in rows]


def _count_pairs(
    counts: dict[tuple[int, int, int], list[int]], season: int, places: Iterable[tuple[int, int]], sign: int
) -> None:
    for (player, place), (other, other_place) in itertools.permutations(places, 2):
        count = counts[(season, player, other)]
        count[0] += sign
        count[1] += sign * (place < other_place)


def _move_counts(session: Session, group_id: int, counts: dict[tuple[int, int, int], list[int]]) -> None:
    with session.no_autoflush:  # one flush at the end, not one before each look-up (a build moves thousands)
        for (season, player, other), (games, ahead) in counts.items():
            if not games and not ahead:
                continue
            row = session.get(HeadToHeadCount, (group_id, season, player, other))
            if row is None:
                row = HeadToHeadCount(
                    group_id=group_id, season=season, player_id=player, other_id=other, games=0, ahead=0
                )
                session.add(row)
            row.games += games
            row.ahead += ahead
            if row.games <= 0:
                session.delete(row)
    session.flush()


def keep_from_now(group: Group) -> None:
    """Mark the new *group* (no games yet) as one whose standing is kept from its first game."""
    db.session.add(KeptStanding(group_id=group.id, built_at=datetime.now(UTC), complete=True))


# --- catching up, outside the request ---------------------------------------------------------


def bring_up_to_date(group_id: int, step: int = STEP_GAMES) -> bool:
    """Bring the group's standing up to date: build it if it is from before
    the standing, then rate again every season noted by a change from its
    earliest noted game on, *step* games per committed step, and delete the
    notes read. Call it in an app context, outside any request: it takes as
    long as the games to rate (seconds at 100,000).

    One call rates a group at a time (a lock in the database, released when
    its process dies); a call that finds the group taken returns at once, and
    the one rating looks again once it has let go, so no note is left behind.
    If it raises, the notes it had not finished stay for the next call.

    :returns: whether it rated (and committed) anything: ``False`` when the group
        was up to date, gone, or taken by another call.
    """
    rated = False
    while True:
        with _one_at_a_time(group_id) as ours:
            if not ours:
                return rated
            rated = _catch_up(db.session(), group_id, step) or rated
        # Looked at after letting go, in a transaction begun now (SQLite reads as of a
        # transaction's start): a job turned away meanwhile left its notes to this one.
        db.session.rollback()
        if not is_behind(group_id):
            return rated


@contextmanager
def _one_at_a_time(group_id: int) -> Iterator[bool]:
    """Whether this call holds the group's rating (``False``: another does).

    PostgreSQL: a session advisory lock on a connection of its own, held across
    the job's transactions. SQLite: an exclusive ``flock`` on a file beside the
    database (every process of one SQLite file shares a machine; an in-memory
    database has one connection, one job at a time). Either goes with its
    process: a worker killed while rating leaves no lock behind.
    """
    engine = db.engine
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            ours = bool(connection.scalar(select(func.pg_try_advisory_lock(_REBUILD_LOCKS, group_id))))
            connection.commit()  # the lock is the session's: no transaction stays open beside the job's
            try:
                yield ours
            finally:
                if ours:
                    connection.scalar(select(func.pg_advisory_unlock(_REBUILD_LOCKS, group_id)))
                    connection.commit()
        return
    database = engine.url.database
    if not database or database == ":memory:":
        yield True
        return
    with open(Path(f"{database}.standing-{group_id}.lock"), "a") as lock_file:
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            ours = True
        except BlockingIOError:
            ours = False
        try:
            yield ours
        finally:
            if ours:
                fcntl.flock(lock_file, fcntl.LOCK_UN)


def _catch_up(session: Session, group_id: int, step: int) -> bool:
    """One round of :func:`bring_up_to_date`, holding the group's rating: whether it rated anything."""
    session.rollback()  # read afresh: what earlier rounds and other processes committed
    if not _group_exists(session, group_id):
        return False
    kept = session.get(KeptStanding, group_id)
    built = kept is None or not kept.complete
    while kept is None or not kept.complete:
        build_step(group_id, step)
        kept = session.get(KeptStanding, group_id)
    notes = session.execute(
        select(StandingChange.id, StandingChange.season, StandingChange.played_on, StandingChange.game_id).where(
            StandingChange.group_id == group_id
        )
    ).all()
    if not notes:
        return built
    since: dict[int, Key] = {}
    for _, season, day, game_id in notes:
        since[season] = min(since.get(season, (day, game_id)), (day, game_id))
    state = _state_before(session, group_id, since)
    after: Key | None = None
    while True:
        until = _step_end(session, group_id, since, after, step)
        _rate(session, group_id, since, after=after, until=until, state=state)
        if until is None:  # the last step: the notes read go with it, those written meanwhile stay
            ids = [note[0] for note in notes]
            for first in range(0, len(ids), 500):
                session.execute(delete(StandingChange).where(StandingChange.id.in_(ids[first : first + 500])))
        session.commit()
        if until is None:
            return True
        after = until


def _games_of(group_id: int, since: dict[int, Key], after: Key | None, until: Key | None = None) -> list:
    """Conditions on :class:`SavedGame` for the group's games to rate: from the
    earliest key of *since* (or just after *after*) up to *until*, within the
    latest season of *since* when all time is not in it."""
    game_key = tuple_(SavedGame.played_on, SavedGame.id)
    last_season = max(since) if ALL_TIME not in since else None
    return [
        SavedGame.group_id == group_id,
        game_key > tuple_(*after) if after else game_key >= tuple_(*min(since.values())),
        *([game_key <= tuple_(*until)] if until else []),
        *([SavedGame.played_on < date(last_season + 1, 1, 1)] if last_season else []),
    ]


def _step_end(session: Session, group_id: int, since: dict[int, Key], after: Key | None, games: int) -> Key | None:
    """The key of the last game of the next step of *games* games (``None``: the step holds the rest)."""
    last = session.execute(  # the step's last game, and whether any comes after it
        select(SavedGame.played_on, SavedGame.id)
        .where(*_games_of(group_id, since, after))
        .order_by(SavedGame.played_on, SavedGame.id)
        .offset(games - 1)
        .limit(2)
    ).all()
    return (last[0][0], last[0][1]) if len(last) == 2 else None


def _state_before(session: Session, group_id: int, since: dict[int, Key]) -> dict[int, dict[int, list]]:
    """Per season of *since*, each roster player's running figures (rating,
    games, wins, points) just before that season's key, from the snapshots kept."""
    snapshot_key = tuple_(RatingSnapshot.played_on, RatingSnapshot.game_id)
    roster = session.scalars(select(Player.id).where(Player.group_id == group_id)).all()
    state: dict[int, dict[int, list]] = {}
    for season, key in since.items():
        state[season] = {}
        for player in roster:
            before = session.execute(
                select(*_RUNNING)
                .where(
                    RatingSnapshot.group_id == group_id,
                    RatingSnapshot.season == season,
                    RatingSnapshot.player_id == player,
                    snapshot_key < tuple_(*key),
                )
                .order_by(RatingSnapshot.played_on.desc(), RatingSnapshot.game_id.desc())
                .limit(1)
            ).first()
            if before is not None:
                mu, sigma, games, wins, points = before
                state[season][player] = [Rating(mu, sigma), games, wins, points]
    return state


def _rate(
    session: Session,
    group_id: int,
    since: dict[int, Key],
    *,
    after: Key | None = None,
    until: Key | None = None,
    state: dict[int, dict[int, list]] | None = None,
    count_pairs: bool = False,
) -> None:
    """Rewrite the group's snapshots of each season in *since* from its key on
    (that game included; only those after *after*) up to *until* (included;
    ``None``: the latest game), in one pass over the group's games, moving
    *state* on (:func:`_state_before`, read here when not given; a job's
    steps hand theirs on); with *count_pairs*, add those games to the
    head-to-head counts too (a build).

    The games are read and rated first, and only then are the old snapshots
    deleted and the new ones written: on SQLite, whose one writer a save waits
    for, the step holds it for the writing only (milliseconds), not the rating.
    """
    if not since:
        return
    if state is None:
        state = _state_before(session, group_id, since)
    rows = session.connection().execute(  # Core rows: hundreds of thousands when a change is years back
        select(
            PlayerResult.game_id, SavedGame.played_on, PlayerResult.player_id, PlayerResult.place, PlayerResult.total
        )
        .join(SavedGame, SavedGame.id == PlayerResult.game_id)
        .where(*_games_of(group_id, since, after, until), PlayerResult.player_id.is_not(None))
        .order_by(SavedGame.played_on, SavedGame.id, PlayerResult.seat)
        .execution_options(yield_per=5000)
    )
    batch: list[tuple] = []
    pairs: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0])
    for game_id, seats in itertools.groupby(rows, key=lambda row: row[0]):
        lines = list(seats)
        day, results = lines[0][1], [(cast(int, row[2]), row[3], row[4]) for row in lines]
        for season in (ALL_TIME, day.year):
            if season not in since or (day, game_id) < since[season]:
                continue
            if count_pairs:
                _count_pairs(pairs, season, [(p, place) for p, place, _ in results], 1)
            batch.extend(_rated(group_id, season, game_id, day, results, state.setdefault(season, {})))
    snapshot_key = tuple_(RatingSnapshot.played_on, RatingSnapshot.game_id)
    for season, key in since.items():
        session.execute(
            delete(RatingSnapshot).where(
                RatingSnapshot.group_id == group_id,
                RatingSnapshot.season == season,
                snapshot_key >= tuple_(*key),
                *([snapshot_key > tuple_(*after)] if after else []),
                *([snapshot_key <= tuple_(*until)] if until else []),
            )
        )
    for first in range(0, len(batch), 5000):
        _insert_snapshots(session, batch[first : first + 5000])
    if count_pairs:
        _move_counts(session, group_id, pairs)


#: The columns of a snapshot row as :func:`_rated` gives them.
_SNAPSHOT_COLUMNS = (
    "group_id",
    "season",
    "game_id",
    "player_id",
    "played_on",
    "mu",
    "sigma",
    "games",
    "wins",
    "points",
)


def _insert_snapshots(session: Session, rows: list[tuple]) -> None:
    """Insert snapshot *rows* (:data:`_SNAPSHOT_COLUMNS`) in this transaction,
    straight through the database driver: rewriting 100,000 games' worth is
    hundreds of thousands of rows, and SQLAlchemy's executemany spent more on
    each row than the rating did (PostgreSQL: COPY; SQLite: the sqlite3 module's
    executemany)."""
    if not rows:
        return
    driver = session.connection().connection.driver_connection
    assert driver is not None  # a live connection of this session's transaction
    columns = ", ".join(_SNAPSHOT_COLUMNS)
    if session.get_bind().dialect.name == "postgresql":
        with driver.cursor() as cursor, cursor.copy(f"COPY rating_snapshots ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
    else:  # SQLite keeps a date as its ISO text (SQLAlchemy's Date on SQLite)
        marks = ", ".join("?" * len(_SNAPSHOT_COLUMNS))
        driver.executemany(
            f"INSERT INTO rating_snapshots ({columns}) VALUES ({marks})",
            [(*row[:4], row[4].isoformat(), *row[5:]) for row in rows],
        )


def _rated(
    group_id: int,
    season: int,
    game_id: int,
    day: date,
    results: list[tuple[int, int, int]],
    state: dict[int, list],
) -> Iterator[tuple]:
    """The snapshot rows of one game (roster player, place, total per seat;
    :data:`_SNAPSHOT_COLUMNS`), moving *state* (per player: rating, games, wins, points) on."""
    before = [state.get(player) or [new_rating(), 0, 0, 0] for player, _, _ in results]
    rated = rate_game([rating for rating, *_ in before], [place for _, place, _ in results])
    winners = sum(1 for _, place, _ in results if place == 1)
    for (player, place, total), (_, games, wins, points), rating in zip(results, before, rated, strict=True):
        now = [rating, games + 1, wins + (place == 1 and winners == 1), points + total]
        state[player] = now
        yield (group_id, season, game_id, player, day, rating.mu, rating.sigma, now[1], now[2], now[3])


def build_step(group_id: int, games: int = STEP_GAMES) -> bool:
    """Rate the next *games* games of a group from before the standing (in
    every season and all time, and count them head to head) after those rated
    so far, and commit; the first call starts it. The group's row is held for
    the step (a fraction of a second), so that a change meanwhile is either
    counted by it or noted against what it built.

    :returns: whether the standing now holds every game of the group.
    """
    session = db.session()
    kept = _lock(session, group_id)
    if kept is None:
        session.execute(delete(RatingSnapshot).where(RatingSnapshot.group_id == group_id))
        session.execute(delete(HeadToHeadCount).where(HeadToHeadCount.group_id == group_id))
        kept = KeptStanding(group_id=group_id, built_at=datetime.now(UTC), complete=False)
        session.add(kept)
    if not kept.complete:
        after = _rated_through(kept) or _BEFORE
        start: Key = (after[0], after[1] + 1)  # the next key: ids are whole numbers
        until = _step_end(session, group_id, {ALL_TIME: start}, None, games)
        years = [y for y in seasons(group_id) if y >= start[0].year and (until is None or y <= until[0].year)]
        _rate(session, group_id, {season: start for season in (ALL_TIME, *years)}, until=until, count_pairs=True)
        kept.complete = until is None
        kept.rated_on, kept.rated_id = until if until is not None else (None, None)
    complete = kept.complete
    session.commit()
    return complete


# --- reading the standing -------------------------------------------------------------------


def seasons(group_id: int) -> list[int]:
    """The calendar years in which the group has saved games, newest first
    (one index look-up per year)."""
    years: list[int] = []
    query = select(SavedGame.played_on).where(SavedGame.group_id == group_id).order_by(SavedGame.played_on).limit(1)
    day = db.session.scalar(query)
    while day is not None:
        years.append(day.year)
        day = db.session.scalar(query.where(SavedGame.played_on >= date(day.year + 1, 1, 1)))
    return years[::-1]


@dataclass(frozen=True)
class PlayerStanding:
    """One roster player in a season's standing.

    :ivar mu: OpenSkill's mean; :ivar sigma: its standard deviation (skill points).
    :ivar wins: games in place 1 alone; :ivar points: sum of totals (Harmony Points).
    :ivar path: the rating (:func:`ordinal`) after each of their latest games
        (at most :data:`PATH_GAMES`), oldest first.
    """

    player_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    points: int
    path: list[float]

    @property
    def rating(self) -> float:
        """The rating shown: :func:`ordinal` (mu − 3·sigma)."""
        return ordinal(self.mu, self.sigma)

    @property
    def average(self) -> float:
        """Average total per game (Harmony Points)."""
        return self.points / self.games


@dataclass(frozen=True)
class Rivalry:
    """Two roster players who played together in the season: *player* is the
    one higher in the standing; *ahead* the games in which *player* placed
    better, *behind* those in which *other* did (the rest were shared places)."""

    player: str
    other: str
    games: int
    ahead: int
    behind: int


@dataclass(frozen=True)
class Standing:
    """A group's standing in a *season* (a year, or :data:`ALL_TIME`).

    :ivar seasons: the years with games, newest first (the season filter).
    :ivar players: highest rating first (then more games, then by name).
    :ivar rivalries: each pair that met, in the order of the standing.
    :ivar building: while a group from before the standing is being built:
        (games rated so far, games of the group); else ``None``.
    :ivar catching_up: a change is not yet rated (:func:`bring_up_to_date` is
        to run): the ratings shown are those from before it.
    """

    season: int
    seasons: list[int]
    players: list[PlayerStanding]
    rivalries: list[Rivalry]
    building: tuple[int, int] | None = None
    catching_up: bool = False


def _being_built(group: Group, kept: KeptStanding | None) -> Standing:
    """A standing still being built: (games rated so far, games of the group)."""
    mine = SavedGame.group_id == group.id
    games = db.session.scalar(select(func.count()).select_from(SavedGame).where(mine)) or 0
    rated = 0
    if kept is not None and kept.rated_on is not None and kept.rated_id is not None:
        key = tuple_(SavedGame.played_on, SavedGame.id) <= tuple_(kept.rated_on, kept.rated_id)
        rated = db.session.scalar(select(func.count()).select_from(SavedGame).where(mine, key)) or 0
    return Standing(ALL_TIME, [], [], [], (rated, games))


def is_behind(group_id: int) -> bool:
    """Whether the group's standing has changes to catch up with, or is from
    before the standing and not yet built (a group that does not exist is not)."""
    kept = db.session.scalar(select(KeptStanding.complete).where(KeptStanding.group_id == group_id))
    if kept is None:
        return _group_exists(db.session, group_id)
    return not kept or _has_notes(group_id)


def _group_exists(session: Session | scoped_session, group_id: int) -> bool:
    """Whether group *group_id* exists, its row left unread (the standing needs none of it, and
    so reads a database a migration of the group's columns has not reached yet as well)."""
    return bool(session.scalar(select(exists().where(Group.id == group_id))))


def _has_notes(group_id: int) -> bool:
    return bool(db.session.scalar(select(exists().where(StandingChange.group_id == group_id))))


def behind_groups() -> list[int]:
    """Every group whose standing is behind (:func:`is_behind`), by id: what a
    worker's sweep asks to catch up, so that a job the queue lost is run again."""
    noted = select(StandingChange.group_id)
    building = select(KeptStanding.group_id).where(KeptStanding.complete.is_(False))
    unkept = select(Group.id).where(~exists().where(KeptStanding.group_id == Group.id))
    return sorted(db.session.scalars(union(noted, building, unkept)).all())


def standing(group: Group, season: int = ALL_TIME) -> Standing:
    """*group*'s standing in *season* (a year, or :data:`ALL_TIME`), read
    from the kept snapshots: a few index look-ups per roster player and one
    for head to head, however many games. Nothing is rated here.

    A group from before the standing whose build (a job's) is not finished
    has no players in it, but says how far the build is (:attr:`Standing.building`);
    a standing with changes not yet rated says so (:attr:`Standing.catching_up`)
    and shows the ratings from before them.
    """
    kept = db.session.get(KeptStanding, group.id)
    if kept is None or not kept.complete:
        being_built = _being_built(group, kept)
        if being_built.building and being_built.building[1]:
            return being_built
    catching_up = _has_notes(group.id)
    roster = db.session.execute(select(Player.id, Player.name).where(Player.group_id == group.id)).all()
    players: list[PlayerStanding] = []
    for player_id, name in roster:
        latest = db.session.execute(
            select(*_RUNNING)
            .where(
                RatingSnapshot.group_id == group.id,
                RatingSnapshot.season == season,
                RatingSnapshot.player_id == player_id,
            )
            .order_by(RatingSnapshot.played_on.desc(), RatingSnapshot.game_id.desc())
            .limit(PATH_GAMES)
        ).all()
        if latest:
            mu, sigma, games, wins, points = latest[0]
            path = [ordinal(m, s) for m, s, *_ in reversed(latest)]
            players.append(PlayerStanding(player_id, name, mu, sigma, games, wins, points, path))
    players.sort(key=lambda p: (-p.rating, -p.games, p.name.casefold()))
    position = {p.player_id: i for i, p in enumerate(players)}
    names = {p.player_id: p.name for p in players}
    counts = {
        (row.player_id, row.other_id): (row.games, row.ahead)
        for row in db.session.scalars(
            select(HeadToHeadCount).where(HeadToHeadCount.group_id == group.id, HeadToHeadCount.season == season)
        )
    }
    met = sorted(
        (position[a], position[b], Rivalry(names[a], names[b], games, ahead, counts.get((b, a), (0, 0))[1]))
        for (a, b), (games, ahead) in counts.items()
        if a in position and b in position and position[a] < position[b] and games > 0
    )
    rivalries = [rivalry for _, _, rivalry in met]
    return Standing(season, seasons(group.id), players, rivalries, catching_up=catching_up)
