"""The rows of shared tables (``tables``, ``table_seats``) and the queries on them.

Rows and queries only, read and written as :class:`TableRow` and :class:`SeatRow`
(plain values of the columns): the table's rules and its model's values are
:mod:`scorekeeper.table.model`'s, a floor above, which the store never imports;
every change is made by :mod:`scorekeeper.table.service`, which turns rows into
the model's tables and back, and claims a
table's row first (:func:`claim`: ``UPDATE … SET version = version + 1 …
RETURNING``), so that changes of one table happen one after another in every
database, a change never lands on a locked table, and each change has its
own version. Read with SQLAlchemy Core in one statement each: a phone's every
draft reads and writes here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import CursorResult, Row, bindparam, delete, insert, null, select, update
from sqlalchemy import Table as Table_

from .db import db
from .models import SavedGame, ScoreTable, TableSeat

_TABLES = cast(Table_, ScoreTable.__table__)
_SEATS = cast(Table_, TableSeat.__table__)


class SeatRow(NamedTuple):
    """A seat's row (``table_seats``): its number 1..4, 16 cells of card ids or ``None``
    (row by row), the claimed Legend ids in order, the hashes of the secrets that hold
    it (``token_hash``) and that entered it (``entered_by``)."""

    number: int
    name: str
    token_hash: str
    cells: tuple[str | None, ...]
    legends: tuple[str, ...]
    done: bool
    checked_by: int | None
    wrong_cell: int | None
    wrong_by: int | None
    entered_by: frozenset[str]
    seen_at: datetime | None = None


class MoveRow(NamedTuple):
    """A request to move a seat (``move_*`` of ``tables``): *seat* ``None`` for the host's role."""

    seat: int | None
    asker: str
    asked_at: datetime


class TableRow(NamedTuple):
    """A table's row (``tables``) with its seats' rows in seat order: *locked* when
    ``locked_at`` is set, *game_id* the locked game's public id (``None`` before, or
    once the game is deleted), times in UTC, *group_id* the row id of the group it was
    started from (``None``: none; last, with a default, so rows written without it stay valid)."""

    code: str
    ruleset: str
    played_on: date
    checks_required: bool
    version: int
    host_token_hash: str
    created_at: datetime
    locked: bool
    game_id: str | None
    next_code: str | None
    move: MoveRow | None
    seats: tuple[SeatRow, ...]
    host_seen_at: datetime | None = None
    group_id: int | None = None


#: The fields of a :class:`TableRow` stored as they are, each its own column
#: (read and insert_table both go through it, so that a field added is added once).
_TABLE_FIELDS = ("code", "ruleset", "played_on", "checks_required", "version", "host_token_hash", "group_id")

#: A table with its seats (one row each, or one row of nulls) and its saved game's public id.
_READ = (
    select(
        _TABLES.c.id,
        _TABLES.c.code,
        _TABLES.c.ruleset,
        _TABLES.c.played_on,
        _TABLES.c.checks_required,
        _TABLES.c.version,
        _TABLES.c.host_token_hash,
        _TABLES.c.created_at,
        _TABLES.c.locked_at,
        _TABLES.c.next_code,
        _TABLES.c.move_seat,
        _TABLES.c.move_asker,
        _TABLES.c.move_asked_at,
        _TABLES.c.host_seen_at,
        _TABLES.c.group_id,
        SavedGame.public_id,
        _SEATS.c.number,
        _SEATS.c.name,
        _SEATS.c.token_hash,
        _SEATS.c.cells,
        _SEATS.c.legends,
        _SEATS.c.done,
        _SEATS.c.checked_by,
        _SEATS.c.wrong_cell,
        _SEATS.c.wrong_by,
        _SEATS.c.entered_by,
        _SEATS.c.seen_at,
    )
    .outerjoin(_SEATS, _SEATS.c.table_id == _TABLES.c.id)
    .outerjoin(SavedGame, SavedGame.id == _TABLES.c.locked_game_id)
    .where(_TABLES.c.code == bindparam("code"))
    .order_by(_SEATS.c.number)
)


def read(code: str) -> TableRow | None:
    """The table with join code *code* (as stored: upper case, no spaces or dashes),
    locked or not, with its seats; ``None`` if there is none. One query."""
    return _table_row(db.session.connection().execute(_READ, {"code": code}).all())


def _table_row(rows: Sequence[Row[*tuple[Any, ...]]]) -> TableRow | None:
    """The table of *rows* (one per seat, or one of nulls: :data:`_READ`'s columns), or ``None`` for none."""
    if not rows:
        return None
    first = rows[0]
    move = None
    if first.move_asker is not None and first.move_asked_at is not None:
        move = MoveRow(first.move_seat or None, first.move_asker, _aware(first.move_asked_at))
    return TableRow(
        **{field: getattr(first, field) for field in _TABLE_FIELDS},
        created_at=_aware(first.created_at),
        locked=first.locked_at is not None,
        game_id=first.public_id,
        next_code=first.next_code,
        move=move,
        host_seen_at=None if first.host_seen_at is None else _aware(first.host_seen_at),
        seats=tuple(
            SeatRow(
                number=row.number,
                name=row.name,
                token_hash=row.token_hash,
                cells=tuple(row.cells),
                legends=tuple(row.legends),
                done=row.done,
                checked_by=row.checked_by,
                wrong_cell=row.wrong_cell,
                wrong_by=row.wrong_by,
                entered_by=frozenset(row.entered_by or ()),
                seen_at=None if row.seen_at is None else _aware(row.seen_at),
            )
            for row in rows
            if row.number is not None
        ),
    )


#: Every statement of a change built once (a phone's every card runs them): only their values change.
_CLAIM = (
    update(_TABLES)
    .where(_TABLES.c.code == bindparam("table_code"), _TABLES.c.locked_at.is_(None))
    .values(version=_TABLES.c.version + 1, updated_at=bindparam("now"))
)
_CLAIMED = _CLAIM.returning(*(column for column in _READ.selected_columns if column.table is _TABLES)).cte("claimed")
#: PostgreSQL: the claim and the read in one statement (one round trip), with the version the
#: statement's snapshot saw (``seen_version``): every statement of a data-modifying ``WITH``
#: reads one snapshot, taken before the claim waited for the row (if it did), so its seats are
#: current only when no change committed meanwhile (the claimed version is the seen one + 1).
_CLAIM_AND_READ = (
    select(
        *(_CLAIMED.c[column.name] for column in _READ.selected_columns if column.table is _TABLES),
        null().label("public_id"),  # an open table has no saved game
        *(column for column in _READ.selected_columns if column.table is _SEATS),
        select(_TABLES.c.version).where(_TABLES.c.id == _CLAIMED.c.id).scalar_subquery().label("seen_version"),
    )
    .select_from(_CLAIMED.outerjoin(_SEATS, _SEATS.c.table_id == _CLAIMED.c.id))
    .order_by(_SEATS.c.number)
)
_TABLE_ID = select(_TABLES.c.id).where(_TABLES.c.code == bindparam("table_code")).scalar_subquery()
_SEAT_COLUMNS = (
    "name",
    "token_hash",
    "cells",
    "legends",
    "done",
    "checked_by",
    "wrong_cell",
    "wrong_by",
    "entered_by",
    "seen_at",
)
_UPDATE_SEAT = (
    update(_SEATS)
    .where(_SEATS.c.table_id == _TABLE_ID, _SEATS.c.number == bindparam("seat_number"))
    .values({name: bindparam(f"new_{name}") for name in (*_SEAT_COLUMNS, "updated_at")})
)


def claim(code: str, now: datetime) -> TableRow | None:
    """Take table *code*'s row for a change, if it is still open, and read the table:
    its version + 1, which other changes of the table wait for until this one commits.

    One statement on PostgreSQL (a second only when another change committed while
    this one waited for the row); on SQLite, whose writers take turns for the whole
    database, the claim and then the read.

    :returns: the table as claimed (its version the new one), with its seats; ``None``
        if the table is locked or gone.
    """
    connection = db.session.connection()
    values = {"table_code": code, "now": now}
    if connection.dialect.name != "postgresql":
        if cast(CursorResult[Any], connection.execute(_CLAIM, values)).rowcount != 1:
            return None
        return read(code)
    rows = connection.execute(_CLAIM_AND_READ, values).all()
    if rows and rows[0].seen_version + 1 != rows[0].version:  # seats read before another change's commit
        return read(code)
    return _table_row(rows)


def write(before: TableRow, after: TableRow, now: datetime) -> None:
    """Write what changed from *before* to *after* (a change of one table: seats added, changed, removed)."""
    values: dict[str, Any] = {}
    if after.host_seen_at != before.host_seen_at:
        values["host_seen_at"] = after.host_seen_at
    if after.checks_required != before.checks_required:
        values["checks_required"] = after.checks_required
    if after.host_token_hash != before.host_token_hash:
        values["host_token_hash"] = after.host_token_hash
    if after.move != before.move:
        move = after.move
        values["move_seat"] = None if move is None else (move.seat or 0)
        values["move_asker"] = None if move is None else move.asker
        values["move_asked_at"] = None if move is None else move.asked_at
    if values:
        db.session.execute(update(_TABLES).where(_TABLES.c.code == after.code).values(**values))
    old = {seat.number: seat for seat in before.seats}
    changed = [seat for seat in after.seats if seat.number in old and seat != old[seat.number]]
    if changed:
        rows = [
            {f"new_{name}": value for name, value in (_seat_values(seat) | {"updated_at": now}).items()}
            | {"seat_number": seat.number, "table_code": after.code}
            for seat in changed
        ]
        db.session.connection().execute(_UPDATE_SEAT, rows)
    table_id = select(_TABLES.c.id).where(_TABLES.c.code == after.code).scalar_subquery()
    removed = old.keys() - {seat.number for seat in after.seats}
    if removed:
        db.session.execute(delete(_SEATS).where(_SEATS.c.table_id == table_id, _SEATS.c.number.in_(sorted(removed))))
    for seat in after.seats:
        if seat.number not in old:
            db.session.execute(
                insert(_SEATS).values(table_id=table_id, number=seat.number, **_seat_values(seat), updated_at=now)
            )


def _seat_values(seat: SeatRow) -> dict[str, Any]:
    return {
        "name": seat.name,
        "token_hash": seat.token_hash,
        "cells": list(seat.cells),
        "legends": list(seat.legends),
        "done": seat.done,
        "checked_by": seat.checked_by,
        "wrong_cell": seat.wrong_cell,
        "wrong_by": seat.wrong_by,
        "entered_by": sorted(seat.entered_by),
        "seen_at": seat.seen_at,
    }


def insert_table(table: TableRow, now: datetime) -> None:
    """Store a new *table* with its seats.

    :raises IntegrityError: its code is taken (roll back, draw another).
    """
    db.session.execute(
        insert(_TABLES).values(
            {field: getattr(table, field) for field in _TABLE_FIELDS}
            | {"created_at": table.created_at, "updated_at": now, "host_seen_at": table.host_seen_at}
        )
    )
    write(table._replace(seats=()), table, now)


def mark_locked(code: str, game_row_id: int, now: datetime) -> None:
    """Table *code* is locked into the saved game with row id *game_row_id*."""
    db.session.execute(update(_TABLES).where(_TABLES.c.code == code).values(locked_at=now, locked_game_id=game_row_id))


def set_next_code(code: str, next_code: str | None, now: datetime) -> bool:
    """Record the table "Play again" opened after locked table *code* (``None``:
    forget it); only if none is recorded yet, unless forgetting.

    :returns: whether it was recorded (``False``: another request recorded one first).
    """
    query = update(_TABLES).where(_TABLES.c.code == code)
    if next_code is not None:
        query = query.where(_TABLES.c.next_code.is_(None)).values(
            next_code=next_code, version=_TABLES.c.version + 1, updated_at=now
        )
    else:
        query = query.values(next_code=None)
    return cast(CursorResult[Any], db.session.execute(query)).rowcount == 1


def locked_game(code: str) -> SavedGame | None:
    """The saved game locked table *code* became (``None``: not locked, or deleted since)."""
    return db.session.scalar(
        select(SavedGame).join(_TABLES, _TABLES.c.locked_game_id == SavedGame.id).where(_TABLES.c.code == code)
    )


def delete_table(code: str) -> None:
    """Remove table *code* with its seats."""
    db.session.execute(delete(_TABLES).where(_TABLES.c.code == code))


def expire_tables(cutoff: datetime) -> int:
    """Remove every unlocked table started at or before *cutoff*, seats and
    drafts with it; locked tables stay (their link shows the sheet).

    :returns: how many tables were removed.
    """
    result = db.session.execute(delete(_TABLES).where(_TABLES.c.locked_at.is_(None), _TABLES.c.created_at <= cutoff))
    db.session.commit()
    return cast(CursorResult[Any], result).rowcount


def _aware(when: datetime) -> datetime:
    """A stored time in UTC (SQLite gives back naive times, stored in UTC; PostgreSQL its own UTC zone)."""
    return when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)
