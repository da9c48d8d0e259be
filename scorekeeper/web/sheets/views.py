"""The new-game form and the score sheet (Post/Redirect/Get; the game travels in the URL)."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from flask_wtf.csrf import CSRFError

from ...engine import Game, score_game
from ...words import LANGUAGES, words_in
from .. import game_form
from ..forms import GameForm
from ..links import encode_game
from ..picture import result_picture
from ..rematch import asked_rematch, rematch_form
from ..security import expired_form_page
from ..sheet_page import (
    game_from_token,
    pdf_limit,
    picture_limit,
    picture_response,
    qr_response,
    token_pdf,
    token_sheet,
)

bp = Blueprint("sheets", __name__)


@bp.route("/", methods=["GET", "POST"])
def new_game():
    """The new-game form. Its buttons score the game, add or remove a player
    (or show it in another language): those come back to ``?entries=``, a GET."""
    action_url = url_for(".new_game")
    if request.method in ("GET", "HEAD"):
        entries = game_form.kept_entries(request.args)
        if entries is not None:  # the form as a post of it left it (a language, a player added or removed)
            return game_form.kept_game_form(GameForm, entries, action_url)
        if asked_rematch(request.args):  # "New game with the same players"
            return game_form.render_game_form(rematch_form(request.args), action_url, date_from_browser=True)
        return game_form.empty_game_form(action_url)

    def show_sheet(game: Game, form: GameForm):
        return redirect(url_for(".sheet", token=encode_game(game, form.played_on.data)), code=303)

    return game_form.process_game_form(GameForm(), action_url, show_sheet)


@bp.errorhandler(CSRFError)
def form_expired(error: CSRFError):
    """A post without a valid CSRF token: nothing is scored; the new-game form
    comes back with every entry (add and remove still work)."""
    if request.endpoint == "sheets.new_game":
        return game_form.expired_game_form(GameForm, url_for(".new_game"))
    return expired_form_page(error)


@bp.get("/sheet/<token>")
def sheet(token: str):
    """The score sheet of the game packed in *token* (R7: rows, totals, places),
    with a form to save it; kept once rendered (see :func:`sheet_page.token_sheet`)."""
    return token_sheet(token)


@bp.get("/sheet/<token>.pdf")
@pdf_limit
def sheet_pdf(token: str):
    """The score sheet as a one-page PDF: A4, or Letter by ``?paper=letter`` or
    by the browser's language (en-US and the other Letter countries).
    A link's PDF is the same for everyone: kept (LRU) once rendered."""
    return token_pdf(token)


@bp.get("/sheet/<token>/qr.svg")
def sheet_qr(token: str):
    """The QR code of the sheet's link (an image of its own, cached by browsers:
    the page does not wait for it)."""
    game_from_token(token)  # a damaged link gets no code
    return qr_response(url_for(".sheet", token=token, _external=True))


#: A picture's language is in its address (``picture-de.png``): one address, one picture, cached as it is.
PICTURE_LANGUAGES = f"any({', '.join(LANGUAGES)})"


@bp.get(f"/sheet/<token>/picture-<{PICTURE_LANGUAGES}:language>.png")
@picture_limit
def sheet_picture(token: str, language: str):
    """The result of the game packed in *token* as a PNG in *language*
    (:func:`picture.result_picture`): the page's ``og:image`` and its "Share
    the picture". The link never changes: cached by browsers for a year."""
    game, played_on = game_from_token(token)  # a damaged link gets no picture
    return picture_response(
        f"sheet:{token}:{language}",
        lambda: result_picture(score_game(game), played_on, words_in(language, isolate_names=True)),
        immutable=True,
    )


@bp.get("/sheet/<token>/edit")
def edit(token: str):
    """The form, filled with the game packed in *token*, to correct and score again."""
    game, played_on = game_from_token(token)
    return game_form.render_game_form(
        game_form.form_from_data(GameForm, game.to_dict(), played_on), url_for(".new_game")
    )
