"""What the shared table's pages hand their templates: small typed values, built in
:mod:`.pages` from the table's model (:mod:`scorekeeper.table.model`: its seats,
what a phone may do, what the table waits for), never deciding a rule themselves.
The templates read their fields by name (``tables/_live.html``, ``tables/screen.html``,
``tables/seat.html``, ``tables/table.html``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine import ScoreSheet
from ...table.model import MoveRequest, Seat, SeatState, Waiting


@dataclass(frozen=True, slots=True)
class Invite:
    """The table's join link, and the address of its QR code (``None``: too long for one)."""

    link: str
    qr: str | None


@dataclass(frozen=True, slots=True)
class ScreenSeat:
    """One seat as the big screen shows it: name, cards entered (0..16), where it is, who checked it."""

    number: int
    name: str
    cards: int
    done: bool
    state: SeatState
    checked_by: str | None


def screen_seats(seats: Sequence[Seat]) -> list[ScreenSeat]:
    """*seats* as a big screen shows them (the table's screen and a group's tonight page), each
    checker named."""
    names = {seat.number: seat.name for seat in seats}
    return [
        ScreenSeat(
            number=seat.number,
            name=seat.name,
            cards=seat.cards_entered,
            done=seat.done,
            state=seat.state,
            checked_by=names.get(seat.checked_by) if seat.checked_by else None,
        )
        for seat in seats
    ]


#: What static/js/screen.js fills in for a seat taken after the big screen's page came.
BLANK_SEAT = ScreenSeat(number=0, name="", cards=0, done=False, state="entering", checked_by=None)


@dataclass(frozen=True, slots=True)
class Screen:
    """The table on a big screen, the same for everyone who opens it: no phone's part, no secret.

    :ivar open: a new phone may take a seat (the join code and QR code are shown).
    :ivar state_url: the JSON API's table, asked every 10 s without a stream.
    :ivar sheet: the locked game's sheet (``None`` before the lock, or its game deleted).
    :ivar rows: each category's name with each player's Harmony Points in it, from *sheet*.
    :ivar reload: how often the page reloads without JavaScript (seconds).
    """

    code: str
    version: int
    ticket: str
    state_url: str
    etag: str
    open: bool
    link: str
    qr: str | None
    join_url: str
    seats: Sequence[ScreenSeat]
    most: int
    checks_required: bool
    locked: bool
    sheet: ScoreSheet | None
    rows: Sequence[tuple[str, Sequence[int]]]
    next_url: str | None
    reload: int
    blank_seat: ScreenSeat = BLANK_SEAT


@dataclass(frozen=True, slots=True)
class LiveSeat:
    """One seat in a phone's live part: the seat, and what this phone may do with it now.

    :ivar seen_at: when the phone holding it was last seen at the table (ISO 8601, ``None``: never);
        *seen*: how long ago, in words ("seen 3 min ago").
    :ivar gone: that phone is gone (:func:`~scorekeeper.table.model.is_gone`).
    :ivar may_remove: this phone (the host's) may remove it (nothing entered).
    """

    seat: Seat
    mine: bool
    may_enter: bool
    may_check: bool
    checked_by: str | None
    seen_at: str | None = None
    seen: str = ""
    gone: bool = False
    may_remove: bool = False


@dataclass(frozen=True, slots=True)
class Live:
    """The live part of a table's pages for one phone (``tables/_live.html``).

    :ivar look: :func:`~scorekeeper.table.model.look` of the table (table.js compares it).
    :ivar etag: the ETag ``/t/<code>/live`` would send it with (its first ask gets a 304).
    :ivar names: each seat's name by number; *by_number*: each seat by number.
    :ivar my_seats: the seats this phone holds.
    :ivar notes: what this phone's seats need to know, then what every phone does (each once).
    :ivar waiting: what the table waits for (above a seat's kingdom entry: but "entering").
    :ivar move: the request to move a seat waiting for an answer; *move_by_me*: this phone
        asked it; *move_by*: the names of the seats the asking phone holds, or ``""``;
        *move_by_host*: the asking phone is the host's (holding no seat, when *move_by* is ``""``).
    :ivar phone: what this phone holds here, as ``"host:1,3"`` (table.js's key of the part).
    :ivar tags: the phone's tags (:func:`~scorekeeper.table.model.phone_tag`), space-separated.
    :ivar compact: the seats on one line; *with_words*: the words table.js draws with included.
    :ivar url: the address of the part alone (``/t/<code>/live``).
    :ivar now: the server's time as it renders the part (ms since 1970: table.js counts how long
        ago each phone was seen by it, whatever the phone's clock says); *gone_after*: seconds
        after which a phone not seen is gone.
    """

    code: str
    version: int
    look: str
    etag: str
    ticket: str
    seats: Sequence[LiveSeat]
    names: Mapping[int, str]
    by_number: Mapping[int, Seat]
    my_seats: frozenset[int]
    host_name: str | None
    notes: Sequence[str]
    waiting: Sequence[Waiting]
    move: MoveRequest | None
    move_by_me: bool
    move_by: str
    move_by_host: bool
    may_answer_move: bool
    is_host: bool
    phone: str
    locked: bool
    next_code: str | None
    checks_required: bool
    compact: bool
    with_words: bool
    tags: str
    lang: str
    url: str
    now: int = 0
    gone_after: int = 0


@dataclass(frozen=True, slots=True)
class SeatPanel:
    """A seat's kingdom as the seat form's panel shows it first: name, 16 card ids
    row by row (``""``: none yet), the claimed Legend ids."""

    name: str
    cells: Sequence[str]
    legends: Sequence[str]


@dataclass(frozen=True, slots=True)
class OwnGroup:
    """One of a seated phone's groups, as it may offer it for the table's game: *offered*, now."""

    public_id: str
    name: str
    offered: bool


@dataclass(frozen=True, slots=True)
class GroupOffer:
    """What a seated phone (not the host's) may offer for the table's lock: its own groups
    (``tables/_offer_group.html``; issue 33)."""

    groups: Sequence[OwnGroup]


@dataclass(frozen=True, slots=True)
class TonightTable:
    """A table of the group's evening as its tonight page shows it: join code and QR code
    (an image's address, ``None``: too long for one) while *open*, its seats, the winners'
    names once *locked* (none: its game deleted since)."""

    code: str
    version: int
    open: bool
    qr: str | None
    seats: Sequence[ScreenSeat]
    checks_required: bool
    locked: bool
    winners: Sequence[str]


@dataclass(frozen=True, slots=True)
class TonightPage:
    """A group's tonight page: the same for everyone who opens it, no secret but the stream's
    ticket (the group's room, signed). *evening* is :func:`.tonight.evening_frame`'s; *hours*
    how far back the evening reaches."""

    group_name: str
    ticket: str
    tables: Sequence[TonightTable]
    evening: dict[str, Any]
    join_url: str
    reload: int
    hours: int
