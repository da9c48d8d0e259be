"""What a table's stream lets a connection send: each WebSocket message checked as it is
read, before anything decodes it, and the connection closed at the first one refused.

A page (``static/js/stream.js``) sends little: its ticket once, at once (``40{…}``), a pong
every :data:`~.stream.PING_INTERVAL` s (``3``), and its seat's drafts one at a time
(``42<id>["draft",{…}]``, 1.2 KB at most). So a connection is closed, logged in one line
(never a traceback), when it

- sends no ticket within :data:`TICKET_WAIT` seconds, anything before it, or a ticket refused;
- sends a message over :data:`~.stream.FRAME_LIMIT` bytes (simple-websocket stops reading it
  there), a binary one, or one that is not a packet of the page's kinds;
- opens more than :data:`MOST_BRACKETS` arrays and objects in one message: Python's
  ``json`` recurses once for each, so a message nested 1,500 deep costs a traceback and
  the process's CPU, while the biggest draft opens 7;
- sends faster than :data:`MESSAGE_RATE` a second beyond a burst of :data:`MESSAGE_BURST`.

Why here: python-engineio reads a WebSocket in a loop of its own that decodes each message
(and python-socketio's JSON after it) on the connection's greenlet, logging a traceback for
each that fails and reading the next at once; and simple-websocket, its WebSocket under
gevent and threads, reads a message of any size whole before python-engineio compares it
with its ``max_http_buffer_size`` (python-engineio passes that bound to eventlet's and
aiohttp's WebSockets only). One connection sending nested packets without a ticket held a
stream worker's core until gunicorn killed it, with every stream it held (issue 32, item 3).
Read through the gate, such a connection costs one message and one line.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from socketio import packet as socketio_packet

#: Seconds a new connection has to send its ticket (a page sends it at once: one round trip).
TICKET_WAIT = 5.0
#: Arrays and objects one message may open: the biggest draft opens 7, a ticket 1.
MOST_BRACKETS = 32
#: Messages a connection may send in a burst, and a second after it: a page sends a pong every
#: 10 s and drafts one at a time (:data:`~.stream.DRAFT_BURST` refused unread before it is let go).
MESSAGE_BURST = 50
MESSAGE_RATE = 10.0
#: Seconds a watching connection's reader waits before it looks whether the connection is still
#: open: simple-websocket, stopping at a message too big, may close it without waking its reader
#: (it wakes it first, then marks it closed: under threads the reader can look in between).
LOOK = 10.0

log = logging.getLogger(__name__)

#: The Socket.IO packets a page sends inside Engine.IO's message (``4``): connect, disconnect, event.
_PAGE_PACKETS = frozenset({socketio_packet.CONNECT, socketio_packet.DISCONNECT, socketio_packet.EVENT})


class Gate:
    """One connection's gate: what it has sent so far, and whether the next message passes.

    *packet_class* is the server's Socket.IO packet (its JSON module is the one the server
    decodes with); *now* a clock in seconds (monotonic)."""

    def __init__(self, packet_class: type, now: Callable[[], float] = time.monotonic) -> None:
        self.packet_class = packet_class
        self.now = now
        self.opened = self.at = now()
        self.watching = False
        self.tokens = float(MESSAGE_BURST)

    def patience(self) -> float:
        """Seconds to wait for the next message: what is left of :data:`TICKET_WAIT` until the
        ticket came, then :data:`LOOK` at a time (the server's pings find a silent connection)."""
        return LOOK if self.watching else max(0.0, self.opened + TICKET_WAIT - self.now())

    def refusal(self, message: object) -> str | None:
        """Why *message* (one read from the WebSocket; ``None``: none came in time) closes the
        connection, in a few words for the log, or ``None`` when it passes."""
        if message is None:
            return f"no ticket within {TICKET_WAIT:g} s"
        now = self.now()
        self.tokens = min(float(MESSAGE_BURST), self.tokens + (now - self.at) * MESSAGE_RATE) - 1
        self.at = now
        if self.tokens < 0:
            return f"over {MESSAGE_RATE:g} messages a second"
        if not isinstance(message, str):
            return "a binary message"
        if message in ("3", "1"):  # a pong; a close
            return None if self.watching else "a message before its ticket"
        if not message.startswith("4") or not message[1:2].isdigit():
            return "not a packet a page sends"
        if message.count("[") + message.count("{") > MOST_BRACKETS:
            return f"over {MOST_BRACKETS} arrays and objects"
        try:
            packet = self.packet_class(encoded_packet=message[1:])
        except Exception:  # any way of not being a packet: it is said in the log's one line, and closed
            return "a packet that does not decode"
        return self._shape(packet)

    def _shape(self, packet: Any) -> str | None:
        if packet.packet_type not in _PAGE_PACKETS or packet.namespace not in (None, "/"):
            return "not a packet a page sends"
        if packet.packet_type == socketio_packet.CONNECT:
            if self.watching:
                return "a second ticket"
            self.watching = True
            return None
        if not self.watching:
            return "a message before its ticket"
        if packet.packet_type == socketio_packet.EVENT:
            data = packet.data
            if not (isinstance(data, list) and data and isinstance(data[0], str)):
                return "an event without a name"
        return None


class _Yielding:
    """A connection's socket whose reads each let the process's other greenlets run first.

    simple-websocket reads on a greenlet of its own while bytes are there to read, and gevent
    switches greenlets only when a read would wait: a client sending without pause held the
    process for as long as it kept sending. (Under threads, *pause* is ``time.sleep(0)``.)"""

    def __init__(self, sock: Any, pause: Callable[[], object]) -> None:
        self._sock = sock
        self._pause = pause

    def recv(self, size: int) -> bytes:
        self._pause()
        data: bytes = self._sock.recv(size)
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def gated(websocket: type, packet_class: type, frame_limit: int, watching: Callable[[str], bool]) -> type:
    """python-engineio's WebSocket class *websocket* (simple-websocket's, as its gevent and
    threading drivers make it: ``websocket(handler, server)``) reading through a :class:`Gate`
    each, and simple-websocket told to stop reading a message at *frame_limit* bytes.
    *watching(sid)*: whether Engine.IO connection *sid* watches a table (its ticket taken:
    python-socketio answers a refused one and keeps the connection, which is closed here)."""

    class Gated(websocket):
        def __init__(self, handler: Callable[..., Any], server: Any) -> None:
            super().__init__(handler, server)
            self.server_args["max_message_size"] = frame_limit
            self.gate = Gate(packet_class)
            self.pause = functools.partial(server.sleep, 0)
            self.sid = getattr(getattr(handler, "__self__", None), "sid", None)  # its Engine.IO socket's
            self.taken = False

        def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            for key in ("gunicorn.socket", "werkzeug.socket"):  # where simple-websocket takes it from
                if key in environ:
                    environ[key] = _Yielding(environ[key], self.pause)
            return super().__call__(environ, start_response)

        def wait(self) -> object:
            """The next message that passes the gate; ``None`` (python-engineio then closes the
            connection) when the peer closed it, or for the first one refused."""
            import simple_websocket

            self.pause()  # the other connections' turn between two messages of this one
            if self.gate.watching and not self.taken:  # its ticket was read (synchronously) since
                if self.sid is not None and not watching(self.sid):
                    log.warning("a stream was closed: its ticket refused")
                    return None
                self.taken = True
            message = None
            while message is None and self.ws.connected:
                try:
                    message = self.ws.receive(timeout=self.gate.patience())
                except simple_websocket.ConnectionClosed:
                    break
                if not self.gate.watching:
                    break
            if message is None and not self.ws.connected:  # closed by its peer, or by simple-websocket
                if self.ws.incoming_message_len > frame_limit:  # which stopped reading a message there
                    log.warning("a stream was closed: a message over %d bytes", frame_limit)
                return None
            refused = self.gate.refusal(message)
            if refused is not None:
                log.warning("a stream was closed: %s", refused)
                return None
            return message

    return Gated
