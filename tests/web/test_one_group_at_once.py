"""Changes to one group at the same moment (issue 32, items 1 and 5): tables
locking into it, sheets saved into it, new players joining its roster, roster
players merged, each from its own phone (its own test client, its own thread
and database connection), all started together. None waits for a second
press: every answer is the one a change made alone gets (200, 303), never a
503 because another change of the group met it in the database (a deadlock
on PostgreSQL) nor a 500 because two added the same roster player at once.
SQLite and PostgreSQL.

The rule they hold (docs/architecture.md, "One group, one writer at a time"):
every transaction that writes into a group takes the group's lock first
(``store.db.lock_group``), before any row of the group is read to be changed.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import re
import threading
from collections.abc import Callable, Iterator
from datetime import date

from bs4 import BeautifulSoup
from sqlalchemy import Engine, event, func, select
from sqlalchemy.orm import Session

from scorekeeper.engine import Game
from scorekeeper.store import db
from scorekeeper.store import games as store
from scorekeeper.store.exchange import import_games
from scorekeeper.store.groups import create_group, find_group
from scorekeeper.store.models import Player, PlayerResult, SavedGame
from tests.conftest import CASE_FILES, form_data, load_case

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))  # Ada, Bo, Cy, Di
TWO = load_case(next(p for p in CASE_FILES if p.name.startswith("02-")))  # two players
PHONES = 4


def game_of(case: dict, *names: str) -> dict:
    game = copy.deepcopy(case["game"])
    for player, name in zip(game["players"], names, strict=True):
        player["name"] = name
    return game


def at_once(phones: int, press: Callable[[int], object]) -> list[object]:
    """*press(i)* for each phone i in 0..phones-1, each in its own thread, all
    released together; what each returned, in order (an exception fails the test)."""
    answers: list[object] = [None] * phones
    failures: list[BaseException] = []
    ready = threading.Barrier(phones)

    def run(i: int) -> None:
        try:
            ready.wait()
            answers[i] = press(i)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    return answers


def status_of(answers: list) -> list[int]:
    return [answer.status_code for answer in answers]


def roster_of(app, public_id: str) -> dict[str, int]:
    """The group's roster: name → games."""
    with app.app_context():
        group = find_group(public_id)
        assert group is not None
        games = select(func.count()).where(PlayerResult.player_id == Player.id).scalar_subquery()
        return dict(db.session.execute(select(Player.name, games).where(Player.group_id == group.id)).all())


def games_in(app, public_id: str) -> int:
    with app.app_context():
        group = find_group(public_id)
        assert group is not None
        return db.session.scalar(select(func.count()).select_from(SavedGame).where(SavedGame.group_id == group.id))


# -- shared tables locking into one group


def ready_table(client, names: list[str]) -> tuple[str, str]:
    """A table (checks off) with *names* seated and case 19's kingdoms entered and
    done, through the API: its code and the host's token."""
    started = client.post("/api/tables", json={"ruleset": "pocket", "played_on": "2026-11-30", "checks": False})
    assert started.status_code == 201, started.json
    code, host = started.json["code"], started.json["host_token"]
    for number, (name, player) in enumerate(zip(names, FOUR["game"]["players"], strict=True), start=1):
        seat = client.post(f"/api/tables/{code}/seats", json={"name": name})
        assert seat.status_code == 201, seat.json
        body = {"kingdom": player["kingdom"], "legends": player["legends"], "done": True}
        entered = client.put(
            f"/api/tables/{code}/seats/{number}",
            json=body,
            headers={"Authorization": f"Bearer {seat.json['seat_token']}"},
        )
        assert entered.status_code == 200, entered.json
    return code, host


def test_four_tables_locking_into_one_group_at_once_are_each_locked_on_the_first_press(db_app):
    """A club's four tables finish together and their hosts press "Lock" at the
    same moment, three rounds running: every press is answered 200 with its own
    game, each table's players on the group's roster once."""
    with db_app.app_context():
        group, invite = create_group("Club night")
        public_id = group.public_id
    client = db_app.test_client()
    hosts = [db_app.test_client() for _ in range(PHONES)]
    for night in range(3):
        tables = [
            ready_table(client, [f"{name} {'ABCD'[table]}" for name in ("Ada", "Bo", "Cy", "Di")])
            for table in range(PHONES)
        ]
        presses = [
            functools.partial(
                host.post,
                f"/api/tables/{code}/lock",
                json={"group": public_id, "invite": invite},
                headers={"Authorization": f"Bearer {token}"},
            )
            for host, (code, token) in zip(hosts, tables, strict=True)
        ]
        answers = at_once(PHONES, lambda i, presses=presses: presses[i]())
        assert status_of(answers) == [200] * PHONES, [a.get_data(as_text=True)[:300] for a in answers]
        assert len({answer.json["game_url"] for answer in answers}) == PHONES
        assert games_in(db_app, public_id) == PHONES * (night + 1)
    roster = roster_of(db_app, public_id)
    assert len(roster) == 16 and set(roster.values()) == {3}  # each player at one table, three nights


# -- sheets saved into one group


def joined_phones(app, phones: int) -> tuple[list, str]:
    """*phones* phones in one group (the first made it with a first game, the
    others joined by its invite link) and the group's public id."""
    first = app.test_client()
    sheet = first.post("/", data=form_data(game_of(TWO, "Host", "Guest")) | {"played_on": "2026-01-01"})
    saved = first.post(
        "/games", data={"token": sheet.headers["Location"].removeprefix("/sheet/"), "group_name": "Club"}
    )
    assert saved.status_code == 303
    group_path = BeautifulSoup(first.get("/groups").data, "lxml").select_one("#groups a")["href"]
    invite = BeautifulSoup(first.get(group_path).data, "lxml").select_one("#invite-link")["value"]
    others = [app.test_client() for _ in range(phones - 1)]
    for phone in others:
        assert phone.get(invite.removeprefix("http://localhost")).status_code == 303
    return [first, *others], group_path.removeprefix("/groups/")


def save_press(phone, game: dict, played_on: str, public_id: str) -> Callable[[], object]:
    """What pressing "Save" on the sheet of *game* into the group does, ready to send."""
    sheet = phone.post("/", data=form_data(game) | {"played_on": played_on}).headers["Location"]
    form = BeautifulSoup(phone.get(sheet).data, "lxml").select_one("form#save-game")
    fields = {field["name"]: field.get("value", "") for field in form.select("input[type=hidden]")}
    return lambda: phone.post("/games", data=fields | {"group": public_id})


def test_four_sheets_saved_into_one_group_at_once_are_each_saved_on_the_first_press(db_app):
    """Four phones of one group save four sheets of the group's players at the
    same moment, three rounds running: every press is answered 303 with its game."""
    phones, public_id = joined_phones(db_app, PHONES)
    with db_app.app_context():  # the four are on the roster already: only the games meet
        game = Game.from_dict(game_of(FOUR, "Ada", "Bo", "Cy", "Di"))
        store.save_game(game, store.Details(date(2026, 1, 2)), group=find_group(public_id))
    for night in range(3):
        presses = [
            save_press(phone, game_of(FOUR, "Ada", "Bo", "Cy", "Di"), f"2026-02-{10 * night + i + 1:02}", public_id)
            for i, phone in enumerate(phones)
        ]
        answers = at_once(PHONES, lambda i, presses=presses: presses[i]())
        assert status_of(answers) == [303] * PHONES, [a.get_data(as_text=True)[:300] for a in answers]
        assert all(re.fullmatch(r"/g/[\w-]+", answer.headers["Location"]) for answer in answers)
    assert games_in(db_app, public_id) == 2 + 3 * PHONES
    assert roster_of(db_app, public_id) == {"Host": 1, "Guest": 1, "Ada": 13, "Bo": 13, "Cy": 13, "Di": 13}


def test_a_new_player_saved_from_eight_phones_at_once_joins_the_roster_once(db_app):
    """Eight sheets with the same four new names saved into one group at the same
    moment: eight games, and each name is one roster player with eight games."""
    phones, public_id = joined_phones(db_app, 8)
    names = ("Zoë", "Yann", "Xia", "Wim")
    presses = [
        save_press(phone, game_of(FOUR, *names), f"2026-03-{i + 1:02}", public_id) for i, phone in enumerate(phones)
    ]
    answers = at_once(8, lambda i: presses[i]())
    assert status_of(answers) == [303] * 8, [a.get_data(as_text=True)[:300] for a in answers]
    assert roster_of(db_app, public_id) == {"Host": 1, "Guest": 1} | dict.fromkeys(names, 8)


def test_imports_with_the_same_new_player_at_once_add_them_to_the_roster_once(db_app):
    """Four histories imported into one group at the same moment, each with
    the same new players: all stored, each name one roster player."""
    with db_app.app_context():
        public_id = create_group("Imports")[0].public_id

    def history(i: int) -> dict:
        return {
            "games": [game_of(FOUR, "Quin", "Rin", "Sol", f"Tam {i}") | {"date": f"2026-04-{day:02}"} for day in (1, 2)]
        }

    def import_into_group(i: int) -> int:
        with db_app.app_context():
            group = find_group(public_id)
            return len(import_games(json.loads(json.dumps(history(i))), group=group))

    assert at_once(PHONES, import_into_group) == [2] * PHONES
    assert roster_of(db_app, public_id) == {"Quin": 8, "Rin": 8, "Sol": 8} | {f"Tam {i}": 2 for i in range(PHONES)}


# -- corrections and deletions among them


def test_corrections_deletions_and_saves_into_one_group_at_once_each_go_through(db_app):
    """While two phones save new games into the group, a third corrects an
    older game (a new player joins by it) and a fourth deletes another:
    every press is answered as alone."""
    phones, public_id = joined_phones(db_app, PHONES)
    with db_app.app_context():
        group = find_group(public_id)
        older, secret = store.save_game(
            Game.from_dict(game_of(FOUR, "Ada", "Bo", "Cy", "Di")), store.Details(date(2026, 1, 5)), group=group
        )
        gone, gone_secret = store.save_game(
            Game.from_dict(game_of(FOUR, "Ada", "Bo", "Cy", "Di")), store.Details(date(2026, 1, 6)), group=group
        )
        older_path, gone_path = f"/g/{older.public_id}/{secret}", f"/g/{gone.public_id}/{gone_secret}"
    correction = form_data(game_of(FOUR, "Ada", "Bo", "Cy", "Nia")) | {
        "played_on": "2026-01-05",
        "based_on": "1",
    }
    presses = [
        save_press(phones[0], game_of(FOUR, "Nia", "Bo", "Cy", "Di"), "2026-05-01", public_id),
        save_press(phones[1], game_of(FOUR, "Ada", "Nia", "Cy", "Di"), "2026-05-02", public_id),
        lambda: phones[2].post(f"{older_path}/edit", data=correction),
        lambda: phones[3].post(f"{gone_path}/delete", data={"confirm": "yes"}),
    ]
    answers = at_once(PHONES, lambda i: presses[i]())
    assert status_of(answers) == [303] * PHONES, [a.get_data(as_text=True)[:300] for a in answers]
    assert games_in(db_app, public_id) == 1 + 2 + 1  # the first, two new, the corrected; the deleted gone
    assert roster_of(db_app, public_id)["Nia"] == 3


def test_a_correction_and_a_deletion_of_one_game_at_once_each_answer_as_alone(db_app):
    """The game's private link open on two phones: one corrects it, the other
    deletes it, at the same moment, three times. The deletion always goes
    through (a corrected game is deleted all the same); the correction is saved
    before it (303) or finds the game gone (404), never a 500."""
    phones, public_id = joined_phones(db_app, 2)
    correction = form_data(game_of(FOUR, "Ada", "Bo", "Cy", "Nia")) | {"played_on": "2026-07-01", "based_on": "1"}
    for day in range(1, 4):
        with db_app.app_context():
            game = Game.from_dict(game_of(FOUR, "Ada", "Bo", "Cy", "Di"))
            saved, secret = store.save_game(game, store.Details(date(2026, 7, day)), group=find_group(public_id))
            private = f"/g/{saved.public_id}/{secret}"
        presses = [
            functools.partial(phones[0].post, f"{private}/edit", data=correction),
            functools.partial(phones[1].post, f"{private}/delete", data={"confirm": "yes"}),
        ]
        corrected, deleted = at_once(2, lambda i, presses=presses: presses[i]())
        assert corrected.status_code in (303, 404) and deleted.status_code == 303, (
            corrected.status_code,
            deleted.status_code,
        )
        assert phones[0].get(private).status_code == 404
    assert games_in(db_app, public_id) == 1


# -- roster merges


def test_merges_of_roster_players_at_once_never_fail_and_leave_one_history(db_app):
    """Six roster players (each has played only with Host) merged in a ring at
    the same moment, each into the next (A into B, B into C, …, F into A): every
    press answers as a merge alone does (303), whichever merges come first;
    the ones that find a player already merged away merge nothing and say so.
    Afterwards every game still has its players and the ring's six games are
    one history per roster player left."""
    phones, public_id = joined_phones(db_app, 6)
    ring = ("Ari", "Bea", "Cal", "Dov", "Eda", "Fin")
    with db_app.app_context():
        group = find_group(public_id)
        for day, name in enumerate(ring, start=1):
            store.save_game(Game.from_dict(game_of(TWO, name, "Host")), store.Details(date(2026, 6, day)), group=group)
        ids = {p.name: p.id for p in db.session.scalars(select(Player).where(Player.group_id == group.id))}
    presses = [{"source": ids[name], "target": ids[ring[(i + 1) % len(ring)]]} for i, name in enumerate(ring)]
    answers = at_once(6, lambda i: phones[i].post(f"/groups/{public_id}/players/merge", data=presses[i]))
    assert status_of(answers) == [303] * 6, [a.get_data(as_text=True)[:300] for a in answers]
    roster = roster_of(db_app, public_id)
    left = {name: games for name, games in roster.items() if name in ring}
    assert 1 <= len(left) < len(ring) and sum(left.values()) == len(ring)
    assert roster["Host"] == 1 + len(ring)
    with db_app.app_context():
        orphaned = select(func.count()).select_from(PlayerResult).join(SavedGame)
        orphaned = orphaned.where(SavedGame.group_id == find_group(public_id).id, PlayerResult.player_id.is_(None))
        assert db.session.scalar(orphaned) == 0


def test_a_rename_and_a_merge_of_one_player_at_once_each_answer_as_alone(db_app):
    """One phone renames a roster player while another merges that player into
    someone else, at the same moment, three times: the merge always goes
    through; the rename comes before it or says the player was just merged
    (303; or 404, "not on this group's roster (any more)", when the merge was
    committed before the rename looked its player up: a merge is quick now that
    its standing is rated by a job), never a 500, and the one player left has both games."""
    phones, public_id = joined_phones(db_app, 2)
    for day, (name, into) in enumerate((("Ari", "Bea"), ("Cal", "Dov"), ("Eda", "Fin")), start=1):
        with db_app.app_context():
            group = find_group(public_id)
            for player in (name, into):
                game = Game.from_dict(game_of(TWO, player, "Host"))
                store.save_game(game, store.Details(date(2026, 8, day)), group=group)
            ids = {p.name: p.id for p in db.session.scalars(select(Player).where(Player.group_id == group.id))}
        presses = [
            functools.partial(
                phones[0].post, f"/groups/{public_id}/players/{ids[name]}/rename", data={"name": f"{name} K."}
            ),
            functools.partial(
                phones[1].post, f"/groups/{public_id}/players/merge", data={"source": ids[name], "target": ids[into]}
            ),
        ]
        answers = at_once(2, lambda i, presses=presses: presses[i]())
        renamed = status_of(answers)[0]
        if renamed == 404:  # the merge committed before the rename looked its player up: said so, plainly
            assert "not on this group’s roster (any more)" in answers[0].get_data(as_text=True)
        assert status_of(answers) == [renamed, 303] and renamed in (303, 404)
        merged = BeautifulSoup(phones[1].get(answers[1].headers["Location"]).data, "lxml").select_one("#flash")
        assert "is merged into" in merged.get_text()
        roster = roster_of(db_app, public_id)
        assert roster[into] == 2 and name not in roster and f"{name} K." not in roster


@contextlib.contextmanager
def pressed_inside(
    target: object, moment: str, is_it: Callable[..., bool], press: Callable[[], object]
) -> Iterator[list]:
    """Within the block, the first time this thread's request reaches *moment* (an event of
    SQLAlchemy's on *target*, whose arguments *is_it* accepts), *press* is made from another
    phone, in a thread and a database connection of its own, and answered before the request
    goes on: the other change lands in exactly that window on every run, not by luck. Yields
    the list the other answer is put in."""
    here = threading.current_thread()
    answers: list[object] = []
    failures: list[BaseException] = []

    def other_phone() -> None:
        try:
            answers.append(press())
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    def listener(*args) -> None:
        if threading.current_thread() is here and not answers and not failures and is_it(*args):
            other = threading.Thread(target=other_phone)
            other.start()
            other.join()

    event.listen(target, moment, listener)
    try:
        yield answers
    finally:
        event.remove(target, moment, listener)
    assert failures == []


def flash_of(phone, answer) -> str:
    return BeautifulSoup(phone.get(answer.headers["Location"]).data, "lxml").select_one("#flash").get_text()


def ari_and_bea(app, phones: int) -> tuple[list, str, dict[str, int]]:
    """*phones* phones of one group whose roster has Ari and Bea (each one game with Host),
    the group's public id and the roster's ids by name."""
    joined, public_id = joined_phones(app, phones)
    with app.app_context():
        group = find_group(public_id)
        for day, name in enumerate(("Ari", "Bea"), start=1):
            store.save_game(Game.from_dict(game_of(TWO, name, "Host")), store.Details(date(2026, 9, day)), group=group)
        ids = {p.name: p.id for p in db.session.scalars(select(Player).where(Player.group_id == group.id))}
    return joined, public_id, ids


def asks_for_the_group(connection, cursor, statement: str, *rest) -> bool:
    """Whether *statement* takes a group's lock (``store.db.lock_group``: on SQLite a write of
    the group's row, on PostgreSQL ``SELECT … FOR UPDATE`` of it)."""
    group_row = re.search(r"\bgroups\b", statement) is not None
    return group_row and (statement.lstrip().upper().startswith("UPDATE") or "FOR UPDATE" in statement.upper())


def test_a_merge_waiting_for_a_rename_deletes_its_player_the_moment_the_rename_commits(db_app):
    """A merge of Ari into Bea waits for the group while a rename of Ari holds it, and
    deletes Ari the moment the rename commits, before the rename has answered (on a loaded
    machine the rename's thread may wait that long for its turn). The rename answers as
    alone, from what it read under the lock (303, "Ari" is now "Ari K."), never reading
    the deleted player again (a 500 before, ObjectDeletedError); the merge then merges
    "Ari K."."""
    phones, public_id, ids = ari_and_bea(db_app, 2)
    merge = functools.partial(
        phones[1].post, f"/groups/{public_id}/players/merge", data={"source": ids["Ari"], "target": ids["Bea"]}
    )

    def renamed_a_roster_player(session: Session) -> bool:  # the rename's commit, not an earlier one
        return any(isinstance(row, Player) for row in session.identity_map.values())

    with pressed_inside(Session, "after_commit", renamed_a_roster_player, merge) as merged:
        renamed = phones[0].post(f"/groups/{public_id}/players/{ids['Ari']}/rename", data={"name": "Ari K."})
    assert renamed.status_code == 303 and len(merged) == 1 and merged[0].status_code == 303
    assert "“Ari” is now “Ari K.”" in flash_of(phones[0], renamed)
    assert "“Ari K.” is merged into “Bea”" in flash_of(phones[1], merged[0])
    roster = roster_of(db_app, public_id)
    assert roster["Bea"] == 2 and "Ari" not in roster and "Ari K." not in roster


def test_a_rename_whose_player_is_merged_before_it_takes_the_lock_says_so(db_app):
    """A merge of Ari into Bea commits after a rename of Ari read its player and before
    the rename takes the group's lock: the rename reads its player again under the lock and
    says, as a rename of a player merged away does, that it renamed nobody (303 and a
    refusal; never a 500 nor a result pointing at a deleted player)."""
    phones, public_id, ids = ari_and_bea(db_app, 2)
    merge = functools.partial(
        phones[1].post, f"/groups/{public_id}/players/merge", data={"source": ids["Ari"], "target": ids["Bea"]}
    )

    with pressed_inside(Engine, "before_cursor_execute", asks_for_the_group, merge) as merged:
        renamed = phones[0].post(f"/groups/{public_id}/players/{ids['Ari']}/rename", data={"name": "Ari K."})
    assert renamed.status_code == 303 and len(merged) == 1 and merged[0].status_code == 303
    assert "“Ari” was not renamed: the player has just been merged into another" in flash_of(phones[0], renamed)
    assert "“Ari” is merged into “Bea”" in flash_of(phones[1], merged[0])
    roster = roster_of(db_app, public_id)
    assert roster["Bea"] == 2 and "Ari" not in roster and "Ari K." not in roster


def test_a_merge_that_found_its_player_renamed_under_the_lock_names_the_new_name(db_app):
    """A rename of Ari commits after a merge of Ari into Bea read the two and before the merge
    takes the group's lock: the merge reads them again under the lock and merges, and says
    so, as a merge pressed after the rename does ("Ari K." is merged into "Bea"), not by the
    name its form was sent with."""
    phones, public_id, ids = ari_and_bea(db_app, 2)
    rename = functools.partial(
        phones[1].post, f"/groups/{public_id}/players/{ids['Ari']}/rename", data={"name": "Ari K."}
    )
    with pressed_inside(Engine, "before_cursor_execute", asks_for_the_group, rename) as renamed:
        merged = phones[0].post(f"/groups/{public_id}/players/merge", data={"source": ids["Ari"], "target": ids["Bea"]})
    assert merged.status_code == 303 and len(renamed) == 1 and renamed[0].status_code == 303
    assert "“Ari” is now “Ari K.”" in flash_of(phones[1], renamed[0])
    assert "“Ari K.” is merged into “Bea”" in flash_of(phones[0], merged)
    roster = roster_of(db_app, public_id)
    assert roster["Bea"] == 2 and "Ari" not in roster and "Ari K." not in roster
