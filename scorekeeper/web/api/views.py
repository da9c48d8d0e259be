"""The JSON API: ``POST /api/score`` (the command line's JSON over HTTP),
``POST /api/preview`` (the running rows of one kingdom while it is entered),
and the contract of the whole JSON API: ``GET /api/openapi.json`` and the page
``GET /api/docs`` (:mod:`scorekeeper.web.api.openapi`)."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from ...engine import LEGENDS_BY_ID, GameErrors, Kingdom, get_ruleset, position, score_game_dict
from ...engine.errors import GameError
from ...lookalikes import refused_lookalikes
from ...words import ENGLISH
from ..forms import KingdomTextError, card_of_word, parse_kingdom_text
from ..i18n import error_message
from ..i18n import gettext as _
from ..preview import score_partial
from ..refusals import game_problem, problem, refusal
from .openapi import contract, page

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.post("/score")
def score():
    """Score a game file object; answers the CLI's ``--format json`` shape, in English.

    400 with a refusal (``web.refusals``: English sentences and their problems) for input R8 refuses or for a
    body that is not JSON (too deeply nested JSON included). Every other
    error under ``/api/`` is JSON too (see :func:`scorekeeper.web.init_app`).
    """
    data = _json_body()
    if data is None:
        return refusal(
            [("the body must be a JSON game object (Content-Type: application/json)", problem("not-a-game"))], 400
        )
    try:
        sheet = score_game_dict(data)
        lookalikes = refused_lookalikes([result.player.name for result in sheet.results])
        if lookalikes:
            raise GameErrors(lookalikes)
    except GameErrors as refused:
        sentences = ENGLISH.errors(refused, limit=50)  # the first 50, then "… and 450 more problems"
        problems = [game_problem(error) for error in refused.errors[:50]]
        problems += [problem("more-problems")] * (len(sentences) - len(problems))
        return refusal(zip(sentences, problems, strict=True), 400)
    return jsonify(ENGLISH.sheet(sheet))


@bp.post("/preview")
def preview():
    """The seven rows of one kingdom as entered so far, scored by the engine.

    Body: ``{"ruleset": "pocket", "cells": [16 × card], "legends": [ids]}``
    (a ruleset null, ``""`` or left out is pocket, legends null or left out none),
    a card being an id, name or code (see :func:`card_of_word`) or ``""`` /
    ``null`` for a cell not entered yet; or ``"text"`` (four lines of four,
    as in the form's text box) instead of ``"cells"``. Blank cells are cards
    not entered yet: connected to nothing, they score nothing and count as
    no land (:meth:`Kingdom.partial`). Legends must be valid ids; they are
    not checked against other players (R6.1 needs the whole game).

    Answer: ``{"cells": [16 ids or ""], "rows": {row: points}, "total",
    "points": [16 × points the card scored or null], "complete"}``.
    400 with a refusal (``web.refusals``, in the page's language) otherwise.
    """
    data = _json_body()
    if not isinstance(data, dict):
        return refusal([(_("The body must be a JSON object with 16 cells."), problem("not-a-kingdom"))], 400)
    errors: list[tuple[str, dict[str, object]]] = []
    try:
        # absent, null or "" is pocket; any other value must be a ruleset's id (0, false, [] are refused)
        ruleset = get_ruleset("pocket" if data.get("ruleset") in (None, "") else data["ruleset"])
    except GameError as error:
        errors.append((error_message(error), game_problem(error)))
        ruleset = None
    cells = _cells(data, errors)
    legends = data.get("legends")
    legends = [] if legends is None else legends
    if not isinstance(legends, list) or not all(isinstance(x, str) and x in LEGENDS_BY_ID for x in legends):
        errors.append((_("The legends must be a list of Legend ids."), problem("legends-not-ids")))
    if errors or ruleset is None or cells is None:
        return refusal(errors, 400)
    kingdom = Kingdom.partial(cells)
    scored = score_partial(kingdom, ruleset, legends)
    return jsonify(
        cells=[card.value if card else "" for card in cells],
        rows=scored.rows,
        total=scored.total,
        points=list(scored.points),
        complete=kingdom.is_complete,
    )


def _cells(data: dict, errors: list[tuple[str, dict[str, object]]]) -> list | None:
    words: object
    if isinstance(data.get("text"), str) and "cells" not in data:
        try:
            words = parse_kingdom_text(data["text"])
        except KingdomTextError as error:
            errors.append((str(error), problem("kingdom-text")))
            return None
    else:
        words = data.get("cells")
        if not isinstance(words, list) or len(words) != 16:
            errors.append((_("A kingdom has 16 cells, row by row."), problem("not-16-cells")))
            return None
    cells = []
    for index, word in enumerate(words):
        try:
            cells.append(card_of_word(word) if isinstance(word, str) and word.strip() else None)
            if word is not None and not isinstance(word, str):
                raise ValueError
        except ValueError:
            row, column = position(index)
            errors.append(
                (
                    _("Row %(row)d, column %(column)d: not a card.", row=row + 1, column=column + 1),
                    problem("not-a-card", cell=index),
                )
            )
    return None if errors else cells


def _json_body() -> object:
    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None


@bp.get("/openapi.json")
def openapi_document():
    """This API's contract, OpenAPI 3.1 (:mod:`scorekeeper.web.api.openapi`)."""
    return jsonify(contract())


@bp.get("/docs")
def openapi_page():
    """The contract as a page: every operation with its body and answers, then the named schemas."""
    operations, components = page(contract())
    return render_template("api/docs.html", operations=operations, components=components)
