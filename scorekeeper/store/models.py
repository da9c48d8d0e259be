"""Tables of saved games (SQLAlchemy 2, typed mappings).

``saved_games`` holds the current entry of each game; ``game_revisions``
every entry ever saved, oldest first (corrections keep the earlier ones);
``player_results`` a summary per player for lists and stats, rebuilt from the
entry whenever it changes. Scores are never trusted from storage: sheets are
recomputed from the entry.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, Date, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
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
    # History pages by key (date played, id), newest first: see store.games.history.
    __table_args__ = (Index("ix_saved_games_played_on_id", "played_on", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revision: Mapped[int] = mapped_column(Integer)
    played_on: Mapped[date] = mapped_column(Date)
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
    :ivar players: how many played the game (2 to 4), for win rates by table size.
    :ivar shared_win: in place 1 together with someone else (R7.4).
    """

    __tablename__ = "player_results"
    # One player's games by key (date played, game id): their stats, chart,
    # streak and game list read this index in order (store.stats, store.games.history).
    __table_args__ = (Index("ix_player_results_name_key_played_on", "name_key", "played_on", "game_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("saved_games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(160))
    played_on: Mapped[date] = mapped_column(Date)
    ruleset: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
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
