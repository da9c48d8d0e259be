"""``POST /api/score``: R8 errors come back as 400 with one message per problem."""

from __future__ import annotations

import copy

import pytest

from tests.conftest import CASE_FILES, load_case
from tests.contract import answers_checked

GAME = load_case(CASE_FILES[18])["game"]


@pytest.fixture(autouse=True)
def _answers_keep_the_contract():
    """Every answer of the API in these tests is one its OpenAPI contract allows."""
    with answers_checked():
        yield


def bad(mutate):
    game = copy.deepcopy(GAME)
    mutate(game)
    return game


API_ERRORS = {
    "R8-one-player": (bad(lambda g: g.update(players=g["players"][:1])), "2 to 4 players, not 1"),
    "R8-five-players": (
        bad(lambda g: g["players"].append(dict(g["players"][0], name="Eve", legends=[]))),
        "not 5",
    ),
    "R8-empty-name": (bad(lambda g: g["players"][0].update(name="")), "Player 1: the name is empty"),
    "R8-long-name": (bad(lambda g: g["players"][1].update(name="B" * 41)), "at most 40"),
    "R8-duplicate-name": (bad(lambda g: g["players"][1].update(name="ADA ")), "already used by Ada"),
    "R8-look-alike-name": (
        bad(lambda g: g["players"][1].update(name="\u0410da")),  # the Cyrillic А
        "\u0410da: the name looks just like Ada but is typed with a letter from another alphabet",
    ),
    "R8-three-rows": (bad(lambda g: g["players"][2]["kingdom"].pop()), "Cy: the kingdom must be 4 rows"),
    "R8-five-columns": (
        bad(lambda g: g["players"][3]["kingdom"][1].append("forest")),
        "Di, row 2: the row must have 4 cards",
    ),
    "R8-unknown-card": (
        bad(lambda g: g["players"][1]["kingdom"][2].__setitem__(3, "troll")),
        "Bo, row 3, column 4: 'troll'",
    ),
    "R8-unknown-legend": (bad(lambda g: g["players"][0]["legends"].append("x")), "'x' is not a Legend id"),
    "R6.1-legend-twice": (
        bad(lambda g: g["players"][3]["legends"].append("tribes-humans")),
        "already claimed by Ada",
    ),
    "R9-unknown-ruleset": (bad(lambda g: g.update(ruleset="speed")), "unknown ruleset 'speed'"),
}


@pytest.mark.parametrize("game,message", API_ERRORS.values(), ids=API_ERRORS.keys())
def test_R8_api_refuses_with_400_and_message(client, game, message):
    response = client.post("/api/score", json=game)
    assert response.status_code == 400
    errors = response.get_json()["errors"]
    assert any(message in error for error in errors), errors


@pytest.mark.parametrize("body", [b"", b"not json", b"[1, 2]", b"42", b'{"players": "x"}', b"null"])
def test_api_refuses_malformed_bodies(client, body):
    response = client.post("/api/score", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"]


def test_api_answers_the_cli_json_shape(client):
    body = client.post("/api/score", json=GAME).get_json()
    assert set(body) >= {"ruleset", "players"}
    assert [p["name"] for p in body["players"]] == ["Ada", "Bo", "Cy", "Di"]
    assert set(body["players"][0]["categories"]) == {
        "elves",
        "dwarves",
        "humans",
        "goblins",
        "dragons",
        "legends",
        "conflicts",
    }


def test_too_deeply_nested_json_is_a_400_not_a_crash(client):
    body = '{"players":' + "[" * 5000 + "]" * 5000 + "}"
    response = client.post("/api/score", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"]


@pytest.mark.parametrize(
    "method,path,status",
    [("get", "/api/score", 405), ("post", "/api/nowhere", 404)],
)
def test_api_errors_are_json(client, method, path, status):
    response = getattr(client, method)(path)
    assert response.status_code == status
    assert response.is_json and response.get_json()["errors"]


@pytest.mark.parametrize(
    "method,path,allowed", [("get", "/api/score", "POST"), ("delete", "/api/tables/ABCDEF", "GET, PATCH")]
)
def test_a_method_the_api_address_does_not_take_is_405_with_allow(client, method, path, allowed):
    """RFC 9110: a 405 lists the methods the address takes; the API's JSON answer had no Allow."""
    response = getattr(client, method)(path)
    assert response.status_code == 405 and response.get_json()["errors"]
    assert set(response.headers["Allow"].split(", ")) == {*allowed.split(", "), "OPTIONS"} | (
        {"HEAD"} if "GET" in allowed else set()
    )


def test_api_oversized_body_is_json_413(client):
    response = client.post("/api/score", data="[" + " " * (300 * 1024) + "]", content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["errors"]


@pytest.mark.parametrize(
    "member", [{"ruleset": 0}, {"ruleset": False}, {"ruleset": []}, {"legends": {}}, {"legends": 0}]
)
def test_preview_refuses_a_ruleset_or_legends_of_another_type(client, member):
    """Found by Schemathesis: ``{"legends": {}}`` or ``{"ruleset": 0}`` was read as none
    claimed, or as pocket (``or``); only null, or "" for the ruleset, means the default."""
    response = client.post("/api/preview", json={"cells": [None] * 16} | member)
    assert response.status_code == 400 and response.get_json()["errors"]
    defaults = client.post("/api/preview", json={"cells": [None] * 16, "ruleset": "", "legends": None})
    assert defaults.status_code == 200 and defaults.get_json()["total"] == 0
