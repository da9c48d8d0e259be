"""The one shape of every JSON API's refusal (``/api/...``): ::

    {"errors": [sentence, ...], "problems": [{"id": ..., "seat": ..., "cell": ...}, ...]}

``errors`` for people (in the request's language; English on ``/api/score``), and one
problem for each sentence, for programs: its message id (the engine's for a game's
refusals, a status's name such as ``bad-request`` for a request refused before it was
read), the 1-based seat and the cell 0..15 (row by row) it concerns, each ``None``
where none applies. The contract names it ``Refusal`` (``web.api.openapi``).
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Response, jsonify
from werkzeug.exceptions import HTTPException

from ..engine import GameError


def problem(message_id: str, seat: int | None = None, cell: int | None = None) -> dict[str, object]:
    """One problem: its message id, the 1-based *seat* and the *cell* (0..15) it concerns."""
    return {"id": message_id, "seat": seat, "cell": cell}


def refusal(found: Iterable[tuple[str, dict[str, object]]], status: int) -> tuple[Response, int]:
    """The answer for *found*, pairs of (sentence, :func:`problem`), with *status*."""
    return jsonify(refusal_body(found)), status


def refusal_body(found: Iterable[tuple[str, dict[str, object]]]) -> dict[str, list]:
    """The refusal's JSON object for *found* (an acknowledgement on a stream carries it too)."""
    pairs = list(found)
    return {"errors": [sentence for sentence, _ in pairs], "problems": [item for _, item in pairs]}


def game_problem(error: GameError) -> dict[str, object]:
    """A game's refusal as a problem: the engine's message id, its player as a 1-based seat, its cell."""
    return problem(error.message_id, None if error.player is None else error.player + 1, error.cell)


def status_problem(error: HTTPException) -> dict[str, object]:
    """A request refused before it was read, by its status's name (``bad-request``, ``not-found``)."""
    return problem((error.name or "error").lower().replace(" ", "-"))
