"""Requests the app cannot read, each kind refused in one place with a 4xx and a
sentence (the error page; JSON under ``/api/``), never a traceback, and nothing
stored:

- a body that is not a form (JSON, text, any other bytes) posted to a page's
  address: 415, before CSRF or any form reads it (Flask-WTF would take a JSON
  body as the form's fields);
- nesting deeper than Python can follow (``RecursionError`` while reading JSON,
  wherever it is read): 400;
- a value the database cannot hold: a NUL character in text (PostgreSQL) or a
  number beyond its integers (SQLAlchemy's ``DataError``; SQLite's
  ``OverflowError``): 400, the request's transaction rolled back;
- a number in an address (``<int:…>``) larger than the database's ``INTEGER``:
  it names nothing, 404 (:class:`DatabaseInteger`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from sqlalchemy.exc import DataError
from werkzeug.exceptions import BadRequest, UnsupportedMediaType
from werkzeug.routing import IntegerConverter

from ..store.db import db
from .i18n import N_, gettext

#: The largest value of the database's ``INTEGER`` (SQLite's ids are larger, PostgreSQL's are not).
MAX_INTEGER = 2**31 - 1

#: What a page's address takes as a body (an empty body has no type).
FORM_TYPES = frozenset({"", "application/x-www-form-urlencoded", "multipart/form-data"})

NOT_A_FORM = N_("This address takes only a form sent from its page; nothing was changed.")
TOO_DEEP = N_("The request is nested too deeply to read; nothing was changed.")
CANNOT_HOLD = N_(
    "The request holds a character or a number that the saved games cannot hold "
    "(such as a NUL character); nothing was changed."
)


class DatabaseInteger(IntegerConverter):
    """``<int:…>`` in every address: a whole number from 0 to :data:`MAX_INTEGER`.
    A larger one names no row (404) and never reaches the database, whose
    integers it would overflow."""

    def __init__(
        self, map: Any, fixed_digits: int = 0, min: int | None = None, max: int | None = MAX_INTEGER, signed=False
    ) -> None:
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def refuse_non_form_body() -> None:
    """A page's address posted anything but a form: 415 (the API's addresses read JSON)."""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.path.startswith("/api/"):
        return
    if request.mimetype not in FORM_TYPES:
        raise UnsupportedMediaType(gettext(NOT_A_FORM))


def _refused(description: str):
    """The app's own answer to a 400 (the page, the API's JSON) saying *description*,
    after the request's transaction is rolled back."""
    db.session.rollback()
    return current_app.handle_http_exception(BadRequest(description))


def too_deep(error: RecursionError):
    """JSON (or anything read) nested deeper than Python can follow: 400."""
    return _refused(gettext(TOO_DEEP))


def cannot_hold(error: Exception):
    """A value the database refuses to hold (NUL in text, an integer out of range): 400."""
    current_app.logger.info("refused a value the database cannot hold: %.200s", getattr(error, "orig", error))
    return _refused(gettext(CANNOT_HOLD))


def init_app(app: Flask) -> None:
    """Install the bounded ``int`` converter (before any route is added), the page
    bodies' check (before CSRF reads a form) and the handlers."""
    app.url_map.converters["int"] = DatabaseInteger
    app.before_request(refuse_non_form_body)
    app.register_error_handler(RecursionError, too_deep)
    app.register_error_handler(DataError, cannot_hold)
    app.register_error_handler(OverflowError, cannot_hold)
