"""The sentence writer (scorekeeper.words): every message id has German words,
and every kind of refusal and explanation written in German is German.

Inputs are built to trigger each kind of refusal (R8, R6.1, R9, game files
being imported) and each kind of "why these points" line (R3–R7, R1); the
sets of kinds met are checked against the writer's own lists, so a new kind
without a German test fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po
from babel.support import Translations

from scorekeeper.engine import (
    LEGENDS,
    POCKET,
    Card,
    Game,
    GameError,
    GameErrors,
    Kingdom,
    Row,
    Tiebreak,
    parse_card,
    score_game,
    score_kingdom,
)
from scorekeeper.store.exchange import read_games
from scorekeeper.words import ENGLISH, ERROR_IDS, REASON_IDS, Words, words_in

TRANSLATIONS = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"
GERMAN = Words(Translations.load(str(TRANSLATIONS), ["de"]), "de")

#: English words that must not appear in German sentences (whole words, case as written).
ENGLISH_WORDS = [
    "through", "portal", "portals", "adjacent", "and", "row", "rows", "column", "Player", "player", "already",
    "claimed", "not", "players", "cards", "card", "name", "at", "Dragon", "Dragons", "domesticated",
    "connected", "land", "share", "place", "ahead", "both", "highest", "decides", "vs", "more", "deck",
    "entered", "check", "game", "games", "must", "list", "text", "unknown", "known", "Legend", "listed", "twice",
    "empty", "long", "characters", "allowed", "used", "location", "notes", "date", "most", "imported",
    "problem", "problems", "Harmony", "Points", "equal", "sorted", "only", "count", "positive", "chosen", "ten",
    "ids", "kingdom", "Forest", "Forests", "Swamp", "Mountain", "Plain", "Plains", "Elves", "Dwarves", "Humans",
    "Magical", "Tribe", "Alliance", "Battle", "Four", "of", "the", "is", "a", "by", "no", "two", "one", "or",
]  # fmt: skip
_QUOTED = re.compile(r"„[^“]*“|'[^']*'")  # JSON keys and values as typed stay as they are


def english_words_in(sentence: str) -> list[str]:
    words = set(re.findall(r"[A-Za-z]+", _QUOTED.sub("", sentence)))
    return [word for word in ENGLISH_WORDS if word in words]


def plains() -> list[list[str]]:
    return [["plain"] * 4 for _ in range(4)]


def player(name: object = "Ada", kingdom: object = None, legends: object = None) -> dict:
    return {"name": name, "kingdom": plains() if kingdom is None else kingdom, "legends": legends or []}


def refused(data: object) -> list[GameError]:
    with pytest.raises(GameErrors) as caught:
        Game.from_dict(data)
    return list(caught.value.errors)


def imported(data: object) -> list[GameError]:
    with pytest.raises(GameErrors) as caught:
        read_games(data)
    return list(caught.value.errors)


def every_kind_of_refusal() -> list[GameError]:
    short_row = plains()
    short_row[1] = ["plain"] * 3
    not_a_row = plains()
    not_a_row[2] = "plain"  # type: ignore[call-overload]
    cells = plains()
    cells[0][0], cells[3][3] = "", "xyz"
    with pytest.raises(GameError) as size:
        Kingdom.from_cells(["plain"] * 15)
    good = {"players": [player("Ada"), player("Bo")]}
    return [
        *refused([]),
        *refused({"game": {"players": []}}),
        *refused({}),
        *refused({"players": [player()]}),
        *refused({"ruleset": "deluxe", "players": [7, player(5), player("a\u202eb"), player("")]}),
        *refused({"players": [player("A" * 41), player("Bo"), player("bo")]}),
        *refused({"players": [player("Ada", "xyz"), player("Bo", plains()[:1]), player("Cy", plains()[:3])]}),
        *refused({"players": [player("Ada", not_a_row), player("Bo", short_row), player("Cy", cells)]}),
        *refused({"players": [player("Ada", legends="x"), player("Bo", legends=[5, "zzz", "four-tribes"] * 2)]}),
        # the Legend refusal naming a player without a name: "Spieler 1", not "Player 1"
        *refused({"players": [player("", legends=["lands-forest"]), player("Bo", legends=["lands-forest"])]}),
        size.value,
        *imported({"games": []}),
        *imported({"games": [good] * 1001}),
        *imported({"games": [good, {"players": [player()]}]}),
        *imported({**good, "date": "2026-13-45"}),
        *imported({**good, "location": 5}),
        *imported({**good, "location": "x" * 101}),
        *imported({**good, "notes": "a\u202eb"}),
        *table_refusals(),
    ]


def table_refusals() -> list[GameError]:
    """The refusals of a shared table, each raised by its model (scorekeeper.table.model)
    as a table's change meets it; the web layer's own (a request's shape) as it writes them."""
    from datetime import UTC, date, datetime

    from scorekeeper.store.games import check_played_on
    from scorekeeper.table import model

    when = datetime(2026, 12, 1, tzinfo=UTC)
    host = model.secret_hash("host")
    empty = model.Table("ABCDEF", "pocket", date(2026, 12, 1), True, 1, host, when, False, None, None, None, ())
    ada_phone = model.identify(empty, ["host"])
    table, _ = model.take_seat(empty, "Ada", host, ada_phone)
    table, _ = model.take_seat(table, "Bo", model.secret_hash("bo"), model.NOBODY)
    table = model.seen_by(model.seen_by(table, [host], when), [model.secret_hash("bo")], when)  # both phones there
    ada, bo = model.identify(table, ["host"]), model.identify(table, ["bo"])
    full = model.take_seat(model.take_seat(table, "Cy", "c", model.NOBODY)[0], "Di", "d", model.NOBODY)[0]
    forest = tuple(["forest"] * 16)
    done = model.save_draft(table, 1, ada, model.Draft(cells=forest, done=True))
    shown = done.seat(1).shown
    met: list[GameError] = []

    def meet(change) -> None:
        try:
            change()
        except GameErrors as refused:
            met.extend(refused.errors)
        except GameError as refused:
            met.append(refused)
        else:
            raise AssertionError("not refused")

    meet(lambda: model.take_seat(full, "Eve", "e", model.NOBODY))  # table-full
    meet(lambda: model.take_seat(table, "Cy", model.secret_hash("bo"), bo))  # seat-already-held
    meet(lambda: model.take_seat(table, "\u0410da", "e", model.NOBODY))  # name-looks-alike (a Cyrillic А)
    meet(lambda: model.save_draft(table, 5, ada, model.Draft()))  # seat-not-found
    meet(lambda: model.save_draft(table, 1, bo, model.Draft()))  # seat-not-yours
    meet(lambda: model.save_draft(table, 1, ada, model.Draft(done=True)))  # kingdom-not-complete
    meet(lambda: model.save_draft(table._replace(locked=True), 1, ada, model.Draft()))  # table-locked
    meet(lambda: model.read_draft({"done": "yes"}, done.seat(1).who()))  # done-not-boolean
    meet(lambda: model.read_shown(None, done.seat(1).who()))  # shown-not-object
    meet(lambda: model.set_checks(table, bo, False))  # host-only
    meet(lambda: model.check(done, 1, model.NOBODY, shown))  # check-needs-seat
    meet(lambda: model.check(done, 1, ada, shown))  # check-own-seat
    meet(lambda: model.check(table, 1, bo, shown))  # check-not-done
    meet(lambda: model.check(done, 1, bo, model.Shown(model.NO_CELLS, frozenset())))  # check-kingdom-changed
    entered = model.save_draft(done, 1, bo._replace(host_secret="x"), model.Draft(legends=("four-tribes",)))
    meet(lambda: model.check(entered, 1, bo, entered.seat(1).shown))  # check-entered
    meet(lambda: model.report_wrong(done, 1, bo, 16, shown))  # cell-invalid
    meet(lambda: model.game_to_lock(model.report_wrong(done, 1, bo, 6, shown), ada))  # lock-wrong-cell, -not-done
    meet(lambda: model.game_to_lock(done, ada))  # lock-not-checked, lock-not-done
    meet(lambda: model.play_again_seats(table, ada))  # table-not-locked
    meet(lambda: model.ask_to_move(table, 1, host, when))  # move-already-yours
    meet(lambda: model.answer_move(table, ada, True, when))  # move-none
    asked = model.ask_to_move(table, 1, model.secret_hash("new"), when)
    meet(lambda: model.answer_move(asked, model.NOBODY, True, when))  # move-not-yours
    meet(lambda: model.remove_seat(table, 1, ada))  # seat-remove-own
    bo_entered = model.save_draft(table, 2, bo, model.Draft(legends=("four-tribes",)))
    meet(lambda: model.remove_seat(bo_entered, 2, ada))  # seat-remove-entered
    meet(lambda: check_played_on(date(1999, 12, 31)))  # date-out-of-range: a table started, or a sheet link
    return [
        *met,
        GameError("table-not-found"),  # no such code: the service finds no table
        GameError("body-not-object"),  # the API's request shapes
        GameError("checks-not-boolean"),
    ]


def group_refusals() -> list[GameError]:
    """The refusals of groups and rosters (store.groups): the name checks run
    here; those needing a database are met in tests/web/test_groups.py."""
    from scorekeeper.store.groups import checked_group_name

    met = []
    for raw in ("\u200b ", "x" * 61, "a\u202eb"):
        with pytest.raises(GameError) as refused:
            checked_group_name(raw)
        met.append(refused.value)
    needing_a_database = [
        GameError("group-unknown"),
        GameError("roster-name-empty"),
        GameError("roster-name-too-long", most=40),
        GameError("roster-name-hidden-characters"),
        GameError("roster-name-taken", other="Anna"),
        GameError("roster-merge-same"),
        GameError("roster-merge-other-group"),
        GameError("roster-merge-gone"),
        GameError("roster-rename-gone"),
        GameError("roster-merge-played-together", together="abc"),
        GameError("group-offer-needs-seat"),  # tests/web/test_group_choice.py: a stranger offers a group
        GameError("game-in-group"),  # a saved game moved into a group that holds its sheet (store.games.move_game)
        GameError("game-gone"),  # ... or deleted meanwhile
    ]
    return met + needing_a_database


def test_every_kind_of_refusal_is_met_and_written_in_german():
    errors = every_kind_of_refusal() + group_refusals()
    assert {error.message_id for error in errors} == ERROR_IDS
    for error in errors:
        german = GERMAN.error(error)
        assert german != ENGLISH.error(error), german
        assert english_words_in(german) == [], german


def test_the_legend_refusal_names_a_nameless_player_in_german():
    errors = refused({"players": [player("", legends=["lands-forest"]), player("Bo", legends=["lands-forest"])]})
    claimed = next(error for error in errors if error.message_id == "legend-claimed")
    assert claimed.params == {"legend": "lands-forest", "by_player": 0, "by_name": None}
    assert GERMAN.error(claimed) == (
        "Bo: die Legende „Land der Wälder“ hat schon Spieler 1 beansprucht; eine Legende gehört einem Spieler"
    )
    assert ENGLISH.error(claimed) == (
        "Bo: the Legend “Land of Forests” is already claimed by Player 1; a Legend belongs to one player"
    )


def test_a_history_game_refused_is_numbered_in_german():
    good = {"players": [player("Ada"), player("Bo")]}
    (error,) = imported({"games": [good, {"players": [player()]}]})
    assert (error.game, error.message_id, error.params) == (2, "player-count", {"count": 1, "least": 2, "most": 4})
    assert GERMAN.error(error) == "Partie 2: eine Partie hat 2 bis 4 Spieler, nicht 1"
    assert ENGLISH.error(error) == "game 2: a game has 2 to 4 players, not 1"


def test_plural_forms_come_from_the_catalogue():
    (one_row,) = refused({"players": [player("Ada", plains()[:1]), player("Bo")]})
    assert ENGLISH.error(one_row) == "Ada: the kingdom must be 4 rows of 4 cards, not 1 row"
    assert GERMAN.error(one_row) == "Ada: das Königreich muss 4 Zeilen mit je 4 Karten haben, nicht 1 Zeile"
    many = GameErrors([GameError("name-empty", player=i) for i in range(52)])
    assert ENGLISH.errors(many)[-1] == "… and 2 more problems"
    assert GERMAN.errors(many, limit=51)[-1] == "… und 1 weiteres Problem"


def kingdom(codes: str) -> Kingdom:
    return Kingdom(tuple(parse_card(code) for code in codes.split()))


# Each kingdom shows some kinds of line; together, every kind and every way of reaching a card.
KINGDOMS = [
    # Elves r1c1: Forest beside and through the portals r2c1+r2c2; Swamp through them; Dragon r1c4 wild
    "El Fo Pl Dr  Po Po Pl Pl  Pl Sw Pl Pl  Pl Pl Pl Pl",
    # Dragon r2c2 tamed by Elves, Dwarves (one through portal r3c2) and Humans (both through it)
    "Pl El Pl Pl  El Dr Dw Pl  Hu Po Dw Pl  Pl Hu Pl Pl",
    # Elves and Dwarves in conflict through portal r1c2
    "El Po Dw Pl  Pl Pl Pl Pl  Pl Pl Pl Pl  Pl Pl Pl Pl",
    # four domesticated Dragons around portals: one beyond the limit (R5.3); a Goblin with no land
    "Dr Hu Dr Hu  Hu Po Hu Po  Dr Hu Dr Hu  Go Dw Dw Hu",
]


def test_every_kind_of_explanation_is_met_and_written_in_german():
    met: set[str] = set()
    for codes in KINGDOMS:
        scored = score_kingdom(kingdom(codes), POCKET, [legend.id for legend in LEGENDS])
        for row in Row:
            for reason, german in zip(scored.explain(row), GERMAN.explain(scored, row), strict=True):
                met.add(reason.message_id)
                assert english_words_in(german) == [], german
    assert met == REASON_IDS
    ways = [GERMAN.way(True, score_kingdom(kingdom(KINGDOMS[0]), POCKET).kingdom.portal_networks)]
    assert ways == ["benachbart und durch Portale Z2S1+Z2S2"]


def test_tiebreak_notes_shared_places_and_deck_warnings_are_written_in_german():
    sheet = score_game(Game.from_dict({"players": [player(n) for n in ("Ada", "Bo", "Cy")]}))
    notes = [GERMAN.tiebreak(sheet, Tiebreak(0, 1, 8, position, (4, 3))) for position in range(1, 8)]
    assert notes[1] == (
        "Ada vor Bo: beide haben 8 Harmoniepunkte; nach ihren Zeilen von der höchsten zur niedrigsten sortiert, "
        "entscheidet die zweithöchste Zeile, 4 zu 3."
    )
    assert len(set(notes)) == 7  # each sorted position has its own ordinal
    shared = GERMAN.shared(sheet, sheet.shared[0])
    assert shared.startswith("Ada, Bo und Cy teilen sich Platz 1")
    two = {"players": [player("Ada", [[card.value] * 4 for card in (Card.FOREST,) * 4]), player("Bo")]}
    warnings = [GERMAN.warning(w) for w in score_game(Game.from_dict(two)).warnings]
    assert warnings == [
        "mehr Wälder als ein Deck für 2 Spieler enthält (16 eingegeben, 4 im Deck) — bitte prüfen",
        "mehr Ebenen als ein Deck für 2 Spieler enthält (16 eingegeben, 4 im Deck) — bitte prüfen",
    ]
    for sentence in [*notes, shared, *warnings, *(GERMAN.cards(card) for card in Card)]:
        assert english_words_in(sentence) == [], sentence


def test_english_lists_have_no_serial_comma_and_german_lists_say_und():
    assert ENGLISH.listing(["Ada", "Bo", "Cy"]) == "Ada, Bo and Cy"
    assert GERMAN.listing(["Ada", "Bo", "Cy"]) == "Ada, Bo und Cy"
    assert ENGLISH.enumeration(["r1c1", "r1c2", "r1c3"]) == "r1c1, r1c2, r1c3"
    assert [ENGLISH.points(p) for p in (4, 0, -2)] == ["+4", "+0", "-2"]


def writer_message_ids() -> set[tuple[object, str | None]]:
    """Every message id in scorekeeper/words.py (with its context), as pybabel extracts them."""
    keywords = {**DEFAULT_KEYWORDS, "N_": None}
    path = TRANSLATIONS.parent / "words.py"
    found = extract_from_file("python", str(path), keywords)
    return {(message, context) for _line, message, _comments, context in found}


def test_every_message_id_of_the_writer_has_a_german_translation():
    with (TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalogue = read_po(po)
    compiled = Translations.load(str(TRANSLATIONS), ["de"])
    ids = writer_message_ids()
    assert len(ids) > 100
    for message_id, context in ids:
        key = message_id[0] if isinstance(message_id, tuple) else message_id
        entry = catalogue.get(key, context=context)
        assert entry is not None, message_id
        assert not entry.fuzzy, message_id
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(strings), message_id
        if isinstance(message_id, tuple):
            assert compiled.ngettext(*message_id, 1) == strings[0], "compile the catalogue (scripts/translations.py)"
        elif entry.context:
            assert compiled.pgettext(entry.context, key) == strings[0]
        else:
            assert compiled.gettext(key) == strings[0], "compile the catalogue (scripts/translations.py)"


def test_places_are_written_the_language_s_way():
    assert [ENGLISH.place(p) for p in (1, 2, 3, 4)] == ["1st", "2nd", "3rd", "4th"]
    assert [GERMAN.place(p) for p in (1, 2, 3, 4)] == ["1.", "2.", "3.", "4."]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["0 Harmony Points", "1 Harmony Point", "2 Harmony Points"]),
        ("de", ["0 Harmoniepunkte", "1 Harmoniepunkt", "2 Harmoniepunkte"]),
        ("fr", ["0 Point d’Harmonie", "1 Point d’Harmonie", "2 Points d’Harmonie"]),  # French: 0 and 1 singular
    ],
)
def test_a_number_of_harmony_points_takes_the_language_s_plural_form(language, expected):
    from tests.web.test_harmony_points import WINS_WITH

    words = words_in(language)
    assert [words.harmony_points(total) for total in (0, 1, 2)] == expected
    for total, data in WINS_WITH.items():  # Ada ahead of Bo after R7.3, both with *total*
        sheet = score_game(Game.from_dict(data))
        assert expected[total] in words.tiebreak(sheet, sheet.tiebreaks[0]), (language, total)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["0.0", "0.0", "-0.1", "0", "0", "-1,234.5"]),
        ("de", ["0,0", "0,0", "-0,1", "0", "0", "-1.234,5"]),
        ("fr", ["0,0", "0,0", "-0,1", "0", "0", "-1\u202f234,5"]),
    ],
)
def test_no_number_is_written_as_a_negative_zero(language, expected):
    """Issue 33: a rating of −0.04 was shown "-0.0" (French "-0,0"); a number that rounds to
    nothing is written without its sign, any other keeps it, with the language's separators."""
    words = words_in(language)
    written = [words.decimal(-0.04, "0.0"), words.decimal(-0.0, "0.0"), words.decimal(-0.06, "0.0")]
    written += [words.decimal(-0.0), words.number(-0), words.decimal(-1234.5, "#,##0.0")]
    assert written == expected
