"""One game per save (issue 12, item 1): a double post, a retry, Back and save
again, or a second phone of the group saving the same sheet link gives the game
already saved, never a second one; on SQLite and PostgreSQL, one after the other
and at the same moment. (A phone of another group saves a copy of its own into
its own group: tests/web/test_group_choice.py.)

How "the same sheet" is recognised: by its key, the SHA-256 of the game (its
game file object) and the date played (``store.games.sheet_key``), stored
with the game, unique in its group. The sheet link itself is not the key: an old-format link
of the same game is the same sheet. A per-form nonce is not the key either (a
second person's form has another); it only decides who gets the private link
back: the same form sent again does, anyone else gets "Already saved".
"""

from __future__ import annotations

import threading
import time
from datetime import date

import sqlalchemy
from bs4 import BeautifulSoup
from flask_migrate import downgrade, upgrade

from scorekeeper.engine import Game
from scorekeeper.store import MIGRATIONS, db
from scorekeeper.store import games as store
from scorekeeper.store.models import SavedGame
from tests.conftest import CASE_FILES, form_data, load_case
from tests.web.test_links import CASE_19_VERSION_1

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
DAY = date(2026, 11, 30)


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def save_form(client, played_on: str = "2026-11-30") -> dict[str, str]:
    """The save form of a sheet as a browser would post it: its hidden fields, as shown."""
    sheet = client.post("/", data=form_data(FOUR["game"]) | {"played_on": played_on}).headers["Location"]
    form = soup_of(client.get(sheet)).select_one("form#save-game")
    return {field["name"]: field.get("value", "") for field in form.select("input[type=hidden]")}


def saved_games(client) -> list[dict]:
    return client.get("/games.json").get_json()["games"]


def private_link_shown(client, response) -> bool:
    """Whether the page a save lands on shows the private link (the one-time box)."""
    return soup_of(client.get(response.headers["Location"])).select_one("#private-link") is not None


def test_the_save_form_carries_the_sheet_key_and_a_one_time_attempt(db_client):
    first, second = save_form(db_client), save_form(db_client)
    expected = store.sheet_key(Game.from_dict(FOUR["game"]), DAY)
    assert first["save_key"] == second["save_key"] == expected  # the sheet's, for every visitor
    assert first["attempt"] != second["attempt"] and len(first["attempt"]) >= 16  # one per form shown


def test_the_same_form_posted_twice_stores_one_game_and_keeps_its_private_link(db_client):
    form = save_form(db_client)
    first = db_client.post("/games", data=form | {"location": "Café"})
    assert private_link_shown(db_client, first)
    again = db_client.post("/games", data=form | {"location": "Café"})  # a double tap, a retry
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert private_link_shown(db_client, again)  # its answer may be the only one the phone sees
    assert len(saved_games(db_client)) == 1


def test_back_and_save_again_or_a_second_phone_of_the_group_gets_the_game_already_saved(db_client):
    from tests.web.test_groups import group_paths, invite_link

    other = db_client.application.test_client()  # another phone with the same sheet link
    form, their_form, second_tab = save_form(db_client), save_form(other), save_form(db_client)  # all open at once
    public = db_client.post("/games", data=form).headers["Location"]
    [group_path] = group_paths(db_client)
    assert other.get(invite_link(db_client, group_path).removeprefix("http://localhost")).status_code == 303
    second = other.post("/games", data=their_form | {"notes": "ours"})
    assert second.status_code == 303 and second.headers["Location"] == public
    page = soup_of(other.get(public))
    assert "Already saved" in page.select_one("#flash").get_text()
    assert page.select_one("#private-link") is None and page.select_one("#edit") is None  # read-only for them
    sheet = soup_of(other.get("/sheet/" + form["token"]))  # reopening the sheet link says so at once
    assert sheet.select_one("form#save-game") is None
    assert sheet.select_one("#already-saved").get_text(" ", strip=True) == "Already saved: open it"
    assert sheet.select_one("#already-saved a")["href"] == public
    back = db_client.post("/games", data=second_tab)  # the saving phone, from another tab or after Back
    assert back.headers["Location"] == public and soup_of(db_client.get(public)).select_one("#edit")  # still its owner
    assert len(saved_games(db_client)) == 1 and saved_games(db_client)[0]["notes"] == ""


def test_an_old_format_link_of_the_same_game_is_the_same_sheet(db_client):
    public = db_client.post("/games", data=save_form(db_client)).headers["Location"]
    again = db_client.post("/games", data={"token": CASE_19_VERSION_1})  # the link written before November 2026
    assert again.headers["Location"] == public and len(saved_games(db_client)) == 1


def test_a_save_form_with_another_sheets_key_saves_nothing(db_client):
    form = save_form(db_client)
    response = db_client.post("/games", data=form | {"save_key": "0" * 64})
    assert response.status_code == 400 and saved_games(db_client) == []


def test_parallel_posts_of_the_same_form_store_one_game(db_app):
    """8 threads post the same save form at the same moment (a phone retrying
    while the first answer is slow): one game, and every answer is that game."""
    client = db_app.test_client()
    form = save_form(client)
    barrier = threading.Barrier(8)
    answers: list[str] = []
    failures: list[BaseException] = []

    def post() -> None:
        try:
            mine = db_app.test_client()
            barrier.wait()
            response = mine.post("/games", data=form)
            assert response.status_code == 303, response.status_code
            answers.append(response.headers["Location"])
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=post) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert len(set(answers)) == 1 and len(answers) == 8
    with db_app.app_context():
        assert db.session.scalar(sqlalchemy.select(sqlalchemy.func.count()).select_from(SavedGame)) == 1


def test_a_save_that_loses_the_race_at_the_database_gets_the_winners_game(db_app):
    """The unique key decides: one save has inserted its game but not committed
    yet; another save of the same sheet inserts too, waits for the first, gets
    the IntegrityError and answers the first one's game."""
    from scorekeeper.store.groups import create_group
    from scorekeeper.store.models import Group

    key = store.sheet_key(Game.from_dict(FOUR["game"]), DAY)
    inserted, committing = threading.Event(), threading.Event()
    winner: list[str] = []
    with db_app.app_context():
        group_id = create_group("Tuesdays")[0].id  # the key is unique in a group

    def first() -> None:
        with db_app.app_context():
            saved, _ = store.save_game(
                Game.from_dict(FOUR["game"]),
                store.Details(DAY),
                group=db.session.get(Group, group_id),
                commit=False,
                save_key=key,
                secret="a" * 32,
            )
            db.session.flush()  # the row is written and its key taken, not committed
            winner.append(saved.public_id)
            inserted.set()
            time.sleep(0.5)  # the second save reaches its INSERT meanwhile, and waits
            committing.set()  # before the commit: once it lands, the waiting save may run on at once
            db.session.commit()
            db.session.remove()

    thread = threading.Thread(target=first)
    thread.start()
    assert inserted.wait(10)
    with db_app.app_context():
        saved, stored_now = store.save_once(
            Game.from_dict(FOUR["game"]), store.Details(DAY), key, "b" * 32, group=db.session.get(Group, group_id)
        )
        assert committing.is_set()  # it waited for the first's commit (it cannot finish before it)
        assert not stored_now and saved.public_id == winner[0]
        assert store.may_edit(saved, "a" * 32) and not store.may_edit(saved, "b" * 32)
        assert db.session.scalar(sqlalchemy.select(sqlalchemy.func.count()).select_from(SavedGame)) == 1
    thread.join()


def test_the_migration_gives_games_saved_before_their_sheet_key(db_app):
    """Games saved before the key get it; of two copies of one sheet (saved twice
    before this fix) the first saved keeps it, the other keeps none."""
    four = Game.from_dict(FOUR["game"])
    with db_app.app_context():
        first, _ = store.save_game(four, store.Details(DAY))
        copy, _ = store.save_game(four, store.Details(DAY))
        other, _ = store.save_game(four, store.Details(date(2026, 12, 1)))
        ids = first.public_id, copy.public_id, other.public_id
        db.session.commit()  # PostgreSQL: no read of this session may hold the table while its schema changes
        downgrade(directory=str(MIGRATIONS), revision="5c4a9c93ab91")  # the schema before the key
        upgrade(directory=str(MIGRATIONS))
        db.session.expire_all()
        keys = [store.find_game(public_id).save_key for public_id in ids]
        assert keys == [store.sheet_key(four, DAY), None, store.sheet_key(four, date(2026, 12, 1))]
        assert all(len(store.find_game(public_id).revisions) == 1 for public_id in ids)  # nothing else touched
