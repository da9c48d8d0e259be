"""Points so far of a kingdom on the game form, rendered with the page.

The form shows under each kingdom its running rows and each card's points
(``POST /api/preview`` keeps them up to date while entering). A form that
comes back filled (after a refusal, "Edit", another language, a player added)
gets them from the server with the page, so loading it asks nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import LEGENDS_BY_ID, GameError, Kingdom, Row, Ruleset, get_ruleset, score_kingdom
from .forms import card_of_word


@dataclass(frozen=True)
class KingdomPreview:
    """The seven rows and total (Harmony Points) of a kingdom entered so far,
    and what each of its 16 cells scored (row by row; ``None`` for a blank,
    a land or a portal), as ``POST /api/preview`` answers them."""

    rows: dict[str, int]
    total: int
    points: tuple[int | None, ...]


def kingdom_preview(
    ruleset_id: str | None, words: Sequence[str | None], legends: Sequence[str] | None
) -> KingdomPreview | None:
    """Score the 16 cell *words* (ids, names or codes; blank for not entered
    yet, see :meth:`Kingdom.partial`) with the claimed *legends* under the
    ruleset *ruleset_id* (``None``: pocket), R3–R6.

    :returns: ``None`` where ``POST /api/preview`` would refuse: an unknown
        ruleset or Legend id, a word that names no card, not 16 cells.
    """
    try:
        ruleset = get_ruleset(ruleset_id or "pocket")
        cells = [card_of_word(word) if word and word.strip() else None for word in words]
    except (GameError, ValueError):
        return None
    legends = list(legends or [])
    if len(cells) != 16 or not all(legend in LEGENDS_BY_ID for legend in legends):
        return None
    return score_partial(Kingdom.partial(cells), ruleset, legends)


def score_partial(kingdom: Kingdom, ruleset: Ruleset, legends: Sequence[str]) -> KingdomPreview:
    """The rows, total and cell points of a kingdom entered so far
    (:meth:`Kingdom.partial`) with its valid Legend ids, by the engine (R3–R6)."""
    scored = score_kingdom(kingdom, ruleset, dict.fromkeys(legends))
    return KingdomPreview(
        rows={row.value: scored.rows[row] for row in Row},
        total=scored.total,
        points=tuple(scored.cell_points(cell) for cell in range(16)),
    )
