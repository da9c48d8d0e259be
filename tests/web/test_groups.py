"""Groups over HTTP (issue 12, items 4 and 5): each phone sees its groups' games only,
the invite link adds a group to another phone, the roster's renames and merges carry
the stats. Each test client is one phone (its own cookies). SQLite and PostgreSQL.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from bs4 import BeautifulSoup
from itsdangerous import URLSafeSerializer

from scorekeeper import create_app
from scorekeeper.web.membership import COOKIE
from tests.conftest import CASE_FILES, app_on, form_data, load_case, run_cli, saved_links

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))  # Ada, Bo, Cy, Di: Di wins


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def game_of(*names: str) -> dict:
    game = copy.deepcopy(FOUR["game"])
    for player, name in zip(game["players"], names, strict=False):
        player["name"] = name
    return game


def sheet_token(phone, game: dict, played_on: str = "2026-11-28") -> str:
    response = phone.post("/", data=form_data(game) | {"played_on": played_on})
    assert response.status_code == 303
    return response.headers["Location"].removeprefix("/sheet/")


def save(phone, game: dict, played_on: str = "2026-11-28", **choice) -> str:
    """Save *game* from *phone*; the read-only path."""
    response = phone.post("/games", data={"token": sheet_token(phone, game, played_on), **choice})
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    assert re.fullmatch(r"/g/[\w-]+", response.headers["Location"]), response.headers["Location"]
    return response.headers["Location"]  # saving lands on the read-only page


def history_ids(phone, query: str = "") -> list[str]:
    return [li["data-id"] for li in soup_of(phone.get(f"/games{query}")).select("#history li.game")]


def group_paths(phone) -> list[str]:
    return [a["href"] for a in soup_of(phone.get("/groups")).select("#groups a")]


def invite_link(phone, group_path: str) -> str:
    page = phone.get(group_path)
    assert page.status_code == 200
    return soup_of(page).select_one("#invite-link")["value"]


def stat(phone, name: str, row: str, **query) -> str | None:
    page = phone.get("/player", query_string={"name": name, **query})
    if page.status_code == 404:
        return None
    return soup_of(page).select_one(f"#stat-{row} td").get_text()


@pytest.fixture
def phones(db_app):
    return db_app.test_client(), db_app.test_client(), db_app.test_client()


def test_two_groups_never_see_each_others_games(phones):
    rin_a, rin_b, stranger = phones
    a1 = save(rin_a, game_of("Rin", "Quin", "Mads", "Yara"), group_name="Tuesday club")
    a2 = save(rin_a, game_of("Rin", "Quin", "Mads", "Yara"), "2026-11-29")
    b1 = save(rin_b, game_of("Rin", "Lea", "Tom", "Ivo"), group_name="Family")
    ids = lambda paths: [p.removeprefix("/g/") for p in paths]  # noqa: E731

    assert history_ids(rin_a) == ids([a2, a1])
    assert history_ids(rin_b) == ids([b1])
    assert history_ids(rin_a, "?player=Rin") == ids([a2, a1])
    # "Rin" of each group is their own player: two games here, one there
    assert stat(rin_a, "Rin", "games") == "2" and stat(rin_b, "Rin", "games") == "1"
    assert stat(rin_a, "Lea", "games") is None

    for phone, mine in ((rin_a, {*ids([a1, a2])}), (rin_b, {*ids([b1])})):
        exported = phone.get("/games.json").get_json()["games"]
        assert len(exported) == len(mine)
        rows = list(csv.DictReader(io.StringIO(phone.get("/games.csv").get_data(as_text=True).lstrip("\ufeff"))))
        assert len(rows) == 4 * len(mine)

    # a phone in no group sees no one's games, and is told how to join
    page = stranger.get("/games")
    assert page.status_code == 200
    soup = soup_of(page)
    assert soup.select("#history li") == [] and soup.select_one("#no-group") is not None
    assert soup.select_one("#how-to-join") is not None
    assert stranger.get("/games.json").get_json() == {"games": []}
    assert stat(stranger, "Rin", "games") is None
    # ... but a saved game's own link shows it to anyone, without its group's player links
    shown = stranger.get(a1)
    assert shown.status_code == 200 and soup_of(shown).select_one("#player-links") is None
    assert soup_of(rin_a.get(a1)).select_one("#player-links") is not None


def test_the_invite_link_adds_the_group_to_another_phone(phones):
    ana, bo, _ = phones
    first = save(ana, game_of("Ana", "Bo", "Cy", "Di"), group_name="Spieleabend")
    [group_path] = group_paths(ana)
    link = invite_link(ana, group_path)
    page = ana.get(group_path)
    assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
    assert soup_of(page).select_one("#invite img")["src"].endswith("/invite-qr.svg")
    qr = ana.get(f"{group_path}/invite-qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and qr.headers["Cache-Control"] == "no-store"

    # before: the group's page is a 404 to Bo, like one that does not exist
    assert bo.get(group_path).status_code == 404 and bo.get(f"{group_path}/invite-qr.svg").status_code == 404
    path = link.removeprefix("http://localhost")
    wrong = path[:-1] + ("x" if not path.endswith("x") else "y")
    assert bo.get(wrong).status_code == 404 and history_ids(bo) == []

    joined = bo.get(path)
    assert joined.status_code == 303 and joined.headers["Location"] == group_path
    assert joined.headers["Referrer-Policy"] == "no-referrer"
    cookie = bo.get_cookie(COOKIE)
    assert cookie.http_only and cookie.same_site == "Lax"
    assert history_ids(bo) == [first.removeprefix("/g/")]

    # Bo's next save offers the group, Bo's only one, first (issue 33: never "A new group" to a
    # phone in a group); saved there, Ana sees it too
    token = sheet_token(bo, game_of("Ana", "Bo", "Cy", "Di"), "2026-11-30")
    choice = soup_of(bo.get(f"/sheet/{token}")).select("#group-choice input[name=group]")
    assert [(i["value"], i.has_attr("checked")) for i in choice] == [
        (group_path.removeprefix("/groups/"), True),
        ("new", False),
    ]
    second = save(bo, game_of("Ana", "Bo", "Cy", "Di"), "2026-11-30", group=group_path.removeprefix("/groups/"))
    assert history_ids(ana) == [second.removeprefix("/g/"), first.removeprefix("/g/")]


def test_a_forged_or_foreign_cookie_opens_nothing(phones):
    ana, mallory, _ = phones
    save(ana, game_of("Ana", "Bo", "Cy", "Di"))
    [group_path] = group_paths(ana)
    public_id = group_path.removeprefix("/groups/")
    mallory.set_cookie(COOKIE, json.dumps([[public_id, "guess"]]))
    assert history_ids(mallory) == [] and mallory.get(group_path).status_code == 404
    # a cookie signed by another server (another secret key) is refused as well
    other = create_app(
        {"TESTING": True, "SECRET_KEY": "other", "MIGRATE": False, "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    with other.test_request_context():
        from itsdangerous import URLSafeSerializer

        mallory.set_cookie(COOKIE, URLSafeSerializer("other", salt="scorekeeper-groups").dumps([[public_id, "x"]]))
    assert history_ids(mallory) == []


def test_saving_into_a_new_group_or_a_chosen_one(phones):
    phone, _, _ = phones
    save(phone, game_of("Ana", "Bo"), "2026-11-01", group_name="Club")
    save(phone, game_of("Ana", "Bo"), "2026-11-02", group="new", group_name="  Family\u00a0 Night ")
    names = [a.get_text() for a in soup_of(phone.get("/groups")).select("#groups a")]
    assert names == ["Family Night", "Club"]  # the one used last first, its name in one form
    club = group_paths(phone)[1].removeprefix("/groups/")
    save(phone, game_of("Ana", "Bo"), "2026-11-03", group=club)
    assert [a.get_text() for a in soup_of(phone.get("/groups")).select("#groups a")] == ["Club", "Family Night"]

    # a group this phone is not in: the sheet again, with what was typed and why
    token = sheet_token(phone, game_of("Ana", "Bo"))
    refused = phone.post("/games", data={"token": token, "group": "not-mine", "location": "Café", "notes": "n"})
    assert refused.status_code == 422
    soup = soup_of(refused)
    assert "this phone is not in that group" in soup.select_one("#save-errors").get_text()
    assert soup.select_one("#location")["value"] == "Café"
    too_long = phone.post("/games", data={"token": token, "group": "new", "group_name": "x" * 61})
    assert too_long.status_code == 422
    assert soup_of(too_long).select_one("#group-name")["value"] == "x" * 61
    assert soup_of(too_long).select_one("#group-name-errors") is not None


def test_the_form_offers_the_roster_names(phones):
    phone, other, _ = phones
    save(phone, game_of("Mia Sophie", "Rin", "Quin", "Yara"))
    save(phone, game_of("Mia\u00a0 Sophie", "rin ", "Quin", "Yara"), "2026-11-29")  # the same four people
    form = soup_of(phone.get("/"))
    assert form.select_one("#players-0-name")["list"] == "roster"
    assert sorted(o["value"] for o in form.select("datalist#roster option")) == ["Mia Sophie", "Quin", "Rin", "Yara"]
    assert soup_of(other.get("/")).select_one("datalist#roster") is None  # no group, no names
    [group_path] = group_paths(phone)
    rows = soup_of(phone.get(group_path)).select("#roster .roster li")
    roster = {li.select_one(".player-name").get_text(): li.select_one(".games").get_text() for li in rows}
    assert roster == {"Mia Sophie": "2 games", "Quin": "2 games", "Rin": "2 games", "Yara": "2 games"}


def test_the_roster_is_one_player_per_name_and_flags_a_name_drawn_alike(phones):
    """Issue 33: "D'Arcy" and "D’Arcy" are one player; "Аda" (a Cyrillic А) beside "Ada" is flagged."""
    phone, _, _ = phones
    save(phone, game_of("D'Arcy", "Ada", "Quin", "Yara"))
    save(phone, game_of("D\u2019Arcy", "\u0410da", "Quin", "Yara"), "2026-11-29")
    [group_path] = group_paths(phone)
    rows = soup_of(phone.get(group_path)).select("#roster .roster li")
    flags = {
        li.select_one(".player-name").get_text(): (li.select_one(".games").get_text(), li.select_one(".lookalike"))
        for li in rows
    }
    assert {name: games for name, (games, _) in flags.items()} == {
        "D'Arcy": "2 games",
        "Ada": "1 game",
        "\u0410da": "1 game",
        "Quin": "2 games",
        "Yara": "2 games",
    }
    assert flags["Ada"][1].get_text(" ", strip=True).startswith("Looks just like \u0410da but is typed with a letter")
    assert flags["\u0410da"][1].get_text(" ", strip=True).startswith("Looks just like Ada")
    assert [name for name, (_, flag) in flags.items() if flag is not None] == ["Ada", "\u0410da"]


def roster_ids(phone, group_path: str) -> dict[str, int]:
    rows = soup_of(phone.get(group_path)).select("#roster .roster li")
    return {row.select_one(".player-name").get_text(): int(row["id"].removeprefix("player-")) for row in rows}


def test_a_rename_and_a_merge_carry_the_stats(phones):
    phone, _, _ = phones
    first = save(phone, game_of("Ana", "Bo", "Cy", "Di"))
    save(phone, game_of("Anna", "Bo", "Cy", "Di"), "2026-11-29")
    save(phone, game_of("Dee", "Bo", "Cy", "Ana"), "2026-11-30")  # Ana in seat 4: she wins (Di's kingdom)
    [group_path] = group_paths(phone)
    ids = roster_ids(phone, group_path)
    assert stat(phone, "Ana", "games") == "2" and stat(phone, "Anna", "games") == "1"

    merged = phone.post(f"{group_path}/players/merge", data={"source": ids["Ana"], "target": ids["Anna"]})
    assert merged.status_code == 303
    assert stat(phone, "Anna", "games") == "3" and stat(phone, "Anna", "wins") == "1"
    assert stat(phone, "Ana", "games") is None
    assert set(roster_ids(phone, group_path)) == {"Anna", "Bo", "Cy", "Di", "Dee"}

    renamed = phone.post(f"{group_path}/players/{ids['Anna']}/rename", data={"name": "Anna K."})
    assert renamed.status_code == 303
    assert stat(phone, "Anna K.", "games") == "3" and stat(phone, "Anna", "games") is None
    assert "Anna K." in soup_of(phone.get("/games")).select_one("#history").get_text()
    # the saved game itself keeps what was typed
    assert soup_of(phone.get(first)).select_one("th.player-name a").get_text() == "Ana"
    assert phone.get(f"{first}.json").get_json()["players"][0]["name"] == "Ana"

    # a rename onto a name on the roster is refused (merge instead); so is merging two who played together
    phone.post(f"{group_path}/players/{ids['Bo']}/rename", data={"name": " cy "})
    assert "already on the roster" in soup_of(phone.get(group_path)).select_one("#flash").get_text()
    phone.post(f"{group_path}/players/merge", data={"source": ids["Bo"], "target": ids["Cy"]})
    assert "same game" in soup_of(phone.get(group_path)).select_one("#flash").get_text()
    assert stat(phone, "Bo", "games") == "3" and stat(phone, "Cy", "games") == "3"


def test_roster_forms_need_membership_and_a_csrf_token(database_url):
    app = app_on(database_url)
    phone, stranger = app.test_client(), app.test_client()
    form = soup_of(phone.get("/"))
    data = form_data(game_of("Ana", "Bo")) | {"csrf_token": form.select_one("input[name=csrf_token]")["value"]}
    sheet = phone.post("/", data=data | {"played_on": "2026-11-28"})
    page = soup_of(phone.get(sheet.headers["Location"]))
    token = page.select_one("#save-game input[name=token]")["value"]
    csrf = page.select_one("#save-game input[name=csrf_token]")["value"]
    assert phone.post("/games", data={"token": token, "csrf_token": csrf}).status_code == 303
    [group_path] = group_paths(phone)
    ids = roster_ids(phone, group_path)
    assert phone.post(f"{group_path}/players/{ids['Ana']}/rename", data={"name": "Anna"}).status_code == 400
    csrf = soup_of(phone.get(group_path)).select_one("#merge input[name=csrf_token]")["value"]
    assert stranger.post(
        f"{group_path}/players/{ids['Ana']}/rename", data={"name": "Anna", "csrf_token": csrf}
    ).status_code in (400, 404)
    assert (
        phone.post(f"{group_path}/players/{ids['Ana']}/rename", data={"name": "Anna", "csrf_token": csrf}).status_code
        == 303
    )
    assert set(roster_ids(phone, group_path)) == {"Anna", "Bo", "Cy", "Di"}


def test_open_history_shows_every_game_to_everyone(database_url):
    app = app_on(database_url, WTF_CSRF_ENABLED=False, OPEN_HISTORY="true")  # as SCOREKEEPER_OPEN_HISTORY=true
    family, guest = app.test_client(), app.test_client()
    public = save(family, game_of("Ana", "Bo"))
    assert history_ids(guest) == [public.removeprefix("/g/")]
    assert stat(guest, "Ana", "games") == "1" and len(guest.get("/games.json").get_json()["games"]) == 1


def test_leaving_a_group_takes_its_games_off_this_phone(phones):
    phone, _, _ = phones
    save(phone, game_of("Ana", "Bo"))
    [group_path] = group_paths(phone)
    assert phone.post(f"{group_path}/leave").status_code == 303
    assert history_ids(phone) == [] and group_paths(phone) == []


def test_cli_lists_groups_and_issues_the_first_invite_link(database_url, db_app, tmp_path):
    env = {"SCOREKEEPER_DATABASE_URL": database_url, "SCOREKEEPER_MIGRATE": "false"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(FOUR["game"]), encoding="utf-8")
    imported = run_cli(["import", str(path)], env=env)
    assert imported.exit_code == 0, imported.output
    assert "group: Imported from old.json" in imported.output

    listed = run_cli(["groups"], env=env)  # listed without the app's address, the link not issued yet
    assert listed.exit_code == 0 and "invite link: none yet (give --base-url URL" in listed.output
    refused = run_cli(["groups", "--new-link", re.search(r"\(id (\S+),", listed.output)[1]], env=env)
    assert refused.exit_code == 2 and "--base-url" in refused.output
    listed = run_cli(["groups", "--base-url", "http://localhost/"], env=env)
    assert listed.exit_code == 0, listed.output
    assert "Imported from old.json  (id " in listed.output and "1 game, 4 players" in listed.output
    link = re.search(r"invite link: (http://localhost/join/\S+)", listed.output)[1]
    again = run_cli(["groups"], env=env)  # the link is issued once; no URL needed now
    assert again.exit_code == 0 and "--new-link" in again.output

    phone = db_app.test_client()
    assert phone.get(link.removeprefix("http://localhost")).status_code == 303
    assert len(history_ids(phone)) == 1


def test_a_group_page_with_a_long_roster_stays_under_the_page_budget(db_app, phones):
    phone, _, _ = phones
    save(phone, game_of("Ana", "Bo", "Cy", "Di"))
    [group_path] = group_paths(phone)
    with db_app.app_context():
        from scorekeeper.store import db
        from scorekeeper.store.games import roster_player
        from scorekeeper.store.groups import find_group

        group = find_group(group_path.removeprefix("/groups/"))
        for number in range(60):
            roster_player(group, f"Spielerin Nummer {number:02d} mit langem Namen")
        db.session.commit()
    for path in (group_path, "/games", "/"):
        page = phone.get(path, headers={"Accept-Encoding": "br"})
        assert page.status_code == 200 and page.headers["Content-Encoding"] == "br"
        assert len(page.data) < 20 * 1024, (path, len(page.data))
    assert len(soup_of(phone.get(group_path)).select("#roster .roster li")) == 64


def test_an_invite_link_does_not_choose_where_the_next_game_goes(phones):
    ana, bo, _ = phones
    save(ana, game_of("Ana", "Bo"), group_name="Ana's")
    save(bo, game_of("Ana", "Bo"), "2026-11-29", group_name="Bo's")
    [ana_group] = group_paths(ana)
    [bo_group] = group_paths(bo)
    assert ana.get(invite_link(bo, bo_group).removeprefix("http://localhost")).status_code == 303
    token = sheet_token(ana, game_of("Ana", "Bo"), "2026-11-30")
    choice = soup_of(ana.get(f"/sheet/{token}")).select("#group-choice input[name=group]")
    assert [(i["value"], i.has_attr("checked")) for i in choice] == [
        (ana_group.removeprefix("/groups/"), True),  # still the group this phone saved in last
        (bo_group.removeprefix("/groups/"), False),
        ("new", False),
    ]


def test_a_phone_whose_only_group_came_from_a_link_is_offered_it_never_a_new_group(phones, db_app):
    """README: the save form never offers "A new group" first to a phone in a group: a tap
    without reading would start another (issue 33, item 4; before, a group a link added was
    never chosen, issue 24, item 2). A group this phone chose itself still comes first."""
    ana, bo, _ = phones
    save(ana, game_of("Ana", "Bo"), group_name="Ana's")
    [ana_group] = group_paths(ana)
    assert bo.get(invite_link(ana, ana_group).removeprefix("http://localhost")).status_code == 303
    assert group_paths(bo) == [ana_group]
    token = sheet_token(bo, game_of("Bo", "Cy", "Ed", "Flo"), "2026-11-30")
    choice = soup_of(bo.get(f"/sheet/{token}")).select("#group-choice input[name=group]")
    assert [(i["value"], i.has_attr("checked")) for i in choice] == [
        (ana_group.removeprefix("/groups/"), True),
        ("new", False),
    ]
    # a save without a choice (a client of its own) goes where the form would have sent it
    saved = bo.post("/games", data={"token": token})
    assert saved.status_code == 303
    assert group_paths(bo) == [ana_group]
    assert "Flo" in soup_of(ana.get("/games")).get_text()
    # a group Bo's phone makes itself comes first from then on, before the link's
    save(bo, game_of("Bo", "Ana", "Ed", "Flo"), "2026-12-01", group="new", group_name="Bo's")
    token = sheet_token(bo, game_of("Bo", "Ana", "Ed", "Flo"), "2026-12-02")
    checked = soup_of(bo.get(f"/sheet/{token}")).select_one("#group-choice input[name=group]:checked")
    assert checked["value"] == group_paths(bo)[0].removeprefix("/groups/") != ana_group.removeprefix("/groups/")


def test_groups_of_a_cookie_from_before_the_mark_are_not_chosen(phones, db_app):
    """A cookie written before groups were marked as chosen ([id, secret] pairs) cannot say
    which group the phone chose and which a link added: none is chosen, and the form offers
    the group joined last, never "A new group" (issue 33)."""
    ana, bo, _ = phones
    save(ana, game_of("Ana", "Bo"), group_name="Ana's")
    serializer = URLSafeSerializer(db_app.secret_key, salt="scorekeeper-groups")
    entries = serializer.loads(ana.get_cookie("groups").value)
    assert [len(entry) for entry in entries] == [3]  # [id, secret, 1]: chosen by this phone
    bo.set_cookie("groups", serializer.dumps([entry[:2] for entry in entries]))
    token = sheet_token(bo, game_of("Bo", "Cy", "Ed", "Flo"), "2026-11-30")
    checked = soup_of(bo.get(f"/sheet/{token}")).select_one("#group-choice input[name=group]:checked")
    assert checked["value"] == entries[0][0]


def test_a_group_is_renamed_for_all_its_members(phones):
    ana, bo, _ = phones
    save(ana, game_of("Ana", "Bo"), group_name="Our games")
    [group_path] = group_paths(ana)
    bo.get(invite_link(ana, group_path).removeprefix("http://localhost"))
    assert ana.post(f"{group_path}/rename", data={"name": " Dienstags\u00a0runde "}).status_code == 303
    assert soup_of(bo.get(group_path)).select_one("#group-name").get_text() == "Dienstags runde"
    ana.post(f"{group_path}/rename", data={"name": "\u200b"})
    page = soup_of(ana.get(group_path))
    assert "needs a name" in page.select_one("#flash").get_text()
    assert page.select_one("#group-name").get_text() == "Dienstags runde"


def test_a_first_save_left_unnamed_starts_a_group_called_our_games(phones):
    """README: the first save on a phone starts a group; left empty it is called "Our games"."""
    phone, _, _ = phones
    token = sheet_token(phone, game_of("Ana", "Bo"))
    form = soup_of(phone.get(f"/sheet/{token}"))
    assert [i["value"] for i in form.select("#group-choice input[name=group]")] == ["new"]  # no group yet: a new one
    assert form.select_one("#group-name")["placeholder"] == "Our games"
    assert phone.post("/games", data={"token": token, "group": "new", "group_name": " \u200b "}).status_code == 303
    assert [a.get_text() for a in soup_of(phone.get("/groups")).select("#groups a")] == ["Our games"]


def test_a_sheet_saved_by_another_groups_phone_never_links_there_and_is_saved_into_ones_own(phones):
    """Measured (issue 33): a phone without cookies that scored a game already saved by
    another group's phone got "Already saved: open it", a link into that other group, and
    no way to save the game into its own. README: a sheet is saved once per group; a phone
    of another group (or of none) is offered the save form, and saves a copy of its own."""
    ana, bo, stranger = phones
    game = game_of("Ana", "Bo", "Cy", "Di")
    token = sheet_token(ana, game)
    first = ana.post("/games", data={"token": token, "group_name": "Ana's"}).headers["Location"]
    for phone in (stranger, bo):
        page = soup_of(phone.get(f"/sheet/{token}"))
        assert page.select_one("#already-saved") is None and page.select_one("form#save-game")
        assert first not in str(page)  # no link into Ana's group
    save(bo, game_of("Eve", "Flo"), group_name="Bo's")  # Bo's phone is in a group of its own
    [bo_group] = group_paths(bo)
    again = bo.post("/games", data={"token": token, "group": bo_group.removeprefix("/groups/")})
    copy = again.headers["Location"]
    assert again.status_code == 303 and copy != first
    assert soup_of(bo.get(copy)).select_one("#edit") is not None  # Bo's own game, Bo corrects it
    assert copy.removeprefix("/g/") in history_ids(bo) and first.removeprefix("/g/") not in history_ids(bo)
    assert history_ids(ana) == [first.removeprefix("/g/")]
    # each group's phone is now told its own game is saved, and linked to it
    for phone, own in ((bo, copy), (ana, first)):
        assert soup_of(phone.get(f"/sheet/{token}")).select_one("#already-saved a")["href"] == own
    # the stranger (no cookies) saves into a new group of its own
    saved = stranger.post("/games", data={"token": token, "group": "new"}).headers["Location"]
    assert saved not in (first, copy) and soup_of(stranger.get(saved)).select_one("#edit") is not None


def test_a_rematch_link_carries_no_group_and_its_phone_saves_in_the_same_group(phones):
    """README: a rematch's save form offers first the group this phone saved in last; the
    link itself carries no group (it may be passed on to anyone)."""
    ana, stranger, _ = phones
    save(ana, game_of("Ana", "Bo"), group_name="Tuesdays")
    save(ana, game_of("Ana", "Bo"), "2026-11-29", group="new", group_name="Fridays")
    public = save(ana, game_of("Ana", "Bo"), "2026-11-30", group=group_paths(ana)[1].removeprefix("/groups/"))
    tuesdays = group_paths(ana)[0].removeprefix("/groups/")  # the group saved in last comes first
    rematch = soup_of(ana.get(public)).select_one("#rematch")["href"]
    query = parse_qs(urlsplit(rematch).query)
    assert set(query) <= {"name", "ruleset"} and query["name"] == ["Ana", "Bo", "Cy", "Di"] and tuesdays not in rematch
    game = game_of("Ana", "Bo")
    token = sheet_token(ana, game, "2026-12-01")
    checked = soup_of(ana.get(f"/sheet/{token}")).select_one("#group-choice input[name=group]:checked")
    assert checked["value"] == tuesdays
    token = sheet_token(stranger, game, "2026-12-02")  # the link passed on: nobody's group
    offered = soup_of(stranger.get(f"/sheet/{token}")).select("#group-choice input[name=group]")
    assert [i["value"] for i in offered] == ["new"]


def test_two_groups_never_see_each_others_notes(phones):
    """README: two groups never see each other's games, notes included (History,
    stats, both exports)."""
    rin_a, rin_b, _ = phones
    save(rin_a, game_of("Rin", "Quin"), group_name="A")
    token = sheet_token(rin_b, game_of("Rin", "Lea"), "2026-11-29")
    saved = rin_b.post("/games", data={"token": token, "group_name": "B", "notes": "Zebrafinch rematch"})
    assert saved.status_code == 303
    assert "Zebrafinch" in rin_b.get("/games.json").get_data(as_text=True)  # the note is exported to its group
    for path in ("/games", "/games?player=Rin", "/player?name=Rin", "/games.json", "/games.csv"):
        assert "Zebrafinch" not in rin_a.get(path).get_data(as_text=True), path


def test_leaving_a_group_and_opening_its_invite_link_brings_it_back(phones):
    """README: "Leave this group" takes it off the phone; the invite link brings it back."""
    ana, bo, _ = phones
    public = save(ana, game_of("Ana", "Bo"))
    [group_path] = group_paths(ana)
    link = invite_link(ana, group_path).removeprefix("http://localhost")
    assert bo.get(link).status_code == 303 and history_ids(bo) == [public.removeprefix("/g/")]
    assert bo.post(f"{group_path}/leave").status_code == 303
    assert history_ids(bo) == [] and group_paths(bo) == [] and bo.get(group_path).status_code == 404
    assert bo.get(link).status_code == 303
    assert history_ids(bo) == [public.removeprefix("/g/")] and group_paths(bo) == [group_path]


def test_a_visitor_without_a_group_link_gets_a_saved_game_by_its_link_and_empty_exports(phones):
    """README: a visitor in no group sees the new-game form and any sheet, a saved game's
    read-only page and its exports when they have its link, without the links to its
    players' stats; player stats are a 404 and the exports are empty."""
    ana, stranger, _ = phones
    game = game_of("Ana", "Bo", "Cy", "Di")
    token = sheet_token(ana, game)
    assert stranger.get("/").status_code == 200 and stranger.get(f"/sheet/{token}").status_code == 200
    public = save(ana, game)
    page = stranger.get(public)
    assert page.status_code == 200 and soup_of(page).select_one("#player-links") is None
    assert not soup_of(page).select("a[href^='/player']")
    exported = stranger.get(f"{public}.json")
    assert exported.status_code == 200 and [p["name"] for p in exported.get_json()["players"]] == [
        "Ana",
        "Bo",
        "Cy",
        "Di",
    ]
    rows = list(csv.DictReader(io.StringIO(stranger.get(f"{public}.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert len(rows) == 4
    assert stranger.get("/player", query_string={"name": "Ana"}).status_code == 404
    assert stranger.get("/games.json").get_json() == {"games": []}
    assert list(csv.DictReader(io.StringIO(stranger.get("/games.csv").get_data(as_text=True).lstrip("\ufeff")))) == []


@pytest.mark.pdf
def test_a_visitor_without_a_group_link_gets_a_saved_games_pdf_by_its_link(phones):
    ana, stranger, _ = phones
    public = save(ana, game_of("Ana", "Bo"))
    pdf = stranger.get(f"{public}.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")


def test_a_groups_page_is_the_same_404_to_a_stranger_as_a_group_that_does_not_exist(phones):
    """README: a group's page is a 404 to anyone not in the group, exactly like a group
    that does not exist (nothing tells a guesser that the id is a group's)."""
    ana, stranger, _ = phones
    save(ana, game_of("Ana", "Bo"))
    [group_path] = group_paths(ana)
    public_id = group_path.removeprefix("/groups/")
    missing = "Zz" + public_id[2:] if not public_id.startswith("Zz") else "Yy" + public_id[2:]
    for suffix in ("", "/invite-qr.svg"):
        real, none = stranger.get(group_path + suffix), stranger.get(f"/groups/{missing}{suffix}")
        assert real.status_code == none.status_code == 404
        assert real.get_data(as_text=True).replace(public_id, missing) == none.get_data(as_text=True)
        assert sorted((k, v) for k, v in real.headers if k != "Content-Length") == sorted(
            (k, v) for k, v in none.headers if k != "Content-Length"
        )


def test_a_phone_belongs_to_at_most_20_groups(phones, db_app):
    """README: the ``groups`` cookie holds at most 20 groups; the group the phone chose
    itself stays, and a group just added by a link is among them."""
    phone, _, _ = phones
    save(phone, game_of("Ana", "Bo"), group_name="Home")
    with db_app.app_context():
        from scorekeeper.store.groups import create_group

        links = [(group.public_id, secret) for group, secret in (create_group(f"Club {n}") for n in range(25))]
    for public_id, secret in links:
        assert phone.get(f"/join/{public_id}/{secret}").status_code == 303
    paths = group_paths(phone)
    assert len(paths) == 20 and paths[0] != f"/groups/{links[0][0]}"
    names = [a.get_text() for a in soup_of(phone.get("/groups")).select("#groups a")]
    assert "Home" in names and "Club 24" in names
    serializer = URLSafeSerializer(db_app.secret_key, salt="scorekeeper-groups")
    assert len(serializer.loads(phone.get_cookie(COOKIE).value)) == 20


def test_only_the_sha256_of_an_invite_secret_is_stored(phones, db_app):
    """README: the cookie holds the groups' invite secrets; the server keeps only their SHA-256."""
    phone, _, _ = phones
    save(phone, game_of("Ana", "Bo"))
    [group_path] = group_paths(phone)
    secret = invite_link(phone, group_path).rsplit("/", 1)[1]
    serializer = URLSafeSerializer(db_app.secret_key, salt="scorekeeper-groups")
    assert [entry[1] for entry in serializer.loads(phone.get_cookie(COOKIE).value)] == [secret]
    with db_app.app_context():
        from sqlalchemy import text

        from scorekeeper.store import db

        rows = db.session.execute(text("SELECT * FROM groups")).all()
    assert [row.invite_hash for row in rows] == [hashlib.sha256(secret.encode()).hexdigest()]
    assert not any(secret in str(value) for row in rows for value in row)


def test_a_new_invite_link_locks_out_phones_that_joined_with_the_old_one(database_url, db_app):
    """README: ``scorekeeper groups --new-link <id>`` replaces a group's invite link: phones
    that joined with the old link must open the new one; the members' page shows the new link."""
    ana, bo = db_app.test_client(), db_app.test_client()
    public = save(ana, game_of("Ana", "Bo"))
    [group_path] = group_paths(ana)
    old = invite_link(ana, group_path).removeprefix("http://localhost")
    assert bo.get(old).status_code == 303 and history_ids(bo) == [public.removeprefix("/g/")]
    env = {"SCOREKEEPER_DATABASE_URL": database_url, "SCOREKEEPER_MIGRATE": "false"}
    replaced = run_cli(
        ["groups", "--new-link", group_path.removeprefix("/groups/"), "--base-url", "http://localhost/"], env=env
    )
    assert replaced.exit_code == 0, replaced.output
    new = re.search(r"invite link: http://localhost(/join/\S+)", replaced.output)[1]
    assert new != old
    assert history_ids(bo) == [] and bo.get(group_path).status_code == 404  # the old link's phones are out
    assert history_ids(ana) == []  # the saving phone joined with the old secret too
    assert db_app.test_client().get(old).status_code == 404
    assert bo.get(new).status_code == 303 and history_ids(bo) == [public.removeprefix("/g/")]
    assert invite_link(bo, group_path).removeprefix("http://localhost") == new


def test_a_roster_player_left_without_games_has_no_link_to_a_stats_page(phones):
    """Bo corrected to Bob: the roster keeps Bo (0 games: the form still offers the name)
    as plain text, with no link to a stats page that would say "Not found"; every
    player link left on the group's page (roster and standing) opens stats."""
    phone, _, _ = phones
    response = phone.post("/games", data={"token": sheet_token(phone, game_of("Ada", "Bo", "Cy", "Di"))})
    _public, private = saved_links(phone, response)
    corrected = phone.post(f"{private}/edit", data=form_data(game_of("Ada", "Bob", "Cy", "Di")) | {"based_on": 1})
    assert corrected.status_code == 303
    [group_path] = group_paths(phone)
    page = soup_of(phone.get(group_path))
    bo = next(row for row in page.select("#roster .roster li") if row.select_one(".player-name").get_text() == "Bo")
    assert bo.select_one(".games").get_text() == "0 games" and bo.select_one("a.player-name") is None
    assert stat(phone, "Bo", "games", group=group_path.rsplit("/", 1)[1]) is None  # what the link opened: Not found
    links = [a["href"] for a in page.select("a[href^='/player']")]
    named = {parse_qs(urlsplit(link).query)["name"][0] for link in links}
    assert named == {"Ada", "Bob", "Cy", "Di"}  # the roster's four with games, the standing's four
    assert len(links) == 8
    assert all(phone.get(link).status_code == 200 for link in links)
