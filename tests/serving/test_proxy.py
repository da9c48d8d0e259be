"""nginx in front as in production (deploy/nginx): its access log writes no secret of a path
(issue 24, item 1), and one client address cannot take every connection (item 7)."""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from urllib.parse import urlsplit

import pytest

from tests.serving.databases import fresh_database
from tests.serving.server import GUNICORN_CONF, gunicorn, nginx, release_step, required_program

pytestmark = pytest.mark.slow  # gunicorn and nginx started for the module

PER_ADDRESS = 256  # deploy/nginx/nginx.conf's bound, argued there


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    """``(base URL, nginx's folder)`` of nginx in front of one gunicorn instance."""
    nginx_program = required_program("nginx")
    tmp = tmp_path_factory.mktemp("proxy")
    url = fresh_database(tmp)
    release_step(url)
    env = {"SCOREKEEPER_MIGRATE": "false", "SCOREKEEPER_PROXY_FIX_X_FOR": "1", "SCOREKEEPER_PROXY_FIX_X_PROTO": "1"}
    with contextlib.ExitStack() as stack:
        app = stack.enter_context(gunicorn(url, workers=2, log=tmp / "gunicorn.log", config=GUNICORN_CONF, **env))
        base = stack.enter_context(nginx([app.removeprefix("http://")], tmp / "nginx", program=nginx_program))
        yield base, tmp / "nginx"


def get(base: str, path: str, source: str = "127.0.0.1", **headers: str) -> http.client.HTTPResponse:
    """GET *path* from the client address *source* (any of 127/8 is this machine)."""
    address = urlsplit(base)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10, source_address=(source, 0))
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_the_access_log_writes_no_secret_of_a_path(proxy):
    base, folder = proxy
    secrets = [f"SECRET{n}x" for n in range(8)]
    paths = {
        f"/g/game{secrets[0]}/{secrets[0]}/edit": "/g/<public_id>/<secret>/edit",  # a private link
        f"/join/grp{secrets[1]}/{secrets[2]}": "/join/<public_id>/<secret>",  # an invite link
        f"/t/{secrets[3]}": "/t/<code>",  # a table's code
        f"/t/{secrets[3]}/check/1?seen={secrets[4]}": "/t/<code>/check/1",
        f"/api/tables/{secrets[3]}/seats/2": "/api/...",  # (a GET there: no route answers)
        f"/socket.io/?EIO=4&transport=websocket&ticket={secrets[5]}": "/socket.io/...",  # a stream's ticket
        f"/nowhere/{secrets[6]}": "/nowhere/...",  # no route
        f"/g/{secrets[7]}.json": "/g/<public_id>.json",
    }
    for path in paths:
        response = get(base, path, source="127.0.0.3", Authorization=f"Bearer {secrets[0]}")
        assert response.status < 500 or path.startswith("/socket.io/"), (path, response.status)
        assert response.getheader("X-Scorekeeper-Log-Path") is None  # for the log only
    time.sleep(0.5)  # nginx writes each line as the request ends
    lines = [line for line in (folder / "access.log").read_text().splitlines() if line.startswith("127.0.0.3 ")]
    assert len(lines) == len(paths)
    log = "\n".join(lines)
    for secret in secrets:
        assert secret not in log
    for logged in paths.values():
        assert f'"GET {logged} HTTP/1.1"' in log, log


def test_one_address_cannot_take_every_connection(proxy):
    """A client trickling its headers over 400 connections from one address keeps at most the
    bound; every other one is closed at once, and another address is answered meanwhile."""
    base, folder = proxy
    address = urlsplit(base)
    slow = []
    try:
        for _ in range(400):
            connection = socket.create_connection((address.hostname, address.port), source_address=("127.0.0.4", 0))
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
            slow.append(connection)
        time.sleep(1)
        still_open = 0
        for connection in slow:
            connection.setblocking(False)
            try:
                still_open += connection.recv(1, socket.MSG_PEEK) != b""
            except BlockingIOError:  # nothing to read, not closed: held open
                still_open += 1
            except ConnectionResetError:
                pass
        assert still_open <= PER_ADDRESS, still_open
        assert still_open >= PER_ADDRESS - 10  # the bound, not something smaller (a few may be slow to count)
        answered = [get(base, "/healthz", source="127.0.0.5").status for _ in range(100)]
        assert answered == [200] * 100
    finally:
        for connection in slow:
            connection.close()
    # the client's own address reaches the log (and the app) through the stream block
    assert "127.0.0.5 [" in (folder / "access.log").read_text()
