"""What a group's "tonight" page is told over its stream, beside each table's announcement.

A table started from a group's page (``group_id``) is announced to the group's room
(:func:`room`) as well as to its own, with the same announcement
(:func:`~.stream.announcement`: secret-free, the big screen's): one push per change to
every page, the phones' and the group's screens'. Two changes carry more, for the group's
room only: a table just started, its join link's QR code (:func:`qr_data`: the screen then
draws it without asking for the image), and a lock, the evening's results so far
(:func:`evening_frame`: they come from the database, read once per lock in the request that
locked). That evening's ratings are as the group's standing had them at the lock: its job
rates the lock's game later, and once it has committed, the evening is sent again to the
group's room (:func:`~.stream.announce_standing`, in a ``tonight`` event without tables). A
screen that (re)connects is sent, in one ``tonight`` event, every table of the evening newer
than it shows (:func:`~.stream.catch_up_tonight`).
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from typing import Any

from flask import url_for

from ...store import tonight as evenings
from ...table import service
from ...table.model import Table
from ..display import qr_fits, qr_svg_file


def room(group_id: int) -> str:
    """The stream room of group *group_id*'s "tonight" pages (never a join code: those are 6 letters)."""
    return f"group:{group_id}"


def qr_data(code: str) -> str | None:
    """The QR code of table *code*'s join link as a ``data:`` URI (the CSP lets images be
    ``data:``), or ``None`` when the link is too long for one."""
    link = url_for("tables.table", code=code, _external=True)
    if not qr_fits(link):
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(qr_svg_file(link)).decode()


def evening_frame(group_id: int, now: datetime | None = None) -> dict[str, Any]:
    """The evening of group *group_id* as the tonight page draws it (:func:`~.store.tonight.evening`):
    ``{"games": n, "season": year, "players": [{"name", "games", "wins", "places", "rating"}],
    "winners": {code: [name, …]}}``, *rating* rounded to a tenth (``None``: not rated yet)."""
    now = now or datetime.now(UTC)
    evening = evenings.evening(group_id, evenings.evening_start(now), evenings.season_of(now.date()))
    return {
        "games": evening.games,
        "season": evening.season,
        "players": [
            {
                "name": player.name,
                "games": player.games,
                "wins": player.wins,
                "places": list(player.places),
                "rating": None if player.rating is None else round(player.rating, 1),
            }
            for player in evening.players
        ],
        "winners": {code: list(names) for code, names in evening.winners.items()},
    }


def extras(table: Table) -> dict[str, Any] | None:
    """What the group's room is told of *table*'s change beside its announcement: the QR
    code of a table just started (version 1), the evening at a lock (or any later change of a
    locked table: "Play again"); ``None`` for every other change (the announcement alone)."""
    if table.group_id is None:
        return None
    if table.locked:
        return {"evening": evening_frame(table.group_id)}
    if table.version == 1:
        return {"qr": qr_data(table.code)}
    return None


def tonight_tables(group_id: int, now: datetime | None = None) -> list[Table]:
    """Group *group_id*'s tables of the evening, first started first (expired ones left out)."""
    now = now or datetime.now(UTC)
    tables = (service.read(code) for code in evenings.table_codes(group_id, evenings.evening_start(now)))
    return [table for table in tables if table is not None and not table.is_expired(now)]
