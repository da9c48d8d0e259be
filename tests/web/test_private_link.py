"""The private link stays private (issue 12, item 2) and the smaller leaks of
issue 14, item 9: after saving, the read-only address, the secret shown once;
the saving phone keeps "Correct" and "Delete" through a cookie; no Referer from
any page; no-store where a secret is; the lang cookie Secure over HTTPS; a kept
sheet without the first visitor's query; Vary: Accept-Language."""

from __future__ import annotations

import hashlib
import re

import pytest
import sqlalchemy
from bs4 import BeautifulSoup

from scorekeeper import create_app
from tests.conftest import CASE_FILES, form_data, load_case, make_test_app, saved_links

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def save(client, base_url: str = "http://localhost"):
    """Save case 19; the answer to the save."""
    sheet = client.post("/", data=form_data(FOUR["game"]), base_url=base_url).headers["Location"]
    return client.post("/games", data={"token": sheet.removeprefix("/sheet/")}, base_url=base_url)


def cookie_header(response, name_start: str) -> str:
    return next(value for value in response.headers.getlist("Set-Cookie") if value.startswith(name_start))


def test_saving_lands_on_the_read_only_address_with_the_secret_only_in_the_copy_box(db_client):
    response = save(db_client)
    assert response.status_code == 303 and re.fullmatch(r"/g/[\w-]+", response.headers["Location"])
    public = response.headers["Location"]
    page = db_client.get(public)
    html = page.get_data(as_text=True)
    box = soup_of(page).select_one("#private-link-box")
    private = box.select_one("input#private-link")["value"]
    secret = private.rsplit("/", 1)[1]
    assert private == f"http://localhost{public}/{secret}" and len(secret) == 32
    assert html.count(secret) == 1  # in the box, nowhere else (no link, no form action)
    assert "Anyone with this link can correct or delete the game" in box.select_one(".warning").get_text()
    assert box.select_one("button.js-copy")["data-copy"] == "private-link"
    assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
    again = db_client.get(public)  # shown once: a reload no longer holds it
    assert secret not in again.get_data(as_text=True)
    soup = soup_of(again)
    assert soup.select_one("#edit")["href"] == public + "/edit"  # the saving phone keeps its controls
    assert soup.select_one("#delete-game")["action"] == public + "/delete"
    assert again.headers["Cache-Control"] == "no-store"


def test_the_phone_remembers_its_secret_in_a_signed_cookie_of_that_game(tmp_path):
    client = make_test_app(tmp_path, WTF_CSRF_ENABLED=False, HTTPS=True).test_client()
    response = save(client, base_url="https://localhost")
    public = response.headers["Location"]
    cookie = cookie_header(response, "edit-")
    name, value = cookie.split(";")[0].split("=", 1)
    assert name == "edit-" + public.removeprefix("/g/")
    attributes = {part.strip().split("=")[0].lower(): part for part in cookie.split(";")[1:]}
    assert {"httponly", "secure", "samesite", "path", "max-age"} <= set(attributes)
    assert "SameSite=Lax" in cookie and f"Path={public}" in cookie
    assert len(name) + len(value) < 120  # bounded: one small cookie per game, sent to that game only
    secret = soup_of(client.get(public, base_url="https://localhost")).select_one("#private-link")["value"]
    assert secret.rsplit("/", 1)[1] not in value  # signed and encoded, not the bare secret
    forged = value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB")
    client.set_cookie(name, forged, domain="localhost", path=public)
    assert soup_of(client.get(public, base_url="https://localhost")).select_one("#edit") is None
    assert client.get(public + "/edit", base_url="https://localhost").status_code == 403


def test_an_old_private_link_is_remembered_and_leaves_the_address_bar(db_client):
    public, private = saved_links(db_client, save(db_client))
    phone = db_client.application.test_client()  # another phone, given the private link
    assert soup_of(phone.get(public)).select_one("#edit") is None
    opened = phone.get(private)
    assert opened.status_code == 303 and opened.headers["Location"] == public
    assert opened.headers["Cache-Control"] == "no-store"
    assert cookie_header(opened, "edit-").startswith("edit-" + public.removeprefix("/g/"))
    page = phone.get(public)
    assert soup_of(page).select_one("#edit")["href"] == public + "/edit"
    assert private.rsplit("/", 1)[1] not in page.get_data(as_text=True)
    corrected = phone.post(public + "/edit", data=form_data(FOUR["game"]) | {"based_on": 1, "location": "Garden"})
    assert corrected.status_code == 303 and corrected.headers["Location"] == public
    assert soup_of(phone.get(public)).select_one("#location").get_text() == "Garden"
    assert phone.get(private + "/edit").status_code == 200  # the old addresses keep working
    deleted = phone.post(public + "/delete", data={"confirm": "yes"})
    assert deleted.status_code == 303 and phone.get(public).status_code == 404
    assert "Max-Age=0" in cookie_header(deleted, "edit-") or "Expires=Thu, 01 Jan 1970" in deleted.headers["Set-Cookie"]


@pytest.mark.parametrize("suffix", ["", "/edit"])
def test_pages_that_hold_a_secret_are_not_stored(db_client, suffix):
    public, private = saved_links(db_client, save(db_client))
    for url in (private + suffix, public + suffix):
        response = db_client.get(url)
        assert response.headers["Cache-Control"] == "no-store", url
        assert response.headers["Referrer-Policy"] == "no-referrer", url
    stranger = db_client.application.test_client().get(public)  # the read-only page holds none
    assert "no-store" not in stranger.headers.get("Cache-Control", "")


@pytest.mark.parametrize(
    "path", ["/", "/games", "/games/import", "/player?name=Ada", "/nowhere", "/static/css/app.css", "/healthz"]
)
def test_no_page_sends_a_referer(db_client, path):
    """Issue 14, item 9: a private page put its secret in 8 access-log lines, 5 of
    them static files through the Referer. No page lets the browser send one."""
    save(db_client)
    with db_client.get(path) as response:
        assert response.headers["Referrer-Policy"] == "no-referrer", path


def test_the_language_cookie_is_secure_over_https(tmp_path_factory):
    """Issue 14, item 9: ``?lang=de`` over HTTPS set ``lang`` without ``Secure``."""
    https = make_test_app(tmp_path_factory.mktemp("https"), HTTPS=True).test_client()
    cookie = cookie_header(https.get("/?lang=de", base_url="https://localhost"), "lang=")
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    plain = make_test_app(tmp_path_factory.mktemp("plain")).test_client()  # plain HTTP (a phone on the local network)
    assert "Secure" not in cookie_header(plain.get("/?lang=de"), "lang=")


def test_a_kept_sheet_does_not_carry_the_first_visitors_query(client):
    """Issue 14, item 9: the first visitor's ``?ref=…`` stayed in everyone's language link."""
    sheet = client.post("/", data=form_data(FOUR["game"])).headers["Location"]
    first = soup_of(client.get(sheet + "?ref=first-visitor&x=%3Cb%3E"))
    assert first.select_one("#lang-de")["href"] == "?lang=de"
    second = client.application.test_client().get(sheet)
    assert soup_of(second).select_one("#lang-de")["href"] == "?lang=de"
    assert b"first-visitor" not in second.data
    history = soup_of(client.get("/games?player=Ada"))  # a page drawn for each visitor keeps its own query
    assert history.select_one("#lang-de")["href"] == "?player=Ada&lang=de"


def test_pages_whose_language_is_negotiated_vary_on_accept_language(db_client):
    """Issue 14, item 9: every page written in the negotiated language says so to caches."""
    public, private = saved_links(db_client, save(db_client))
    sheet = db_client.post("/", data=form_data(FOUR["game"])).headers["Location"]
    for url in ("/", sheet, sheet + "/edit", public, public + "/edit", "/games", "/player?name=Ada", "/nowhere"):
        vary = {part.strip() for part in db_client.get(url).headers.get("Vary", "").split(",")}
        assert {"Accept-Language", "Cookie"} <= vary, url


def test_the_edit_cookie_is_kept_400_days_about_90_bytes_and_secure_only_over_https(db_client):
    """README: ``edit-<id>``, sent only to ``/g/<id>…``, ``HttpOnly``, ``SameSite=Lax``,
    ``Secure`` over HTTPS, kept 400 days, about 90 bytes."""
    response = save(db_client)  # plain HTTP: a phone on the local network
    public = response.headers["Location"]
    cookie = cookie_header(response, "edit-")
    name, value = cookie.split(";")[0].split("=", 1)
    attributes = [part.strip() for part in cookie.split(";")[1:]]
    assert f"Max-Age={400 * 24 * 3600}" in attributes and f"Path={public}" in attributes
    assert "HttpOnly" in attributes and "SameSite=Lax" in attributes and "Secure" not in attributes
    assert 70 <= len(name) + 1 + len(value) <= 110, (name, value)
    assert db_client.get_cookie(name, path=public) is not None
    assert db_client.get_cookie(name, path="/games") is None  # not sent to other pages


def test_a_new_secret_key_forgets_the_cookies_but_not_the_private_links(database_url):
    """README: a new secret key makes phones forget these cookies; the private links still work."""
    config = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": database_url, "MIGRATE": False}
    before = create_app(config | {"SECRET_KEY": "old key"})
    phone = before.test_client()
    public, private = saved_links(phone, save(phone))
    assert soup_of(phone.get(public)).select_one("#edit") is not None
    after = create_app(config | {"SECRET_KEY": "new key"})
    same_phone = after.test_client()
    remembered = phone.get_cookie("edit-" + public.removeprefix("/g/"), path=public)
    same_phone.set_cookie(remembered.key, remembered.value, path=public)  # the phone keeps its cookie
    still = before.test_client()
    still.set_cookie(remembered.key, remembered.value, path=public)
    assert soup_of(still.get(public)).select_one("#edit") is not None  # the cookie alone does it, under its key
    assert soup_of(same_phone.get(public)).select_one("#edit") is None
    assert same_phone.get(public + "/edit").status_code == 403
    assert same_phone.get(private + "/edit").status_code == 200
    opened = same_phone.get(private)
    assert opened.status_code == 303 and opened.headers["Location"] == public
    assert soup_of(same_phone.get(public)).select_one("#edit")["href"] == public + "/edit"  # remembered anew


def test_edit_secrets_are_stored_as_their_sha256_only(db_client):
    """README: edit secrets are stored hashed (SHA-256)."""
    public, private = saved_links(db_client, save(db_client))
    secret = private.rsplit("/", 1)[1]
    with db_client.application.app_context():
        from scorekeeper.store import db

        rows = [
            row
            for table in ("saved_games", "game_revisions", "player_results")
            for row in db.session.execute(sqlalchemy.text(f"SELECT * FROM {table}")).all()  # noqa: S608
        ]
        [game] = db.session.execute(sqlalchemy.text("SELECT edit_token_hash FROM saved_games")).all()
    assert game.edit_token_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert not any(secret in str(value) for row in rows for value in row)
