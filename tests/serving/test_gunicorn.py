"""Several gunicorn workers behave as one app: shared database, shared secret key."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import requests
from bs4 import BeautifulSoup

from tests.conftest import CASE_FILES, form_data, load_case
from tests.serving.server import gunicorn

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))


def csrf_token(session: requests.Session, url: str) -> str:
    soup = BeautifulSoup(session.get(url, timeout=10).text, "lxml")
    return soup.select_one("input[name=csrf_token]")["value"]


@pytest.mark.slow  # three gunicorn workers started and driven in turn
def test_workers_share_games_and_sessions(database_url, tmp_path):
    with gunicorn(database_url, workers=3, log=tmp_path / "gunicorn.log") as base:
        saved = []
        phone_groups = None  # the group cookie of the first save (signed by one worker, read by all)
        for day in range(1, 7):  # six sheets (one game per sheet: saving one again gives the same game)
            session = requests.Session()  # a new connection each time: any worker
            if phone_groups:
                session.cookies.set("groups", phone_groups, domain=urlsplit(base).hostname, path="/")
            token = csrf_token(session, base + "/")
            fields = form_data(FOUR["game"]) | {"csrf_token": token, "played_on": f"2026-11-0{day}"}
            scored = session.post(base + "/", data=fields, timeout=10)
            assert scored.status_code == 200 and "/sheet/" in scored.url
            save_token = BeautifulSoup(scored.text, "lxml").select_one("#save-game input[name=csrf_token]")
            sheet_token = scored.url.rsplit("/", 1)[1]
            private = session.post(
                base + "/games", data={"csrf_token": save_token["value"], "token": sheet_token}, timeout=10
            )
            assert private.status_code == 200, private.text[:300]
            public_id = re.fullmatch(r".*/g/([\w-]+)", private.url)[1]  # the read-only page
            # the private link, shown once: the session and the cookie were read by whichever worker answered
            assert (
                BeautifulSoup(private.text, "lxml").select_one("#private-link")["value"].startswith(private.url + "/")
            )
            saved.append(public_id)
            phone_groups = phone_groups or session.cookies.get("groups")
        for public_id in saved:
            for _ in range(3):
                page = requests.get(f"{base}/g/{public_id}", timeout=10)
                assert page.status_code == 200
                cells = BeautifulSoup(page.text, "lxml").select("#row-total td")
                totals = [int(td["data-value"]) for td in cells]
                assert totals == [p["total"] for p in FOUR["expected"]["players"]]
        history = requests.get(base + "/games.json", cookies={"groups": phone_groups}, timeout=10).json()["games"]
        assert len(history) == 6  # one group: each save went to the group the cookie named
    log = (tmp_path / "gunicorn.log").read_text()
    assert "Traceback" not in log
    assert log.count("Booting worker") >= 3


def test_gunicorn_sends_compressed_pages_and_year_long_static_files(tmp_path):
    """The production setup compresses in the app (Flask-Compress); no proxy is needed for it."""
    with gunicorn(f"sqlite:///{tmp_path / 'games.sqlite3'}", workers=1) as base:
        page = requests.get(base + "/", headers={"Accept-Encoding": "br"}, timeout=10)
        assert page.headers["Content-Encoding"] == "br" and "Accept-Encoding" in page.headers["Vary"]
        assert int(page.headers["Content-Length"]) < len(page.content) / 3  # requests decodes it
        scripts = BeautifulSoup(page.text, "lxml").select("script[src]")
        assert scripts
        for script in scripts:
            static = requests.get(base + script["src"], headers={"Accept-Encoding": "gzip"}, timeout=10)
            assert static.headers["Content-Encoding"] == "gzip"
            assert static.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert static.text.startswith('(function(){"use strict";')  # minified: the comments gone


@pytest.mark.slow  # one gunicorn worker, as production runs it, without nginx in front
def test_nul_in_any_path_segment_through_gunicorn_is_a_4xx(database_url, tmp_path):
    """Issue #24, item 5: NUL in a path (``/g/%00``, ``/join/%00/x``, ``/g/%00.json``)
    answered 500 served by gunicorn alone (nginx refuses it before). Every route, read
    from the app's url_map, with NUL in each path segment, under each method it takes."""
    import socket

    from scorekeeper import create_app

    rules = list(create_app({"TESTING": True, "SECRET_KEY": "x", "MIGRATE": False}).url_map.iter_rules())
    sent = 0
    with gunicorn(database_url, workers=1, log=tmp_path / "gunicorn.log") as base:
        port = int(base.rsplit(":", 1)[1])
        for rule in rules:
            for name in rule.arguments:
                path = re.sub(r"<(?:[^<>:]+:)?(\w+)>", lambda m, name=name: "%00" if m[1] == name else "x", rule.rule)
                for method in sorted(rule.methods - {"OPTIONS"}):
                    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
                        request = (
                            f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        )
                        connection.sendall(request.encode())
                        status = int(connection.makefile("rb").readline().split()[1])
                    sent += 1
                    assert 400 <= status < 500, (method, path, status)
    assert sent >= 50
    assert "Traceback" not in (tmp_path / "gunicorn.log").read_text()
