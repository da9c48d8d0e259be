"""No log writes a secret of a path (issue 24, item 1): the app's error log and the
route it names for the proxy's access log (tests/serving/test_proxy.py reads
nginx's log itself)."""

from __future__ import annotations

import logging
import re

import pytest
from flask import request
from werkzeug.routing import AnyConverter, IntegerConverter

from scorekeeper.web.logs import HEADER, route_of

SECRET = "s3cr3tValue"


def every_route(app) -> list[tuple[str, str, str]]:
    """(method, a path of each route with *SECRET* for every value but numbers, the route
    as the logs must write it) for every route of the app, those added later included."""
    routes = []
    for rule in app.url_map.iter_rules():
        values, expected = {}, rule.rule
        for argument in rule.arguments:
            converter = rule._converters[argument]
            if isinstance(converter, IntegerConverter):  # ids, seat numbers: shown
                values[argument] = shown = 7
            elif isinstance(converter, AnyConverter):  # the route's own words: shown
                values[argument] = shown = sorted(converter.items)[0]
            else:
                values[argument], shown = SECRET, f"<{argument}>"
            expected = re.sub(rf"<(?:[^:<>]+:)?{argument}>", str(shown), expected)
        path = rule.build(values, append_unknown=False)[1]
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            routes.append((method, path, expected))
    return routes


def test_every_answer_names_its_route_without_its_values(app):
    """Every route's answer, whatever its status, names the route with each value left out but
    whole numbers, and no query string: that is all the proxy's access log writes."""
    client = app.test_client()
    routes = every_route(app)
    assert len(routes) > 40  # every route of the app
    assert any("<secret>" in expected for _, _, expected in routes)  # private links, invite links
    for method, path, expected in routes:
        response = client.open(f"{path}?ticket={SECRET}", method=method)
        assert response.headers[HEADER] == expected, (method, path, response.status_code)
        assert SECRET not in response.headers[HEADER]


@pytest.mark.parametrize(
    ("path", "logged"),
    [
        (f"/join/{SECRET}", "/join/..."),
        (f"/nowhere/{SECRET}/x", "/nowhere/..."),
        ("/nowhere", "/nowhere"),
        ("/%0D%0ASet-Cookie:%20x/y", "/%0D%0ASet-Cookie:%20x/..."),  # as sent: no line break in a header
        ("/caf%C3%A9", "/caf%C3%A9"),
    ],
)
def test_a_path_of_no_route_is_named_by_its_first_part(app, path, logged):
    response = app.test_client().get(path)
    assert response.headers[HEADER] == logged


def test_the_error_log_writes_the_route_not_the_secret(app, caplog):
    """Flask's own line for an error it catches last (``Exception on <path> [POST]``) wrote the
    private link's secret; the error pages' line writes the route too."""

    @app.after_request
    def fails_late(response):  # an error after the view, caught by Flask itself
        if request.path.endswith("/late"):
            raise RuntimeError("a fault after the view")
        return response

    def fails(**_values):  # an error in a view, caught by the error page
        raise RuntimeError("a fault in the view")

    app.add_url_rule("/g/<int:game_id>/<secret>/fails", view_func=fails, methods=["POST"])
    app.add_url_rule("/g/<int:game_id>/<secret>/late", "late", view_func=lambda **_: "", methods=["POST"])
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production (tests raise them by default)
    client = app.test_client()
    with caplog.at_level(logging.ERROR):
        assert client.post(f"/g/12/{SECRET}/fails").status_code == 500
        assert client.post(f"/g/12/{SECRET}/late").status_code == 500
    lines = [record.getMessage() for record in caplog.records]
    assert "unhandled error on /g/12/<secret>/fails [POST]" in lines
    assert "Exception on /g/12/<secret>/late [POST]" in lines
    assert not any(SECRET in record.getMessage() or SECRET in (record.exc_text or "") for record in caplog.records)


def test_database_errors_leave_out_their_statements_values(db_app):
    """README: database errors leave out their statements' values (``hide_parameters``): the
    message a failed statement logs names the statement, never what was bound to it."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    from scorekeeper.store import db

    with db_app.app_context():
        with pytest.raises(DBAPIError) as failed:
            db.session.execute(text("SELECT public_id FROM no_such_table WHERE secret = :secret"), {"secret": SECRET})
        db.session.rollback()
    message = str(failed.value)
    assert "no_such_table" in message and "parameters hidden" in message
    assert SECRET not in message


@pytest.mark.parametrize(
    ("method", "target", "written"),
    [
        ("POST", f"/g/game1/{SECRET}/edit", "/g/<public_id>/<secret>/edit"),  # a private link
        ("GET", f"/join/grp1/{SECRET}?lang=de", "/join/<public_id>/<secret>"),  # an invite link, its query left out
        ("GET", f"/t/{SECRET}/check/3?seen={SECRET}", "/t/<code>/check/3"),  # a table's code; a seat number shown
        ("DELETE", f"/g/game1/{SECRET}/edit", "/g/<public_id>/<secret>/edit"),  # the route, for a method it refuses
        ("GET", f"/g/game1/{SECRET}/edit/", "/g/..."),  # no route (a slash too many): the first part
        ("GET", f"/nowhere/{SECRET}", "/nowhere/..."),
        ("GET", f"/socket.io/?EIO=4&transport=websocket&ticket={SECRET}", "/socket.io/..."),  # served beside the routes
        ("GET", f"/g/game1/{SECRET.replace('V', '%56')}/edit", "/g/<public_id>/<secret>/edit"),  # percent-encoded
    ],
)
def test_a_request_named_outside_it_is_written_by_its_route(app, method, target, written):
    assert route_of(app.url_map, method, target) == written


def test_gunicorns_own_lines_write_the_route_not_the_secret(app, caplog):
    """Issue 32, item 8: on each worker stopped for taking too long, gunicorn wrote ``Error
    handling request POST /g/<id>/<secret>/edit`` (14 private links in one run); its line for a
    request line it cannot read quotes that line. Both write the route, as the access log does."""
    gunicorn = logging.getLogger("gunicorn.error")
    with caplog.at_level(logging.INFO, logger="gunicorn.error"):
        try:
            raise SystemExit(1)  # what gunicorn raises in a worker it stops mid-request
        except SystemExit:
            gunicorn.exception("Error handling request %s %s", "POST", f"/g/game1/{SECRET}/edit")
        gunicorn.warning(
            f"Invalid request from ip=127.0.0.1: Invalid HTTP request line: 'GET /t/{SECRET}\\xe9 HTTP/1.0'"
        )
        gunicorn.info("Booting worker with pid: %s", 4242)
    lines = [record.getMessage() for record in caplog.records]
    assert lines == [
        "Error handling request POST /g/<public_id>/<secret>/edit",
        "Invalid request from ip=127.0.0.1: Invalid HTTP request line: 'GET /t/<code> HTTP/1.0'",
        "Booting worker with pid: 4242",
    ]
    assert caplog.records[0].exc_info is not None  # the traceback is still written


def test_the_development_servers_line_per_request_writes_the_route(app, caplog):
    """``flask run`` (``make run``) writes a line per request, its request line quoted."""
    with caplog.at_level(logging.INFO, logger="werkzeug"):
        logging.getLogger("werkzeug").info(
            '%s - - [%s] "%s" %s %s',
            "127.0.0.1",
            "01/Dec/2026 20:00:00",
            f"GET /join/grp1/{SECRET} HTTP/1.1",
            "200",
            "-",
        )
    assert (
        caplog.records[0].getMessage()
        == '127.0.0.1 - - [01/Dec/2026 20:00:00] "GET /join/<public_id>/<secret> HTTP/1.1" 200 -'
    )
