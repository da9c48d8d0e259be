"""The installed app's parts served by the web layer (issue 26, item 3): the manifest,
the service worker's script and what it keeps, the offline page, a fresh CSRF token."""

from __future__ import annotations

import json
import re

from bs4 import BeautifulSoup
from flask_wtf.csrf import generate_csrf

from scorekeeper.web.offline.views import installed
from tests.conftest import form_data


def worker_data(client) -> dict:
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"  # a browser checks it for updates
    first = response.get_data(as_text=True).split("\n", 1)[0]
    return json.loads(re.fullmatch(r"self\.SCOREKEEPER=(.*);", first).group(1))


def test_the_worker_keeps_exactly_this_versions_static_urls(app, client):
    data = worker_data(client)
    versions = app.extensions["static_versions"]
    expected = {f"/static/{name}?v={version}" for name, version in versions.items() if name != "js/sw.js"}
    assert (
        set(data["kept"]) == expected and "/static/icons/icon-512.png?v=" + versions["icons/icon-512.png"] in expected
    )
    assert data["form"] == "/" and data["offline"] == "/offline"
    assert data["version"] == installed(app).version and re.fullmatch(r"[0-9a-f]{12}", data["version"])
    page = client.get("/")
    assert page.headers["X-App-Version"] == data["version"]  # the worker keeps pages of its own version only
    html = BeautifulSoup(page.data, "html.parser")
    assert html.select_one("#game-form")["data-service-worker"] == "/sw.js"  # registered by the form
    assert {link["href"] for link in html.select("link[rel=stylesheet]")} <= expected  # the page's files are kept


def test_a_changed_static_file_makes_another_version(app, tmp_path):
    from scorekeeper.web.offline.views import Installed

    class Other:
        extensions = {"static_versions": {**app.extensions["static_versions"], "css/app.css": "000000000000"}}
        template_folder = app.template_folder

    other = installed(Other)
    assert isinstance(other, Installed) and other.version != installed(app).version
    assert other.kept == installed(app).kept


def test_the_manifest_opens_the_form_full_screen_in_the_pages_language(client):
    html = BeautifulSoup(client.get("/?lang=de").data, "html.parser")
    href = html.select_one("link[rel=manifest]")["href"]
    assert href == "/manifest/de.webmanifest"
    # the first that matches is taken: dark when the phone is dark, else light
    assert [(m.get("media"), m["content"]) for m in html.select("meta[name=theme-color]")] == [
        ("(prefers-color-scheme: dark)", "#2b1a1d"),
        (None, "#7a1f2b"),
    ]
    response = client.get(href)
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["display"] == "standalone" and manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["lang"] == "de" and manifest["name"] == "DRAKO scorekeeper" and manifest["short_name"] == "DRAKO"
    assert "ohne Verbindung" in manifest["description"]
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as png:
            data = png.data
        assert png.status_code == 200 and data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]
    assert client.get("/manifest/xx.webmanifest").status_code == 404


def test_the_policy_lets_the_worker_and_the_manifest_in(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


def test_the_offline_page_says_it_in_every_language(client):
    html = BeautifulSoup(client.get("/offline").data, "html.parser")
    titles = {section["lang"]: section.h1.get_text() for section in html.select("section.offline-language")}
    assert titles == {
        "en": "No connection", "de": "Keine Verbindung", "fr": "Pas de connexion",
        "it": "Nessuna connessione", "es": "Sin conexión",
    }  # fmt: skip
    pending = html.select_one("#offline-de .offline-kept")["data-pending"]
    assert "{names}" in pending and pending.startswith("Auf diesem Handy")
    assert html.select_one("#offline-en a.button")["href"] == "/"


def test_a_fresh_form_token_is_never_kept(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    response = client.get("/form-token")
    assert response.headers["Cache-Control"] == "no-store"
    token = response.json["csrf_token"]
    scored = client.post("/", data=form_data(_two_players()) | {"csrf_token": token})
    assert scored.status_code == 303 and scored.headers["Location"].startswith("/sheet/")
    stale = client.post("/", data=form_data(_two_players()) | {"csrf_token": "stale"})
    assert stale.status_code == 400 and b"Ann" in stale.data  # refused, every entry still there
    with app.test_request_context():
        assert generate_csrf()  # (the app makes tokens at all)


def _two_players() -> dict:
    row = ["forest", "forest", "forest", "forest"]
    return {"players": [{"name": name, "kingdom": [row] * 4, "legends": []} for name in ("Ann", "Bo")]}


def test_a_scored_post_carrying_its_drafts_id_goes_to_the_sheet_with_it(client):
    """entry.js posts its draft's id; the sheet's address gets it as #draft-<id> (scored.js
    deletes that draft there). Without an id, or a made-up one, the address is the sheet's own."""
    kept = client.post("/", data=form_data(_two_players()) | {"draft": "m3x9k2abc"})
    assert kept.status_code == 303 and re.fullmatch(r"/sheet/[\w.-]+#draft-m3x9k2abc", kept.headers["Location"])
    for draft in ({}, {"draft": "<b>"}, {"draft": "x" * 33}):
        plain = client.post("/", data=form_data(_two_players()) | draft)
        assert plain.status_code == 303 and "#" not in plain.headers["Location"]
    refused = client.post("/", data=form_data(_two_players()) | {"draft": "m3x9k2abc", "players-1-cells-0": ""})
    assert refused.status_code == 422 and b"data-posted" in refused.data  # entry.js keeps its entries
