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
from .models import PlayerResult, SavedGame

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
    they played none there."""
    mine = scope.player(name)
    won = PlayerResult.place == 1
    sums = db.session.execute(
        select(
            PlayerResult.players,
            PlayerResult.ruleset,
            func.count(),
            func.sum(case((won, 1), else_=0)),
            func.sum(case((PlayerResult.shared_win, 1), else_=0)),
            func.sum(PlayerResult.total),
            func.max(PlayerResult.total),
            *[func.sum(getattr(PlayerResult, row.value)) for row in Row],
        )
        .where(*mine)
        .group_by(PlayerResult.players, PlayerResult.ruleset)
    ).all()
    if not sums:
        return None
    games = sum(line[2] for line in sums)
    best_total = max(line[6] for line in sums)
    sizes: dict[int, tuple[int, int]] = {}
    rulesets: dict[str, int] = {}
    for line in sums:
        played, won_games = sizes.get(line[0], (0, 0))
        sizes[line[0]] = (played + line[2], won_games + line[3])
        rulesets[line[1]] = rulesets.get(line[1], 0) + line[2]
    order = (PlayerResult.played_on.desc(), PlayerResult.game_id.desc())
    latest_name = db.session.scalar(select(PlayerResult.name).where(*mine).order_by(*order).limit(1))
    best_game = db.session.scalar(
        select(SavedGame.public_id)
        .join(PlayerResult, PlayerResult.game_id == SavedGame.id)
        .where(*mine, PlayerResult.total == best_total)
        .order_by(*order)
        .limit(1)
    )
    return PlayerStats(
        name=latest_name or name,
        games=games,
        wins=sum(line[3] - line[4] for line in sums),
        shared_wins=sum(line[4] for line in sums),
        by_table_size=[TableSize(n, played, won_games) for n, (played, won_games) in sorted(sizes.items())],
        average_total=sum(line[5] for line in sums) / games,
        best_total=best_total,
        best_game=best_game or "",
        row_averages={row: sum(line[7 + i] for line in sums) / games for i, row in enumerate(Row)},
        favourite_ruleset=max(rulesets, key=lambda rs: (rulesets[rs], rs == "pocket")),
        head_to_head=_head_to_head(mine),
        streak=_streak(mine),
        chart=_chart(mine, games),
    )


def _head_to_head(mine: list[ColumnElement[bool]]) -> list[HeadToHead]:
    """Against each player met: games together, wins (placed better), losses (placed worse)."""
    other = aliased(PlayerResult, name="other")
    rows = db.session.execute(
        select(
            other.name_key,
            func.max(other.name),
            func.count(),
            func.sum(case((PlayerResult.place < other.place, 1), else_=0)),
            func.sum(case((PlayerResult.place > other.place, 1), else_=0)),
        )
        .join(other, (other.game_id == PlayerResult.game_id) & (other.name_key != PlayerResult.name_key))
        .where(*mine)
        .group_by(other.name_key)
    ).all()
    met = [HeadToHead(name, games, wins, losses) for _, name, games, wins, losses in rows]
    return sorted(met, key=lambda h: (-h.games, h.name.casefold()))


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


def _chart(mine: list[ColumnElement[bool]], games: int) -> list[ChartPoint]:
    """Each game's total, oldest first; beyond :data:`CHART_POINTS` games, the
    averages of that many runs of consecutive games (numbered in SQL by a window)."""
    order = (PlayerResult.played_on, PlayerResult.game_id)
    if games <= CHART_POINTS:
        rows = db.session.execute(
            select(PlayerResult.played_on, PlayerResult.total, SavedGame.public_id)
            .join(SavedGame, SavedGame.id == PlayerResult.game_id)
            .where(*mine)
            .order_by(*order)
        ).all()
        return [ChartPoint(played, played, float(total), 1, public_id) for played, total, public_id in rows]
    numbered = (
        select(
            PlayerResult.played_on,
            PlayerResult.total,
            ((func.row_number().over(order_by=order) - 1) * CHART_POINTS // games).label("run"),
        )
        .where(*mine)
        .subquery()
    )
    runs = db.session.execute(
        select(
            func.min(numbered.c.played_on),
            func.max(numbered.c.played_on),
            func.avg(numbered.c.total),
            func.count(),
        )
        .group_by(numbered.c.run)
        .order_by(numbered.c.run)
    ).all()
    return [ChartPoint(first, last, float(average), count, None) for first, last, average, count in runs]
