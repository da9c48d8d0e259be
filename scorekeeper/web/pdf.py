"""The score sheet as PDF, rendered by WeasyPrint from the sheet's own template.

Rendering never reaches the network: the only resources it may load are the
app's own static files, read from disk.
"""

from __future__ import annotations

import functools
import mimetypes
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

from flask import current_app
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse
from werkzeug.datastructures import LanguageAccept

PAPERS = {"a4": "A4", "letter": "Letter"}
#: Regions whose paper is Letter; every other language or region gets A4.
LETTER_REGIONS = {"US", "CA", "MX", "PH", "PR"}


def choose_paper(asked: str | None, languages: LanguageAccept, chosen: str | None = None) -> str:
    """``"a4"`` or ``"letter"``: what was asked for (``?paper=``); else, when a
    language was *chosen* on the page (``de``), the region the browser gives
    for that language (``en`` chosen, ``en-US`` in the browser → Letter), A4
    without one; else the paper of the browser's first language with a region
    (``en-US`` → Letter); else A4."""
    if asked and asked.lower() in PAPERS:
        return asked.lower()
    for language, _quality in languages:
        base, _, region = language.replace("_", "-").partition("-")
        if region and (chosen is None or base.lower() == chosen):
            return "letter" if region.upper() in LETTER_REGIONS else "a4"
    return "a4"


def render_pdf(html: str, paper: str, base_url: str) -> bytes:
    """Render *html* (``sheets/sheet.pdf.html``, which links no stylesheet)
    to PDF bytes on *paper*, styled by ``css/pdf.css``."""
    folder, url_path = current_app.static_folder, current_app.static_url_path
    assert folder is not None and url_path is not None  # create_app gives the app its static folder
    static = Path(folder).resolve()
    fetcher = StaticFilesOnly(static, base_url.rstrip("/") + url_path + "/")
    with _render_lock:
        fonts, sheets = _stylesheets(static / "css" / "pdf.css")
        page = CSS(string=f"@page {{ size: {PAPERS[paper]}; }}", font_config=fonts)
        document = HTML(string=html, base_url=base_url, url_fetcher=fetcher)
        return document.write_pdf(stylesheets=[*sheets, page], font_config=fonts)


# Parsing the stylesheet and loading fonts is a third of each render: do it
# once per process (again if the file changes). One render at a time shares them.
_render_lock = threading.Lock()


@functools.cache
def _parsed(paths: tuple[Path, ...], mtimes: tuple[float, ...]) -> tuple[FontConfiguration, tuple[CSS, ...]]:
    fonts = FontConfiguration()
    return fonts, tuple(CSS(string=path.read_text(encoding="utf-8"), font_config=fonts) for path in paths)


def _stylesheets(*paths: Path) -> tuple[FontConfiguration, tuple[CSS, ...]]:
    """The app's stylesheets parsed once per process (again when a file changes)."""
    return _parsed(paths, tuple(path.stat().st_mtime for path in paths))


class StaticFilesOnly(URLFetcher):
    """Serves the app's static files from disk and refuses every other URL."""

    def __init__(self, folder: Path, prefix: str) -> None:
        super().__init__(fail_on_errors=False)
        self.folder = folder
        self.prefix = prefix

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        if not url.startswith(self.prefix):
            raise ValueError(f"not loaded while rendering a PDF: {url[:60]}")
        relative = unquote(urlsplit(url[len(self.prefix) :]).path)
        path = (self.folder / relative).resolve()
        if self.folder not in path.parents or not path.is_file():
            raise ValueError(f"no static file {relative[:60]}")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})
