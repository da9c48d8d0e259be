"""The new-game form: input shape only. Rules are checked by the engine (R8).

Field names follow WTForms list conventions: ``ruleset``, ``players-N-name``,
``players-N-cells-M`` (M = 0..15, row by row) and ``players-N-legends``.
"""

from __future__ import annotations

from datetime import date

from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, Optional
from wtforms.widgets import CheckboxInput, HiddenInput, ListWidget

from ..engine import LEGENDS, MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS, RULESETS, Card


def _card_choice(card: Card) -> SelectChoice:
    group = "Lands" if card.is_land else "Tribes" if card.is_tribe else "Special"
    return SelectChoice(card.value, card.label.removeprefix("Magical "), optgroup=group)


CARD_CHOICES = [SelectChoice("", "·")] + [_card_choice(card) for card in Card]
LEGEND_CHOICES = [SelectChoice(legend.id, legend.name) for legend in LEGENDS]
#: Extra player panels beyond the 4 allowed are dropped; 5..8 still reach the
#: engine so that it can say "2 to 4 players" (R8).
_MAX_ENTRIES = 2 * MAX_PLAYERS


class PlayerForm(Form):
    """One player's panel: name, 16 card pickers, Legend checkboxes."""

    name = StringField("Name", render_kw={"maxlength": MAX_NAME_LENGTH + 20, "autocomplete": "off"})
    cells = FieldList(
        SelectField(choices=CARD_CHOICES, validate_choice=False, default=""),
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


class GameForm(FlaskForm):
    """The whole game: ruleset and 2–4 players (CSRF-protected)."""

    ruleset = RadioField(
        "Ruleset",
        choices=[SelectChoice(ruleset.id, ruleset.name) for ruleset in RULESETS.values()],
        default="pocket",
        validate_choice=False,
    )
    played_on = DateField("Date played", validators=[Optional()], default=date.today)
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
                    "kingdom": [
                        [player.form.cells[r * 4 + c].data or "" for c in range(4)] for r in range(4)
                    ],
                    "legends": list(player.form.legends.data or []),
                }
                for player in self.players
            ],
        }


class DetailsMixin:
    """Where the game was played and free notes, stored with a saved game."""

    location = StringField("Location", validators=[Optional(), Length(max=100)], render_kw={"maxlength": 100})
    notes = TextAreaField("Notes", validators=[Optional(), Length(max=2000)], render_kw={"maxlength": 2000, "rows": 3})


class SaveGameForm(DetailsMixin, FlaskForm):
    """Save the game of a sheet link: the link's token plus location and notes."""

    token = HiddenField(validators=[DataRequired()])


class CorrectionForm(DetailsMixin, GameForm):
    """The game form of a saved game, remembering which revision it was opened at."""

    based_on = IntegerField(widget=HiddenInput(), validators=[InputRequired()])
