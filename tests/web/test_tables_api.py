"""The JSON API of shared tables (issue #10, item 8) through the test client,
on SQLite and PostgreSQL: case 19 driven through it alone gives the engine's
game; every refusal is 400/403/404/409/429 with ``{"errors": [...]}``."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import re
from datetime import date

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import func, select, text

from scorekeeper.engine import Game, score_game
from scorekeeper.store import db
from scorekeeper.store.groups import create_group, find_group
from scorekeeper.store.models import SavedGame
from scorekeeper.table import service
from tests.conftest import CASE_FILES, app_on, load_case, make_test_app
from tests.contract import answers_checked

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
PLAYERS = FOUR["game"]["players"]


@pytest.fixture(autouse=True)
def _answers_keep_the_contract():
    """Every answer of the API in these tests is one its OpenAPI contract allows."""
    with answers_checked():
        yield


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def start(client, **body) -> dict:
    answer = client.post("/api/tables", json={"ruleset": "pocket", "played_on": "2026-11-30"} | body)
    assert answer.status_code == 201, answer.json
    return answer.json


def sit(client, code: str, players=PLAYERS) -> list[str]:
    tokens = []
    for number, player in enumerate(players, start=1):
        answer = client.post(f"/api/tables/{code}/seats", json={"name": player["name"]})
        assert answer.status_code == 201 and answer.json["seat"] == number, answer.json
        tokens.append(answer.json["seat_token"])
    return tokens


def enter(client, code: str, number: int, token: str, player: dict, done: bool = True):
    body = {"kingdom": player["kingdom"], "legends": player["legends"], "done": done}
    return client.put(f"/api/tables/{code}/seats/{number}", json=body, headers=auth(token))


def seen(client, code: str, number: int) -> dict:
    """The kingdom of seat *number* as a checker looks at it (the state's ``kingdom`` and ``legends``)."""
    seat = client.get(f"/api/tables/{code}").json["seats"][number - 1]
    return {"kingdom": seat["kingdom"], "legends": seat["legends"]}


def check(client, code: str, number: int, token: str | None):
    """Seat *number* checked, as the checker looked at it."""
    body = {"seen": seen(client, code, number)}
    return client.post(f"/api/tables/{code}/seats/{number}/check", json=body, headers=auth(token) if token else {})


def refused(answer, status: int) -> list[str]:
    assert answer.status_code == status, (answer.status_code, answer.get_data(as_text=True)[:300])
    assert answer.is_json and answer.json["errors"], answer.json
    assert len(answer.json["problems"]) == len(answer.json["errors"])
    return answer.json["errors"]


def problem_ids(answer) -> list[str]:
    return [p["id"] for p in answer.json["problems"]]


def test_case_19_through_the_api_alone_gives_the_engines_game(db_client):
    """Four players, each entering their own kingdom a row at a time, checked
    by the next, locked by the host: the saved game is case 19's sheet."""
    table = start(db_client)
    code, host = table["code"], table["host_token"]
    assert table["url"] == f"http://localhost/t/{code}" and len(code) == 6
    tokens = sit(db_client, code.lower()[:3] + "-" + code[3:])  # however the code is typed
    for number, (player, token) in enumerate(zip(PLAYERS, tokens, strict=True), start=1):
        cells: list[list] = [[None] * 4 for _ in range(4)]
        for r, row in enumerate(player["kingdom"]):
            cells[r] = list(row)
            answer = db_client.put(f"/api/tables/{code}/seats/{number}", json={"kingdom": cells}, headers=auth(token))
            assert answer.status_code == 200 and answer.json["cards_entered"] == 4 * (r + 1)
        seat = enter(db_client, code, number, token, player).json
        expected = FOUR["expected"]["players"][number - 1]
        # the points so far of a whole kingdom are its sheet column
        assert seat["rows"] == expected["categories"] and seat["total"] == expected["total"]
        assert seat["done"] and seat["checked_by"] is None and seat["state"] == "done"
        # sent as 4 rows of 4 (as the API always took), answered as 16 cells row by row
        assert seat["kingdom"] == [card for row in player["kingdom"] for card in row]
    for number in range(1, 5):
        checker = number % 4 + 1
        answer = check(db_client, code, number, tokens[checker - 1])
        assert answer.status_code == 200 and answer.json["checked_by"] == checker and answer.json["state"] == "checked"
    locked = db_client.post(f"/api/tables/{code}/lock", headers=auth(host))
    assert locked.status_code == 200
    game_url = locked.json["game_url"]
    assert locked.json["edit_url"].startswith(game_url + "/")
    # locking again gives the same game and the same private link
    assert db_client.post(f"/api/tables/{code}/lock", headers=auth(host)).json == locked.json
    saved = db_client.get(game_url.removeprefix("http://localhost") + ".json").json
    assert saved["players"] == PLAYERS and saved["ruleset"] == "pocket" and saved["date"] == "2026-11-30"
    scored = db_client.post("/api/score", json=saved).json["players"]
    sheet = score_game(Game.from_dict(FOUR["game"]))
    for result, player, expected in zip(sheet.results, scored, FOUR["expected"]["players"], strict=True):
        assert player["categories"] == {row.value: value for row, value in result.rows.items()}
        assert (player["total"], player["place"]) == (result.total, result.place)
        assert (player["total"], player["place"]) == (expected["total"], expected["place"])
    page = BeautifulSoup(db_client.get(game_url.removeprefix("http://localhost")).text, "lxml")
    assert [int(td["data-value"]) for td in page.select("#row-total td")] == [r.total for r in sheet.results]
    state = db_client.get(f"/api/tables/{code}").json
    assert state["locked"] and state["game_url"] == game_url and "edit_url" not in state
    assert db_client.get(f"/api/tables/{code}", headers=auth(host)).json["edit_url"] == locked.json["edit_url"]
    with db_client.application.app_context():
        assert db.session.scalar(select(func.count()).select_from(SavedGame)) == 1


def test_the_host_puts_the_locked_game_in_a_group(db_client):
    table = start(db_client, checks=False)
    code, host = table["code"], table["host_token"]
    tokens = sit(db_client, code, PLAYERS[:2])
    for number, token in enumerate(tokens, start=1):
        enter(db_client, code, number, token, PLAYERS[number - 1])
    with db_client.application.app_context():
        group, invite = create_group("Thursday club")
        group_id = group.public_id
    for wrong in ({"group": group_id, "invite": "x"}, {"group": "nope", "invite": invite}):
        answer = db_client.post(f"/api/tables/{code}/lock", json=wrong, headers=auth(host))
        assert problem_ids(answer) == ["group-unknown"] and answer.status_code == 400
    answer = db_client.post(f"/api/tables/{code}/lock", json={"group": group_id, "invite": invite}, headers=auth(host))
    assert answer.status_code == 200
    with db_client.application.app_context():
        saved = db.session.scalar(select(SavedGame))
        assert saved.group_id == find_group(group_id).id


def test_the_state_has_every_seat_and_an_etag_answered_with_304(db_client):
    table = start(db_client)
    code = table["code"]
    tokens = sit(db_client, code, PLAYERS[:2])
    first = db_client.get(f"/api/tables/{code}")
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache, private"
    assert "Authorization" in first.headers["Vary"]
    state = first.json
    assert {k: state[k] for k in ("code", "ruleset", "locked", "checks_required", "played_on")} == {
        "code": code,
        "ruleset": "pocket",
        "locked": False,
        "checks_required": True,
        "played_on": "2026-11-30",
    }
    assert "game_url" not in state and state["you"] == {"host": False, "seats": []}
    assert [(s["seat"], s["name"], s["cards_entered"], s["done"], s["checked_by"]) for s in state["seats"]] == [
        (1, "Ada", 0, False, None),
        (2, "Bo", 0, False, None),
    ]
    etag = first.headers["ETag"]
    again = db_client.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == etag
    # found by Schemathesis: an empty tag among those sent ("", which Werkzeug reads as None) was a 500
    assert db_client.get(f"/api/tables/{code}", headers={"If-None-Match": 'W/"x", "", W/""'}).status_code == 200
    assert db_client.get(f"/api/tables/{code}", headers={"If-None-Match": f'"", {etag}'}).status_code == 304
    # compressed, the ETag names the encoding too; sent back, it is the same state
    zipped = db_client.get(f"/api/tables/{code}", headers={"Accept-Encoding": "gzip"})
    if zipped.headers.get("Content-Encoding") == "gzip":
        assert zipped.headers["ETag"] == etag[:-1] + ':gzip"'
        same = db_client.get(f"/api/tables/{code}", headers={"If-None-Match": zipped.headers["ETag"]})
        assert same.status_code == 304 and same.headers["ETag"] == zipped.headers["ETag"]
    # a seat's view says whose it is, under another ETag
    mine = db_client.get(f"/api/tables/{code}", headers=auth(tokens[1]) | {"If-None-Match": etag})
    assert mine.status_code == 200 and mine.json["you"] == {"host": False, "seats": [2]}
    hosts = db_client.get(f"/api/tables/{code}", headers=auth(table["host_token"])).json
    assert hosts["you"] == {"host": True, "seats": []}
    # a change on one phone is a new ETag for every other
    db_client.put(f"/api/tables/{code}/seats/1", json={"kingdom": ["forest"] + [None] * 15}, headers=auth(tokens[0]))
    changed = db_client.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    ada = changed.json["seats"][0]
    assert ada["cards_entered"] == 1 and ada["kingdom"] == ["forest"] + [None] * 15 and ada["state"] == "entering"
    assert ada["rows"]["elves"] == 0 and ada["total"] == 0


def test_joining_refuses_taken_names_a_full_table_and_a_locked_one(db_client):
    table = start(db_client, checks=False)
    code, host = table["code"], table["host_token"]
    tokens = sit(db_client, code)
    (taken,) = refused(db_client.post(f"/api/tables/{code}/seats", json={"name": " ada "}), 409)
    assert taken == "ada: the name is already used by Ada"
    (full,) = refused(db_client.post(f"/api/tables/{code}/seats", json={"name": "Eve"}), 409)
    assert full == "the table is full: a game has at most 4 players"
    other = start(db_client)["code"]
    assert refused(db_client.post(f"/api/tables/{other}/seats", json={"name": ""}), 400) == [
        "Player 1: the name is empty"
    ]
    assert problem_ids(db_client.post(f"/api/tables/{other}/seats", json={"name": "x" * 41})) == ["name-too-long"]
    refused(db_client.post(f"/api/tables/{other}/seats", data="Ada"), 400)
    refused(db_client.post(f"/api/tables/{other}/seats", json=["Ada"]), 400)
    for number, (player, token) in enumerate(zip(PLAYERS, tokens, strict=True), start=1):
        assert enter(db_client, code, number, token, player).status_code == 200
    assert db_client.post(f"/api/tables/{code}/lock", headers=auth(host)).status_code == 200
    two = start(db_client)["code"]
    sit(db_client, two, PLAYERS[:1])
    (locked,) = refused(db_client.post(f"/api/tables/{code}/seats", json={"name": "Eve"}), 409)
    assert locked == "the table is locked: it takes no more seats or changes"
    refused(enter(db_client, code, 1, tokens[0], PLAYERS[0], done=False), 409)


def test_the_host_adds_a_seat_and_fills_it_and_switches_checks_off(db_client):
    table = start(db_client)
    code, host = table["code"], table["host_token"]
    ada = sit(db_client, code, PLAYERS[:1])[0]
    added = db_client.post(f"/api/tables/{code}/seats", json={"name": "Bo"}, headers=auth(host))
    assert added.status_code == 201 and added.json["seat"] == 2
    assert enter(db_client, code, 2, host, PLAYERS[1]).status_code == 200  # from the host's phone
    # one seat a phone: a player's phone adds none (the host's adds seats for players without a phone)
    assert problem_ids(db_client.post(f"/api/tables/{code}/seats", json={"name": "Cy"}, headers=auth(ada))) == [
        "seat-already-held"
    ]
    assert added.json["seat_token"] == host  # the host's phone holds the seat it added
    assert enter(db_client, code, 1, ada, PLAYERS[0]).status_code == 200
    assert problem_ids(db_client.post(f"/api/tables/{code}/lock", headers=auth(host))) == ["lock-not-checked"] * 2
    refused(db_client.patch(f"/api/tables/{code}", json={"checks_required": False}, headers=auth(ada)), 403)
    refused(db_client.patch(f"/api/tables/{code}", json={"checks_required": "no"}, headers=auth(host)), 400)
    switched = db_client.patch(f"/api/tables/{code}", json={"checks_required": False}, headers=auth(host))
    assert switched.status_code == 200 and switched.json["checks_required"] is False
    assert db_client.post(f"/api/tables/{code}/lock", headers=auth(host)).status_code == 200


def test_only_a_seats_own_phone_or_the_host_changes_it(db_client):
    table = start(db_client)
    code = table["code"]
    ada, bo = sit(db_client, code, PLAYERS[:2])
    body = {"kingdom": PLAYERS[0]["kingdom"]}
    for headers in ({}, auth(bo), auth("x" * 32), {"Authorization": ada}, {"Authorization": f"Basic {ada}"}):
        (error,) = refused(db_client.put(f"/api/tables/{code}/seats/1", json=body, headers=headers), 403)
        assert error == "only the seat's own phone or the host can change seat 1"
    refused(db_client.put(f"/api/tables/{code}/seats/3", json=body, headers=auth(ada)), 404)
    refused(db_client.put(f"/api/tables/{code}/seats/0", json=body, headers=auth(ada)), 404)
    assert db_client.get(f"/api/tables/{code}").json["seats"][0]["cards_entered"] == 0


def test_bad_drafts_get_400_naming_the_cell(db_client):
    code = start(db_client)["code"]
    (ada,) = sit(db_client, code, PLAYERS[:1])
    kingdom = copy.deepcopy(PLAYERS[0]["kingdom"])
    kingdom[1][2] = "unicorn"
    answer = db_client.put(f"/api/tables/{code}/seats/1", json={"kingdom": kingdom}, headers=auth(ada))
    assert refused(answer, 400) == ["Ada, row 2, column 3: 'unicorn' is not one of the ten card ids"]
    assert answer.json["problems"] == [{"id": "card-unknown", "seat": 1, "cell": 6}]
    for body, ids in (
        ({"kingdom": [[None] * 4] * 3}, ["kingdom-rows"]),
        ({"kingdom": "forest"}, ["kingdom-not-list"]),
        ({"legends": ["nope"]}, ["legend-unknown"]),
        ({"legends": {"a": 1}}, ["legends-not-list"]),
        ({"done": "yes"}, ["done-not-boolean"]),
        ({"done": True}, ["kingdom-not-complete"]),
    ):
        answer = db_client.put(f"/api/tables/{code}/seats/1", json=body, headers=auth(ada))
        refused(answer, 400)
        assert problem_ids(answer) == ids, body


def test_checks_and_reports_come_from_another_seat(db_client):
    table = start(db_client)
    code, host = table["code"], table["host_token"]
    ada, bo = sit(db_client, code, PLAYERS[:2])
    assert refused(check(db_client, code, 1, bo), 409) == ["Ada: the kingdom is not marked done yet"]
    enter(db_client, code, 1, ada, PLAYERS[0])
    assert refused(check(db_client, code, 1, ada), 409) == [
        "Ada: a kingdom is checked by another player, not by its owner"
    ]
    refused(check(db_client, code, 1, host), 403)
    refused(check(db_client, code, 1, None), 403)
    # a check says what it looked at: without it, or of another kingdom, it is refused
    assert problem_ids(db_client.post(f"/api/tables/{code}/seats/1/check", headers=auth(bo))) == ["shown-not-object"]
    other = {"kingdom": PLAYERS[1]["kingdom"], "legends": []}
    answer = db_client.post(f"/api/tables/{code}/seats/1/check", json={"seen": other}, headers=auth(bo))
    assert refused(answer, 409) and problem_ids(answer) == ["check-kingdom-changed"]
    looked = seen(db_client, code, 1)
    for cell in (16, "r2c3"):
        body = {"cell": cell, "seen": looked}
        refused(db_client.post(f"/api/tables/{code}/seats/1/wrong", json=body, headers=auth(bo)), 400)
    body = {"cell": 6, "seen": looked}
    reported = db_client.post(f"/api/tables/{code}/seats/1/wrong", json=body, headers=auth(bo))
    assert reported.status_code == 200
    assert (reported.json["wrong_cell"], reported.json["wrong_by"], reported.json["done"]) == (6, 2, False)
    assert reported.json["state"] == "wrong" and reported.json["kingdom"] == looked["kingdom"]
    mine = db_client.get(f"/api/tables/{code}", headers=auth(ada)).json["seats"][0]
    assert mine["wrong_cell"] == 6  # the owner's phone shows it at its next poll
    enter(db_client, code, 1, ada, PLAYERS[0])
    checked = check(db_client, code, 1, bo)
    assert checked.status_code == 200 and checked.json["checked_by"] == 2 and checked.json["wrong_cell"] is None


def test_lock_answers_409_with_every_reason_and_only_to_the_host(db_client):
    table = start(db_client)
    code, host = table["code"], table["host_token"]
    tokens = sit(db_client, code, PLAYERS[:3])
    enter(db_client, code, 1, tokens[0], PLAYERS[0])
    # Cy claims Ada's Legend: both see it before the end (R6.1)
    cy = dict(PLAYERS[2], legends=["tribes-humans"])
    enter(db_client, code, 3, tokens[2], cy)
    seats = db_client.get(f"/api/tables/{code}").json["seats"]
    assert seats[0]["legend_clashes"] == [{"legend": "tribes-humans", "seats": [3]}]
    assert seats[2]["legend_clashes"] == [{"legend": "tribes-humans", "seats": [1]}]
    refused(db_client.post(f"/api/tables/{code}/lock", headers=auth(tokens[0])), 403)
    refused(db_client.post(f"/api/tables/{code}/lock"), 403)
    answer = db_client.post(f"/api/tables/{code}/lock", headers=auth(host))
    assert refused(answer, 409) == [
        "Ada: the kingdom has not been checked by another player yet",
        "Bo: the kingdom is not marked done yet",
        "Cy: the kingdom has not been checked by another player yet",
    ]
    db_client.patch(f"/api/tables/{code}", json={"checks_required": False}, headers=auth(host))
    enter(db_client, code, 2, tokens[1], PLAYERS[1])
    answer = db_client.post(f"/api/tables/{code}/lock", headers=auth(host))
    assert refused(answer, 409) == [
        "Cy: the Legend “Tribe of Humans” is already claimed by Ada; a Legend belongs to one player"
    ]
    enter(db_client, code, 3, tokens[2], PLAYERS[2])
    assert db_client.post(f"/api/tables/{code}/lock", headers=auth(host)).status_code == 200


def test_play_again_opens_the_same_seats_for_the_same_phones(db_client):
    table = start(db_client, checks=False)
    code, host = table["code"], table["host_token"]
    tokens = sit(db_client, code, PLAYERS[:2])
    refused(db_client.post(f"/api/tables/{code}/again", headers=auth(host)), 409)
    for number, token in enumerate(tokens, start=1):
        enter(db_client, code, number, token, PLAYERS[number - 1])
    db_client.post(f"/api/tables/{code}/lock", headers=auth(host))
    refused(db_client.post(f"/api/tables/{code}/again", headers=auth(tokens[0])), 403)
    again = db_client.post(f"/api/tables/{code}/again", headers=auth(host))
    assert again.status_code == 201 and again.json["code"] != code
    assert db_client.post(f"/api/tables/{code}/again", headers=auth(host)).json == again.json
    assert db_client.get(f"/api/tables/{code}").json["next_code"] == again.json["code"]
    fresh = db_client.get(f"/api/tables/{again.json['code']}", headers=auth(tokens[1])).json
    assert [s["name"] for s in fresh["seats"]] == ["Ada", "Bo"] and fresh["you"]["seats"] == [2]
    assert enter(db_client, again.json["code"], 2, tokens[1], PLAYERS[1]).status_code == 200


def test_start_refuses_bad_input_and_unknown_codes_are_404(db_client):
    assert problem_ids(db_client.post("/api/tables", json={"ruleset": "deluxe"})) == ["ruleset-unknown"]
    assert refused(db_client.post("/api/tables", json={"played_on": "30.11.2026"}), 400) == [
        "date '30.11.2026' is not a date like 2026-11-30"
    ]
    refused(db_client.post("/api/tables", json={"played_on": 20261130}), 400)
    refused(db_client.post("/api/tables", json={"checks": "yes"}), 400)
    for ruleset in (0, False, []):  # found by Schemathesis: read as pocket
        assert problem_ids(db_client.post("/api/tables", json={"ruleset": ruleset})) == ["ruleset-unknown"]
    refused(db_client.post("/api/tables", data="{", content_type="application/json"), 400)
    refused(db_client.post("/api/tables", data="[" * 100_000, content_type="application/json"), 400)
    classic = db_client.post("/api/tables", json={"ruleset": "classic"})
    assert classic.status_code == 201
    assert db_client.get(f"/api/tables/{classic.json['code']}").json["ruleset"] == "classic"
    for code in ("AAAAAA", "aaaaa", "ABC0EF", "x" * 300, "%00"):
        assert refused(db_client.get(f"/api/tables/{code}"), 404) == [
            "no open table has this code; check it with the host"
        ]
        refused(db_client.post(f"/api/tables/{code}/seats", json={"name": "Ada"}), 404)


def test_messages_are_in_the_requests_language(db_client):
    code = start(db_client)["code"]
    sit(db_client, code, PLAYERS[:1])
    german = {"Accept-Language": "de"}
    (taken,) = refused(db_client.post(f"/api/tables/{code}/seats", json={"name": "ADA"}, headers=german), 409)
    assert taken == "ADA: der Name wird schon von Ada verwendet"
    (missing,) = refused(db_client.get("/api/tables/AAAAAA", headers=german), 404)
    assert missing.startswith("kein offener Tisch")


ODD_BODIES = [None, 5, "x", [], {}, {"kingdom": None}, {"kingdom": [[{}] * 4] * 4}, {"legends": [None]}, {"cell": []}]


@pytest.mark.parametrize("body", ODD_BODIES, ids=[json.dumps(b)[:20] for b in ODD_BODIES])
def test_odd_bodies_never_get_a_5xx(client, body):
    table = start(client)
    code, host = table["code"], table["host_token"]
    (ada,) = sit(client, code, PLAYERS[:1])
    for method, path, token in (
        ("post", "/api/tables", None),
        ("patch", f"/api/tables/{code}", host),
        ("post", f"/api/tables/{code}/seats", None),
        ("put", f"/api/tables/{code}/seats/1", ada),
        ("post", f"/api/tables/{code}/seats/1/check", ada),
        ("post", f"/api/tables/{code}/seats/1/wrong", host),
        ("post", f"/api/tables/{code}/lock", host),
        ("post", f"/api/tables/{code}/again", host),
    ):
        answer = getattr(client, method)(path, json=body, headers=auth(token) if token else {})
        assert answer.status_code < 500 and answer.is_json, (method, path, answer.status_code)


def test_rate_limits_on_starting_joining_and_wrong_codes(tmp_path):
    app = make_test_app(
        tmp_path,
        TABLE_RATE_LIMIT="3 per minute",
        JOIN_RATE_LIMIT="2 per minute",
        WRONG_CODE_RATE_LIMIT="3 per minute",
    )
    client = app.test_client()
    statuses = [client.post("/api/tables", json={}).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    too_many = client.post("/api/tables", json={})
    assert too_many.json["errors"] == ["Too many tries from your address in a short time. Try again in a minute."]
    # in the shape of every other refusal of the tables API (it had no "problems")
    assert too_many.json["problems"] == [{"id": "too-many-requests", "seat": None, "cell": None}]
    other = app.test_client()
    with app.app_context():
        code = service.start("pocket", date(2026, 11, 30))[0].code
    joins = [client.post(f"/api/tables/{code}/seats", json={"name": n}).status_code for n in ("A", "B", "C")]
    assert joins == [201, 201, 429]
    # a right code costs nothing; wrong codes cost like failed logins, then every code is refused a while
    for _ in range(5):
        assert client.get(f"/api/tables/{code}").status_code == 200
    wrong = [client.get("/api/tables/AAAAAA").status_code for _ in range(4)]
    assert wrong == [404, 404, 404, 429]
    assert client.get(f"/api/tables/{code}").status_code == 429
    assert other.get(f"/api/tables/{code}", environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 200


def test_the_wrong_code_refusal_says_how_long_the_window_still_runs(tmp_path):
    """Found by a fresh tester: the page said "Try again in a minute" while the hourly
    window kept the address out for 55 minutes (Retry-After: 3320)."""
    app = make_test_app(tmp_path, WRONG_CODE_RATE_LIMIT="2 per hour")
    client = app.test_client()
    assert [client.get(f"/t/{code}").status_code for code in ("ZZZZZ2", "ZZZZZ3")] == [404, 404]
    page = client.get("/t/ZZZZZ4")
    assert page.status_code == 429 and 3500 <= int(page.headers["Retry-After"]) <= 3600
    assert re.search(r"Try again in (59|60) minutes\.", page.get_data(as_text=True))
    api = client.get("/api/tables/ZZZZZ6")
    assert api.status_code == 429 and re.search(r"Try again in (59|60) minutes\.", api.json["errors"][0])
    german = client.get("/t/ZZZZZ5?lang=de").get_data(as_text=True)
    assert re.search(r"Versuch es in (59|60) Minuten wieder\.", german)


def test_a_check_racing_a_change_of_the_kingdom_never_checks_what_the_checker_did_not_see(db_client):
    """Found under attack: an API check carried nothing of what it looked at, and marked as
    checked a kingdom changed after the checker looked (16 of 30 races). Now a check says
    what it saw; run against changes from another thread, every check that lands is of
    the kingdom it saw, and every other is refused as changed."""
    import threading

    table = start(db_client)
    code = table["code"]
    ada, bo = sit(db_client, code, PLAYERS[:2])
    enter(db_client, code, 1, ada, PLAYERS[0])
    other = PLAYERS[1]["kingdom"]
    outcomes: list[tuple[int, dict, dict]] = []
    for race in range(12):
        looked = seen(db_client, code, 1)
        kingdom = other if race % 2 else PLAYERS[0]["kingdom"]
        change = threading.Thread(
            target=lambda k=kingdom: enter(
                db_client.application.test_client(), code, 1, ada, dict(PLAYERS[0], kingdom=k)
            )
        )
        change.start()
        checked = db_client.application.test_client().post(
            f"/api/tables/{code}/seats/1/check", json={"seen": looked}, headers=auth(bo)
        )
        change.join()
        outcomes.append((checked.status_code, looked, checked.json))
    for status, looked, answer in outcomes:
        if status == 200:
            assert answer["kingdom"] == looked["kingdom"] and answer["checked_by"] == 2
        else:
            assert status == 409 and answer["problems"][0]["id"] in ("check-kingdom-changed", "check-not-done")
    final = db_client.get(f"/api/tables/{code}").json["seats"][0]
    assert final["checked_by"] is None or final["kingdom"] in (other, PLAYERS[0]["kingdom"])


def test_secrets_are_192_random_bits_kept_as_sha256_and_the_api_reads_no_cookie(database_url):
    """README: secrets go in ``Authorization: Bearer <token>``; they are 192 random bits,
    stored only as SHA-256; the API reads no cookie, so it needs no CSRF token. A phone
    that sat down or started the table through the pages holds its secret in a cookie:
    the API does not take it for the phone's (the cookie is for the pages only)."""
    app = app_on(database_url)  # CSRF on, as in production
    program = app.test_client()
    table = start(program)  # no CSRF token: none is needed
    code, host = table["code"], table["host_token"]
    [ada] = sit(program, code, PLAYERS[:1])
    assert host != ada and all(len(base64.urlsafe_b64decode(token)) * 8 == 192 for token in (host, ada))
    with app.app_context():
        [stored] = db.session.execute(text("SELECT * FROM tables")).all()
        [seat] = db.session.execute(text("SELECT * FROM table_seats")).all()
    assert stored.host_token_hash == hashlib.sha256(host.encode()).hexdigest()
    assert seat.token_hash == hashlib.sha256(ada.encode()).hexdigest()
    assert not any(secret in str(value) for secret in (host, ada) for row in (stored, seat) for value in row)

    phone = app.test_client()  # Bo sits down through the pages (a form, with its CSRF token)
    csrf = BeautifulSoup(phone.get(f"/t/{code}").text, "lxml").select_one("input[name=csrf_token]")["value"]
    assert phone.post(f"/t/{code}/seats", data={"name": "Bo", "csrf_token": csrf}).status_code == 303
    assert phone.get_cookie(f"sk_table_{code}") is not None
    body = {"kingdom": PLAYERS[1]["kingdom"]}
    refused(phone.put(f"/api/tables/{code}/seats/2", json=body), 403)  # the cookie alone: nobody
    assert program.get(f"/api/tables/{code}").json["seats"][1]["cards_entered"] == 0
    secret = BeautifulSoup(phone.get(f"/t/{code}/seat/2").text, "lxml").find(id="seat-form")["data-secret"]
    assert phone.put(f"/api/tables/{code}/seats/2", json=body, headers=auth(secret)).status_code == 200

    host_phone = app.test_client()  # a table started on the home page: the host's secret in a cookie
    csrf = BeautifulSoup(host_phone.get("/").text, "lxml").select_one("#start-table input[name=csrf_token]")["value"]
    started = host_phone.post("/tables", data={"played_on": "2026-11-30", "csrf_token": csrf})
    assert started.status_code == 303
    own = started.headers["Location"].rsplit("/", 1)[1]
    refused(host_phone.patch(f"/api/tables/{own}", json={"checks_required": False}), 403)
    refused(host_phone.post(f"/api/tables/{own}/lock"), 403)
    assert program.get(f"/api/tables/{own}").json["checks_required"] is True
    assert program.get(f"/api/tables/{own}").json["you"] == {"host": False, "seats": []}
