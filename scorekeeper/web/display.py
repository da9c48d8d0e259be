"""How the sheet draws cards and links: a symbol per card type, QR codes.

Symbols make grids readable in black-and-white print and without colour
(each card also shows its two-letter code). All are in DejaVu Sans.
"""

from __future__ import annotations

import segno
from markupsafe import Markup

from ..engine import Card

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


def qr_svg(url: str) -> Markup:
    """An inline SVG QR code of *url* (segno), safe to place in a template."""
    return Markup(segno.make(url, error="m").svg_inline(scale=2, border=2, omitsize=True))
