"""The score sheet as PDF: which paper, whether PDFs can be made here, and how
many are made at once.

WeasyPrint (``web/weasy.py``) is imported by no module at the top: the app
tries it once when it is created, and a failure (no Pango) is logged, not
raised, so the app serves every page, sheet pages say that PDFs are
unavailable, and a PDF address answers 503 saying what to install. (Tried at
start-up, not at the first sheet: the import takes about a second of CPU,
which would otherwise fall on a visitor's first page from each worker.)

Configuration (``SCOREKEEPER_`` environment variables or the instance config):

- ``PDF_RENDERS`` (default 2): PDFs rendered at once by one process; more
  requests wait for a turn.
- ``PDF_WAIT`` (default 5): seconds a PDF request waits for its turn before
  it is answered 503 with ``Retry-After``.

One client address holds at most half of the turns (at least one), those it
waits for included: another PDF of an address that already holds its share is
answered 503 at once, so that one address asking again and again can never
take every turn from the others (issue 32, item 5), nor hold a server thread
waiting. Each such refusal counts against ``PDF_RATE_LIMIT`` as every PDF
request does (``web.sheet_page``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from flask import Flask, current_app
from werkzeug.datastructures import LanguageAccept

PAPERS = {"a4": "A4", "letter": "Letter"}
#: Regions whose paper is Letter; every other language or region gets A4.
LETTER_REGIONS = {"US", "CA", "MX", "PH", "PR"}

#: What a server without PDFs lacks (WeasyPrint's system libraries), on Debian.
PDF_PACKAGES = "libpango-1.0-0 libpangoft2-1.0-0"

#: Seconds a client is asked to wait after a 503 for a busy renderer (``Retry-After``).
BUSY_RETRY_AFTER = 5


class PdfBusy(Exception):
    """Every PDF renderer of this process stayed busy for ``PDF_WAIT`` seconds, or the
    client's address already holds its share of them."""


class AddressShares:
    """How many of a process's PDF turns each client address holds or waits for, each
    at most *share* (thread-safe)."""

    def __init__(self, share: int) -> None:
        self.share = share
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def hold(self, address: str) -> Iterator[None]:
        """One of *address*'s share for the time of the block.

        :raises PdfBusy: *address* holds its whole share already.
        """
        with self._lock:
            if self._held[address] >= self.share:
                raise PdfBusy()
            self._held[address] += 1
        try:
            yield
        finally:
            with self._lock:
                self._held[address] -= 1
                if not self._held[address]:
                    del self._held[address]


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


@functools.cache
def unavailable() -> str | None:
    """Why PDFs cannot be made in this process (WeasyPrint or a library it loads,
    such as Pango, is missing: the error, one line), or ``None`` when they can.
    Tried once per process (when the first app is created)."""
    try:
        from . import weasy  # noqa: F401  (loads WeasyPrint, which loads Pango)
    except (ImportError, OSError) as error:  # no WeasyPrint; no Pango (cffi's dlopen raises OSError)
        reason = " ".join(f"{type(error).__name__}: {error}".split())[:300]
        logging.getLogger(__name__).warning("PDFs unavailable (install %s): %s", PDF_PACKAGES, reason)
        return reason
    return None


def init_app(app: Flask) -> None:
    """The settings, this process's PDF turns (``PDF_RENDERS`` of them), and
    whether WeasyPrint loads (:func:`unavailable`, once per process)."""
    unavailable()
    app.config.setdefault("PDF_RENDERS", 2)
    app.config.setdefault("PDF_WAIT", 5)
    renders = int(app.config["PDF_RENDERS"])
    app.extensions["scorekeeper.pdf_turns"] = threading.BoundedSemaphore(renders)
    app.extensions["scorekeeper.pdf_shares"] = AddressShares(max(1, renders // 2))


def pdf_turns(app: Flask) -> threading.BoundedSemaphore:
    """The semaphore of *app*'s PDF turns: one held per PDF being rendered."""
    return app.extensions["scorekeeper.pdf_turns"]


def render_pdf(html: str, paper: str, base_url: str, address: str) -> bytes:
    """Render *html* (``sheets/sheet.pdf.html``, which links no stylesheet)
    to PDF bytes on *paper*, styled by ``css/pdf.css``, once a turn is free,
    for the client *address* (``request.remote_addr``: its share of the turns).

    :raises PdfBusy: *address* holds its share of the turns already, or no turn
        came free within ``PDF_WAIT`` seconds.
    :raises OSError, ImportError: WeasyPrint cannot be loaded (see :func:`unavailable`).
    """
    from . import weasy

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    folder, url_path = app.static_folder, app.static_url_path
    assert folder is not None and url_path is not None  # create_app gives the app its static folder
    turns = pdf_turns(app)
    with app.extensions["scorekeeper.pdf_shares"].hold(address):
        if not turns.acquire(timeout=float(app.config["PDF_WAIT"])):
            raise PdfBusy()
        try:
            static_url = base_url.rstrip("/") + url_path + "/"
            return weasy.render(html, PAPERS[paper], base_url, Path(folder).resolve(), static_url)
        finally:
            turns.release()
