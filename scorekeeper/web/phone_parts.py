"""Each phone's own parts of a page kept for everyone, filled in one place.

Some pages are rendered once and kept: the empty form (per address, language and day) and a
sheet link's page (per link, address, language and saved game). They are the same for every
visitor but for a few parts of the phone's own. Such a page holds a marker where each part
goes, and :func:`fill` puts this phone's part in as the answer leaves (``after_request``),
searching the page's UTF-8 bytes without decoding them:

- :data:`CSRF_TOKEN`: the save form's CSRF token (Flask-WTF's, per session);
- :data:`ATTEMPT`: a save form's one-time ``attempt`` (``ownership.new_attempt``);
- :data:`GROUP_CHOICE`: the save form's choice of this phone's groups (``membership``);
- :data:`ROSTER`: the name fields' suggestions from this phone's groups (``membership``).

A page with any of them is sent ``private, no-cache`` (unless it is ``no-store`` already)
and ``Vary: Cookie``. Markers are random per process (no typed text can hold one) and
plain text, so they stand in an attribute's value as in the page's body.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from flask import Flask, Response
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from . import membership
from .ownership import new_attempt


def _marker(name: str) -> Markup:
    return Markup(f"phone-part-{name}-{secrets.token_hex(12)}")


CSRF_TOKEN = _marker("csrf")
ATTEMPT = _marker("attempt")
GROUP_CHOICE = _marker("group-choice")
ROSTER = _marker("roster")

#: Each marker, as bytes, and what puts this phone's part in its place.
_PARTS: tuple[tuple[bytes, Callable[[], str]], ...] = (
    (CSRF_TOKEN.encode(), generate_csrf),
    (ATTEMPT.encode(), new_attempt),
    (GROUP_CHOICE.encode(), membership.group_choice),
    (ROSTER.encode(), membership.roster_suggestions),
)


def fill(response: Response) -> Response:
    """Put this phone's parts into a page kept for everyone (``after_request``)."""
    if response.mimetype != "text/html" or response.direct_passthrough or response.is_streamed:
        return response
    page = response.get_data()  # UTF-8 bytes, searched and filled as they are (a page is 40 KB and more)
    filled = False
    for marker, part in _PARTS:
        if marker in page:
            page = page.replace(marker, part().encode())
            filled = True
    if not filled:
        return response
    response.set_data(page)
    if "no-store" not in response.headers.get("Cache-Control", ""):  # a page holding an edit secret stays no-store
        response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


def init_app(app: Flask) -> None:
    """Fill every page's phone parts as it leaves (before it is compressed: call after
    ``delivery.init_app``), and give templates the markers they place."""
    app.after_request(fill)
    app.jinja_env.globals.update(GROUP_CHOICE_SLOT=GROUP_CHOICE, ROSTER_SLOT=ROSTER)
