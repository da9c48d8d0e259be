"""The app with three pages that do only what a line of ``http_throughput.py``
cannot do without: how fast a page *could* be with the libraries it must use.

Served by ``http_throughput.py --floors`` in place of ``scorekeeper:create_app()``
(the app's own pages are unchanged; these are added beside them, under ``/floor/``):

- ``GET /floor/csrf``: a new visitor's CSRF token and nothing else (Flask-WTF:
  the session made, the token signed, the cookie written), what the empty form
  and a sheet's save form must give each visitor. Floor of the empty form.
- ``POST /floor/form``: the posted game read by the new-game form
  (``GameForm``: WTForms binds and processes its fields, Flask-WTF checks the
  CSRF token) and checked, then 204: no scoring, no link, no page. Floor of
  the form ``POST /``.
- ``GET /floor/score/<token>``: the game of a sheet link scored and every
  number explained in sentences (the engine and ``scorekeeper/words.py``, as
  JSON, what ``POST /api/score`` answers) with a CSRF token: a sheet page
  without its markup. Floor of the new-game sheet.

Never part of the app: the bench's own module.
"""

from __future__ import annotations

import json

from flask import Blueprint, Flask
from flask_wtf.csrf import generate_csrf

from scorekeeper import create_app as create_scorekeeper
from scorekeeper.engine import score_game
from scorekeeper.web.forms import GameForm
from scorekeeper.web.i18n import words
from scorekeeper.web.sheet_page import game_from_token

floors = Blueprint("floors", __name__, url_prefix="/floor")


@floors.get("/csrf")
def csrf() -> str:
    return generate_csrf()


@floors.post("/form")
def form() -> tuple[str, int]:
    GameForm().validate()
    return "", 204


@floors.get("/score/<token>")
def score(token: str) -> str:
    game, _ = game_from_token(token)
    return json.dumps(words().sheet(score_game(game))) + generate_csrf()


def create_app() -> Flask:
    """The app of ``scorekeeper.create_app()`` with the floor pages added."""
    app = create_scorekeeper()
    app.register_blueprint(floors)
    return app
