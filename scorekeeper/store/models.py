"""Tables of saved games (SQLAlchemy 2, typed mappings).

``saved_games`` holds the current entry of each game; ``game_revisions``
every entry ever saved, oldest first (corrections keep the earlier ones);
``player_results`` a summary per player for lists and stats, rebuilt from the
entry whenever it changes. Scores are never trusted from storage: sheets are
recomputed from the entry.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, Date, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import Model


class SavedGame(Model):
    """A saved game: its current entry, its links and its revision counter.

    :ivar public_id: the unguessable id of the read-only link.
    :ivar edit_token_hash: SHA-256 (hex) of the secret of the private edit link.
    :ivar revision: 1 for the first save, +1 per correction; also SQLAlchemy's
        version counter, so a correction based on an older revision fails.
    :ivar entry: the game file object (ruleset, players with name, kingdom, legends).
    """

    __tablename__ = "saved_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revision: Mapped[int] = mapped_column(Integer)
    played_on: Mapped[date] = mapped_column(Date, index=True)
    location: Mapped[str] = mapped_column(String(100), default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    ruleset: Mapped[str] = mapped_column(String(16))
    rules_version: Mapped[str] = mapped_column(String(16))
    entry: Mapped[dict] = mapped_column(JSON)
    winners: Mapped[str] = mapped_column(String(200), default="")

    revisions: Mapped[list[GameRevision]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="GameRevision.number", passive_deletes=True
    )
    results: Mapped[list[PlayerResult]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="PlayerResult.seat", passive_deletes=True
    )

    __mapper_args__ = {"version_id_col": revision}

    @property
    def is_corrected(self) -> bool:
        return self.revision > 1


class GameRevision(Model):
    """One saved entry of a game, as it was saved (the first save is number 1)."""

    __tablename__ = "game_revisions"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("saved_games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    played_on: Mapped[date] = mapped_column(Date)
    location: Mapped[str] = mapped_column(String(100), default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    rules_version: Mapped[str] = mapped_column(String(16))
    entry: Mapped[dict] = mapped_column(JSON)

    game: Mapped[SavedGame] = relationship(back_populates="revisions")


class PlayerResult(Model):
    """One player's line of a saved game, for history and stats (rebuilt on change).

    :ivar name_key: the name trimmed and case-folded, to group a player's games.
    :ivar shared_win: in place 1 together with someone else (R7.4).
    """

    __tablename__ = "player_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("saved_games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(160), index=True)
    played_on: Mapped[date] = mapped_column(Date)
    ruleset: Mapped[str] = mapped_column(String(16))
    place: Mapped[int] = mapped_column(Integer)
    shared_win: Mapped[bool] = mapped_column(default=False)
    total: Mapped[int] = mapped_column(Integer)
    elves: Mapped[int] = mapped_column(Integer)
    dwarves: Mapped[int] = mapped_column(Integer)
    humans: Mapped[int] = mapped_column(Integer)
    goblins: Mapped[int] = mapped_column(Integer)
    dragons: Mapped[int] = mapped_column(Integer)
    legends: Mapped[int] = mapped_column(Integer)
    conflicts: Mapped[int] = mapped_column(Integer)

    game: Mapped[SavedGame] = relationship(back_populates="results")

    @property
    def won(self) -> bool:
        return self.place == 1


class ScoreTable(Model):
    """A shared table: several phones enter one game, one kingdom each (issue "Score together").

    :ivar code: the join code, 6 characters of :data:`~scorekeeper.store.tables.CODE_ALPHABET`.
    :ivar host_token_hash: SHA-256 (hex) of the host's secret.
    :ivar checks_required: every kingdom must be checked by another seat before the lock.
    :ivar version: +1 on every change of the table or a seat; the ETag of its state.
    :ivar locked_at: when the table became a saved game; ``None`` while open.
    :ivar locked_game_id: that saved game (``None`` again if it was deleted later).
    :ivar next_code: the code of the table "Play again" opened from this one.
    """

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(6), unique=True)
    ruleset: Mapped[str] = mapped_column(String(16))
    played_on: Mapped[date] = mapped_column(Date)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    checks_required: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = mapped_column(Integer, default=1)
    locked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    locked_game_id: Mapped[int | None] = mapped_column(
        ForeignKey("saved_games.id", ondelete="SET NULL"), default=None, unique=True
    )
    next_code: Mapped[str | None] = mapped_column(String(6), default=None)

    seats: Mapped[list[TableSeat]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="TableSeat.number", passive_deletes=True
    )


class TableSeat(Model):
    """One player's seat at a :class:`ScoreTable`, with the kingdom entered so far.

    :ivar number: 1..4, in the order the seats were taken (the sheet's order).
    :ivar token_hash: SHA-256 (hex) of the seat's secret (kept by that phone).
    :ivar cells: the draft kingdom, 16 card ids or ``None``, row by row.
    :ivar legends: the claimed Legend ids.
    :ivar checked_by: the number of the seat that checked this kingdom.
    :ivar wrong_cell: the cell (0..15) another seat reported wrong, and
        :ivar wrong_by: that seat's number; cleared when the owner changes the kingdom.
    """

    __tablename__ = "table_seats"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64))
    cells: Mapped[list] = mapped_column(JSON)
    legends: Mapped[list] = mapped_column(JSON)
    done: Mapped[bool] = mapped_column(default=False)
    checked_by: Mapped[int | None] = mapped_column(Integer, default=None)
    wrong_cell: Mapped[int | None] = mapped_column(Integer, default=None)
    wrong_by: Mapped[int | None] = mapped_column(Integer, default=None)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    table: Mapped[ScoreTable] = relationship(back_populates="seats")
