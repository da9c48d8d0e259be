"""A whole game packed into a short URL-safe token, so a score sheet needs no database.

A token is a version character and base64url without padding:

- ``2`` (written since November 2026): packed bytes, about 80 characters for
  four players with short names, so the link's QR code stays small, then
  three bytes of their CRC-32, so that a mistyped or cut link is refused as
  damaged instead of opening another game.
  One byte ``ruleset × 16 + date flag × 8 + number of players``; if the date
  flag is set, two bytes of days since 2000-01-01; then per player seven
  bytes holding the 16 cards as one base-10 number (cell 0 the highest digit,
  each digit an index into :class:`Card`), one byte of Legend count and one
  byte per Legend (its index in ``LEGENDS``, in the player's order), one byte
  of name length and the name in UTF-8.
- ``1`` (older links, still read): zlib-compressed JSON
  ``[ruleset id, [[name, 16 card letters a–j, [legend numbers]], ...], date]``.

Card, Legend and ruleset indexes point into the engine's tuples, which only
ever grow at the end. A token decodes to a game *file* object; the engine
validates it as it validates any other input.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from datetime import date, timedelta

from ..engine import LEGENDS, RULESETS, Card, Game, rows_of
from ..store.games import EARLIEST_PLAYED_ON, LATEST_PLAYED_ON

VERSION = "2"
_CARDS = tuple(Card)
_RULESETS = tuple(RULESETS)  # ids, in the engine's order
_EPOCH = date(2000, 1, 1)
_KINGDOM_BYTES = 7  # 10**16 < 2**56
_MAX_TOKEN = 2048  # far above four 40-character names of 4-byte characters
_LETTERS = "abcdefghij"  # version 1
_MAX_JSON = 8 * 1024  # version 1

assert len(LEGENDS) <= 256 and len(_RULESETS) <= 16 and len(_CARDS) == 10
assert EARLIEST_PLAYED_ON == _EPOCH and (LATEST_PLAYED_ON - _EPOCH).days == 0xFFFF  # what two bytes of days hold


class DamagedLink(ValueError):
    """The token is not one this app wrote (cut short, altered, or too large)."""


def encode_game(game: Game, played_on: date | None = None) -> str:
    """The URL token for *game*, played on *played_on* (about 40–250 characters).

    :raises OverflowError: *played_on* before :data:`~scorekeeper.store.games.EARLIEST_PLAYED_ON`
        or after :data:`~scorekeeper.store.games.LATEST_PLAYED_ON` (the form refuses those first)."""
    out = bytearray()
    out.append(_RULESETS.index(game.ruleset.id) * 16 + (8 if played_on else 0) + len(game.players))
    if played_on is not None:
        out += (played_on - _EPOCH).days.to_bytes(2, "big")
    legend_numbers = {legend.id: n for n, legend in enumerate(LEGENDS)}
    for player in game.players:
        number = 0
        for card in player.kingdom.cards:
            number = number * 10 + _CARDS.index(card)
        out += number.to_bytes(_KINGDOM_BYTES, "big")
        out.append(len(player.legends))
        out += bytes(legend_numbers[legend_id] for legend_id in player.legends)
        name = player.name.encode()
        out.append(len(name))
        out += name
    out += _check(out)
    return VERSION + base64.urlsafe_b64encode(bytes(out)).decode().rstrip("=")


def _check(packed: bytes | bytearray) -> bytes:
    """Three bytes of the CRC-32 of *packed*: one mistyped link in 16 million gets through."""
    return zlib.crc32(packed).to_bytes(4, "big")[:3]


def decode_game(token: str) -> tuple[dict, date | None]:
    """The game file object packed in *token*, and the date played if known.

    Reads both token versions. Validate the game with :meth:`Game.from_dict`.

    :raises DamagedLink: if the token cannot be read.
    """
    if len(token) > _MAX_TOKEN:
        raise DamagedLink("link too long")
    version, body = token[:1], token[1:]
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True)
        if version == "2":
            return _unpack(raw)
        if version == "1":
            return _inflate(raw)
    except DamagedLink:
        raise
    except (binascii.Error, zlib.error, ValueError, TypeError, IndexError, AttributeError, RecursionError) as error:
        raise DamagedLink(f"unreadable link: {error}") from None
    raise DamagedLink("unknown link version")


def _unpack(checked: bytes) -> tuple[dict, date | None]:
    """Version 2: the packed bytes described in the module docstring."""
    raw, check = checked[:-3], checked[-3:]
    if len(checked) < 4 or _check(raw) != check:
        raise DamagedLink("the link's check bytes do not match: mistyped or cut short")
    head, at = raw[0], 1
    played_on = None
    if head & 8:
        played_on = _EPOCH + timedelta(days=int.from_bytes(raw[at : at + 2], "big"))
        at += 2
    players = []
    for _ in range(head & 7):
        number = int.from_bytes(_take(raw, at, _KINGDOM_BYTES), "big")
        at += _KINGDOM_BYTES
        legends = _take(raw, at + 1, _take(raw, at, 1)[0])
        at += 1 + len(legends)
        length = _take(raw, at, 1)[0]
        name = _take(raw, at + 1, length).decode()
        at += 1 + length
        digits = f"{number:016d}"
        if len(digits) != 16:
            raise DamagedLink("a kingdom of more than 16 cards")
        players.append(
            {
                "name": name,
                "kingdom": rows_of([_CARDS[int(d)].value for d in digits]),
                "legends": [LEGENDS[n].id for n in legends],
            }
        )
    if at != len(raw):
        raise DamagedLink("something after the last player")
    return {"ruleset": _RULESETS[head >> 4], "players": players}, played_on


def _take(raw: bytes, at: int, count: int) -> bytes:
    if at + count > len(raw):
        raise DamagedLink("link cut short")
    return raw[at : at + count]


def _inflate(compressed: bytes) -> tuple[dict, date | None]:
    """Version 1: zlib-compressed JSON (links made before November 2026)."""
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
                "kingdom": rows_of([_CARDS[_LETTERS.index(letter)].value for letter in cells]),
                "legends": [LEGENDS[_index(n)].id for n in legends],
            }
            for name, cells, legends in players
        ],
    }
    return game, played_on


def _index(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError("bad legend number")
    return n
