"""Export and import: saved games as JSON game files and as CSV.

JSON is the game file format (``ruleset``, ``players``) plus ``date``,
``location`` and ``notes``; a whole history is ``{"games": [...]}``. Import
takes either and validates every game with the engine before storing any.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from datetime import date
from typing import cast

from ..engine import Card, Game, GameError, GameErrors, InvalidGame, Row
from ..lookalikes import refused_lookalikes
from .db import db
from .games import Details, save_game, sheet_of
from .models import Group, SavedGame

#: Most games one import may hold (split larger histories).
MAX_IMPORT = 1000

#: Most problems an import lists; the rest are counted ("… and 99,950 more problems").
LISTED_ERRORS = 50

#: A cell starting with one of these is a formula to spreadsheet programs
#: (some read the full-width forms ＝ ＋ － ＠ as the ASCII ones).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")

#: Starts a CSV file: the UTF-8 byte-order mark, without which spreadsheets read UTF-8 as Latin-1 ("JÃ¼rgen").
BOM = "\ufeff"

#: Cell separators of the CSV exports, by the name links use (``?sep=semicolon``
#: for spreadsheets set to German and other languages that write 1,5).
SEPARATORS = {"comma": ",", "semicolon": ";"}

CSV_COLUMNS = [
    "game",
    "date",
    "ruleset",
    "location",
    "player",
    "place",
    "total",
    *[row.value for row in Row],
    "kingdom",
    "legend_ids",
    "notes",
]


def game_file(saved: SavedGame) -> dict:
    """The saved game's current entry as a game file, with its details."""
    return {
        **saved.entry,
        "date": saved.played_on.isoformat(),
        "location": saved.location,
        "notes": saved.notes,
    }


def history_file(games: Iterable[SavedGame]) -> dict:
    """Every game, as ``{"games": [game file, ...]}``."""
    return {"games": [game_file(saved) for saved in games]}


def history_json_chunks(games: Iterable[SavedGame]) -> Iterator[str]:
    """:func:`history_file` as JSON text, one game a chunk, for a streamed
    download: the games are read as they are written, never all at once."""
    yield '{"games": ['
    for number, saved in enumerate(games):
        yield ("\n" if number == 0 else ",\n") + json.dumps(game_file(saved), ensure_ascii=False)
    yield "\n]}\n"


def neutralise(value: object) -> object:
    """A CSV cell that no spreadsheet will run as a formula (text cells only)."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def games_csv(games: Iterable[SavedGame], sep: str = ",") -> str:
    """One CSV line per player per game, scores recomputed from the entries
    (starting with the byte-order mark: see :func:`csv_chunks`)."""
    return "".join(csv_chunks(games, sep))


def csv_chunks(games: Iterable[SavedGame], sep: str = ",") -> Iterator[str]:
    """The CSV export in pieces: the byte-order mark and the header, then one
    piece per game (a line per player), read from *games* as they come.

    :param sep: the cell separator, ``","`` or ``";"`` (see :data:`SEPARATORS`).
    """
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep)
    writer.writerow(CSV_COLUMNS)
    yield BOM + out.getvalue()
    for saved in games:
        out.seek(0)
        out.truncate()
        sheet = sheet_of(saved.entry)
        for result in sheet.results:
            cells = [
                saved.public_id,
                saved.played_on.isoformat(),
                saved.ruleset,
                saved.location,
                result.player.name,
                result.place,
                result.total,
                *[result.rows[row] for row in Row],
                # a saved game's kingdoms are complete: no blank (None) cells
                " ".join(card.value for card in cast("tuple[Card, ...]", result.player.kingdom.cards)),
                " ".join(result.player.legends),
                saved.notes,
            ]
            writer.writerow([neutralise(cell) for cell in cells])
        yield out.getvalue()


def games_in(data: object) -> int:
    """How many games a game file (1) or a history file (its ``games``) holds,
    before any of them is read: what an import costs against the save limit."""
    if isinstance(data, dict) and isinstance(data.get("games"), list):
        return max(1, len(data["games"]))
    return 1


def read_games(
    data: object, *, most_games: int = MAX_IMPORT, error_limit: int | None = LISTED_ERRORS
) -> list[tuple[Game, Details]]:
    """The games of a game file or history file, all validated.

    :param most_games: a history with more games is refused at once, unread.
    :param error_limit: keep at most this many problems and only count the
        rest (:attr:`GameErrors.more`), so that a file full of errors is
        checked in time proportional to its size, never rendered whole.
    :raises GameErrors: listing every problem; for a history, each error
        says which game (:attr:`GameError.game`, 1-based).
    """
    if isinstance(data, dict) and "games" in data:
        games = data["games"]
        if not isinstance(games, list) or not games:
            raise GameErrors([InvalidGame("games-not-list")])
        if len(games) > most_games:
            raise GameErrors([InvalidGame("too-many-games", most=most_games, count=len(games))])
        many = True
    else:
        games, many = [data], False
    read: list[tuple[Game, Details]] = []
    errors: list[GameError] = []
    more = 0  # problems past error_limit: counted, not kept

    def room() -> int | None:
        return None if error_limit is None else max(0, error_limit - len(errors))

    for number, item in enumerate(games, start=1):
        try:
            game = Game.from_dict(item, error_limit=room())
            lookalikes = refused_lookalikes([player.name for player in game.players])
            if lookalikes:
                raise GameErrors(lookalikes)
            read.append((game, _details(item)))
        except GameErrors as problems:
            space = room()
            kept = problems.errors if space is None else problems.errors[:space]
            errors.extend([problem.in_game(number) for problem in kept] if many else kept)
            more += problems.more + len(problems.errors) - len(kept)
        except GameError as problem:
            if room() == 0:
                more += 1
            else:
                errors.append(problem.in_game(number) if many else problem)
    if errors or more:
        raise GameErrors(errors, more)
    return read


def import_games(
    data: object, group: Group | None = None, *, most_games: int = MAX_IMPORT
) -> list[tuple[SavedGame, str]]:
    """Store every game of *data* (all or none), in *group* (``None``: outside
    every group); at most *most_games* games.

    :returns: ``(saved game, edit secret)`` per game, in file order.
    :raises GameErrors: if any game is refused (at most :data:`LISTED_ERRORS`
        kept, the rest counted); nothing is stored then.
    """
    games = read_games(data, most_games=most_games)
    stored = []
    try:
        for game, details in games:
            stored.append(save_game(game, details, group=group, commit=False))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return stored


def _details(item: dict) -> Details:
    """Date (``YYYY-MM-DD``; today when absent), location and notes of a game file."""
    raw_date = item.get("date")
    if raw_date in (None, ""):
        played_on = date.today()
    else:
        try:
            if not (isinstance(raw_date, str) and _ISO_DATE.fullmatch(raw_date)):
                raise ValueError
            played_on = date.fromisoformat(raw_date)
        except ValueError:
            raise InvalidGame("date-invalid", value=str(raw_date)[:20]) from None
    location, notes = item.get("location") or "", item.get("notes") or ""
    if not isinstance(location, str) or not isinstance(notes, str):
        raise InvalidGame("details-not-text")
    return Details.checked(played_on, location, notes)


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
