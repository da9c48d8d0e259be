"""Domain errors: input the scorer refuses (RULES.md R8).

Every error is a :class:`ValueError` carrying where it applies: the player's
index (0-based, input order) and name when known, and for cells the row and
column (1-based, as players count them). The web and CLI layers turn them into
messages; ``str(error)`` is already a full sentence naming player and cell.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base class of every refused input.

    :param message: what is wrong, without the player/cell prefix.
    :param player: 0-based index of the player concerned, or ``None``.
    :param player_name: the name as entered, when there is one.
    :param row: 1-based row (1..4) of the cell concerned, or ``None``.
    :param column: 1-based column (1..4) of the cell concerned, or ``None``.
    """

    def __init__(
        self,
        message: str,
        *,
        player: int | None = None,
        player_name: str | None = None,
        row: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.player = player
        self.player_name = player_name
        self.row = row
        self.column = column
        super().__init__(self.describe())

    @property
    def cell(self) -> int | None:
        """The row-major cell index 0..15 concerned, or ``None``."""
        if self.row is None or self.column is None:
            return None
        return (self.row - 1) * 4 + (self.column - 1)

    def where(self) -> str:
        """``"Ada, row 2, column 3"``: who and which cell, or ``""``."""
        parts = []
        if self.player_name:
            parts.append(self.player_name)
        elif self.player is not None:
            parts.append(f"Player {self.player + 1}")
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        return ", ".join(parts)

    def describe(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


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
    """

    def __init__(self, errors: list[GameError]) -> None:
        self.errors = tuple(errors)
        super().__init__("; ".join(self.messages()))

    def messages(self, limit: int = 50) -> list[str]:
        """One sentence per problem, at most *limit*, then how many more there were."""
        shown = [str(error) for error in self.errors[:limit]]
        if len(self.errors) > limit:
            shown.append(f"… and {len(self.errors) - limit} more problems")
        return shown
