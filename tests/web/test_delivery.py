"""Compressed responses and static files under versioned URLs (scorekeeper/web/delivery.py)."""

from __future__ import annotations

import gzip
import hashlib
import re
import shutil
import zlib
from pathlib import Path

import brotli
import pytest
import rcssmin
import rjsmin
from bs4 import BeautifulSoup
from flask import Flask, url_for

from scorekeeper import create_app
from scorekeeper.engine import Game
from scorekeeper.web import delivery
from scorekeeper.web.links import encode_game
from tests.conftest import CASE_FILES, form_data, load_case

STATIC = Path(__file__).resolve().parents[2] / "static"
FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
#: Static files are sent from open files: buffered=True closes them at once (the server closes them too).
DECODE = {
    "br": brotli.decompress,
    "gzip": gzip.decompress,
    "deflate": zlib.decompress,
    "zstd": delivery.zstd.decompress,
}
IMMUTABLE = "public, max-age=31536000, immutable"


def linked_static_urls(html: str) -> list[str]:
    soup = BeautifulSoup(html, "lxml")
    return [tag.get("href") or tag.get("src") for tag in soup.select("link[href^='/static/'], script[src^='/static/']")]


def without_csrf_token(html: bytes) -> bytes:
    """The page without its CSRF token (signed with the time: two requests may differ)
    and its save form's one-time attempt (one per form shown)."""
    return re.sub(rb'(name="(?:csrf_token|attempt)" type="hidden" value=")[^"]*', rb"\1", html)


def sent(path: Path) -> bytes:
    """What is sent for a static file: a stylesheet or script minified, anything else as it is."""
    if path.suffix == ".css":
        return rcssmin.cssmin(path.read_text(encoding="utf-8")).encode()
    if path.suffix == ".js":
        return rjsmin.jsmin(path.read_text(encoding="utf-8")).encode()
    return path.read_bytes()


def sha12(path: Path) -> str:
    return hashlib.sha256(sent(path)).hexdigest()[:12]


@pytest.mark.parametrize("encoding", ["br", "gzip", "deflate"])
def test_pages_styles_scripts_and_json_come_compressed(client, encoding):
    sheet = client.post("/", data=form_data(FOUR)).headers["Location"]
    plain = client.get(sheet)
    asked = client.get(sheet, headers={"Accept-Encoding": encoding})
    assert asked.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in asked.headers["Vary"]
    assert without_csrf_token(DECODE[encoding](asked.data)) == without_csrf_token(plain.data)
    assert len(asked.data) < len(plain.data) / 3
    assert "Content-Encoding" not in plain.headers
    for url in linked_static_urls(plain.get_data(as_text=True)):
        if url.endswith((".css", ".js")):
            static = client.get(url, headers={"Accept-Encoding": encoding}, buffered=True)
            assert static.headers["Content-Encoding"] == encoding, url
            path = STATIC / url.removeprefix("/static/").split("?")[0]
            assert DECODE[encoding](static.data) == sent(path)
    answer = client.post("/api/score", json=FOUR, headers={"Accept-Encoding": encoding})
    assert answer.headers["Content-Encoding"] == encoding
    assert b'"winners"' in DECODE[encoding](answer.data)


@pytest.mark.pdf
def test_a_pdf_is_not_compressed_again(client):
    sheet = client.post("/", data=form_data(FOUR)).headers["Location"]
    pdf = client.get(sheet + ".pdf", headers={"Accept-Encoding": "br, gzip"})
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    assert "Content-Encoding" not in pdf.headers


def test_each_visitor_of_a_cached_sheet_gets_their_own_csrf_token_compressed(tmp_path):
    """The sheet page is cached with a slot for the CSRF token; compression comes after filling it."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/t.db"})
    sheet = "/sheet/" + encode_game(Game.from_dict(FOUR))
    tokens = []
    for _ in range(2):
        visitor = app.test_client()
        page = visitor.get(sheet, headers={"Accept-Encoding": "br"})
        assert page.headers["Content-Encoding"] == "br"
        html = brotli.decompress(page.data).decode()
        assert "csrf-slot-" not in html
        tokens.append(BeautifulSoup(html, "lxml").select_one("#save-game input[name=csrf_token]")["value"])
    assert tokens[0] != tokens[1]


def test_every_static_url_of_every_page_carries_its_file_hash(client):
    sheet = client.post("/", data=form_data(FOUR)).headers["Location"]
    pages = ["/", sheet, sheet + "/edit", "/games", "/games/import", "/no-such-page"]
    seen = set()
    for page in pages:
        html = client.get(page).get_data(as_text=True)
        for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', html):
            filename, _, query = url.removeprefix("/static/").partition("?")
            assert query == f"v={sha12(STATIC / filename)}", url
            seen.add(filename)
    assert {"css/app.css", "css/form.css", "css/sheet.css", "js/app.js", "js/entry.js", "js/sheet.js"} <= seen


def test_versioned_static_files_are_kept_a_year_and_others_revalidated(client):
    current = f"/static/js/entry.js?v={sha12(STATIC / 'js' / 'entry.js')}"
    versioned = client.get(current, buffered=True)
    assert versioned.status_code == 200 and versioned.headers["Cache-Control"] == IMMUTABLE
    for url in ("/static/js/entry.js", "/static/js/entry.js?v=0123456789ab"):
        unversioned = client.get(url, buffered=True)
        assert unversioned.status_code == 200
        assert unversioned.headers["Cache-Control"] == "no-cache", url
    assert client.get("/static/js/no-such.js?v=0123456789ab", buffered=True).status_code == 404


@pytest.mark.parametrize("encoding", ["br", "gzip", None])
def test_a_revalidated_static_file_is_answered_304(client, encoding):
    headers = {"Accept-Encoding": encoding} if encoding else {}
    for url in ("/static/css/app.css", f"/static/css/app.css?v={sha12(STATIC / 'css' / 'app.css')}"):
        first = client.get(url, headers=headers, buffered=True)
        etag = first.headers["ETag"]
        assert etag.endswith(f':{encoding}"') if encoding else ":" not in etag
        again = client.get(url, headers=headers | {"If-None-Match": etag}, buffered=True)
        assert again.status_code == 304 and again.data == b""
        assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    if encoding is None:
        return
    # another encoding is another representation: its ETag does not match
    other = client.get(
        "/static/css/app.css", headers={"Accept-Encoding": "deflate", "If-None-Match": etag}, buffered=True
    )
    assert other.status_code == 200 and other.headers["Content-Encoding"] == "deflate"


def test_a_range_of_a_static_file_is_sent_whole_and_compressed(client):
    """Compressed bytes could not match a Content-Range of the file: the range is not served."""
    asked = client.get("/static/css/app.css", headers={"Accept-Encoding": "br", "Range": "bytes=0-4999"}, buffered=True)
    assert asked.status_code == 200 and "Content-Range" not in asked.headers
    assert brotli.decompress(asked.data) == sent(STATIC / "css" / "app.css")


def _app_serving(folder: Path) -> Flask:
    """An app whose static files are *folder*, set up as create_app sets up ours (a new process)."""
    app = Flask(__name__, static_folder=str(folder))
    delivery.init_app(app)
    return app


def _static_url(app: Flask, filename: str) -> str:
    with app.test_request_context():
        return url_for("static", filename=filename)


def test_a_changed_static_file_gets_a_new_url(tmp_path):
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    before = _app_serving(folder)
    script = folder / "js" / "app.js"
    script.write_text(
        script.read_text(encoding="utf-8") + "window.deployed = 1; // a deploy changed this\n", encoding="utf-8"
    )
    after = _app_serving(folder)  # started after the deploy

    assert _static_url(before, "js/app.js") != _static_url(after, "js/app.js")
    assert _static_url(after, "js/app.js") == f"/static/js/app.js?v={sha12(script)}"
    assert _static_url(before, "css/app.css") == _static_url(after, "css/app.css")  # unchanged, still cached
    client = after.test_client()
    new = client.get(_static_url(after, "js/app.js"), buffered=True)
    assert new.data.endswith(b"window.deployed=1;") and new.headers["Cache-Control"] == IMMUTABLE
    old = client.get(_static_url(before, "js/app.js"), buffered=True)  # a page rendered before the deploy
    assert old.status_code == 200 and old.headers["Cache-Control"] == "no-cache"


def test_stylesheets_and_scripts_are_sent_minified_and_other_files_as_they_are(client):
    """Comments and spaces go; the code stays (nothing renamed), and the ETag is the version."""
    script = client.get("/static/js/table.js", buffered=True)
    source = (STATIC / "js" / "table.js").read_text(encoding="utf-8")
    assert "// A shared table's pages" in source and b"A shared table" not in script.data
    assert len(script.data) < 0.7 * len(source.encode()) and b'document.getElementById("seat-form")' in script.data
    assert script.headers["ETag"] == f'"{sha12(STATIC / "js" / "table.js")}"'
    assert script.mimetype == "text/javascript"
    style = client.get("/static/css/app.css", buffered=True)
    assert style.mimetype == "text/css" and b"\n\n" not in style.data
    assert len(style.data) < 0.9 * (STATIC / "css" / "app.css").stat().st_size
    icon = client.get("/static/icons/favicon.svg", buffered=True)
    assert icon.data == (STATIC / "icons" / "favicon.svg").read_bytes()


@pytest.mark.parametrize(
    ("encoding", "smallest"),
    [
        ("br", lambda data: brotli.compress(data, quality=11)),
        ("zstd", lambda data: delivery.zstd.compress(data, 19)),
        ("gzip", lambda data: gzip.compress(data, 9)),
    ],
)
def test_stylesheets_and_scripts_are_sent_compressed_at_the_highest_level(client, encoding, smallest):
    """Compressed once and kept, so a first visit gets the smallest files (bench/page_wire.py)."""
    for name in ("css/app.css", "js/table.js", "icons/favicon.svg"):
        url = f"/static/{name}?v={sha12(STATIC / name)}"
        asked = client.get(url, headers={"Accept-Encoding": f"{encoding}, deflate"}, buffered=True)
        assert asked.headers["Content-Encoding"] == encoding, name
        assert len(asked.data) <= len(smallest(sent(STATIC / name))), name
        assert DECODE[encoding](asked.data) == sent(STATIC / name)
        # no byte ranges are served, and a page's file is no download: neither is said
        assert "Accept-Ranges" not in asked.headers and "Content-Disposition" not in asked.headers
        again = client.get(url, headers={"Accept-Encoding": encoding, "If-None-Match": asked.headers["ETag"]})
        assert again.status_code == 304


def test_a_browsers_preference_among_encodings_is_kept(client):
    asked = client.get("/static/css/app.css", headers={"Accept-Encoding": "br;q=0.5, gzip"}, buffered=True)
    assert asked.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(asked.data) == sent(STATIC / "css" / "app.css")
