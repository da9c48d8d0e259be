"""A group's evening: the tables started from its page and the games they became, tonight.

*Tonight* is the last :data:`EVENING` (12 hours) up to now: a club night that starts at
seven and ends after midnight is one evening, in every time zone, with no clock of the
club's to know; the next evening's tables start after the last one's have left it. Its
tables are the group's tables (``tables.group_id``) started since; its games are the
group's games saved since (a table's game at its lock, and a game saved from a score
sheet into the group the same evening), each player's places in them, and the season's
rating of each roster player beside them, as the standing has rated it so far
(:mod:`.standing`: the rating of a game just saved follows once its job has run).

The group's screen link (its "tonight" page without membership, for a television) is a
secret kept hashed on the group (``groups.screen_hash``), made and revoked by a member.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import select

from .db import db
from .models import Group, Player, PlayerResult, RatingSnapshot, SavedGame, ScoreTable
from .standing import ordinal

#: How far back "tonight" reaches from now.
EVENING = timedelta(hours=12)


def evening_start(now: datetime) -> datetime:
    """When the evening of *now* (UTC) began: :data:`EVENING` before it."""
    return now - EVENING


def table_codes(group_id: int, since: datetime) -> list[str]:
    """The join codes of group *group_id*'s tables started at or after *since*, first started first."""
    return list(
        db.session.scalars(
            select(ScoreTable.code)
            .where(ScoreTable.group_id == group_id, ScoreTable.created_at >= since)
            .order_by(ScoreTable.created_at, ScoreTable.id)
        )
    )


@dataclass(frozen=True)
class EveningPlayer:
    """One player of the evening: *games* played tonight, *wins* (place 1 alone, as the
    standing counts them), *places* in each game in the order saved (R7, a shared place
    as itself), and *rating* their season's rating (:func:`~.standing.ordinal`) as rated
    so far (``None``: none yet, or not on the roster)."""

    name: str
    games: int
    wins: int
    places: tuple[int, ...]
    rating: float | None


@dataclass(frozen=True)
class Evening:
    """The evening's results so far: *games* saved into the group tonight, its *players*
    (most wins first, then the better average place, then more games, then by name), and
    the winners' names of each table locked tonight by join code."""

    games: int
    players: tuple[EveningPlayer, ...]
    winners: dict[str, tuple[str, ...]]
    season: int


def evening(group_id: int, since: datetime, season: int) -> Evening:
    """Group *group_id*'s evening since *since*, with the ratings of *season* (a year).
    Four queries, whatever the group's history."""
    games = db.session.execute(
        select(SavedGame.id)
        .where(SavedGame.group_id == group_id, SavedGame.created_at >= since)
        .order_by(SavedGame.created_at, SavedGame.id)
    ).all()
    ids = [game_id for (game_id,) in games]
    results = db.session.execute(
        select(
            PlayerResult.game_id, PlayerResult.name, PlayerResult.place, PlayerResult.shared_win, Player.id, Player.name
        )
        .outerjoin(Player, Player.id == PlayerResult.player_id)
        .where(PlayerResult.game_id.in_(ids))
        .order_by(PlayerResult.game_id, PlayerResult.seat)
    ).all()
    order = {game_id: i for i, game_id in enumerate(ids)}
    places: dict[tuple[int | None, str], list[tuple[int, int, bool]]] = defaultdict(list)
    won: dict[int, list[str]] = defaultdict(list)
    for game_id, played_as, place, shared, player_id, roster_name in results:
        places[(player_id, roster_name or played_as)].append((order[game_id], place, shared))
        if place == 1:
            won[game_id].append(roster_name or played_as)
    ratings = _ratings(group_id, season, [roster_id for roster_id, _ in places if roster_id is not None])
    players = []
    for (roster_id, name), seen in places.items():
        seen.sort()
        players.append(
            EveningPlayer(
                name=name,
                games=len(seen),
                wins=sum(1 for _, place, shared in seen if place == 1 and not shared),
                places=tuple(place for _, place, _ in seen),
                rating=ratings.get(roster_id) if roster_id is not None else None,
            )
        )
    players.sort(key=lambda p: (-p.wins, sum(p.places) / p.games, -p.games, p.name.casefold()))
    locked = db.session.execute(
        select(ScoreTable.code, ScoreTable.locked_game_id).where(
            ScoreTable.group_id == group_id, ScoreTable.created_at >= since, ScoreTable.locked_game_id.is_not(None)
        )
    ).all()
    winners = {code: tuple(won[game_id]) for code, game_id in locked if game_id in won}
    return Evening(len(games), tuple(players), winners, season)


def _ratings(group_id: int, season: int, player_ids: list[int]) -> dict[int, float]:
    """Each of *player_ids*' latest rating in *season*, as the standing's snapshots hold it."""
    if not player_ids:
        return {}
    rows = db.session.execute(
        select(RatingSnapshot.player_id, RatingSnapshot.mu, RatingSnapshot.sigma)
        .where(
            RatingSnapshot.group_id == group_id,
            RatingSnapshot.season == season,
            RatingSnapshot.player_id.in_(player_ids),
        )
        .order_by(RatingSnapshot.played_on, RatingSnapshot.game_id)
    ).all()
    return {player_id: ordinal(mu, sigma) for player_id, mu, sigma in rows}  # the latest of each wins


def season_of(today: date) -> int:
    """The season (a year) whose ratings stand beside the evening's results."""
    return today.year


# -- the screen link


def new_screen_link(group: Group) -> str:
    """Make *group*'s screen link anew (the one before, if any, no longer opens the page).

    :returns: its secret (only the hash is kept: the link is shown once)."""
    secret = secrets.token_urlsafe(24)
    group.screen_hash = hashlib.sha256(secret.encode()).hexdigest()
    db.session.commit()
    return secret


def revoke_screen_link(group: Group) -> None:
    """*group*'s screen link opens nothing any more."""
    group.screen_hash = ""
    db.session.commit()


def screen_opens(group: Group, secret: object) -> bool:
    """Whether *secret* is *group*'s current screen link's (compared in constant time)."""
    if not group.screen_hash or not isinstance(secret, str) or len(secret) > 100:
        return False
    return hmac.compare_digest(group.screen_hash, hashlib.sha256(secret.encode()).hexdigest())
