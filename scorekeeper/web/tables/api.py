"""The JSON API of shared tables ("Score together"): start a table, take a
seat, store each kingdom as it is entered (the seat pages send their drafts
here too), check another player's, lock the table into one saved game, play again.

Every change goes through :mod:`scorekeeper.table.service`, which announces it
to every phone watching (:mod:`.stream`). Every answer is JSON
and carries the table's ``version``. Refusals are 400 (input R8 refuses),
403 (not this seat's or the host's secret), 404 (no open table has this
code, no such seat), 409 (the table's state refuses: locked, full, a name
taken, not ready to lock, a kingdom changed since it was looked at) or 429
(too many tries), each with ``{"errors": [sentence, ...], "problems": [{"id",
"seat", "cell"}, ...]}``: sentences in the request's language
(Accept-Language, the ``lang`` cookie), ``problems`` for programs (message
id, 1-based seat, cell 0..15, each ``null`` where it does not apply).

Secrets go in ``Authorization: Bearer <token>``: the host's (from ``POST
/api/tables``) or a seat's (from ``POST …/seats``). No cookie is read as a
credential (only ``sk_phone``, by the wrong-code limit, ``access``), so there
is nothing to forge: the blueprint is exempt from CSRF like the rest of
``/api/``. ``GET /api/tables/<code>`` sends an ``ETag`` and answers
``If-None-Match`` with 304.
"""

from __future__ import annotations

from contextlib import nullcontext
from datetime import date
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask_babel import force_locale, get_locale, get_translations
from werkzeug.exceptions import HTTPException

from ...engine import GameError, GameErrors
from ...store.groups import find_group, opens
from ...table import model, service
from ...table.model import Seat, Table
from ...words import LANGUAGES, Words
from ..extensions import limiter
from ..outage import DATABASE_ERRORS, after_database_failure
from ..preview import kingdom_preview
from ..refusals import game_problem, problem, refusal, refusal_body, status_problem
from ..security import count, join_rate_limit, reached, table_rate_limit, too_many_tries
from . import wire
from .access import bearer, count_wrong_codes, etag, find_table, matching_etag, status_of, too_many

bp = Blueprint("table_api", __name__, url_prefix="/api/tables")
count_wrong_codes(bp)


@bp.errorhandler(GameError)
@bp.errorhandler(GameErrors)
def _refused(error: GameError | GameErrors):
    """Every refusal of the service or of a request's shape, with its status by kind."""
    return refusal(_refusals(error), status_of(error))


def _refusals(error: GameError | GameErrors) -> list[tuple[str, dict[str, object]]]:
    """Each refusal of *error*: its sentence in the request's language, and its problem."""
    words = Words(get_translations(), str(get_locale() or "en"))
    errors = list(error.errors) if isinstance(error, GameErrors) else [error]
    return [(words.error(e), game_problem(e)) for e in errors]


@bp.errorhandler(HTTPException)
def _http_refused(error: HTTPException):
    """A request refused before the service saw it (a body nested too deeply, a value
    the database cannot hold, …): the refusals' shape, its id the status's name."""
    if error.response is not None:  # a limit's own answer (429)
        return error.response
    return refusal([(f"{error.name}: {error.description}", status_problem(error))], error.code or 400)


@bp.post("")
@limiter.shared_limit(table_rate_limit, scope="table-create", on_breach=too_many, override_defaults=False)
def create():
    """Start a table. Body ``{"ruleset": "pocket", "played_on": "YYYY-MM-DD",
    "checks": true}`` (all optional: pocket, today on the server, checks on).

    201 ``{"code", "url", "host_token", "version"}``: the join code, the join
    link ``/t/<code>``, the host's secret (shown this once).
    """
    body = _body()
    checks = body.get("checks", True)
    if not isinstance(checks, bool):
        raise GameErrors([GameError("checks-not-boolean")])
    ruleset = body.get("ruleset")  # absent, null or "": pocket; 0, false or [] are no ruleset's id
    table, secret = service.start(
        "pocket" if ruleset in (None, "") else str(ruleset), _date(body.get("played_on")), checks_required=checks
    )
    return jsonify(code=table.code, url=_join_url(table.code), host_token=secret, version=table.version), 201


@bp.get("/<code>")
def show(code: str):
    """The table as every phone shows it (see :func:`_state`), with an ``ETag``;
    ``If-None-Match`` with the current one gives 304 and no body. With a
    secret, also ``"you"`` (host, seats) and, once locked, the host's
    ``"edit_url"``. ``Cache-Control: no-cache``: always asked again."""
    table = find_table(code)
    phone = _phone(table)
    tag = etag(table, phone)
    matched = matching_etag(tag)  # answered 304 without building the state
    if matched is not None:
        response = Response(status=304)
        response.set_etag(matched)
    else:
        response = jsonify(_state(table))
        response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.add("Authorization")
    return response


@bp.patch("/<code>")
def settings(code: str):
    """The host switches checks by another player on or off: ``{"checks_required": false}``. 200: the table."""
    table = find_table(code)
    required = _body().get("checks_required")
    if not isinstance(required, bool):
        raise GameErrors([GameError("checks-not-boolean")])
    return jsonify(_state(service.set_checks(table.code, _secrets(), required)))


@bp.post("/<code>/seats")
@limiter.shared_limit(join_rate_limit, scope="table-join", on_breach=too_many, override_defaults=False)
def join(code: str):
    """Take the next seat: ``{"name": "Ada"}`` (R8: not empty, at most 40
    characters, not another seat's name in any case). With the host's secret,
    the host adds a seat for a player without a phone, held by the host's secret.

    201 ``{"seat": n, "seat_token", "version"}``; 409 when the name is taken,
    the table full (4 seats) or locked, or the phone (its secret) already holds
    a seat and is not the host's; 400 for a name R8 refuses otherwise.
    """
    table = find_table(code)
    after, seat, secret = service.take_seat(table.code, _body().get("name"), _secrets())
    return jsonify(seat=seat.number, seat_token=secret, version=after.version), 201


@bp.put("/<code>/seats/<int:number>")
def update_seat(code: str, number: int):
    """Store a seat's draft (:class:`~.wire.Draft`), with its own secret or the host's: any of
    ``{"kingdom": 16 card ids or null row by row (or 4 rows of 4), "legends":
    [ids], "done": bool, "base": {"kingdom", "legends"}}`` (what is left out
    stays). With ``base`` (the kingdom as the page showed it before its
    changes), only what differs from it is written: two pages on one seat keep
    each other's changes. The seat pages send exactly this.

    200 with the seat (:class:`~.wire.SeatAnswer`, see :func:`_seat`): what it holds now,
    its kingdom as 16 cells row by row, its rows and total so far scored by the engine,
    and the table's ``version``.
    """
    table = find_table(code)
    if reached(*_seat_drafts(table.code, number)):
        return refusal([(too_many_tries(None), problem("too-many-requests"))], 429)
    after = service.save_draft(table.code, number, _secrets(), _body())
    count(*_seat_drafts(table.code, number))
    return jsonify(_seat(after, after.seat(number)) | {"version": after.version})


def _seat_drafts(code: str, number: int) -> tuple[str, str, str]:
    """The drafts seat *number* of table *code* stored, as :func:`~..security.reached` and
    :func:`~..security.count` name them (``DRAFT_RATE_LIMIT``): the PUT's and the stream's together."""
    return "DRAFT_RATE_LIMIT", "seat-drafts", f"{code}/{number}"


def draft_on_stream(code: str, data: object, lang: str | None, too_fast: bool) -> dict[str, Any]:
    """A seat page's draft sent on its open stream (the ``draft`` event of
    :mod:`scorekeeper.web.tables.stream`) for table *code*, the one its stream watches:
    :func:`update_seat`'s body with ``"seat": n`` and ``"secret"`` (the seat's or the
    host's), stored as :func:`update_seat` stores it.

    :returns: the acknowledgement: what :func:`update_seat` answers (the seat and the
        table's ``version``), or its refusal with ``"status"`` (400, 403, 404, 409; 429
        when the stream sends *too_fast* or the seat has stored its drafts' limit, as the PUT's;
        503 when the database cannot be reached), its sentences in *lang* (a language of the
        app) or the stream's request's.
    """
    with force_locale(lang) if lang in LANGUAGES else nullcontext():
        over_limit = refusal_body([(too_many_tries(None), problem("too-many-requests"))]) | {"status": 429}
        if too_fast:
            return over_limit
        try:
            if not isinstance(data, dict):
                raise GameErrors([GameError("body-not-object")])
            number, secret = data.get("seat"), data.get("secret")
            if not isinstance(number, int) or isinstance(number, bool):
                raise model.NoSuchTable("seat-not-found")
            if reached(*_seat_drafts(code, number)):
                return over_limit
            secrets = [secret] if isinstance(secret, str) and 0 < len(secret) <= 64 else []
            after = service.save_draft(code, number, secrets, data)
            count(*_seat_drafts(code, number))
        except (GameError, GameErrors) as error:
            return refusal_body(_refusals(error)) | {"status": status_of(error)}
        except DATABASE_ERRORS as error:  # as the PUT's 503: the page sends it again a moment later
            after_database_failure(error)
            unreachable = "Service Unavailable: the database cannot be reached; try again later."
            return refusal_body([(unreachable, problem("service-unavailable"))]) | {"status": 503}
        return _seat(after, after.seat(number)) | {"version": after.version}


@bp.post("/<code>/seats/<int:number>/check")
def check(code: str, number: int):
    """Another seat (its secret) checked seat *number*'s kingdom against the
    cards on the table, as it looked at it: ``{"seen": {"kingdom", "legends"}}``
    (required). 200 with the checked seat; 409 for a kingdom this phone holds
    or entered, one not marked done, or one changed since it was looked at."""
    table = find_table(code)
    after = service.check(table.code, number, _secrets(), _body(optional=True).get("seen"))
    return jsonify(_seat(after, after.seat(number)) | {"version": after.version})


@bp.post("/<code>/seats/<int:number>/wrong")
def wrong(code: str, number: int):
    """Another seat reports "something is wrong": ``{"cell": 0..15, "seen":
    {"kingdom", "legends"}}`` (row by row). The seat is no longer done; its
    owner's phone shows the cell. 200 with the seat."""
    table = find_table(code)
    body = _body()
    after = service.report_wrong(table.code, number, _secrets(), body.get("cell"), body.get("seen"))
    return jsonify(_seat(after, after.seat(number)) | {"version": after.version})


@bp.post("/<code>/lock")
def lock(code: str):
    """The host locks the table into one saved game (again: the same game).
    Body optional: ``{"group": public id, "invite": its invite secret}`` puts
    the game in that group (400 ``group-unknown`` if the pair does not open it).

    200 ``{"game_url", "edit_url"}`` (the edit link is the host's only);
    409 with every reason while a seat is not done, not checked, reported
    wrong, or the game as a whole is refused (a Legend claimed twice, R6.1).
    """
    table = find_table(code)
    body = _body(optional=True)
    group = None
    if body.get("group") is not None:
        group = find_group(str(body["group"]))
        if group is None or not opens(group, str(body.get("invite") or "")):
            raise GameErrors([GameError("group-unknown")])
    saved, secret, _ = service.lock(table.code, _secrets(), group)
    return jsonify(
        game_url=url_for("games.show", public_id=saved.public_id, _external=True),
        edit_url=url_for("games.manage", public_id=saved.public_id, secret=secret, _external=True),
    )


@bp.post("/<code>/again")
def again(code: str):
    """Play again (host, on a locked table): a new table with the same seats,
    names and secrets; asked again, the same one. Body optional
    ``{"played_on": "YYYY-MM-DD"}`` (default: the same date).

    201 ``{"code", "url"}``.
    """
    table = find_table(code)
    body = _body(optional=True)
    played_on = _date(body["played_on"]) if body.get("played_on") is not None else None
    following = service.play_again(table.code, _secrets(), played_on)
    return jsonify(code=following.code, url=_join_url(following.code)), 201


# -- the answers' shapes


def _state(table: Table) -> dict[str, Any]:
    """The table (:class:`~.wire.Table`): what every announcement carries
    (:func:`~.wire.push`), each seat with its points so far (:func:`_seat`),
    with ``"url"``, ``"you": {"host", "seats"}`` for the secret sent,
    ``"game_url"`` once locked, ``"next_url"`` after "Play again", and the
    host's ``"edit_url"`` once locked."""
    phone = _phone(table)
    shape: dict[str, Any] = dict(wire.push(table)) | {
        "url": _join_url(table.code),
        "seats": [_seat(table, seat) for seat in table.seats],
        "you": {"host": phone.host, "seats": sorted(phone.seats)},
    }
    if table.game_id is not None:
        shape["game_url"] = url_for("games.show", public_id=table.game_id, _external=True)
        edit = service.edit_link_secret(table, phone)
        if edit is not None:
            shape["edit_url"] = url_for("games.manage", public_id=table.game_id, secret=edit, _external=True)
    if table.next_code is not None:
        shape["next_url"] = _join_url(table.next_code)
    return shape


def _seat(table: Table, seat: Seat) -> dict[str, Any]:
    """The seat (:class:`~.wire.Seat`): as the push tells of it (:func:`~.wire.push_seat`),
    with ``"rows": {row: points}``, ``"total"`` and ``"points"`` (16 × the points each
    card scored, or null) so far, by the engine (R3–R6; a blank cell scores nothing and
    connects nothing)."""
    preview = kingdom_preview(table.ruleset, seat.cells, seat.legends)
    return dict(wire.push_seat(table, seat)) | {
        "rows": preview.rows if preview else None,
        "total": preview.total if preview else None,
        "points": list(preview.points) if preview else None,
    }


# -- reading requests


def _secrets() -> list[str]:
    """The secret this request presents: its bearer token, or none. The API never
    reads the pages' cookie (``sk_table_<CODE>``): a request a browser sends with
    its cookies on its own must not act for the phone, and the API takes no CSRF token."""
    token = bearer()
    return [token] if token else []


def _phone(table: Table) -> model.Phone:
    """Who the request's bearer token makes it at *table* (nobody without one)."""
    return model.identify(table, _secrets())


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
        raise GameErrors([GameError("body-not-object")])
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
        raise GameErrors([GameError("date-invalid", value=str(value)[:40])]) from None


def _join_url(code: str) -> str:
    """The join link ``/t/<code>`` (the shared-table pages answer it)."""
    return f"{request.url_root}t/{code}"
