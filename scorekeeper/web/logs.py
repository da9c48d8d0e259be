"""What the logs may say of a request: its route, never a secret of its path.

Many paths carry a secret: a game's private link (``/g/<id>/<secret>``), a
group's invite link (``/join/<group>/<secret>``), a table's code
(``/t/<code>``), a table pass, a stream's ticket in a query string. Whoever
reads a log must learn none of them. So nothing that logs a request writes its
path: it writes :func:`logged_path`, the request's *route* with each value left
out but the numbers (``/join/<public_id>/<secret>``, ``/t/<code>/check/1``),
and no query string. This holds for every route, those added later included,
because it names values by the route's own words rather than by a list of the
paths known to hold secrets.

- The app's error log (:class:`App`'s ``log_exception``, and the
  ``unhandled error`` line of the error pages) writes it.
- Every answer carries it in :data:`HEADER` for the proxy's access log
  (``deploy/nginx/default.conf.template`` logs it and takes it off the answer);
  what the proxy answers itself (no app involved) it logs with only the first
  part of the path (``/socket.io/...``), from :data:`UNMATCHED`'s rule.
"""

from __future__ import annotations

import re
from types import TracebackType
from urllib.parse import quote

from flask import Flask, Response, has_request_context, request

HEADER = "X-Scorekeeper-Log-Path"

#: A path that matched no route is written as its first part, and ``/...`` if there is more.
UNMATCHED = re.compile(r"^(/[^/]*)(/.*)?$", re.DOTALL)

#: A route's argument, ``<name>`` or ``<converter(its arguments):name>``.
_ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
#: The converters whose values are no one's secret: ids and seat numbers, a route's own words.
_SHOWN = {"int", "any"}

ExcInfo = tuple[type[BaseException], BaseException, TracebackType] | tuple[None, None, None]


def logged_path() -> str:
    """This request's path as the logs may write it: the route it matched, each
    argument by its name (``<secret>``) but whole numbers (ids, seat numbers)
    and the route's own words (``<any(json, csv):…>``) as they are; no query
    string. A path that matched no route: its first part
    only (``/join/...``). Outside a request: ``-``."""
    if not has_request_context():
        return "-"
    rule = request.url_rule
    if rule is None:
        match = UNMATCHED.match(request.path)
        if match is None:
            return "-"
        first = quote(match[1], safe="/!$&'()*+,;=:@-._~")  # as sent: ASCII, no line break
        return first + ("/..." if match[2] else "")
    values = request.view_args or {}

    def shown(argument: re.Match[str]) -> str:
        converter, name = argument[1], argument[2]
        return str(values.get(name)) if converter in _SHOWN and name in values else f"<{name}>"

    return _ARGUMENT.sub(shown, rule.rule)


class App(Flask):
    """The app class of :func:`scorekeeper.create_app`: Flask's, with an error
    log that never writes a request's path (Flask's writes ``Exception on
    <path> [POST]``, secrets included)."""

    def log_exception(self, exc_info: ExcInfo) -> None:
        self.logger.error("Exception on %s [%s]", logged_path(), request.method, exc_info=exc_info)


def _log_path_header(response: Response) -> Response:
    response.headers[HEADER] = logged_path()
    return response


def init_app(app: Flask) -> None:
    """Name every answer's route for the proxy's access log (:data:`HEADER`)."""
    app.after_request(_log_path_header)
