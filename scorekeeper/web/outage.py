"""While the database cannot be reached or written (server down, disk full, a
read-only file): 503 Service Unavailable with ``Retry-After``, a sentence that
says so, and, where a form was posted, the form again with what was typed.

Each blueprint answers its own forms (``errorhandler(DATABASE_ERRORS)``); the
app answers every other request with the error page (``web.init_app``).
"""

from __future__ import annotations

from flask import Response, current_app, make_response, render_template, request
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import ServiceUnavailable

from ..store.db import db
from .i18n import N_, gettext
from .refusals import problem, refusal

#: What a database failure raises: the server unreachable or gone away, the
#: disk full, the file read-only or locked (OperationalError); a connection
#: closed under the driver (InterfaceError); no pooled connection free in time.
DATABASE_ERRORS = (OperationalError, InterfaceError, PoolTimeout)

#: Seconds a client is asked to wait before trying again (``Retry-After``).
RETRY_AFTER = 30

NOTHING_SAVED = N_(
    "The saved games cannot be reached just now, so nothing was saved. Your entries are below: try again in a minute."
)
UNREACHABLE = N_(
    "The saved games cannot be reached just now; nothing was changed. Scoring a game still works. "
    "Try again in a minute."
)


def after_database_failure(error: Exception) -> None:
    """Log *error* in one line (no traceback: the cause is outside the app) and
    end the request's failed transaction, so the answer may still be rendered."""
    cause = " ".join(str(getattr(error, "orig", error)).split())
    current_app.logger.warning("database unavailable: %.200s", cause)
    try:
        db.session.rollback()
    except DATABASE_ERRORS:  # the connection is gone: nothing to roll back on it
        pass


def unavailable(body, status: int = 503) -> Response:
    """*body* (a page, or a view's ``(page, status)``) as a 503 with ``Retry-After``."""
    response = make_response(body)
    response.status_code = status
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def outage_page(error: Exception) -> Response:
    """The error page (JSON under ``/api/``) for a request that needed the database."""
    after_database_failure(error)
    if request.path.startswith("/api/"):
        answer, _ = refusal(
            [("Service Unavailable: the database cannot be reached; try again later.", problem("service-unavailable"))],
            503,
        )
        return unavailable(answer)
    page = render_template("errors/error.html", error=ServiceUnavailable(), message=gettext(UNREACHABLE))
    return unavailable(page)
