"""Sheet links: the game packed in the URL, old links still open (issue: fast new-game sheets)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import LEGENDS, Card, Game
from scorekeeper.web.links import DamagedLink, decode_game, encode_game
from tests.conftest import CASE_FILES, examples, load_case
from tests.web.test_sheet import read_sheet

#: Case 19's game played on 30 Nov 2026, as the link written before November 2026 (version 1, zlib JSON).
CASE_19_VERSION_1 = (
    "1eNodzLEOwjAMhOF38exKTYoQawtvEWVwYsdJGMrAwttz6vz9d4k-Z33blzgl2lWISWxK6VaHa1OvExRz5kTHCa2tjjabuYr10gc0RH5cwfOHQF3"
    "dsVUfE1eG4HbpCy0VbHqZxcSGmDToxgFBZoprvC8hLNtK-Q-UBi71"
)
CASE_19 = next(path for path in CASE_FILES if path.name.startswith("19-"))


def test_a_link_made_before_the_change_opens_the_same_sheet(client):
    game = Game.from_dict(load_case(CASE_19)["game"])
    new = encode_game(game, date(2026, 11, 30))
    old_page, new_page = client.get(f"/sheet/{CASE_19_VERSION_1}"), client.get(f"/sheet/{new}")
    assert old_page.status_code == new_page.status_code == 200
    assert read_sheet(old_page.data) == read_sheet(new_page.data)
    assert decode_game(CASE_19_VERSION_1) == decode_game(new)
    assert "30" in old_page.get_data(as_text=True) and "2026" in old_page.get_data(as_text=True)


def test_a_four_player_link_is_short():
    """64 cells of ten kinds, four names, the date and a check: 77 characters (the old links took 156)."""
    token = encode_game(Game.from_dict(load_case(CASE_19)["game"]), date(2026, 11, 30))
    assert token.startswith("2") and len(token) == 77


def test_a_mistyped_link_never_opens_another_game():
    """Every one-character change of a link is refused as damaged (its check
    bytes), or reads as the very same game (the last character's spare bits)."""
    token = encode_game(Game.from_dict(load_case(CASE_19)["game"]), date(2026, 11, 30))
    original = decode_game(token)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    opened = 0
    for at in range(1, len(token)):
        for letter in alphabet.replace(token[at], ""):
            try:
                game = decode_game(token[:at] + letter + token[at + 1 :])
            except DamagedLink:
                continue
            assert game == original
            opened += 1
    assert opened <= 3  # only the spare bits of the last character


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.name for p in CASE_FILES])
def test_every_worked_game_comes_back_whole(path):
    game = Game.from_dict(load_case(path)["game"])
    for played_on in (None, date(2000, 1, 1), date(2026, 11, 30)):
        data, when = decode_game(encode_game(game, played_on))
        assert Game.from_dict(data).to_dict() == game.to_dict() and when == played_on


names = st.text(st.characters(categories=("L", "N", "So", "Zs")), min_size=1, max_size=30).map(str.strip).filter(bool)


@settings(max_examples=examples(200), deadline=None)
@given(
    count=st.integers(2, 4),
    cells=st.lists(st.lists(st.sampled_from(list(Card)), min_size=16, max_size=16), min_size=4, max_size=4),
    legends=st.permutations([legend.id for legend in LEGENDS]),
    ruleset=st.sampled_from(["pocket", "classic"]),
    played_on=st.none() | st.dates(date(2000, 1, 1), date(2179, 1, 1)),
    name_list=st.lists(names, min_size=4, max_size=4, unique_by=str.casefold),
)
def test_any_game_comes_back_whole(count, cells, legends, ruleset, played_on, name_list):
    players = [
        {
            "name": f"{name_list[i]} {i}",
            "kingdom": [[card.value for card in cells[i][r * 4 : r * 4 + 4]] for r in range(4)],
            "legends": legends[i * 3 : i * 3 + i],  # 0, 1, 2, 3 Legends, in an order of their own
        }
        for i in range(count)
    ]
    game = Game.from_dict({"ruleset": ruleset, "players": players})
    data, when = decode_game(encode_game(game, played_on))
    assert Game.from_dict(data).to_dict() == game.to_dict() and when == played_on


@pytest.mark.parametrize("token", ["", "2", "2A", "2AAAA", "2////", "3abc", "2" + "A" * 3000, "1" + "A" * 8])
def test_damaged_tokens_are_refused(token):
    with pytest.raises(DamagedLink):
        decode_game(token)
