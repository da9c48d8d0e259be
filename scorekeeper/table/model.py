"""The shared table's rules: seats and roles, what a phone may do, drafts and
how two pages' drafts merge, checks and what a check saw, whether the table
can be locked and why not, a seat moved to another phone, play again.

Plain and typed like the engine: the standard library and the engine only; no
Flask, no database, no clock (whoever asks passes *now*). A :class:`Table` is
a value read from the table's rows; every change is a function from a table
and the :class:`Phone` asking to the table after the change, or a refusal.
:mod:`scorekeeper.table.service` runs each in one transaction and announces it.

A phone proves who it is with the secrets it keeps for the table (a cookie on
the pages, ``Authorization: Bearer`` in the API): 192 random bits each, of
which the table keeps only the SHA-256 (:func:`secret_hash`), compared in
constant time. One secret per phone: the host's phone holds the host's role,
the seat it took, and the seats it added for players without a phone, all
with the same secret.

Refusals are :class:`~scorekeeper.engine.GameError` subclasses with a message
id and parameters, written into sentences by :mod:`scorekeeper.words`:

- :class:`NoSuchTable` (a web answer's 404): ``"table-not-found"``, ``"seat-not-found"``;
- :class:`TableConflict` (409): the table's state refuses the change;
- :class:`NotAllowed` (403): the phone may not do this;
- :class:`NotReady` (409): every reason the table cannot be locked yet;
- :class:`~scorekeeper.engine.GameErrors` (400): input R8 refuses (names, cards, Legends, a cell).

Cells are numbered 0..15 row by row (``row * 4 + column``), as the engine's kingdom.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Literal, NamedTuple

from ..engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Card,
    Game,
    GameError,
    GameErrors,
    InvalidGame,
    InvalidKingdom,
    InvalidPlayerName,
    checked_name,
    claimed_legends,
    rows_of,
)
from ..engine.kingdom import Who, kingdom_errors
from ..lookalikes import lookalike_in

CELLS = 16
#: The join code's characters: capital letters and digits without look-alikes
#: (no 0/O, no 1/I/L), so that a code read aloud or from a screen is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: An unlocked table goes this long after it was started, with its drafts.
EXPIRES_AFTER = timedelta(hours=24)
#: A request to move a seat to another phone waits this long for someone to allow it.
MOVE_EXPIRES_AFTER = timedelta(minutes=10)
#: A phone not seen at the table for this long is gone (:func:`is_gone`): its seat or the host's
#: role may then move without its own "Yes". A page open on a phone says it is there every
#: :data:`HERE_EVERY` and at every change; 2 minutes is four of those missed, far past
#: a reload, a tunnel or a phone put down for a moment, and short beside the wait of a table
#: whose host's phone died (a lock then waits 2 minutes, not for ever).
GONE_AFTER = timedelta(minutes=2)
#: How often a page open on a phone says the phone is there (``static/js/table.js``).
HERE_EVERY = timedelta(seconds=30)
#: A phone's time seen is written again only once it is this old (a phone drafting a card a
#: second writes it once in 20 s, and a page saying it is there every 30 s, every time).
SEEN_EVERY = timedelta(seconds=20)
#: A secret longer than this is no secret of ours (read no further).
SECRET_MAX_LENGTH = 200
#: More Legend ids than this in one draft is no list a page sends.
LEGENDS_MAX = 64

#: A kingdom so far: 16 card ids, or ``None`` for a cell not entered yet, row by row.
Cells = tuple[str | None, ...]
NO_CELLS: Cells = (None,) * CELLS
#: Where a seat is, as its phones and the big screen show it (:attr:`Seat.state`).
SeatState = Literal["wrong", "checked", "done", "entering"]


class NoSuchTable(GameError):
    """No open table has this code (``"table-not-found"``), or it has no such
    seat (``"seat-not-found"``, with ``seat``)."""


class TableConflict(GameError):
    """The table's state refuses the change: locked, full, a name taken, a
    check of a kingdom the phone holds or entered, a kingdom not done, ..."""


class NotAllowed(GameError):
    """The phone asking may not make this change (not the seat's, not the host's)."""


class NotReady(GameErrors):
    """Why the table cannot be locked yet: one :class:`GameError` per reason
    (too few seats; a seat not done, not checked, reported wrong; what R8
    refuses in the game as a whole, such as a Legend claimed twice, R6.1)."""


def secret_hash(secret: str) -> str:
    """The SHA-256 (hex) of a secret: all a table keeps of it."""
    return hashlib.sha256(secret.encode()).hexdigest()


def derived_secret(secret: str, label: str) -> str:
    """A secret derived from another (HMAC-SHA256 of *label* under *secret*):
    unguessable without it, the same every time (the locked game's edit link,
    the invite secret of the group a lock made, from the host's secret)."""
    digest = hmac.new(secret.encode(), label.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def normalise_code(text: object) -> str | None:
    """A typed join code as stored: capitals, without spaces and dashes;
    ``None`` if it cannot be one (wrong length, a character not in :data:`CODE_ALPHABET`)."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = "".join(ch for ch in text if not ch.isspace() and ch not in "-‐‑–—").upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


class Shown(NamedTuple):
    """A kingdom as a page showed it: what a draft's page started from, what a
    check page showed. Legends in no particular order."""

    cells: Cells
    legends: frozenset[str]


class Seat(NamedTuple):
    """One player's seat, as every phone sees it.

    :ivar number: 1..4, in the order the seats were taken (the sheet's order).
    :ivar holder: :func:`secret_hash` of the secret of the phone that holds the seat.
    :ivar cells: the kingdom so far (:data:`Cells`).
    :ivar legends: the claimed Legend ids, in the order claimed.
    :ivar checked_by: the seat that checked this kingdom, or ``None``.
    :ivar wrong_cell: the cell (0..15) seat ``wrong_by`` reported wrong, or ``None``.
    :ivar entered_by: the hashes of every secret that changed this kingdom's
        cards or Legends: no phone checks a kingdom it entered.
    :ivar seen: when the phone holding the seat was last seen at the table (UTC; ``None``:
        never since it was tracked), to within :data:`SEEN_EVERY`.
    """

    number: int
    name: str
    holder: str
    cells: Cells
    legends: tuple[str, ...]
    done: bool
    checked_by: int | None
    wrong_cell: int | None
    wrong_by: int | None
    entered_by: frozenset[str]
    seen: datetime | None = None

    @property
    def is_empty(self) -> bool:
        """Nothing entered: no card, no Legend, not done (a seat a stranger took, a name mistyped)."""
        return not self.done and not self.legends and self.cells == NO_CELLS

    @property
    def cards_entered(self) -> int:
        """How many of the 16 cells hold a card (counted in C: it is read for every
        seat of every push, on every card)."""
        return CELLS - self.cells.count(None)

    @property
    def state(self) -> SeatState:
        """Where the seat is, the first that holds: ``"wrong"`` (another seat reported a
        card wrong, ``wrong_cell``), ``"checked"`` (by seat ``checked_by``), ``"done"``
        (marked done, not checked yet), else ``"entering"``."""
        if self.wrong_cell is not None:
            return "wrong"
        if self.checked_by is not None:
            return "checked"
        return "done" if self.done else "entering"

    @property
    def shown(self) -> Shown:
        """This kingdom as a page shows it."""
        return Shown(self.cells, frozenset(self.legends))

    @property
    def cards(self) -> tuple[Card | None, ...]:
        """The kingdom so far as cards, row by row (``None``: no card yet)."""
        return tuple(Card(cell) if cell else None for cell in self.cells)

    @property
    def rows(self) -> list[list[str | None]]:
        """The kingdom as 4 rows of 4 (the game file's shape)."""
        return rows_of(self.cells)

    def who(self) -> Who:
        """Whom a refusal about this seat concerns (0-based ``player``, as the engine's)."""
        return {"player": self.number - 1, "player_name": self.name}


class MoveRequest(NamedTuple):
    """A phone asks to take a seat (its own phone gone), or the host's role.

    :ivar seat: the seat's number, or ``None`` for the host's role alone.
    :ivar asker: :func:`secret_hash` of the asking phone's secret.
    """

    seat: int | None
    asker: str
    asked_at: datetime


class Table(NamedTuple):
    """A shared table as read from its rows.

    :ivar version: +1 per change: equal versions are equal tables (the ETag of
        every answer about it, the order of its announcements).
    :ivar host: :func:`secret_hash` of the host's secret.
    :ivar game_id: the saved game's public id once locked (``None`` before, or
        if the game was deleted since).
    :ivar next_code: the table "Play again" opened from this one, if any.
    :ivar move: a request to move a seat to another phone, waiting to be allowed.
    :ivar host_seen: when the host's phone was last seen at the table (as :attr:`Seat.seen`).
    :ivar group_id: the group the table was started from (its game goes there at the
        lock, its changes are told to the group's "tonight" page); ``None``: none.
    """

    code: str
    ruleset: str
    played_on: date
    checks_required: bool
    version: int
    host: str
    created_at: datetime
    locked: bool
    game_id: str | None
    next_code: str | None
    move: MoveRequest | None
    seats: tuple[Seat, ...]
    host_seen: datetime | None = None
    group_id: int | None = None

    def seat(self, number: int) -> Seat:
        """Seat *number*. :raises NoSuchTable: ``"seat-not-found"``."""
        for seat in self.seats:
            if seat.number == number:
                return seat
        raise NoSuchTable("seat-not-found", seat=number)

    def has_seat(self, number: int) -> bool:
        return any(seat.number == number for seat in self.seats)

    @property
    def expires_at(self) -> datetime:
        """When an unlocked table and its drafts go."""
        return self.created_at + EXPIRES_AFTER

    def is_expired(self, now: datetime) -> bool:
        """Left unlocked for longer than :data:`EXPIRES_AFTER`."""
        return not self.locked and self.expires_at <= now

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= MAX_PLAYERS

    @property
    def is_all_done(self) -> bool:
        """Two seats or more, every one marked done: all the table's cards are known
        (the deck's counts are said, R1)."""
        return len(self.seats) > 1 and all(seat.done for seat in self.seats)

    @property
    def host_seat(self) -> Seat | None:
        """The host's own seat: the first seat held by the host's secret."""
        return next((seat for seat in self.seats if seat.holder == self.host), None)

    def legend_clashes(self, seat: Seat) -> dict[str, tuple[int, ...]]:
        """Each Legend *seat* claims that other seats claim too (R6.1), with
        those seats' numbers: shown to every phone before the end."""
        return {
            legend: others
            for legend in seat.legends
            if (others := tuple(s.number for s in self.seats if s.number != seat.number and legend in s.legends))
        }

    def pending_move(self, now: datetime) -> MoveRequest | None:
        """The request to move a seat, unless it has waited longer than :data:`MOVE_EXPIRES_AFTER`."""
        if self.move is None or self.move.asked_at + MOVE_EXPIRES_AFTER <= now:
            return None
        return self.move


class Phone(NamedTuple):
    """Who a phone is at one table, from the secrets it keeps for it (mostly one).

    :ivar secrets: the phone's secrets that hold something at this table, in the order kept.
    :ivar host_secret: the one of them that is the host's, or ``None``.
    :ivar seat_secrets: each seat the phone holds, with the secret that holds it.
    """

    secrets: tuple[str, ...]
    host_secret: str | None
    seat_secrets: tuple[tuple[int, str], ...]

    @property
    def host(self) -> bool:
        return self.host_secret is not None

    @property
    def seats(self) -> frozenset[int]:
        return frozenset(number for number, _ in self.seat_secrets)

    @property
    def hashes(self) -> frozenset[str]:
        return frozenset(secret_hash(secret) for secret in self.secrets)

    @property
    def is_anyone(self) -> bool:
        """Holds the host's role or a seat."""
        return bool(self.secrets)

    @property
    def secret(self) -> str | None:
        """The phone's secret: what a seat it takes is held by (``None``: it has none yet)."""
        return self.host_secret or (self.secrets[0] if self.secrets else None)

    def holds(self, number: int) -> bool:
        return any(seat == number for seat, _ in self.seat_secrets)

    def may_enter(self, number: int) -> bool:
        """Only a seat's own phone or the host's change a seat."""
        return self.host or self.holds(number)

    def secret_for(self, number: int) -> str | None:
        """The secret that may change seat *number*: its own, else the host's."""
        return next((secret for seat, secret in self.seat_secrets if seat == number), self.host_secret)

    @property
    def checker(self) -> int | None:
        """The seat this phone checks as: its first."""
        return min(self.seats) if self.seat_secrets else None


NOBODY = Phone((), None, ())


def identify(table: Table, secrets: Iterable[str | None]) -> Phone:
    """Whom *secrets* (a phone's, in the order kept) hold at *table*: the host's
    role and/or seats, each compared in constant time. Secrets that hold
    nothing here are left out; :data:`NOBODY` if none does."""
    kept: list[str] = []
    host_secret: str | None = None
    seats: dict[int, str] = {}
    for secret in secrets:
        if not secret or len(secret) > SECRET_MAX_LENGTH or secret in kept:
            continue
        hashed = secret_hash(secret)
        is_host = hmac.compare_digest(table.host, hashed)
        held = [seat.number for seat in table.seats if hmac.compare_digest(seat.holder, hashed)]
        if is_host or held:
            kept.append(secret)
            host_secret = host_secret or (secret if is_host else None)
            for number in held:
                seats.setdefault(number, secret)
    if not kept:
        return NOBODY
    return Phone(tuple(kept), host_secret, tuple(sorted(seats.items())))


# -- reading drafts (a page's JSON, the API's, the form without JavaScript: one shape)


class Draft(NamedTuple):
    """A page's change to one seat: any of its kingdom so far, its Legends,
    whether it is done, and what the page started from (``None`` for what is left as it is).

    :ivar base: the kingdom as the page showed it before these changes: only
        what differs from it is written (:func:`merged`).
    """

    cells: Cells | None = None
    legends: tuple[str, ...] | None = None
    done: bool | None = None
    base: Shown | None = None


def read_cells(cells: object, who: Who) -> Cells:
    """A kingdom so far from user input: 16 cells row by row, or 4 rows of 4,
    each a card id, or ``None``/``""`` for not entered yet.

    :raises GameErrors: the shape (a list of cells not 16 long: ``"kingdom-size"``) and each
        cell that is not a card id (R8), carrying *who*.
    """
    if isinstance(cells, list) and not any(isinstance(x, list) for x in cells):  # cells, row by row
        if len(cells) != CELLS:  # "16 cards, not 15", never "4 rows, not 15"
            raise GameErrors([InvalidKingdom("kingdom-size", count=len(cells), **who)])
        cells = rows_of(cells)
    problems: list[GameError] = [e for e in kingdom_errors(cells, **who) if e.message_id != "card-missing"]
    if problems:
        raise GameErrors(problems)
    assert isinstance(cells, (list, tuple))
    return tuple(cell if isinstance(cell, str) and cell else None for row in cells for cell in row)


def read_legends(legends: object, who: Who) -> tuple[str, ...]:
    """Claimed Legend ids from user input (R6, R8), each at most once.

    :raises GameErrors: as :func:`~scorekeeper.engine.claimed_legends` refuses them.
    """
    if legends is None or (isinstance(legends, list) and len(legends) > LEGENDS_MAX):
        raise GameErrors([InvalidGame("legends-not-list", **who)])
    ids, problems, _ = claimed_legends(legends, who)
    if problems:
        raise GameErrors(problems)
    return tuple(ids)


def read_shown(shown: object, who: Who) -> Shown:
    """A kingdom as a page showed it, sent as ``{"kingdom": …, "legends": […]}``
    (the kingdom as :func:`read_cells` reads it).

    :raises GameErrors: ``"shown-not-object"``, or as :func:`read_cells` and :func:`read_legends`.
    """
    if not isinstance(shown, Mapping):
        raise GameErrors([InvalidGame("shown-not-object", **who)])
    return Shown(read_cells(shown.get("kingdom"), who), frozenset(read_legends(shown.get("legends", []), who)))


def read_draft(body: Mapping[str, object], who: Who) -> Draft:
    """A draft as pages and API clients send it: ``{"kingdom": 16 cells or 4 × 4,
    "legends": [ids], "done": bool, "base": {"kingdom", "legends"}}``, each optional.

    :raises GameErrors: for every field R8 refuses (``"done-not-boolean"`` among them).
    """
    done = body.get("done")
    if done is not None and not isinstance(done, bool):
        raise GameErrors([InvalidGame("done-not-boolean", **who)])
    kingdom, legends, base = body.get("kingdom"), body.get("legends"), body.get("base")
    return Draft(
        cells=None if kingdom is None else read_cells(kingdom, who),
        legends=None if legends is None else read_legends(legends, who),
        done=done,
        base=None if base is None else read_shown(base, who),
    )


def merged(stored: Shown, base: Shown, mine: Shown) -> Shown:
    """What a seat holds after a page's changes: each cell *mine* where it
    differs from *base* (what the page started from), else what is *stored*
    now (another page's changes kept; a cell both changed takes *mine*, the
    later). Legends likewise: those stored now, less the ones *mine* dropped
    since *base*, with the ones it added."""
    cells = tuple(
        new if new != old else now for now, old, new in zip(stored.cells, base.cells, mine.cells, strict=True)
    )
    legends = (stored.legends - (base.legends - mine.legends)) | (mine.legends - base.legends)
    return Shown(cells, legends)


def _in_order(legends: frozenset[str], before: Sequence[str], after: Sequence[str]) -> tuple[str, ...]:
    """*legends* in the order claimed: those of *before* first, then those of *after*."""
    ordered = [legend for legend in before if legend in legends]
    ordered += [legend for legend in after if legend in legends and legend not in ordered]
    ordered += sorted(legends - set(ordered))
    return tuple(ordered)


# -- changes: each a table and the phone asking in, the table after the change out


def _open(table: Table) -> None:
    if table.locked:
        raise TableConflict("table-locked")


def _with_seat(table: Table, seat: Seat) -> Table:
    return table._replace(seats=tuple(seat if s.number == seat.number else s for s in table.seats))


def take_seat(table: Table, name: object, holder: str, phone: Phone) -> tuple[Table, Seat]:
    """The next seat, under *name*, held by the secret whose hash is *holder*
    (the phone's own if it has one: one secret per phone). The name is checked
    at once by R8 against the names seated (empty, 40 characters, control
    characters, the same name in another case or Unicode form). A phone
    holding a seat takes no other, but the host's adds seats for players
    without a phone (held by the host's secret).

    :raises GameErrors: for a name R8 refuses (other than taken).
    :raises TableConflict: ``"name-taken"`` (``other``: the seated name),
        ``"name-looks-alike"`` (``other``: the seated name it is drawn as,
        with a letter of another script: :mod:`scorekeeper.lookalikes`),
        ``"table-full"`` (``most``: 4 seats, R8), ``"seat-already-held"``
        (``seat``), ``"table-locked"``.
    """
    _open(table)
    try:
        shown = checked_name(name, [seat.name for seat in table.seats])
    except InvalidPlayerName as error:
        if error.message_id == "name-taken":
            raise TableConflict("name-taken", player_name=error.player_name, other=error.params["other"]) from None
        raise GameErrors([error]) from None
    other = lookalike_in(shown, [seat.name for seat in table.seats])
    if other is not None:
        raise TableConflict("name-looks-alike", player_name=shown, other=other)
    if table.is_full:
        raise TableConflict("table-full", most=MAX_PLAYERS)
    if phone.seats and not phone.host:
        raise TableConflict("seat-already-held", seat=min(phone.seats))
    number = max((seat.number for seat in table.seats), default=0) + 1
    seat = Seat(number, shown, holder, NO_CELLS, (), False, None, None, None, frozenset())
    return table._replace(seats=(*table.seats, seat)), seat


def save_draft(table: Table, number: int, phone: Phone, draft: Draft) -> Table:
    """Seat *number* after *draft*, by its own phone or the host's.

    With a base, only what differs from it is written (:func:`merged`), so that
    two pages changing one seat (the player's phone and the host's, two tabs)
    keep each other's changes. A changed kingdom or Legends clears the seat's
    check (it was of what was there before) and records the phone as one that
    entered it; a "something is wrong" report goes when the card it names is
    changed, or when the seat is marked done again (looked at again), not with
    other changes (made, say, before its owner saw it). Marking it done needs
    all 16 cards; marking it not done clears the check.

    :raises NoSuchTable: ``"seat-not-found"``. :raises NotAllowed: ``"seat-not-yours"``.
    :raises TableConflict: ``"table-locked"``.
    :raises GameErrors: ``"kingdom-not-complete"`` (``count``) when marked done too early.
    """
    _open(table)
    seat = table.seat(number)
    if not phone.may_enter(number):
        raise NotAllowed("seat-not-yours", seat=number)
    cells = seat.cells if draft.cells is None else draft.cells
    legends = frozenset(seat.legends if draft.legends is None else draft.legends)
    if draft.base is not None:
        mine = Shown(cells, legends)
        cells, legends = merged(seat.shown, draft.base, mine)
    claimed = _in_order(legends, seat.legends, draft.legends or ())
    changed = cells != seat.cells or claimed != seat.legends
    if changed:
        wrong_kept = seat.wrong_cell is not None and cells[seat.wrong_cell] == seat.cells[seat.wrong_cell]
        seat = seat._replace(
            cells=cells,
            legends=claimed,
            checked_by=None,
            wrong_cell=seat.wrong_cell if wrong_kept else None,
            wrong_by=seat.wrong_by if wrong_kept else None,
            entered_by=seat.entered_by | phone.hashes,
        )
    if seat.done and seat.cards_entered < CELLS:  # a card taken away: no longer done
        seat = seat._replace(done=False, checked_by=None)
    if draft.done is not None and draft.done != seat.done:
        if draft.done:
            if seat.cards_entered < CELLS:
                raise GameErrors([GameError("kingdom-not-complete", count=seat.cards_entered, **seat.who())])
            seat = seat._replace(done=True, wrong_cell=None, wrong_by=None)
        else:
            seat = seat._replace(done=False, checked_by=None)
    return _with_seat(table, seat)


def check_refusal(table: Table, number: int, phone: Phone, seen: Shown | None) -> GameError | None:
    """Why *phone* may not check seat *number* now, or ``None``: only a phone
    seated at the table checks a kingdom, never one it holds or entered, only
    once it is done, and only as the checker's page showed it (*seen*: a
    kingdom changed since is not checked unseen; ``None``: asking before
    showing it, the check page's first look)."""
    seat = table.seat(number)
    why = _why_no_check(table, seat, phone.seats, phone.hashes, seen)
    if why is None:
        return None
    kind, message_id = why
    return kind(message_id) if message_id in ("table-locked", "check-needs-seat") else kind(message_id, **seat.who())


def _why_no_check(
    table: Table, seat: Seat, seats: frozenset[int], hashes: frozenset[str], seen: Shown | None
) -> tuple[type[GameError], str] | None:
    """:func:`check_refusal`'s refusal, its kind and message id, for the phone holding
    *seats* with the secrets hashed *hashes* (asked for each phone at every announcement:
    no error made for it)."""
    if table.locked:
        return TableConflict, "table-locked"
    if not seats:
        return NotAllowed, "check-needs-seat"
    if seat.number in seats:
        return TableConflict, "check-own-seat"
    if hashes & seat.entered_by:
        return TableConflict, "check-entered"
    if not seat.done:
        return TableConflict, "check-not-done"
    if seen is not None and seen != seat.shown:
        return TableConflict, "check-kingdom-changed"
    return None


def read_seen(table: Table, number: int, phone: Phone, sent: object) -> Shown:
    """Seat *number*'s kingdom as *phone*'s check page showed it, as the page or an API client
    sent it (``"seen"``: :func:`read_shown`), once *phone* may check the seat at all: a
    refusal for who asks comes before one for what it sent.

    :raises NoSuchTable, NotAllowed, TableConflict: as :func:`check_refusal` says.
    :raises GameErrors: as :func:`read_shown` says.
    """
    refusal = check_refusal(table, number, phone, None)
    if refusal is not None:
        raise refusal
    return read_shown(sent, table.seat(number).who())


def check(table: Table, number: int, phone: Phone, seen: Shown) -> Table:
    """Seat *number*'s kingdom, checked against the cards on the table by
    *phone*'s seat, as its page showed it (*seen*).

    :raises NoSuchTable, NotAllowed, TableConflict: as :func:`check_refusal` says.
    """
    refusal = check_refusal(table, number, phone, seen)
    if refusal is not None:
        raise refusal
    return _with_seat(table, table.seat(number)._replace(checked_by=phone.checker, wrong_cell=None, wrong_by=None))


def report_wrong(table: Table, number: int, phone: Phone, cell: object, seen: Shown) -> Table:
    """Another seat reports "something is wrong" at *cell* (0..15) of seat
    *number*'s kingdom as its page showed it: the owner's phone shows it; the
    seat is no longer done or checked until its owner marks it done again.

    :raises GameErrors: ``"cell-invalid"`` for a cell outside 0..15.
    :raises NoSuchTable, NotAllowed, TableConflict: as :func:`check_refusal` says.
    """
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < CELLS:
        raise GameErrors([GameError("cell-invalid", most=CELLS - 1)])
    refusal = check_refusal(table, number, phone, seen)
    if refusal is not None:
        raise refusal
    seat = table.seat(number)._replace(done=False, checked_by=None, wrong_cell=cell, wrong_by=phone.checker)
    return _with_seat(table, seat)


def set_checks(table: Table, phone: Phone, required: bool) -> Table:
    """The host switches the check by another player on or off.

    :raises NotAllowed: ``"host-only"``. :raises TableConflict: ``"table-locked"``.
    """
    _open(table)
    if not phone.host:
        raise NotAllowed("host-only")
    return table._replace(checks_required=required)


# -- locking


def lock_refusals(table: Table) -> list[GameError]:
    """Every reason *table* cannot be locked yet, in seat order (none: it can):
    2 to 4 seats (R8), every seat done with no wrong cell reported, each
    checked by another seat when the table asks for checks."""
    reasons: list[GameError] = []
    if not MIN_PLAYERS <= len(table.seats) <= MAX_PLAYERS:
        reasons.append(GameError("player-count", count=len(table.seats), least=MIN_PLAYERS, most=MAX_PLAYERS))
    for seat in table.seats:
        if seat.wrong_cell is not None:
            reasons.append(GameError("lock-wrong-cell", cell=seat.wrong_cell, **seat.who()))
        elif not seat.done:
            reasons.append(GameError("lock-not-done", **seat.who()))
        elif table.checks_required and seat.checked_by is None:
            reasons.append(GameError("lock-not-checked", **seat.who()))
    return reasons


def game_to_lock(table: Table, phone: Phone) -> Game:
    """The game *table* locks into, asked by the host's phone (R8: the game as a
    whole must be one the engine accepts; a Legend claimed by two seats is refused, R6.1).

    :raises NotAllowed: ``"host-only"``. :raises TableConflict: ``"table-locked"``.
    :raises NotReady: every reason it cannot be locked yet.
    """
    _open(table)
    if not phone.host:
        raise NotAllowed("host-only")
    reasons = lock_refusals(table)
    if reasons:
        raise NotReady(reasons)
    try:
        return Game.from_dict(
            {
                "ruleset": table.ruleset,
                "players": [
                    {"name": seat.name, "kingdom": seat.rows, "legends": list(seat.legends)} for seat in table.seats
                ],
            }
        )
    except GameErrors as problems:
        raise NotReady(list(problems.errors)) from None


def play_again_seats(table: Table, phone: Phone) -> tuple[Seat, ...]:
    """The seats of the table "Play again" opens after *table*: the same numbers,
    names and holders (each phone takes its seat back with one tap), nothing entered.

    :raises NotAllowed: ``"host-only"``. :raises TableConflict: ``"table-not-locked"``.
    """
    if not phone.host:
        raise NotAllowed("host-only")
    if not table.locked:
        raise TableConflict("table-not-locked")
    return tuple(
        Seat(seat.number, seat.name, seat.holder, NO_CELLS, (), False, None, None, None, frozenset(), seat.seen)
        for seat in table.seats
    )


# -- phones seen at the table, and a seat moved to another phone (its own phone gone)
#
# The rule (docs/score-together.md, "When a phone drops, or the host's phone is gone"): a seat, or
# the host's role, moves to another phone with the "Yes" of the phone holding it while that phone
# is there (seen within GONE_AFTER); once it is gone, with the "Yes" of any other phone at the
# table that is there, never the asking one; and when the asking phone holds a seat here and no
# other phone is there, by itself. So a second phone of a seated player cannot take the host's seat
# while the host's phone is on the table, the last player's phone at a table never waits for an
# answer nobody can give, and a phone with no seat (a passer-by who read the code off the big
# screen) never takes anything without a seated phone's "Yes".


def last_seen(table: Table, holder: str) -> datetime | None:
    """When the phone whose secret hashes to *holder* was last seen at *table*: the latest of
    its seats' :attr:`Seat.seen` and, for the host's, :attr:`Table.host_seen` (``None``: never)."""
    times = [seat.seen for seat in table.seats if seat.holder == holder and seat.seen is not None]
    if holder == table.host and table.host_seen is not None:
        times.append(table.host_seen)
    return max(times, default=None)


def is_gone(table: Table, holder: str, now: datetime) -> bool:
    """Whether the phone whose secret hashes to *holder* has not been seen at *table* for
    :data:`GONE_AFTER` at *now* (or never)."""
    seen = last_seen(table, holder)
    return seen is None or now - seen >= GONE_AFTER


def seen_by(table: Table, hashes: Iterable[str], now: datetime) -> Table:
    """*table* with the phone keeping the secrets hashed *hashes* seen at *now*: its seats'
    :attr:`Seat.seen` and, for the host's, :attr:`Table.host_seen`, each only when older than
    :data:`SEEN_EVERY` (*table* itself when none is: nothing to write)."""
    phone = frozenset(hashes)

    def stale(seen: datetime | None) -> bool:
        return seen is None or now - seen >= SEEN_EVERY

    seats = tuple(
        seat._replace(seen=now) if seat.holder in phone and stale(seat.seen) else seat for seat in table.seats
    )
    host_seen = now if table.host in phone and stale(table.host_seen) else table.host_seen
    if seats == table.seats and host_seen == table.host_seen:
        return table
    return table._replace(seats=seats, host_seen=host_seen)


def _held_by(table: Table, move: MoveRequest) -> str:
    """The hash of the phone holding what *move* asks for (the seat's, or the host's)."""
    return table.host if move.seat is None else table.seat(move.seat).holder


def move_answerers(table: Table, move: MoveRequest, now: datetime) -> frozenset[str]:
    """The hashes of the phones that may allow or refuse *move* at *now*: the phone holding
    what it asks for, while it is there (not :func:`is_gone`); once that phone is gone, every
    other phone at the table that is there, never the asking one (none: :func:`is_move_due`)."""
    holder = _held_by(table, move)
    if not is_gone(table, holder, now):
        return frozenset((holder,))
    phones = {table.host} | {seat.holder for seat in table.seats}
    return frozenset(p for p in phones if p not in (holder, move.asker) and not is_gone(table, p, now))


def is_move_due(table: Table, now: datetime) -> bool:
    """Whether the request waiting at *now* moves by itself: asked by a phone holding a seat
    here, the phone holding what it asks for gone, and so every other phone that could answer
    it (the last phone at a two-phone table whose host's phone died, say). A phone holding no
    seat here always waits for a seated phone's "Yes"."""
    move = waiting_move(table, now)
    if move is None or not any(seat.holder == move.asker for seat in table.seats):
        return False
    return not move_answerers(table, move, now)


def ask_to_move(table: Table, seat: int | None, asker: str, now: datetime) -> Table:
    """A phone (whose secret's hash is *asker*) asks to take seat *seat*, or
    the host's role (*seat* ``None``), because the phone that held it is gone.
    A phone of :func:`move_answerers` allows it (:func:`answer_move`); when there is
    none (:func:`is_move_due`), it moves at once. A newer request replaces an older one.

    :raises NoSuchTable: ``"seat-not-found"``. :raises TableConflict: ``"table-locked"``,
        ``"move-already-yours"``.
    """
    _open(table)
    holder = table.host if seat is None else table.seat(seat).holder
    if hmac.compare_digest(holder, asker):
        raise TableConflict("move-already-yours")
    return settled(table._replace(move=MoveRequest(seat, asker, now)), now)


def settled(table: Table, now: datetime) -> Table:
    """*table* with its waiting request moved if it is due at *now* (:func:`is_move_due`),
    else *table* itself."""
    if not is_move_due(table, now):
        return table
    assert table.move is not None
    return _moved(table._replace(move=None), table.move)


def answer_move(table: Table, phone: Phone, allow: bool, now: datetime) -> Table:
    """A phone of :func:`move_answerers` allows or refuses the waiting request. Allowed,
    the asking phone holds the seat from now on, and the phone that held it before no
    longer does. The host's own seat moves with everything the host's phone held (its
    role, its seat, the seats it added for players without a phone: no phone then
    checks a kingdom it entered on the phone it lost); the host's role alone
    moves alone, and so does any other seat (a seat the host added, to its
    player's own phone).

    :raises TableConflict: ``"move-none"`` (no request waits, or it expired), ``"table-locked"``.
    :raises NotAllowed: ``"move-not-yours"`` (not a phone that may answer it now).
    """
    _open(table)
    move = table.pending_move(now)
    if move is None:
        raise TableConflict("move-none")
    if not can_answer_move(table, phone, now):
        raise NotAllowed("move-not-yours")
    table = table._replace(move=None)
    return _moved(table, move) if allow else table


def _moved(table: Table, move: MoveRequest) -> Table:
    """*table* with what *move* asks for held by its asker, seen when it asked (not as the
    phone gone was: it would look gone at once)."""
    if move.seat is None:
        return table._replace(host=move.asker, host_seen=move.asked_at)
    host_seat = table.host_seat
    if host_seat is not None and host_seat.number == move.seat:
        # the host's own phone is gone: everything it held moves (its role, its seat, the seats it added)
        gone = table.host
        seats = tuple(s._replace(holder=move.asker, seen=move.asked_at) if s.holder == gone else s for s in table.seats)
        return table._replace(host=move.asker, host_seen=move.asked_at, seats=seats)
    return _with_seat(table, table.seat(move.seat)._replace(holder=move.asker, seen=move.asked_at))


# -- a seat removed


def remove_seat(table: Table, number: int, phone: Phone) -> Table:
    """*table* without seat *number*, removed by the host: a seat with nothing entered
    (:attr:`Seat.is_empty`: a stranger who took a seat, a name mistyped), not the host's own.
    The checks and reports its phone made of other kingdoms go with it, and a request to
    take it. The other seats keep their numbers (pages open on them keep their addresses).

    :raises NotAllowed: ``"host-only"``. :raises NoSuchTable: ``"seat-not-found"``.
    :raises TableConflict: ``"table-locked"``, ``"seat-remove-own"`` (the host's own seat),
        ``"seat-remove-entered"`` (something is entered).
    """
    _open(table)
    if not phone.host:
        raise NotAllowed("host-only")
    seat = table.seat(number)
    if table.host_seat == seat:
        raise TableConflict("seat-remove-own", **seat.who())
    if not seat.is_empty:
        raise TableConflict("seat-remove-entered", **seat.who())
    seats = tuple(
        s._replace(
            checked_by=None if s.checked_by == number else s.checked_by,
            wrong_cell=None if s.wrong_by == number else s.wrong_cell,
            wrong_by=None if s.wrong_by == number else s.wrong_by,
        )
        for s in table.seats
        if s.number != number
    )
    move = None if table.move is not None and table.move.seat == number else table.move
    return table._replace(seats=seats, move=move)


# -- what a phone may do now, as its pages offer it (each change checks it again)


def can_take_seat(table: Table, phone: Phone) -> bool:
    """Whether *phone* may take a seat now (:func:`take_seat`): the table open with a
    seat free (R8: 4 at most), and the phone holding none yet, or the host's (a seat
    for a player without a phone). :data:`NOBODY`: whether a new phone may join."""
    return not table.locked and not table.is_full and (not phone.seats or phone.host)


def can_enter(table: Table, phone: Phone, number: int) -> bool:
    """Whether *phone* may change seat *number*'s kingdom now (:func:`save_draft`): its
    own phone or the host's, before the lock."""
    return not table.locked and phone.may_enter(number)


def can_check(table: Table, phone: Phone, number: int) -> bool:
    """Whether *phone* may check seat *number*'s kingdom now: :func:`check_refusal` has
    no refusal (asked before showing it).

    :raises NoSuchTable: ``"seat-not-found"``."""
    return _why_no_check(table, table.seat(number), phone.seats, phone.hashes, None) is None


def movable_seats(table: Table, phone: Phone) -> tuple[Seat, ...]:
    """The seats *phone* may ask to take, its own phone gone (:func:`ask_to_move`):
    those it does not hold (a new phone of the host's: the host's own seat, or the
    host's role alone); none once locked."""
    return () if table.locked else tuple(seat for seat in table.seats if not phone.holds(seat.number))


def waiting_move(table: Table, now: datetime) -> MoveRequest | None:
    """The request to move a seat waiting for an answer at *now* (:meth:`Table.pending_move`),
    ``None`` once locked."""
    return None if table.locked else table.pending_move(now)


def is_move_asked_by(table: Table, kept: Iterable[str], now: datetime) -> bool:
    """Whether the request waiting at *now* was asked by the phone keeping the secrets
    hashed *kept* (:func:`secret_hash`: every secret it keeps for the table, one that
    holds nothing yet too, as the asker's may)."""
    move = waiting_move(table, now)
    return move is not None and move.asker in frozenset(kept)


def can_answer_move(table: Table, phone: Phone, now: datetime, kept: Iterable[str] = ()) -> bool:
    """Whether *phone* may allow or refuse the request waiting at *now* (:func:`answer_move`):
    one of :func:`move_answerers`, not the one asking (*kept*: the hashes of every secret
    the phone keeps for the table, as :func:`is_move_asked_by`)."""
    move = waiting_move(table, now)
    if move is None or not phone.is_anyone or move.asker in phone.hashes | frozenset(kept):
        return False
    return bool(phone.hashes & move_answerers(table, move, now))


def is_removable(table: Table, seat: Seat) -> bool:
    """Whether the host may remove *seat* now (:func:`remove_seat`): the table open, nothing
    entered in the seat, and not the host's own."""
    return not table.locked and seat.is_empty and seat != table.host_seat


def can_remove_seat(table: Table, phone: Phone, number: int) -> bool:
    """Whether *phone* may remove seat *number* now (:func:`remove_seat`): the host's, and
    the seat :func:`is_removable`."""
    seat = next((s for s in table.seats if s.number == number), None)
    return phone.host and seat is not None and is_removable(table, seat)


def can_add_game_group(table: Table, phone: Phone) -> bool:
    """Whether *phone* may add the locked game's group to itself (a table pass, not the
    group's invite secret): a phone seated at the locked table, or the host's."""
    return table.locked and phone.is_anyone


def can_offer_group(table: Table, phone: Phone) -> bool:
    """Whether *phone* may offer one of its groups for the game of the open *table*, for
    the host to lock it into (issue 33): a phone seated at it, or the host's."""
    return not table.locked and phone.is_anyone


# -- what the table is waiting for


class Waiting(NamedTuple):
    """One thing the table waits for before it is locked, for every phone to read.

    :ivar what: ``"players"`` (fewer than 2 seats), ``"entering"`` (a kingdom
        not complete: ``seat``), ``"done"`` (all 16 cards there, not marked
        done yet: ``seat``), ``"fixing"`` (a card reported wrong: ``seat``),
        ``"legend"`` (a Legend two seats claim: ``seat``), ``"checking"`` (a
        kingdom not checked: ``seat``), ``"move"`` (a request to move ``seat``,
        ``None`` for the host's role, to be allowed), ``"lock"`` (the host's lock).
    """

    what: str
    seat: int | None = None


def waiting_for(table: Table, now: datetime) -> tuple[Waiting, ...]:
    """What *table* waits for, in the order it is needed (nothing once locked)."""
    if table.locked:
        return ()
    waits: list[Waiting] = []
    move = table.pending_move(now)
    if move is not None:
        waits.append(Waiting("move", move.seat))
    if len(table.seats) < MIN_PLAYERS:
        waits.append(Waiting("players"))
    waits += [Waiting("fixing", s.number) for s in table.seats if s.wrong_cell is not None]
    for s in table.seats:
        if not s.done and s.wrong_cell is None:
            waits.append(Waiting("done" if s.cards_entered == CELLS else "entering", s.number))
    waits += [Waiting("legend", s.number) for s in table.seats if table.legend_clashes(s)]
    if table.checks_required:
        waits += [Waiting("checking", s.number) for s in table.seats if s.done and s.checked_by is None]
    if len(waits) == (move is not None) and len(table.seats) >= MIN_PLAYERS:
        waits.append(Waiting("lock"))
    return tuple(waits)


def look(table: Table, now: datetime | None = None) -> str:
    """What the table's pages show but the card counts and the times seen, as a short digest:
    two versions of a table with the same look differ only in the cards entered
    (a page then updates its counts; another look, the page's live part anew), not in
    whether a seat has any (an empty seat may be removed).
    The cards count too once every seat is done (deck warnings, R1); at *now*, which
    phones are gone and who may answer a waiting move (what a page offers changes with them)."""
    all_done = table.is_all_done
    move = waiting_move(table, now) if now is not None else None
    parts = [
        None
        if now is None
        else (
            [is_gone(table, holder, now) for holder in (table.host, *(s.holder for s in table.seats))],
            None if move is None else sorted(move_answerers(table, move, now)),
        ),
        table.checks_required,
        table.locked,
        table.next_code,
        None if table.move is None else (table.move.seat, table.move.asker, table.move.asked_at.timestamp()),
        table.host,
        [
            (s.number, s.name, s.holder, s.done, s.checked_by, s.wrong_cell, s.wrong_by, sorted(s.legends), s.is_empty)
            + ((s.cells,) if all_done else ())
            for s in table.seats
        ],
    ]
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


# -- what a page draws from an announcement, no secret's hash in it


@functools.lru_cache(maxsize=4096)  # each phone's, at every announcement of its table
def phone_tag(code: str, holder: str) -> str:
    """The tag of the phone whose secret hashes to *holder* (:func:`secret_hash`) at
    table *code*: 12 hex digits (BLAKE2b, keyed with the code) that name the phone
    on every page of the table. A page knows its own phone's tags (from the secrets
    its cookie keeps), so it knows from an announcement which seats are its own and
    whether it is the host's. A tag is no secret: it cannot be turned back into a
    hash or a secret, and it lets nobody act (acting takes the secret)."""
    key = b"scorekeeper phone tag " + code.encode()
    return hashlib.blake2b(holder.encode(), digest_size=6, key=key).hexdigest()


def checkers(table: Table, seat: Seat) -> tuple[str, ...]:
    """The hashes of the phones at *table* (each seat's holder, once) that may check
    *seat* now, as :func:`check_refusal` says for each: not the seat's own phone, not
    one that entered its cards, only once it is done (none once locked)."""
    if table.locked or not seat.done:  # the common case, asked at every card: nobody
        return ()
    held: dict[str, set[int]] = {}
    for other in table.seats:
        held.setdefault(other.holder, set()).add(other.number)
    return tuple(
        holder
        for holder, numbers in held.items()
        if _why_no_check(table, seat, frozenset(numbers), frozenset((holder,)), None) is None
    )


def move_dict(table: Table, now: datetime) -> dict[str, object] | None:
    """The request to move a seat waiting at *now*, as pages draw it: ``{"seat": its
    number or null for the host's role, "asker": the asking phone's tag, "by": [the
    seats the asking phone holds already], "host": whether it is the host's phone,
    "answerers": [the tags of the phones that may answer it now]}``; ``None`` when none
    waits (or locked)."""
    move = waiting_move(table, now)
    if move is None:
        return None
    return {
        "seat": move.seat,
        "asker": phone_tag(table.code, move.asker),
        "by": [seat.number for seat in table.seats if seat.holder == move.asker],
        "host": move.asker == table.host,
        "answerers": sorted(phone_tag(table.code, holder) for holder in move_answerers(table, move, now)),
    }


def seen_ago(table: Table, seat: Seat, now: datetime) -> int | None:
    """Seconds since the phone holding *seat* was last seen at *table* (:func:`last_seen`),
    at *now* (never below 0; ``None``: never)."""
    seen = last_seen(table, seat.holder)
    return None if seen is None else max(0, int((now - seen).total_seconds()))
