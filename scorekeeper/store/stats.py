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
- **current winning streak**: the player's most recent games in a row, by date
  played and then by the order they were saved (History's order), in which
  they were in place 1, alone or shared; 0 if the latest game was not a win.
- **best game**: the highest total (the most recent of equal totals).
- Games are ordered by (date played, id), History's key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import ColumnElement, case, func, select, tuple_
from sqlalchemy.orm import aliased

from ..engine import Row
from .db import db
from .games import EVERY_GAME, Scope
from .models import Player, PlayerResult, SavedGame

#: A chart shows each game up to this many; beyond, it shows averages of this many runs of games.
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
    """This player against one other: games both played, and who placed better how often."""

    name: str
    games: int
    wins: int
    losses: int


@dataclass(frozen=True)
class ChartPoint:
    """One point of the totals chart: a game (*games* 1, its *public_id*) or the average of a run of games.

    :ivar first: date played of the (first) game; :ivar last: of the last game of the run.
    :ivar total: Harmony Points: the game's total, or the run's average.
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


def player_stats(name: str, scope: Scope = EVERY_GAME) -> PlayerStats | None:
    """Stats of the player called *name* (the same name as
    :func:`scorekeeper.engine.name_key` reads it; in a group, the roster
    entry) over the games of *scope* (default: every game), or ``None`` if
    they played none there.

    One pass over the player's results gives the sums per run of games (the
    chart), per table size and per ruleset; head-to-head is one join; the
    streak, the name and the best game read a few index entries.
    """
    if scope.is_empty:
        return None
    mine = scope.player(name)
    order = (PlayerResult.played_on, PlayerResult.game_id)
    rows = [getattr(PlayerResult, row.value) for row in Row]
    numbered = (
        select(
            PlayerResult.players,
            PlayerResult.ruleset,
            PlayerResult.place,
            PlayerResult.shared_win,
            PlayerResult.total,
            PlayerResult.played_on,
            *rows,
            ((func.row_number().over(order_by=order) - 1) * CHART_POINTS // func.count().over()).label("run"),
        )
        .where(*mine)
        .subquery()
    )
    c = numbered.c
    lines = db.session.execute(
        select(
            c.run,
            c.players,
            c.ruleset,
            func.count(),
            func.sum(case((c.place == 1, 1), else_=0)),
            func.sum(case((c.shared_win, 1), else_=0)),
            func.sum(c.total),
            func.max(c.total),
            func.min(c.played_on),
            func.max(c.played_on),
            *[func.sum(getattr(c, row.value)) for row in Row],
        ).group_by(c.run, c.players, c.ruleset)
    ).all()
    if not lines:
        return None
    games = sum(line[3] for line in lines)
    best_total = max(line[7] for line in lines)
    sizes: dict[int, tuple[int, int]] = {}
    rulesets: dict[str, int] = {}
    runs: dict[int, tuple[date, date, int, int]] = {}  # run: first, last, games, sum of totals
    for line in lines:
        played, won_games = sizes.get(line[1], (0, 0))
        sizes[line[1]] = (played + line[3], won_games + line[4])
        rulesets[line[2]] = rulesets.get(line[2], 0) + line[3]
        first, last, count, points = runs.get(line[0], (line[8], line[9], 0, 0))
        runs[line[0]] = (min(first, line[8]), max(last, line[9]), count + line[3], points + line[6])
    latest = (PlayerResult.played_on.desc(), PlayerResult.game_id.desc())
    latest_name = db.session.scalar(select(PlayerResult.name_key).where(*mine).order_by(*latest).limit(1))
    best_game = db.session.scalar(
        select(SavedGame.public_id)
        .join(PlayerResult, PlayerResult.game_id == SavedGame.id)
        .where(*mine, PlayerResult.total == best_total)
        .order_by(*latest)
        .limit(1)
    )
    if games <= CHART_POINTS:
        chart = _each_game(mine)
    else:
        chart = [
            ChartPoint(first, last, points / count, count, None)
            for _, (first, last, count, points) in sorted(runs.items())
        ]
    return PlayerStats(
        name=_name_of(latest_name, scope) if latest_name else name,
        games=games,
        wins=sum(line[4] - line[5] for line in lines),
        shared_wins=sum(line[5] for line in lines),
        by_table_size=[TableSize(n, played, won_games) for n, (played, won_games) in sorted(sizes.items())],
        average_total=sum(line[6] for line in lines) / games,
        best_total=best_total,
        best_game=best_game or "",
        row_averages={row: sum(line[10 + i] for line in lines) / games for i, row in enumerate(Row)},
        favourite_ruleset=max(rulesets, key=lambda rs: (rulesets[rs], rs == "pocket")),
        head_to_head=_head_to_head(mine, scope),
        streak=_streak(mine),
        chart=chart,
    )


def _head_to_head(mine: list[ColumnElement[bool]], scope: Scope) -> list[HeadToHead]:
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
    met = [HeadToHead(_name_of(key, scope), games, wins, losses) for key, games, wins, losses in rows]
    return sorted(met, key=lambda h: (-h.games, h.name.casefold()))


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
