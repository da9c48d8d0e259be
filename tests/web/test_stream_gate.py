"""The stream's gate (scorekeeper.web.tables.gate, issue 32 item 3): what a connection may send,
each message checked as it is read, the connection closed at the first refused and logged in one
line. The rules one by one on a gate with a clock of the test's, then over real WebSockets to a
threaded server (the development server's: python-engineio's threading driver reads through the
same gate as gevent's); the production shape (gunicorn's gevent worker, nginx, Redis) is
tests/serving/test_stream_attacks.py."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time

import pytest
import websocket
from werkzeug.serving import make_server

from scorekeeper.web.tables import gate
from scorekeeper.web.tables import stream as live
from tests.table.test_service import PLAYERS, seated
from tests.web.test_stream_drafts import draft


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def opened() -> tuple[gate.Gate, Clock]:
    clock = Clock()
    return gate.Gate(live._JSONPacket, now=clock), clock


TICKET = '40{"ticket":"x.y","lang":"en","version":3}'
DRAFT = "4212" + json.dumps([live.DRAFT, draft(2, "s" * 32, PLAYERS[1], lang="de")])


def test_a_page_s_messages_pass_the_ticket_a_pong_drafts_and_a_goodbye():
    door, clock = opened()
    assert door.patience() == gate.TICKET_WAIT
    clock.now += 1
    assert door.patience() == gate.TICKET_WAIT - 1
    for message in (TICKET, "3", DRAFT, '42["draft",{}]', "3", "41", "1"):
        assert door.refusal(message) is None, message
    assert door.patience() == gate.LOOK  # watching: as long as it takes, looking now and then


def test_the_biggest_draft_opens_few_brackets():
    assert DRAFT.count("[") + DRAFT.count("{") == 7 < gate.MOST_BRACKETS


def test_a_connection_without_its_ticket_in_time_or_with_anything_before_it_is_refused():
    door, clock = opened()
    clock.now += gate.TICKET_WAIT + 1
    assert door.patience() == 0
    assert door.refusal(None) == "no ticket within 5 s"
    for first in ("3", DRAFT, "41"):
        assert opened()[0].refusal(first) == "a message before its ticket"


@pytest.mark.parametrize(
    ("message", "why"),
    [
        (b"\x00\x01", "a binary message"),
        ("2", "not a packet a page sends"),  # a ping: the server pings, the page answers
        ("5", "not a packet a page sends"),
        ("4hello", "not a packet a page sends"),
        ("", "not a packet a page sends"),
        ("x" * 100, "not a packet a page sends"),
        ("42" + "[" * 1500 + "]" * 1500, "over 32 arrays and objects"),
        ("42" + '{"a":' * 40 + "1" + "}" * 40, "over 32 arrays and objects"),
        ('42["draft",', "a packet that does not decode"),
        ("42[NaN", "a packet that does not decode"),
        ('42{"draft":1}', "an event without a name"),
        ("42[]", "an event without a name"),
        ("42[7,1]", "an event without a name"),
        ('43["x"]', "not a packet a page sends"),  # an acknowledgement: the server asks for none
        ('451-["draft",{"_placeholder":true,"num":0}]', "not a packet a page sends"),
        ('44{"message":"x"}', "not a packet a page sends"),
        ('42/admin,["draft",{}]', "not a packet a page sends"),
        (TICKET, "a second ticket"),
    ],
)
def test_anything_else_closes_the_connection_at_once(message, why):
    door, _ = opened()
    assert door.refusal(TICKET) is None
    assert door.refusal(message) == why


def test_a_connection_sending_faster_than_a_page_is_refused_past_its_burst_and_let_through_again_later():
    door, clock = opened()
    assert door.refusal(TICKET) is None
    passed = [door.refusal("3") for _ in range(gate.MESSAGE_BURST + 5)]
    assert passed[: gate.MESSAGE_BURST - 1] == [None] * (gate.MESSAGE_BURST - 1)  # the ticket took one
    assert set(passed[gate.MESSAGE_BURST - 1 :]) == {"over 10 messages a second"}
    clock.now += 1
    assert door.refusal("3") is None  # (the connection is closed at the first refusal; a gate could go on)


# -- over real WebSockets


@pytest.fixture
def served(db_app):
    """The app on a threaded server (the development server's), its code and secrets of a seated table."""
    server = make_server("127.0.0.1", 0, db_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with db_app.app_context():
        code, _, secrets = seated()
    with db_app.test_request_context():
        ticket = live.ticket(code)
    yield f"ws://127.0.0.1:{server.server_port}/socket.io/?EIO=4&transport=websocket", ticket, secrets
    server.shutdown()


@pytest.fixture
def connected():
    """Opens a WebSocket to a stream (websocket-client's), past Engine.IO's open packet; all closed at the end."""
    sockets: list[websocket.WebSocket] = []

    def connect(url: str) -> websocket.WebSocket:
        socket = websocket.create_connection(url, timeout=10)
        sockets.append(socket)
        assert socket.recv().startswith("0{")
        return socket

    yield connect
    for socket in sockets:
        socket.shutdown()  # (close() leaves the socket open once the server closed the stream)


def closed_within(socket: websocket.WebSocket, seconds: float) -> bool:
    """Whether the server closes *socket* within *seconds* (whatever it sends before)."""
    deadline = time.monotonic() + seconds
    socket.settimeout(0.2)
    try:
        while time.monotonic() < deadline:
            with contextlib.suppress(websocket.WebSocketTimeoutException):
                if socket.recv() == "":  # its close
                    return True
    except (websocket.WebSocketConnectionClosedException, OSError):
        return True
    return False


def closings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == gate.__name__]


def said_in_time(caplog, said: str) -> None:
    """The gate's log comes to say *said*, once, and nothing else (under threads, a message too big
    may be noticed only at the reader's next look, :data:`~scorekeeper.web.tables.gate.LOOK`)."""
    deadline = time.monotonic() + gate.LOOK + 5
    while not closings(caplog) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert closings(caplog) == [said]


def test_a_connection_that_sends_no_ticket_is_closed_and_said_in_one_line(served, connected, caplog, monkeypatch):
    url, _, _ = served
    monkeypatch.setattr(gate, "TICKET_WAIT", 0.5)
    caplog.set_level(logging.WARNING)
    silent = connected(url)
    assert closed_within(silent, 10)
    said_in_time(caplog, "a stream was closed: no ticket within 0.5 s")


def test_a_connection_whose_ticket_is_refused_is_closed(served, connected, caplog):
    url, ticket, _ = served
    caplog.set_level(logging.WARNING)
    forged = connected(url)
    forged.send("40" + json.dumps({"ticket": ticket[:-2] + "xx"}))
    assert forged.recv().startswith("44")  # python-socketio's refusal, then the gate's close
    assert closed_within(forged, 10)
    said_in_time(caplog, "a stream was closed: its ticket refused")


@pytest.mark.parametrize(
    ("attack", "said"),
    [
        ("42" + "[" * 1500 + "]" * 1500, "a stream was closed: over 32 arrays and objects"),
        ("x" * (live.FRAME_LIMIT + 1), f"a stream was closed: a message over {live.FRAME_LIMIT} bytes"),
        ("42" + "9" * 200, "a stream was closed: a packet that does not decode"),
    ],
)
def test_a_watching_connection_sending_garbage_is_closed_at_its_first_bad_message_while_another_phone_is_told(
    served, connected, caplog, monkeypatch, attack, said
):
    url, ticket, secrets = served
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr(gate, "LOOK", 0.5)
    phone, bad = connected(url), connected(url)
    for socket in (phone, bad):
        socket.send("40" + json.dumps({"ticket": ticket}))
        assert socket.recv().startswith("40")
    with contextlib.suppress(websocket.WebSocketException, OSError):
        for _ in range(20):  # all at once: the first one closes it, the rest is never read
            bad.send(attack)
    assert closed_within(bad, 10)
    phone.send("421" + json.dumps([live.DRAFT, draft(2, secrets[1], PLAYERS[1])]))
    heard = [phone.recv() for _ in range(2)]  # the acknowledgement, and the table pushed
    assert sorted(message[:3] for message in heard) == ["42[", "431"] and '"cards_entered":16' in heard[0] + heard[1]
    said_in_time(caplog, said)
    assert not any(record.exc_info for record in caplog.records)  # no traceback


def test_a_connection_sending_thousands_of_messages_is_closed(served, connected, caplog):
    url, ticket, _ = served
    caplog.set_level(logging.WARNING)
    flooding = connected(url)
    flooding.send("40" + json.dumps({"ticket": ticket}))
    assert flooding.recv().startswith("40")
    with contextlib.suppress(websocket.WebSocketException, OSError):
        for _ in range(gate.MESSAGE_BURST * 4):
            flooding.send('42["nothing",1]')
    assert closed_within(flooding, 10)
    said_in_time(caplog, "a stream was closed: over 10 messages a second")
