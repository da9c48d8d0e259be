"""Security around the app: headers (flask-talisman), proxies (ProxyFix), rate limits (Flask-Limiter),
the page for an expired form (Flask-WTF's CSRF check).

Configuration (``SCOREKEEPER_`` environment variables or the instance config):

- ``HTTPS`` (default false): served over HTTPS, so redirect http to https, send
  HSTS and mark cookies ``Secure``.
- ``PROXY_FIX_X_FOR``, ``PROXY_FIX_X_PROTO``, ``PROXY_FIX_X_HOST``,
  ``PROXY_FIX_X_PREFIX`` (default 0): how many proxies' ``X-Forwarded-*``
  headers to trust. Zero trusts none: never enable behind no proxy.
- ``SAVE_RATE_LIMIT`` (default ``"30 per minute;300 per hour"``): saves,
  corrections, deletions and imports per client address.
- ``PDF_RATE_LIMIT`` (default ``"20 per minute;200 per hour"``): PDF
  downloads per client address (a repeated sheet-link PDF is served from cache).
- ``PICTURE_RATE_LIMIT`` (default ``"60 per minute;600 per hour"``): result
  pictures (PNG) drawn per client address; one served again from the kept ones
  (or a 304) is not counted. A new one takes about 30 ms of CPU, ten sheet pages' worth.
- ``TABLE_RATE_LIMIT`` (default ``"10 per minute;60 per hour"``): shared
  tables started per client address.
- ``JOIN_RATE_LIMIT`` (default ``"20 per minute;120 per hour"``): seats taken
  at shared tables per client address.
- ``WRONG_CODE_RATE_LIMIT`` (default ``"10 per minute;30 per hour"``): table
  codes that name no table, per phone (its client address and the random id of
  its ``sk_phone`` cookie, ``web.tables.access``), as failed logins count; over
  it, every table address answers 429 to that phone until the window passes.
  Phones at one table share one address (the café's Wi-Fi): one phone's wrong
  codes never lock the others out.
- ``WRONG_CODE_ADDRESS_RATE_LIMIT`` (default ``"30 per minute;120 per hour"``):
  the same codes per client address, all its phones together (a guesser that
  drops its cookies gets a new id each time); over it, the whole address waits.
- ``DRAFT_RATE_LIMIT`` (default ``"10 per second;180 per minute"``): drafts a seat of a shared
  table stores, its pages' and the host's together, sent on a stream or as the PUT. A page
  sends a draft 300 ms after its last tap and the next only once that one is answered: one
  tapping a new cell every 300 ms sent 2.9 a second, taps closer together one draft for
  them all; a kingdom is 16 cards, and a person paints about one a second.
- ``RATELIMIT_STORAGE_URI`` (default: ``REDIS_URL`` if set, else ``memory://``, per process); a
  ``redis://`` URL shares the counts between processes and hosts, which any
  setup of more than one process needs: with memory storage each gunicorn
  worker counts alone, so 4 workers let a client through 4 times the limit.
  While Redis cannot be reached, each process counts alone (Flask-Limiter's
  in-memory fallback, ``RATELIMIT_IN_MEMORY_FALLBACK_ENABLED``) rather than
  answering 500, and allows its share of each limit only (:func:`share`):
  the limit divided by ``RATE_LIMIT_PROCESSES``, the processes that count
  (every worker of every app and stream server; default 1), at least one. It
  goes back to Redis when Redis answers again (Flask-Limiter asks after 1, 2,
  4 … 32 s). Redis is asked with
  a 1-second timeout (``RATELIMIT_STORAGE_OPTIONS``), so a hung Redis slows a
  request by a second at most, and the keys start with ``scorekeeper``
  (``RATELIMIT_KEY_PREFIX``), so one Redis can serve other apps too.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, g, render_template
from flask_babel import gettext, ngettext
from flask_wtf.csrf import CSRFError
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter, RateLimiter
from redis import RedisError
from werkzeug.middleware.proxy_fix import ProxyFix

from .extensions import limiter, talisman

CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "worker-src": "'self'",  # the service worker, /sw.js (web/offline)
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def _configured(setting: str) -> Callable[[], str]:
    """A rate limit read from the app's config when a request is counted (Flask-Limiter calls it):
    this process's :func:`share` of it while the shared store cannot be reached."""

    def limit() -> str:
        configured: str = current_app.config[setting]
        if limiter.limiter.storage is limiter.storage:  # Flask-Limiter's store, not its fallback
            return configured
        return share(configured, int(current_app.config["RATE_LIMIT_PROCESSES"]))

    return limit


def share(limit: str, processes: int) -> str:
    """One process's share of *limit* (``"10 per minute;60 per hour"``) while *processes*
    count it each alone: each amount divided by *processes*, rounded down, at least 1
    (``"1 per 1 minute;4 per 1 hour"`` for 16). Together they allow the limit, or one
    each where there are more processes than it allows."""
    return ";".join(
        f"{max(1, item.amount // max(1, processes))} per {item.multiples} {item.GRANULARITY.name}"
        for item in parse_many(limit)
    )


#: A process's own counts while the shared store cannot be reached (:func:`reached`, :func:`count`),
#: and until when it is not asked again (time.monotonic()).
_alone = FixedWindowRateLimiter(MemoryStorage())
_store_lost_until = 0.0
#: Seconds a process counts alone after the shared store failed it, before it asks again.
STORE_RETRY = 5.0


def reached(setting: str, scope: str, key: str) -> bool:
    """Whether what the limit of config *setting* bounds has been done as often as it allows
    for *key* in *scope* (counted by :func:`count`). For what no view's limit counts (a stream's
    events, or only what succeeds): in Flask-Limiter's store as the views' limits are, or
    while it cannot be reached, in this process's memory, with its :func:`share`."""
    return not _counted(setting, scope, key, hit=False)


def count(setting: str, scope: str, key: str) -> None:
    """Count one of what the limit of config *setting* bounds for *key* in *scope* (see :func:`reached`)."""
    _counted(setting, scope, key, hit=True)


def _counted(setting: str, scope: str, key: str, hit: bool) -> bool:
    global _store_lost_until
    if not current_app.config["RATELIMIT_ENABLED"]:
        return True
    identity = (current_app.config["RATELIMIT_KEY_PREFIX"], key, scope)
    configured: str = current_app.config[setting]
    strategy = limiter.limiter
    if strategy.storage is limiter.storage and time.monotonic() >= _store_lost_until:
        try:
            return _ask(strategy, parse_many(configured), identity, hit)
        except (RedisError, OSError) as error:
            _store_lost_until = time.monotonic() + STORE_RETRY
            logging.getLogger(__name__).warning("rate limits counted per process: %s", error)
    items = parse_many(share(configured, int(current_app.config["RATE_LIMIT_PROCESSES"])))
    return _ask(_alone, items, identity, hit)


def _ask(strategy: RateLimiter, items: list[RateLimitItem], identity: tuple[str, ...], hit: bool) -> bool:
    if hit:
        return all([strategy.hit(item, *identity) for item in items])  # every window counts it
    return all(strategy.test(item, *identity) for item in items)


#: Requests that write a saved game.
save_rate_limit = _configured("SAVE_RATE_LIMIT")
#: PDF downloads (each takes the server about half a second).
pdf_rate_limit = _configured("PDF_RATE_LIMIT")
#: Result pictures (each new one takes the server about 30 ms).
picture_rate_limit = _configured("PICTURE_RATE_LIMIT")
#: Shared tables started.
table_rate_limit = _configured("TABLE_RATE_LIMIT")
#: Seats taken at shared tables.
join_rate_limit = _configured("JOIN_RATE_LIMIT")
#: Table codes that name no table (a failed login's), per phone.
wrong_code_rate_limit = _configured("WRONG_CODE_RATE_LIMIT")
#: Table codes that name no table, per client address (all its phones).
wrong_code_address_rate_limit = _configured("WRONG_CODE_ADDRESS_RATE_LIMIT")


def count_wrong_code() -> None:
    """Mark this request as one that named no table: the ``wrong-codes`` limit counts it."""
    g.wrong_code = True


def too_many_tries(limit: Any) -> str:
    """The refusal of the wrong-code limit, saying when to try again: in a
    minute, or in as many minutes as the breached window still runs (its
    hourly one: up to an hour). *limit* is Flask-Limiter's breached limit."""
    seconds = (limit.reset_at - time.time()) if limit is not None else 60
    minutes = max(1, round(seconds / 60))  # reset_at is a whole second: 61 s is "a minute"
    return ngettext(
        "Too many tries from your address in a short time. Try again in a minute.",
        "Too many tries from your address in a short time. Try again in %(num)d minutes.",
        minutes,
    )


def was_wrong_code(response: Response) -> bool:
    """``deduct_when`` of the ``wrong-codes`` limit: only requests marked by
    :func:`count_wrong_code` are counted (pages and API alike)."""
    return bool(g.get("wrong_code"))


def requests_left() -> tuple[int, Any] | None:
    """Of the rate limits counted for this request so far (each window of each, Flask-Limiter's
    ``current_limits``), how many requests the tightest still allows, and that limit (its
    ``limit.amount`` and ``limit.get_expiry()`` say how many in how long); ``None`` when none
    was counted (limits off). For a request whose cost is known only once its body is read: an
    import, one save per game of its file (:func:`count_more`)."""
    left = [
        (limiter.limiter.get_window_stats(limit.limit, *limit.request_args).remaining, limit)
        for limit in limiter.current_limits
    ]
    return min(left, key=lambda pair: pair[0]) if left else None


def count_more(cost: int) -> None:
    """Count *cost* more requests against each rate limit counted for this request (each of
    its windows), beyond the one counted when it came in: what it turned out to cost once read."""
    if cost > 0:
        for limit in limiter.current_limits:
            limiter.limiter.hit(limit.limit, *limit.request_args, cost=cost)


def init_security(app: Flask) -> None:
    """Install headers, proxy handling and rate limits on *app*."""
    app.config.setdefault("HTTPS", False)
    app.config.setdefault("SAVE_RATE_LIMIT", "30 per minute;300 per hour")
    app.config.setdefault("PDF_RATE_LIMIT", "20 per minute;200 per hour")
    app.config.setdefault("PICTURE_RATE_LIMIT", "60 per minute;600 per hour")
    app.config.setdefault("TABLE_RATE_LIMIT", "10 per minute;60 per hour")
    app.config.setdefault("JOIN_RATE_LIMIT", "20 per minute;120 per hour")
    app.config.setdefault("WRONG_CODE_RATE_LIMIT", "10 per minute;30 per hour")
    app.config.setdefault("WRONG_CODE_ADDRESS_RATE_LIMIT", "30 per minute;120 per hour")
    app.config.setdefault("DRAFT_RATE_LIMIT", "10 per second;180 per minute")
    app.config.setdefault("RATE_LIMIT_PROCESSES", 1)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {"socket_timeout": 1, "socket_connect_timeout": 1})
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "scorekeeper")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("RATELIMIT_ENABLED", True)  # explicit: the limiter keeps the last app's choice
    https = bool(app.config["HTTPS"])
    app.config["SESSION_COOKIE_SECURE"] = https

    hops = {key: int(app.config.get(f"PROXY_FIX_X_{key.upper()}", 0)) for key in ("for", "proto", "host", "prefix")}
    if any(hops.values()):
        # Flask's documented way to wrap the WSGI app; its types call wsgi_app a method
        app.wsgi_app = ProxyFix(app.wsgi_app, **{f"x_{key}": value for key, value in hops.items()})  # type: ignore[method-assign]

    talisman.init_app(
        app,
        force_https=https,
        strict_transport_security=https,
        session_cookie_secure=https,
        content_security_policy=CONTENT_SECURITY_POLICY,
        frame_options="DENY",
        # No page sends a Referer, even to this site's static files: an address may
        # hold a secret (older private links), and nothing here reads the header.
        referrer_policy="no-referrer",
        permissions_policy={"camera": "()", "microphone": "()", "geolocation": "()", "browsing-topics": "()"},
    )
    limiter.init_app(app)


def expired_form_page(error: CSRFError):
    """The error page for a form posted without a valid CSRF token, where the
    view has no form of its own to show again (nothing was changed)."""
    error.description = gettext(
        "This form had expired, or your browser did not send its cookie. "
        "Go back, reload the page and try again; nothing was changed."
    )
    return render_template("errors/error.html", error=error), 400
