"""Shared tables ("Score together"): every player enters their own kingdom on
their own phone, another player checks it, and the host locks the table into
one saved game.

All state lives in the database (``tables``, ``table_seats``): any number of
app processes may serve one table. Every change takes the table's row first
(``UPDATE tables SET version = version + 1 WHERE … AND locked_at IS NULL``),
so changes of one table happen one after another in every database, a change
never lands on a locked table, and the version is the ETag of the table's
state. Locking saves the game in the same transaction that sets
``locked_at``: locking twice, or from two processes at once, gives the same
single game.

Secrets (the host's, each seat's) are 192 random bits; only their SHA-256 is
stored, compared in constant time (:func:`hmac.compare_digest`).

Refusals are :class:`~scorekeeper.engine.GameError` subclasses with a message
id and parameters, written into sentences by :mod:`scorekeeper.words`:

- :class:`NoSuchTable` (a web answer's 404): ``"table-not-found"``, ``"seat-not-found"``;
- :class:`TableConflict` (409): ``"table-locked"``, ``"table-full"``, ``"name-taken"``,
  ``"check-own-seat"``, ``"check-not-done"``;
- :class:`NotAllowed` (403): ``"seat-not-yours"``, ``"host-only"``, ``"check-needs-seat"``;
- :class:`NotReady` (409), a :class:`~scorekeeper.engine.GameErrors` of every
  reason a table cannot be locked yet;
- :class:`~scorekeeper.engine.GameErrors` (400) for input R8 refuses (names,
  cards, Legends, the ruleset, a cell number).

No Flask here beyond the shared ``db`` session: the web layer turns these into
answers, and scores "points so far" with the engine.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, TypeVar, cast

from sqlalchemy import CursorResult, bindparam, delete, inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload

from ..engine import (
    LEGENDS_BY_ID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Card,
    Game,
    GameError,
    GameErrors,
    InvalidPlayerName,
    UnknownLegend,
    checked_name,
    get_ruleset,
)
from ..engine.errors import DuplicateLegend, InvalidGame
from ..engine.kingdom import Who, kingdom_errors
from .db import db
from .games import Details, save_game
from .models import Group, SavedGame, ScoreTable, TableSeat

#: The join code's characters: capital letters and digits without look-alikes
#: (no 0/O, no 1/I/L), so a code read aloud or from a screen is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: An unlocked table is removed this long after it was started, with its drafts.
EXPIRES_AFTER = timedelta(hours=24)
CELLS = 16

_T = TypeVar("_T")


class NoSuchTable(GameError):
    """No open table has this code (``"table-not-found"``), or it has no such
    seat (``"seat-not-found"``, with ``seat``)."""


class TableConflict(GameError):
    """The table's state refuses the change: locked, full, the name taken, a
    check of one's own or an unfinished kingdom."""


class NotAllowed(GameError):
    """The secret given is not the one this change needs (the seat's, the host's)."""


class NotReady(GameErrors):
    """Why the table cannot be locked yet: one :class:`GameError` per reason
    (a seat not done, not checked, reported wrong; too few seats; what R8
    refuses in the game as a whole, such as a Legend claimed twice, R6.1)."""


@dataclass(frozen=True)
class NewTable:
    """A table just started: its join code and the host's secret (shown once)."""

    code: str
    host_token: str


@dataclass(frozen=True)
class NewSeat:
    """A seat just taken: its number (1..4) and the seat's secret (shown once)."""

    number: int
    token: str


@dataclass(frozen=True)
class Viewer:
    """Whom a secret belongs to at one table: the host, and/or seat numbers.

    Several seats share a secret after :func:`play_again` only if they shared it before.
    """

    host: bool = False
    seats: frozenset[int] = frozenset()

    @property
    def is_anyone(self) -> bool:
        return self.host or bool(self.seats)

    def may_change(self, seat: int) -> bool:
        """Only a seat's own phone or the host change a seat (issue #10, item 9)."""
        return self.host or seat in self.seats


@dataclass(frozen=True)
class SeatState:
    """One seat as every phone sees it.

    :ivar cells: the kingdom so far, 16 card ids or ``None``, row by row.
    :ivar legends: the claimed Legend ids.
    :ivar checked_by: the number of the seat that checked it, or ``None``.
    :ivar wrong_cell: the cell (0..15) another seat (``wrong_by``) reported wrong.
    :ivar legend_clashes: each claimed Legend another seat claims too (R6.1),
        with those seats' numbers: shown to both before the end.
    """

    number: int
    name: str
    cells: tuple[str | None, ...]
    legends: tuple[str, ...]
    done: bool
    checked_by: int | None
    wrong_cell: int | None
    wrong_by: int | None
    legend_clashes: dict[str, tuple[int, ...]]

    @property
    def cards(self) -> tuple[Card | None, ...]:
        """The kingdom so far as cards, row by row (``None``: no card yet)."""
        return tuple(Card(cell) if cell else None for cell in self.cells)

    @property
    def cards_entered(self) -> int:
        """How many of the 16 cells hold a card."""
        return sum(1 for cell in self.cells if cell is not None)

    @property
    def rows(self) -> list[list[str | None]]:
        """The kingdom as 4 rows of 4 (the game file's shape)."""
        return [list(self.cells[r * 4 : r * 4 + 4]) for r in range(4)]


@dataclass(frozen=True)
class TableState:
    """What every phone shows of a table.

    :ivar version: +1 per change: equal versions are equal states (the ETag).
    :ivar game_id: the saved game's public id once locked (``None`` before,
        or if the game was deleted since).
    :ivar next_code: the table "Play again" opened from this one, if any.
    :ivar expires_at: when an unlocked table and its drafts go.
    """

    code: str
    ruleset: str
    played_on: date
    checks_required: bool
    version: int
    locked: bool
    game_id: str | None
    next_code: str | None
    expires_at: datetime
    seats: tuple[SeatState, ...]

    def seat(self, number: int) -> SeatState | None:
        return next((seat for seat in self.seats if seat.number == number), None)


# -- finding a table


def normalise_code(text: str) -> str | None:
    """A typed join code as stored: capitals, without spaces and dashes;
    ``None`` if it cannot be one (wrong length or a character not in
    :data:`CODE_ALPHABET`)."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = "".join(ch for ch in text if not ch.isspace() and ch not in "-‐‑–—").upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def find(code: str) -> ScoreTable | None:
    """The table with this join code (case, spaces and dashes ignored), locked
    or not; ``None`` if there is none, or it was left unlocked for longer
    than :data:`EXPIRES_AFTER` (it is removed then)."""
    normal = normalise_code(code)
    if normal is None:
        return None
    table = _read(ScoreTable.code == normal)
    if table is None:
        return None
    if table.locked_at is None and _aware(table.created_at) <= _now() - EXPIRES_AFTER:
        expire_tables()
        return None
    return table


def expire_tables(now: datetime | None = None) -> int:
    """Remove every unlocked table started more than :data:`EXPIRES_AFTER`
    before *now*, seats and drafts with it (called on access and at start-up:
    no scheduled job is needed). Locked tables stay: their link shows the sheet.

    :returns: how many tables were removed.
    """
    cutoff = (now or _now()) - EXPIRES_AFTER
    result = db.session.execute(
        delete(ScoreTable)
        .where(ScoreTable.locked_at.is_(None), ScoreTable.created_at <= cutoff)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    return cast(CursorResult[Any], result).rowcount


# -- starting and joining


def create_table(ruleset: str, played_on: date, *, checks_required: bool = True) -> NewTable:
    """Start a table for a game under *ruleset* (``"pocket"``, ``"classic"``,
    R9) played on *played_on* (the host phone's local date).

    :returns: the join code and the host's secret (only its hash is stored).
    :raises GameErrors: ``"ruleset-unknown"`` (R9).
    """
    try:
        ruleset_id = get_ruleset(ruleset).id
    except GameError as error:
        raise GameErrors([error]) from None
    expire_tables()
    host_token = _secret()
    return NewTable(
        _insert_table(ruleset_id, played_on, checks_required, _hash(host_token)),
        host_token,
    )


def _insert_table(ruleset: str, played_on: date, checks_required: bool, host_hash: str) -> str:
    """Insert a table under a fresh code (drawn again on the rare collision)."""
    now = _now()
    for _ in range(20):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        table = ScoreTable(
            code=code,
            ruleset=ruleset,
            played_on=played_on,
            host_token_hash=host_hash,
            checks_required=checks_required,
            created_at=now,
            updated_at=now,
            version=1,
        )
        db.session.add(table)
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            continue
        return code
    raise RuntimeError("no free table code after 20 draws")  # 31**6 codes: never in practice


def join(table: ScoreTable, name: object) -> NewSeat:
    """Take the next seat at *table* under *name*, checked at once by R8
    against the names already seated (empty, 40 characters, control
    characters, the same name in another case or Unicode form).

    :raises GameErrors: for a name R8 refuses (other than taken).
    :raises TableConflict: ``"name-taken"`` (``other``: the seated name),
        ``"table-full"`` (``most``: 4 seats, R8), ``"table-locked"``.
    """
    token = _secret()

    def step(table: ScoreTable) -> NewSeat:
        seats = table.seats
        try:
            shown = checked_name(name, [seat.name for seat in seats])
        except InvalidPlayerName as error:
            if error.message_id == "name-taken":
                raise TableConflict("name-taken", player_name=error.player_name, other=error.params["other"]) from None
            raise GameErrors([error]) from None
        if len(seats) >= MAX_PLAYERS:
            raise TableConflict("table-full", most=MAX_PLAYERS)
        number = max((seat.number for seat in seats), default=0) + 1
        table.seats.append(
            TableSeat(
                number=number,
                name=shown,
                token_hash=_hash(token),
                cells=[None] * CELLS,
                legends=[],
                done=False,
                updated_at=_now(),
            )
        )
        return NewSeat(number, token)

    return _change(table, step)


def add_seat(table: ScoreTable, host_token: str, name: object) -> NewSeat:
    """The host adds a seat for a player without a phone (filled from the
    host's phone, whose secret may change it; its own secret can be handed on).

    :raises NotAllowed: ``"host-only"``; otherwise as :func:`join`.
    """
    if not viewer(table, host_token).host:
        raise NotAllowed("host-only")
    return join(table, name)


def set_checks(table: ScoreTable, host_token: str, required: bool) -> None:
    """The host switches the check by another player on or off for the table.

    :raises NotAllowed: ``"host-only"``. :raises TableConflict: ``"table-locked"``.
    """
    if not viewer(table, host_token).host:
        raise NotAllowed("host-only")

    def step(table: ScoreTable) -> None:
        table.checks_required = bool(required)

    _change(table, step)


def viewer(table: ScoreTable, token: str | None) -> Viewer:
    """Whom *token* belongs to at *table*: the host and/or seats (each
    compared in constant time); ``Viewer()`` for a wrong or missing token."""
    if not token or len(token) > 200:
        return Viewer()
    hashed = _hash(token)
    host = hmac.compare_digest(table.host_token_hash, hashed)
    seats = frozenset(seat.number for seat in table.seats if hmac.compare_digest(seat.token_hash, hashed))
    return Viewer(host, seats)


# -- entering and checking


def update_seat(
    table: ScoreTable,
    number: int,
    token: str | None,
    *,
    cells: object = None,
    legends: object = None,
    done: bool | None = None,
    based_on: Shown | None = None,
) -> SeatState:
    """Store seat *number*'s draft: any of its kingdom so far, its Legends,
    whether it is done. Only that seat's secret or the host's may.

    A changed kingdom or Legends clears the seat's check (it was of what was
    there before); a "something is wrong" report goes when the card it names
    is changed, or when the seat is marked done again (looked at again), not
    with other changes (made, say, before its owner saw it). Marking it done
    needs all 16 cards; marking it not done clears the check.

    :param cells: 4 rows of 4 card ids or ``None`` (not entered yet), or 16
        cells row by row; ``None`` leaves the kingdom as it is.
    :param legends: the claimed Legend ids; ``None`` leaves them. A Legend
        another seat claims is kept and reported to both (R6.1); the lock refuses it.
    :param based_on: the cells and Legends the writer's page started from
        (shaped as *cells* and *legends*): then only what differs from them is
        written, so that two pages changing one seat (the player's phone and the
        host's, two tabs) keep each other's changes; a cell both changed takes
        this write's card.
    :returns: the seat's state after the change.
    :raises NoSuchTable: ``"seat-not-found"``. :raises NotAllowed: ``"seat-not-yours"``.
    :raises TableConflict: ``"table-locked"``.
    :raises GameErrors: for cells or Legends R8 refuses, or ``"kingdom-not-complete"``
        (``count``: cards entered) when marked done too early.
    """
    seat = _seat(table, number)
    if not viewer(table, token).may_change(number):
        raise NotAllowed("seat-not-yours", seat=number)
    who: Who = {"player": number - 1, "player_name": seat.name}
    new_cells = None if cells is None else draft_cells(cells, **who)
    new_legends = None if legends is None else draft_legends(legends, **who)
    base_cells = base_legends = None
    if based_on is not None:
        base_cells, base_legends = _read_shown(based_on, who)

    def step(table: ScoreTable) -> SeatState:
        seat = _seat(table, number)
        cells, legends = new_cells, new_legends
        if cells is not None and base_cells is not None:
            cells = merged_cells(list(seat.cells), base_cells, cells)
        if legends is not None and base_legends is not None:
            legends = merged_legends(list(seat.legends), base_legends, legends)
        changed = False
        if cells is not None and cells != list(seat.cells):
            if seat.wrong_cell is not None and cells[seat.wrong_cell] != seat.cells[seat.wrong_cell]:
                seat.wrong_cell = seat.wrong_by = None  # the card said to be wrong was changed
            seat.cells, changed = cells, True
        if legends is not None and legends != list(seat.legends):
            seat.legends, changed = legends, True
        if changed:
            seat.checked_by = None
        if done is not None and bool(done) != seat.done:
            if done:
                entered = sum(1 for cell in seat.cells if cell is not None)
                if entered < CELLS:
                    raise GameErrors([GameError("kingdom-not-complete", count=entered, **who)])
                seat.wrong_cell = seat.wrong_by = None
            else:
                seat.checked_by = None
            seat.done = bool(done)
        seat.updated_at = _now()
        return next(state for state in _seat_states(table.seats) if state.number == number)

    return _change(table, step)


def check(table: ScoreTable, number: int, token: str | None, seen: Shown | None = None) -> None:
    """Seat *number*'s kingdom is checked against the cards on the table by the
    seat whose secret *token* is (never its owner).

    :param seen: the kingdom as the checker's page showed it (:data:`Shown`):
        a kingdom changed since is refused, not checked unseen.
    :raises NoSuchTable: ``"seat-not-found"``.
    :raises NotAllowed: ``"check-needs-seat"`` (the token is no seat's).
    :raises TableConflict: ``"check-own-seat"``, ``"check-not-done"``,
        ``"check-kingdom-changed"``, ``"table-locked"``.
    """
    checker = _checker(table, number, token)

    def step(table: ScoreTable) -> None:
        seat = _ready_to_check(table, number, seen)
        seat.checked_by = checker
        seat.wrong_cell = seat.wrong_by = None

    _change(table, step)


def may_check(table: ScoreTable, number: int, token: str | None) -> None:
    """Refuse, as :func:`check` would, the seat whose secret *token* is
    checking seat *number* now; change nothing (the check page asks first).

    :raises NotAllowed, TableConflict, NoSuchTable: as :func:`check`.
    """
    _checker(table, number, token)
    _ready_to_check(table, number)


def report_wrong(table: ScoreTable, number: int, token: str | None, cell: object, seen: Shown | None = None) -> None:
    """Another seat reports "something is wrong" at *cell* (0..15, row by row)
    of seat *number*'s kingdom: the owner's phone shows it, the seat is no
    longer done or checked until the owner marks it done again.

    :param seen: as for :func:`check`: a kingdom changed since is refused.
    :raises GameErrors: ``"cell-invalid"`` for a cell outside 0..15.
    :raises NotAllowed, TableConflict, NoSuchTable: as :func:`check`.
    """
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < CELLS:
        raise GameErrors([GameError("cell-invalid", most=CELLS - 1)])
    checker = _checker(table, number, token)

    def step(table: ScoreTable) -> None:
        seat = _ready_to_check(table, number, seen)
        seat.done, seat.checked_by = False, None
        seat.wrong_cell, seat.wrong_by = cell, checker

    _change(table, step)


def _checker(table: ScoreTable, number: int, token: str | None) -> int:
    _seat(table, number)
    seats = viewer(table, token).seats
    if not seats:
        raise NotAllowed("check-needs-seat")
    others = sorted(seats - {number})
    if not others:
        raise TableConflict("check-own-seat")
    return others[0]


def _ready_to_check(table: ScoreTable, number: int, seen: Shown | None = None) -> TableSeat:
    seat = _seat(table, number)
    who: Who = {"player": number - 1, "player_name": seat.name}
    if not seat.done:
        raise TableConflict("check-not-done", **who)
    if seen is not None and _read_shown(seen, who) != (list(seat.cells), list(seat.legends)):
        raise TableConflict("check-kingdom-changed", **who)
    return seat


# -- the state every phone polls


def state(table: ScoreTable) -> TableState:
    """The table as every phone shows it (see :class:`TableState`)."""
    game_id = None
    if table.locked_game_id is not None:
        game_id = db.session.scalar(select(SavedGame.public_id).where(SavedGame.id == table.locked_game_id))
    return TableState(
        code=table.code,
        ruleset=table.ruleset,
        played_on=table.played_on,
        checks_required=table.checks_required,
        version=table.version,
        locked=table.locked_at is not None,
        game_id=game_id,
        next_code=table.next_code,
        expires_at=_aware(table.created_at) + EXPIRES_AFTER,
        seats=_seat_states(table.seats),
    )


def _seat_states(seats: Sequence[Any]) -> tuple[SeatState, ...]:
    """The seats' states from their rows (:class:`TableSeat` objects or rows of :data:`_LOOK`)."""
    claims: dict[str, list[int]] = {}
    for seat in seats:
        for legend in seat.legends:
            claims.setdefault(legend, []).append(seat.number)
    return tuple(
        SeatState(
            number=seat.number,
            name=seat.name,
            cells=tuple(seat.cells),
            legends=tuple(seat.legends),
            done=seat.done,
            checked_by=seat.checked_by,
            wrong_cell=seat.wrong_cell,
            wrong_by=seat.wrong_by,
            legend_clashes={
                legend: tuple(n for n in claims[legend] if n != seat.number)
                for legend in seat.legends
                if len(claims[legend]) > 1
            },
        )
        for seat in seats
    )


#: Everything a poll needs in one statement, built once: the table, its seats
#: (one row each, or one row of nulls) and its saved game's public id.
_LOOK = (
    select(
        ScoreTable.code,
        ScoreTable.ruleset,
        ScoreTable.played_on,
        ScoreTable.checks_required,
        ScoreTable.version,
        ScoreTable.locked_at,
        ScoreTable.created_at,
        ScoreTable.next_code,
        ScoreTable.host_token_hash,
        SavedGame.public_id,
        TableSeat.number,
        TableSeat.name,
        TableSeat.token_hash,
        TableSeat.cells,
        TableSeat.legends,
        TableSeat.done,
        TableSeat.checked_by,
        TableSeat.wrong_cell,
        TableSeat.wrong_by,
    )
    .outerjoin(TableSeat, TableSeat.table_id == ScoreTable.id)
    .outerjoin(SavedGame, SavedGame.id == ScoreTable.locked_game_id)
    .where(ScoreTable.code == bindparam("code"))
    .order_by(TableSeat.number)
)


def look(code: str, token: str | None = None) -> tuple[TableState, Viewer] | None:
    """What a phone polling the table needs, in one query and without the
    ORM: its state (as :func:`state`) and whom *token* belongs to (as
    :func:`viewer`); ``None`` as :func:`find` gives it (no such table, or
    expired: then removed)."""
    normal = normalise_code(code)
    if normal is None:
        return None
    rows = db.session.execute(_LOOK, {"code": normal}).all()
    if not rows:
        return None
    first = rows[0]
    if first.locked_at is None and _aware(first.created_at) <= _now() - EXPIRES_AFTER:
        expire_tables()
        return None
    seats = [row for row in rows if row.number is not None]
    found = TableState(
        code=first.code,
        ruleset=first.ruleset,
        played_on=first.played_on,
        checks_required=first.checks_required,
        version=first.version,
        locked=first.locked_at is not None,
        game_id=first.public_id,
        next_code=first.next_code,
        expires_at=_aware(first.created_at) + EXPIRES_AFTER,
        seats=_seat_states(seats),
    )
    if not token or len(token) > 200:
        return found, Viewer()
    hashed = _hash(token)
    return found, Viewer(
        hmac.compare_digest(first.host_token_hash, hashed),
        frozenset(row.number for row in seats if hmac.compare_digest(row.token_hash, hashed)),
    )


# -- locking


def lock(table: ScoreTable, host_token: str | None, group: Group | None = None) -> tuple[SavedGame, str]:
    """Make the table one saved game (revision 1, correctable later), host only.

    Needs 2 to 4 seats (R8), every seat done with no wrong cell reported, each
    checked by another seat when the table asks for checks, and a game R8
    accepts (a Legend claimed by two seats is refused, R6.1). Locking a locked
    table gives its game again: twice, or from two processes at once, there is
    exactly one game.

    :param group: the group the game goes to (the host's choice; its players
        join the group's roster); ``None``: outside every group. The first
        lock decides: locking again gives the game where it went.
    :returns: the saved game and the secret of its private edit link, derived
        from the host's secret, so each lock by the host gives the same link.
    :raises NotAllowed: ``"host-only"``.
    :raises NotReady: every reason the table cannot be locked yet.
    :raises NoSuchTable: ``"table-not-found"`` if the locked game was deleted since.
    """
    if not viewer(table, host_token).host:
        raise NotAllowed("host-only")
    edit_token = _edit_token(cast(str, host_token), table.code)
    try:
        saved = _change(table, _locking(edit_token, group))
    except TableConflict as error:
        if error.message_id != "table-locked":
            raise
        db.session.rollback()
        saved = _locked_game(table)
    return saved, edit_token


def _locking(edit_token: str, group: Group | None) -> Callable[[ScoreTable], SavedGame]:
    def step(table: ScoreTable) -> SavedGame:
        reasons: list[GameError] = []
        seats = table.seats
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            reasons.append(GameError("player-count", count=len(seats), least=MIN_PLAYERS, most=MAX_PLAYERS))
        for seat in seats:
            who: Who = {"player": seat.number - 1, "player_name": seat.name}
            if seat.wrong_cell is not None:
                reasons.append(GameError("lock-wrong-cell", cell=seat.wrong_cell, **who))
            elif not seat.done:
                reasons.append(GameError("lock-not-done", **who))
            elif table.checks_required and seat.checked_by is None:
                reasons.append(GameError("lock-not-checked", **who))
        if reasons:
            raise NotReady(reasons)
        try:
            game = Game.from_dict(
                {
                    "ruleset": table.ruleset,
                    "players": [
                        {"name": seat.name, "kingdom": _rows(seat.cells), "legends": list(seat.legends)}
                        for seat in seats
                    ],
                }
            )
        except GameErrors as problems:
            raise NotReady(list(problems.errors)) from None
        saved, _ = save_game(game, Details(table.played_on), group=group, commit=False, secret=edit_token)
        db.session.flush()
        table.locked_at = _now()
        table.locked_game_id = saved.id
        return saved

    return step


def _locked_game(table: ScoreTable) -> SavedGame:
    db.session.expire_all()
    if table.locked_game_id is None:  # locked, and its game deleted since
        raise NoSuchTable("table-not-found")
    saved = db.session.get(SavedGame, table.locked_game_id)
    if saved is None:
        raise NoSuchTable("table-not-found")
    return saved


def may_see_edit_link(table: ScoreTable, token: str | None) -> str | None:
    """The secret of the locked game's edit link when *token* is the host's, else ``None``."""
    if table.locked_at is None or not token or not viewer(table, token).host:
        return None
    return _edit_token(token, table.code)


def edit_link_secret(state: TableState, seen_by: Viewer, token: str | None) -> str | None:
    """As :func:`may_see_edit_link`, from what :func:`look` gave."""
    if not state.locked or not token or not seen_by.host:
        return None
    return _edit_token(token, state.code)


# -- play again


def play_again(table: ScoreTable, host_token: str | None, played_on: date | None = None) -> ScoreTable:
    """A new table after a locked one: same ruleset, same seats and names, the
    same secrets (each phone takes its seat back with one tap, the host stays
    host), on *played_on* (default: the same date). Asked twice, or from two
    processes at once, it gives the same new table.

    :raises NotAllowed: ``"host-only"``. :raises TableConflict: ``"table-not-locked"``.
    """
    if not viewer(table, host_token).host:
        raise NotAllowed("host-only")
    if table.locked_at is None:
        raise TableConflict("table-not-locked")
    if table.next_code is None:
        seats = [(seat.number, seat.name, seat.token_hash) for seat in table.seats]
        code = _insert_table(table.ruleset, played_on or table.played_on, table.checks_required, table.host_token_hash)
        fresh = db.session.scalar(select(ScoreTable).where(ScoreTable.code == code))
        assert fresh is not None
        now = _now()
        for number, name, token_hash in seats:
            fresh.seats.append(
                TableSeat(
                    number=number,
                    name=name,
                    token_hash=token_hash,
                    cells=[None] * CELLS,
                    legends=[],
                    done=False,
                    updated_at=now,
                )
            )
        claimed = db.session.execute(
            update(ScoreTable)
            .where(ScoreTable.id == table.id, ScoreTable.next_code.is_(None))
            .values(next_code=code, version=ScoreTable.version + 1, updated_at=now)
        )
        if cast(CursorResult[Any], claimed).rowcount == 1:
            db.session.commit()
        else:  # another request opened it first: drop ours
            db.session.rollback()
            db.session.execute(
                delete(ScoreTable).where(ScoreTable.code == code).execution_options(synchronize_session=False)
            )
            db.session.commit()
    db.session.expire_all()
    following = db.session.scalar(select(ScoreTable).where(ScoreTable.code == table.next_code))
    if following is None:  # it expired unused: open another
        db.session.execute(update(ScoreTable).where(ScoreTable.id == table.id).values(next_code=None))
        db.session.commit()
        return play_again(table, host_token, played_on)
    return following


# -- input of drafts


#: A kingdom as a page showed it, its 16 cells and its Legend ids as the page
#: sends them (shaped as :func:`update_seat`'s *cells* and *legends*): what a
#: draft's page started from, what a check page showed.
Shown = tuple[object, object]


def _read_shown(shown: Shown, who: Who) -> tuple[list[str | None], list[str]]:
    """*shown* read as the seat stores a kingdom (``None`` for a cell not entered).

    :raises GameErrors: as :func:`draft_cells` and :func:`draft_legends`.
    """
    return draft_cells(shown[0], **who), draft_legends(shown[1], **who)


def merged_cells(stored: list[str | None], base: list[str | None], mine: list[str | None]) -> list[str | None]:
    """16 cells: *mine* where they differ from *base* (what my page started
    from), else what is *stored* now (another page's changes kept)."""
    return [new if new != old else now for now, old, new in zip(stored, base, mine, strict=True)]


def merged_legends(stored: list[str], base: list[str], mine: list[str]) -> list[str]:
    """Legend ids: those *stored* now less the ones I dropped since *base*, and
    the ones I added since *base*."""
    kept = [legend for legend in stored if legend in mine or legend not in base]
    return kept + [legend for legend in mine if legend not in base and legend not in kept]


def draft_cells(cells: object, **who: Any) -> list[str | None]:
    """A kingdom so far from user input: 4 rows of 4, or 16 cells row by row,
    each a card id or ``None``/``""`` for not entered yet.

    :raises GameErrors: the shape and each cell that is not a card id (R8),
        carrying *who* (``player``, ``player_name``).
    """
    if isinstance(cells, list) and len(cells) == CELLS and not any(isinstance(x, list) for x in cells):
        cells = [cells[r * 4 : r * 4 + 4] for r in range(4)]
    problems = [error for error in kingdom_errors(cells, **who) if error.message_id != "card-missing"]
    if problems:
        raise GameErrors(list(problems))
    rows = cast(list[list[object]], cells)
    return [cell if isinstance(cell, str) and cell else None for row in rows for cell in row]


def draft_legends(legends: object, **who: Any) -> list[str]:
    """Claimed Legend ids from user input, each at most once.

    :raises GameErrors: ``"legends-not-list"``, ``"legend-not-text"``,
        ``"legend-unknown"``, ``"legend-listed-twice"`` (R6, R8).
    """
    if not isinstance(legends, list):
        raise GameErrors([InvalidGame("legends-not-list", **who)])
    problems: list[GameError] = []
    ids: list[str] = []
    for legend in legends[:64]:
        if not isinstance(legend, str):
            problems.append(UnknownLegend("legend-not-text", **who))
        elif legend not in LEGENDS_BY_ID:
            problems.append(UnknownLegend("legend-unknown", value=legend[:40], **who))
        elif legend in ids:
            problems.append(DuplicateLegend("legend-listed-twice", legend=legend, **who))
        else:
            ids.append(legend)
    if problems or len(legends) > 64:
        raise GameErrors(problems or [InvalidGame("legends-not-list", **who)])
    return ids


# -- how every change is made


def _change(table: ScoreTable, step: Callable[[ScoreTable], _T]) -> _T:
    """Run *step* on *table* as one change: take the table's row (its version
    + 1) if it is still open, read it again unless nobody changed it since it
    was read, let *step* check and change it, commit. A refusal raised by
    *step* writes nothing.

    :raises TableConflict: ``"table-locked"``. :raises NoSuchTable: the table is gone.
    """
    known = inspect(table).dict.get("version")  # as read with the seats, if still loaded
    claimed = db.session.execute(
        update(ScoreTable)
        .where(ScoreTable.id == table.id, ScoreTable.locked_at.is_(None))
        .values(version=ScoreTable.version + 1, updated_at=_now())
        .returning(ScoreTable.version)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if claimed is None:
        db.session.rollback()
        if db.session.get(ScoreTable, table.id) is None:
            raise NoSuchTable("table-not-found")
        raise TableConflict("table-locked")
    if known is None or claimed != known + 1:  # others wrote before we took the row: read it again
        _read(ScoreTable.id == table.id, again=True)
    try:
        result = step(table)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return result


def _read(where: Any, *, again: bool = False) -> ScoreTable | None:
    """The table matching *where* with its seats, in one query (a poll's
    every request reads them); *again*: overwriting what the session holds."""
    query = select(ScoreTable).options(joinedload(ScoreTable.seats)).where(where)
    if again:
        query = query.execution_options(populate_existing=True)
    return db.session.scalars(query).unique().one_or_none()


def _seat(table: ScoreTable, number: int) -> TableSeat:
    seat = next((seat for seat in table.seats if seat.number == number), None)
    if seat is None:
        raise NoSuchTable("seat-not-found", seat=number)
    return seat


def _rows(cells: Sequence[str | None]) -> list[list[str | None]]:
    return [list(cells[r * 4 : r * 4 + 4]) for r in range(4)]


def _secret() -> str:
    return secrets.token_urlsafe(24)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_group_secret(table: ScoreTable, token: str | None) -> str | None:
    """The invite secret of a group made by locking *table* (the host chose a
    new group), when *token* is the host's, else ``None``. Derived from the
    host's secret like the edit link's, so the host's phone can be given it
    again when the lock's answer (which carries it) never arrived."""
    if not token or not viewer(table, token).host:
        return None
    return _derived(token, f"group-invite:{table.code}")


def _edit_token(host_token: str, code: str) -> str:
    """The locked game's edit-link secret (the same on every lock)."""
    return _derived(host_token, f"edit-link:{code}")


def _derived(host_token: str, label: str) -> str:
    """HMAC-SHA256 of *label* under the host's secret: unguessable without it."""
    digest = hmac.new(host_token.encode(), label.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime) -> datetime:
    """SQLite gives back naive times (stored in UTC)."""
    return when if when.tzinfo else when.replace(tzinfo=UTC)
