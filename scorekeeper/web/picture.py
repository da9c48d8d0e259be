"""A picture of a game's result: a PNG for chats and link previews (issue 26).

1200 × 630 pixels (the size link previews show best): the game, its ruleset
and date, who won, then a panel per player by place (R7) with place, total
Harmony Points, name and the kingdom small (4 × 4 cards, coloured as on the
sheet), in the language of the :class:`Words` given. Drawn with Pillow.

Names may be in any script. Text is cut into runs, each drawn with one font
(:func:`font_for`): first Noto's font for the character's Unicode script
(:func:`script_font`: ``NotoSans<Script>``, Devanagari, Bengali, Tamil, Hebrew,
Arabic, Thai, Ethiopic and every other script Debian's fonts-noto-core has a
font for, as fontconfig's fallback finds them for the PDF), else the first font
of :data:`FONT_CHAIN` that has it (read from each font's ``cmap`` with
fontTools): Noto Sans (Latin, Greek, Cyrillic), DejaVu Sans (the cards'
symbols), Noto Sans CJK (Chinese, Japanese, Korean; fonts-noto-cjk), Noto Color
Emoji (fonts-noto-color-emoji), then Noto's symbol fonts. Pillow's raqm layout
(HarfBuzz, FriBiDi: the shaping engine Pango uses for the PDF) shapes each run
(Arabic joins, Devanagari's conjuncts and vowel signs, Thai's marks) and writes
its letters in its direction. The runs' order is the page's: a sentence is laid out in the
page's direction with each name isolated in it (the page's U+2068 … U+2069,
:meth:`Words.name`), the name's runs in the direction of its first strong
letter (:func:`stretches`), so "★ שרה wins with 13" keeps its star on the left
as the page, the big screen and the PDF show it. (Only isolates are resolved
so, not the whole Unicode bidi algorithm: the page's sentences hold no
right-to-left words of their own, only in names.)
Noto Color Emoji is a bitmap font of one size (109 px): its runs are drawn at
that size and scaled down. A font missing on the machine is left out of the
chain (its characters then show as the first font's "missing" box).

Why not Pango itself, as the PDF: its layout through cairo (pangocairocffi) draws the same
lines faster (bench/README.md), but needs cairo, PangoCairo and three more Python packages
in every image, and would lay out again what is tested here (isolates, colour emoji,
fitting); Pillow's wheel already carries raqm and HarfBuzz, and the fonts are the PDF's.

No Flask here: the views (``sheets``, ``games``) give the sheet and the words.
"""

from __future__ import annotations

import functools
import io
import unicodedata
from datetime import date
from pathlib import Path
from typing import NamedTuple

from fontTools import unicodedata as scripts
from PIL import Image, ImageDraw, ImageFont

from ..engine import Card, PlayerResult, ScoreSheet
from ..words import Words
from .display import CARD_SYMBOLS

#: The picture's size in pixels (width, height): what the page's ``og:image`` tags declare.
WIDTH, HEIGHT = 1200, 630

_NOTO = Path("/usr/share/fonts/truetype/noto")
_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_CJK = Path("/usr/share/fonts/opentype/noto")


class FontFile(NamedTuple):
    """A font of the chain: its regular and bold files (bold may be the regular
    one), the face within a collection (``.ttc``, 0-based), and whether it is a colour
    bitmap font of one size (Noto Color Emoji)."""

    name: str
    regular: Path
    bold: Path
    face: int = 0
    bitmap_size: int | None = None


#: The fonts text is drawn with when its script has no font of its own (:func:`script_font`),
#: first choice first (see the module's docstring).
FONT_CHAIN: tuple[FontFile, ...] = (
    FontFile("Noto Sans", _NOTO / "NotoSans-Regular.ttf", _NOTO / "NotoSans-Bold.ttf"),
    FontFile("DejaVu Sans", _DEJAVU / "DejaVuSans.ttf", _DEJAVU / "DejaVuSans-Bold.ttf"),
    # the collection's face 2 is Noto Sans CJK SC (simplified Chinese shapes; Japanese and Korean covered too)
    FontFile("Noto Sans CJK SC", _CJK / "NotoSansCJK-Regular.ttc", _CJK / "NotoSansCJK-Bold.ttc", face=2),
    FontFile("Noto Color Emoji", _NOTO / "NotoColorEmoji.ttf", _NOTO / "NotoColorEmoji.ttf", bitmap_size=109),
    FontFile("Noto Sans Symbols", _NOTO / "NotoSansSymbols-Regular.ttf", _NOTO / "NotoSansSymbols-Bold.ttf"),
    FontFile("Noto Sans Symbols 2", _NOTO / "NotoSansSymbols2-Regular.ttf", _NOTO / "NotoSansSymbols2-Regular.ttf"),
)

# The sheet's colours (static/css/app.css, light scheme).
INK, PAPER, MUTED, LINE, PANEL = "#1d1b19", "#fbf8f2", "#5d574f", "#cfc6b8", "#ffffff"
ACCENT, ACCENT_INK = "#7a1f2b", "#ffffff"
CARD_COLOURS = {
    Card.FOREST: "#d0e8c8",
    Card.SWAMP: "#d9cfdf",
    Card.MOUNTAIN: "#e0e0dc",
    Card.PLAIN: "#f6e5af",
    Card.ELVES: "#c1ecea",
    Card.DWARVES: "#f2d2bc",
    Card.HUMANS: "#cfe0f7",
    Card.GOBLINS: "#dff6a1",
    Card.DRAGON: "#f6c4c4",
    Card.PORTAL: "#edc6f7",
}

_ELLIPSIS = "…"


def available_fonts() -> tuple[FontFile, ...]:
    """The fonts of :data:`FONT_CHAIN` installed on this machine."""
    return _available_fonts()


@functools.cache
def _available_fonts() -> tuple[FontFile, ...]:
    return tuple(font for font in FONT_CHAIN if font.regular.is_file())


@functools.cache
def _characters(font: FontFile) -> frozenset[int]:
    """The code points *font* has a glyph for (its best ``cmap``), read once per process."""
    from fontTools.ttLib import TTFont

    with TTFont(font.regular, fontNumber=font.face, lazy=True) as opened:
        return frozenset(opened.getBestCmap())


def has_glyph(font: FontFile, character: str) -> bool:
    """Whether *font* draws *character* (one code point) rather than its "missing" box."""
    return ord(character) in _characters(font)


def _sticks(character: str) -> bool:
    """Characters drawn with their neighbour's font: marks, joiners, variation
    selectors and skin tones (they shape with the letter or emoji before them)."""
    return unicodedata.category(character) in ("Mn", "Me", "Cf", "Sk") or 0xFE00 <= ord(character) <= 0xFE0F


def _neutral(character: str) -> bool:
    """Spaces and punctuation (no direction of their own): kept in the run they stand in (:func:`_next_letter_in`)."""
    return unicodedata.bidirectional(character) in ("WS", "ON", "CS", "ES", "ET", "S", "B")


def _is_emoji(character: str, following: str) -> bool:
    """Whether *character* asks for a colour emoji: followed by U+FE0F ("as an
    emoji"), or wide (East Asian Width W, as every character shown as an emoji
    by default is: 😀 ⚽, not ❤ or ☺, which are text unless U+FE0F follows)."""
    return following == "\ufe0f" or unicodedata.east_asian_width(character) == "W"


#: Unicode's scripts of characters shared by all scripts (spaces, digits, emoji) or
#: taking their letter's (combining marks): they have no font of their own.
_NO_SCRIPT = frozenset({"Zyyy", "Zinh", "Zzzz"})


@functools.cache
def script_font(script: str) -> FontFile | None:
    """Noto's font for the Unicode *script* (ISO 15924 code: ``"Deva"`` → Noto Sans
    Devanagari, ``NotoSansDevanagari-Regular.ttf`` and ``-Bold.ttf``), or ``None``
    where none is installed (Latin, Greek and Cyrillic are in Noto Sans itself; Han,
    Hiragana, Katakana and Hangul in Noto Sans CJK: :data:`FONT_CHAIN`)."""
    if script in _NO_SCRIPT:
        return None
    name = scripts.script_name(script, default="")
    regular = _NOTO / f"NotoSans{name.replace('_', '')}-Regular.ttf"
    if not name or not regular.is_file():
        return None
    bold = regular.with_name(regular.name.replace("-Regular", "-Bold"))
    return FontFile(f"Noto Sans {name.replace('_', ' ')}", regular, bold if bold.is_file() else regular)


@functools.lru_cache(maxsize=4096)
def script_fonts(character: str) -> tuple[FontFile, ...]:
    """The fonts of *character*'s scripts (:func:`script_font`; a danda ``।`` is
    in several: Devanagari, Bengali, …), in the order of their codes."""
    found = (script_font(script) for script in sorted(scripts.script_extension(character)))
    return tuple(font for font in found if font is not None)


def font_for(character: str, emoji: bool = False) -> FontFile | None:
    """The font *character* is drawn with: its script's (:func:`script_fonts`), else
    the first of the chain that has it, or with *emoji* (:func:`_is_emoji`) the first
    colour font that has it; ``None`` if none has it (a Chinese character is wide
    too: it is not in the emoji font, so comes from the chain)."""
    return _font_for(character, emoji)


@functools.lru_cache(maxsize=4096)
def _font_for(character: str, emoji: bool) -> FontFile | None:
    fonts = script_fonts(character) + _available_fonts()
    if emoji:
        fonts = tuple(font for font in fonts if font.bitmap_size) + fonts
    return next((font for font in fonts if has_glyph(font, character)), None)


class Run(NamedTuple):
    """Text drawn with one font, its letters in one direction (raqm's ``direction``)."""

    font: FontFile | None
    text: str
    right_to_left: bool = False


def runs(text: str, right_to_left: bool = False) -> list[Run]:
    """*text* (no isolates: :func:`stretches`) cut into runs of one font each
    (:func:`font_for`), in logical order, each written in the direction *right_to_left*."""
    found: list[Run] = []
    for at, character in enumerate(text):
        if found and found[-1].font is not None:
            current = found[-1].font
            if (
                _sticks(character)
                # a sign several scripts share (a danda) stays with the script it follows
                or (current in script_fonts(character) and has_glyph(current, character))
                or (
                    _neutral(character)
                    and current.bitmap_size is None
                    and has_glyph(current, character)
                    and _next_letter_in(text, at, current)
                )
            ):
                found[-1] = Run(current, found[-1].text + character, right_to_left)
                continue
        font = font_for(character, emoji=_is_emoji(character, text[at + 1 : at + 2]))
        if found and found[-1].font == font:
            found[-1] = Run(font, found[-1].text + character, right_to_left)
        else:
            found.append(Run(font, character, right_to_left))
    return found


def _next_letter_in(text: str, at: int, font: FontFile) -> bool:
    """Whether the next character after *at* that is not a space or punctuation
    is drawn with *font*: spaces between two words of one run stay in it, and a
    run ends at its last letter (an Arabic name's run does not take the space
    after it, which raqm would draw on its left)."""
    for character in text[at + 1 :]:
        if not _neutral(character):
            return font_for(character) == font
    return False


#: Unicode's isolate initiators (LRI, RLI, FSI) → the isolate's direction (right to left?
#: ``None``: its first strong letter's), and the isolate's end (PDI).
ISOLATES: dict[str, bool | None] = {"\u2066": False, "\u2067": True, "\u2068": None}
POP_ISOLATE = "\u2069"


def is_right_to_left(text: str) -> bool:
    """Whether *text*'s first strong letter is right-to-left (Arabic, Hebrew): its
    direction as a paragraph (what is inside isolates left out, UBA P2)."""
    isolated = 0
    for character in text:
        if character in ISOLATES:
            isolated += 1
        elif character == POP_ISOLATE:
            isolated = max(0, isolated - 1)
        elif not isolated:
            kind = unicodedata.bidirectional(character)
            if kind in ("R", "AL"):
                return True
            if kind == "L":
                return False
    return False


class Stretch(NamedTuple):
    """A part of a line written in one direction: the sentence between names, or an isolated name."""

    text: str
    right_to_left: bool


def stretches(text: str, right_to_left: bool) -> list[Stretch]:
    """*text* cut at its isolates (LRI, RLI, FSI … PDI, the marks dropped), in
    logical order: the text outside them in the line's direction *right_to_left*,
    each isolate's in its own (FSI: its first strong letter's). An isolate not
    closed runs to the end (UBA X6a: a name cut short by :func:`fit`); names hold
    no direction characters (R8), so an isolate inside an isolate is read as part of it."""
    found: list[Stretch] = []
    start, depth, initiator = 0, 0, ""
    for at, character in enumerate(text):
        if character in ISOLATES:
            if depth == 0:
                found.append(Stretch(text[start:at], right_to_left))
                start, initiator = at + 1, character
            depth += 1
        elif character == POP_ISOLATE and depth:
            depth -= 1
            if depth == 0:
                found.append(_isolate(text[start:at], initiator))
                start = at + 1
    found.append(_isolate(text[start:], initiator) if depth else Stretch(text[start:], right_to_left))
    return [stretch for stretch in found if stretch.text]


def _isolate(text: str, initiator: str) -> Stretch:
    """The text of an isolate begun by *initiator*, in its direction (:data:`ISOLATES`)."""
    text = "".join(character for character in text if character not in ISOLATES and character != POP_ISOLATE)
    direction = ISOLATES[initiator]
    return Stretch(text, is_right_to_left(text) if direction is None else direction)


@functools.lru_cache(maxsize=64)
def _font(font: FontFile | None, size: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if font is None:  # no font on this machine has it (or none is installed): Pillow's own
        return ImageFont.load_default(size)
    path = font.bold if bold else font.regular
    return ImageFont.truetype(path, font.bitmap_size or size, index=font.face)


class Line(NamedTuple):
    """A line of text laid out: its runs in visual order (left to right) and its size."""

    runs: tuple[Run, ...]
    size: int
    bold: bool
    width: float


def _direction(run: Run) -> str | None:
    """raqm's direction for *run* (Pillow's own font, without raqm, takes none)."""
    if run.font is None:
        return None
    return "rtl" if run.right_to_left else "ltr"


def _run_width(run: Run, size: int, bold: bool) -> float:
    font = _font(run.font, size, bold)
    if run.font is not None and run.font.bitmap_size:
        return font.getlength(run.text, direction=_direction(run)) * size / run.font.bitmap_size
    return font.getlength(run.text, direction=_direction(run))


def lay_out(text: str, size: int, bold: bool = False, right_to_left: bool | None = None) -> Line:
    """*text* as one line at *size* pixels: its runs in visual order. The line
    is right to left when *right_to_left* (``None``: when its first strong
    letter is, as for a name alone; a sentence of the page is left to right);
    each isolated name in it (:func:`stretches`) keeps its own direction, its
    runs together. Each run's own letters are ordered by raqm."""
    direction = is_right_to_left(text) if right_to_left is None else right_to_left
    parts = []
    for stretch in stretches(text, direction):
        found = runs(stretch.text, stretch.right_to_left)
        if stretch.right_to_left:
            found.reverse()
        parts.append(found)
    if direction:
        parts.reverse()
    ordered = tuple(run for part in parts for run in part)
    return Line(ordered, size, bold, sum(_run_width(run, size, bold) for run in ordered))


def _graphemes_cut(text: str) -> str:
    """*text* without its last character and what sticks to it (marks, joiners)."""
    text = text[:-1]
    while text and (_sticks(text[-1]) or text[-1] == "\u200d"):
        text = text[:-1]
    return text


def fit(
    text: str,
    size: int,
    width: float,
    bold: bool = False,
    smallest: int | None = None,
    right_to_left: bool | None = None,
) -> Line:
    """*text* laid out (:func:`lay_out`) to fit *width* pixels: at *size*, else
    smaller (down to *smallest*, by 2 px), else cut and ended with "…"."""
    smallest = smallest or size
    for trial in range(size, smallest - 1, -2):
        line = lay_out(text, trial, bold, right_to_left)
        if line.width <= width:
            return line
    cut = text
    while cut:
        cut = _graphemes_cut(cut).rstrip()
        line = lay_out(cut + _ELLIPSIS, smallest, bold, right_to_left)
        if line.width <= width:
            return line
    return lay_out(_ELLIPSIS, smallest, bold, right_to_left)


def draw_line(image: Image.Image, line: Line, x: float, baseline: float, fill: str) -> None:
    """Draw *line* with its left end at *x* and its baseline at *baseline* (pixels)."""
    draw = ImageDraw.Draw(image)
    for run in line.runs:
        font = _font(run.font, line.size, line.bold)
        if run.font is not None and run.font.bitmap_size:
            _draw_bitmap_run(image, run, font, line.size, x, baseline)
        else:
            draw.text((x, baseline), run.text, font=font, fill=fill, anchor="ls", direction=_direction(run))
        x += _run_width(run, line.size, line.bold)


def _draw_bitmap_run(image: Image.Image, run: Run, font, size: int, x: float, baseline: float) -> None:
    """A colour emoji run: drawn at the font's one size, scaled to *size*, pasted on its baseline."""
    assert run.font is not None and run.font.bitmap_size
    left, top, right, bottom = font.getbbox(run.text, anchor="ls", direction=_direction(run))
    if right <= left or bottom <= top:
        return
    drawn = Image.new("RGBA", (right - left, bottom - top))
    ImageDraw.Draw(drawn).text(
        (-left, -top), run.text, font=font, anchor="ls", embedded_color=True, direction=_direction(run)
    )
    scale = size / run.font.bitmap_size
    scaled = drawn.resize(
        (max(1, round(drawn.width * scale)), max(1, round(drawn.height * scale))), Image.Resampling.LANCZOS
    )
    image.paste(scaled, (round(x + left * scale), round(baseline + top * scale)), scaled)


def name_box(name: str, width: int = 360, height: int = 60, size: int = 32) -> Image.Image:
    """A player's *name* alone on a panel of *width* × *height* pixels, as the
    picture draws it (bold, fitted): what the tests compare against a blank box."""
    image = Image.new("RGB", (width, height), PANEL)
    draw_line(image, fit(name, size, width - 16, bold=True, smallest=18), 8, height * 0.7, INK)
    return image


def result_picture(sheet: ScoreSheet, played_on: date | None, words: Words) -> bytes:
    """The PNG (:data:`WIDTH` × :data:`HEIGHT`, a palette of at most 256
    colours) of *sheet*'s result in the language of *words* (names isolated as
    on the page: :class:`Words` with ``isolate_names=True``)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    margin = 40
    draw.rectangle((0, 0, WIDTH, 64), fill=ACCENT)
    draw_line(
        image,
        fit(words.result_heading(sheet, played_on), 26, WIDTH - 2 * margin, smallest=18, right_to_left=False),
        margin,
        42,
        ACCENT_INK,
    )
    draw_line(image, winner_line(sheet, words), margin, 132, INK)
    ranked = sheet.ranked
    gap = 20
    panel_width = (WIDTH - 2 * margin - gap * (len(ranked) - 1)) // max(1, len(ranked))
    for number, result in enumerate(ranked):
        left = margin + number * (panel_width + gap)
        _draw_panel(image, draw, result, words, left, 168, panel_width, 420)
    draw_line(image, lay_out("DRAKO scorekeeper", 18), margin, 615, MUTED)
    return _png(image)


def winner_line(sheet: ScoreSheet, words: Words, width: int = WIDTH - 80) -> Line:
    """The picture's headline, "★ Quin wins with 18" (:meth:`Words.result_winner`),
    laid out to fit *width* pixels (44 px bold, down to 24 px). The page's
    languages are written left to right: so is the sentence, each name in it
    isolated in its own direction (:func:`stretches`), as the page shows it."""
    return fit("★ " + words.result_winner(sheet), 44, width, True, 24, right_to_left=False)


class PanelText(NamedTuple):
    """What a player's panel says: place (R7, shared places as on the sheet; a
    star for place 1), name, total Harmony Points."""

    place: str
    name: str
    total: str


def panel_text(result: PlayerResult, words: Words) -> PanelText:
    """The words of *result*'s panel in the language of *words*: ``("1st ★", "Quin", "33 Harmony Points")``."""
    return PanelText(
        words.place(result.place) + (" ★" if result.place == 1 else ""),
        result.player.name,
        words.harmony_points(result.total),
    )


def _draw_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    result: PlayerResult,
    words: Words,
    left: int,
    top: int,
    width: int,
    height: int,
) -> None:
    """One player's panel (:func:`panel_text`) and kingdom (4 × 4 cards, row 1 at the top);
    a winner's framed in the accent colour (a coloured panel would hide the Plains)."""
    winner = result.place == 1
    draw.rounded_rectangle(
        (left, top, left + width, top + height),
        14,
        fill=PANEL,
        outline=ACCENT if winner else LINE,
        width=4 if winner else 2,
    )
    inner = width - 32
    text = panel_text(result, words)
    place = fit(text.place, 34, inner, True, 20)
    draw_line(image, place, left + 16, top + 46, ACCENT if winner else INK)
    name = fit(text.name, 30, inner, True, 18)
    name_x = left + width - 16 - name.width if is_right_to_left(text.name) else left + 16
    draw_line(image, name, name_x, top + 92, INK)
    total = fit(text.total, 22, inner, False, 14)
    draw_line(image, total, left + 16, top + 126, INK)
    cell = min(inner // 4, (height - 170) // 4)
    grid_left, grid_top = left + (width - 4 * cell) // 2, top + 148
    for index, card in enumerate(result.score.kingdom.cards):
        row, column = divmod(index, 4)
        x, y = grid_left + column * cell, grid_top + row * cell
        colour = CARD_COLOURS[card] if card is not None else PANEL
        draw.rounded_rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), 6, fill=colour, outline=LINE)
        if card is not None:
            _draw_symbol(image, card, x + cell / 2, y + cell / 2, cell // 2)


def _draw_symbol(image: Image.Image, card: Card, x: float, y: float, size: int) -> None:
    """A card's symbol (as on the sheet) centred on (*x*, *y*)."""
    line = lay_out(CARD_SYMBOLS[card], size)
    draw_line(image, line, x - line.width / 2, y + size * 0.36, INK)


def _png(image: Image.Image) -> bytes:
    """*image* as a PNG of at most 256 colours (the picture is flat colours and
    anti-aliased text: about a quarter of the bytes of a true-colour PNG)."""
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(out, "PNG", compress_level=6)
    return out.getvalue()
