"""The groups the phones seated at a shared table offer for its game (``table_group_offers``).

A phone seated at a table may offer one of its groups for the table's game, so that the
host can lock the table into it though the host's phone is not in the group (a borrowed
phone: the host's own was lost). The web layer checks that the offering phone belongs to
the group and that only the host's phone is shown what is offered; every change goes
through :mod:`scorekeeper.table.service`, which claims the table first.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import delete, select

from .db import db
from .models import Group, ScoreTable, TableGroupOffer


class Offer(NamedTuple):
    """A group offered at a table, and the SHA-256 of the secret of the phone offering it."""

    group: Group
    holder: str


def _table_id(code: str) -> int | None:
    return db.session.scalar(select(ScoreTable.id).where(ScoreTable.code == code))


def offer(code: str, group: Group, holder: str, when: datetime) -> None:
    """Offer *group* for the game of table *code* (as stored), by the phone whose secret's
    hash is *holder*; offered again (by this phone or another), it is this phone's offer now.
    Not committed: the table's change commits it."""
    table_id = _table_id(code)
    if table_id is None:
        return
    row = db.session.get(TableGroupOffer, (table_id, group.id))
    if row is None:
        row = TableGroupOffer(table_id=table_id, group_id=group.id)
        db.session.add(row)
    row.holder, row.invite_hash, row.offered_at = holder, group.invite_hash, when
    db.session.flush()


def withdraw(code: str, group: Group, holder: str) -> None:
    """Take back the offer of *group* at table *code* made by the phone *holder* (none: nothing)."""
    table_id = _table_id(code)
    if table_id is not None:
        db.session.execute(
            delete(TableGroupOffer).where(
                TableGroupOffer.table_id == table_id,
                TableGroupOffer.group_id == group.id,
                TableGroupOffer.holder == holder,
            )
        )


def offers(code: str) -> list[Offer]:
    """The groups offered at table *code*, the first offered first: those whose invite link
    is still the one they were offered with (a replaced link ends the offer, as it ends the
    membership of every phone that joined with the old one)."""
    rows = db.session.execute(
        select(Group, TableGroupOffer.holder, TableGroupOffer.invite_hash)
        .join(TableGroupOffer, TableGroupOffer.group_id == Group.id)
        .join(ScoreTable, ScoreTable.id == TableGroupOffer.table_id)
        .where(ScoreTable.code == code)
        .order_by(TableGroupOffer.offered_at, Group.id)
    ).all()
    return [Offer(group, holder) for group, holder, invite_hash in rows if group.invite_hash == invite_hash]
