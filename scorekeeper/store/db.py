"""The database object of the app (Flask-SQLAlchemy), the declarative base of its
models, and the one lock every change of a group takes first (:func:`lock_group`).

A module of its own, so that the models, the queries and ``store.init_app``
all import it from here and none of them imports another in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import column, event, select, table, update
from sqlalchemy.orm import DeclarativeBase, Session, SessionTransaction


class Base(DeclarativeBase):
    """The base of every table class (``db.Model``)."""


db = SQLAlchemy(model_class=Base)

# The base the tables subclass: ``db.Model`` (Base with Flask-SQLAlchemy's
# mixins). Type checkers cannot subclass an attribute, so to them it is Base.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model


#: The groups' table as the lock needs it (the model is ``models.Group``).
_GROUPS = table("groups", column("id"), column("name"))


def lock_group(group_id: int) -> None:
    """Take group *group_id* for the session's transaction, until it commits or
    rolls back: every other transaction that takes it waits until then.

    The lock order of the app (docs/architecture.md, "One group, one writer at a
    time"): a transaction that writes into a group (a game saved, imported,
    locked from a table, corrected or deleted; a roster player renamed or
    merged) calls this *first*, before it reads any row of the group that it
    changes or adds to (its roster, a game's results, its standing), and locks
    no other group (but a game moved between two groups, which locks both, the
    lower id first: ``store.games.move_game``). Changes of one group so follow each other whole instead of
    meeting halfway: none deadlocks on another (each once held a row the other
    needed, such as the group's key its new rows point to, and then waited for
    the group's row), and each reads the roster as the one before it left it
    (a new name added once, a player merged away no longer there). Taking it
    again in the same transaction does nothing (an import of 1,000 games asks once).

    PostgreSQL: ``SELECT … FOR UPDATE`` of the group's row (the lock the standing
    takes before it commits, ``store.standing``, so it is the same one). SQLite,
    which writes one transaction at a time: a write of the group's row, which
    makes this transaction the writer now (waiting, up to the busy timeout of
    30 s, for the one writing) rather than at its first insert, after it read.
    """
    held: set[int] = db.session.info.setdefault(_HELD, set())
    if group_id in held:
        return
    if db.session.get_bind().dialect.name == "sqlite":
        # the name written as it is: writing the key would have SQLite count the rows that point to it
        db.session.execute(update(_GROUPS).where(_GROUPS.c.id == group_id).values(name=_GROUPS.c.name))
    else:
        db.session.execute(select(_GROUPS.c.id).where(_GROUPS.c.id == group_id).with_for_update())
    held.add(group_id)


_HELD = "groups-locked"  # the session's groups locked in its transaction (session.info)


@event.listens_for(Session, "after_transaction_end")
def _locks_released(session: Session, transaction: SessionTransaction) -> None:
    """The database lets a transaction's locks go when it ends (a commit, a
    rollback, the session closed); so does the session's note of them. (At a
    savepoint's end too: rolled back to, it lets go of what it locked; the
    next :func:`lock_group` then asks the database again.)"""
    session.info.pop(_HELD, None)
