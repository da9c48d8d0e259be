"""The sheet page's kingdoms, written in Python: grids, explanations, the
score table's cell lists and the key.

A 4-player sheet draws 64 grid cells, each with its symbol, code, points,
marks and a sentence for screen readers, 28 explanations and 28 score-table
links naming the cells behind them. Written by ``sheets/sheet.html`` itself,
they were most of a new game's first render (hundreds of small template
calls); here they are plain string building, and each grid cell's markup is
written once per language and kept, as the same card with the same points
in the same place comes back game after game.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from types import SimpleNamespace

from flask_babel import get_locale
from markupsafe import Markup, escape

from ..engine import Card, KingdomScore, PlayerResult, Row, cell_name, rows_of
from .display import CARD_SYMBOLS
from .i18n import gettext, words

#: How wide a name's longest word may be to stand upright in a player's column of the score
#: table at 320 px, in ems of its type (by the number of players; the columns of the
#: widest language, German, measured in Chromium: ``tests/browser/test_phone_screen.py``).
#: Two players always stand upright (their columns are wide).
UPRIGHT_EMS = {3: 4.0, 4: 2.6}
#: Letters far narrower or wider than the usual 0.56 em of a sans-serif type (Noto Sans, Roboto).
_NARROW, _WIDE = frozenset("fijlrtI.,;:'!|()[]- "), frozenset("mwMW@%")


def _ems(word: str) -> float:
    """*word*'s width in ems, roughly: East Asian wide and full-width letters (emoji among them) one,
    narrow letters 0.3, wide ones 0.9, other capitals 0.7, other letters 0.56."""
    return sum(
        1.0 if unicodedata.east_asian_width(letter) in "WF"
        else 0.3 if letter in _NARROW
        else 0.9 if letter in _WIDE
        else 0.7 if letter.isupper()
        else 0.56
        for letter in word
    )  # fmt: skip


def names_stand_upright(names: Sequence[str]) -> bool:
    """Whether the score table's head may write every one of *names* (a game's players, 2 to 4)
    horizontally, breaking only at spaces, on a phone of 320 px: else they stand sideways there
    (``sheet.css``). Wider screens always write them horizontally."""
    room = UPRIGHT_EMS.get(len(names))
    return room is None or all(_ems(word) <= room for name in names for word in name.split())


def signed(points: int) -> str:
    """Harmony Points as the grid shows them: ``+4``, ``0``, ``-2``."""
    return f"+{points}" if points > 0 else str(points)


def grid_cells(score: KingdomScore) -> list[SimpleNamespace]:
    """The 16 cells of a scored kingdom (0..15 row by row) with what a sheet
    marks on each: the page's grid and the PDF's alike."""
    conflict_cells = {cell for conflict in score.conflicts for cell in conflict.cells}  # tribe cards, not portals
    dragons = {dragon.cell: dragon for dragon in score.dragons}
    return [
        SimpleNamespace(
            name=cell_name(cell),  # the cell's id on the page (k0-r2c3), in every language
            index=cell,
            card=card,
            points=score.cell_points(cell),
            conflict=cell in conflict_cells,
            dragon=dragons.get(cell),
        )
        for cell, card in enumerate(score.kingdom.cards)
    ]


def grid_rows(score: KingdomScore, player: int) -> Markup:
    """The rows of a scored kingdom's grid (cells 0..15 row by row), for
    player number *player* (0-based: cell ids ``k<player>-r1c1`` …), in the
    page's language: each card with its points (R3, R5), ⚔ for a tribe card
    in a conflict (R4.2), ✓ or ✗ for a domesticated or wild Dragon (R5).
    Each row and column has a header for screen readers (cells of no size)."""
    language = str(get_locale() or "en")
    parts: list[str] = [_axis(language)]
    cells, number = grid_cells(score), str(player)
    for row, row_cells in enumerate(rows_of(cells)):
        parts.append(_row_head(language, row))
        for cell in row_cells:
            tamed = cell.dragon.is_domesticated if cell.dragon else None
            head, tail = _cell(language, cell.index, cell.card, cell.points, cell.conflict, tamed)
            parts += (head, number, tail)
        parts.append("</tr>\n")
    return Markup("".join(parts))


@functools.lru_cache(maxsize=8)
def _axis(language: str) -> str:
    labels = [escape(gettext("column %(column)d", column=column)) for column in range(1, 5)]
    headers = "".join([f'<th scope="col"><span class="visually-hidden">{label}</span></th>' for label in labels])
    return f'<tr class="axis"><td></td>{headers}</tr>\n'


@functools.lru_cache(maxsize=16)
def _row_head(language: str, row: int) -> str:
    label = escape(gettext("row %(row)d", row=row + 1))
    return f'<tr><th scope="row"><span class="visually-hidden">{label}</span></th>\n'


@functools.lru_cache(maxsize=4096)
def _cell(
    language: str, cell: int, card: Card, points: int | None, conflict: bool, tamed: bool | None
) -> tuple[str, str]:
    """One grid cell's ``<td>`` in *language* (the request's: its words are read
    from it), in two parts: before and after the player number in its id."""
    writer = words()
    classes = f"card card-{card.value}"
    spoken = f"{escape(writer.card(card))} ({escape(writer.cell(cell))})"
    marks = signed(points) if points is not None else ""
    if conflict:
        classes += " in-conflict"
        marks += '<span class="mark"> ⚔</span>'
        spoken += ", " + escape(gettext("in conflict"))  # outside the f-string: pybabel extracts it
    if tamed is not None:
        classes += " tamed" if tamed else " wild"
        marks += f'<span class="mark"> {"✓" if tamed else "✗"}</span>'
        spoken += ", " + escape(gettext("domesticated") if tamed else gettext("wild"))
    return f'<td class="{classes}" id="k', (
        f'-{cell_name(cell)}" data-card="{card.value}">'
        f'<span class="face"><span class="sym" aria-hidden="true">{CARD_SYMBOLS[card]}</span>'
        f'<span class="code">{escape(writer.code(card))}</span></span>'
        f'<span class="pts">{marks}</span><span class="visually-hidden">{spoken}</span></td>\n'
    )


def category_rows(results: Sequence[PlayerResult]) -> Markup:
    """The score table's seven category rows (R3–R6), a column per player:
    each number links to its explanation, and names the grid cells behind it
    (``data-cells="k0-r1c1 k0-r1c2 "``), which a tap highlights."""
    writer = words()
    parts: list[str] = []
    for row in Row:
        parts.append(f'\n<tr class="category" id="row-{row.value}">\n<th scope="row">{escape(writer.row(row))}</th>\n')
        for result in results:
            k, value = result.index, result.rows[row]
            cells = "".join([f"k{k}-{cell_name(cell)} " for cell in sorted(result.score.cells_for(row))])
            parts.append(
                f'<td data-player="{k}" data-value="{value}"><a class="why" href="#explain-{k}-{row.value}"'
                f' data-cells="{cells}">{value}</a></td>'
            )
        parts.append("\n</tr>\n")
    return Markup("".join(parts))


def explanation_rows(result: PlayerResult) -> Markup:
    """Why each of the seven rows of *result* scored what it did (R3–R6), as
    the sheet's ``<div class="explain-row">`` blocks, in the page's language."""
    writer = words()
    player = result.index
    nothing, back = writer._("Nothing."), writer._("Back to the table")
    parts: list[str] = []
    for row in Row:
        lines = writer.explain(result.score, row)
        reasons = (
            "<ul>" + "".join([f"<li>{escape(line)}</li>" for line in lines]) + "</ul>"
            if lines
            else f'<p class="none">{nothing}</p>'
        )
        parts.append(
            f'\n\n<div class="explain-row" id="explain-{player}-{row.value}">\n'
            f'<h4>{escape(writer.row(row))} <span class="value">{signed(result.rows[row])}</span></h4>\n'
            f'{reasons}\n<a class="back" href="#row-{row.value}">{back}</a>\n</div>\n'
        )
    return Markup("".join(parts))


def grid_key() -> Markup:
    """The key under the grids: each card's symbol, code and name, and what the marks mean."""
    return Markup(_grid_key(str(get_locale() or "en")))


@functools.lru_cache(maxsize=8)
def _grid_key(language: str) -> str:
    writer = words()
    cards = " ".join(
        [f"{symbol} {escape(writer.code(card))} {escape(writer.card(card))} ·" for card, symbol in CARD_SYMBOLS.items()]
    )
    marks = gettext(
        "Numbers: Harmony Points the card scored; ⚔ in a conflict (dashed); ✓ domesticated Dragon (solid); "
        "✗ wild Dragon (dotted). In explanations, %(cell)s is row 2, column 3.",
        cell=escape(writer.cell(6)),
    )
    return f'<p class="grid-key">{gettext("Key:")} {cards[:-2]}. {marks}</p>'
