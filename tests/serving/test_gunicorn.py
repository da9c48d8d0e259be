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
