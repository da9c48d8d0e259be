"""Every change of a table pushed to every phone watching it (Socket.IO, by Flask-SocketIO).

One announcement per committed change (:func:`announce`, called by
:mod:`.service` only, after the commit): the table's public state with its
version (:func:`~scorekeeper.table.model.table_dict`) and, when there are any,
the notes every phone reads alike in every language of the app (:func:`notes`),
emitted to the room of the table's code: all a page draws of the table, so that
no page asks for anything after it. Flask-SocketIO's client manager carries it: in one process
(``make run``) straight to that process's connections; with ``REDIS_URL``
(``SCOREKEEPER_REDIS_URL``) through Redis's publish/subscribe
(python-socketio's ``RedisManager``), so that a change made by any process
of any host reaches phones connected to any other.

A page connects over a WebSocket (``/socket.io/``, Engine.IO 4, Socket.IO 5,
no long-polling: any stream worker may take any connection, no sticky
sessions) with a *ticket* from the page that showed the table (the table's
code signed with the app's key, :func:`ticket`): a stream needs no database,
and nobody watches a table whose code they only guessed. The page sends the
version it shows with its ticket; when the table has changed since (a page
reconnected after a cut, an offline spell, the background), the table is
pushed to that connection alone as an announcement (one read of the table's
rows per such connection), so a reconnected page catches up without asking.

Streams are served only where they hold no worker: gunicorn's gevent workers
(``deploy/gunicorn-live.conf.py``: thousands of connections in one process)
and the development server's threads. A process of gunicorn's sync workers
answers ``/socket.io/`` with 503 at once and its pages poll slowly instead
(``static/js/table.js``).
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import socketio
from flask import Flask, current_app
from flask_socketio import SocketIO, emit, join_room
from itsdangerous import BadSignature, URLSafeSerializer

from ..engine import LEGENDS_BY_ID, DeckWarning, cards_over_deck
from ..store import tables as rows
from ..words import LANGUAGES, Words, sentence, words_in
from .model import Table, normalise_code, table_dict

#: The Redis channel of the announcements (one Redis may serve other apps too).
CHANNEL = "scorekeeper-tables"
EVENT = "table"

log = logging.getLogger(__name__)


def announce(table: Table) -> None:
    """Push *table* (just committed) to every phone watching it, on every process."""
    streams: SocketIO | None = current_app.extensions.get("socketio")
    if streams is not None:
        streams.emit(EVENT, announcement(table, datetime.now(UTC)), to=table.code)


def announcement(table: Table, now: datetime) -> Mapping[str, object]:
    """What a change of *table* pushes at *now*: :func:`~scorekeeper.table.model.table_dict`,
    and ``"notes": {language: [sentence, …]}`` for each of :data:`~scorekeeper.words.LANGUAGES`
    when :func:`notes` has any (rarely: a Legend claimed twice, a full deck over)."""
    state = table_dict(table, now)
    said = _noted(table)
    if said[0] or said[1]:
        state["notes"] = {language: _written(said, words_in(language, isolate_names=True)) for language in LANGUAGES}
    return state


def notes(table: Table, words: Words) -> list[str]:
    """The notes every phone at *table* reads alike, in *words*' language: each Legend
    two seats claim, once, naming them by seat (R6.1); once every seat is done and
    before the lock, more copies of a card than the deck holds (R1)."""
    return _written(_noted(table), words)


_Noted = tuple[list[tuple[list[str], str]], tuple[DeckWarning, ...]]


def _noted(table: Table) -> _Noted:
    """What :func:`notes` says, before its words: each Legend claimed twice with its
    claimants' names (by seat), and the deck's warnings."""
    clashes = []
    for seat in table.seats:
        for legend, others in table.legend_clashes(seat).items():
            if seat.number < min(others):  # said once, by its first claimant
                clashes.append(([s.name for s in table.seats if s.number == seat.number or s.number in others], legend))
    warnings: tuple[DeckWarning, ...] = ()
    if len(table.seats) > 1 and all(seat.done for seat in table.seats) and not table.locked:
        warnings = cards_over_deck([s.cards for s in table.seats])
    return clashes, warnings


def _written(noted: _Noted, words: Words) -> list[str]:
    clashes, warnings = noted
    said = [words.legend_claimed_twice(names, LEGENDS_BY_ID[legend]) for names, legend in clashes]
    return said + [sentence(words.warning(warning)) for warning in warnings]


def ticket(code: str) -> str:
    """What a page of table *code* connects its stream with."""
    return _serializer().dumps(code)


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt="scorekeeper-table-stream")


def _watch(auth: object = None) -> bool:
    """A page starts watching the table its ticket names; any other connection is refused.
    A page that says the version it shows (``{"ticket", "version"}``) and is behind is sent
    the table as it is now, alone (:func:`_catch_up`)."""
    signed = auth.get("ticket") if isinstance(auth, dict) else None
    if not isinstance(signed, str) or len(signed) > 200:
        return False
    try:
        code = normalise_code(_serializer().loads(signed))
    except BadSignature:
        return False
    if code is None:
        return False
    join_room(code)
    version = auth.get("version") if isinstance(auth, dict) else None
    if isinstance(version, int) and not isinstance(version, bool):
        _catch_up(code, version)
    return True


def _catch_up(code: str, version: int) -> None:
    """Table *code* as an announcement to the connection asking, if it is newer than *version*
    (a table gone, expired or not, is not sent: the page's next change or poll says so)."""
    table = rows.read(code)
    now = datetime.now(UTC)
    if table is not None and table.version > version and not table.is_expired(now):
        emit(EVENT, announcement(table, now))


class _RedisAnnouncements(socketio.RedisManager):
    """python-socketio's Redis manager, publishing from a thread of its own, on a
    connection of its own that waits at most a second for Redis.

    A request whose change is announced hands the announcement over and answers: it
    never waits for Redis's reply (a round trip that, on a busy machine, waits for Redis
    to get a core: a fifth of a sync worker's time under a table's drafts), and a hung
    Redis never holds it. Each process's announcements leave in the order they were
    made; pages order what they receive by version. Listening keeps the manager's own
    connection, which waits as long as Redis is quiet."""

    def _publish(self, data: Any) -> None:
        if getattr(self, "_outbox_pid", None) != os.getpid():  # a new process (a forked worker): a new thread
            self._outbox_pid = os.getpid()
            self._outbox: queue.SimpleQueue[bytes | str] = queue.SimpleQueue()
            threading.Thread(target=self._send, args=(self._outbox,), daemon=True, name="announcements").start()
            atexit.register(self._flush, self._outbox)
        self._outbox.put(self.json.dumps(data))

    def _send(self, outbox: queue.SimpleQueue[bytes | str]) -> None:
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_timeout=1, socket_connect_timeout=1)
        while True:
            message = outbox.get()
            try:
                client.publish(self.channel, message)
            except redis.RedisError as error:
                log.warning("a table's change was not announced (Redis: %s)", error)

    @staticmethod
    def _flush(outbox: queue.SimpleQueue[bytes | str], seconds: float = 2.0) -> None:
        """At exit (a worker restarted): a moment for the announcements still queued to leave."""
        deadline = time.monotonic() + seconds
        while not outbox.empty() and time.monotonic() < deadline:
            time.sleep(0.01)


def _serves_streams() -> bool:
    """gevent's cooperative sockets (gunicorn's gevent workers): one process holds thousands of streams."""
    gevent = sys.modules.get("gevent.monkey")
    return bool(gevent and gevent.is_module_patched("socket"))


class _StreamsWhereTheyHoldNoWorker:
    """WSGI middleware in front of Flask-SocketIO's: ``/socket.io/`` answered 503
    at once by a process whose workers each serve one request at a time (a
    stream would hold one for as long as the page stays open)."""

    def __init__(self, streams: Any) -> None:
        self.streams = streams

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO", "").startswith("/socket.io/") and not (
            environ.get("wsgi.multithread") or _serves_streams()
        ):
            start_response("503 Service Unavailable", [("Content-Type", "text/plain"), ("Retry-After", "60")])
            return [b"streams are served by the stream workers\n"]
        return self.streams(environ, start_response)


def init_app(app: Flask) -> None:
    """Serve the tables' streams on *app* (``/socket.io/``) and announce changes
    through Redis when ``REDIS_URL`` is configured, else within this process."""
    options: dict[str, Any] = {}
    redis_url = app.config.get("REDIS_URL")
    if redis_url:
        options["client_manager"] = _RedisAnnouncements(redis_url, channel=CHANNEL)
    streams = SocketIO()
    streams.on("connect")(_watch)
    streams.init_app(
        app,
        async_mode="gevent" if _serves_streams() else "threading",
        transports=["websocket"],
        manage_session=False,
        max_http_buffer_size=4096,  # a page sends only its ticket and pongs
        logger=False,
        engineio_logger=False,
        **options,
    )
    app.wsgi_app = _StreamsWhereTheyHoldNoWorker(app.wsgi_app)  # type: ignore[method-assign]
