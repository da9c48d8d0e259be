"""What both blueprints of the shared table (its pages, its JSON API) need alike:
the table a code names (a wrong code counted as a failed login), the phone
asking (its secrets: the pages' cookie, or the API's bearer token), the
wrong-code limit and its one refusal, a refusal's status, and the ETag of
what a phone is shown.

A phone's secret for one table lives in the cookie ``sk_table_<CODE>``
(HttpOnly, SameSite=Lax, Secure over HTTPS), so that reopening the link
returns to the seat; older phones may keep several there, separated by dots.

Wrong codes are counted per phone and per client address (``web.security``).
A phone is named to the per-phone limit by the cookie ``sk_phone``: a random id,
no secret and no credential (nothing is allowed by it), set on the first answer
of any table address (the API's too) to a phone that has none, and read by this
limit only. Without it, each request is a phone of its own, so the per-address
limit alone holds a guesser that drops its cookies.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta
from typing import Any

from flask import Blueprint, Response, g, make_response, render_template, request
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response as WerkzeugResponse

from ...engine import GameError, GameErrors
from ...table import model, service
from ...table.model import Phone, Table
from ..extensions import limiter
from ..refusals import problem, refusal
from ..security import (
    count_wrong_code,
    too_many_tries,
    was_wrong_code,
    wrong_code_address_rate_limit,
    wrong_code_rate_limit,
)

COOKIE_PREFIX = "sk_table_"
#: How long a phone keeps its secret for a table: past the 24 hours an open
#: table lives, for "Play again" and the host's edit link after the lock.
COOKIE_DAYS = 7
#: The cookie naming a phone to the per-phone wrong-code limit (a random id) and how long it is kept.
PHONE_COOKIE = "sk_phone"
PHONE_COOKIE_DAYS = 365
_PHONE_ID = re.compile(r"[A-Za-z0-9_-]{22}")


def bearer() -> str | None:
    """The secret of ``Authorization: Bearer <secret>``, or ``None``."""
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    return secret.strip() or None if scheme.lower() == "bearer" else None


def cookie_secrets(code: str) -> list[str]:
    """The secrets this phone's cookie keeps for table *code*, at most 8."""
    raw = request.cookies.get(COOKIE_PREFIX + code, "")
    return [secret for secret in raw.split(".") if 0 < len(secret) <= 64][:8]


def phone_secrets(code: str) -> list[str]:
    """The secrets the phone asking about table *code* presents: its bearer
    token if it sends one, else its cookie's (the pages; the JSON API reads
    the bearer token only)."""
    token = bearer()
    return [token] if token else cookie_secrets(code)


def keep_secret(response: WerkzeugResponse, code: str, secret: str) -> WerkzeugResponse:
    """*response*, setting this phone's cookie for table *code* to *secret* first,
    then the others it kept (a phone that moved a seat here keeps its older one too)."""
    kept = [secret, *(other for other in cookie_secrets(code) if other != secret)][:8]
    return _with_cookie(response, COOKIE_PREFIX + code, ".".join(kept), COOKIE_DAYS)


def _with_cookie(response: WerkzeugResponse, name: str, value: str, days: int) -> WerkzeugResponse:
    """*response* setting the table's cookie *name* for *days* days: the whole site,
    HttpOnly, SameSite=Lax, Secure over HTTPS."""
    max_age = int(timedelta(days=days).total_seconds())
    response.set_cookie(name, value, max_age=max_age, path="/", secure=request.is_secure, httponly=True, samesite="Lax")
    return response


def find_table(code: str) -> Table:
    """The table of join code *code* (read once per request).

    :raises NoSuchTable: ``"table-not-found"``, counted as a wrong code (a failed login).
    """
    found = g.setdefault("tables_read", {})
    if code not in found:
        found[code] = service.find(code)
    table: Table | None = found[code]
    if table is None:
        count_wrong_code()
        raise model.NoSuchTable("table-not-found")
    return table


def this_phone(table: Table) -> Phone:
    """Who the phone asking is at *table*."""
    return model.identify(table, phone_secrets(table.code))


#: The routes that take a table code elsewhere than in their address (``/join``: typed).
CODE_TYPED = frozenset({"tables.join"})


def _no_guess() -> bool:
    """Exempt from the wrong-code limit: a request that names no table code (start a
    table), or whose phone is seated at the table its address names."""
    if "code" not in (request.view_args or {}):
        return request.endpoint not in CODE_TYPED
    return _seated_here()


def _seated_here() -> bool:
    """The phone asking holds a secret of the table in the address (host or seat):
    no code guesser, so wrong codes typed from the same address (a home network,
    where every phone shares one) never lock it out of its own table."""
    code = model.normalise_code((request.view_args or {}).get("code", ""))
    if code is None or not phone_secrets(code):
        return False
    try:
        return this_phone(find_table(code)).is_anyone
    except model.NoSuchTable:
        g.wrong_code = False  # counted when the view finds it missing
        return False


def too_many(limit: Any = None) -> Response:
    """The refusal of a rate limit at the tables: JSON to the API (in the shape of its
    other refusals, the problem's id the status's name), a page to a browser."""
    message = too_many_tries(limit)
    if request.path.startswith("/api/"):
        response, _ = refusal([(message, problem("too-many-requests"))], 429)
        response.status_code = 429
        return response
    return make_response(render_template("errors/error.html", error=TooManyRequests(), message=message), 429)


def phone_key() -> str:
    """The per-phone wrong-code limit's key: the client address and the id of the phone's
    ``sk_phone`` cookie; a phone without one is given a new id, sent back with the answer."""
    phone = request.cookies.get(PHONE_COOKIE, "")
    if not _PHONE_ID.fullmatch(phone):
        if "new_phone" not in g:
            g.new_phone = secrets.token_urlsafe(16)
        phone = g.new_phone
    return f"{get_remote_address()}/{phone}"


def _name_phone(response: WerkzeugResponse) -> WerkzeugResponse:
    """The answer to a phone given a new id by :func:`phone_key`, with its cookie."""
    phone = g.pop("new_phone", None)
    return _with_cookie(response, PHONE_COOKIE, phone, PHONE_COOKIE_DAYS) if phone else response


#: Codes that name no table cost like failed logins, on the pages and the API alike: per phone
#: (one phone's mistakes lock out that phone, not the table sharing its address) and per address.
_wrong_code_limits = (
    limiter.shared_limit(
        wrong_code_rate_limit,
        scope="wrong-codes",
        key_func=phone_key,
        deduct_when=was_wrong_code,
        on_breach=too_many,
        exempt_when=_no_guess,
    ),
    limiter.shared_limit(
        wrong_code_address_rate_limit,
        scope="wrong-codes-address",
        deduct_when=was_wrong_code,
        on_breach=too_many,
        exempt_when=_no_guess,
    ),
)


def count_wrong_codes(bp: Blueprint) -> None:
    """Hold every route of *bp* that takes a table code (``<code>`` in its address,
    or :data:`CODE_TYPED`) to the wrong-code limits, a route added later too. Its view
    finds the table with :func:`find_table`, which marks a wrong code to be counted.
    A route with a limit of its own gives it ``override_defaults=False``: else
    Flask-Limiter applies that limit alone, and wrong codes there go uncounted."""
    for limit in _wrong_code_limits:
        limit(bp)
    bp.after_app_request(_name_phone)  # an answer refused before any view of *bp* (a 405) names it too


def status_of(error: GameError | GameErrors) -> int:
    """A refusal's HTTP status: 409 the table's state (not ready to lock, locked,
    full, …), 400 input R8 refuses, 404 no such table or seat, 403 not allowed."""
    if isinstance(error, model.NotReady):
        return 409
    if isinstance(error, GameErrors):
        return 400
    if isinstance(error, model.NoSuchTable):
        return 404
    if isinstance(error, model.NotAllowed):
        return 403
    if isinstance(error, model.TableConflict):
        return 409
    return 400


def etag(table: Table, phone: Phone, *parts: object) -> str:
    """The ETag of what *phone* is shown of *table* (its version, what the phone
    holds there, and *parts* such as the page's language)."""
    key = repr((table.version, phone.host, sorted(phone.seats), parts))
    return hashlib.sha256(key.encode()).hexdigest()[:20]


def matching_etag(tag: str) -> str | None:
    """The ETag of the request's ``If-None-Match`` that names the state *tag* names, or
    ``None``. A compressed answer's ETag has its encoding appended (``…:gzip``,
    Flask-Compress): the same state all the same. An empty tag (``""``, which Werkzeug
    reads as ``None``) names nothing; it answered 500 before."""
    return next((sent for sent in request.if_none_match.as_set() if sent and sent.split(":", 1)[0] == tag), None)
