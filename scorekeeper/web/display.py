"""How the sheet draws cards and links: a symbol per card type, QR codes.

Symbols make grids readable in black-and-white print and without colour
(each card also shows its two-letter code). All are in DejaVu Sans.
"""

from __future__ import annotations

import functools
import io
import math
from dataclasses import dataclass

import segno
from markupsafe import Markup

from ..engine import Card, position

CARD_SYMBOLS = {
    Card.FOREST: "♣",
    Card.SWAMP: "≈",
    Card.MOUNTAIN: "▲",
    Card.PLAIN: "☀",
    Card.ELVES: "✦",
    Card.DWARVES: "⚒",
    Card.HUMANS: "☺",
    Card.GOBLINS: "☠",
    Card.DRAGON: "◆",
    Card.PORTAL: "◎",
}


def card_symbol(card: Card) -> str:
    """The symbol drawn beside *card*'s code."""
    return CARD_SYMBOLS[card]


#: Bytes of a link that a QR code holds at the most (version 40, error correction level M, byte mode).
QR_CAPACITY = 2331

#: The light margin of every QR code, in modules: the "quiet zone" of at least 4 that
#: the QR standard (ISO/IEC 18004) asks for, drawn in the image itself (white, not
#: transparent) so that the code keeps it on a dark page, whatever the CSS around it.
QR_QUIET_ZONE = 4


def qr_fits(url: str) -> bool:
    """Whether *url* fits in one QR code (a link longer than that is shown as text only)."""
    return len(url.encode()) <= QR_CAPACITY


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> Markup:
    """An inline SVG QR code of *url* (segno), safe to place in a template (the PDF),
    black on white with its quiet zone (:data:`QR_QUIET_ZONE`).

    :raises segno.DataOverflowError: if *url* does not fit (check :func:`qr_fits`)."""
    return Markup(
        segno.make(url, error="m").svg_inline(scale=2, border=QR_QUIET_ZONE, omitsize=True, dark="#000", light="#fff")
    )


@functools.lru_cache(maxsize=256)
def qr_svg_file(url: str) -> bytes:
    """A QR code of *url* as a standalone SVG file (``image/svg+xml``), for the
    pages' ``<img>``: its own cacheable URL keeps the encoding (several
    milliseconds) off the page's first render. Black on white with its quiet
    zone (:data:`QR_QUIET_ZONE`): no padding in the CSS is needed for it.

    :raises segno.DataOverflowError: if *url* does not fit (check :func:`qr_fits`)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=4, border=QR_QUIET_ZONE, xmldecl=False, dark="#000", light="#fff"
    )
    return out.getvalue()


@dataclass(frozen=True)
class Chart:
    """A line chart laid out for inline SVG: coordinates in a width × height box (CSS px)."""

    width: int
    height: int
    points: list[tuple[float, float, float, str]]  # x, y, value, label
    y_ticks: list[tuple[float, int]]  # y, value
    zero_y: float | None


def totals_chart(values: list[float], labels: list[str], width: int = 360, height: int = 180) -> Chart:
    """Where each of *values* (Harmony Points: totals, or averages of totals)
    goes in the chart (left to right, higher is up)."""
    left, right, top, bottom = 34, 10, 10, 24
    low, high = math.floor(min([0, *values])), math.ceil(max([0, *values]))
    if low == high:
        high = low + 1
    step = max(1, round((high - low) / 4))
    ticks = list(range((low // step) * step, high + step, step))
    low, high = ticks[0], ticks[-1]

    def y(value: float) -> float:
        return round(top + (high - value) * (height - top - bottom) / (high - low), 1)

    span = max(1, len(values) - 1)
    points = [
        (round(left + i * (width - left - right) / span, 1), y(v), v, label)
        for i, (v, label) in enumerate(zip(values, labels, strict=True))
    ]
    if len(values) == 1:
        points = [((left + width - right) / 2, points[0][1], values[0], labels[0])]
    return Chart(width, height, points, [(y(t), t) for t in ticks], y(0) if low < 0 < high else None)


@dataclass(frozen=True)
class Sparkline:
    """A small line without axes, laid out for inline SVG in a width × height box (CSS px).

    :ivar points: the polyline's ``"x,y x,y …"``; :ivar last: where the latest point is;
    :ivar zero_y: the height of the value 0 (``None`` when 0 is off the scale).
    """

    width: int
    height: int
    points: str
    last: tuple[float, float]
    zero_y: float | None


def sparklines(paths: list[list[float]], width: int = 44, height: int = 24) -> list[Sparkline]:
    """A sparkline of each of *paths* (a player's ratings after their latest
    games, oldest first: a standing's path), all on one scale with 0 in it, so
    the lines of two players compare; the latest value at the right edge, a
    shorter path ending there too."""
    pad = 3
    values = [v for path in paths for v in path]
    low, high = min([0.0, *values]), max([0.0, *values])
    if high - low < 1:
        high = low + 1

    def y(value: float) -> float:
        return round(pad + (high - value) * (height - 2 * pad) / (high - low), 1)

    longest = max((len(path) for path in paths), default=1)
    step = (width - 2 * pad) / max(1, longest - 1)
    lines = []
    for path in paths:
        start = width - pad - step * (len(path) - 1)
        xy = [(round(start + i * step, 1), y(v)) for i, v in enumerate(path)]
        lines.append(Sparkline(width, height, " ".join(f"{x},{y_}" for x, y_ in xy), xy[-1], y(0)))
    return lines


def conflict_path(first: int, second: int) -> str:
    """An SVG path (viewBox ``0 0 4 4``, one unit a cell) linking two cells in
    conflict along the gaps between cards, never across a card's symbol, code
    or points: along the shared edge of neighbours, else from the corner of
    *first* nearest *second* along the gaps to the corner of *second* nearest
    *first* (cells through a portal, R2)."""
    (row_a, col_a), (row_b, col_b) = position(first), position(second)
    if row_a == row_b and abs(col_a - col_b) == 1:
        x = max(col_a, col_b)
        return f"M{x} {row_a + 0.2}V{row_a + 0.8}"
    if col_a == col_b and abs(row_a - row_b) == 1:
        y = max(row_a, row_b)
        return f"M{col_a + 0.2} {y}H{col_a + 0.8}"

    def corner(row: int, col: int, other_row: int, other_col: int) -> tuple[int, int]:
        x = col + 1 if other_col > col or (other_col == col and col < 3) else col
        y = row + 1 if other_row > row or (other_row == row and row < 3) else row
        return x, y

    xa, ya = corner(row_a, col_a, row_b, col_b)
    xb, yb = corner(row_b, col_b, row_a, col_a)
    return f"M{xa} {ya}H{xb}V{yb}"
