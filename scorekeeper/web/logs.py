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
- The server's own lines about a request, written outside it (gunicorn's
  ``Error handling request POST /g/…/edit`` when a worker is stopped for taking
  too long, its ``Invalid request from ip=…`` with the request line; the
  development server's line per request) write the route too: :class:`RequestLines`,
  a filter the app puts on those loggers when it is created (:func:`init_app`),
  naming a path by :func:`route_of`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from types import TracebackType
from typing import Any
from urllib.parse import quote, unquote

from flask import Flask, Response, has_request_context, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.routing import Map

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
        return _first_part(request.path)
    return _route(rule.rule, request.view_args or {})


def route_of(url_map: Map, method: str, target: str) -> str:
    """A request's path as the logs may write it (:func:`logged_path`), from its
    *method* and request target (``/g/abc/s3cr3t/edit?x=1``, percent-encoded, as
    sent) matched against *url_map*: for a line about a request written outside
    it. A target that matches no route (at all, or not for *method*): its first part."""
    path = unquote(target.split("?", 1)[0].split("#", 1)[0], errors="replace")
    adapter = url_map.bind("localhost")
    try:
        try:
            rule, values = adapter.match(path, method=method, return_rule=True)
        except MethodNotAllowed as refused:  # the route, for another method (its 405)
            allowed = next(iter(refused.valid_methods or ()), "GET")
            rule, values = adapter.match(path, method=allowed, return_rule=True)
    except HTTPException:  # no route, or a redirect to one (a missing or extra slash)
        return _first_part(path)
    return _route(rule.rule, values)


def _first_part(path: str) -> str:
    match = UNMATCHED.match(path)
    if match is None:
        return "-"
    first = quote(match[1], safe="/!$&'()*+,;=:@-._~")  # as sent: ASCII, no line break
    return first + ("/..." if match[2] else "")


def _route(rule: str, values: Mapping[str, Any]) -> str:
    def shown(argument: re.Match[str]) -> str:
        converter, name = argument[1], argument[2]
        return str(values.get(name)) if converter in _SHOWN and name in values else f"<{name}>"

    return _ARGUMENT.sub(shown, rule)


#: A request in a line of a server's log: its method and its target, up to a space or a quote
#: (``POST /g/abc/s3cr3t/edit``; ``'GET /t/CODE HTTP/1.0'``; ``"GET /join/… HTTP/1.1" 200``).
REQUEST_IN_LINE = re.compile(r"\b([A-Z]+) (/[^\s'\"]*)")


class RequestLines(logging.Filter):
    """A filter for the loggers of the servers that run the app (gunicorn's
    ``gunicorn.error``, the development server's ``werkzeug``): each request a
    line names (:data:`REQUEST_IN_LINE`) is written with its route
    (:func:`route_of` in :attr:`url_map`, the app's), as the access log writes
    it; the rest of the line as it was."""

    def __init__(self) -> None:
        super().__init__()
        self.url_map: Map | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        url_map = self.url_map
        if url_map is None:
            return True
        line = record.getMessage()
        written = REQUEST_IN_LINE.sub(lambda found: f"{found[1]} {route_of(url_map, found[1], found[2])}", line)
        if written != line:
            record.msg, record.args = written, None
        return True


#: The one filter of this process (an app created later points it at its own routes).
_REQUEST_LINES = RequestLines()
#: The loggers whose lines name requests outside of them: gunicorn's error log, the development server's.
SERVER_LOGGERS = ("gunicorn.error", "werkzeug")


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
    """Name every answer's route for the proxy's access log (:data:`HEADER`), and
    have the servers' own lines about a request name it so (:class:`RequestLines`)."""
    app.after_request(_log_path_header)
    _REQUEST_LINES.url_map = app.url_map  # (the same routes whichever app of a process)
    for name in SERVER_LOGGERS:
        logging.getLogger(name).addFilter(_REQUEST_LINES)  # (once: a filter already there is not added again)
