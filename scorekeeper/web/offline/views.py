"""The installed app: its manifest, its service worker, the page it shows without
a connection, and a fresh CSRF token for a game kept offline.

- ``/manifest/<lang>.webmanifest``: the Web App Manifest in one of the app's
  languages (its description; the name is the brand, the same in each), opening
  the form (``start_url``) full screen (``display: standalone``) over the whole
  site (``scope``), with the icons drawn by ``scripts/icons.py``.
- ``/sw.js``: the service worker, at the root so that its scope is the whole
  site: ``static/js/sw.js`` (minified like every script) after one line of what
  changes with each version: :attr:`Installed.version`, the exact versioned URLs
  of the static files to keep, the form's and the offline page's addresses, the
  app's languages (the form is kept in each, for a language chosen offline). A
  deploy that changes a static file, a template or a catalogue changes the
  version, hence the script's bytes, which is how a browser finds an update.
- ``/offline``: the page the worker shows for any page that needs the server,
  its sentences in every language of the app (``static/js/offline.js`` shows the
  phone's own and what is kept on it).
- ``/form-token``: a fresh CSRF token (JSON, ``no-store``), which the form asks
  for before it posts a game kept while offline: the token in a page kept by
  the worker may be older than the phone's session cookie.

Every HTML page is sent with ``X-App-Version``: the worker keeps a form page
only from the version it belongs to, so a page never points at another
version's files.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, url_for
from flask_babel import force_locale
from flask_wtf.csrf import generate_csrf

from ..i18n import LANGUAGES, N_, gettext

bp = Blueprint("offline", __name__)

#: The static file that is the worker's code (served at ``/sw.js``, not kept by itself).
WORKER = "js/sw.js"
#: The colours of the app's header, light and dark (static/css/app.css: ``--header-bg``).
THEME_COLOURS = {"light": "#7a1f2b", "dark": "#2b1a1d"}
#: The page's background while the installed app starts (``--paper``, light).
BACKGROUND = "#fbf8f2"
VERSION_HEADER = "X-App-Version"
#: The manifest's description of the app (its name is the brand, the same in every language).
DESCRIPTION = N_("Score sheets for DRAKO: Aetherya Pocket, on your phone, also without a connection.")


@dataclass(frozen=True)
class Installed:
    """What the installed app is at this start of the server.

    *version*: 12 hex digits of a SHA-256 over the static files' versions and the
    bytes of every template and compiled catalogue (what the kept pages are made of).
    *kept*: the static files the worker keeps, by name (``"css/app.css"``), sorted."""

    version: str
    kept: tuple[str, ...]


def installed(app: Flask) -> Installed:
    """The app's :class:`Installed`, computed once at start from its static
    versions (``web.delivery``), templates and catalogues."""
    known = app.extensions.get("installed")
    if known is None:
        versions: dict[str, str] = app.extensions["static_versions"]
        digest = hashlib.sha256(json.dumps(versions, sort_keys=True).encode())
        templates = sorted(Path(app.template_folder).rglob("*")) if app.template_folder else []
        catalogues = sorted((Path(__file__).resolve().parents[2] / "translations").rglob("*.mo"))
        for path in [*templates, *catalogues]:
            if path.is_file():
                digest.update(path.name.encode() + b"\0" + path.read_bytes())
        kept = tuple(name for name in sorted(versions) if name != WORKER)
        known = app.extensions["installed"] = Installed(digest.hexdigest()[:12], kept)
    return known


@bp.record_once
def _at_start(state) -> None:
    app = state.app
    installed(app)  # read the files now, not on a visitor's request

    @app.after_request
    def app_version(response: Response) -> Response:
        if response.mimetype == "text/html":
            response.headers[VERSION_HEADER] = installed(app).version
        return response

    @app.context_processor
    def installed_app() -> dict:
        return {"THEME_COLOURS": THEME_COLOURS}


@bp.get("/sw.js")
def service_worker():
    """The service worker's script: one line of this version's data, then the
    minified ``static/js/sw.js``. Revalidated on every check (``no-cache``)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    known = installed(app)
    data = {
        "version": known.version,
        "kept": [url_for("static", filename=name) for name in known.kept],
        "form": url_for("sheets.new_game"),
        "languages": list(LANGUAGES),
        "offline": url_for(".offline_page"),
        "versionHeader": VERSION_HEADER,
    }
    code = app.extensions["static_sent"][WORKER]
    script = f"self.SCOREKEEPER={json.dumps(data, separators=(',', ':'))};\n".encode() + code
    response = Response(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest/<lang>.webmanifest")
def manifest(lang: str):
    """The Web App Manifest in *lang* (one of the app's languages, else 404)."""
    if lang not in LANGUAGES:
        abort(404)
    with force_locale(lang):
        description = gettext(DESCRIPTION)
    form = url_for("sheets.new_game")
    icons = [
        {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": url_for("static", filename="icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "id": form,
        "name": "DRAKO scorekeeper",
        "short_name": "DRAKO",
        "description": description,
        "lang": lang,
        "dir": "ltr",
        "start_url": form,
        "scope": form,
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_COLOURS["light"],
        "background_color": BACKGROUND,
        "icons": icons,
    }
    response = Response(json.dumps(body, ensure_ascii=False, indent=1), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


#: The offline page's sentences, each shown in every language of the app.
OFFLINE_SENTENCES = {
    "title": N_("No connection"),
    "needs": N_("This page needs the server, and this phone cannot reach it just now."),
    "form": N_(
        "The score form works without a connection: what you enter there is kept on this phone, "
        "and a game you score is kept and scored as soon as the phone is back online, without typing it again."
    ),
    "pending": N_("Kept on this phone, to be scored when back online: %(names)s."),
    "draft": N_("Kept on this phone, on the score form: %(names)s."),
    "nothing": N_("Nothing is waiting on this phone."),
    "retry": N_("This page tries again by itself when the connection is back."),
    "open": N_("Open the score form"),
}


@bp.get("/offline")
def offline_page():
    """The page the worker shows in place of a page that needs the server: each of
    :data:`OFFLINE_SENTENCES` in every language (the phone's own shown by script)."""
    sections = []
    for code in LANGUAGES:
        with force_locale(code):
            sentences = {key: gettext(text, names="{names}") for key, text in OFFLINE_SENTENCES.items()}
        sections.append((code, sentences))
    return render_template("offline/offline.html", sections=sections, draft_key=url_for("sheets.new_game"))


@bp.get("/form-token")
def form_token():
    """A fresh CSRF token for this phone's session (``{"csrf_token": "…"}``), never kept by a cache."""
    response = jsonify(csrf_token=generate_csrf())
    response.headers["Cache-Control"] = "no-store"
    return response
