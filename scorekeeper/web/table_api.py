"""The JSON API of shared tables ("Score together", issue #10): start a table,
take a seat, store each kingdom as it is entered, check another player's,
lock the table into one saved game, play again.

Every answer is JSON. Refusals are 400 (input R8 refuses), 403 (not this
seat's or the host's secret), 404 (no open table has this code, no such
seat), 409 (the table's state refuses: locked, full, a name taken, not ready
to lock) or 429 (too many tries), each with ``{"errors": [sentence, ...],
"problems": [{"id", "seat", "cell"}, ...]}``: sentences in the request's
language (Accept-Language, the ``lang`` cookie), ``problems`` for programs
(message id, 1-based seat, cell 0..15, each ``null`` where it does not apply).

Secrets go in ``Authorization: Bearer <token>``: the host's (from ``POST
/api/tables``) or a seat's (from ``POST …/seats``). No cookie is read, so
there is nothing to forge: the blueprint is exempt from CSRF like the rest of
``/api/``. All state lives in the database (:mod:`scorekeeper.store.tables`):
any number of processes may answer one table. ``GET /api/tables/<code>``
sends an ``ETag`` (the table's version) and answers ``If-None-Match`` with
304, so phones may poll it cheaply.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask_babel import get_locale, get_translations

from ..engine import GameError, GameErrors
from ..store import tables as store
from ..store.groups import find_group, opens
from ..store.models import ScoreTable
from ..words import Words
from .preview import kingdom_preview
from .security import (
    count_wrong_code,
    join_rate_limit,
    limiter,
    table_rate_limit,
    too_many_tries,
    was_wrong_code,
    wrong_code_rate_limit,
)

bp = Blueprint("table_api", __name__, url_prefix="/api/tables")


def _too_many(limit: Any) -> Response:
    response = jsonify(errors=[too_many_tries(limit)])
    response.status_code = 429
    return response


#: Table codes that name no table cost like failed logins (per client address).
wrong_code_limit = limiter.shared_limit(
    wrong_code_rate_limit, scope="wrong-codes", deduct_when=was_wrong_code, on_breach=_too_many
)


class Refused(Exception):
    """A refusal answered as ``{"errors": …}`` with *status*."""

    def __init__(self, status: int, errors: list[GameError]) -> None:
        super().__init__(status)
        self.status = status
        self.errors = errors


@bp.errorhandler(Refused)
def _refused(error: Refused):
    words = _words()
    return (
        jsonify(
            errors=[words.error(e) for e in error.errors],
            problems=[
                {"id": e.message_id, "seat": None if e.player is None else e.player + 1, "cell": e.cell}
                for e in error.errors
            ],
        ),
        error.status,
    )


def _refusing(error: GameError | GameErrors) -> Refused:
    """The answer for a store refusal: its status by kind (see the module docstring)."""
    if isinstance(error, store.NotReady):
        return Refused(409, list(error.errors))
    if isinstance(error, GameErrors):
        return Refused(400, list(error.errors))
    if isinstance(error, store.NoSuchTable):
        return Refused(404, [error])
    if isinstance(error, store.NotAllowed):
        return Refused(403, [error])
    if isinstance(error, store.TableConflict):
        return Refused(409, [error])
    return Refused(400, [error])


@bp.post("")
@limiter.shared_limit(table_rate_limit, scope="table-create", on_breach=_too_many)
def create():
    """Start a table. Body ``{"ruleset": "pocket", "played_on": "YYYY-MM-DD",
    "checks": true}`` (all optional: pocket, today on the server, checks on).

    201 ``{"code", "url", "host_token"}``: the join code, the join link
    ``/t/<code>``, the host's secret (shown this once).
    """
    body = _body()
    played_on = _date(body.get("played_on"))
    checks = body.get("checks", True)
    if not isinstance(checks, bool):
        raise Refused(400, [GameError("checks-not-boolean")])
    try:
        new = store.create_table(str(body.get("ruleset") or "pocket"), played_on, checks_required=checks)
    except GameErrors as error:
        raise _refusing(error) from None
    return jsonify(code=new.code, url=_join_url(new.code), host_token=new.host_token), 201


@bp.get("/<code>")
@wrong_code_limit
def show(code: str):
    """The table as every phone shows it (see :func:`_state`), with an
    ``ETag``; ``If-None-Match`` with the current one gives 304 and no body.
    With a secret, also ``"you"`` (host, seats) and, once locked, the host's
    ``"edit_url"``. ``Cache-Control: no-cache``: always asked again.
    Phones poll this: one query, no ORM (:func:`store.look`)."""
    token = _bearer()
    looked = store.look(code, token)
    if looked is None:
        count_wrong_code()
        raise Refused(404, [store.NoSuchTable("table-not-found")])
    state, viewer = looked
    etag = f"v{state.version}-{'h' if viewer.host else ''}{'.'.join(map(str, sorted(viewer.seats)))}"
    # A compressed answer's ETag gets the encoding appended ("v7-1:gzip", Flask-Compress):
    # the same state all the same, answered 304 here without building it.
    matched = next((tag for tag in request.if_none_match.as_set() if tag.split(":", 1)[0] == etag), None)
    if matched is not None:
        response = Response(status=304)
        response.set_etag(matched)
    else:
        response = jsonify(_state(state, viewer, store.edit_link_secret(state, viewer, token)))
        response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.add("Authorization")
    return response


@bp.patch("/<code>")
@wrong_code_limit
def settings(code: str):
    """The host switches checks by another player on or off: ``{"checks_required": false}``. 200: the table."""
    table = _table(code)
    required = _body().get("checks_required")
    if not isinstance(required, bool):
        raise Refused(400, [GameError("checks-not-boolean")])
    token = _bearer()
    _do(store.set_checks, table, token or "", required)
    return jsonify(_state(store.state(table), store.viewer(table, token), None))


@bp.post("/<code>/seats")
@wrong_code_limit
@limiter.shared_limit(join_rate_limit, scope="table-join", on_breach=_too_many)
def join(code: str):
    """Take the next seat: ``{"name": "Ada"}`` (R8: not empty, at most 40
    characters, not another seat's name in any case). With the host's secret,
    the host adds a seat for a player without a phone.

    201 ``{"seat": n, "seat_token"}``; 409 when the name is taken, the table
    full (4 seats) or locked; 400 for a name R8 refuses otherwise.
    """
    table = _table(code)
    name = _body().get("name")
    token = _bearer()
    if token:
        seat = _do(store.add_seat, table, token, name)
    else:
        seat = _do(store.join, table, name)
    return jsonify(seat=seat.number, seat_token=seat.token), 201


@bp.put("/<code>/seats/<int:number>")
@wrong_code_limit
def update_seat(code: str, number: int):
    """Store a seat's draft with its own secret or the host's: any of
    ``{"kingdom": [[4 card ids or null] × 4], "legends": [ids], "done": bool}``
    (the kingdom may also be 16 cells row by row; what is left out stays).

    200 with the seat (see :func:`_seat`): its rows and total so far, scored by the engine.
    """
    table = _table(code)
    ruleset = table.ruleset  # read before the change: the commit expires what the session holds
    body = _body()
    done = body.get("done")
    if done is not None and not isinstance(done, bool):
        raise Refused(400, [GameError("done-not-boolean")])
    seat = _do(
        store.update_seat,
        table,
        number,
        _bearer(),
        cells=body.get("kingdom"),
        legends=body.get("legends"),
        done=done,
    )
    return jsonify(_seat(seat, ruleset))


@bp.post("/<code>/seats/<int:number>/check")
@wrong_code_limit
def check(code: str, number: int):
    """Another seat (its secret) checked seat *number*'s kingdom against the
    cards on the table. 200 with the checked seat; 409 for one's own kingdom
    or one not marked done."""
    table = _table(code)
    _do(store.check, table, number, _bearer())
    return jsonify(_seat(_seat_state(table, number), table.ruleset))


@bp.post("/<code>/seats/<int:number>/wrong")
@wrong_code_limit
def wrong(code: str, number: int):
    """Another seat reports "something is wrong": ``{"cell": 0..15}`` (row by
    row). The seat is no longer done; its owner's phone shows the cell. 200 with the seat."""
    table = _table(code)
    _do(store.report_wrong, table, number, _bearer(), _body().get("cell"))
    return jsonify(_seat(_seat_state(table, number), table.ruleset))


@bp.post("/<code>/lock")
@wrong_code_limit
def lock(code: str):
    """The host locks the table into one saved game (again: the same game).
    Body optional: ``{"group": public id, "invite": its invite secret}`` puts
    the game in that group (400 ``group-unknown`` if the pair does not open it).

    200 ``{"game_url", "edit_url"}`` (the edit link is the host's only);
    409 with every reason while a seat is not done, not checked, reported
    wrong, or the game as a whole is refused (a Legend claimed twice, R6.1).
    """
    table = _table(code)
    token = _bearer()
    body = _body(optional=True)
    group = None
    if body.get("group") is not None:
        group = find_group(str(body["group"]))
        if group is None or not opens(group, str(body.get("invite") or "")):
            raise Refused(400, [GameError("group-unknown")])
    saved, secret = _do(store.lock, table, token, group)
    return jsonify(
        game_url=url_for("games.show", public_id=saved.public_id, _external=True),
        edit_url=url_for("games.manage", public_id=saved.public_id, secret=secret, _external=True),
    )


@bp.post("/<code>/again")
@wrong_code_limit
def again(code: str):
    """Play again (host, on a locked table): a new table with the same seats,
    names and secrets; asked again, the same one. Body optional
    ``{"played_on": "YYYY-MM-DD"}`` (default: the same date).

    201 ``{"code", "url"}``.
    """
    table = _table(code)
    body = _body(optional=True)
    played_on = _date(body["played_on"]) if body.get("played_on") is not None else None
    following = _do(store.play_again, table, _bearer(), played_on)
    return jsonify(code=following.code, url=_join_url(following.code)), 201


# -- the answers' shapes


def _state(state: store.TableState, viewer: store.Viewer, edit_secret: str | None) -> dict[str, Any]:
    """``{"code", "url", "ruleset", "played_on", "checks_required", "locked",
    "version", "expires_at", "seats": [seat, …], "game_url", "next_code",
    "next_url", "you": {"host", "seats"}, "edit_url"}`` (``game_url`` once
    locked, ``next_*`` after "Play again", ``edit_url`` for the host once locked)."""
    shape: dict[str, Any] = {
        "code": state.code,
        "url": _join_url(state.code),
        "ruleset": state.ruleset,
        "played_on": state.played_on.isoformat(),
        "checks_required": state.checks_required,
        "locked": state.locked,
        "version": state.version,
        "expires_at": None if state.locked else state.expires_at.isoformat(timespec="seconds"),
        "seats": [_seat(seat, state.ruleset) for seat in state.seats],
        "you": {"host": viewer.host, "seats": sorted(viewer.seats)},
    }
    if state.game_id is not None:
        shape["game_url"] = url_for("games.show", public_id=state.game_id, _external=True)
        if edit_secret is not None:
            shape["edit_url"] = url_for("games.manage", public_id=state.game_id, secret=edit_secret, _external=True)
    if state.next_code is not None:
        shape["next_code"], shape["next_url"] = state.next_code, _join_url(state.next_code)
    return shape


def _seat(seat: store.SeatState, ruleset: str) -> dict[str, Any]:
    """``{"seat", "name", "cards_entered", "done", "checked_by", "wrong_cell",
    "wrong_by", "kingdom": 4 × 4 ids or null, "legends", "legend_clashes":
    [{"legend", "seats"}], "rows": {row: points}, "total", "points": 16 × the
    points each card scored or null}``: rows, total and points so far by the
    engine (R3–R6; a blank cell scores nothing and connects nothing)."""
    preview = kingdom_preview(ruleset, seat.cells, seat.legends)
    return {
        "seat": seat.number,
        "name": seat.name,
        "cards_entered": seat.cards_entered,
        "done": seat.done,
        "checked_by": seat.checked_by,
        "wrong_cell": seat.wrong_cell,
        "wrong_by": seat.wrong_by,
        "kingdom": seat.rows,
        "legends": list(seat.legends),
        "legend_clashes": [{"legend": legend, "seats": list(seats)} for legend, seats in seat.legend_clashes.items()],
        "rows": preview.rows if preview else None,
        "total": preview.total if preview else None,
        "points": list(preview.points) if preview else None,
    }


def _seat_state(table: ScoreTable, number: int) -> store.SeatState:
    found = store.state(table).seat(number)
    if found is None:
        raise Refused(404, [store.NoSuchTable("seat-not-found", seat=number)])
    return found


# -- reading requests


def _table(code: str) -> ScoreTable:
    """The table of *code*, or 404 (counted as a wrong code, like a failed login)."""
    table = store.find(code)
    if table is None:
        count_wrong_code()
        raise Refused(404, [store.NoSuchTable("table-not-found")])
    return table


def _do(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a store function, turning its refusals into answers."""
    try:
        return call(*args, **kwargs)
    except (GameError, GameErrors) as error:
        raise _refusing(error) from None


def _bearer() -> str | None:
    """The secret of ``Authorization: Bearer <token>``, or ``None``."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _body(optional: bool = False) -> dict[str, Any]:
    """The JSON object of the request; 400 if it is anything else (an empty
    body is ``{}`` where *optional*)."""
    if optional and not request.get_data():
        return {}
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if not isinstance(data, dict):
        raise Refused(400, [GameError("body-not-object")])
    return data


def _date(value: object) -> date:
    """A ``YYYY-MM-DD`` date (``None``: today, on the server)."""
    if value is None:
        return date.today()
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        raise Refused(400, [GameError("date-invalid", value=str(value)[:40])]) from None


def _join_url(code: str) -> str:
    """The join link ``/t/<code>`` (the shared-table pages answer it)."""
    return f"{request.url_root}t/{code}"


def _words() -> Words:
    """The sentence writer in the request's language, without the pages' name isolates."""
    return Words(get_translations(), str(get_locale() or "en"))
