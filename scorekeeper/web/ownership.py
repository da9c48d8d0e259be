"""Which saved games this phone may correct and delete: the edit secrets it
remembers, each in a signed cookie of its own.

The phone that saves a game (or opens its private link) gets a cookie
``edit-<public id>`` holding the game's edit secret, signed with the app's
secret key (itsdangerous), ``HttpOnly``, ``SameSite=Lax``, ``Secure`` over
HTTPS, kept 400 days (the longest browsers keep one) and sent only to that
game's addresses (``Path=/g/<public id>``): the read-only page then shows that
phone "Correct" and "Delete" with no secret in the address bar. One cookie per
game keeps each small (about 90 bytes) and lets the browser drop the oldest
when it holds too many; a new secret key makes phones forget them (the private
links still work).

The secret of a game saved from a sheet is derived from the app's secret key,
the sheet's key and the one-time ``attempt`` of the save form
(:func:`derived_secret`): the same form sent twice (a double tap, a retry after
a lost answer) finds the same secret, so the phone that saved still gets its
private link, while anyone else saving the same sheet gets the read-only game.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

from flask import current_app, request
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response

COOKIE_PREFIX = "edit-"
#: Chrome keeps a cookie at most 400 days.
MAX_AGE = 400 * 24 * 3600
_SALT = "scorekeeper.edit-secret"
_ATTEMPT = re.compile(r"[A-Za-z0-9_-]{16,64}")


def _serializer() -> URLSafeSerializer:
    key = current_app.secret_key
    assert key is not None  # create_app always sets one
    return URLSafeSerializer(key, salt=_SALT)


def _path(public_id: str) -> str:
    return f"/g/{public_id}"


def secure_cookies() -> bool:
    """Whether cookies get ``Secure``: served over HTTPS (the ``HTTPS`` setting, or this request)."""
    return bool(current_app.config.get("HTTPS")) or request.is_secure


def remember(response: Response, public_id: str, secret: str) -> None:
    """Have this phone remember *secret*, the edit secret of game *public_id*."""
    response.set_cookie(
        COOKIE_PREFIX + public_id,
        _serializer().dumps(secret),
        max_age=MAX_AGE,
        path=_path(public_id),
        httponly=True,
        samesite="Lax",
        secure=secure_cookies(),
    )


def forget(response: Response, public_id: str) -> None:
    """Drop the cookie of a deleted game."""
    response.delete_cookie(
        COOKIE_PREFIX + public_id, path=_path(public_id), httponly=True, samesite="Lax", secure=secure_cookies()
    )


def remembered_secret(public_id: str) -> str | None:
    """The edit secret of *public_id* this phone remembers (signature checked), or ``None``."""
    value = request.cookies.get(COOKIE_PREFIX + public_id)
    if not value or len(value) > 200:
        return None
    try:
        secret = _serializer().loads(value)
    except BadSignature:
        return None
    return secret if isinstance(secret, str) else None


def new_attempt() -> str:
    """A one-time ``attempt`` for a save form: 128 random bits."""
    return secrets.token_urlsafe(16)


def derived_secret(save_key: str, attempt: str | None) -> str:
    """The edit secret of a game saved from the sheet *save_key* by the form
    *attempt*: 32 URL-safe characters of an HMAC-SHA256 under the app's secret
    key, so the same form sent again finds the same secret; unguessable without
    the secret key and the form. An *attempt* that is no form's (missing, malformed)
    gives a random secret."""
    if not attempt or not _ATTEMPT.fullmatch(attempt):
        return secrets.token_urlsafe(24)
    key = current_app.secret_key
    assert key is not None
    digest = hmac.new(
        key.encode() if isinstance(key, str) else key, f"edit:{save_key}:{attempt}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]
