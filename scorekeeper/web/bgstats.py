"""A game as a play for BG Stats, the play logger most board gamers keep.

BG Stats documents a link that opens its import dialog with one play ("Push plays to BG Stats
from other apps or websites"): ``https://app.bgstatsapp.com/createPlay.html?data=<the play as
URL-encoded JSON>``. Nothing leaves our server: the page shows the link, the phone opens it.

What a play holds here (every number from the score sheet, R7):

- ``sourceName`` "scorekeeper" and ``sourcePlayId``: the saved game's public id, or for a sheet
  not saved a digest of its link (the same game gives the same id), so that sending a game twice
  is recognised as one play;
- ``game``: the game's name, ``sourceGameId`` naming the game (BG Stats remembers which of its
  games a source's game is by this pair, so it is the same for every play: an id per play would
  ask for the match at every send), ``bggId`` when the server sets ``BGG_ID`` (else BG Stats
  matches by name), ``highestWins`` and points;
- ``playDate``: the day played, at midnight (the app keeps the day, not the hour);
- ``players``: in the sheet's order, each name, total (Harmony Points), place (shared places
  shared, R7.4) as ``rank``, ``winner`` for everyone in place 1, and the roster player's id as
  ``sourcePlayerId`` for a game saved in a group (the group's public id and the player's number:
  the same person in every game of the group);
- ``board``: the ruleset's name in the page's language; ``location`` when the game has one.

The link is kept under :data:`MAX_LENGTH` characters: four players of 40 characters in any
script, a location of 100, fit with room (``tests/web/test_bgstats.py``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import date
from urllib.parse import quote

from ..engine import ScoreSheet

#: The import dialog's address (its ``bgstats://`` twin opens the app directly, but only where
#: it is installed; the https one also tells a phone without it what BG Stats is).
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "scorekeeper"
GAME_NAME = "DRAKO: Aetherya Pocket"
#: This game in our plays, for BG Stats to remember its match by.
SOURCE_GAME_ID = "drako-aetherya-pocket"
#: RFC 9110 asks every client and server to take request targets of at least 8,000 octets; the
#: longest play (four 40-character names and a 100-character location in a four-byte script, 12
#: characters each once encoded) is about 4,100, so 8,000 holds in every browser and link handler.
MAX_LENGTH = 8000


def play(
    scored: ScoreSheet,
    played_on: date | None,
    *,
    play_id: str,
    board: str,
    player_ids: Sequence[str | None] | None = None,
    location: str = "",
    bgg_id: int | None = None,
) -> dict:
    """*scored* as BG Stats' play (the JSON object its link carries).

    :param play_id: the play's id in this app (``sourcePlayId``).
    :param board: the ruleset's name, as the page shows it.
    :param player_ids: per player, in the sheet's input order, the roster player's id or ``None``.
    :param bgg_id: the game's BoardGameGeek id, if the server knows it.
    """
    game: dict[str, object] = {
        "name": GAME_NAME,
        "sourceGameId": SOURCE_GAME_ID,
        "highestWins": True,
        "noPoints": False,
    }
    if bgg_id:
        game["bggId"] = bgg_id
    players = []
    for result in scored.results:
        player: dict[str, object] = {
            "name": result.player.name,
            "score": result.total,
            "rank": result.place,
            "winner": result.place == 1,
        }
        if player_ids is not None and player_ids[result.index]:
            player["sourcePlayerId"] = player_ids[result.index]
        players.append(player)
    data: dict[str, object] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id,
        "game": game,
        "playDate": f"{(played_on or date.today()).isoformat()} 00:00:00",
        "players": players,
        "board": board,
    }
    if location:
        data["location"] = location
    return data


def play_link(data: dict) -> str:
    """The link that opens BG Stats' import of *data* (:func:`play`): compact JSON, in UTF-8,
    URL-encoded (every name in its own script, 3 characters a byte)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(text, safe='')}"


def sheet_play_id(share_link: str) -> str:
    """A play id for a sheet not saved: the same link (the same game and day) gives the same id."""
    return "sheet-" + hashlib.sha256(share_link.encode()).hexdigest()[:24]
