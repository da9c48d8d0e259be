"""The new-game form and the score sheet (Post/Redirect/Get; the game travels in the URL)."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from types import SimpleNamespace

from flask import Blueprint, Response, abort, redirect, render_template, request, session, url_for
from flask_babel import get_locale
from flask_wtf.csrf import CSRFError, generate_csrf
from werkzeug.exceptions import BadRequest

from ..engine import (
    LEGENDS,
    MAX_PLAYERS,
    DuplicateLegend,
    Game,
    GameError,
    GameErrors,
    InvalidPlayerName,
    KingdomScore,
    Row,
    ScoreSheet,
    UnknownCard,
    UnknownLegend,
    cell_name,
    score_game,
)
from .forms import GameForm, SaveGameForm
from .i18n import N_, error_message, error_text, gettext, ngettext
from .links import DamagedLink, decode_game, encode_game
from .pdf import choose_paper, render_pdf
from .security import limiter, pdf_rate_limit

bp = Blueprint("sheets", __name__)

EXPIRED = N_("The form had expired or came from elsewhere; check your entries and press “Score the game” again.")
SAVE_CORRECTION = N_("Save the correction")
SAVE_EXPIRED = N_("The save form had expired; your entries are below: press “Save this game” again.")


#: The forms that enter a whole game: endpoint → (form class, its action URL).
GAME_FORMS: dict[str, tuple[type[GameForm], Callable[[], str], dict]] = {}


@bp.app_errorhandler(CSRFError)
def csrf_refused(error: CSRFError):
    """A post without a valid CSRF token: nothing is scored or stored, every entry comes back."""
    if request.endpoint == "games.save" and request.form.get("token"):
        return render_sheet_with_save_form(request.form["token"], SaveGameForm(), [gettext(SAVE_EXPIRED)], 400)
    if request.endpoint not in GAME_FORMS:
        error.description = gettext(
            "This form had expired, or your browser did not send its cookie. "
            "Go back, reload the page and try again; nothing was changed."
        )
        return render_template("errors/error.html", error=error), 400
    form_class, action_url, page = GAME_FORMS[request.endpoint]
    form = form_class(meta={"csrf": True})
    action = request.form.get("action", "score")
    if action == "add" or action.startswith("remove-"):
        return render_game_form(_changed_players(form, action), action_url(), **page)  # changes nothing
    return render_game_form(form, action_url(), [gettext(EXPIRED)], status=400, **page)


@bp.app_errorhandler(429)
def too_many(error):
    """Over the rate limit: a game form comes back with every entry; others get the error page."""
    message = gettext("Too many saves from your address just now; wait a minute, then press the button again.")
    if request.endpoint in GAME_FORMS and request.method == "POST":
        form_class, action_url, page = GAME_FORMS[request.endpoint]
        form = form_class(meta={"csrf": True})
        return render_game_form(form, action_url(), [message], status=429, **page)
    if request.endpoint == "games.save" and request.form.get("token"):
        return render_sheet_with_save_form(request.form["token"], SaveGameForm(), [message], 429)
    if request.endpoint and request.endpoint.endswith("pdf"):
        message = gettext("Too many PDF downloads from your address in a short time. Try again in a minute.")
        return render_template("errors/error.html", error=error, message=message), 429
    return render_template("errors/error.html", error=error), 429


@bp.route("/", methods=["GET", "POST"])
def new_game():
    """The new-game form. Its buttons score the game, add or remove a player."""
    action_url = url_for(".new_game")
    if request.method in ("GET", "HEAD"):
        form = GameForm()
        form.fill_to_minimum()
        return render_game_form(form, action_url)

    def show_sheet(game: Game, form: GameForm):
        return redirect(url_for(".sheet", token=encode_game(game, form.played_on.data)), code=303)

    return process_game_form(GameForm(), action_url, show_sheet)


GAME_FORMS["sheets.new_game"] = (GameForm, lambda: url_for("sheets.new_game"), {})


def process_game_form(form: GameForm, action_url: str, on_valid: Callable[[Game, GameForm], Response], **page):
    """The POST of a game form: add or remove a player panel, show it in another
    language (``?lang=``), or check the
    entries with the engine (R8) and hand a valid game to *on_valid*. Every
    refusal shows the form again with all entries and the errors beside them."""
    action = request.form.get("action", "score")
    pasted = all([player.form.apply_paste() for player in form.players])
    # "language": the header's language buttons post the form; it comes back unchanged, every entry kept
    if action in ("add", "language") or action.startswith("remove-"):
        return render_game_form(_changed_players(form, action), action_url, **page)
    shape_ok = form.validate() and pasted
    if "csrf_token" in form.errors:
        return render_game_form(form, action_url, [gettext(EXPIRED)], status=400, **page)
    try:
        game = Game.from_dict(form.game_data())
    except GameErrors as problems:
        return render_game_form(form, action_url, _attach_errors(form, problems.errors), status=422, **page)
    if not shape_ok:
        return render_game_form(form, action_url, status=422, **page)
    return on_valid(game, form)


@bp.get("/sheet/<token>")
def sheet(token: str):
    """The score sheet of the game packed in *token* (R7: rows, totals, places).

    A link's page is the same for everyone but for the save form's CSRF
    token, so it is rendered once per link, address and language and kept (LRU); each
    visitor gets it with a fresh CSRF token in the slot.
    """
    if session.get("_flashes"):  # a message for this visitor only: render, don't cache
        game, played_on = _game_from_token(token)
        context = sheet_context(score_game(game), played_on, _token_links(token))
        return render_template(
            "sheets/sheet.html", **context, save_form=SaveGameForm(token=token), csrf_slot=generate_csrf()
        )
    page = _sheet_page(token, request.url_root, str(get_locale() or "en"))
    return page.replace(CSRF_SLOT, generate_csrf())


def render_sheet_with_save_form(token: str, save_form: SaveGameForm, messages: list[str], status: int):
    """The sheet of *token* again, not cached, its save form showing what was
    typed, what is wrong with it, and a fresh CSRF token; for a damaged
    *token*, the error page (nothing can be saved from it)."""
    read = _read_token(token)
    if read is None:
        error = BadRequest(gettext("That sheet link is damaged; nothing was saved."))
        return render_template("errors/error.html", error=error), 400
    game, played_on = read
    context = sheet_context(score_game(game), played_on, _token_links(token))
    page = render_template(
        "sheets/sheet.html", **context, save_form=save_form, save_messages=messages, csrf_slot=generate_csrf()
    )
    return page, status


#: Stands in the cached page where each visitor's CSRF token goes (random per process).
CSRF_SLOT = f"csrf-slot-{secrets.token_hex(16)}"


@functools.lru_cache(maxsize=512)
def _sheet_page(token: str, url_root: str, language: str) -> str:
    game, played_on = _game_from_token(token)
    context = sheet_context(score_game(game), played_on, _token_links(token))
    return render_template("sheets/sheet.html", **context, save_form=SaveGameForm(token=token), csrf_slot=CSRF_SLOT)


@bp.get("/sheet/<token>.pdf")
@limiter.shared_limit(pdf_rate_limit, scope="pdf")
def sheet_pdf(token: str):
    """The score sheet as a one-page PDF: A4, or Letter by ``?paper=letter`` or
    by the browser's language (en-US and the other Letter countries).
    A link's PDF is the same for everyone: kept (LRU) once rendered."""
    paper = choose_paper(request.args.get("paper"), request.accept_languages)
    played_on, pdf = _token_pdf(token, paper, request.url_root, str(get_locale() or "en"))
    return _pdf_download(pdf, played_on)


@functools.lru_cache(maxsize=64)
def _token_pdf(token: str, paper: str, url_root: str, language: str) -> tuple[date | None, bytes]:
    game, played_on = _game_from_token(token)
    context = sheet_context(score_game(game), played_on, _token_links(token))
    return played_on, _render_sheet_pdf(context, paper)


@bp.get("/sheet/<token>/edit")
def edit(token: str):
    """The form, filled with the game packed in *token*, to correct and score again."""
    game, played_on = _game_from_token(token)
    return render_game_form(form_from_data(GameForm, game.to_dict(), played_on), url_for(".new_game"))


@dataclass(frozen=True)
class SheetLinks:
    """Where a sheet's buttons lead: ``edit`` may be ``None`` (read-only link)."""

    share: str
    pdf: str
    edit: str | None = None


def _token_links(token: str) -> SheetLinks:
    return SheetLinks(
        share=url_for("sheets.sheet", token=token, _external=True),
        pdf=url_for("sheets.sheet_pdf", token=token),
        edit=url_for("sheets.edit", token=token),
    )


def sheet_context(scored: ScoreSheet, played_on: date | None, links: SheetLinks, **extra) -> dict:
    """What ``sheets/sheet.html`` needs to draw *scored*."""
    return {
        "sheet": scored,
        "grids": [_grid(result.score) for result in scored.results],
        "played_on": played_on,
        "links": links,
        "Row": Row,
        **extra,
    }


def pdf_response(context: dict) -> Response:
    """The sheet of *context* as a one-page PDF download (paper from the request)."""
    paper = choose_paper(request.args.get("paper"), request.accept_languages)
    return _pdf_download(_render_sheet_pdf(context, paper), context["played_on"])


def _render_sheet_pdf(context: dict, paper: str) -> bytes:
    html = render_template("sheets/sheet.pdf.html", **context, paper=paper)
    return render_pdf(html, paper, base_url=request.url_root)


def _pdf_download(pdf: bytes, played_on: date | None) -> Response:
    name = f"drako-score-sheet-{played_on or 'game'}.pdf"
    return Response(pdf, mimetype="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})


def _grid(score: KingdomScore) -> list[SimpleNamespace]:
    """The 16 cells of a scored kingdom with what the sheet marks on each."""
    conflict_cells = {cell for conflict in score.conflicts for cell in conflict.cells}  # tribe cards, not portals
    dragons = {dragon.cell: dragon for dragon in score.dragons}
    return [
        SimpleNamespace(
            name=cell_name(cell),
            card=card,
            points=score.cell_points(cell),
            conflict=cell in conflict_cells,
            dragon=dragons.get(cell),
        )
        for cell, card in enumerate(score.kingdom.cards)
    ]


def _read_token(token: str) -> tuple[Game, date | None] | None:
    """The game packed in *token*, or ``None`` for a damaged link."""
    try:
        data, played_on = decode_game(token)
        return Game.from_dict(data), played_on
    except (DamagedLink, GameErrors):
        return None


def _game_from_token(token: str) -> tuple[Game, date | None]:
    read = _read_token(token)
    if read is None:
        abort(404, description=gettext("This score-sheet link is damaged or incomplete. Ask for the link again."))
    return read


def render_game_form(
    form: GameForm,
    action_url: str,
    messages: list[str] | None = None,
    status: int = 200,
    heading: str = N_("Score a game"),
    submit_label: str = N_("Score the game"),
):
    """The game form page (new game or correction) with *messages* for the whole form."""
    correcting = submit_label == SAVE_CORRECTION
    return (
        render_template(
            "sheets/form.html",
            form=form,
            nothing_done=gettext("Nothing was saved yet.") if correcting else gettext("Nothing was scored yet."),
            action_url=action_url,
            game_form_action=action_url,  # the header's language buttons post the form (entries kept)
            messages=messages or [],
            legends=LEGENDS,
            max_players=MAX_PLAYERS,
            entry_errors=any(_has_errors(player.form) for player in form.players),
            player_has_errors=_has_errors,
            player_problems=_problems,
            heading=gettext(heading),
            submit_label=gettext(submit_label),
        ),
        status,
    )


def _problems(panel) -> list[str]:
    """What is wrong in one player's panel, for the summary above the form
    (each message also stands beside its field)."""
    problems = [*panel.name.errors, *panel.paste.errors, *panel.legends.errors]
    bad_cells = sum(1 for cell in panel.cells if cell.errors)
    if bad_cells:
        problems.append(ngettext("%(num)d cell marked in red", "%(num)d cells marked in red", bad_cells))
    return [str(problem) for problem in problems]


def _has_errors(panel) -> bool:
    return bool(
        panel.name.errors or panel.legends.errors or panel.paste.errors or any(cell.errors for cell in panel.cells)
    )


def form_from_data(form_class: type[GameForm], data: dict, played_on: date | None = None, **extra) -> GameForm:
    """A *form_class* form showing a game file object (entries kept exactly as
    given); *extra* fills the form's other fields (location, notes, …)."""
    players = [
        {
            "name": p["name"],
            "cells": [card for row in p["kingdom"] for card in row],
            "legends": p["legends"],
        }
        for p in data["players"]
    ]
    # FormField reads sub-form data as attributes, hence the namespaces.
    return form_class(
        formdata=None,
        data={
            "ruleset": data["ruleset"],
            "played_on": played_on,
            "players": [SimpleNamespace(**p) for p in players],
            **extra,
        },
    )


def _changed_players(form: GameForm, action: str) -> GameForm:
    """The same entries (and other fields) with one player panel added or removed (or none, for "language")."""
    data = form.game_data()
    players = data["players"]
    pastes = [player.form.paste.data or "" for player in form.players][: len(players)]  # text not read yet
    if action == "add" and len(players) < MAX_PLAYERS:
        players.append({"name": "", "kingdom": [[""] * 4 for _ in range(4)], "legends": []})
        pastes.append("")
    elif action.startswith("remove-"):
        index = action.removeprefix("remove-")
        if index.isascii() and index.isdecimal() and int(index) < len(players):
            del players[int(index)]
            del pastes[int(index)]
    extra = {name: field.data for name, field in form._fields.items() if name not in GAME_FIELDS}
    changed = form_from_data(type(form), data, form.played_on.data, **extra)
    for player, paste in zip(changed.players, pastes, strict=False):
        player.form.paste.data = paste
    changed.fill_to_minimum()
    return changed


GAME_FIELDS = {"ruleset", "played_on", "players", "csrf_token"}


def _attach_errors(form: GameForm, errors: tuple[GameError, ...]) -> list[str]:
    """Put each engine error beside its field; return those that belong to the whole form."""
    general = []
    for error in errors:
        panel = form.players[error.player].form if error.player is not None else None
        if panel is None:
            general.append(error_message(error))
        elif isinstance(error, InvalidPlayerName):
            panel.name.errors = [*panel.name.errors, error_text(error)]
        elif isinstance(error, UnknownCard) and error.cell is not None:
            panel.cells[error.cell].errors = [*panel.cells[error.cell].errors, error_message(error)]
        elif isinstance(error, (UnknownLegend, DuplicateLegend)):
            panel.legends.errors = [*panel.legends.errors, error_text(error)]
        else:
            panel.name.errors = [*panel.name.errors, error_text(error)]
    return general
