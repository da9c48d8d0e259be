"""Every change of a table pushed to every phone watching it (Socket.IO, by Flask-SocketIO).

One announcement per committed change (:func:`announce`: the table's events'
publisher, :mod:`scorekeeper.table.events`, installed by :func:`init_app`, so
that :mod:`scorekeeper.table.service` publishes each change after its commit
without knowing how it travels): the table's public state with its
version (:func:`~scorekeeper.web.tables.wire.push`), emitted to the room of
the table's code. Flask-SocketIO's client manager carries it: in one process
(``make run``) straight to that process's connections; with ``REDIS_URL``
(``SCOREKEEPER_REDIS_URL``) through Redis's publish/subscribe
(python-socketio's ``RedisManager``), so that a change made by any process
of any host reaches phones connected to any other. A group's standing brought up
to date by its job is published the same way, once (:func:`announce_standing`:
the group's evening, to its "tonight" pages).

A page connects over a WebSocket (``/socket.io/``, Engine.IO 4, Socket.IO 5,
no long-polling: any stream worker may take any connection, no sticky
sessions; ``static/js/stream.js``) with a *ticket* from the page that showed
the table (the table's code signed with the app's key, :func:`ticket`):
watching needs no database, and nobody watches a table whose code they only
guessed. The page sends the version it shows with its ticket; when the table has
changed since (a page reconnected after a cut, an offline spell, the background),
the table is pushed to that connection alone (one read of the table's rows per such
connection), so a reconnected page catches up without asking.

An announcement (:func:`announcement`) is all a page draws of the table, so that no
page asks for anything after it: :func:`~scorekeeper.web.tables.wire.push` and, when
there are any, the notes every phone reads alike in every language of the app
(:func:`notes`).

A seat page sends its drafts on its open stream too (:func:`_draft`, the
``draft`` event, acknowledged): the JSON API's ``PUT …/seats/<n>`` body with
``"seat"`` and ``"secret"``, for the table its ticket named, answered by the
web layer in the PUT's shapes (*answer_draft* of :func:`init_app`). It spares
each draft a request through the proxy and a sync worker (a tenth of the
servers' CPU per draft, a third of the time until its answer, as measured on
PostgreSQL); a page without a stream sends the PUT.

Every connection is read through :mod:`.gate`: closed, with one line in the log, at the
first message out of place (no ticket within seconds, a packet nested deep or too big, too
many), before anything decodes it.

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
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, NamedTuple, cast

import socketio
from flask import Flask, current_app, request
from flask_socketio import SocketIO, disconnect, emit, join_room
from itsdangerous import BadSignature, URLSafeSerializer

from ...engine import LEGENDS_BY_ID, DeckWarning, cards_over_deck
from ...store.db import db
from ...store.models import Group
from ...table import events, service
from ...table.model import Table, normalise_code
from ...words import LANGUAGES, Words, sentence, words_in
from . import gate, tonight
from .wire import Push, push

#: Seconds between a stream's pings, and how long its pong is awaited (the page's watchdog reads both).
PING_INTERVAL = 10
PING_TIMEOUT = 10

#: The Redis channel of the announcements (one Redis may serve other apps too).
CHANNEL = "scorekeeper-tables"
EVENT = "table"
#: The event a group's "tonight" page is sent as it (re)connects: what it missed, in one (:func:`_catch_up_tonight`).
TONIGHT = "tonight"
#: The event every page is sent every :data:`BEAT_INTERVAL` seconds through Redis (its data: the
#: interval), and once as it connects: a page that stops hearing it knows changes are not reaching it.
BEAT = "beat"
#: A second: a page is told 2.5 s after the beats stop, inside issue 32's 5 s with room for a
#: loaded machine's delays (every 2 s, the club night's pages were told at p95 5.5 s).
BEAT_INTERVAL = 1
#: Seconds between a stream worker's tries to listen to Redis again.
RECONNECT = 1.0
#: A Redis client's options here: a second to connect, a second to answer.
_REDIS_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}
#: The event a seat page sends its drafts in, each acknowledged (:func:`_draft`).
DRAFT = "draft"

#: The acknowledgement of a draft sent on a stream watching table *code*: the event's data,
#: the page's language (``None``: the stream's request's), and whether the stream sends too
#: fast (refused then, unread). Given by the web layer (the JSON API's answers and refusals).
AnswerDraft = Callable[[str, object, str | None, bool], dict[str, Any]]

#: Drafts a stream may send in a burst, and a second after it: a page sends one at a time, each
#: after the last one's answer and 300 ms after a tap; a socket sending thousands is refused
#: (its answers 429, unread) and let go once it has been refused as many times again.
DRAFT_BURST = 20
DRAFT_RATE = 5.0
#: The longest message a page may send (bytes): a ticket, pongs, and drafts, of which the biggest
#: a seat may send (16 of the longest card id and every Legend, twice with its base) is 1.2 KB.
FRAME_LIMIT = 4096

log = logging.getLogger(__name__)


class _Evening(NamedTuple):
    """A group's evening for its room (:func:`announce_standing`): the ``tonight`` event's data."""

    room: str
    told: dict[str, Any]


#: What the announcing thread is handed: a table just committed, with its group room's extras;
#: or a group's evening, its standing just brought up to date.
_Outgoing = tuple[Table, dict[str, Any] | None] | _Evening


def announce(table: Table) -> None:
    """Push *table* (just committed) to every phone watching it, on every process.

    With Redis, the table is handed to this process's announcing thread as it is (an
    immutable value): its JSON, its phones here and Redis are the thread's work, none
    the request's. Without, it goes to this process's phones at once, and when none
    watches the table here nothing is made at all."""
    streams: SocketIO | None = current_app.extensions.get("socketio")
    if streams is None:
        return
    manager = streams.server.manager
    if isinstance(manager, _RedisAnnouncements):
        # made here, in the request (a lock's evening reads the database): None for nearly every change
        manager.announce(table, tonight.extras(table))
        return
    rooms = [table.code] if table.group_id is None else [table.code, tonight.room(table.group_id)]
    if not any(_watched(manager, room) for room in rooms):
        return
    for to, data in _pushes(table, tonight.extras(table)):
        if any(_watched(manager, room) for room in to):
            streams.emit(EVENT, data, to=to)


def announce_standing(group_id: int) -> None:
    """Push group *group_id*'s evening (:func:`.tonight.evening_frame`: its ratings just brought
    up to date and committed) to the group's "tonight" pages on every process: the ``tonight``
    event a page is sent as it reconnects, with no table in it (``{"tables": [], "evening": …}``).

    The lock's own push (:func:`announce`) holds the evening as it was at the lock: with a
    job queue, before the job rated the game, so its new players' ratings were missing."""
    streams: SocketIO | None = current_app.extensions.get("socketio")
    if streams is None:
        return
    manager, room = streams.server.manager, tonight.room(group_id)
    redis = isinstance(manager, _RedisAnnouncements)
    if not redis and not _watched(manager, room):
        return  # one process, and no screen of the group's here: nothing read
    try:
        told = {"tables": [], "evening": tonight.evening_frame(group_id)}
    except Exception:  # a publisher never raises: the pages get the ratings at the next lock or reload
        log.exception("the evening of group %d was not announced", group_id)
        return
    if redis:
        cast(_RedisAnnouncements, manager).announce_evening(_Evening(room, told))
    else:
        streams.emit(TONIGHT, told, to=room)


def _emits(outgoing: _Outgoing) -> list[tuple[str, list[str], Any]]:
    """The emits of what the announcing thread is handed, each as (event, rooms, data)."""
    if isinstance(outgoing, _Evening):
        return [(TONIGHT, [outgoing.room], outgoing.told)]
    return [(EVENT, rooms, data) for rooms, data in _pushes(*outgoing)]


def _pushes(table: Table, extras: dict[str, Any] | None) -> list[tuple[list[str], Push]]:
    """The emits of *table*'s change, each to its rooms: one, to the table's room and its group's
    (a page in both is sent it once), unless the group's room is told more (*extras*,
    :func:`.tonight.extras`): then the table's room and the group's each get their own."""
    if table.group_id is None:
        return [([table.code], announcement(table))]
    group = tonight.room(table.group_id)
    if extras is None:
        return [([table.code, group], announcement(table))]
    plain = announcement(table)
    return [([table.code], plain), ([group], cast(Push, {**plain, **extras}))]


def announcement(table: Table) -> Push:
    """What a change of *table* pushes: :func:`~scorekeeper.web.tables.wire.push`, and
    ``"notes": {language: [sentence, …]}`` for each of :data:`~scorekeeper.words.LANGUAGES`
    when :func:`notes` has any (rarely: a Legend claimed twice, a full deck over)."""
    state = push(table)
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
    if table.is_all_done and not table.locked:
        warnings = cards_over_deck([s.cards for s in table.seats])
    return clashes, warnings


def _written(noted: _Noted, words: Words) -> list[str]:
    clashes, warnings = noted
    said = [words.legend_claimed_twice(names, LEGENDS_BY_ID[legend]) for names, legend in clashes]
    return said + [sentence(words.warning(warning)) for warning in warnings]


def _watched(manager: Any, code: str) -> bool:
    """Whether a phone connected to this process watches table *code*."""
    return next(manager.get_participants("/", code), None) is not None


class _JSONPacket(socketio.packet.Packet):
    """Socket.IO's packet without binary attachments (the server's ``serializer``): a stream
    carries JSON only (:func:`~scorekeeper.web.tables.wire.push`), so the search of every
    packet sent for bytes to attach, a walk through a table of four kingdoms about as long
    as making its JSON (bench/announce.py), is skipped. (Bytes given to it would fail to encode, never pass unseen.)"""

    uses_binary_events = False


class _Announcer:
    """The stream as the table's events' publisher (:class:`~scorekeeper.table.events.Publisher`)."""

    def publish(self, table: Table) -> None:
        announce(table)

    def publish_standing(self, group_id: int) -> None:
        announce_standing(group_id)


def ticket(code: str) -> str:
    """What a page of table *code* connects its stream with."""
    return _serializer().dumps(code)


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt="scorekeeper-table-stream")


def _watch(auth: object = None) -> bool:
    """A page starts watching the table its ticket names; any other connection is refused.
    A page that says the version it shows (``"version"``) and is behind is sent the table
    as it is now, alone (:func:`_catch_up`). The stream keeps the table's code (the only
    table it may send drafts for) and the page's language (``"lang"``, beside the ticket)."""
    signed = auth.get("ticket") if isinstance(auth, dict) else None
    if not isinstance(signed, str) or len(signed) > 200:
        return False
    try:
        named = _serializer().loads(signed)
    except BadSignature:
        return False
    if isinstance(named, list):
        return _watch_tonight(named, auth if isinstance(auth, dict) else {})
    code = normalise_code(named)
    if code is None:
        return False
    join_room(code)
    if isinstance(current_app.extensions["socketio"].server.manager, _RedisAnnouncements):
        # the first beat: the page knows to listen for the next ones. To this connection, which is
        # here: never through Redis (python-socketio publishes every emit; one that fails while Redis
        # is away makes a new connection and subscription object, the listener's left unsubscribed)
        emit(BEAT, BEAT_INTERVAL, ignore_queue=True)
    lang = auth.get("lang") if isinstance(auth, dict) else None
    _kept().update(table=code, lang=lang if isinstance(lang, str) and len(lang) <= 16 else None)
    version = auth.get("version") if isinstance(auth, dict) else None
    if isinstance(version, int) and not isinstance(version, bool):
        _catch_up(code, version)
    return True


def tonight_ticket(group: Group, screen: bool) -> str:
    """What group *group*'s "tonight" page connects its stream with: opened by a member
    (*screen* false), or by the group's screen link, whose ticket holds the link's hash's
    first characters, so that a revoked link's page is refused when it connects again."""
    return _serializer().dumps(["tonight", group.id, group.screen_hash[:16] if screen else ""])


def _watch_tonight(named: list[Any], auth: dict[str, Any]) -> bool:
    """A group's "tonight" page starts watching its group's room (:func:`.tonight.room`), and
    is sent what it missed (:func:`_catch_up_tonight`). It sends no drafts."""
    if len(named) != 3 or named[0] != "tonight" or not isinstance(named[1], int) or not isinstance(named[2], str):
        return False
    try:
        group = db.session.get(Group, named[1])
        if group is None or (named[2] and not group.screen_hash.startswith(named[2])):
            return False
        join_room(tonight.room(group.id))
        if isinstance(current_app.extensions["socketio"].server.manager, _RedisAnnouncements):
            emit(BEAT, BEAT_INTERVAL, ignore_queue=True)  # as _watch: to this connection, here
        _kept().update(table=None, lang=None)
        shown = auth.get("versions")
        games = auth.get("games")
        if isinstance(shown, dict):
            versions = {code: version for code, version in shown.items() if isinstance(version, int)}
            _catch_up_tonight(group.id, versions, games if isinstance(games, int) else None)
    finally:
        db.session.remove()
    return True


def _catch_up_tonight(group_id: int, shown: dict[str, int], games: int | None) -> None:
    """To the connection asking, in one ``tonight`` event, what it is missing (:func:`_tonight_missed`)."""
    missed = _tonight_missed(group_id, shown, games, with_qr=True)
    if missed is not None:
        emit(TONIGHT, missed, ignore_queue=True)  # to this connection, here: not through Redis


def _tonight_missed(group_id: int, shown: dict[str, int], games: int | None, with_qr: bool) -> dict[str, Any] | None:
    """What a screen showing tables at versions *shown* (by code) and an evening of *games*
    games is missing: ``{"tables": [announcement, …], "evening": …}``, a table it does not
    show with its ``qr`` (*with_qr*: the join link needs a request's host); ``None`` when it
    is up to date."""
    tables = [table for table in tonight.tonight_tables(group_id) if table.version > shown.get(table.code, 0)]
    evening = tonight.evening_frame(group_id)
    if not tables and evening["games"] == games:
        return None
    frames: list[dict[str, Any]] = []
    for table in tables:
        frame: dict[str, Any] = dict(announcement(table))
        if with_qr and table.code not in shown:
            frame["qr"] = tonight.qr_data(table.code)
        frames.append(frame)
    return {"tables": frames, "evening": evening}


def _catch_up(code: str, version: int) -> None:
    """Table *code* as an announcement to the connection asking, if it is newer than *version*
    (a table gone, expired or not, is not sent: the page's next change or poll says so)."""
    try:
        table = service.read(code)
    finally:
        db.session.remove()  # the greenlet's (or thread's) session, at once: the next event is another one
    if table is not None and table.version > version and not table.is_expired(datetime.now(UTC)):
        emit(EVENT, announcement(table), ignore_queue=True)  # to this connection, here: not through Redis


def _kept() -> dict[str, Any]:
    """What this stream keeps between its events: in the WSGI environ of its connection,
    the one every event's request context is made from (Flask-SocketIO)."""
    kept: dict[str, Any] = request.environ.setdefault("scorekeeper.stream", {})
    return kept


def _draft(data: object = None) -> dict[str, Any]:
    """A draft sent on the stream (the ``draft`` event), for the table the stream watches:
    stored as the PUT stores it, acknowledged with the PUT's answer or refusal
    (``{"status": 4xx, "errors", "problems"}``). Every draft takes a token of the stream's
    bucket (:data:`DRAFT_BURST`, :data:`DRAFT_RATE`): none left, it is refused unread.

    Under gevent (the stream workers) it runs on a greenlet of its own: psycopg waits for
    PostgreSQL cooperatively there (it sees gevent's patched ``select``), so the other streams
    of the process go on meanwhile (only its CPU holds them: 3-4 ms a draft). SQLite's calls
    never yield: a stream worker on SQLite holds all its streams for each draft, and for as
    long as another process holds the write lock (its busy timeout); the development server
    serves each event on a thread, where that blocks nothing else."""
    kept = _kept()
    if kept.get("table") is None:  # a group's screen: it sends nothing
        disconnect()
        return {"status": 403}
    now = time.monotonic()
    tokens = min(DRAFT_BURST, kept.get("tokens", DRAFT_BURST) + (now - kept.get("at", now)) * DRAFT_RATE)
    kept.update(tokens=max(tokens - 1, -DRAFT_BURST), at=now)
    if tokens < -DRAFT_BURST + 1:  # refused a burst's worth already, and still sending
        disconnect()
    lang = data.get("lang") if isinstance(data, dict) and isinstance(data.get("lang"), str) else kept.get("lang")
    answer: AnswerDraft = current_app.extensions["table_drafts"]
    try:
        return answer(kept["table"], data, lang, tokens < 1)
    finally:
        db.session.remove()  # the greenlet's (or thread's) session, at once: the next event is another one


class _RedisAnnouncements(socketio.RedisManager):
    """python-socketio's Redis manager, announcing from a thread of its own, on a
    connection of its own that waits at most a second for Redis; beating through Redis
    while it streams, and listening again within :data:`RECONNECT` seconds of Redis's return.

    A request whose change is announced hands the table over (:meth:`announce`) and
    answers: it never waits for Redis's reply (a round trip that, on a busy machine,
    waits for Redis to get a core: a fifth of a sync worker's time under a table's
    drafts), a hung Redis never holds it, and the table's JSON is made on the thread.
    Each process's announcements leave in the order they were made; pages order what
    they receive by version. Listening keeps the manager's own connection; it starts
    with the process's first stream, so an app worker (no streams) never listens, and
    a process that does both skips its own announcements unread (they went to its
    phones when they were made).

    Redis's publish/subscribe keeps nothing for a listener away: what is announced while a
    process cannot hear is lost to its phones. So a process that streams sends a beat
    (:data:`BEAT`) every :data:`BEAT_INTERVAL` seconds the way its announcements go (its
    announcing thread, Redis, its listener) and passes each of its own on to all its
    phones: a page that stops hearing them knows changes are not reaching it, says so and
    asks for the table slowly, and asks once more when they come back
    (``static/js/stream.js``). Its listener gives up a connection silent for three beats
    (Redis hung, or the network between) and connects again every second while Redis is
    away (python-socketio's own waits 1, 2, 4 … 60 s: a page was 14 s late after a 20 s outage)."""

    def __init__(self, url: str, channel: str) -> None:
        super().__init__(url, channel=channel, redis_options=dict(_REDIS_OPTIONS))

    def initialize(self) -> None:
        """Listen (python-socketio's), and beat: this process streams."""
        super().initialize()
        self.server.start_background_task(self._beat)

    def announce(self, table: Table, extras: dict[str, Any] | None = None) -> None:
        """Hand *table*, just committed, to this process's announcing thread (with what its
        group's room is told beside it, :func:`.tonight.extras`)."""
        self._announcing().put((table, extras))

    def announce_evening(self, evening: _Evening) -> None:
        """Hand *evening* (:func:`announce_standing`) to this process's announcing thread."""
        self._announcing().put(evening)

    def _announcing(self) -> queue.SimpleQueue[_Outgoing | None]:
        """This process's announcing thread's queue (``None``: a beat), the thread started with it."""
        if getattr(self, "_outbox_pid", None) != os.getpid():  # a new process (a forked worker): a new thread
            self._outbox_pid = os.getpid()
            self._outbox: queue.SimpleQueue[_Outgoing | None] = queue.SimpleQueue()
            threading.Thread(target=self._send, args=(self._outbox,), daemon=True, name="announcements").start()
            atexit.register(self._flush, self._outbox)
        return self._outbox

    def _beat(self) -> None:
        while True:
            self.server.sleep(BEAT_INTERVAL)
            self._announcing().put(None)

    def _beat_message(self) -> bytes:
        return self.json.dumps({"beat": self.host_id}).encode()

    def _send(self, outbox: queue.SimpleQueue[_Outgoing | None]) -> None:
        import redis

        client = redis.Redis.from_url(self.redis_url, **_REDIS_OPTIONS)
        lost = False
        while True:
            outgoing = outbox.get()
            try:
                if outgoing is None:
                    client.publish(self.channel, self._beat_message())
                    continue
                for event, rooms, data in _emits(outgoing):
                    message = self._message(event, rooms, data)
                    if any(_watched(self, room) for room in rooms):  # a process that streams too: its own, at once
                        self.server.emit(event, data, to=rooms, ignore_queue=True)
                    client.publish(self.channel, self.json.dumps(message))
                if lost:
                    lost = False
                    log.warning("announcements reach Redis again")
            except redis.RedisError as error:  # said once while Redis is away, not for each change
                if not lost:
                    lost = True
                    log.warning("announcements do not reach Redis (%s); the pages are told by its silence", error)
            except Exception:  # the thread announces every later change all the same
                log.exception("a table's change was not announced")

    def _message(self, event: str, rooms: list[str], data: Any) -> dict[str, Any]:
        """An announcement (*event* with *data*, to *rooms*) as python-socketio's managers pass an
        emit to each other (``PubSubManager.emit``'s), its sender first (:meth:`_listen`) and its
        data known to hold no bytes (no search for them)."""
        return {
            "host_id": self.host_id,
            "method": "emit",
            "event": event,
            "data": [data],
            "binary": False,
            "namespace": "/",
            "room": rooms[0] if len(rooms) == 1 else rooms,
            "skip_sid": None,
            "callback": None,
        }

    def _listen(self) -> Any:
        """What Redis brings, but this process's own announcements, left unread, and the beats:
        its own passed on to every phone here, the other processes' left."""
        own = self.json.dumps({"host_id": self.host_id})[:-1].encode()
        beat = self._beat_message()
        for message in super()._listen():
            if not isinstance(message, bytes):
                yield message
            elif message == beat:
                self.server.emit(BEAT, BEAT_INTERVAL, ignore_queue=True)
            elif not (message.startswith(own) or message.startswith(b'{"beat"')):
                yield message

    def _redis_listen_with_retries(self) -> Any:
        """python-socketio's own, connecting again every :data:`RECONNECT` seconds (not 1, 2, 4 … 60),
        and saying once that Redis is lost and once that it is back (not at every try)."""
        lost = False
        while True:
            try:
                self._redis_connect()
                self.pubsub.subscribe(self.channel)
                if lost:
                    lost = False
                    log.warning("announcements are heard from Redis again")
                    self.server.start_background_task(self._send_again)
                yield from self._heard()
            except Exception as error:  # whatever Redis's client raises for a lost or silent connection
                if not lost:
                    lost = True
                    log.warning("announcements are not heard from Redis (%s); trying every %g s", error, RECONNECT)
                time.sleep(RECONNECT)

    def _send_again(self) -> None:
        """Every table this process has pages of, as it is now, to those pages: the changes made
        on other processes while Redis was away never came here, and a page that did not notice
        the silence (it connected in its last seconds) would not ask for them."""
        app: Flask | None = getattr(self, "app", None)
        if app is None:
            return
        codes = [room for room in self.rooms.get("/", {}) if isinstance(room, str) and normalise_code(room) == room]
        groups = [room for room in self.rooms.get("/", {}) if isinstance(room, str) and room.startswith("group:")]
        with app.app_context():
            try:
                for code in codes:
                    table = service.read(code)
                    if table is not None and _watched(self, code):
                        self.server.emit(EVENT, announcement(table), to=code, ignore_queue=True)
                for room in groups:  # a group's screens: the evening's every table, and the evening
                    missed = _tonight_missed(int(room.partition(":")[2]), {}, None, with_qr=False)
                    if missed is not None and _watched(self, room):
                        self.server.emit(TONIGHT, missed, to=room, ignore_queue=True)
            except Exception:  # the pages ask once they hear the beats again, all the same
                log.exception("the tables were not sent again after Redis's return")
            finally:
                db.session.remove()

    def _heard(self) -> Any:
        """What the subscription brings (redis-py's ``listen()``, which waits for ever), until
        it has been silent for three beats: Redis hung, or the connection lost unnoticed."""
        heard = time.monotonic()
        while True:
            message = self.pubsub.get_message(timeout=BEAT_INTERVAL)
            if message is not None:
                heard = time.monotonic()
                yield message
            elif time.monotonic() - heard > 3 * BEAT_INTERVAL:
                raise TimeoutError(f"nothing heard for {3 * BEAT_INTERVAL} s")

    @staticmethod
    def _flush(outbox: queue.SimpleQueue[_Outgoing | None], seconds: float = 2.0) -> None:
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


def _read_through_the_gate(server: Any) -> None:
    """Every WebSocket of python-socketio server *server* read through :mod:`.gate`. The
    drivers of python-engineio for gevent and threads make simple-websocket's
    (``SimpleWebSocketWSGI``) from the table of the async mode (``_async``, shared by every
    server of that mode: this server gets a copy); python-engineio offers no other way to give
    it a bound of size."""
    from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI

    eio, manager = server.eio, server.manager
    websocket = eio._async["websocket"]
    if not (isinstance(websocket, type) and issubclass(websocket, SimpleWebSocketWSGI)):
        raise RuntimeError(f"streams need simple-websocket's WebSocket, not {websocket!r} (gevent-websocket?)")

    def watching(eio_sid: str) -> bool:
        return manager.sid_from_eio_sid(eio_sid, "/") is not None

    eio._async = {**eio._async, "websocket": gate.gated(websocket, _JSONPacket, FRAME_LIMIT, watching)}


def init_app(app: Flask, answer_draft: AnswerDraft) -> None:
    """Serve the tables' streams on *app* (``/socket.io/``) and announce changes
    through Redis when ``REDIS_URL`` is configured, else within this process.
    Drafts sent on a stream are answered by *answer_draft*."""
    options: dict[str, Any] = {}
    redis_url = app.config.get("REDIS_URL")
    if redis_url:
        options["client_manager"] = _RedisAnnouncements(redis_url, CHANNEL)
        options["client_manager"].app = app  # for the tables it sends again when Redis is back
    app.extensions["table_drafts"] = answer_draft
    streams = SocketIO()
    streams.on("connect")(_watch)
    streams.on(DRAFT)(_draft)
    streams.init_app(
        app,
        serializer=_JSONPacket,
        async_mode="gevent" if _serves_streams() else "threading",
        transports=["websocket"],
        manage_session=False,
        max_http_buffer_size=FRAME_LIMIT,
        # a stream silent this long (a ping every 10 s, its pong awaited 10 s) is lost: the page says
        # so and asks every 10 s within 20 s, not python-engineio's 45 (25 + 20) of a stale table
        ping_interval=PING_INTERVAL,
        ping_timeout=PING_TIMEOUT,
        logger=False,
        engineio_logger=False,
        **options,
    )
    _read_through_the_gate(streams.server)
    app.wsgi_app = _StreamsWhereTheyHoldNoWorker(app.wsgi_app)  # type: ignore[method-assign]
    events.set_publisher(_Announcer())
