"""How responses travel: compressed (Flask-Compress), static files under versioned URLs.

- HTML, CSS, JavaScript, SVG, JSON and CSV responses are compressed (Brotli,
  gzip, deflate or zstd, whichever the browser prefers) with
  ``Vary: Accept-Encoding``, by the embedded server and under gunicorn alike.
  Flask-Compress keeps ETags apart per encoding (``"…:br"``) and answers
  ``If-None-Match`` after compressing, so a 304 still comes back.
- ``url_for('static', filename=…)`` adds ``?v=`` and the first 12 hex digits
  of the file's SHA-256, read once at start-up. A request with the current
  version is answered ``Cache-Control: public, max-age=31536000, immutable``;
  a changed file gets a new URL, so a deploy never leaves a stale script in
  a browser. Any other request for the file (no ``v``, or an old one) keeps
  Flask's ``no-cache`` (revalidated with the ETag on every use). Static
  files are always sent whole (no byte ranges), compressed like pages.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask, Response, request
from flask_compress import Compress

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


def init_app(app: Flask) -> None:
    """Compress responses and version the static URLs of *app* (its static files are read now)."""
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    Compress(app)  # its hook runs after the one below (Flask runs the last registered first)
    assert app.static_folder is not None  # create_app gives the app its static folder
    versions = static_versions(Path(app.static_folder))
    app.extensions["static_versions"] = versions

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


def static_versions(folder: Path) -> dict[str, str]:
    """Every file under *folder*, by its path relative to it (``"css/app.css"``),
    mapped to a short hash of its content: 12 hex digits of its SHA-256."""
    versions = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
            versions[path.relative_to(folder).as_posix()] = digest
    return versions
