"""Bytes and requests per page, as a real browser gets them: first view and repeated view.

    .venv/bin/python bench/page_weight.py            # exits 1 while a page misses a target
    .venv/bin/python bench/page_weight.py --chromium /path/to/chromium

Serves the app (CSRF and rate limits on, a throw-away SQLite database) with
Werkzeug's embedded server on loopback and drives Debian's headless Chromium
through Playwright, as tests/browser does. Each page is opened in a fresh
browser profile (empty cache: the first view), then opened again in the same
one (the repeated view). A small WSGI layer around the app counts every
request that reaches the server and the body bytes it sends back
(compressed, as sent); the uncompressed figure is the same bodies decoded.

Pages: the form (2 players, empty; 4 players, filled for "Edit"), the sheet
of a 2- and a 4-player game, a saved game's read-only and private pages,
the history, a player's stats, the import page and the error page (404),
each with an English and a German browser.

Targets: every page under 20 KB (20,480 bytes) compressed on a first view;
one request on a repeated view (the page itself: no static file, no preview
call; the private link two: it redirects to the read-only page, which then
shows "Correct" and "Delete"); no request to another host.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import threading
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import brotli
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.engine import Game  # noqa: E402
from scorekeeper.web.links import encode_game  # noqa: E402

LIMIT = 20 * 1024
CASES = ROOT / "tests" / "data" / "cases"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
LANGUAGES = {"en": "en-GB", "de": "de-DE"}


def _zstd_decompress(data: bytes) -> bytes:
    try:
        from compression import zstd  # Python 3.14
    except ImportError:
        from backports import zstd  # installed with Flask-Compress before 3.14
    return zstd.decompress(data)


DECODERS = {
    None: lambda data: data,
    "gzip": lambda data: zlib.decompress(data, 16 + zlib.MAX_WBITS),
    "deflate": zlib.decompress,
    "br": brotli.decompress,
    "zstd": _zstd_decompress,
}


class Counter:
    """WSGI middleware: every request that reaches the app, with its status and body bytes as sent."""

    def __init__(self, app) -> None:
        self.app = app
        self.seen: list[dict] = []
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        record = {"path": environ.get("PATH_INFO", ""), "query": environ.get("QUERY_STRING", "")}

        def start(status, headers, exc_info=None):
            record["status"] = int(status.split()[0])
            record["encoding"] = next((v for k, v in headers if k.lower() == "content-encoding"), None)
            return start_response(status, headers, exc_info)

        body = []
        iterable = self.app(environ, start)
        try:
            for chunk in iterable:
                body.append(chunk)
                yield chunk
        finally:
            if hasattr(iterable, "close"):
                iterable.close()
            data = b"".join(body)
            record["sent"] = len(data)
            record["plain"] = len(DECODERS[record.get("encoding")](data)) if data else 0
            with self.lock:
                self.seen.append(record)

    def take(self) -> list[dict]:
        with self.lock:
            seen, self.seen = self.seen, []
        return seen


def _game(name: str) -> Game:
    path = next(CASES.glob(f"{name}-*.json"))
    return Game.from_dict(json.loads(path.read_text(encoding="utf-8"))["game"])


def pages(browser, base: str) -> dict[str, str]:
    """The pages to weigh, by name → path; saves case 19 through the sheet's own form first."""
    two = "/sheet/" + encode_game(_game("16"))
    four = "/sheet/" + encode_game(_game("19"))
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + four)
    with page.expect_navigation():
        page.click("#save")
    public = urlsplit(page.url).path  # saving lands on the read-only page, the private link shown once
    private = urlsplit(page.input_value("#private-link")).path
    context.close()
    return {
        "form (2 players, empty)": "/",
        "form (4 players, filled)": four + "/edit",
        "sheet (2 players)": two,
        "sheet (4 players)": four,
        "saved game, read-only": public,
        "saved game, private link": private,  # remembered (a cookie), then the read-only page with "Correct"
        "history": "/games",
        "player stats": "/player?name=Ada",
        "import": "/games/import",
        "error page (404)": "/no-such-page",
    }


def view(page, url: str, hosts: set) -> None:
    page.on("request", lambda request: hosts.add(urlsplit(request.url).netloc))
    page.goto(url, wait_until="networkidle")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3"})
        counter = Counter(app.wsgi_app)
        app.wsgi_app = counter
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        failures = []
        encodings = set()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
                paths = pages(browser, base)
                counter.take()
                print(f"{'page':<26} {'lang':<4} {'first view: requests':>20} {'compressed':>10} {'plain':>7}"
                      f"   {'repeated: requests':>18} {'compressed':>10} {'plain':>7}")  # fmt: skip
                for name, path in paths.items():
                    for lang, locale in LANGUAGES.items():
                        context = browser.new_context(locale=locale, viewport={"width": 360, "height": 740})
                        page = context.new_page()
                        hosts: set = set()
                        view(page, base + path, hosts)
                        first = counter.take()
                        page.goto(base + path, wait_until="networkidle")
                        again = counter.take()
                        context.close()
                        encodings.update(r["encoding"] for r in first)
                        row = [len(first), sum(r["sent"] for r in first), sum(r["plain"] for r in first),
                               len(again), sum(r["sent"] for r in again), sum(r["plain"] for r in again)]  # fmt: skip
                        notes = []
                        if row[1] >= LIMIT:
                            notes.append("over 20 KB")
                        if row[3] != (2 if path == paths.get("saved game, private link") else 1):  # + its redirect
                            notes.append("repeated: " + ", ".join(r["path"][:24] for r in again))
                        if hosts - {urlsplit(base).netloc}:
                            notes.append(f"asks another host: {sorted(hosts)}")
                        if notes:
                            failures.append(f"{name} ({lang}): {'; '.join(notes)}")
                        print(f"{name:<26} {lang:<4} {row[0]:>20} {row[1]:>10} {row[2]:>7}"
                              f"   {row[3]:>18} {row[4]:>10} {row[5]:>7}  {'; '.join(notes)}".rstrip())  # fmt: skip
                browser.close()
        finally:
            server.shutdown()
        print(f"encodings Chromium was sent: {', '.join(sorted(e or 'none' for e in encodings))}")
        print("\n".join(failures) if failures else "every page under 20 KB compressed; one request when repeated")
        sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
