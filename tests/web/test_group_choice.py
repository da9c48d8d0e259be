"""Where a game lands (issue 33): the save form's default group, the group a table is
locked into (any group a seated phone offers), a locked game added to a seated phone's
own group, a saved game moved between two groups of one phone, and a sheet saved by
another group's phone, which never links into that group."""

from __future__ import annotations

import json
from pathlib import Path

import sqlalchemy
from bs4 import BeautifulSoup

from scorekeeper.store.db import db
from scorekeeper.store.groups import find_group
from scorekeeper.store.models import HeadToHeadCount, SavedGame
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
    [tuesdays] = [
        i["value"] for i in soup(bo.get(sheet)).select("#group-choice input[name=group]") if i["value"] != "new"
    ]
    assert checked_group(bo, sheet) == tuesdays
    save(bo, PLAYERS[:2], "2026-12-01")  # the form as shown, sent
    assert len(soup(bo.get("/groups")).select("#groups a")) == 1  # no second group


def group_path(phone, name: str) -> str:
    """The address of *phone*'s group called *name*."""
    return next(a["href"] for a in soup(phone.get("/groups")).select("#groups a") if a.get_text() == name)


def standing_names(phone, path: str) -> list[str]:
    """The players of a group's standing, as its page lists them."""
    return sorted(
        tr.select_one("th, td").get_text(strip=True) for tr in soup(phone.get(path)).select("#standing-table tbody tr")
    )


def test_a_borrowed_hosts_phone_locks_the_table_into_the_group_a_seated_phone_offers(app, client):
    """Measured: the host's phone was lost; the host locked from a borrowed phone, which could
    only offer "Name of the new group", though a seated phone was in the players' group: the
    game landed in "Our games" and the group's standing lacked it. A seated phone offers its
    group now; the host's phone (and only it) is shown it, pre-selected, and locks into it."""
    bo, cy = app.test_client(), app.test_client()
    save(bo, PLAYERS[:2], group_name="Thursday club")  # Bo's phone: the players' group
    club = group_path(bo, "Thursday club")
    code = locked_table(app, client, [client, bo, cy], PLAYERS[:3])  # the host's phone: borrowed, in no group
    assert [i["value"] for i in soup(client.get(f"/t/{code}")).select("#group-choice input[name=group]")] == ["new"]
    assert soup(cy.get(f"/t/{code}")).select_one("#offer-form") is None  # Cy's phone has no group to offer
    offer = soup(bo.get(f"/t/{code}")).select_one("#offer-form button[name=group]")
    assert "Thursday club" in offer.get_text()
    stranger = app.test_client()
    save(stranger, PLAYERS[:2], "2026-11-20", group_name="Strangers")
    stranger_group = group_path(stranger, "Strangers").removeprefix("/groups/")
    assert stranger.post(f"/t/{code}/offer", data={"group": stranger_group}).status_code == 409  # not seated
    assert bo.post(f"/t/{code}/offer", data={"group": "not-bos"}).status_code == 403  # not Bo's group
    assert bo.post(f"/t/{code}/offer", data={"group": offer["value"]}).status_code == 303
    assert soup(bo.get(f"/t/{code}")).select_one("#offer-form .offered")  # Bo's phone sees its offer
    # nothing of the group is shown to a phone it was not offered to
    assert "Thursday club" not in cy.get(f"/t/{code}").get_data(as_text=True)
    assert "Thursday club" not in cy.get(f"/t/{code}/live").get_data(as_text=True)
    assert "Thursday club" not in app.test_client().get(f"/t/{code}/screen").get_data(as_text=True)
    host_page = soup(client.get(f"/t/{code}"))
    choice = host_page.select("#group-choice input[name=group]")
    assert [(i["value"], i.has_attr("checked")) for i in choice] == [(offer["value"], True), ("new", False)]
    assert "offered by Bo’s phone" in " ".join(
        host_page.select_one("#group-choice").get_text().replace("\u2068", "").replace("\u2069", "").split()
    )
    assert client.post(f"/t/{code}/host", data={"action": "lock", "group": offer["value"]}).status_code == 303
    # the game is in the club's history and standing, and no group was made
    assert len(soup(client.get("/groups")).select("#groups a")) == 0  # the borrowed phone joined nothing
    history = soup(bo.get("/games")).get_text()
    assert PLAYERS[2]["name"] in history
    assert standing_names(bo, club) == sorted(p["name"] for p in PLAYERS[:3])
    assert soup(client.get(f"/t/{code}")).select_one("#add-group")  # the borrowed phone may add it, if it likes


def test_after_the_lock_a_seated_phone_adds_the_game_to_its_own_group_in_one_tap(app, client):
    """Measured: a game locked into "Our games" on a borrowed phone could reach the players'
    group no way. Any seated phone in a group adds it there in one tap now: the group's
    history and standing hold it, once however often it is tapped; a stranger cannot."""
    bo = app.test_client()
    save(bo, PLAYERS[:2], group_name="Thursday club")
    club = group_path(bo, "Thursday club")
    code = locked_table(app, client, [client, bo], PLAYERS[:2])
    assert client.post(f"/t/{code}/host", data={"action": "lock", "group_name": "Our games"}).status_code == 303
    assert soup(client.get(f"/t/{code}")).select_one("#add-to-group-form") is None  # the host's group holds it
    button = soup(bo.get(f"/t/{code}")).select_one("#add-to-group-form button[name=group]")
    assert "Thursday club" in button.get_text()
    stranger = app.test_client()
    save(stranger, PLAYERS[:2], "2026-11-20", group_name="Strangers")
    theirs = group_path(stranger, "Strangers").removeprefix("/groups/")
    assert stranger.post(f"/t/{code}/add", data={"group": theirs}).status_code == 403
    games_before = len(soup(bo.get(club)).select("#standing-table tbody tr"))
    for _ in range(2):  # a double tap adds it once
        assert bo.post(f"/t/{code}/add", data={"group": button["value"]}).status_code == 303
    assert soup(bo.get(f"/t/{code}")).select_one("#add-to-group-form") is None  # nothing left to add to
    with app.app_context():
        group = find_group(club.removeprefix("/groups/"))
        count = db.session.scalar(sqlalchemy.select(sqlalchemy.func.count()).where(SavedGame.group_id == group.id))
    assert count == 2  # Bo's earlier game and the table's
    standing = soup(bo.get(club)).select("#standing-table tbody tr")
    assert games_before == 2 and [tr.select("td")[1].get_text(strip=True) for tr in standing] == ["2", "2"]
    # the copy is Bo's to correct; the host's group keeps the locked game
    copy = soup(bo.get("/games")).select_one("a[href^='/g/']")["href"]
    assert soup(bo.get(copy)).select_one("#edit") is not None
    assert PLAYERS[1]["name"] in soup(client.get("/games")).get_text()


def test_a_saved_game_moves_to_another_group_of_a_phone_in_both_and_both_standings_follow(app, client):
    """No way existed to move a saved game to another group. A phone in both groups moves it:
    it leaves one group's history and standing and joins the other's; a phone in one only cannot."""
    ours = save(client, PLAYERS[:3], group_name="Our games")
    save(client, PLAYERS[:2], "2026-11-29", group="new", group_name="Thursday club")
    our_group, club = group_path(client, "Our games"), group_path(client, "Thursday club")
    assert standing_names(client, our_group) == sorted(p["name"] for p in PLAYERS[:3])
    other = app.test_client()  # a phone in "Our games" only
    invite = soup(client.get(our_group)).select_one("#invite-link")
    assert other.get(invite.get("value") or invite.get("href")).status_code in (302, 303)
    assert soup(other.get(ours)).select_one("#move-game") is None
    club_id = club.removeprefix("/groups/")
    assert other.post(f"{ours}/group", data={"group": club_id}).status_code == 403
    form = soup(client.get(ours)).select_one("#move-game")
    assert [o["value"] for o in form.select("option")] == [club_id]
    assert client.post(f"{ours}/group", data={"group": club_id}).status_code == 303
    assert standing_names(client, our_group) == []  # its only game left
    assert standing_names(client, club) == sorted(p["name"] for p in PLAYERS[:3])
    with app.app_context():  # head to head follows: the games each ordered pair played, all time
        pairs = [
            db.session.scalar(
                sqlalchemy.select(sqlalchemy.func.coalesce(sqlalchemy.func.sum(HeadToHeadCount.games), 0)).where(
                    HeadToHeadCount.group_id == find_group(path.removeprefix("/groups/")).id,
                    HeadToHeadCount.season == 0,
                )
            )
            for path in (our_group, club)
        ]
    assert pairs == [0, 6 + 2]  # the club: the moved game's 6 ordered pairs of 3, and its own game's 2
    assert PLAYERS[2]["name"] not in soup(other.get("/games")).get_text()
    assert soup(client.get(ours)).select_one("#move-game option")["value"] == our_group.removeprefix("/groups/")


def test_an_offer_is_taken_back_and_a_locked_table_takes_none(app, client):
    """A seated phone takes its offer back ("Take back"): the host's page no longer lists it.
    Once the table is locked, an offer changes nothing: the page of the locked table."""
    bo = app.test_client()
    save(bo, PLAYERS[:2], group_name="Thursday club")
    code = locked_table(app, client, [client, bo], PLAYERS[:2])
    club = group_path(bo, "Thursday club").removeprefix("/groups/")
    assert bo.post(f"/t/{code}/offer", data={"group": club}).status_code == 303
    assert "Thursday club" in soup(client.get(f"/t/{code}")).select_one("#group-choice").get_text()
    assert bo.post(f"/t/{code}/offer", data={"withdraw": club}).status_code == 303
    assert soup(bo.get(f"/t/{code}")).select_one("#offer-form .offered") is None
    assert [i["value"] for i in soup(client.get(f"/t/{code}")).select("#group-choice input[name=group]")] == ["new"]
    assert client.post(f"/t/{code}/host", data={"action": "lock", "group": club}).status_code == 409  # not offered
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    late = bo.post(f"/t/{code}/offer", data={"group": club})
    assert late.status_code == 303 and late.headers["Location"] == f"/t/{code}"
