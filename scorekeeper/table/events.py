"""Each committed change of a table, told to whoever listens: one small interface.

The service publishes the table after every change it commits, once
(:func:`publish`, called by :mod:`.service` only); it knows nothing of who
listens or how the table travels. A lock's game is rated later, by the job that
brings its group's standing up to date (:mod:`scorekeeper.jobs`), which publishes
the group once after its last commit (:func:`publish_standing`), so that the
group's "tonight" pages show the new ratings. The web layer's stream
(:mod:`scorekeeper.web.tables.stream`: Socket.IO, through Redis across
processes) installs itself as the :class:`Publisher` when an app is made
(:func:`set_publisher`). Until one is installed nothing is published: code that
changes tables without an app's streams needs none.

No Flask, no Socket.IO, no database here: like :mod:`.model`, this module is
read by the service and written for by the web layer, never the other way.
"""

from __future__ import annotations

from typing import Protocol

from .model import Table


class Publisher(Protocol):
    """Where a table's changes go: anything with ``publish(table)`` and ``publish_standing(group_id)``."""

    def publish(self, table: Table) -> None:
        """Tell every listener of *table* (just committed: its version is new) about it.

        Must not raise, and must not wait for a listener: the service calls it on
        the request's thread, after the change is committed."""

    def publish_standing(self, group_id: int) -> None:
        """Tell every listener of group *group_id*'s tables that its standing (the ratings)
        has just been brought up to date and committed.

        Must not raise, and must not wait for a listener: the job calls it on its
        thread, in an app context, after its last commit."""


class _Nobody:
    """The publisher before any is installed: nobody listens."""

    def publish(self, table: Table) -> None:
        pass

    def publish_standing(self, group_id: int) -> None:
        pass


_publisher: Publisher = _Nobody()


def set_publisher(publisher: Publisher | None) -> Publisher:
    """Make *publisher* the one every change goes to (``None``: nobody again).

    :returns: the publisher it replaces (a test puts it back when done)."""
    global _publisher
    replaced, _publisher = _publisher, publisher if publisher is not None else _Nobody()
    return replaced


def publish(table: Table) -> None:
    """Publish *table*, just committed, to the installed :class:`Publisher`."""
    _publisher.publish(table)


def publish_standing(group_id: int) -> None:
    """Publish that group *group_id*'s standing was just brought up to date (committed)."""
    _publisher.publish_standing(group_id)
