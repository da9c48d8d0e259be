"""The part of the PDF that needs WeasyPrint, and through it Pango: imported
only when a PDF is made (``web/pdf.py``), so that the app starts and serves
every page on a machine without Pango.

Rendering never reaches the network: the only resources it may load are the
app's own static files, read from disk.
"""

from __future__ import annotations

import mimetypes
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse


class Renderer:
    """One WeasyPrint set-up: the fonts and the parsed stylesheet, used by one
    render at a time. Parsing the stylesheet and loading the fonts is a third of
    each render, so it is done once per renderer (again when the file changes)."""

    def __init__(self) -> None:
        self._mtime: float | None = None
        self._fonts = FontConfiguration()
        self._sheets: tuple[CSS, ...] = ()

    def render(self, html: str, page_size: str, base_url: str, static: Path, static_url: str) -> bytes:
        """*html* (which links no stylesheet) as PDF bytes on *page_size*
        (``"A4"``, ``"Letter"``), styled by ``css/pdf.css`` of the *static* folder,
        itself served at *static_url* (``http://host/static/``)."""
        stylesheet = static / "css" / "pdf.css"
        mtime = stylesheet.stat().st_mtime
        if mtime != self._mtime:
            self._fonts = FontConfiguration()
            self._sheets = (CSS(string=stylesheet.read_text(encoding="utf-8"), font_config=self._fonts),)
            self._mtime = mtime
        page = CSS(string=f"@page {{ size: {page_size}; }}", font_config=self._fonts)
        fetcher = StaticFilesOnly(static, static_url)
        document = HTML(string=html, base_url=base_url, url_fetcher=fetcher)
        return document.write_pdf(stylesheets=[*self._sheets, page], font_config=self._fonts)


# Renderers not in use, kept for the next render of this process (at most as
# many as renders ran at once, so at most ``PDF_RENDERS``).
_idle: list[Renderer] = []
_idle_lock = threading.Lock()


def render(html: str, page_size: str, base_url: str, static: Path, static_url: str) -> bytes:
    """Render with an idle :class:`Renderer` (or a new one), then keep it for the next."""
    with _idle_lock:
        renderer = _idle.pop() if _idle else None
    if renderer is None:
        renderer = Renderer()
    try:
        return renderer.render(html, page_size, base_url, static, static_url)
    finally:
        with _idle_lock:
            _idle.append(renderer)


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
