"""Tables of saved games (SQLAlchemy 2, typed mappings).

``saved_games`` holds the current entry of each game; ``game_revisions``
every entry ever saved, oldest first (corrections keep the earlier ones);
``player_results`` a summary per player for lists and stats, rebuilt from the
entry whenever it changes. Scores are never trusted from storage: sheets are
recomputed from the entry.

``groups`` are the people who play together: every game saved from the web
belongs to one, and history, stats and exports show a phone only its groups'
games. ``players`` is a group's roster: one row per person, to which each
result points, so a rename or a merge carries the person's history and stats.

A group's standing (store.standing) is kept beside them: ``kept_standings``
marks a group whose ratings are up to date, ``rating_snapshots`` holds each
player's rating after each game, per season, and ``head_to_head`` who placed
ahead of whom how often; all three are rewritten in the transaction that
saves, corrects or deletes a game.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, Date, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import Model


class Group(Model):
    """The people who play together: their games, their roster, one secret invite link.

    :ivar public_id: the group's id in its page's address (not a secret: the
        page shows only to members).
    :ivar invite_hash: SHA-256 (hex) of the secret of the invite link, or ``""``
        while none has been issued (the group made by the migration to groups).
    :ivar screen_hash: SHA-256 (hex) of the secret of the group's screen link (its
        "tonight" page for a television, without membership), or ``""``: none, or revoked.
    """

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(60))
    invite_hash: Mapped[str] = mapped_column(String(64), default="")
    screen_hash: Mapped[str] = mapped_column(String(64), default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    players: Mapped[list[Player]] = relationship(
        back_populates="group", cascade="all, delete-orphan", order_by="Player.name_key", passive_deletes=True
    )


class Player(Model):
    """A person on a group's roster; every result of theirs in the group points here.

    :ivar name: the name shown for them in history and stats (the latest given
        by a rename); what was typed stays in each game's entry.
    :ivar name_key: :func:`scorekeeper.engine.names.name_key` of *name*: one
        roster entry per key in a group.
    """

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("group_id", "name_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(160))

    group: Mapped[Group] = relationship(back_populates="players")


class SavedGame(Model):
    """A saved game: its current entry, its links and its revision counter.

    :ivar public_id: the unguessable id of the read-only link.
    :ivar edit_token_hash: SHA-256 (hex) of the secret of the private edit link.
    :ivar save_key: the key of the sheet it was saved from (:func:`~.games.sheet_key`,
        64 hex digits), unique in its group: the same sheet saved again into the group
        gives this game, never a second one; another group keeps its own copy (issue 33).
        ``None`` for imported games, games locked at a table, and duplicates saved before the key.
    :ivar revision: 1 for the first save, +1 per correction; also SQLAlchemy's
        version counter, so a correction based on an older revision fails.
    :ivar entry: the game file object (ruleset, players with name, kingdom, legends).
    :ivar group_id: the group it belongs to; ``None`` for a game stored outside
        any group (an import from the command line), which only its links and an
        open history (``OPEN_HISTORY``) show.
    """

    __tablename__ = "saved_games"
    # A group's history, newest first, read straight off one index.
    # History pages by key (date played, id), newest first (store.games.history):
    # a group's, and every game's (an open history).
    __table_args__ = (
        Index("ix_saved_games_group_history", "group_id", "played_on", "created_at", "id"),
        Index("ix_saved_games_group_played_on_id", "group_id", "played_on", "id"),
        Index("ix_saved_games_played_on_id", "played_on", "id"),
        # one game per sheet and group: a double tap, a retry, or another phone of the group
        Index("ix_saved_games_group_save_key", "group_id", "save_key", unique=True),
        # one game per save form: the same form sent twice (its edit secret derived from it), even
        # into a new group each time
        Index("ix_saved_games_edit_token_hash", "edit_token_hash", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    save_key: Mapped[str | None] = mapped_column(String(64), index=True, default=None)
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
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"), default=None)

    group: Mapped[Group | None] = relationship()
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

    :ivar name: the roster name of the player (as typed when outside a group).
    :ivar name_key: :func:`scorekeeper.engine.names.name_key` of *name*.
    :ivar player_id: the roster entry (``None`` for a game outside any group).
    :ivar players: how many played the game (2 to 4), for win rates by table size.
    :ivar shared_win: in place 1 together with someone else (R7.4).
    """

    __tablename__ = "player_results"
    # One player's games by key (date played, game id), their place beside it:
    # their stats, chart, streak and game list read these in order without the
    # table (store.stats, store.games.history); head-to-head reads the others
    # of each game off (game id, name key, place).
    __table_args__ = (
        Index("ix_player_results_name_key_played_on", "name_key", "played_on", "game_id", "place"),
        Index("ix_player_results_player_id_played_on", "player_id", "played_on", "game_id", "place"),
        Index("ix_player_results_game_id_name_key", "game_id", "name_key", "place"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("saved_games.id", ondelete="CASCADE"))
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
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), index=True, default=None
    )

    game: Mapped[SavedGame] = relationship(back_populates="results")
    player: Mapped[Player | None] = relationship()

    @property
    def won(self) -> bool:
        return self.place == 1


class KeptStanding(Model):
    """A group whose standing (:mod:`scorekeeper.store.standing`) is kept: its
    rating snapshots and head-to-head counts hold every saved game (*complete*),
    or, while a group from before the standing is being built, every game up to
    the key (*rated_on*, *rated_id*), built on by each view of its page.

    :ivar built_at: when it was made (the group made, or its first page view).
    """

    __tablename__ = "kept_standings"

    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    built_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    complete: Mapped[bool] = mapped_column(default=True)
    rated_on: Mapped[date | None] = mapped_column(Date, default=None)
    rated_id: Mapped[int | None] = mapped_column(Integer, default=None)


class StandingChange(Model):
    """A change a group's standing has not caught up with yet: from this key
    (*played_on*, *game_id*) on, its snapshots of *season* are to be rated
    again (:mod:`scorekeeper.store.standing`).

    Written in the transaction of the change itself (a save, correction,
    deletion, merge or a shared table's lock), so it is kept exactly when the
    change is; the job that rates the season again deletes it in the
    transaction of its last step. Until then the group's standing says it is
    being brought up to date, and a lost job is found again by the worker's sweep.

    :ivar season: the calendar year, or 0 for all time.
    :ivar game_id: the game's id (the game itself may be gone: a deletion), not a foreign key.
    """

    __tablename__ = "standing_changes"
    __table_args__ = (Index("ix_standing_changes_group", "group_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    season: Mapped[int]
    played_on: Mapped[date]
    game_id: Mapped[int]


class RatingSnapshot(Model):
    """A roster player's OpenSkill rating (Bradley-Terry, store/standing.py) just after one game of
    a group's season, and what their games of that season add up to so far.

    :ivar season: the calendar year of the games counted, or 0 for all time.
    :ivar played_on: the game's date; with *game_id* the key games are rated in
        (History's order). The game and the player are plain ids, not foreign
        keys: the standing rewrites these rows itself whenever a game or a
        roster entry changes (a foreign key would make every deletion scan them).
    :ivar mu: the rating's mean; :ivar sigma: its standard deviation (skill points).
    :ivar games: games of the season up to this one; :ivar wins: of them in
        place 1 alone; :ivar points: the sum of their totals (Harmony Points).
    """

    __tablename__ = "rating_snapshots"
    __table_args__ = (
        # a player's latest rating and path in a season, newest first
        Index("ix_rating_snapshots_player", "group_id", "season", "player_id", "played_on", "game_id"),
        # a season's games from a key onwards (rewritten after a change)
        Index("ix_rating_snapshots_key", "group_id", "season", "played_on", "game_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    # the other column types follow the annotations (Integer, Date), none nullable
    season: Mapped[int]
    game_id: Mapped[int]
    player_id: Mapped[int]
    played_on: Mapped[date]
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int]
    wins: Mapped[int]
    points: Mapped[int]


class HeadToHeadCount(Model):
    """How often one roster player finished ahead of another in a group's season.

    :ivar season: calendar year, or 0 for all time.
    :ivar games: games both played; :ivar ahead: of them, those in which
        *player_id* had the better place (a smaller number, R7); a shared place
        is ahead for neither.
    """

    __tablename__ = "head_to_head"

    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    season: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    other_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    ahead: Mapped[int] = mapped_column(Integer)


class ScoreTable(Model):
    """A shared table: several phones enter one game, one kingdom each (issue "Score together").

    The rows only: the rules are :mod:`scorekeeper.table.model`'s.

    :ivar code: the join code, 6 characters of :data:`~scorekeeper.table.model.CODE_ALPHABET`.
    :ivar host_token_hash: SHA-256 (hex) of the host's secret.
    :ivar checks_required: every kingdom must be checked by another seat before the lock.
    :ivar version: +1 on every change of the table or a seat; the ETag of its state.
    :ivar locked_at: when the table became a saved game; ``None`` while open.
    :ivar locked_game_id: that saved game (``None`` again if it was deleted later).
    :ivar next_code: the code of the table "Play again" opened from this one.
    :ivar move_seat: a request to move a seat to another phone waits: the seat
        (0: the host's role), the SHA-256 of the asking phone's secret, when it asked.
    :ivar host_seen_at: when the host's phone was last seen at the table (``None``: never).
    :ivar group_id: the group the table was started from (its "tonight" page shows it,
        its game goes there at the lock); ``None``: started anywhere else.
    """

    __tablename__ = "tables"
    __table_args__ = (Index("ix_tables_group_created", "group_id", "created_at"),)

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
    move_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    move_asker: Mapped[str | None] = mapped_column(String(64), default=None)
    move_asked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    host_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id", ondelete="SET NULL"), default=None)

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
    :ivar entered_by: the SHA-256 of every secret that changed the kingdom's cards or Legends.
    :ivar seen_at: when the phone holding the seat was last seen at the table (``None``: never).
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
    entered_by: Mapped[list] = mapped_column(JSON, default=list, server_default="[]")
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    table: Mapped[ScoreTable] = relationship(back_populates="seats")


class TableGroupOffer(Model):
    """A group that a phone seated at a shared table offers for the table's game: the
    host may lock the table into it, though the host's phone is not in the group (a
    borrowed phone). Only the host's phone is shown its name (issue 33).

    :ivar holder: SHA-256 (hex) of the offering phone's secret at the table.
    :ivar invite_hash: the group's invite hash when it was offered: a replaced invite
        link (which locks out the phones that joined with the old one) ends the offer.
    """

    __tablename__ = "table_group_offers"
    __table_args__ = (Index("ix_table_group_offers_group", "group_id"),)

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    invite_hash: Mapped[str] = mapped_column(String(64))
    offered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Readiness(Model):
    """One row that ``/readyz`` writes, so that readiness says whether a game can be stored
    (a full disk, a read-only database), not only whether the database answers.

    :ivar checked_at: when ``/readyz`` last wrote it.
    """

    __tablename__ = "readiness"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    checked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
