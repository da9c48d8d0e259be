"""Domain errors: input the scorer refuses (RULES.md R8).

Every error is a :class:`ValueError` carrying where it applies: the player's
index (0-based, input order) and name when known, and for cells the row and
column (1-based, as players count them). What is wrong is a message id
(``"player-count"``) with its parameters (``count=1``), not a sentence: the
engine has no words. ``scorekeeper.words`` writes them in a language (the
command line and the JSON API in English, the pages in the reader's);
``str(error)`` is only the id and parameters, for logs.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base class of every refused input.

    :param message_id: what is wrong, as a message id (``"card-unknown"``).
    :param player: 0-based index of the player concerned, or ``None``.
    :param player_name: the name as entered, when there is one.
    :param row: 1-based row (1..4) of the cell concerned, or ``None``.
    :param column: 1-based column (1..4) of the cell concerned, or ``None``.
    :param game: 1-based number of the game in a history being imported, or ``None``.
    :param params: what the message needs: counts, the value refused (text,
        at most 40 characters), a Legend id, another player's index and name…
    """

    def __init__(
        self,
        message_id: str,
        *,
        player: int | None = None,
        player_name: str | None = None,
        row: int | None = None,
        column: int | None = None,
        game: int | None = None,
        **params: object,
    ) -> None:
        self.message_id = message_id
        self.params = params
        self.player = player
        self.player_name = player_name
        self.row = row
        self.column = column
        self.game = game
        super().__init__(message_id)

    @property
    def cell(self) -> int | None:
        """The row-major cell index 0..15 concerned, or ``None``."""
        if self.row is None or self.column is None:
            return None
        return (self.row - 1) * 4 + (self.column - 1)

    def in_game(self, number: int) -> GameError:
        """The same error, said of game *number* (1-based) of a history."""
        return type(self)(
            self.message_id,
            player=self.player,
            player_name=self.player_name,
            row=self.row,
            column=self.column,
            game=number,
            **self.params,
        )

    def __str__(self) -> str:
        fields = ("game", "player", "player_name", "row", "column")
        where = [f"{name}={getattr(self, name)!r}" for name in fields if getattr(self, name) is not None]
        params = [f"{name}={value!r}" for name, value in self.params.items()]
        return f"{self.message_id}({', '.join(where + params)})"


class InvalidGame(GameError):
    """The game as a whole is malformed (not an object, wrong types, …)."""


class UnknownRuleset(GameError):
    """The ``ruleset`` is neither ``pocket`` nor ``classic`` (R9)."""


class PlayerCountError(GameError):
    """Fewer than 2 or more than 4 players (R8)."""


class InvalidPlayerName(GameError):
    """A name empty, longer than 40 characters, or equal to another's (R8)."""


class InvalidKingdom(GameError):
    """A kingdom that is not exactly 4 × 4 (R8)."""


class UnknownCard(GameError):
    """A cell holding something other than one of the ten card ids (R1, R8)."""


class UnknownLegend(GameError):
    """A Legend id not among the fifteen of R6."""


class DuplicateLegend(GameError):
    """A Legend claimed twice in one game (R6.1)."""


class GameErrors(ValueError):
    """Every problem found in one game, so all can be shown at once.

    :ivar errors: the individual :class:`GameError` instances, in input order.
    :ivar more: how many further problems were found but not kept (a reader
        given an error limit counts past it without building them), so that
        a list of 50 can still say "and 99,950 more".
    """

    def __init__(self, errors: list[GameError], more: int = 0) -> None:
        self.errors = tuple(errors)
        self.more = more
        super().__init__()

    @property
    def count(self) -> int:
        """How many problems were found: those kept and those only counted."""
        return len(self.errors) + self.more

    def __str__(self) -> str:  # for logs: written when asked for, and at most 50 of them
        shown = "; ".join(str(error) for error in self.errors[:50])
        hidden = self.count - min(len(self.errors), 50)
        return f"{shown}; … {hidden} more" if hidden else shown
