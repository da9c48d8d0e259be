"""Saving, correcting, deleting and finding games; history and exports (stats: store.stats).

The web layer and the CLI call these; they never compute a score themselves:
every number comes from the engine (``score_game``) run on the stored entry.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import ColumnElement, bindparam, func, literal, select, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import defer, selectinload
from sqlalchemy.orm.exc import StaleDataError

from ..engine import (
    MAX_NAME_LENGTH,
    RULES_VERSION,
    Game,
    GameError,
    ScoreSheet,
    display_name,
    name_key,
    score_game,
)
from .db import db, lock_group
from .models import GameRevision, Group, Player, PlayerResult, SavedGame
from .standing import note_change

MAX_LOCATION = 100
MAX_NOTES = 2000
#: The dates a game may be typed as played on, first and last: those a sheet link holds
#: (two bytes of days since 2000-01-01, ``web.links``). The form's date input, its
#: check, and the shared tables keep to them; games imported from files keep theirs.
EARLIEST_PLAYED_ON = date(2000, 1, 1)
LATEST_PLAYED_ON = date(2179, 6, 6)


def check_played_on(played_on: date) -> date:
    """*played_on* if it is from :data:`EARLIEST_PLAYED_ON` to :data:`LATEST_PLAYED_ON`.

    :raises GameError: ``"date-out-of-range"`` with the ``value``, ``earliest`` and
        ``latest`` dates (``YYYY-MM-DD``).
    """
    if not EARLIEST_PLAYED_ON <= played_on <= LATEST_PLAYED_ON:
        raise GameError(
            "date-out-of-range",
            value=played_on.isoformat(),
            earliest=EARLIEST_PLAYED_ON.isoformat(),
            latest=LATEST_PLAYED_ON.isoformat(),
        )
    return played_on


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


def _now() -> datetime:
    return datetime.now(UTC)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def sheet_key(game: Game, played_on: date | None) -> str:
    """The key of one score sheet: 64 hex digits of the SHA-256 of the game (its
    game file object, keys sorted) and the date it was played (``None``: no date).

    Two links of the same game (an old-format link and a new one, or the same
    link typed again) have the same key; a game saved from a sheet stores it,
    unique, so that sheet is saved once whoever presses "Save" and however often.
    """
    canonical = json.dumps(
        {"game": game.to_dict(), "played_on": played_on.isoformat() if played_on else None},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def save_game(
    game: Game,
    details: Details,
    *,
    group: Group | None = None,
    commit: bool = True,
    save_key: str | None = None,
    secret: str | None = None,
) -> tuple[SavedGame, str]:
    """Store a valid *game* as revision 1.

    :param group: the group it belongs to (its players join the group's
        roster); ``None`` keeps it outside every group (seen by its links only,
        and in an open history).
    :param commit: commit at once; ``False`` lets the caller save several
        games in one transaction.
    :param save_key: the :func:`sheet_key` it was saved from (unique), if any.
    :param secret: the secret of its private edit link (32 URL-safe characters);
        random when not given.
    :returns: the saved game and the secret of its private edit link (only
        its hash is stored, so this is the one chance to show it).
    :raises IntegrityError: on commit, if a game with *save_key* is stored already.
    """
    if group is not None:
        lock_group(group.id)  # first: its roster is read and added to below
    token = secret or secrets.token_urlsafe(24)
    now = _now()
    saved = SavedGame(
        public_id=_public_id(),
        edit_token_hash=_hash(token),
        save_key=save_key,
        created_at=now,
        updated_at=now,
        group=group,
    )
    _apply(saved, game, details, now)
    db.session.add(saved)
    note_change(saved)  # the group's standing follows before the commit (store.standing)
    if commit:
        db.session.commit()
    return saved, token


def save_once(
    game: Game, details: Details, save_key: str, secret: str, *, group: Group | None = None
) -> tuple[SavedGame, bool]:
    """Store *game* saved from the sheet whose :func:`sheet_key` is *save_key*
    into *group*, unless that sheet was saved into *group* already: then nothing
    is written.

    The database decides (a key unique per group, and an edit secret unique: one
    save form sent twice derives the same), so two saves of one sheet into one group,
    or of one form into "A new group" each, at the same moment, on SQLite or
    PostgreSQL, store one game: the one that loses the race gets the other's game
    back (its new group made for nothing is rolled back with it). Another group
    keeps a game of its own (issue 33).

    :param secret: the secret of the private edit link of a new game.
    :param group: the group a new game belongs to (as :func:`save_game`).
    :returns: the saved game and whether it was stored just now (``False``:
        the game saved from this sheet into *group* before, with its own secret).
    """
    group_id = group.id if group is not None else None  # read before a rollback forgets a new group's
    try:
        saved, _ = save_game(game, details, group=group, save_key=save_key, secret=secret)
        return saved, True
    except IntegrityError:
        db.session.rollback()
        games = saved_from(save_key)
        existing = next((saved for saved in games if may_edit(saved, secret)), None) or next(
            (saved for saved in games if group_id is not None and saved.group_id == group_id), None
        )
        if existing is None:  # another constraint failed: not a second save of this sheet
            raise
        return existing, False


def saved_from(save_key: str) -> list[SavedGame]:
    """The games saved from the sheet with this :func:`sheet_key`, one per group at most,
    the first saved first."""
    return list(db.session.scalars(select(SavedGame).where(SavedGame.save_key == save_key).order_by(SavedGame.id)))


def saved_public_id(save_key: str, group_ids: Sequence[int] | None) -> str | None:
    """The public id of the game saved from the sheet with this :func:`sheet_key` into one
    of the groups *group_ids* (``None``: any group, an open history), or ``None``: what
    every view of a sheet link asks, for the groups the phone belongs to (a game of a
    group it is not in is never linked to it). One indexed column on a pooled connection
    of its own, the statement built once: a fifth of an ORM query's time (nothing else of
    the request is in the session).

    :raises sqlalchemy.exc.SQLAlchemyError: when the database cannot answer."""
    if group_ids is not None and not group_ids:
        return None
    with db.engine.connect() as connection:
        if group_ids is None:
            return connection.execute(_PUBLIC_ID_BY_KEY, {"key": save_key}).scalar()
        return connection.execute(_PUBLIC_ID_BY_KEY_IN, {"key": save_key, "groups": list(group_ids)}).scalar()


_PUBLIC_ID_BY_KEY = select(SavedGame.public_id).where(SavedGame.save_key == bindparam("key")).limit(1)
_PUBLIC_ID_BY_KEY_IN = (
    select(SavedGame.public_id)
    .where(SavedGame.save_key == bindparam("key"), SavedGame.group_id.in_(bindparam("groups", expanding=True)))
    .limit(1)
)


def copy_into(saved: SavedGame, group: Group) -> tuple[SavedGame, str | None]:
    """*saved* (its current entry, date, location and notes) as a game of *group* too, its
    players on *group*'s roster: a game locked at a shared table added to a seated phone's
    own group (issue 33). Keyed by the game's :func:`sheet_key`, so each group holds it once
    (asked twice, or the same sheet saved there before: that game).

    :returns: the game in *group*, and the secret of its private edit link if it was made
        now (``None``: *group* held it already; *saved* itself if it is *group*'s).
    """
    if saved.group_id == group.id:
        return saved, None
    game = game_of(saved.entry)
    key = sheet_key(game, saved.played_on)
    held = next((other for other in saved_from(key) if other.group_id == group.id), None)
    if held is not None:
        return held, None
    secret = secrets.token_urlsafe(24)
    copy, stored_now = save_once(game, Details(saved.played_on, saved.location, saved.notes), key, secret, group=group)
    return copy, secret if stored_now else None


def move_game(saved: SavedGame, group: Group) -> SavedGame:
    """Move *saved* into *group*, with its revisions and links: its results go to *group*'s
    roster players of the same names (added if need be), and both groups' standings catch
    up (the game leaves the one and joins the other: :func:`~.standing.note_change`).

    Both groups' locks are taken, the lower id first: two moves between the same two
    groups, either way, wait for each other and never deadlock.

    :raises GameError: ``"game-gone"`` (deleted meanwhile), ``"game-in-group"`` (*group*
        holds a game of the same sheet already: one game per sheet and group).
    """
    if saved.group_id == group.id:
        return saved
    game_id = saved.id
    for locked in sorted({group.id, *([saved.group_id] if saved.group_id is not None else [])}):
        lock_group(locked)
    db.session.expire(saved)
    if db.session.get(SavedGame, game_id) is None:
        db.session.rollback()
        raise GameError("game-gone")
    if saved.save_key is not None and any(other.group_id == group.id for other in saved_from(saved.save_key)):
        db.session.rollback()
        raise GameError("game-in-group")
    note_change(saved)  # before: its places in the group it leaves
    saved.group = group
    typed = [player.get("name", "") for player in saved.entry.get("players", [])]
    for result in saved.results:
        player = roster_player(group, typed[result.seat] if result.seat < len(typed) else result.name)
        result.player, result.name, result.name_key = player, player.name, player.name_key
    db.session.commit()
    return saved


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
        else corrected it meanwhile) or no longer there (deleted meanwhile);
        nothing is written then.
    """
    if not _as_now(saved) or saved.revision != based_on:
        db.session.rollback()  # the group's lock is not held while the form is shown again
        raise GameChanged()
    note_change(saved)
    try:
        _apply(saved, game, details, _now())  # may flush: the version check can fire here
        db.session.commit()
    except (StaleDataError, IntegrityError):  # a concurrent correction won the race
        db.session.rollback()
        raise GameChanged() from None
    return saved


def delete_game(saved: SavedGame) -> None:
    """Remove the game, its revisions and its results (and its part of the group's
    standing); a game deleted by someone else meanwhile is left so."""
    if not _as_now(saved):
        db.session.rollback()
        return
    note_change(saved)
    db.session.delete(saved)
    db.session.commit()


def _as_now(saved: SavedGame) -> bool:
    """Take the lock of *saved*'s group (:func:`~.db.lock_group`) before its game
    changes, and read the game again under it, as the change before left it: a
    roster player its results pointed to when this request read them may have
    been merged away since, and the game itself corrected or deleted.

    :returns: whether the game is still there (a game in no group: not read again)."""
    if saved.group_id is None:
        return True
    game_id = saved.id
    lock_group(saved.group_id)
    db.session.expire(saved)
    return db.session.get(SavedGame, game_id) is not None


def _apply(saved: SavedGame, game: Game, details: Details, when: datetime) -> None:
    """Make *game* the current entry: a new revision, a rebuilt summary (each
    result pointing to its roster player when the game has a group)."""
    sheet = score_game(game)
    entry = game.to_dict()
    players = _roster_players(saved, game)
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
    for result, player in zip(sheet.results, players, strict=True):
        rows = {row.value: value for row, value in result.rows.items()}
        saved.results.append(
            PlayerResult(
                seat=result.index,
                player=player,
                name=player.name if player else result.player.name,
                name_key=player.name_key if player else name_key(result.player.name),
                played_on=saved.played_on,
                ruleset=game.ruleset.id,
                players=len(sheet.results),
                place=result.place,
                shared_win=result.place == 1 and winners > 1,
                total=result.total,
                **rows,
            )
        )


def _roster_players(saved: SavedGame, game: Game) -> list[Player | None]:
    """The roster player of each of *game*'s players (``None`` each outside a group).

    A correction keeps a seat's player when its typed name is still the same
    name, so a player renamed or merged on the roster since stays who they are;
    a new name is looked up on the roster, and added to it if need be.
    """
    if saved.group is None:
        return [None] * len(game.players)
    before: dict[int, tuple[str, int | None]] = {}
    if saved.entry:
        typed = [p.get("name", "") for p in saved.entry.get("players", [])]
        before = {r.seat: (name_key(typed[r.seat]), r.player_id) for r in saved.results if r.seat < len(typed)}
    players: list[Player | None] = []
    for seat, player in enumerate(game.players):
        key = name_key(player.name)
        kept_key, kept_id = before.get(seat, ("", None))
        kept = db.session.get(Player, kept_id) if kept_id is not None and kept_key == key else None
        players.append(kept or roster_player(saved.group, player.name))
    return players


def roster_player(group: Group, typed: str) -> Player:
    """The roster player of *group* whose name is *typed* (by the engine's
    ``name_key``), added to the roster (shown as typed, in one form) if there is
    none yet.

    It reads and adds under the group's lock (:func:`~.db.lock_group`, taken by
    the save already), so a name saved from several phones at once is added
    once: each reads the roster as the one before it left it."""
    lock_group(group.id)
    key = name_key(typed)
    player = db.session.scalar(select(Player).where(Player.group_id == group.id, Player.name_key == key))
    if player is None:
        player = Player(group=group, name=display_name(typed)[:MAX_NAME_LENGTH], name_key=key)
        db.session.add(player)
    return player


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


#: Where a game stands in History: (date played, id), newest first.
Key = tuple[date, int]


@dataclass(frozen=True)
class Scope:
    """Which saved games a page reads: those of the groups *group_ids* (a
    phone's groups; none for a phone in no group), or every game on the server
    (``None``: an open history, or the command line).

    In groups a player is the roster entry of that name in each (``players``:
    renames and merges carry their games); over every game, the name key.
    """

    group_ids: tuple[int, ...] | None = None

    @property
    def is_empty(self) -> bool:
        """Whether no game can be in scope (a phone in no group): nothing to ask the database."""
        return self.group_ids == ()

    def games(self) -> list[ColumnElement[bool]]:
        """Conditions on :class:`SavedGame` for the games in scope."""
        return [] if self.group_ids is None else [SavedGame.group_id.in_(self.group_ids)]

    def results(self) -> list[ColumnElement[bool]]:
        """Conditions on :class:`PlayerResult` for the results of the games in scope."""
        if self.group_ids is None:
            return []
        return [PlayerResult.game_id.in_(select(SavedGame.id).where(*self.games()))]

    def player(self, name: str) -> list[ColumnElement[bool]]:
        """Conditions on :class:`PlayerResult` for the results of the player called *name* in scope."""
        if self.group_ids is None:
            return [PlayerResult.name_key == name_key(name)]
        roster = select(Player.id).where(Player.group_id.in_(self.group_ids), Player.name_key == name_key(name))
        if len(self.group_ids) == 1:  # one roster entry: the index is read in order
            return [PlayerResult.player_id == roster.scalar_subquery()]
        return [PlayerResult.player_id.in_(roster)]


#: Every saved game on the server.
EVERY_GAME = Scope()


def key_text(key: Key) -> str:
    """A key as it goes in a link: ``"2026-11-28.1234"``."""
    return f"{key[0].isoformat()}.{key[1]}"


def parse_key(text: str | None) -> Key | None:
    """The key of a link (see :func:`key_text`), or ``None`` if *text* is not one."""
    day, _, number = (text or "").partition(".")
    try:
        return date.fromisoformat(day), int(number)
    except ValueError:
        return None


@dataclass(frozen=True)
class Page:
    """One page of the history, newest first, paged by key rather than by offset.

    :ivar total: games matching (the player filter, the scope).
    :ivar start: position of the first game shown, 1 for the newest (0 when none).
    :ivar newer: the key to page towards newer games from (``after=``), or ``None`` on the newest page.
    :ivar older: the key to page towards older games from (``before=``), or ``None`` on the oldest page.
    """

    games: list[SavedGame]
    total: int
    start: int
    newer: Key | None
    older: Key | None


def history(
    player: str = "",
    *,
    before: Key | None = None,
    after: Key | None = None,
    oldest: bool = False,
    per_page: int = 20,
    scope: Scope = EVERY_GAME,
) -> Page:
    """Saved games, newest played first (then newest saved), optionally only those with *player*.

    *before*: the page of games older than that key; *after*: the page of games
    newer than it (a full page where there are enough); *oldest*: the last page.
    Neither: the first page. Every page reads an index in order from the key
    (``ix_saved_games_played_on_id`` or, with a player,
    ``ix_player_results_name_key_played_on``), so the last page of 100,000
    games costs what the first does, apart from counting.
    """
    if player.strip():
        source: type[PlayerResult | SavedGame] = PlayerResult
        played, number = PlayerResult.played_on, PlayerResult.game_id
        where = scope.player(player)
    else:
        source, (played, number) = SavedGame, (SavedGame.played_on, SavedGame.id)
        where = scope.games()
    key = tuple_(played, number)

    def page_of(*conditions, newest_first: bool = True, limit: int = per_page) -> list[SavedGame]:
        # the games themselves in key order: one statement, and one for their results
        order = (played.desc(), number.desc()) if newest_first else (played, number)
        query = select(SavedGame)
        if source is PlayerResult:
            query = query.join(PlayerResult, PlayerResult.game_id == SavedGame.id)
        query = query.where(*where, *conditions).order_by(*order).limit(limit)
        options = (defer(SavedGame.entry), selectinload(SavedGame.results))
        return list(db.session.scalars(query.options(*options)))

    if oldest:
        games = page_of(newest_first=False)[::-1]
    elif after is not None:
        games = page_of(key > tuple_(*after), newest_first=False, limit=per_page + 1)[::-1]
        games = page_of() if len(games) <= per_page else games[1:]  # near the top: the newest page, full
    elif before is not None:
        games = page_of(key < tuple_(*before))
    else:
        games = page_of()
    if not games:
        total = db.session.scalar(select(func.count()).select_from(source).where(*where)) or 0
        return Page([], total, 0, None, None)
    first, last = (games[0].played_on, games[0].id), (games[-1].played_on, games[-1].id)
    # the counts in one statement (each a round trip to the database)
    total, newer, older = db.session.execute(
        select(
            select(func.count()).select_from(source).where(*where).scalar_subquery(),
            select(func.count()).select_from(source).where(*where, key > tuple_(*first)).scalar_subquery()
            if not oldest
            else literal(0),
            select(number).where(*where, key < tuple_(*last)).exists(),
        )
    ).one()
    if oldest:  # no count of everything newer: the last page ends at the total
        newer = total - len(games)
    return Page(games, total, newer + 1, first if newer else None, last if older else None)


def all_games(scope: Scope = EVERY_GAME, batch: int = 200) -> Iterator[SavedGame]:
    """Every saved game in *scope*, oldest played first, read *batch* at a time
    (a server-side cursor on PostgreSQL), for exports that stream: the games
    are never all in memory at once.

    Iterate it inside an app context that outlives the loop (a streamed
    response keeps its request context, ``stream_with_context``).
    """
    query = (
        select(SavedGame)
        .where(*scope.games())
        .order_by(SavedGame.played_on, SavedGame.id)
        .execution_options(yield_per=batch)
    )
    # The session's identity map holds games weakly: each is freed once written out.
    yield from db.session.scalars(query)
