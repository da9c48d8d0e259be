"""One player's stats over the saved games of a scope, computed by the database.

Every figure is an aggregate over ``player_results`` (a few queries, each
reading the player's rows through ``ix_player_results_name_key_played_on``);
no query loads every game into Python, so a page costs about the same at
100,000 games as at 1,000 (see bench/history.py).

What the words mean (README, "Player stats"):

- **win**: place 1 alone; **shared win**: place 1 together with others (R7.4).
- **win rate with n players**: games in place 1 (alone or shared) out of the
  games played with n players at the table.
- **wins against B** (head-to-head): games both played in which this player's
  place is better (a smaller number) than B's (R7); a shared place is a win
  for neither. B's wins against this player are counted the same way, so the
  games where neither beat the other are the rest.
- **totals over time**: each game up to 60 games; beyond, the average of the
  games of each of 60 equal periods from the first game to the last.
- **current winning streak**: the player's most recent games in a row, by date
  played and then by the order they were saved (History's order), in which
  they were in place 1, alone or shared; 0 if the latest game was not a win.
- **best game**: the highest total (the most recent of equal totals).
- Games are ordered by (date played, id), History's key.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import ColumnElement, Integer, case, cast, func, select, tuple_
from sqlalchemy.orm import aliased

from ..engine import Row, name_key
from .db import db
from .games import EVERY_GAME, Scope
from .models import GameRevision, Player, PlayerResult, SavedGame

#: A chart shows each game up to this many; beyond, the average of each of this many periods of time.
CHART_POINTS = 60


@dataclass(frozen=True)
class TableSize:
    """Games with *players* at the table and how many of them were won (alone or shared)."""

    players: int
    games: int
    won: int

    @property
    def rate(self) -> float:
        """Games won out of games played, 0 to 1."""
        return self.won / self.games


@dataclass(frozen=True)
class HeadToHead:
    """This player against one other: games both played, and who placed better how often.

    :ivar key: the other's name key; :ivar name: how they are shown."""

    key: str
    name: str
    games: int
    wins: int
    losses: int


@dataclass(frozen=True)
class ChartPoint:
    """One point of the totals chart: a game (*games* 1, its *public_id*) or
    the average of the games of a period (1/60 of the time from the first game to the last).

    :ivar first: date played of the (first) game; :ivar last: of the period's last game.
    :ivar total: Harmony Points: the game's total, or the period's average.
    """

    first: date
    last: date
    total: float
    games: int
    public_id: str | None


@dataclass(frozen=True)
class PlayerStats:
    """What one player's saved games add up to (all Harmony Points).

    :ivar wins: games in place 1 alone; :ivar shared_wins: in place 1 with others (R7.4).
    :ivar by_table_size: win rates by number of players, fewest first.
    :ivar row_averages: average per sheet row, in :class:`Row` order.
    :ivar best_game: public id of the game with :attr:`best_total` (the latest of equals).
    :ivar head_to_head: against every player met, most games together first.
    :ivar streak: the current winning streak (see the module's definitions).
    :ivar chart: totals over time, oldest first (at most :data:`CHART_POINTS`).
    """

    name: str
    games: int
    wins: int
    shared_wins: int
    by_table_size: list[TableSize]
    average_total: float
    best_total: int
    best_game: str
    row_averages: dict[Row, float]
    favourite_ruleset: str
    head_to_head: list[HeadToHead]
    streak: int
    chart: list[ChartPoint]


#: Stats computed lately, by (scope, player, fingerprint): see :func:`player_stats`.
_RECENT: OrderedDict[tuple, PlayerStats] = OrderedDict()
_RECENT_SIZE = 64
_RECENT_LOCK = threading.Lock()


def player_stats(name: str, scope: Scope = EVERY_GAME) -> PlayerStats | None:
    """Stats of the player called *name* (the same name as
    :func:`scorekeeper.engine.name_key` reads it; in a group, the roster
    entry) over the games of *scope* (default: every game), or ``None`` if
    they played none there.

    One pass over the player's results gives the sums per period (the chart),
    per table size and per ruleset; head-to-head is one join; the streak, the
    name and the best game read a few index entries. At 100,000 games that
    pass and the join take about a second on SQLite, so the figures are kept
    (per process, the 64 latest) under a fingerprint that any change to them
    changes: the player's number of results and latest game, the id and time
    of the newest revision of any game (saves and corrections; the time
    because SQLite may give a deleted row's id again), the number of roster
    entries in scope (merges). Names are looked up afresh every time (renames).
    """
    if scope.is_empty:
        return None
    mine = scope.player(name)
    counted = db.session.execute(select(func.count(), func.max(PlayerResult.game_id)).where(*mine)).one()
    if not counted[0]:
        return None
    roster = (
        db.session.scalar(select(func.count(Player.id)).where(Player.group_id.in_(scope.group_ids)))
        if scope.group_ids
        else 0
    )
    newest = db.session.execute(
        select(GameRevision.id, GameRevision.saved_at).order_by(GameRevision.id.desc()).limit(1)
    ).one()
    database = db.engine.url.render_as_string(hide_password=True)
    fingerprint = (database, scope, name_key(name), *counted, *newest, roster)
    with _RECENT_LOCK:
        known = _RECENT.get(fingerprint)
        if known is not None:
            _RECENT.move_to_end(fingerprint)
    if known is None:
        known = _computed(mine, scope, counted[0])
        with _RECENT_LOCK:
            _RECENT[fingerprint] = known
            while len(_RECENT) > _RECENT_SIZE:
                _RECENT.popitem(last=False)
    latest = (PlayerResult.played_on.desc(), PlayerResult.game_id.desc())
    key = db.session.scalar(select(PlayerResult.name_key).where(*mine).order_by(*latest).limit(1))
    met = [replace(other, name=_name_of(other.key, scope)) for other in known.head_to_head]
    return replace(
        known,
        name=_name_of(key, scope) if key else name,
        head_to_head=sorted(met, key=lambda h: (-h.games, h.name.casefold())),
    )


def _computed(mine: list[ColumnElement[bool]], scope: Scope, games: int) -> PlayerStats:
    """The stats of the player whose results *mine* selects (*games* of them), names aside."""
    order = (PlayerResult.played_on, PlayerResult.game_id)
    first_day, last_day = (
        db.session.scalar(select(PlayerResult.played_on).where(*mine).order_by(*order).limit(1)),
        db.session.scalar(
            select(PlayerResult.played_on)
            .where(*mine)
            .order_by(PlayerResult.played_on.desc(), PlayerResult.game_id.desc())
            .limit(1)
        ),
    )
    assert first_day is not None and last_day is not None  # the player has results
    span = (last_day - first_day).days + 1
    if db.engine.dialect.name == "sqlite":  # days as a real; the cast cuts off the fraction
        day = func.julianday(PlayerResult.played_on) - func.julianday(first_day.isoformat())
        period = cast(day * CHART_POINTS / span, Integer)
    else:  # PostgreSQL: date - date is a number of days
        period = cast(func.floor((PlayerResult.played_on - first_day) * CHART_POINTS / span), Integer)
    lines = db.session.execute(
        select(
            period,
            PlayerResult.players,
            PlayerResult.ruleset,
            func.count(),
            func.sum(case((PlayerResult.place == 1, 1), else_=0)),
            func.sum(case((PlayerResult.shared_win, 1), else_=0)),
            func.sum(PlayerResult.total),
            func.max(PlayerResult.total),
            func.min(PlayerResult.played_on),
            func.max(PlayerResult.played_on),
            *[func.sum(getattr(PlayerResult, row.value)) for row in Row],
        )
        .where(*mine)
        .group_by(period, PlayerResult.players, PlayerResult.ruleset)
    ).all()
    best_total = max(line[7] for line in lines)
    sizes: dict[int, tuple[int, int]] = {}
    rulesets: dict[str, int] = {}
    periods: dict[int, tuple[date, date, int, int]] = {}  # period: first, last, games, sum of totals
    for line in lines:
        played, won_games = sizes.get(line[1], (0, 0))
        sizes[line[1]] = (played + line[3], won_games + line[4])
        rulesets[line[2]] = rulesets.get(line[2], 0) + line[3]
        first, last, count, points = periods.get(line[0], (line[8], line[9], 0, 0))
        periods[line[0]] = (min(first, line[8]), max(last, line[9]), count + line[3], points + line[6])
    best_game = db.session.scalar(
        select(SavedGame.public_id)
        .join(PlayerResult, PlayerResult.game_id == SavedGame.id)
        .where(*mine, PlayerResult.total == best_total)
        .order_by(PlayerResult.played_on.desc(), PlayerResult.game_id.desc())
        .limit(1)
    )
    if games <= CHART_POINTS:
        chart = _each_game(mine)
    else:
        chart = [
            ChartPoint(first, last, points / count, count, None)
            for _, (first, last, count, points) in sorted(periods.items())
        ]
    return PlayerStats(
        name="",
        games=games,
        wins=sum(line[4] - line[5] for line in lines),
        shared_wins=sum(line[5] for line in lines),
        by_table_size=[TableSize(n, played, won_games) for n, (played, won_games) in sorted(sizes.items())],
        average_total=sum(line[6] for line in lines) / games,
        best_total=best_total,
        best_game=best_game or "",
        row_averages={row: sum(line[10 + i] for line in lines) / games for i, row in enumerate(Row)},
        favourite_ruleset=max(rulesets, key=lambda rs: (rulesets[rs], rs == "pocket")),
        head_to_head=_head_to_head(mine),
        streak=_streak(mine),
        chart=chart,
    )


def _head_to_head(mine: list[ColumnElement[bool]]) -> list[HeadToHead]:
    """Against each player met: games together, wins (placed better), losses (placed worse)."""
    other = aliased(PlayerResult, name="other")
    rows = db.session.execute(
        select(
            other.name_key,
            func.count(),
            func.sum(case((PlayerResult.place < other.place, 1), else_=0)),
            func.sum(case((PlayerResult.place > other.place, 1), else_=0)),
        )
        .join(other, (other.game_id == PlayerResult.game_id) & (other.name_key != PlayerResult.name_key))
        .where(*mine)
        .group_by(other.name_key)
    ).all()
    return [HeadToHead(key, key, games, wins, losses) for key, games, wins, losses in rows]


def _name_of(key: str, scope: Scope) -> str:
    """How the player *key* is shown: in a group, their roster name (renames
    included); else the name last typed for them (one index entry each)."""
    if scope.group_ids:
        roster = select(Player.name).where(Player.group_id.in_(scope.group_ids), Player.name_key == key).limit(1)
        if (name := db.session.scalar(roster)) is not None:
            return name
    latest = (PlayerResult.played_on.desc(), PlayerResult.game_id.desc())
    query = select(PlayerResult.name).where(PlayerResult.name_key == key, *scope.results()).order_by(*latest).limit(1)
    return db.session.scalar(query) or key


def _streak(mine: list[ColumnElement[bool]]) -> int:
    """Games in place 1 since the latest game not in place 1 (all of them if none)."""
    key = tuple_(PlayerResult.played_on, PlayerResult.game_id)
    last_loss = db.session.execute(
        select(PlayerResult.played_on, PlayerResult.game_id)
        .where(*mine, PlayerResult.place != 1)
        .order_by(PlayerResult.played_on.desc(), PlayerResult.game_id.desc())
        .limit(1)
    ).first()
    since = [key > tuple_(*last_loss)] if last_loss else []
    return db.session.scalar(select(func.count()).select_from(PlayerResult).where(*mine, *since)) or 0


def _each_game(mine: list[ColumnElement[bool]]) -> list[ChartPoint]:
    """Each game's total, oldest first (for up to :data:`CHART_POINTS` games)."""
    rows = db.session.execute(
        select(PlayerResult.played_on, PlayerResult.total, SavedGame.public_id)
        .join(SavedGame, SavedGame.id == PlayerResult.game_id)
        .where(*mine)
        .order_by(PlayerResult.played_on, PlayerResult.game_id)
    ).all()
    return [ChartPoint(played, played, float(total), 1, public_id) for played, total, public_id in rows]
