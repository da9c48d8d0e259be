"""Drafts sent on a page's open stream (scorekeeper.web.tables.stream's ``draft`` event, issue 31):
stored as the JSON API's PUT stores them, acknowledged with its answer (the seat with its
points so far, the table's version) or its refusal (status, sentences in the page's language,
problems), pushed to the other phones; only for the table the stream's ticket names; a stream
sending too fast is refused unread, then let go. Through Flask-SocketIO's test client, on
SQLite and PostgreSQL, and once over a real WebSocket to a threaded server (the dev server's).
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from werkzeug.serving import make_server

from scorekeeper.engine import LEGENDS_BY_ID, Card
from scorekeeper.table import service
from scorekeeper.web.tables import stream as live
from tests.table.test_service import PLAYERS, announced, cells, enter_all, seated, watching


def draft(number: int, secret: str, player: dict, **more) -> dict:
    """The draft a seat page sends for seat *number*: its whole kingdom and Legends, from an empty base."""
    kingdom = [card for row in player["kingdom"] for card in row]
    base = {"kingdom": [None] * 16, "legends": []}
    return {"seat": number, "secret": secret, "kingdom": kingdom, "legends": player["legends"], "base": base} | more


def sent(stream, data) -> dict:
    """The acknowledgement of *data* sent as a draft on *stream*."""
    return stream.emit(live.DRAFT, data, callback=True)


def test_a_draft_on_the_stream_is_stored_acked_with_its_points_and_pushed_to_the_others(db_app):
    with db_app.app_context():
        code, host, secrets = seated()
    ada, bo = watching(db_app, code), watching(db_app, code)
    answer = sent(bo, draft(2, secrets[1], PLAYERS[1], done=True))
    with db_app.app_context():
        table = service.find(code)
    assert answer["seat"] == 2 and answer["version"] == table.version and answer["done"] is True
    assert answer["total"] == 13 and answer["cards_entered"] == 16  # case 19: Bo's 13 Harmony Points
    assert len(answer["points"]) == 16 and answer["rows"]
    assert table.seat(2).cells == cells(PLAYERS[1])
    # the PUT's answer, word for word
    api = db_app.test_client().get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {secrets[1]}"}).json
    assert answer == api["seats"][1] | {"version": api["version"]}
    pushed = announced(ada)
    assert [t["version"] for t in pushed] == [table.version] and pushed[0]["seats"][1]["cards_entered"] == 16
    # the host's secret enters for any seat
    assert sent(ada, draft(3, host, PLAYERS[2]))["cards_entered"] == 16


def test_a_draft_on_the_stream_is_refused_as_the_put_refuses_it_in_the_page_s_language(db_app):
    with db_app.app_context():
        code, host, secrets = seated(checks=False)
        other, other_host, other_secrets = seated()
    stream = watching(db_app, code)
    wrong = sent(stream, draft(2, secrets[2], PLAYERS[1]))  # Cy's secret for Bo's seat
    assert wrong["status"] == 403 and wrong["problems"][0]["id"] == "seat-not-yours" and wrong["errors"]
    # another table's secrets on this table's stream: its ticket names this table only
    assert sent(stream, draft(2, other_secrets[1], PLAYERS[1]))["status"] == 403
    assert sent(stream, draft(1, other_host, PLAYERS[0]))["status"] == 403
    # what the PUT says, in the page's language
    put = db_app.test_client().put(
        f"/api/tables/{code}/seats/2",
        json=draft(2, "", PLAYERS[1]),
        headers={"Authorization": f"Bearer {secrets[2]}", "Accept-Language": "de"},
    )
    german = sent(stream, draft(2, secrets[2], PLAYERS[1], lang="de"))
    assert german == put.json | {"status": put.status_code} and german["errors"] != wrong["errors"]
    bad = sent(stream, draft(2, secrets[1], PLAYERS[1], kingdom=["mountain"] * 15 + ["unicorn"], done="yes"))
    assert bad["status"] == 400 and {p["id"] for p in bad["problems"]} == {"done-not-boolean"}
    assert sent(stream, draft(5, host, PLAYERS[0]))["status"] == 404  # no such seat
    assert sent(stream, draft(True, host, PLAYERS[0]))["status"] == 404
    assert sent(stream, ["not", "an", "object"])["status"] == 400
    with db_app.app_context():
        assert service.find(code).seat(2).cells == (None,) * 16  # nothing written
        assert service.find(other).seat(2).cells == (None,) * 16
        enter_all(code, secrets)
        service.lock(code, [host])
    locked = sent(stream, draft(2, secrets[1], PLAYERS[1]))
    assert locked["status"] == 409 and locked["problems"][0]["id"] == "table-locked"


def test_a_draft_on_the_stream_while_the_database_is_down_is_answered_503_to_be_sent_again(db_app, monkeypatch):
    from sqlalchemy.exc import OperationalError

    with db_app.app_context():
        code, _, secrets = seated()
    stream = watching(db_app, code)

    def down(*args, **kwargs):
        raise OperationalError("UPDATE score_tables …", {}, Exception("connection refused"))

    monkeypatch.setattr(service, "save_draft", down)
    answer = sent(stream, draft(2, secrets[1], PLAYERS[1]))
    assert answer["status"] == 503 and answer["problems"][0]["id"] == "service-unavailable"
    monkeypatch.undo()
    assert sent(stream, draft(2, secrets[1], PLAYERS[1]))["cards_entered"] == 16  # the stream goes on


def test_a_stream_sending_thousands_of_drafts_is_refused_unread_and_let_go(db_app, monkeypatch):
    with db_app.app_context():
        code, _, secrets = seated()
    stream = watching(db_app, code)
    monkeypatch.setattr(live, "DRAFT_RATE", 0.0)  # as if all came in one instant: no token comes back
    statuses = []
    while stream.is_connected() and len(statuses) < live.DRAFT_BURST * 3:  # at once, no answer awaited
        statuses.append(sent(stream, draft(2, secrets[1], PLAYERS[1])).get("status", 200))
    assert statuses[: live.DRAFT_BURST] == [200] * live.DRAFT_BURST  # a burst, then refused unread …
    assert set(statuses[live.DRAFT_BURST :]) == {429} and not stream.is_connected()  # … and let go
    assert live.DRAFT_BURST * 2 <= len(statuses) <= live.DRAFT_BURST * 2 + 2


def test_a_seat_s_drafts_are_bounded_on_the_stream_and_the_put_together_and_only_the_ones_stored_count(tmp_path):
    """``DRAFT_RATE_LIMIT`` per seat (here 3 a minute; by default 10 a second and 180 a minute, far
    past a person's taps): drafts through both ways count against one bound; beyond it both
    answer 429 (the page sends it again a moment later). Another seat has its own; drafts
    refused for a wrong secret count against nobody (nobody holds a seat by knowing its number)."""
    from tests.conftest import make_test_app

    app = make_test_app(tmp_path, DRAFT_RATE_LIMIT="3 per minute")  # the limits on, in memory
    with app.app_context():
        code, _, secrets = seated()
    stream, client = watching(app, code), app.test_client()

    def put(number: int, secret: str) -> int:
        body = draft(number, secret, PLAYERS[number - 1])
        headers = {"Authorization": f"Bearer {secret}"}
        return client.put(f"/api/tables/{code}/seats/{number}", json=body, headers=headers).status_code

    def streamed(number: int, secret: str) -> int:
        return sent(stream, draft(number, secret, PLAYERS[number - 1])).get("status", 200)

    assert [put(2, "not-bo") for _ in range(5)] == [403] * 5
    assert [put(2, secrets[1]), streamed(2, secrets[1]), put(2, secrets[1])] == [200, 200, 200]
    assert [streamed(2, secrets[1]), put(2, secrets[1])] == [429, 429]
    refused = sent(stream, draft(2, secrets[1], PLAYERS[1]))
    assert refused["problems"][0]["id"] == "too-many-requests" and refused["errors"]
    assert [streamed(3, secrets[2]), put(3, secrets[2])] == [200, 200]  # Cy's seat: a bound of its own


def test_the_biggest_draft_a_seat_may_send_fits_the_stream_s_frames():
    """16 of the longest card id, every Legend, in the draft and its base, with a secret and an ack id."""
    longest = [max((card.value for card in Card), key=len)] * 16
    legends = list(LEGENDS_BY_ID)
    biggest = {"seat": 4, "secret": "x" * 32, "lang": "de", "kingdom": longest, "legends": legends, "done": True}
    biggest["base"] = {"kingdom": longest, "legends": legends}
    frame = "42" + "9" * 10 + json.dumps([live.DRAFT, biggest])
    assert len(frame.encode()) <= 1200 <= live.FRAME_LIMIT  # 1,152 bytes


@pytest.fixture
def served(db_app):
    """The app on a threaded server, as ``make run`` and the browser tests serve it."""
    server = make_server("127.0.0.1", 0, db_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_a_draft_over_a_real_websocket_is_acked_and_pushed_to_another_phone(db_app, served):
    import socketio

    with db_app.app_context():
        code, _, secrets = seated()
    with db_app.test_request_context():
        ticket = live.ticket(code)
    other = socketio.Client(reconnection=False)
    pushed: list[dict] = []
    other.on(live.EVENT, pushed.append)
    phone = socketio.Client(reconnection=False)
    try:
        for stream in (other, phone):
            stream.connect(served, transports=["websocket"], auth={"ticket": ticket, "lang": "en"}, wait_timeout=10)
        answer = phone.call(live.DRAFT, draft(1, secrets[0], PLAYERS[0]), timeout=10)
        assert answer["total"] == 11 and answer["cards_entered"] == 16  # case 19: Ada's 11
        deadline = time.monotonic() + 10
        while not pushed and time.monotonic() < deadline:
            time.sleep(0.02)
        assert pushed and pushed[-1]["version"] == answer["version"]
        refused = phone.call(live.DRAFT, draft(1, "wrong", PLAYERS[0]), timeout=10)
        assert refused["status"] == 403
        with pytest.raises(socketio.exceptions.ConnectionError):
            socketio.Client(reconnection=False).connect(
                served, transports=["websocket"], auth={"ticket": code}, wait_timeout=10
            )
    finally:
        other.disconnect()
        phone.disconnect()
