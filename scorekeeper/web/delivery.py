"""How responses travel: compressed (Flask-Compress), static files under versioned URLs.

- HTML, CSS, JavaScript, SVG, JSON and CSV responses are compressed (Brotli,
  gzip, deflate or zstd, whichever the browser prefers) with
  ``Vary: Accept-Encoding``, by the embedded server and under gunicorn alike.
  Flask-Compress keeps ETags apart per encoding (``"…:br"``) and answers
  ``If-None-Match`` after compressing, so a 304 still comes back.
- Stylesheets and scripts are sent minified (rcssmin, rjsmin: comments and
  spaces go, nothing is renamed), read and minified once at start-up; the
  files in ``static/`` stay as written. Other static files are sent as they are,
  read once at start-up too (about 160 KB in all): what is sent is what the
  version was computed from, and no request holds a file open (the service
  worker fetches them all at once, and a client gone mid-answer must not leave
  a file to the garbage collector). A file added after start-up is read from disk.
- Stylesheets, scripts and icons are sent compressed once and kept: Brotli
  at its highest quality (11; zstd 19 or gzip 9 for a browser without it),
  made on a file's first request and kept for the process's life (2 to 19 ms
  of CPU a file, once, instead of Flask-Compress's quick levels on every
  request; a first visit's files are about a fifth smaller, measured in
  bench/page_wire.py). Another encoding asked for alone (deflate) is left to
  Flask-Compress.
- ``url_for('static', filename=…)`` adds ``?v=`` and the first 12 hex digits
  of the SHA-256 of the bytes sent (minified for CSS and JavaScript), read
  once at start-up, which are also the ETag. A request with the current
  version is answered ``Cache-Control: public, max-age=31536000, immutable``;
  a changed file gets a new URL, so a deploy never leaves a stale script in
  a browser. Any other request for the file (no ``v``, or an old one) keeps
  Flask's ``no-cache`` (revalidated with the ETag on every use). Static
  files are always sent whole (no byte ranges), compressed like pages.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import mimetypes
from collections.abc import Callable
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, request, send_file
from flask_compress import Compress

try:
    from compression import zstd  # Python 3.14
except ImportError:  # installed with Flask-Compress before 3.14
    from backports import zstd

#: What is compressed: the app's pages, stylesheets, scripts, icons, API answers and exports.
COMPRESSED_TYPES = [
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "image/svg+xml",
    "application/json",
    "text/csv",
]

#: A year, the longest lifetime browsers honour; a versioned URL never changes content.
VERSIONED_MAX_AGE = 365 * 24 * 3600

#: How a static file is compressed once and kept, by encoding, in the server's order of preference
#: (Brotli 11 makes the smallest files; a browser's q-values come first).
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "br": lambda data: brotli.compress(data, quality=11),
    "zstd": lambda data: zstd.compress(data, 19),
    "gzip": lambda data: gzip.compress(data, 9, mtime=0),
}

#: Static files compressed so far, by (version, encoding): shared by every app of the process.
_compressed: dict[tuple[str, str], bytes] = {}

#: How each kind of static file is minified before it is sent (by its name's ending).
MINIFIERS: dict[str, Callable[[str], str]] = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def init_app(app: Flask) -> None:
    """Compress responses, minify stylesheets and scripts and version the static
    URLs of *app* (its static files are read now)."""
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    Compress(app)  # its hook runs after the one below (Flask runs the last registered first)
    assert app.static_folder is not None  # create_app gives the app its static folder
    folder = Path(app.static_folder)
    minified = minified_files(folder)
    files = {**as_they_are(folder), **minified}
    versions = static_versions(folder, minified)
    app.extensions["static_versions"] = versions
    app.extensions["static_sent"] = files  # the service worker's script is sent from it (web/offline)

    compressible = set(app.config["COMPRESS_MIMETYPES"])

    def static(filename: str) -> Response:
        sent = files.get(filename)
        if sent is None:
            return app.send_static_file(filename)
        version = versions[filename]
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        # None: sent as it is (a PNG), or as Flask-Compress compresses it (deflate alone asked for)
        encoding = request.accept_encodings.best_match(list(COMPRESSORS)) if mimetype in compressible else None
        if encoding:
            sent = compressed(version, encoding, sent)
        response = send_file(
            io.BytesIO(sent),
            mimetype=mimetype,  # and no download name: a page's file, never a download
            etag=f"{version}:{encoding}" if encoding else version,  # as Flask-Compress tells encodings apart
            max_age=app.get_send_file_max_age(filename),
        )
        if encoding:
            response.headers["Content-Encoding"] = encoding  # Flask-Compress leaves it (and adds Vary)
        del response.headers["Accept-Ranges"]  # no byte ranges are served (whole_static_files)
        return response

    app.view_functions["static"] = static

    @app.url_defaults
    def versioned_static_url(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "v" not in values:
            version = versions.get(values.get("filename", ""))
            if version:
                values["v"] = version

    @app.before_request
    def whole_static_files() -> None:
        # A byte range of a file sent compressed would not match its Content-Range;
        # the static files are small, so they are always sent whole (a server may).
        if request.endpoint == "static":
            request.environ.pop("HTTP_RANGE", None)

    @app.after_request
    def static_file(response: Response) -> Response:
        if request.endpoint != "static":
            return response
        if response.status_code == 200 and response.is_streamed:
            # Read the (small) file now: compressed whole, like a page, and the file
            # closed with the response (a compressed stream would leave it to the GC).
            response.direct_passthrough = False
            response.make_sequence()
        filename = (request.view_args or {}).get("filename", "")
        if response.status_code in (200, 304) and request.args.get("v") == versions.get(filename, ""):
            response.headers["Cache-Control"] = f"public, max-age={VERSIONED_MAX_AGE}, immutable"
        return response


def compressed(version: str, encoding: str, data: bytes) -> bytes:
    """*data* (a static file's bytes as sent, of *version*) compressed with *encoding*
    (a key of :data:`COMPRESSORS`), made on the first call and kept."""
    key = (version, encoding)
    kept = _compressed.get(key)
    if kept is None:
        # No lock: two first requests for one file may both make it (the same bytes), but
        # the files of one page, asked for at once, are made side by side, not in turn.
        kept = _compressed[key] = COMPRESSORS[encoding](data)
    return kept


def minified_files(folder: Path) -> dict[str, bytes]:
    """Every stylesheet and script under *folder*, by its path relative to it
    (``"css/app.css"``), minified as :data:`MINIFIERS` says (UTF-8)."""
    return {
        path.relative_to(folder).as_posix(): MINIFIERS[path.suffix](path.read_text(encoding="utf-8")).encode()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix in MINIFIERS
    }


def as_they_are(folder: Path) -> dict[str, bytes]:
    """Every file under *folder*, by its path relative to it, as its bytes."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()
    }


def static_versions(folder: Path, minified: dict[str, bytes] | None = None) -> dict[str, str]:
    """Every file under *folder*, by its path relative to it (``"css/app.css"``),
    mapped to a short hash of what is sent for it: 12 hex digits of the SHA-256
    of its *minified* bytes if given there, else of the file."""
    minified = minified or {}
    versions = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            name = path.relative_to(folder).as_posix()
            sent = minified[name] if name in minified else path.read_bytes()
            versions[name] = hashlib.sha256(sent).hexdigest()[:12]
    return versions
