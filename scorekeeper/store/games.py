"""Saving, correcting, deleting and finding games; history and per-player stats.

The web layer and the CLI call these; they never compute a score themselves:
every number comes from the engine (``score_game``) run on the stored entry.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
import unicodedata
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..engine import RULES_VERSION, Game, GameError, Row, ScoreSheet, score_game
from .db import db
from .models import GameRevision, PlayerResult, SavedGame

MAX_LOCATION = 100
MAX_NOTES = 2000


class GameChanged(Exception):
    """The game was corrected (or deleted) by someone else since this edit began."""


@dataclass(frozen=True)
class Details:
    """What is stored beside the game itself: when and where, and free notes."""

    played_on: date
    location: str = ""
    notes: str = ""

    @classmethod
    def checked(cls, played_on: date, location: str | None, notes: str | None) -> Details:
        """Details from user input: trimmed, within the length limits, and
        free of control and text-direction characters (notes may have line breaks).

        :raises GameError: ``"details-too-long"`` or ``"details-hidden-characters"``
            with the ``field`` (``"location"`` or ``"notes"``); a ``ValueError``.
        """
        location, notes = (location or "").strip(), (notes or "").strip()
        for name, text, limit, allowed in (
            ("location", location, MAX_LOCATION, ""),
            ("notes", notes, MAX_NOTES, "\n\r\t"),
        ):
            if len(text) > limit:
                raise GameError("details-too-long", field=name, most=limit)
            if has_hidden_controls(text, allowed):
                raise GameError("details-hidden-characters", field=name)
        return cls(played_on, location, notes)


#: Unicode's controls (category Cc: U+0000–U+001F, U+007F–U+009F), surrogates
#: (Cs: U+D800–U+DFFF) and the explicit text-direction controls, as one
#: character class: a regular expression scans 2,000 characters of notes a
#: hundred times quicker than a category look-up per character.
_HIDDEN = "\x00-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069"
_HIDDEN_CONTROL = re.compile(f"[{_HIDDEN}]")


@functools.cache
def _hidden_except(allowed: str) -> re.Pattern[str]:
    """The hidden characters but those in *allowed* (a look-ahead leaves them out)."""
    return re.compile(f"(?![{re.escape(allowed)}])[{_HIDDEN}]") if allowed else _HIDDEN_CONTROL


def has_hidden_controls(text: str, allowed: str = "") -> bool:
    """Whether *text* holds a control, surrogate or text-direction character
    other than those in *allowed* (notes may keep line breaks and tabs)."""
    return _hidden_except(allowed).search(text) is not None


def visible_text(text: str) -> str:
    """*text* without control, surrogate or text-direction characters (for search boxes)."""
    return _HIDDEN_CONTROL.sub("", text)


def name_key(name: str) -> str:
    """How a player is recognised across games: Unicode-normalised (NFC), trimmed, case-folded."""
    return unicodedata.normalize("NFC", name).strip().casefold()


def _now() -> datetime:
    return datetime.now(UTC)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def save_game(game: Game, details: Details, *, commit: bool = True, token: str | None = None) -> tuple[SavedGame, str]:
    """Store a valid *game* as revision 1.

    :param commit: commit at once; ``False`` lets the caller save several
        games in one transaction.
    :param token: the secret of the edit link, if the caller derives it
        (a locked table's, from the host's secret); by default a new random one.
    :returns: the saved game and the secret of its private edit link (only
        its hash is stored, so this is the one chance to show it).
    """
    token = token or secrets.token_urlsafe(24)
    now = _now()
    saved = SavedGame(
        public_id=_public_id(),
        edit_token_hash=_hash(token),
        created_at=now,
        updated_at=now,
    )
    _apply(saved, game, details, now)
    db.session.add(saved)
    if commit:
        db.session.commit()
    return saved, token


def _public_id() -> str:
    """An unguessable id (96 random bits) that starts with a letter or digit, so
    that no spreadsheet reads it as a formula and no shell as an option."""
    while not (candidate := secrets.token_urlsafe(12))[0].isalnum():
        pass
    return candidate


def correct_game(saved: SavedGame, game: Game, details: Details, based_on: int) -> SavedGame:
    """Replace the entry of *saved* by a correction, keeping every earlier revision.

    :param based_on: the revision the corrected form was opened at.
    :raises GameChanged: if *saved* is no longer at that revision (someone
        else corrected it meanwhile); nothing is written then.
    """
    if saved.revision != based_on:
        raise GameChanged()
    try:
        _apply(saved, game, details, _now())  # may flush: the version check can fire here
        db.session.commit()
    except (StaleDataError, IntegrityError):  # a concurrent correction won the race
        db.session.rollback()
        raise GameChanged() from None
    return saved


def delete_game(saved: SavedGame) -> None:
    """Remove the game, its revisions and its results."""
    db.session.delete(saved)
    db.session.commit()


def _apply(saved: SavedGame, game: Game, details: Details, when: datetime) -> None:
    """Make *game* the current entry: a new revision, a rebuilt summary."""
    sheet = score_game(game)
    entry = game.to_dict()
    saved.updated_at = when
    saved.played_on = details.played_on
    saved.location = details.location.strip()[:MAX_LOCATION]
    saved.notes = details.notes.strip()[:MAX_NOTES]
    saved.ruleset = game.ruleset.id
    saved.rules_version = RULES_VERSION
    saved.entry = entry
    saved.winners = ", ".join(r.player.name for r in sheet.winners)
    number = len(saved.revisions) + 1
    saved.revisions.append(
        GameRevision(
            number=number,
            saved_at=when,
            played_on=saved.played_on,
            location=saved.location,
            notes=saved.notes,
            rules_version=RULES_VERSION,
            entry=entry,
        )
    )
    saved.results.clear()
    winners = len(sheet.winners)
    for result in sheet.results:
        rows = {row.value: value for row, value in result.rows.items()}
        saved.results.append(
            PlayerResult(
                seat=result.index,
                name=result.player.name,
                name_key=name_key(result.player.name),
                played_on=saved.played_on,
                ruleset=game.ruleset.id,
                place=result.place,
                shared_win=result.place == 1 and winners > 1,
                total=result.total,
                **rows,
            )
        )


def find_game(public_id: str) -> SavedGame | None:
    """The saved game with this read-only id, or ``None``."""
    if not public_id or len(public_id) > 32:
        return None
    return db.session.scalar(select(SavedGame).where(SavedGame.public_id == public_id))


def may_edit(saved: SavedGame, token: str) -> bool:
    """Whether *token* is the secret of *saved*'s edit link (constant-time compare)."""
    return hmac.compare_digest(saved.edit_token_hash, _hash(token or ""))


def game_of(entry: dict) -> Game:
    """The engine's game for a stored entry (validated again: never trusted)."""
    return Game.from_dict(entry)


def sheet_of(entry: dict) -> ScoreSheet:
    """The score sheet recomputed from a stored entry."""
    return score_game(game_of(entry))


@dataclass(frozen=True)
class Page:
    """One page of the history, newest first."""

    games: list[SavedGame]
    number: int
    pages: int
    total: int


def history(page: int = 1, player: str = "", per_page: int = 20) -> Page:
    """Saved games, newest played first, optionally only those with *player*."""
    query = select(SavedGame)
    if player.strip():
        query = query.where(
            SavedGame.id.in_(select(PlayerResult.game_id).where(PlayerResult.name_key == name_key(player)))
        )
    total = db.session.scalar(select(func.count()).select_from(query.subquery())) or 0
    pages = max(1, -(-total // per_page))
    page = min(max(1, page), pages)
    games = db.session.scalars(
        query.order_by(SavedGame.played_on.desc(), SavedGame.created_at.desc(), SavedGame.id.desc())
        .offset((page - 1) * per_page)
        .limit(per_page)
    ).all()
    return Page(list(games), page, pages, total)


@dataclass(frozen=True)
class PlayerStats:
    """What one player's saved games add up to (all Harmony Points).

    :ivar wins: games in place 1 alone; :ivar shared_wins: in place 1 with others (R7.4).
    :ivar row_averages: average per sheet row, in :class:`Row` order.
    :ivar timeline: ``(date played, total, public id)`` oldest first, for the chart.
    """

    name: str
    games: int
    wins: int
    shared_wins: int
    average_total: float
    best_total: int
    row_averages: dict[Row, float]
    favourite_ruleset: str
    timeline: list[tuple[date, int, str]]


def player_stats(name: str) -> PlayerStats | None:
    """Stats of the player called *name* (trimmed, any case), or ``None`` if unknown."""
    rows = db.session.execute(
        select(PlayerResult, SavedGame.public_id)
        .join(SavedGame, SavedGame.id == PlayerResult.game_id)
        .where(PlayerResult.name_key == name_key(name))
        .order_by(PlayerResult.played_on, SavedGame.created_at)
    ).all()
    if not rows:
        return None
    results = [result for result, _ in rows]
    count = len(results)
    rulesets = Counter(r.ruleset for r in results)
    return PlayerStats(
        name=results[-1].name,
        games=count,
        wins=sum(1 for r in results if r.won and not r.shared_win),
        shared_wins=sum(1 for r in results if r.shared_win),
        average_total=sum(r.total for r in results) / count,
        best_total=max(r.total for r in results),
        row_averages={row: sum(getattr(r, row.value) for r in results) / count for row in Row},
        favourite_ruleset=max(rulesets, key=lambda rs: (rulesets[rs], rs == "pocket")),
        timeline=[(r.played_on, r.total, public_id) for r, public_id in rows],
    )


def all_games() -> list[SavedGame]:
    """Every saved game, oldest played first (for export)."""
    return list(db.session.scalars(select(SavedGame).order_by(SavedGame.played_on, SavedGame.id)))
