"""The new-game form: input shape only. Rules are checked by the engine (R8).

Field names follow WTForms list conventions: ``ruleset``, ``players-N-name``,
``players-N-cells-M`` (M = 0..15, row by row) and ``players-N-legends``.
"""

from __future__ import annotations

import difflib
import functools
import re
from datetime import date, timedelta
from typing import Any

from babel import support
from flask_babel import format_date, get_locale, get_translations, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # WTForms 3.3; types-WTForms lags
from wtforms.i18n import messages_path
from wtforms.validators import DataRequired, InputRequired, Length, Optional, ValidationError
from wtforms.widgets import CheckboxInput, HiddenInput, ListWidget

from ..engine import LEGENDS, MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS, RULESETS, Card, parse_card, rows_of
from ..store.games import EARLIEST_PLAYED_ON, LATEST_PLAYED_ON, MAX_LOCATION, MAX_NOTES, has_hidden_controls
from ..words import LANGUAGES, Words, words_in

LEGEND_CHOICES = [SelectChoice(legend.id, legend.name) for legend in LEGENDS]
#: Extra player panels beyond the 4 allowed are dropped; 5..8 still reach the
#: engine so that it can say "2 to 4 players" (R8).
_MAX_ENTRIES = 2 * MAX_PLAYERS


#: One-letter codes for typing and pasting (the keys of the tap palette).
KEYS: dict[str, Card] = {
    "f": Card.FOREST, "s": Card.SWAMP, "m": Card.MOUNTAIN, "p": Card.PLAIN,
    "e": Card.ELVES, "d": Card.DWARVES, "h": Card.HUMANS, "g": Card.GOBLINS,
    "r": Card.DRAGON, "o": Card.PORTAL,
}  # fmt: skip
#: Marks a cell whose card is not known yet.
BLANKS = {".", "-", "_", "?"}
_SEPARATORS = re.compile(r"[\s,;|/]+")
#: What a phone keyboard adds after a word (a full stop after a double space) or
#: a typist leaves: ignored at either end of a word that has more to it.
_PUNCTUATION = ".,;:!?…\"'“”„‘’«»()"


class KingdomTextError(ValueError):
    """Text that is not four lines of four cards; ``str()`` is the message
    to show (in the page's language), naming the line (1-based)."""


@functools.cache
def typed_words() -> dict[str, Card]:
    """The words a table types for each card, in every language of
    :data:`LANGUAGES` (:meth:`Words.typed`: names singular and plural, with and
    without accents, codes, the catalogue's other words), lower case; read on
    every page, whatever its language. Canonical ids, English names and codes
    are the engine's own (:func:`parse_card`)."""
    return {word: card for language in LANGUAGES for card in Card for word in words_in(language).typed(card)}


@functools.cache
def _several_words() -> re.Pattern[str]:
    """The typed names of more than one word (``magic portal``, ``portail magique``), longest first."""
    names = sorted((name for name in typed_words() if " " in name), key=len, reverse=True)
    spaced = [r"\s+".join(re.escape(part) for part in name.split()) for name in names]
    return re.compile(r"\b(?:" + "|".join(spaced) + r")\b", re.IGNORECASE)


def _as_one_word(line: str) -> str:
    """*line* with each name of several words written as its card's id, so that
    splitting the line at spaces keeps it whole: ``"Po magic portal"`` → ``"Po portal"``."""
    return _several_words().sub(lambda name: typed_words()[" ".join(name[0].lower().split())].value, line)


def _plain_word(word: str) -> str:
    key = " ".join(word.split()).lower()
    trimmed = key.strip(_PUNCTUATION).strip()
    return trimmed or key


def card_of_word(word: str) -> Card | None:
    """The card named by one typed *word*: canonical id, a name in any of the
    languages in the singular or plural, two- or one-letter code (any case, end
    punctuation ignored: ``"El."``); ``None`` for a blank mark.

    :raises ValueError: if *word* names no card.
    """
    key = _plain_word(word)
    if key in BLANKS:
        return None
    if key in KEYS:
        return KEYS[key]
    if key in typed_words():
        return typed_words()[key]
    return parse_card(key)


def nearest_card(word: str) -> Card | None:
    """The card whose name or code is closest to a word that names none
    (``"Forrest"`` → Forest), or ``None`` when nothing is close."""
    key = _plain_word(word)
    if len(key) < 3:
        return None
    names = {**{card.label.lower(): card for card in Card}, **typed_words()}
    close = difflib.get_close_matches(key, [name for name in names if len(name) > 2], n=1, cutoff=0.7)
    return names[close[0]] if close else None


def not_a_card(word: str) -> str:
    """ "“Forrest” is not a card; did you mean Forest?" in the page's language
    (its own quotation marks), for a typed *word* that names no card."""
    card = nearest_card(word)
    if card is None:
        return _("“%(word)s” is not a card.", word=word.strip()[:20])
    name = Words(get_translations(), str(get_locale() or "en")).card(card)  # an error: written once
    return _("“%(word)s” is not a card; did you mean %(card)s?", word=word.strip()[:20], card=name)


@functools.lru_cache(maxsize=1024)  # a posted game sends 64 cells, mostly the same ten words
def card_id_of(text: str | None) -> str:
    """The canonical id of the card *text* names (as :func:`card_of_word`),
    ``""`` for nothing, or *text* itself (trimmed) when it names no card."""
    if not text or not text.strip():
        return ""
    try:
        card = card_of_word(text)
    except ValueError:
        return text.strip()[:40]
    return card.value if card else ""


def parse_kingdom_text(text: str) -> list[str]:
    """16 card ids (``""`` for a blank mark), row by row, from four lines of
    four card words, e.g. ``"Fo El Po Fo"``; words are separated by spaces,
    commas, semicolons, ``|`` or ``/``. A line of four one-letter codes may
    be written without spaces (``FEOF``).

    :raises KingdomTextError: naming every problem found.
    """
    lines = [line for line in text.strip().splitlines() if line.strip()]
    problems: list[KingdomTextError] = []  # all lines' problems at once
    if len(lines) != 4:
        raise KingdomTextError(_("Four lines of four cards are needed, not %(count)d.", count=len(lines)))
    cells: list[str] = []
    for number, line in enumerate(lines, start=1):
        # a word of punctuation alone is left over from a typist; a word of dots marks empty cells
        words = [
            w for w in _SEPARATORS.split(_as_one_word(line.strip())) if w.strip(_PUNCTUATION) or (w and set(w) <= {"."})
        ]
        if len(words) == 1 and len(words[0]) == 4 and all(ch in KEYS or ch == "." for ch in words[0].lower()):
            words = list(words[0])
        if len(words) != 4:
            message = ngettext(
                "Line %(line)d has %(num)d card, not 4.",
                "Line %(line)d has %(num)d cards, not 4.",
                len(words),
                line=number,
            )
            problems.append(KingdomTextError(message))
            continue
        for word in words:
            try:
                card = card_of_word(word)
            except ValueError:
                message = _("Line %(line)d: %(problem)s", line=number, problem=not_a_card(word))
                problems.append(KingdomTextError(message))
                continue
            cells.append(card.value if card else "")
    if problems:
        raise KingdomTextError(" ".join(str(p) for p in problems))
    return cells


class PlayerForm(Form):
    """One player's panel: name, 16 card pickers, Legend checkboxes, and a
    text box that, when filled, replaces the 16 cards (four lines of four)."""

    # no autocomplete="off": it stops the browser giving the names back after Back. The box stops
    # at the engine's 40 as it is typed in (a tester expected it to): the browser counts UTF-16
    # units, so an emoji takes two of them; 20 emoji still fit, and no realistic name is cut.
    name = StringField("Name", render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "nickname"})
    # Text boxes sharing one list of cards (<datalist>): a phone offers the ten
    # cards as you tap, and the page stays light (16 selects a player weighed
    # 8 KB). What is typed may be an id, a name or a code: it is read as a card
    # where it names one, and left as typed (for the engine to refuse) where not.
    cells = FieldList(
        StringField(default="", filters=[lambda text: card_id_of(text)]),
        min_entries=16,
        max_entries=16,
    )
    legends = SelectMultipleField(
        "Legends",
        choices=LEGEND_CHOICES,
        validate_choice=False,
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
    )
    paste = TextAreaField(
        "Type or paste the kingdom",
        render_kw={
            "rows": 4,
            "spellcheck": "false",
            "autocomplete": "off",
            "autocapitalize": "off",
            "autocorrect": "off",
        },  # fmt: skip
    )

    def apply_paste(self) -> bool:
        """Fill the 16 cells from the text box, if it holds anything, and
        empty it; on a problem keep the text and put the error beside it."""
        text = (self.paste.data or "").strip()
        if not text:
            return True
        try:
            cells = parse_kingdom_text(text)
        except KingdomTextError as error:
            # process errors survive validate(), which resets ``errors``
            self.paste.process_errors = [*self.paste.process_errors, str(error)]
            self.paste.errors = list(self.paste.process_errors)
            return False
        for cell, card in zip(self.cells, cells, strict=True):
            cell.data = card
        self.paste.data, self.paste.raw_data = "", []
        return True


@functools.lru_cache(maxsize=8)
def _wtforms_catalogue(locale: str) -> support.NullTranslations:
    """WTForms' own messages ("Not a valid date value.") in *locale*, read once per process."""
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


class PageForm(FlaskForm):
    """A form of the pages (CSRF-protected): WTForms' own messages in the page's
    language from a catalogue read once per process (Flask-WTF reads it again
    for every request, a third of a form post's time)."""

    class Meta:
        def get_translations(self, form: Any) -> Any:
            return _wtforms_catalogue(str(get_locale() or "en"))


def latest_played_on() -> date:
    """The last date a game may be entered as played: tomorrow by the server's clock (a phone
    may be a day ahead of it, across time zones), and never after :data:`LATEST_PLAYED_ON`."""
    return min(LATEST_PLAYED_ON, date.today() + timedelta(days=1))


def _played_on_range() -> str:
    """The sentence giving the dates a game may be played on, in the page's language."""
    return _("Choose a date from %(earliest)s to today.", earliest=format_date(EARLIEST_PLAYED_ON, _("d MMMM y")))


class PlayedOnField(DateField):
    """The date played (``YYYY-MM-DD``, as a date input sends it). A text that is no day of the
    calendar (30 February, ``31.31.2026``) is refused in the app's words, saying what was typed:
    a browser's date input shows such a value empty, so the message is where it is kept. The
    input's ``max`` is :func:`latest_played_on` as the page is written."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            typed = " ".join(str(value) for value in valuelist)[:40]
            raise ValueError(_("“%(typed)s” is not a date.", typed=typed) + " " + _played_on_range()) from None

    def __call__(self, **kwargs: Any) -> Any:
        kwargs.setdefault("max", latest_played_on().isoformat())
        return super().__call__(**kwargs)


class PlayedOnInRange:
    """The date played's check: from :data:`EARLIEST_PLAYED_ON` (what a sheet link holds) to
    :func:`latest_played_on` (a game is scored once played: a later date is a slip, such as
    2150 for 2015), said beside the field in the page's language; its ``min`` goes on the
    date input (WTForms' ``DateInput`` renders this flag), its ``max`` as the page is written."""

    field_flags = {"min": EARLIEST_PLAYED_ON.isoformat()}

    def __call__(self, form: Any, field: Any) -> None:
        if field.data is not None and not EARLIEST_PLAYED_ON <= field.data <= latest_played_on():
            raise ValidationError(_played_on_range())


class RulesetAndDateForm(PageForm):
    """The ruleset and the date played, as a new game and a new table ask for them."""

    ruleset = RadioField(
        "Ruleset",
        choices=[SelectChoice(ruleset.id, ruleset.name) for ruleset in RULESETS.values()],
        default="pocket",
        validate_choice=False,
    )
    played_on = PlayedOnField("Date played", validators=[Optional(), PlayedOnInRange()], default=date.today)


class GameForm(RulesetAndDateForm):
    """The whole game: ruleset and 2–4 players (CSRF-protected)."""

    players = FieldList(FormField(PlayerForm), min_entries=0, max_entries=_MAX_ENTRIES)

    def fill_to_minimum(self) -> None:
        """Show at least two empty player panels on a new form."""
        while len(self.players) < MIN_PLAYERS:
            self.players.append_entry()

    def game_data(self) -> dict:
        """The form's entries as a game file object for :meth:`Game.from_dict`."""
        return {
            "ruleset": self.ruleset.data or "pocket",
            "players": [
                {
                    "name": player.form.name.data or "",
                    "kingdom": rows_of([cell.data or "" for cell in player.form.cells]),
                    "legends": list(player.form.legends.data or []),
                }
                for player in self.players
            ],
        }


_HIDDEN_CHARACTERS = _l("Remove the hidden control or text-direction characters; pasted text often carries them.")


def _plain_text(allowed: str = ""):
    """A validator refusing control and text-direction characters (but *allowed*)."""

    def check(form, field) -> None:
        if has_hidden_controls(field.data or "", allowed):
            raise ValidationError(_HIDDEN_CHARACTERS)

    return check


_AT_MOST = _l("At most %(max)d characters.")


class DetailsMixin:
    """Where the game was played and free notes, stored with a saved game."""

    location = StringField(
        "Location",
        validators=[Optional(), Length(max=MAX_LOCATION, message=_AT_MOST), _plain_text()],
        render_kw={"maxlength": MAX_LOCATION},
    )
    notes = TextAreaField(
        "Notes",
        validators=[Optional(), Length(max=MAX_NOTES, message=_AT_MOST), _plain_text("\n\r\t")],
        render_kw={"maxlength": MAX_NOTES, "rows": 3},
    )


class SaveGameForm(DetailsMixin, PageForm):
    """Save the game of a sheet link: the link's token plus location and notes.

    ``save_key``: the sheet's key (``store.games.sheet_key``), stored unique with
    the game, so the sheet is saved once; ``attempt``: one random value per form
    shown, so the same form sent again gets back its own private link
    (``web.ownership``)."""

    token = HiddenField(validators=[DataRequired()])
    save_key = HiddenField(validators=[Optional(), Length(max=64)])
    attempt = HiddenField(validators=[Optional(), Length(max=64)])


class CorrectionForm(DetailsMixin, GameForm):
    """The game form of a saved game, remembering which revision it was opened at."""

    based_on = IntegerField(widget=HiddenInput(), validators=[InputRequired()])


# -- shared tables ("Score together", web/tables/pages.py)


class StartTableForm(RulesetAndDateForm):
    """Start a table: the ruleset and the date played (the host phone's local
    date, filled in by app.js; the server's day without JavaScript)."""


class JoinCodeForm(PageForm):
    """The join code typed on ``/join`` (case, spaces and dashes ignored by the store)."""

    code = StringField(
        "Join code",
        render_kw={"maxlength": 20, "autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )


class SeatNameForm(PageForm):
    """A name for a new seat (checked by the store with R8 against the seated names)."""

    name = StringField("Name", render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "nickname"})


class SeatForm(PageForm):
    """One seat's kingdom: the game form's player panel (its name unused: the seat has one)."""

    seat = FormField(PlayerForm)


class CheckForm(PageForm):
    """Checking another seat's kingdom: the cell (0..15) found wrong, if any."""

    cell = RadioField(
        "Cell", choices=[(str(cell), str(cell)) for cell in range(16)], validate_choice=False, validators=[Optional()]
    )
