"""A finished game: its players, the score sheet, places and tiebreaks (RULES.md R1, R6–R9).

The game file format is the ``game`` object of the worked cases::

    {"ruleset": "pocket",            # optional, default "pocket" (R9)
     "players": [{"name": "Ada",
                  "kingdom": [["forest", "elves", ...], ...],   # 4 × 4 card ids
                  "legends": ["tribes-elves", ...]}, ...]}       # optional, default []
"""

# Annotations are not postponed (no `from __future__ import annotations`): typing.NamedTuple
# compiles every field annotation given as a string (in all, most of a millisecond on import).

import sys
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any, ClassVar, Final, NamedTuple

from .cards import Card
from .errors import (
    DuplicateLegend,
    GameError,
    GameErrors,
    InvalidGame,
    InvalidPlayerName,
    PlayerCountError,
    UnknownLegend,
)
from .kingdom import Kingdom, Who, kingdom_errors
from .legends import LEGENDS_BY_ID
from .names import name_key
from .rulesets import DEFAULT_RULESET, Ruleset, get_ruleset
from .scoring import KingdomScore, Row, score_kingdom

MIN_PLAYERS = 2
MAX_PLAYERS = 4
MAX_NAME_LENGTH = 40


class Player(NamedTuple):
    """One player as entered: name (trimmed), 4 × 4 kingdom, claimed Legend ids."""

    name: str
    kingdom: Kingdom
    legends: tuple[str, ...] = ()


class Game(NamedTuple):
    """A finished game of 2–4 players under one ruleset (R8, R9)."""

    players: tuple[Player, ...]
    ruleset: Ruleset = DEFAULT_RULESET

    @classmethod
    def from_dict(cls, data: object, *, error_limit: int | None = None) -> "Game":
        """Read a game in the game file format (see module docstring).

        Checks everything R8 refuses and reports all of it at once.

        :param error_limit: keep at most this many problems and only count the
            rest (:attr:`GameErrors.more`): a list of 100,000 unknown Legend ids
            is checked in a tenth of a second instead of seconds.
        :raises GameErrors: carrying one :class:`GameError` per problem
            (player count, names, kingdom shape, cards, Legends, ruleset).
        """
        errors: list[GameError] = []
        more = 0  # problems past error_limit: counted, not built
        most_kept = sys.maxsize if error_limit is None else error_limit

        if not isinstance(data, dict):
            raise GameErrors([InvalidGame("game-not-object")])
        ruleset = DEFAULT_RULESET
        if "ruleset" in data and data["ruleset"] is not None:
            try:
                ruleset = get_ruleset(data["ruleset"])
            except GameError as error:
                errors.append(error)
        raw_players = data.get("players")
        if not isinstance(raw_players, list):
            if isinstance(data.get("game"), dict) and "players" in data["game"]:  # a worked case: game + expected
                errors.append(InvalidGame("players-under-game"))
            else:
                errors.append(InvalidGame("players-missing"))
            raise GameErrors(errors)
        if not MIN_PLAYERS <= len(raw_players) <= MAX_PLAYERS:
            errors.append(PlayerCountError("player-count", count=len(raw_players), least=MIN_PLAYERS, most=MAX_PLAYERS))
            raise GameErrors(errors)

        players: list[Player] = []
        seen_names: dict[str, str] = {}
        claimed_by: dict[str, tuple[int, str | None]] = {}  # Legend id → (player, name)
        for index, raw in enumerate(raw_players):
            if not isinstance(raw, dict):
                errors.append(InvalidGame("player-not-object", player=index))
                continue
            name, name_errors = _check_name(raw.get("name"), index, seen_names)
            errors.extend(name_errors)
            who: Who = {"player": index, "player_name": name or None}

            kingdom_problems = kingdom_errors(raw.get("kingdom"), **who)
            errors.extend(kingdom_problems)

            legend_ids, legend_problems, unkept = claimed_legends(
                raw.get("legends"), who, most_kept - len(errors), claimed_by
            )
            errors.extend(legend_problems)
            more += unkept
            claimed_by.update(dict.fromkeys(legend_ids, (index, name or None)))
            if not kingdom_problems and not errors and not more:
                kingdom = Kingdom.from_rows(raw["kingdom"])
                players.append(Player(name, kingdom, tuple(legend_ids)))
        if errors or more:
            if error_limit is not None and len(errors) > error_limit:  # names and cells come before the count
                more += len(errors) - error_limit
                errors = errors[:error_limit]
            raise GameErrors(errors, more)
        return cls(tuple(players), ruleset)

    def to_dict(self) -> dict[str, Any]:
        """This game in the game file format."""
        return {
            "ruleset": self.ruleset.id,
            "players": [
                {
                    "name": p.name,
                    "kingdom": [[None if card is None else card.value for card in row] for row in p.kingdom.rows],
                    "legends": list(p.legends),
                }
                for p in self.players
            ],
        }


#: Explicit direction embeddings, overrides and isolates (they reorder the sheet's text).
_DIRECTION_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def claimed_legends(
    legends: object,
    who: Who,
    most: int = sys.maxsize,
    claimed_by: Mapping[str, tuple[int, str | None]] | None = None,
) -> tuple[list[str], list[GameError], int]:
    """One player's claimed Legends as entered (R6, R8); ``None`` is none claimed.

    :param claimed_by: the Legends other players already claim (id → player
        index and name): each is refused, once a Legend may be claimed (R6.1).
    :returns: the Legend ids R8 accepts, in order, each once; one refusal per
        problem in the order listed, each problem once however often it is
        listed (``"legends-not-list"``, ``"legend-not-text"``,
        ``"legend-unknown"``, ``"legend-listed-twice"``, ``"legend-claimed"``),
        carrying *who*; and how many more problems there were past *most*
        (counted, not built).
    """
    if legends is None:  # optional in game files; null means none claimed
        return [], [], 0
    if not isinstance(legends, list):
        return [], [InvalidGame("legends-not-list", **who)], 0
    ids: list[str] = []
    errors: list[GameError] = []
    more = 0
    reported: set[object] = set()
    for legend_id in legends:
        if isinstance(legend_id, str) and legend_id in LEGENDS_BY_ID and legend_id not in ids:
            if claimed_by is None or legend_id not in claimed_by:
                ids.append(legend_id)
            elif len(errors) >= most:
                more += 1
            else:
                by_player, by_name = claimed_by[legend_id]
                errors.append(
                    DuplicateLegend("legend-claimed", legend=legend_id, by_player=by_player, by_name=by_name, **who)
                )
            continue
        key: object = legend_id if isinstance(legend_id, str) else str
        if key in reported:
            continue
        reported.add(key)
        if len(errors) >= most:
            more += 1
        elif not isinstance(legend_id, str):
            errors.append(UnknownLegend("legend-not-text", **who))
        elif legend_id not in LEGENDS_BY_ID:
            errors.append(UnknownLegend("legend-unknown", value=legend_id[:40], **who))
        else:
            errors.append(DuplicateLegend("legend-listed-twice", legend=legend_id, **who))
    return ids, errors, more


def _is_forbidden(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or ch in _DIRECTION_CONTROLS


def _is_visible(ch: str) -> bool:
    return not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Mn", "Me", "Zs", "Zl", "Zp")


def shows_a_name(text: str) -> bool:
    """Whether *text* has anything visible in it: a name of nothing but spaces
    and invisible characters (zero-width spaces) counts as empty (R8)."""
    return any(_is_visible(ch) for ch in text)


def checked_name(raw: object, others: Sequence[str] = ()) -> str:
    """A new player's name as it will be shown (NFC, trimmed), checked by R8
    against the names *others* already taken, as :meth:`Game.from_dict` checks
    a game's names (the same identity: case, Unicode form and invisible
    formatting characters do not make another name).

    :raises InvalidPlayerName: ``"name-not-text"``, ``"name-hidden-characters"``,
        ``"name-empty"``, ``"name-too-long"`` or ``"name-taken"`` (with ``other``,
        the name it equals); ``player`` is the new name's index, ``len(others)``.
    """
    seen: dict[str, str] = {}
    for index, other in enumerate(others):
        _check_name(other, index, seen)
    name, errors = _check_name(raw, len(others), seen)
    if errors:
        raise errors[0]
    return name


#: A name longer than this is refused as too long before its characters are
#: looked at one by one (a megabyte-long name would take a second to read).
_UNREAD_NAME_LENGTH = 1000


def _check_name(raw: object, index: int, seen: dict[str, str]) -> tuple[str, list[GameError]]:
    """The name as it will be shown (NFC, trimmed) and what is wrong with it (R8).

    Beyond R8's empty / too long / duplicate: a name must be text; control
    characters, unpaired surrogates and direction overrides are refused, and a
    name of nothing but invisible characters counts as empty. Names are
    compared after Unicode normalisation (NFC) and case folding, so two ways of
    typing "Zoë" are the same name, and without invisible formatting
    characters, so "Ada" and "Ada" with a zero-width space are too: the one
    name identity of :func:`.names.name_key` (any run of spaces as one, joiners
    kept only where they show).
    """
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        return "", [InvalidPlayerName("name-not-text", player=index)]
    name = unicodedata.normalize("NFC", raw).strip()
    if len(name) > _UNREAD_NAME_LENGTH:  # refused whatever it holds: not read character by character
        return "", [InvalidPlayerName("name-too-long", length=len(name), most=MAX_NAME_LENGTH, player=index)]
    if any(_is_forbidden(ch) for ch in name):
        return "", [InvalidPlayerName("name-hidden-characters", player=index)]
    if not shows_a_name(name):
        return name, [InvalidPlayerName("name-empty", player=index)]
    if len(name) > MAX_NAME_LENGTH:
        return name, [
            InvalidPlayerName(
                "name-too-long",
                length=len(name),
                most=MAX_NAME_LENGTH,
                player=index,
                player_name=name[:MAX_NAME_LENGTH] + "…",
            )
        ]
    key = name_key(name)
    if key in seen:
        return name, [InvalidPlayerName("name-taken", other=seen[key], player=index, player_name=name)]
    seen[key] = name
    return name, []


class Tiebreak(NamedTuple):
    """How R7.3 separated two players with equal totals (R7.5).

    :ivar ahead: index (input order) of the player placed higher.
    :ivar behind: index of the player placed lower.
    :ivar total: their equal total, in Harmony Points.
    :ivar position: 1-based position of the sorted row lists that decided.
    :ivar values: the two values at that position, ahead's first.

    Its sentence (message id ``"tiebreak"``) names the position as the
    sorted one ("the second-highest row"), never "row 2", which reads as the
    sheet's second row (Dwarves).
    """

    ahead: int
    behind: int
    total: int
    position: int
    values: tuple[int, int]

    @property
    def message_id(self) -> str:
        return "tiebreak"


class _Value:
    """A plain class whose value is its fields (:attr:`_names`): equal when
    they are, written out as a dataclass would be."""

    _names: ClassVar[tuple[str, ...]] = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._names)

    def __eq__(self, other: object) -> bool:
        return self._fields() == other._fields() if type(other) is type(self) else NotImplemented

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(self._names, self._fields(), strict=True))
        return f"{type(self).__name__}({fields})"


class DeckWarning(_Value):
    """More copies of a card type entered than the deck holds (R1): a warning, not a refusal.

    :ivar card: the card type.
    :ivar count: copies entered across all kingdoms.
    :ivar deck: copies in the deck for this player count (2 × players).
    :ivar players: how many players the game has.

    A plain class, not a named tuple: a tuple already has a ``count``.
    """

    message_id: ClassVar[str] = "deck-warning"
    _names = ("card", "count", "deck", "players")

    def __init__(self, card: Card, count: int, deck: int, players: int) -> None:
        self.card: Final = card
        self.count: Final = count
        self.deck: Final = deck
        self.players: Final = players

    def __hash__(self) -> int:
        return hash(self._fields())


class PlayerResult(_Value):
    """One player's column of the score sheet.

    :ivar index: the player's position in input order (0-based).
    :ivar player: the player as entered.
    :ivar score: the player's kingdom scored.
    :ivar place: competition-ranking place, 1 = winner (R7.2, R7.4).

    A plain class, not a named tuple: a tuple already has an ``index``.
    """

    _names = ("index", "player", "score", "place")

    def __init__(self, index: int, player: Player, score: KingdomScore, place: int) -> None:
        self.index: Final = index
        self.player: Final = player
        self.score: Final = score
        self.place: Final = place

    @property
    def total(self) -> int:
        return self.score.total

    @property
    def rows(self) -> dict[Row, int]:
        return self.score.rows

    @property
    def tiebreak_key(self) -> list[int]:
        """The seven row values, highest first (R7.3)."""
        return sorted(self.score.rows.values(), reverse=True)


class ScoreSheet(NamedTuple):
    """The scored game: per player rows, total and place, with tiebreaks and warnings.

    :ivar results: one :class:`PlayerResult` per player, in input order.
    :ivar tiebreaks: every place decided by R7.3, best place first (R7.5).
    :ivar shared: groups of player indices still equal after R7.3 (R7.4);
        each one sentence, message id ``"shared-place"``.
    :ivar warnings: deck-count warnings (R1).
    """

    game: Game
    results: tuple[PlayerResult, ...]
    tiebreaks: tuple[Tiebreak, ...] = ()
    shared: tuple[tuple[int, ...], ...] = ()
    warnings: tuple[DeckWarning, ...] = ()

    @property
    def winners(self) -> tuple[PlayerResult, ...]:
        """Everyone in place 1: all of them share the win (R7.4)."""
        return tuple(r for r in self.results if r.place == 1)

    @property
    def ranked(self) -> tuple[PlayerResult, ...]:
        """Results by place, then input order."""
        return tuple(sorted(self.results, key=lambda r: (r.place, r.index)))

    def to_dict(self) -> dict[str, Any]:
        """The numbers of the CLI/API JSON shape: ruleset, and per player (input
        order) name, categories, total, place; then the winners' names.
        Sentences (explanations, tiebreak notes, warnings) are words, added by
        ``scorekeeper.words``."""
        return {
            "ruleset": self.game.ruleset.id,
            "players": [
                {
                    "name": r.player.name,
                    "categories": {row.value: value for row, value in r.rows.items()},
                    "total": r.total,
                    "place": r.place,
                }
                for r in self.results
            ],
            "winners": [r.player.name for r in self.winners],
        }


def score_game(game: Game) -> ScoreSheet:
    """Score every kingdom, then place the players (R3–R7).

    :returns: the :class:`ScoreSheet`, results in input order.
    """
    scores = [score_kingdom(p.kingdom, game.ruleset, p.legends) for p in game.players]
    keys = [(s.total, sorted(s.rows.values(), reverse=True)) for s in scores]
    # R7.2–R7.4: place = 1 + number of players strictly ahead (competition ranking).
    places = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    results = tuple(
        PlayerResult(i, p, s, place) for i, (p, s, place) in enumerate(zip(game.players, scores, places, strict=True))
    )
    order = sorted(range(len(results)), key=lambda i: (places[i], i))
    tiebreaks, shared, group = [], [], [order[0]]
    for prev, cur in pairwise(order):
        if keys[prev][0] != keys[cur][0]:
            group = [cur]
            continue
        if keys[prev] == keys[cur]:
            group.append(cur)
            if len(group) == 2:
                shared.append(group)
            continue
        group = [cur]
        ahead, behind = keys[prev][1], keys[cur][1]
        position = next(i for i, (a, b) in enumerate(zip(ahead, behind, strict=True)) if a != b)
        values = (ahead[position], behind[position])
        tiebreaks.append(Tiebreak(prev, cur, keys[prev][0], position + 1, values))
    return ScoreSheet(
        game,
        results,
        tuple(tiebreaks),
        tuple(tuple(g) for g in shared),
        deck_warnings(game),
    )


def deck_warnings(game: Game) -> tuple[DeckWarning, ...]:
    """Card types entered more often than a deck for this many players holds (R1).

    The deck is taken as ``2 × players`` copies of each type; an inference, so
    only a warning.
    """
    return cards_over_deck([player.kingdom.cards for player in game.players])


def cards_over_deck(kingdoms: Sequence[Sequence[Card | None]]) -> tuple[DeckWarning, ...]:
    """:func:`deck_warnings` of kingdoms as far as they are entered (``None``:
    a cell without a card yet), one sequence of up to 16 cells per player: a
    count over the deck only grows as more cards are entered, so it is worth
    saying before the game is complete (a shared table's kingdoms, R1)."""
    players = len(kingdoms)
    deck = 2 * players
    counts = Counter(card for cells in kingdoms for card in cells if card is not None)
    return tuple(DeckWarning(card, counts[card], deck, players) for card in Card if counts[card] > deck)


def score_game_dict(data: object) -> ScoreSheet:
    """Read a game file object and score it.

    :raises GameErrors: for any input R8 refuses.
    """
    return score_game(Game.from_dict(data))
