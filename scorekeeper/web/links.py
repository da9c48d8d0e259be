"""A whole game packed into a short URL-safe token, so a score sheet needs no database.

The token is versioned: ``1`` + base64url(zlib(JSON)), where the JSON is
``[ruleset id, [[name, 16 card letters, [legend numbers]], ...], date played]``
(the date, ISO ``YYYY-MM-DD``, may be absent). Card
letters and legend numbers index the engine's tuples, which only ever grow at
the end. A token decodes to a game *file* object; the engine validates it as
it validates any other input.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from datetime import date

from ..engine import LEGENDS, Card, Game

VERSION = "1"
_CARDS = tuple(Card)
_LETTERS = "abcdefghij"
_MAX_JSON = 8 * 1024  # far above a 4-player game with 40-character names


class DamagedLink(ValueError):
    """The token is not one this app wrote (cut short, altered, or too large)."""


def encode_game(game: Game, played_on: date | None = None) -> str:
    """The URL token for *game*, played on *played_on* (about 100–250 characters)."""
    legend_numbers = {legend.id: n for n, legend in enumerate(LEGENDS)}
    packed = [
        game.ruleset.id,
        [
            [
                player.name,
                "".join(_LETTERS[_CARDS.index(card)] for card in player.kingdom.cards),
                [legend_numbers[legend_id] for legend_id in player.legends],
            ]
            for player in game.players
        ],
    ]
    if played_on is not None:
        packed.append(played_on.isoformat())
    raw = json.dumps(packed, separators=(",", ":"), ensure_ascii=False).encode()
    return VERSION + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def decode_game(token: str) -> tuple[dict, date | None]:
    """The game file object packed in *token*, and the date played if known.

    Validate the game with :meth:`Game.from_dict`.

    :raises DamagedLink: if the token cannot be read.
    """
    if not token.startswith(VERSION):
        raise DamagedLink("unknown link version")
    body = token[len(VERSION) :]
    try:
        compressed = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(compressed, _MAX_JSON)
        if inflater.unconsumed_tail or inflater.unused_data or not inflater.eof:
            raise DamagedLink("link too long, cut short or with something after it")
        ruleset, players, *rest = json.loads(raw)
        played_on = date.fromisoformat(rest[0]) if rest else None
        game = {
            "ruleset": ruleset,
            "players": [
                {
                    "name": name,
                    "kingdom": [
                        [_CARDS[_LETTERS.index(letter)].value for letter in cells[r * 4 : r * 4 + 4]]
                        for r in range(4)
                    ],
                    "legends": [LEGENDS[_index(n)].id for n in legends],
                }
                for name, cells, legends in players
            ],
        }
        return game, played_on
    except DamagedLink:
        raise
    except (
        binascii.Error,
        zlib.error,
        ValueError,
        TypeError,
        IndexError,
        AttributeError,
        RecursionError,
    ) as error:
        raise DamagedLink(f"unreadable link: {error}") from None


def _index(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError("bad legend number")
    return n
