"""A group's evening on one screen (issue 34, part 2): tables started from the group's page
belong to it (their game goes there at the lock, nothing asked), and the group's "tonight"
page shows them all, read-only and secret-free, to its members and to whoever holds its
screen link (until revoked). Each test client is one phone (its own cookies)."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from bs4 import BeautifulSoup
from sqlalchemy import distinct, func, select

from scorekeeper.store.db import db
from scorekeeper.store.models import Group, RatingSnapshot, SavedGame
from scorekeeper.store.standing import ALL_TIME
from scorekeeper.table import events, service
from tests.web.test_groups import FOUR, game_of, group_paths, invite_link, save
from tests.web.test_table_pages import seat_fields

PLAYERS = FOUR["game"]["players"]


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def club(app):
    """A host phone in two groups, "Club" and "Family", the latter chosen last (a save's choice)."""
    host = app.test_client()
    save(host, game_of("Ada", "Bo", "Cy", "Di"), group="new", group_name="Club")
    save(host, game_of("Eve", "Fay", "Gus", "Hal"), group="new", group_name="Family")
    paths = {soup(host.get(path)).find(id="group-name").get_text(): path for path in group_paths(host)}
    return host, paths["Club"], paths["Family"]


def start_from(phone, group_path: str) -> str:
    answer = phone.post(f"{group_path}/tables", data={"ruleset": "pocket", "played_on": "2026-11-30"})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    return answer.headers["Location"].rsplit("/", 1)[1]


def play(app, host, code: str) -> list:
    """Case 19's four players seated (the host first), checks off, every kingdom done."""
    phones = [host] + [app.test_client() for _ in PLAYERS[1:]]
    for phone, player in zip(phones, PLAYERS, strict=True):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
    assert host.post(f"/t/{code}/host", data={"action": "checks-off"}).status_code == 303
    for number, (phone, player) in enumerate(zip(phones, PLAYERS, strict=True), start=1):
        assert phone.post(f"/t/{code}/seat/{number}", data=seat_fields(player)).status_code == 303
    return phones


def secrets_of(phones, code: str) -> list[str]:
    kept = [phone.get_cookie(f"sk_table_{code}") for phone in phones]
    return [secret for cookie in kept if cookie for secret in cookie.value.split(".")]


def test_a_table_started_from_the_group_locks_into_it_without_asking(db_app):
    host, club_path, family_path = club(db_app)
    code = start_from(host, club_path)
    page = soup(host.get(f"/t/{code}"))
    assert "Club" in page.find(id="table-group").get_text()
    assert not page.select("#host [name=group]")  # no choice offered: the group is the table's
    play(db_app, host, code)
    # the host's last choice was "Family", and the lock's form even names it: the table's group wins
    family = family_path.rsplit("/", 1)[1]
    assert host.post(f"/t/{code}/host", data={"action": "lock", "group": family}).status_code == 303
    with db_app.app_context():
        table = service.read(code)
        game = db.session.scalar(db.select(SavedGame).where(SavedGame.public_id == table.game_id))
        groups = {row.id: row.name for row in db.session.execute(db.select(Group.id, Group.name))}
        assert groups.get(game.group_id) == "Club"  # not "Family", not outside every group
        assert table.group_id == game.group_id


def test_a_table_started_elsewhere_still_asks(db_app):
    host, club_path, family_path = club(db_app)
    code = host.post("/tables", data={"ruleset": "pocket", "played_on": "2026-11-30"}).headers["Location"][-6:]
    page = soup(host.get(f"/t/{code}"))
    assert page.find(id="table-group") is None and page.select("#host [name=group]")


def test_only_members_start_tables_from_a_group_and_open_its_tonight_page(db_app):
    host, club_path, _ = club(db_app)
    stranger = db_app.test_client()
    assert stranger.post(f"{club_path}/tables", data={"ruleset": "pocket"}).status_code == 404
    assert stranger.get(f"{club_path}/tonight").status_code == 404
    assert host.get(f"{club_path}/tonight").status_code == 200
    friend = db_app.test_client()
    assert friend.get(invite_link(host, club_path)).status_code == 303
    assert friend.get(f"{club_path}/tonight").status_code == 200


def screen_link(phone, group_path: str) -> str:
    """The group's screen link made anew on *phone* (a member's): its path."""
    answer = phone.post(f"{group_path}/screen-link")
    assert answer.status_code == 200
    made = soup(answer).find(id="screen-link")
    assert made is not None
    return urlsplit(made["value"]).path


def test_the_screen_link_opens_the_page_for_anyone_until_revoked_or_made_anew(db_app):
    host, club_path, _ = club(db_app)
    television = db_app.test_client()
    first = screen_link(host, club_path)
    assert first.startswith(f"{club_path}/screen/")
    assert soup(host.get(club_path)).find(id="screen-link") is None  # shown once: only its hash is kept
    answer = television.get(first)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    assert television.get(club_path).status_code == 404  # the link opens the evening, not the group
    assert television.get(first[:-1] + ("A" if first[-1] != "A" else "B")).status_code == 404
    second = screen_link(host, club_path)
    assert television.get(first).status_code == 404 and television.get(second).status_code == 200
    assert host.post(f"{club_path}/screen-link/revoke").status_code == 303
    assert television.get(second).status_code == 404
    assert db_app.test_client().post(f"{club_path}/screen-link").status_code == 404  # members only


def test_the_tonight_page_shows_the_evening_with_no_secret_and_nothing_to_change(db_app):
    host, club_path, _ = club(db_app)
    open_code = start_from(host, club_path)
    locked_code = start_from(host, club_path)
    phones = play(db_app, host, locked_code)
    assert host.post(f"/t/{locked_code}/host", data={"action": "lock"}).status_code == 303
    assert host.post(f"/t/{open_code}/seats", data={"name": "Ada"}).status_code == 303
    screen_path = screen_link(host, club_path)
    invite = invite_link(host, club_path)

    answers = [host.get(f"{club_path}/tonight"), db_app.test_client().get(screen_path)]
    for answer in answers:
        html = answer.get_data(as_text=True)
        page = soup(answer)
        assert not page.find_all(["form", "button", "input", "select", "textarea"])
        for secret in [*secrets_of(phones, open_code), *secrets_of(phones, locked_code)]:
            assert secret not in html
        assert invite.rsplit("/", 1)[1] not in html and screen_path.rsplit("/", 1)[1] not in html
        assert "csrf" not in html.lower()
        cards = page.select("#tonight-tables .tonight-table")
        assert [card["data-code"] for card in cards] == [open_code, locked_code]  # first started first
        # the open table: its join code and QR code, Ada's seat; the locked one: its winner
        assert cards[0].find(class_="tonight-code").get_text() == open_code
        assert cards[0].find("img")["src"] == f"/t/{open_code}/qr.svg"
        assert cards[0].select_one(".tonight-seat-name").get_text() == "Ada"
        assert cards[1].find(class_="tonight-join").has_attr("hidden")
        assert cards[1].find(class_="tonight-winner-names").get_text() == "Won by Di"
        # tonight's results: the game saved into Club from a sheet this evening, and the one just
        # locked (case 19 both times: Di 33, Cy 30, Bo 13, Ada 11), the season's rating beside
        assert page.find(id="tonight-games").get_text() == "2 games"
        rows = [[cell.get_text() for cell in row.find_all(["th", "td"])] for row in page.select("#tonight-players tr")]
        assert [row[:4] for row in rows] == [
            ["Di", "2", "2", "1 1"],
            ["Cy", "2", "0", "2 2"],
            ["Bo", "2", "0", "3 3"],
            ["Ada", "2", "0", "4 4"],
        ]
        assert all(row[4] != "–" for row in rows)  # rated (the tests' job queue runs at once)
        assert page.head.find("noscript").find("meta", attrs={"http-equiv": "refresh"})["content"] == "30"


def test_the_groups_room_gets_one_push_per_change_the_tables_own_and_the_evening_at_the_lock(db_app):
    host, club_path, _ = club(db_app)
    page = host.get(f"{club_path}/tonight")
    assert page.status_code == 200
    # the screen's stream, connected as tonight.js connects it: the page's ticket, what it shows
    auth = {"ticket": soup(page).find(id="tonight")["data-ticket"], "versions": {}, "games": 1}
    screen = db_app.extensions["socketio"].test_client(db_app, auth=auth)
    assert screen.is_connected() and screen.get_received() == []  # up to date: nothing sent
    code = start_from(host, club_path)
    phones = play(db_app, host, code)
    assert host.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    received = screen.get_received()
    assert all(event["name"] in ("table", "tonight") and len(event["args"]) == 1 for event in received)
    frames = [event["args"][0] for event in received if event["name"] == "table"]
    versions = [frame["version"] for frame in frames]
    assert versions == list(range(1, versions[-1] + 1))  # every change, once, in order
    assert "qr" in frames[0] and frames[0]["qr"].startswith("data:image/svg+xml;base64,")
    assert all("evening" not in frame for frame in frames[:-1])
    evening = frames[-1]["evening"]
    assert frames[-1]["locked"] and evening["games"] == 2 and evening["winners"] == {code: ["Di"]}
    # and the evening once more from the standing's job, once it has rated the lock's game (here at
    # once, the tests' queue being immediate): the catch-up's event, with no table in it
    (rated,) = [event["args"][0] for event in received if event["name"] == "tonight"]
    assert rated == {"tables": [], "evening": evening}
    assert all(player["rating"] is not None for player in evening["players"])
    wire = json.dumps([event["args"] for event in received])
    for secret in secrets_of(phones, code):
        assert secret not in wire


class StandingsPublished:
    """A publisher of the table's events that keeps each group whose standing is published, with
    the games its standing had rated then (all time), as another connection reads them: committed only."""

    def __init__(self) -> None:
        self.published: list[tuple[int, int]] = []

    def publish(self, table) -> None:
        pass

    def publish_standing(self, group_id: int) -> None:
        with db.engine.connect() as elsewhere:
            rated = elsewhere.scalar(
                select(func.count(distinct(RatingSnapshot.game_id))).where(
                    RatingSnapshot.group_id == group_id, RatingSnapshot.season == ALL_TIME
                )
            )
        self.published.append((group_id, rated))


def test_the_standings_job_publishes_its_group_once_after_its_commit_and_not_when_nothing_changed(db_app):
    host, club_path, _ = club(db_app)
    with db_app.app_context():
        club_id = db.session.scalar(select(Group.id).where(Group.public_id == club_path.rsplit("/", 1)[1]))
    code = start_from(host, club_path)
    play(db_app, host, code)
    recorder = StandingsPublished()
    replaced = events.set_publisher(recorder)
    try:
        assert host.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
        assert recorder.published == [(club_id, 2)]  # the lock's game rated, committed, then published
        db_app.extensions["jobs"].standing(club_id)  # asked again (the sweep, a retry): nothing to rate
        assert recorder.published == [(club_id, 2)]
    finally:
        assert events.set_publisher(replaced) is recorder
