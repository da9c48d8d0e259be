"""Rematch: "New game with the same players" opens the new-game form with the
names of a finished game, in the same order, and its ruleset.

The link is a plain GET of the form, ``/?name=Quin&name=Mads&name=Rin``
(``&ruleset=classic`` when not the default), so it works without JavaScript,
can be bookmarked and carries no game: the kingdoms start empty. Names are only
shown in the form; the engine checks them when the game is scored (R8).
"""

from __future__ import annotations

from types import SimpleNamespace

from flask import url_for
from werkzeug.datastructures import MultiDict

from ..engine import DEFAULT_RULESET, MAX_NAME_LENGTH, MAX_PLAYERS, RULESETS, Game
from ..store.games import visible_text
from .forms import GameForm


def rematch_url(game: Game) -> str:
    """The new-game form for the players of *game*, in its order, with its ruleset."""
    names = [player.name for player in game.players]
    if game.ruleset.id == DEFAULT_RULESET.id:
        return url_for("sheets.new_game", name=names)
    return url_for("sheets.new_game", name=names, ruleset=game.ruleset.id)


def asked_rematch(args: MultiDict) -> bool:
    """Whether the form's address asks for a rematch (``?name=``)."""
    return "name" in args


def rematch_form(args: MultiDict) -> GameForm:
    """The new-game form with the names of ``?name=`` (at most 4, each cut to a
    name's length plus a little, without control characters) and ``?ruleset=``;
    at least two panels; kingdoms and Legends empty."""
    names = [visible_text(name)[: MAX_NAME_LENGTH + 20] for name in args.getlist("name")[:MAX_PLAYERS]]
    ruleset = args.get("ruleset", DEFAULT_RULESET.id)
    form = GameForm(
        formdata=None,
        data={
            "ruleset": ruleset if ruleset in RULESETS else DEFAULT_RULESET.id,
            "players": [SimpleNamespace(name=name, cells=[""] * 16, legends=[]) for name in names],
        },
    )
    form.fill_to_minimum()
    return form
