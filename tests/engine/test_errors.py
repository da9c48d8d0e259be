"""Input the scorer refuses (RULES.md R8, R6.1, R9): the right error, player, row and column.

The refused games live in tests/data/invalid/*.json, shared with the CLI tests:
each has "rule", "description", "game" and "errors", one entry per expected
problem in reporting order: the error class ("type"), the 0-based "player",
the 1-based "row" and "column", the "where" prefix of the message and a
phrase the message "says".
"""

import json
from pathlib import Path

import pytest

from scorekeeper.engine import (
    CLASSIC,
    MAX_NAME_LENGTH,
    DuplicateLegend,
    Game,
    GameError,
    GameErrors,
    InvalidKingdom,
    InvalidPlayerName,
    Kingdom,
    PlayerCountError,
    Row,
    UnknownCard,
    UnknownRuleset,
    get_ruleset,
    score_game,
)
from scorekeeper.words import ENGLISH

english = ENGLISH.error  # the refusal as the command line and the API say it

INVALID_DIR = Path(__file__).parent.parent / "data" / "invalid"
INVALID_FILES = sorted(INVALID_DIR.glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def invalid_id(path: Path) -> str:
    return f"{load(path)['rule']}-{path.stem}"


def plains() -> list[list[str]]:
    return [["plain"] * 4 for _ in range(4)]


def player(name: str, kingdom=None, legends=()) -> dict:
    return {"name": name, "kingdom": plains() if kingdom is None else kingdom, "legends": list(legends)}


def refusal(data: object) -> tuple[GameError, ...]:
    with pytest.raises(GameErrors) as info:
        Game.from_dict(data)
    return info.value.errors


def test_every_refused_game_file_is_collected():
    assert len(INVALID_FILES) == 16


@pytest.mark.parametrize("path", INVALID_FILES, ids=invalid_id)
def test_R8_refused_game_names_player_row_and_column(path):
    case = load(path)

    errors = refusal(case["game"])

    got = [
        {"type": type(e).__name__, "player": e.player, "row": e.row, "column": e.column, "where": ENGLISH.where(e)}
        for e in errors
    ]
    want = [{key: value for key, value in e.items() if key != "says"} for e in case["errors"]]
    assert got == want
    for error, expected in zip(errors, case["errors"], strict=True):
        assert isinstance(error, GameError) and isinstance(error, ValueError)
        assert expected["says"] in english(error)
        assert english(error).startswith(f"{expected['where']}: " if expected["where"] else ENGLISH.error_text(error))


def test_R8_one_player_is_refused():
    (error,) = refusal({"players": [player("Ada")]})
    assert isinstance(error, PlayerCountError)
    assert english(error) == "a game has 2 to 4 players, not 1"


@pytest.mark.parametrize("count", [2, 3, 4])
def test_R8_two_to_four_players_are_accepted(count):
    names = ["Ada", "Bo", "Cy", "Di"][:count]
    assert [p.name for p in Game.from_dict({"players": [player(n) for n in names]}).players] == names


def test_R8_name_of_40_characters_is_accepted_41_refused():
    assert MAX_NAME_LENGTH == 40
    Game.from_dict({"players": [player("A" * 40), player("Bo")]})
    (error,) = refusal({"players": [player("A" * 41), player("Bo")]})
    assert isinstance(error, InvalidPlayerName)
    assert error.player == 0


def test_R8_names_are_trimmed():
    game = Game.from_dict({"players": [player("  Ada "), player("Bo")]})
    assert [p.name for p in game.players] == ["Ada", "Bo"]


def test_R8_duplicate_names_ignore_case_and_surrounding_spaces():
    (error,) = refusal({"players": [player("Ada"), player("Bo"), player(" ADA  ")]})
    assert isinstance(error, InvalidPlayerName)
    assert (error.player, error.player_name) == (2, "ADA")
    assert english(error) == "ADA: the name is already used by Ada"


def test_R8_unknown_card_reports_row_and_column():
    kingdom = plains()
    kingdom[2][3] = "castle"  # row 3, column 4
    (error,) = refusal({"players": [player("Ada"), player("Bo", kingdom)]})
    assert isinstance(error, UnknownCard)
    assert (error.player, error.player_name, error.row, error.column) == (1, "Bo", 3, 4)
    assert error.cell == 11
    assert english(error) == "Bo, row 3, column 4: 'castle' is not one of the ten card ids"


def test_R8_every_bad_cell_is_reported():
    kingdom = plains()
    kingdom[0][0] = "castle"
    kingdom[3][3] = "Forest"  # card ids are lower case, as in RULES.md R1
    errors = refusal({"players": [player("Ada", kingdom), player("Bo")]})
    assert [(type(e), e.row, e.column) for e in errors] == [(UnknownCard, 1, 1), (UnknownCard, 4, 4)]


def test_R8_kingdom_shape_is_checked_before_cells():
    five_rows = plains()[:3] + [["castle"] * 4, ["plain"] * 4]
    errors = refusal({"players": [player("Ada", five_rows), player("Bo")]})
    assert [type(e) for e in errors] == [InvalidKingdom]
    assert english(errors[0]) == "Ada: the kingdom must be 4 rows of 4 cards, not 5 rows"


def test_R6_1_legend_claimed_by_two_players_is_refused_for_the_second():
    errors = refusal({"players": [player("Ada", legends=["lands-forest"]), player("Bo", legends=["lands-forest"])]})
    assert [(type(e), e.player) for e in errors] == [(DuplicateLegend, 1)]
    assert "already claimed by Ada" in english(errors[0])


def test_R8_several_problems_are_all_reported_at_once():
    kingdom = plains()
    kingdom[1][2] = "castle"
    with pytest.raises(GameErrors) as info:
        Game.from_dict(
            {
                "ruleset": "deluxe",
                "players": [player(""), player("Bo", kingdom, ["lands-lava"]), player("bo")],
            }
        )
    assert [type(e).__name__ for e in info.value.errors] == [
        "UnknownRuleset",
        "InvalidPlayerName",
        "UnknownCard",
        "UnknownLegend",
        "InvalidPlayerName",
    ]
    assert str(info.value) == "; ".join(str(e) for e in info.value.errors)  # for logs: ids and parameters


def test_R9_rulesets_are_looked_up_by_id():
    assert get_ruleset("classic") is CLASSIC
    with pytest.raises(UnknownRuleset):
        get_ruleset("Classic")
    assert Game.from_dict({"players": [player("Ada"), player("Bo")]}).ruleset.id == "pocket"


def test_R1_kingdom_is_sixteen_cards():
    with pytest.raises(InvalidKingdom):
        Kingdom.from_cells(["plain"] * 15)
    with pytest.raises(UnknownCard) as info:
        Kingdom.from_rows([["plain"] * 4, ["plain"] * 4, ["plain", "lava", "plain", "plain"], ["plain"] * 4])
    assert (info.value.row, info.value.column) == (3, 2)


def test_R6_legends_null_or_missing_means_none_claimed():
    game = {"players": [player("Ada", legends=()), player("Bo")]}
    del game["players"][0]["legends"]
    game["players"][1]["legends"] = None
    sheet = score_game(Game.from_dict(game))
    assert [r.rows[Row.LEGENDS] for r in sheet.results] == [0, 0]


@pytest.mark.parametrize(
    "name,message",
    [
        ("\u200b", "the name is empty"),  # zero-width space: displays as nothing
        ("\u00a0 \u3000", "the name is empty"),
        ("a\u202eb", "control or direction characters"),  # right-to-left override
        ("x\x00", "control or direction characters"),
        ("a\nb", "control or direction characters"),
        ("\ud800", "control or direction characters"),  # unpaired surrogate
        (True, "the name must be text"),
        (1.5, "the name must be text"),
        (float("nan"), "the name must be text"),
        (["x"], "the name must be text"),
    ],
    ids=["zero-width", "only-spaces", "rtl-override", "nul", "newline", "surrogate", "bool", "float", "nan", "list"],
)
def test_R8_names_that_cannot_be_shown_are_refused(name, message):
    game = {"players": [player("Bo"), {"name": name, "kingdom": plains(), "legends": []}]}
    with pytest.raises(GameErrors) as caught:
        Game.from_dict(game)
    (error,) = caught.value.errors
    assert isinstance(error, InvalidPlayerName) and error.player == 1 and message in ENGLISH.error_text(error)


def test_R8_duplicate_names_compared_after_unicode_normalisation():
    game = {"players": [player("Zo\u00eb"), player(" ZOE\u0308 ")]}
    with pytest.raises(GameErrors) as caught:
        Game.from_dict(game)
    assert "already used by Zoë" in english(caught.value.errors[0])


def test_R8_emoji_sequences_with_joiners_are_names():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    game = Game.from_dict({"players": [player(family), player("Bo")]})
    assert game.players[0].name == family


def test_R6_1_a_legend_listed_many_times_is_one_refusal():
    errors = refusal({"players": [player("Ada", legends=["lands-forest"] * 50), player("Bo")]})
    assert [english(e) for e in errors] == ["Ada: the Legend “Land of Forests” is listed twice"]


def test_R8_a_zero_width_space_does_not_make_another_name():
    errors = refusal({"players": [player("Ada"), player("Ada\u200b")]})
    assert [type(e) for e in errors] == [InvalidPlayerName]
    assert "already used by Ada" in english(errors[0])


def test_R8_an_unknown_or_non_text_legend_is_one_refusal_however_often_listed():
    errors = refusal({"players": [player("Ada", legends=["castle", "castle", {"a": 1}, 7]), player("Bo")]})
    assert [english(e) for e in errors] == [
        "Ada: 'castle' is not a Legend id",
        'Ada: a Legend id must be text, like "lands-forest"',
    ]
