"""``POST /api/score``: the command line's JSON, over HTTP."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from ..engine import GameErrors, score_game_dict

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.post("/score")
def score():
    """Score a game file object; answers the CLI's ``--format json`` shape.

    400 with ``{"errors": [message, ...]}`` for input R8 refuses or for a
    body that is not JSON (too deeply nested JSON included). Every other
    error under ``/api/`` is JSON too (see :func:`scorekeeper.web.init_app`).
    """
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if data is None:
        return jsonify(errors=["the body must be a JSON game object (Content-Type: application/json)"]), 400
    try:
        sheet = score_game_dict(data)
    except GameErrors as problems:
        return jsonify(errors=[str(error) for error in problems.errors]), 400
    return jsonify(sheet.to_dict())
