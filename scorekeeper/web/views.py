"""The new-game form and the score sheet (Post/Redirect/Get; the game travels in the URL)."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError

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
    UnknownCard,
    UnknownLegend,
    cell_name,
    score_game,
)
from .forms import GameForm
from .links import DamagedLink, decode_game, encode_game
from .pdf import choose_paper, render_pdf

bp = Blueprint("sheets", __name__)

EXPIRED = "The form had expired or came from elsewhere; check your entries and press “Score the game” again."


@bp.app_errorhandler(CSRFError)
def csrf_refused(error: CSRFError):
    """A post without a valid CSRF token: nothing is scored, every entry comes back."""
    if request.endpoint != "sheets.new_game":
        return render_template("errors/error.html", error=error), 400
    form = GameForm(meta={"csrf": True})
    action = request.form.get("action", "score")
    if action == "add" or action.startswith("remove-"):
        return _render_form(_changed_players(form, action))  # changes nothing on the server
    return _render_form(form, [EXPIRED], status=400)


@bp.route("/", methods=["GET", "POST"])
def new_game():
    """The new-game form. Its buttons score the game, add or remove a player."""
    if request.method == "GET":
        form = GameForm()
        form.fill_to_minimum()
        return _render_form(form)

    form = GameForm()
    action = request.form.get("action", "score")
    if action == "add" or action.startswith("remove-"):
        return _render_form(_changed_players(form, action))

    shape_ok = form.validate()
    if "csrf_token" in form.errors:
        return _render_form(form, [EXPIRED], status=400)
    try:
        game = Game.from_dict(form.game_data())
    except GameErrors as problems:
        return _render_form(form, _attach_errors(form, problems.errors), status=422)
    if not shape_ok:
        return _render_form(form, status=422)
    return redirect(url_for(".sheet", token=encode_game(game, form.played_on.data)), code=303)


@bp.get("/sheet/<token>")
def sheet(token: str):
    """The score sheet of the game packed in *token* (R7: rows, totals, places)."""
    return render_template("sheets/sheet.html", **_sheet_context(token))


@bp.get("/sheet/<token>.pdf")
def sheet_pdf(token: str):
    """The score sheet as a one-page PDF: A4, or Letter by ``?paper=letter`` or
    by the browser's language (en-US and the other Letter countries)."""
    paper = choose_paper(request.args.get("paper"), request.accept_languages)
    context = _sheet_context(token)
    html = render_template("sheets/sheet.html", **context, pdf=True, paper=paper)
    name = f"drako-score-sheet-{context['played_on'] or 'game'}.pdf"
    return Response(
        render_pdf(html, paper, base_url=request.url_root),
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{name}"'},
    )


@bp.get("/sheet/<token>/edit")
def edit(token: str):
    """The form, filled with the game packed in *token*, to correct and score again."""
    game, played_on = _game_from_token(token)
    return _render_form(_form_from_data(game.to_dict(), played_on))


def _sheet_context(token: str) -> dict:
    game, played_on = _game_from_token(token)
    scored = score_game(game)
    return {
        "sheet": scored,
        "grids": [_grid(result.score) for result in scored.results],
        "token": token,
        "played_on": played_on,
        "Row": Row,
        "share_url": url_for(".sheet", token=token, _external=True),
    }


def _grid(score: KingdomScore) -> list[SimpleNamespace]:
    """The 16 cells of a scored kingdom with what the sheet marks on each."""
    conflict_cells = score.cells_for(Row.CONFLICTS)
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


def _game_from_token(token: str) -> tuple[Game, date | None]:
    try:
        data, played_on = decode_game(token)
        return Game.from_dict(data), played_on
    except (DamagedLink, GameErrors):
        abort(404, description="This score-sheet link is damaged or incomplete. Ask for the link again.")


def _render_form(form: GameForm, messages: list[str] | None = None, status: int = 200):
    return (
        render_template(
            "sheets/form.html",
            form=form,
            messages=messages or [],
            legends=LEGENDS,
            max_players=MAX_PLAYERS,
            entry_errors=any(_has_errors(player.form) for player in form.players),
            player_has_errors=_has_errors,
        ),
        status,
    )


def _has_errors(panel) -> bool:
    return bool(panel.name.errors or panel.legends.errors or any(cell.errors for cell in panel.cells))


def _form_from_data(data: dict, played_on: date | None = None) -> GameForm:
    """A form showing a game file object (entries kept exactly as given)."""
    players = [
        {
            "name": p["name"],
            "cells": [card for row in p["kingdom"] for card in row],
            "legends": p["legends"],
        }
        for p in data["players"]
    ]
    # FormField reads sub-form data as attributes, hence the namespaces.
    return GameForm(
        formdata=None,
        data={
            "ruleset": data["ruleset"],
            "played_on": played_on,
            "players": [SimpleNamespace(**p) for p in players],
        },
    )


def _changed_players(form: GameForm, action: str) -> GameForm:
    """The same entries with one player panel added or removed."""
    data = form.game_data()
    players = data["players"]
    if action == "add" and len(players) < MAX_PLAYERS:
        players.append({"name": "", "kingdom": [[""] * 4 for _ in range(4)], "legends": []})
    elif action.startswith("remove-"):
        index = action.removeprefix("remove-")
        if index.isdigit() and int(index) < len(players):
            del players[int(index)]
    changed = _form_from_data(data, form.played_on.data)
    changed.fill_to_minimum()
    return changed


def _attach_errors(form: GameForm, errors: tuple[GameError, ...]) -> list[str]:
    """Put each engine error beside its field; return those that belong to the whole form."""
    general = []
    for error in errors:
        panel = form.players[error.player].form if error.player is not None else None
        if panel is None:
            general.append(str(error))
        elif isinstance(error, InvalidPlayerName):
            panel.name.errors = [*panel.name.errors, error.message]
        elif isinstance(error, UnknownCard) and error.cell is not None:
            panel.cells[error.cell].errors = [*panel.cells[error.cell].errors, str(error)]
        elif isinstance(error, (UnknownLegend, DuplicateLegend)):
            panel.legends.errors = [*panel.legends.errors, error.message]
        else:
            panel.name.errors = [*panel.name.errors, error.message]
    return general
