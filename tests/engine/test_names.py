"""R8: one name identity (engine.names) for the engine, the store, the roster and the stats."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine import Game, GameErrors, display_name, name_key, same_name
from tests.conftest import CASE_FILES, load_case

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one joined emoji
THREE_PEOPLE = "\U0001f468\U0001f469\U0001f467"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"

names = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
spaces = st.text(st.sampled_from(" \t\u00a0\u2007\u202f\u3000\u2009"), min_size=1, max_size=4)
invisible = st.text(st.sampled_from("\u200b\u00ad\u2060\ufeff\u200e"), max_size=3)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Mia Sophie", "Mia  Sophie"),
        ("Mia Sophie", "Mia\u00a0Sophie"),
        ("Mia Sophie", " mia\u202fsophie\u200b "),
        ("Zoë", "Zoe\u0308"),
        ("Ada", "A\u200bda"),
        ("Ada", "A\u200dda"),  # a joiner between Latin letters shows nothing
        ("STRASSE", "straße"),
        ("Ana\u00ad", "ana"),
    ],
)
def test_R8_the_same_name(first, second):
    assert same_name(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (f"{FAMILY} Team", f"{THREE_PEOPLE} Team"),
        ("Ana", "Anna"),
        ("Mia Sophie", "MiaSophie"),
        (
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
            "\u0645\u06cc\u062e\u0648\u0627\u0647\u0645",
        ),  # Persian ZWNJ
        (SCOTLAND, "\U0001f3f4"),
    ],
)
def test_R8_different_names(first, second):
    assert not same_name(first, second)


def test_display_name_reads_runs_of_spaces_as_one_and_keeps_joined_emoji():
    assert display_name("  Mia\u00a0\u2009Sophie\u200b\n") == "Mia Sophie"
    assert display_name(f"{FAMILY} Team") == f"{FAMILY} Team"
    assert display_name(f"\u200d{FAMILY}\u200d Team") == f"{FAMILY} Team"  # joiners at the edges join nothing


@given(names)
def test_key_is_idempotent_and_display_name_is_a_fixed_point(name):
    assert name_key(name_key(name)) == name_key(name)
    assert display_name(display_name(name)) == display_name(name)
    assert name_key(display_name(name)) == name_key(name)


@given(names, spaces, invisible)
def test_spaces_and_invisible_characters_do_not_make_another_name(name, gap, hidden):
    assert same_name(f"{name} x", f"{hidden}{name}{gap}{hidden}x{gap}")


@given(names)
def test_case_and_normal_form_do_not_make_another_name(name):
    assert same_name(name.upper(), name.lower()) == (name_key(name.upper()) == name_key(name.lower()))
    assert same_name(unicodedata.normalize("NFD", name), name)


@given(names)
def test_the_key_has_no_space_at_either_end_and_no_run_of_spaces(name):
    key = name_key(name)
    assert key == key.strip() and "  " not in key and not any(ch.isspace() and ch != " " for ch in key)


def _four_players(*players: str) -> dict:
    case = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
    return {**case, "players": [{**p, "name": n} for p, n in zip(case["players"], players, strict=True)]}


def test_R8_refuses_names_the_same_by_this_identity():
    with pytest.raises(GameErrors) as refused:
        Game.from_dict(_four_players("Mia Sophie", "Mia\u00a0 Sophie", "Rin", "Yara"))
    assert [e.message_id for e in refused.value.errors] == ["name-taken"]


def test_R8_accepts_a_joined_emoji_beside_its_three_people():
    game = Game.from_dict(_four_players(f"{FAMILY} Team", f"{THREE_PEOPLE} Team", "Rin", "Yara"))
    assert [p.name for p in game.players][:2] == [f"{FAMILY} Team", f"{THREE_PEOPLE} Team"]


@pytest.mark.parametrize(
    "typed",
    ["D'Arcy", "D\u2019Arcy", "D\u02bcArcy", "D`Arcy", "D\u2018Arcy", "d\u2032arcy", "ＤʼＡｒｃｙ", " D'ARCY "],
)
def test_R8_apostrophe_and_compatibility_variants_are_one_name(typed):
    """Issue 33: a phone's curly apostrophe, a modifier letter and a backtick are the keyboard's "'"."""
    assert name_key(typed) == "d'arcy"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Jean-Luc", "Jean\u2013Luc"),
        ("Jean-Luc", "Jean\u2014Luc"),
        ("Jean-Luc", "Jean\u2010Luc"),
        ("Jean-Luc", "Jean\u2212Luc"),
        ('Bo "Ace"', "Bo \u201cAce\u201d"),
        ("\u2764\ufe0f Bo", "\u2764 Bo"),
        ("\ufb01ona", "Fiona"),
        ("Ana\u00ad\u200e", "ana"),
    ],
)
def test_R8_dash_quote_and_variation_variants_are_one_name(first, second):
    assert same_name(first, second)


def test_R8_refuses_the_same_name_with_two_apostrophes_in_one_game():
    with pytest.raises(GameErrors) as refused:
        Game.from_dict(_four_players("D'Arcy", "D\u2019Arcy", "Rin", "Yara"))
    assert [(e.message_id, e.params["other"]) for e in refused.value.errors] == [("name-taken", "D'Arcy")]


def test_the_key_fits_its_column():
    assert len(name_key("\ufdfa" * 40)) == 160
