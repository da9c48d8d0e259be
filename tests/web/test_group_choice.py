"""Where a game lands (issue 33): the save form's default group, the group a table is
locked into (any group a seated phone offers), a locked game added to a seated phone's
own group, a saved game moved between two groups of one phone, and a sheet saved by
another group's phone, which never links into that group."""

from __future__ import annotations

import json
from pathlib import Path

from bs4 import BeautifulSoup

from tests.conftest import form_data
from tests.web.test_table_pages import seat_fields, start_table

CASE19 = json.loads((Path(__file__).parents[1] / "data" / "cases" / "19-four-players.json").read_text())
PLAYERS = CASE19["game"]["players"]


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "lxml")


def sheet_of(phone, players: list[dict], played_on: str = "2026-11-28") -> str:
    """The sheet link's path of a game scored on *phone*."""
    answer = phone.post("/", data=form_data({"ruleset": "pocket", "players": players}) | {"played_on": played_on})
    assert answer.status_code == 303
    return answer.headers["Location"]


def save(phone, players: list[dict], played_on: str = "2026-11-28", **choice) -> str:
    """Save a game scored on *phone*: the saved game's path."""
    token = sheet_of(phone, players, played_on).removeprefix("/sheet/")
    answer = phone.post("/games", data={"token": token, **choice})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    return answer.headers["Location"]


def checked_group(phone, sheet: str) -> str:
    return soup(phone.get(sheet)).select_one("#group-choice input[name=group]:checked")["value"]


def locked_table(app, host, phones: list, players: list[dict]) -> str:
    """A table whose seats *phones* took (the host first) and filled, checks off, not locked yet."""
    code = start_table(host)
    for number, (phone, player) in enumerate(zip(phones, players, strict=True), start=1):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
        assert phone.post(f"/t/{code}/seat/{number}", data=seat_fields(player)).status_code == 303
    host.post(f"/t/{code}/host", data={"action": "checks-off"})
    return code


def test_a_phone_whose_only_group_came_from_add_it_to_my_history_saves_there_by_default(app, client):
    """Measured: a phone whose only group came from a locked table's "Add it to my History"
    was offered "A new group" pre-selected on its next save; a tap without reading started
    another group. The group it joined is pre-selected now."""
    bo = app.test_client()
    code = locked_table(app, client, [client, bo], PLAYERS[:2])
    assert client.post(f"/t/{code}/host", data={"action": "lock", "group_name": "Tuesdays"}).status_code == 303
    assert bo.post(f"/t/{code}/group").status_code == 303
    sheet = sheet_of(bo, PLAYERS[:2], "2026-12-01")
    [tuesdays] = [i["value"] for i in soup(bo.get(sheet)).select("#group-choice input[name=group]") if i["value"] != "new"]
    assert checked_group(bo, sheet) == tuesdays
    save(bo, PLAYERS[:2], "2026-12-01")  # the form as shown, sent
    assert len(soup(bo.get("/groups")).select("#groups a")) == 1  # no second group
