"""The score sheet page (R7: rows, totals, places) and its PDF, for a sheet
link (the game packed in the URL) and for a saved game alike.

Here: what ``sheets/sheet.html`` needs (context, the 16 cells of each
kingdom), reading a sheet link, the pages and PDFs kept per link, and the
PDF rate limit shared by every PDF address.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from flask import Response, abort, current_app, g, make_response, render_template, request, session, url_for
from flask_babel import get_locale
from flask_limiter import RequestLimit
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import BadRequest, ServiceUnavailable, TooManyRequests

from ..engine import Game, GameErrors, Row, ScoreSheet, score_game
from ..store import games as store
from . import bgstats
from .display import CARD_SYMBOLS, conflict_path, qr_fits, qr_svg, qr_svg_file
from .extensions import limiter
from .forms import SaveGameForm
from .i18n import (
    N_,
    cell_label,
    chosen_language,
    describe_shared,
    describe_tiebreak,
    gettext,
    isolated,
    plain_words,
    ruleset_name,
    warning_message,
)
from .links import DamagedLink, decode_game
from .membership import visible_group_ids
from .ownership import new_attempt
from .pdf import BUSY_RETRY_AFTER, PDF_PACKAGES, PdfBusy, choose_paper, render_pdf, unavailable
from .phone_parts import ATTEMPT, CSRF_TOKEN
from .picture import HEIGHT as PICTURE_HEIGHT
from .picture import WIDTH as PICTURE_WIDTH
from .rematch import rematch_url
from .security import pdf_rate_limit, picture_rate_limit
from .sheet_parts import category_rows, explanation_rows, grid_cells, grid_key, grid_rows, names_stand_upright


@dataclass(frozen=True)
class SheetLinks:
    """Where a sheet's buttons lead: ``edit`` may be ``None`` (read-only link)."""

    share: str
    pdf: str
    qr: str | None  # the QR code image of ``share``; ``None`` when the link is too long for one
    edit: str | None = None
    picture: str | None = None  # the result's PNG in the page's language (absolute: the og:image), if any


def sheet_context(scored: ScoreSheet, played_on: date | None, links: SheetLinks, **extra) -> dict:
    """What ``sheets/sheet.html`` needs to draw *scored*: also the result to
    share (a line of text, the link previews' title and description) and the
    link to a new game of the same players. The shared text leaves the page:
    its names carry no isolates (:func:`plain_words`)."""
    writer = plain_words()
    return {
        "sheet": scored,
        "grids": [grid_cells(result.score) for result in scored.results],
        "names_upright": names_stand_upright([result.player.name for result in scored.results]),
        "played_on": played_on,
        "links": links,
        "Row": Row,
        "share_text": writer.result_summary(scored, played_on),
        "preview_title": writer.result_title(scored, played_on),
        "preview_description": writer.result_scores(scored.ranked),
        "rematch_url": rematch_url(scored.game),
        "picture_size": (PICTURE_WIDTH, PICTURE_HEIGHT),
        "picture_file": f"drako-result-{played_on or 'game'}.png",
        "bgstats_link": bgstats.play_link(_bgstats_play(scored, played_on, links, extra.get("saved"))),
        **SHEET_HELPERS,
        **extra,
    }


def _bgstats_play(scored: ScoreSheet, played_on: date | None, links: SheetLinks, saved) -> dict:
    """*scored* as a play for BG Stats (:mod:`.bgstats`): a saved game's by its public id, its
    location and its group's roster players (each by a digest of the group's id and their
    number: the same person in every game of the group, and nothing of the group shown)."""
    board = ruleset_name(scored.game.ruleset)
    bgg_id = current_app.config.get("BGG_ID") or None
    if saved is None:
        return bgstats.play(scored, played_on, play_id=bgstats.sheet_play_id(links.share), board=board, bgg_id=bgg_id)
    player_ids: list[str | None] = [None] * len(scored.results)
    if saved.group_id is not None:
        group = saved.group.public_id
        for result in saved.results:
            if result.player_id is not None and result.seat < len(player_ids):
                player_ids[result.seat] = hashlib.sha256(f"{group}:{result.player_id}".encode()).hexdigest()[:16]
    return bgstats.play(
        scored,
        played_on,
        play_id=saved.public_id,
        board=board,
        player_ids=player_ids,
        location=saved.location,
        bgg_id=bgg_id,
    )


#: What only the sheet's templates (sheets/sheet.html, sheets/sheet.pdf.html) write with: given
#: with each sheet's context rather than to every template as globals.
SHEET_HELPERS = {
    "grid_rows": grid_rows,  # the sheet's kingdoms, written in Python
    "category_rows": category_rows,
    "explanation_rows": explanation_rows,
    "grid_key": grid_key,
    "conflict_path": conflict_path,
    "describe_tiebreak": describe_tiebreak,
    "describe_shared": describe_shared,
    "warning_message": warning_message,
    "isolated": isolated,
    "cell_label": cell_label,
    "qr_svg": qr_svg,
    "CARD_SYMBOLS": CARD_SYMBOLS,
    "pdf_unavailable": unavailable,  # sheets offer no PDF without WeasyPrint
    "Markup": Markup,
}


@functools.lru_cache(maxsize=512)
def read_token(token: str) -> tuple[Game, date | None] | None:
    """The game packed in *token* and its date, or ``None`` for a damaged link
    (kept per link: a sheet's first view reads it for its key and its page)."""
    try:
        data, played_on = decode_game(token)
        return Game.from_dict(data), played_on
    except (DamagedLink, GameErrors):
        return None


def game_from_token(token: str) -> tuple[Game, date | None]:
    """The game packed in *token* and its date; a damaged link is a 404 (``abort``)."""
    read = read_token(token)
    if read is None:
        abort(404, description=gettext("This score-sheet link is damaged or incomplete. Ask for the link again."))
    return read


def _token_links(token: str) -> SheetLinks:
    share = url_for("sheets.sheet", token=token, _external=True)
    return SheetLinks(
        share=share,
        pdf=url_for("sheets.sheet_pdf", token=token),
        qr=url_for("sheets.sheet_qr", token=token) if qr_fits(share) else None,
        edit=url_for("sheets.edit", token=token),
        picture=url_for("sheets.sheet_picture", token=token, language=str(get_locale() or "en"), _external=True),
    )


def qr_response(link: str) -> Response:
    """The QR code image of *link*, cached by browsers for a year (the link in
    it never changes for that address); 404 if *link* is too long for a code."""
    if not qr_fits(link):
        abort(404)
    response = Response(qr_svg_file(link), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


#: Changed whenever the picture's drawing changes: it is part of every picture's ETag.
#: 2: a sentence's right-to-left name isolated as on the page; 3: "1 Harmony Point"; 4: each script in its own font.
PICTURE_VERSION = "4"
#: How many pictures the process keeps (about 40 KB each), by link or saved game revision and language.
KEPT_PICTURES = 128
_pictures: OrderedDict[str, bytes] = OrderedDict()
_pictures_lock = threading.Lock()


def picture_response(key: str, draw: Callable[[], bytes], *, immutable: bool) -> Response:
    """The result's PNG named by *key* (what it shows: a sheet link or a saved
    game's revision, and the language), drawn by *draw* unless kept (LRU) or
    the browser's copy is still right (``If-None-Match``: a 304, nothing drawn).

    Its ETag is made from *key*: an *immutable* picture (a sheet link's) is
    cached by browsers for a year like the QR code; any other (a saved game's,
    whose key changes with each correction) is asked again each time (``no-cache``)."""
    etag = hashlib.sha256(f"{PICTURE_VERSION}:{key}".encode()).hexdigest()[:32]
    cache = "public, max-age=31536000, immutable" if immutable else "public, no-cache"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        with _pictures_lock:
            png = _pictures.get(key)
            if png is not None:
                _pictures.move_to_end(key)
        if png is None:
            png = draw()
            g.picture_drawn = True  # what the picture limit counts (a kept one costs nothing)
            with _pictures_lock:
                _pictures[key] = png
                while len(_pictures) > KEPT_PICTURES:
                    _pictures.popitem(last=False)
        response = Response(png, mimetype="image/png")
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache
    return response


def token_sheet(token: str) -> str | bytes:
    """The sheet page of the game packed in *token*, with its save form, or,
    when that sheet was saved already, "Already saved: open it" instead.

    A link's page is the same for everyone but for the save form's CSRF
    token and one-time attempt, so it is rendered once per link, address,
    language and saved game and kept (LRU); each visitor gets it with a fresh
    CSRF token and attempt in the slots. Its language links carry no query:
    the first visitor's would be everyone's. A damaged link is a 404.
    """
    saved_id = _saved_from(token)
    if session.get("_flashes"):  # a message for this visitor only: render, don't cache
        game, played_on = game_from_token(token)
        context = sheet_context(score_game(game), played_on, _token_links(token))
        return render_template(
            "sheets/sheet.html",
            **context,
            save_form=_save_form(token, new_attempt()),
            csrf_slot=generate_csrf(),
            already_saved=saved_id,
        )
    # this phone's CSRF token and attempt go in as the answer leaves (web.phone_parts)
    return _sheet_page(current_app._get_current_object(), token, request.url_root, str(get_locale()), saved_id)  # type: ignore[attr-defined]


@functools.lru_cache(maxsize=512)
def _sheet_page(app: object, token: str, url_root: str, language: str, saved_id: str | None) -> bytes:
    game, played_on = game_from_token(token)
    g.language_link_query = MultiDict()  # see i18n.language_url
    context = sheet_context(score_game(game), played_on, _token_links(token))
    return render_template(
        "sheets/sheet.html",
        **context,
        save_form=_save_form(token, ATTEMPT),
        csrf_slot=CSRF_TOKEN,
        already_saved=saved_id,
    ).encode()  # UTF-8, sent as it is kept


def _save_form(token: str, attempt: str) -> SaveGameForm:
    return SaveGameForm(token=token, save_key=token_key(token) or "", attempt=attempt)


@functools.lru_cache(maxsize=512)
def token_key(token: str) -> str | None:
    """The :func:`store.sheet_key` of the game packed in *token*, or ``None`` for a damaged link."""
    read = read_token(token)
    return store.sheet_key(*read) if read else None


def _saved_from(token: str) -> str | None:
    """The public id of the game saved from this sheet link into a group this phone
    belongs to (any group in an open history), if any: a game of another group is
    never linked to it, and the page offers to save the game into its own (issue 33).
    The sheet needs no database: if it cannot be asked, the page offers to save (and
    the save answers "Already saved" if so)."""
    key = token_key(token)
    if key is None:
        return None
    try:
        return store.saved_public_id(key, visible_group_ids())
    except SQLAlchemyError:
        current_app.logger.warning("could not ask the database whether a sheet was saved", exc_info=True)
        return None


def render_sheet_with_save_form(token: str, save_form: SaveGameForm, messages: list[str], status: int):
    """The sheet of *token* again, not cached, its save form showing what was
    typed, what is wrong with it, and a fresh CSRF token; for a damaged
    *token*, the error page (nothing can be saved from it)."""
    read = read_token(token)
    if read is None:
        error = BadRequest(gettext("That sheet link is damaged; nothing was saved."))
        return render_template("errors/error.html", error=error), 400
    game, played_on = read
    context = sheet_context(score_game(game), played_on, _token_links(token))
    page = render_template(
        "sheets/sheet.html", **context, save_form=save_form, save_messages=messages, csrf_slot=generate_csrf()
    )
    return page, status


def _too_many_pdfs(limit: RequestLimit) -> Response:
    message = gettext("Too many PDF downloads from your address in a short time. Try again in a minute.")
    return make_response(render_template("errors/error.html", error=TooManyRequests(), message=message), 429)


#: Decorates every PDF address: PDF downloads per client address, counted
#: together; over the limit, a 429 page that says so (Flask-Limiter's ``on_breach``).
pdf_limit = limiter.shared_limit(pdf_rate_limit, scope="pdf", on_breach=_too_many_pdfs)


def _too_many_pictures(limit: RequestLimit) -> Response:
    message = gettext("Too many result pictures from your address in a short time. Try again in a minute.")
    return make_response(render_template("errors/error.html", error=TooManyRequests(), message=message), 429)


def _drawn(response: Response) -> bool:
    return bool(g.get("picture_drawn"))


#: Decorates every result picture's address: pictures drawn per client address, counted together
#: as :data:`pdf_limit` counts PDFs; one served from the kept ones (or a 304) is not counted, so
#: that a chat's link-preview server asking for the same picture again and again is not refused.
picture_limit = limiter.shared_limit(
    picture_rate_limit, scope="picture", on_breach=_too_many_pictures, deduct_when=_drawn
)


def token_pdf(token: str) -> Response:
    """The sheet of the game packed in *token* as a one-page PDF download: A4,
    or Letter by ``?paper=letter`` or by the browser's language. A link's PDF
    is the same for everyone: kept (LRU) once rendered. A damaged link is a 404."""
    paper = choose_paper(request.args.get("paper"), request.accept_languages, chosen_language())
    played_on, pdf = _token_pdf(token, paper, request.url_root, str(get_locale() or "en"))
    return _pdf_download(pdf, played_on)


@functools.lru_cache(maxsize=64)
def _token_pdf(token: str, paper: str, url_root: str, language: str) -> tuple[date | None, bytes]:
    game, played_on = game_from_token(token)
    context = sheet_context(score_game(game), played_on, _token_links(token))
    return played_on, _render_sheet_pdf(context, paper)


def pdf_response(context: dict) -> Response:
    """The sheet of *context* (:func:`sheet_context`) as a one-page PDF download (paper from the request)."""
    paper = choose_paper(request.args.get("paper"), request.accept_languages, chosen_language())
    return _pdf_download(_render_sheet_pdf(context, paper), context["played_on"])


PDF_UNAVAILABLE = N_(
    "PDFs cannot be made on this server: a library they need is not installed (whoever runs the server can "
    "install it; on Debian: apt-get install %(packages)s). Everything else works; print the sheet's page instead."
)
PDF_BUSY = N_("The server is making other PDFs just now. Try again in a few seconds.")


def _render_sheet_pdf(context: dict, paper: str) -> bytes:
    """The PDF of a sheet; without WeasyPrint a 503 that says what to install,
    and while every renderer stays busy a 503 with ``Retry-After`` (``abort``)."""
    if unavailable():
        message = gettext(PDF_UNAVAILABLE, packages=PDF_PACKAGES)
        heading = gettext("No PDFs on this server")
        page = render_template("errors/error.html", error=ServiceUnavailable(), message=message, heading=heading)
        abort(make_response(page, 503))
    shown = context.get("viewing") or context.get("saved")
    notes = notes_for_print(shown.notes) if shown is not None and shown.notes else None
    html = render_template("sheets/sheet.pdf.html", **context, paper=paper, print_notes=notes)
    try:
        return render_pdf(html, paper, base_url=request.url_root, address=request.remote_addr or "")
    except PdfBusy:
        page = render_template("errors/error.html", error=ServiceUnavailable(), message=gettext(PDF_BUSY))
        abort(make_response(page, 503, {"Retry-After": str(BUSY_RETRY_AFTER)}))


#: How much of a saved game's notes the one-page PDF prints: lines, characters.
PRINTED_NOTE_LINES, PRINTED_NOTE_CHARACTERS = 3, 240


def notes_for_print(notes: str) -> tuple[str, bool]:
    """The part of *notes* (up to 2,000 characters, several lines) that the
    one-page PDF prints, as one line (line breaks shown as " / "), and whether
    it was shortened (the PDF then points to the game's page for the rest)."""
    lines = [line.strip() for line in notes.splitlines() if line.strip()]
    text = " / ".join(lines[:PRINTED_NOTE_LINES])
    cut = len(lines) > PRINTED_NOTE_LINES or len(text) > PRINTED_NOTE_CHARACTERS
    if len(text) > PRINTED_NOTE_CHARACTERS:
        text = text[:PRINTED_NOTE_CHARACTERS].rsplit(" ", 1)[0]
    return text, cut


def _pdf_download(pdf: bytes, played_on: date | None) -> Response:
    name = f"drako-score-sheet-{played_on or 'game'}.pdf"
    return Response(pdf, mimetype="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})
