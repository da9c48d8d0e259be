"""What an announcement adds to the table's state: the notes every phone reads alike,
in every language of the app, only when there are any (R6.1, R1)."""

from __future__ import annotations

from scorekeeper.web.tables.stream import announcement, notes
from scorekeeper.words import LANGUAGES, words_in
from tests.table.test_model import KINGDOMS, enter, entered, seated


def test_a_legend_two_seats_claim_is_said_once_in_every_language_R6_1():
    table = enter(seated(3), 1, legends=("tribes-humans",))
    table = enter(enter(table, 2, legends=("tribes-humans",)), 3, legends=("tribes-humans",))
    said = announcement(table)["notes"]
    assert set(said) == set(LANGUAGES)
    assert said["en"] == [
        "\u2068Ada\u2069 and \u2068Bo\u2069, \u2068Cy\u2069 both claim Tribe of Humans; only one may (R6.1)."
    ]
    assert said["de"] != said["en"] and "\u2068Cy\u2069" in said["de"][0] and len(said["fr"]) == 1


def test_more_copies_of_a_card_than_the_deck_holds_are_said_once_every_seat_is_done_R1():
    table = entered(2)
    assert "notes" not in announcement(table)  # case 19's first two kingdoms: within the deck
    dragons = tuple("dragon" if m < 6 else card for m, card in enumerate(KINGDOMS[0]))
    over = enter(table, 1, cells=dragons, done=True)
    (note,) = notes(over, words_in("en", isolate_names=True))
    assert note.startswith("More Dragons than a 2-player deck holds") and note.endswith(".")
    assert "notes" not in announcement(enter(over, 2, done=False))  # not every seat done


def test_an_ordinary_change_carries_no_notes():
    assert "notes" not in announcement(enter(seated(2), 1, cells=KINGDOMS[0]))
