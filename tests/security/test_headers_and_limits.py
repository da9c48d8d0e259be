"""Security headers, HTTPS mode, proxies, rate limits, secrets and error pages."""

from __future__ import annotations

import os
import socket
import stat

import pytest
from bs4 import BeautifulSoup

from scorekeeper import create_app
from tests.conftest import CASE_FILES, form_data, load_case, make_test_app, migrated_sqlite

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))


def make_app(tmp_path, **config):
    return make_test_app(tmp_path, **config)


@pytest.mark.parametrize("path", ["/", "/games", "/api/score", "/nowhere"])
def test_security_headers_on_every_response(client, path):
    response = client.get(path)
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_no_inline_scripts_or_styles_anywhere(client):
    page = client.get(client.post("/", data=form_data(FOUR["game"])).headers["Location"])
    for html in (client.get("/").data, page.data):
        soup = BeautifulSoup(html, "lxml")
        assert all(script.get("src") for script in soup.find_all("script"))
        assert not soup.find_all(style=True) and not soup.find_all("style")
        assert not [tag for tag in soup.find_all(True) if any(a.startswith("on") for a in tag.attrs)]


def test_plain_http_by_default_has_no_secure_cookie_or_hsts(tmp_path):
    client = make_app(tmp_path).test_client()
    response = client.get("/")
    assert "Strict-Transport-Security" not in response.headers
    assert "Secure" not in response.headers.get("Set-Cookie", "")


def test_https_mode_redirects_and_marks_cookies_secure(tmp_path):
    client = make_app(tmp_path, HTTPS=True).test_client()
    assert client.get("/", base_url="http://example.test").status_code in (301, 302)
    response = client.get("/", base_url="https://example.test")
    assert response.status_code == 200
    assert "max-age" in response.headers["Strict-Transport-Security"]
    assert "Secure" in response.headers["Set-Cookie"] and "HttpOnly" in response.headers["Set-Cookie"]


def test_the_session_cookie_is_samesite_lax(tmp_path):
    """README (BREACH): the session cookie, which holds the CSRF token, is ``SameSite=Lax``."""
    response = make_app(tmp_path).test_client().get("/")  # a form with a CSRF token: a session
    cookie = next(value for value in response.headers.getlist("Set-Cookie") if value.startswith("session="))
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie


def test_forwarded_headers_ignored_unless_configured(tmp_path):
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.test"}
    plain = make_app(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    url = plain.post("/", data=form_data(FOUR["game"]), headers=headers).headers["Location"]
    share = BeautifulSoup(plain.get(url, headers=headers).data, "lxml").select_one("#share-link")["value"]
    assert share.startswith("http://localhost/")
    proxied = make_app(tmp_path, PROXY_FIX_X_PROTO=1, PROXY_FIX_X_HOST=1).test_client()
    share = BeautifulSoup(proxied.get(url, headers=headers).data, "lxml").select_one("#share-link")["value"]
    assert share.startswith("https://evil.test/")


def test_saving_is_rate_limited_without_losing_entries(tmp_path):
    client = make_app(tmp_path, WTF_CSRF_ENABLED=False, SAVE_RATE_LIMIT="2 per hour").test_client()
    token = client.post("/", data=form_data(FOUR["game"])).headers["Location"].removeprefix("/sheet/")
    statuses = [client.post("/games", data={"token": token}).status_code for _ in range(3)]
    assert statuses == [303, 303, 429]
    refused = client.post("/games", data={"token": token, "location": "Café Drako"})
    assert refused.status_code == 429
    soup = BeautifulSoup(refused.data, "lxml")  # the sheet again, with what was typed
    assert "wait a minute" in soup.select_one("#save-errors").get_text()
    assert soup.select_one("#location")["value"] == "Café Drako"


def test_rate_limited_correction_keeps_the_entries(tmp_path):
    client = make_app(tmp_path, WTF_CSRF_ENABLED=False, SAVE_RATE_LIMIT="1 per hour").test_client()
    token = client.post("/", data=form_data(FOUR["game"])).headers["Location"].removeprefix("/sheet/")
    private = client.post("/games", data={"token": token}).headers["Location"]
    data = form_data(FOUR["game"]) | {"based_on": 1, "players-0-name": "Adele"}
    response = client.post(private + "/edit", data=data)
    assert response.status_code == 429
    soup = BeautifulSoup(response.data, "lxml")
    assert soup.select_one("#players-0-name")["value"] == "Adele"
    assert "wait a minute" in soup.select_one("#form-errors").get_text()


def test_secret_key_generated_once_into_the_instance_folder(tmp_path):
    instance = tmp_path / "instance"
    config = {"SQLALCHEMY_DATABASE_URI": migrated_sqlite(tmp_path / "k.db"), "MIGRATE": False}
    first = create_app(config | {"TESTING": True})
    first.instance_path = str(instance)
    from scorekeeper import _instance_secret_key

    key = _instance_secret_key(instance)
    assert key == _instance_secret_key(instance) and len(key) == 64
    mode = stat.S_IMODE(os.stat(instance / "secret_key").st_mode)
    assert mode == 0o600


def test_error_pages_never_show_a_traceback(tmp_path):
    app = make_app(tmp_path)

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    client = app.test_client()
    response = client.get("/boom")
    assert response.status_code == 500
    assert b"secret internals" not in response.data and b"Traceback" not in response.data
    assert b"Something went wrong" in response.data


def test_cached_sheet_page_gives_each_visitor_their_own_csrf_token(tmp_path):
    app = make_app(tmp_path)
    first, second = app.test_client(), app.test_client()
    token = first.post("/", data=form_data(FOUR["game"]) | {"csrf_token": _csrf(first, "/")}).headers["Location"]
    tokens = [_csrf(client, token) for client in (first, second, first)]
    assert tokens[0] != tokens[1] and "csrf-slot" not in "".join(tokens)
    for client, csrf in ((first, tokens[2]), (second, tokens[1])):
        saved = client.post("/games", data={"csrf_token": csrf, "token": token.removeprefix("/sheet/")})
        assert saved.status_code == 303
    other = second.post("/games", data={"csrf_token": tokens[2], "token": token.removeprefix("/sheet/")})
    assert other.status_code == 400  # one visitor's token is no good to another


def _csrf(client, path: str) -> str:
    soup = BeautifulSoup(client.get(path).data, "lxml")
    return soup.select_one("input[name=csrf_token]")["value"]


def test_trusted_hosts_refuse_a_spoofed_host(tmp_path):
    client = make_app(tmp_path, TRUSTED_HOSTS=["scores.example.org"]).test_client()
    assert client.get("/", headers={"Host": "scores.example.org"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_saves_still_limited_per_process_while_redis_cannot_be_reached(tmp_path):
    """A shared rate-limit store that is down (nothing listens on the port) costs
    no save a 500: each process counts alone until Redis answers again."""
    app = make_app(
        tmp_path,
        WTF_CSRF_ENABLED=False,
        SAVE_RATE_LIMIT="2 per hour",
        RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{_closed_port()}",
    )
    client = app.test_client()
    token = client.post("/", data=form_data(FOUR["game"])).headers["Location"].removeprefix("/sheet/")
    statuses = [client.post("/games", data={"token": token}).status_code for _ in range(3)]
    assert statuses == [303, 303, 429]
    from scorekeeper.web.extensions import limiter

    limiter._storage_dead = False  # one limiter for every app of this test process: the next tests' store is up


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the block ends: nothing listens


@pytest.mark.parametrize(
    ("limit", "processes", "share"),
    [
        ("10 per minute;60 per hour", 4, "2 per 1 minute;15 per 1 hour"),
        ("10 per minute;60 per hour", 16, "1 per 1 minute;3 per 1 hour"),  # at least one each
        ("30 per minute;300 per hour", 1, "30 per 1 minute;300 per 1 hour"),
        ("5/2 seconds", 2, "2 per 2 second"),
    ],
)
def test_a_process_s_share_of_a_limit_is_the_limit_divided_among_the_processes_counting(limit, processes, share):
    from scorekeeper.web.security import share as share_of

    assert share_of(limit, processes) == share


def test_while_redis_cannot_be_reached_each_process_lets_an_address_through_its_share_of_the_limit(tmp_path):
    """Four processes count alone (``RATE_LIMIT_PROCESSES``): this one lets 10 tables a minute
    through as 2 (together they let 8 through), not 10 (together 40: a limit failing open)."""
    app = make_app(
        tmp_path,
        TABLE_RATE_LIMIT="10 per minute",
        RATE_LIMIT_PROCESSES=4,
        RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{_closed_port()}",
    )
    client = app.test_client()
    statuses = [client.post("/api/tables", json={}).status_code for _ in range(4)]
    assert statuses == [201, 201, 429, 429]
    from scorekeeper.web.extensions import limiter

    limiter._storage_dead = False  # (see above)
