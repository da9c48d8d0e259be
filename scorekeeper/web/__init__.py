"""The web layer: blueprints, CSRF and error pages. Views stay thin; rules live in the engine."""

from __future__ import annotations

from flask import Flask, render_template, request
from werkzeug.exceptions import BadHost, HTTPException, SecurityError


def init_app(app: Flask) -> None:
    """Register CSRF protection, the blueprints and the error pages on *app*."""
    from ..store import can_store
    from ..store.exchange import MAX_IMPORT
    from . import delivery, i18n, logs, pdf, phone_parts, template_cache, unreadable
    from .api.views import bp as api_bp
    from .display import card_symbol
    from .extensions import csrf
    from .games.views import IMPORT_LIMIT
    from .games.views import bp as games_bp
    from .groups.views import bp as groups_bp
    from .offline.views import bp as offline_bp
    from .outage import DATABASE_ERRORS, after_database_failure, outage_page, unavailable
    from .refusals import problem, refusal, status_problem
    from .security import init_security
    from .sheet_parts import signed
    from .sheets.views import bp as sheets_bp
    from .tables.api import bp as table_api_bp
    from .tables.api import draft_on_stream
    from .tables.pages import bp as tables_bp
    from .tables.stream import init_app as init_streams

    unreadable.init_app(app)  # first: the int converter before any route, the body check before CSRF
    app.config.setdefault("IMPORT_MAX_BYTES", IMPORT_LIMIT)
    app.config.setdefault("IMPORT_MAX_GAMES", MAX_IMPORT)

    @app.before_request
    def larger_imports():
        """Imports may be larger than other requests; set before CSRF reads the form
        (the save limit reads nothing of it: it counts the file's games once the view has)."""
        if request.endpoint == "games.import_page" and request.method == "POST":
            request.max_content_length = app.config["IMPORT_MAX_BYTES"]

    init_security(app)
    logs.init_app(app)
    template_cache.init_app(app)
    i18n.init_app(app)
    delivery.init_app(app)
    phone_parts.init_app(app)  # after delivery: pages are filled in before they are compressed
    pdf.init_app(app)

    csrf.init_app(app)
    csrf.exempt(api_bp)  # stateless JSON scoring: no cookie, no state to forge
    csrf.exempt(table_api_bp)  # secrets in the Authorization header, never in a cookie: nothing to forge
    app.register_blueprint(sheets_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(games_bp)
    app.register_blueprint(tables_bp)
    app.register_blueprint(table_api_bp)
    app.register_blueprint(groups_bp)
    app.register_blueprint(offline_bp)  # after delivery: it reads the static files' versions
    # the tables' streams (/socket.io/) in front of the app, after every other wrapper; drafts sent
    # on them answered as the API answers them
    init_streams(app, draft_on_stream)
    app.jinja_env.globals.update(card_symbol=card_symbol, signed=signed)  # (the sheet's own: sheet_page)

    @app.get("/healthz")
    def healthz():
        """Liveness for load balancers (and the hello-world baseline of
        bench/http_throughput.py): the process answers. It asks the database
        nothing, so a database outage never makes a balancer restart the app."""
        return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8"}

    @app.get("/readyz")
    def readyz():
        """Readiness: ``ok`` while a game can be stored (the database answers and takes a
        write: ``store.can_store``), else 503 with ``Retry-After`` (a balancer sends no
        traffic here until it answers)."""
        try:
            can_store()
        except DATABASE_ERRORS as error:
            after_database_failure(error)
            return unavailable(("games cannot be stored\n", {"Content-Type": "text/plain; charset=utf-8"}))
        return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8"}

    for failure in DATABASE_ERRORS:
        app.register_error_handler(failure, outage_page)

    @app.errorhandler(SecurityError)
    def untrusted_host(error: SecurityError):
        """A Host outside TRUSTED_HOSTS: no page can be built for it (its links would use that host)."""
        return "400 Bad Request: this server does not answer to that host name.\n", 400, {"Content-Type": "text/plain"}

    @app.errorhandler(BadHost)
    def unusable_host(error: BadHost):
        """A Host no URL can be made of (``a..b``, a label over 63 characters): no
        page can be built, its links included; one log line, no traceback."""
        app.logger.info("refused a Host that makes no URL: %.80r", request.host)
        return "400 Bad Request: that host name makes no URL.\n", 400, {"Content-Type": "text/plain"}

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if error.response is not None:  # a view's own refusal, such as a rate limit's on_breach page
            return error.response
        # a 405 says which methods the address takes (Allow), in JSON too
        headers = [(key, value) for key, value in error.get_headers() if key.lower() == "allow"]
        if _wants_json():
            answer, status = refusal([(f"{error.name}: {error.description}", status_problem(error))], error.code or 500)
            return answer, status, headers
        page = render_template("errors/error.html", error=error, default_description=type(error).description)
        return page, error.code, headers

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception):
        app.logger.exception("unhandled error on %s [%s]", logs.logged_path(), request.method)
        if _wants_json():
            return refusal([("Internal error: nothing was scored or stored.", problem("internal-error"))], 500)
        return render_template("errors/error.html", error=None), 500


def _wants_json() -> bool:
    return request.path.startswith("/api/")
