"""The tables' stream (scorekeeper.web.tables.stream), the publisher of the table's events
the app factory installs: what it sends to a phone of its own process, and to Redis for
every other process (a redis-server of the test's own; the end to end run over two
servers is tests/serving/test_tables_two_servers.py)."""

from __future__ import annotations

import json
import time
from datetime import date

import pytest
from socketio.packet import Packet

from scorekeeper.table import service
from scorekeeper.web.tables import stream
from scorekeeper.web.tables.wire import push
from tests.conftest import make_test_app

DAY = date(2026, 11, 30)


def phone_watching(app, code: str) -> list[Packet]:
    """A phone connected to *app*'s process, in table *code*'s room: the Socket.IO packets sent to it."""
    server = app.extensions["socketio"].server
    sent: list[Packet] = []
    server.manager_initialized = True
    server.manager.initialize()  # as a first stream does (with Redis: the manager starts listening)
    server.manager.enter_room(server.manager.connect("the-phone", "/"), "/", code)
    server._send_eio_packet = lambda eio_sid, packet: sent.append(Packet(encoded_packet=packet.data))
    return sent


def wait_for(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.01)


def test_without_redis_a_change_goes_to_the_phones_watching_and_nothing_is_made_for_nobody(tmp_path, monkeypatch):
    app = make_test_app(tmp_path)
    made = []
    monkeypatch.setattr(stream, "push", lambda table: made.append(table.version) or push(table))
    with app.app_context():
        table, host = service.start("pocket", DAY)
        service.take_seat(table.code, "Ada", [host])  # nobody watches yet
        assert made == []
        sent = phone_watching(app, table.code)
        after, _, _ = service.take_seat(table.code, "Bo", [])
    assert made == [3]
    assert [(packet.packet_type, packet.data) for packet in sent] == [(2, ["table", push(after)])]


def test_with_redis_a_change_goes_to_redis_once_and_to_this_process_phones_once(tmp_path):
    import redis

    from tests.serving.server import redis_server, required_program

    with redis_server(required_program("redis-server")) as url:
        app = make_test_app(tmp_path, REDIS_URL=url)
        elsewhere = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        elsewhere.subscribe(stream.CHANNEL)  # another process's stream workers
        with app.app_context():
            table, host = service.start("pocket", DAY)
            sent = phone_watching(app, table.code)
            manager = app.extensions["socketio"].server.manager
            wait_for(lambda: elsewhere.connection is not None and manager.redis is not None)
            after, _ = service.take_seat(table.code, "Ada", [host])[:2]
        published: list[dict] = []
        wait_for(lambda: published.extend(filter(None, [elsewhere.get_message(timeout=0.1)])) or published)
        published += filter(None, (elsewhere.get_message(timeout=0.1) for _ in range(5)))
        elsewhere.close()  # its own announcement, read back from Redis meanwhile, was not sent to the phone again
    assert [(packet.packet_type, packet.data) for packet in sent] == [(2, ["table", push(after)])]
    (message,) = published
    announced = json.loads(message["data"])
    assert announced == {
        "host_id": manager.host_id,
        "method": "emit",
        "event": "table",
        "data": [push(after)],
        "binary": False,
        "namespace": "/",
        "room": table.code,
        "skip_sid": None,
        "callback": None,
    }


@pytest.mark.parametrize("data", [b"bytes", {"nested": [b"bytes"]}])
def test_a_stream_carries_json_only_so_bytes_fail_loudly(data):
    with pytest.raises(TypeError):
        stream._JSONPacket(2, ["table", data]).encode()
