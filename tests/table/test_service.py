"""The only code that changes a shared table (scorekeeper.table.service), through
a real database: SQLite, and PostgreSQL when SCOREKEEPER_TEST_POSTGRES_URL is set.

Each change claims the table's row (version + 1), runs the model, writes,
commits and is announced once to the phones watching the table (a real
Flask-SocketIO test client connected with the table's ticket); a refusal
writes nothing, keeps the version and announces nothing. Case 19
(tests/data/cases/19-four-players.json) is played from four phones to one
saved game; locks, drafts and "Play again" from several threads at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

import pytest
import sqlalchemy
from sqlalchemy import func, select, update

from scorekeeper import create_app
from scorekeeper.engine import Game, GameErrors, score_game
from scorekeeper.store import db
from scorekeeper.store.games import may_edit
from scorekeeper.store.groups import NewGroup, create_group, opens
from scorekeeper.store.models import Group, SavedGame, ScoreTable, TableSeat
from scorekeeper.table import events, service
from scorekeeper.table.model import (
    CODE_ALPHABET,
    Draft,
    NoSuchTable,
    NotAllowed,
    NotReady,
    Table,
    TableConflict,
    identify,
    read_cells,
    secret_hash,
)
from scorekeeper.web.tables import stream as live
from tests.conftest import CASE_FILES, load_case, make_test_app

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
PLAYERS = FOUR["game"]["players"]
DAY = date(2026, 11, 30)


def refused(kind: type[Exception], call: Callable, *args, **kwargs) -> list[str]:
    """The message ids of what *call* refuses, raised as *kind*."""
    with pytest.raises(kind) as caught:
        call(*args, **kwargs)
    error = caught.value
    return [e.message_id for e in (error.errors if isinstance(error, GameErrors) else [error])]


def cells(player: dict) -> tuple:
    return read_cells(player["kingdom"], {})


def seated(checks: bool = True, players=PLAYERS) -> tuple[str, str, list[str]]:
    """A table with case 19's players seated, Ada on the host's phone, the others
    on their own: its code, the host's secret and each seat's secret (Ada's the host's)."""
    table, host = service.start("pocket", DAY, checks_required=checks)
    secrets = []
    for number, player in enumerate(players, start=1):
        _, seat, secret = service.take_seat(table.code, player["name"], [host] if number == 1 else [])
        assert seat.number == number
        secrets.append(secret)
    return table.code, host, secrets


def enter_all(code: str, secrets: list[str], players=PLAYERS) -> None:
    """Each seat's kingdom and Legends, done, by its own phone."""
    for number, (player, secret) in enumerate(zip(players, secrets, strict=True), start=1):
        service.save_draft(code, number, [secret], Draft(cells(player), tuple(player["legends"]), True))


def check_all(code: str, secrets: list[str]) -> None:
    """Each seat checked by the next one's phone (4 by 1), as its page showed it."""
    for number in range(1, len(secrets) + 1):
        shown = service.find(code).seat(number).shown
        service.check(code, number, [secrets[number % len(secrets)]], shown)


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def in_threads(app, threads: int, work: Callable[[int], object]) -> list[object]:
    """*work(i)* for i in 0..threads-1, each in its own thread and app context of *app*,
    started together; what each returned, in order (any exception fails the test)."""
    results: list[object] = [None] * threads
    problems: list[BaseException] = []
    start = threading.Barrier(threads)

    def run(i: int) -> None:
        try:
            with app.app_context():
                start.wait()
                results[i] = work(i)
        except BaseException as error:  # raised below
            problems.append(error)

    started = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join()
    assert problems == []
    return results


def watching(app, code: str):
    """A phone's stream of table *code*, connected with the ticket the table's page gives."""
    with app.test_request_context():
        ticket = live.ticket(code)
    stream = app.extensions["socketio"].test_client(app, auth={"ticket": ticket})
    assert stream.is_connected() and stream.get_received() == []
    return stream


def announced(stream) -> list[dict]:
    """The tables announced to *stream* since last asked."""
    received = stream.get_received()
    assert all(event["name"] == live.EVENT and len(event["args"]) == 1 for event in received)
    return [event["args"][0] for event in received]


# -- codes and seats


def test_codes_use_the_alphabet_without_look_alikes_and_are_found_however_typed(db_app):
    assert not set("0O1IL") & set(CODE_ALPHABET) and len(set(CODE_ALPHABET)) == 31
    with db_app.app_context():
        codes = [service.start("pocket", DAY)[0].code for _ in range(20)]
        assert len(set(codes)) == 20
        assert all(len(code) == 6 and set(code) <= set(CODE_ALPHABET) for code in codes)
        code = codes[0]
        for typed in (code, code.lower(), f" {code[:3].lower()} - {code[3:]} ", f"{code[:3]}\u2013{code[3:]}"):
            assert service.find(typed).code == code, typed
        for wrong in (code[:5], code + "A", "ABCDE0", None, 123456):
            assert service.find(wrong) is None
        assert service.find(next(c for c in ("AAAAAA", "BBBBBB") if c not in codes)) is None
        assert refused(GameErrors, service.start, "deluxe", DAY) == ["ruleset-unknown"]  # R9
        classic, host = service.start("classic", DAY, checks_required=False)
        found = service.find(classic.code)
        assert found == classic and (found.ruleset, found.played_on, found.checks_required) == ("classic", DAY, False)
        assert (found.version, found.seats, found.locked, found.host) == (1, (), False, secret_hash(host))
        assert refused(NoSuchTable, service.take_seat, "AAAAAA" if "AAAAAA" not in codes else "BBBBBB", "Ada", []) == [
            "table-not-found"
        ]


def test_each_phone_keeps_one_secret_and_the_hosts_holds_the_seats_it_adds(db_app):
    with db_app.app_context():
        table, host = service.start("pocket", DAY)
        _, ada, ada_secret = service.take_seat(table.code, "Ada", [host])
        _, bo, bo_secret = service.take_seat(table.code, "Bo", [])
        _, cy, cy_secret = service.take_seat(table.code, "Cy", [host])  # Cy has no phone
        assert (ada.number, bo.number, cy.number) == (1, 2, 3)
        assert ada_secret == cy_secret == host and bo_secret != host and len(bo_secret) >= 32
        assert refused(TableConflict, service.take_seat, table.code, "Di", [bo_secret]) == ["seat-already-held"]
        assert refused(TableConflict, service.take_seat, table.code, "bo", []) == ["name-taken"]
        _, di, di_secret = service.take_seat(table.code, "Di", ["a secret of another table"])
        assert di.number == 4 and di_secret not in (host, bo_secret)
        found = service.find(table.code)
        assert identify(found, [host]).seats == {1, 3} and identify(found, [host]).host
        assert identify(found, [bo_secret]).seats == {2} and identify(found, [di_secret]).seats == {4}
        assert refused(TableConflict, service.take_seat, table.code, "Eve", []) == ["table-full"]


# -- case 19, from four phones to one saved game


def test_case_19_from_four_phones_to_a_locked_game_that_scores_as_case_19_expects(db_app):
    with db_app.app_context():
        code, host, secrets = seated()
        for number, (player, secret) in enumerate(zip(PLAYERS, secrets, strict=True), start=1):
            for row in range(4):  # a row at a time, each page sending what it started from
                base = service.find(code).seat(number).shown
                so_far = cells(player)[: 4 * (row + 1)] + (None,) * (12 - 4 * row)
                seat = service.save_draft(code, number, [secret], Draft(so_far, base=base)).seat(number)
                assert seat.cards_entered == 4 * (row + 1)
            legends = tuple(player["legends"])
            done = service.save_draft(code, number, [secret], Draft(legends=legends, done=True)).seat(number)
            assert (done.done, done.cells, done.legends, done.checked_by) == (True, cells(player), legends, None)
        assert refused(NotReady, service.lock, code, [host]) == ["lock-not-checked"] * 4
        check_all(code, secrets)
        before = service.find(code)
        assert [s.checked_by for s in before.seats] == [2, 3, 4, 1]
        assert refused(NotAllowed, service.lock, code, [secrets[1]]) == ["host-only"]
        saved, edit, _ = service.lock(code, [host])
        again, edit_again, _ = service.lock(code, [host])  # locking again gives the same game and link
        assert again.id == saved.id and edit_again == edit and may_edit(saved, edit)
        assert count(SavedGame) == 1
        assert saved.entry == FOUR["game"] and saved.played_on == DAY and saved.ruleset == "pocket"
        expected = FOUR["expected"]["players"]
        assert [(r.total, r.place) for r in saved.results] == [(p["total"], p["place"]) for p in expected]
        sheet = score_game(Game.from_dict(saved.entry))
        assert [{row.value: value for row, value in r.rows.items()} for r in sheet.results] == [
            p["categories"] for p in expected
        ]
        locked = service.find(code)
        assert locked.locked and locked.game_id == saved.public_id and locked.version == before.version + 1
        assert locked.seats == before.seats and service.find(code.lower()) == locked
        assert service.edit_link_secret(locked, identify(locked, [host])) == edit
        assert service.edit_link_secret(locked, identify(locked, [secrets[2]])) is None
        assert service.edit_link_secret(before, identify(before, [host])) is None  # not before the lock
        assert refused(NotAllowed, service.lock, code, [secrets[1]]) == ["host-only"]  # nor after


def test_a_locked_table_takes_no_more_seats_or_changes(db_app):
    with db_app.app_context():
        code, host, secrets = seated(checks=False, players=PLAYERS[:2])
        enter_all(code, secrets, PLAYERS[:2])
        service.lock(code, [host])
        locked = service.find(code)
        shown = locked.seat(1).shown
        for call, args in [
            (service.take_seat, (code, "Cy", [])),
            (service.save_draft, (code, 1, [host], Draft(done=False))),
            (service.check, (code, 1, [secrets[1]], shown)),
            (service.report_wrong, (code, 1, [secrets[1]], 3, shown)),
            (service.set_checks, (code, [host], True)),
            (service.ask_to_move, (code, 2, [])),
            (service.answer_move, (code, [host], True)),
        ]:
            assert refused(TableConflict, call, *args) == ["table-locked"], call.__name__
        assert service.find(code) == locked


def test_with_checks_off_two_players_done_are_enough_and_one_player_is_not(db_app):
    with db_app.app_context():
        code, host, secrets = seated(players=PLAYERS[:2])
        assert refused(NotAllowed, service.set_checks, code, [secrets[1]], False) == ["host-only"]
        assert not service.set_checks(code, [host], False).checks_required
        enter_all(code, secrets, PLAYERS[:2])
        saved, _, _ = service.lock(code, [host])
        assert [r.name for r in saved.results] == ["Ada", "Bo"]
        lonely, lonely_host = service.start("classic", DAY)
        service.take_seat(lonely.code, "Solo", [lonely_host])
        assert refused(NotReady, service.lock, lonely.code, [lonely_host]) == ["player-count", "lock-not-done"]


def test_a_legend_claimed_by_two_seats_is_refused_at_the_lock_R6_1(db_app):
    with db_app.app_context():
        code, host, secrets = seated(checks=False)
        enter_all(code, secrets)
        table = service.save_draft(code, 2, [secrets[1]], Draft(legends=("lands-mountain", "tribes-humans")))
        assert table.legend_clashes(table.seat(1)) == {"tribes-humans": (2,)}
        assert refused(NotReady, service.lock, code, [host]) == ["legend-claimed"]
        assert count(SavedGame) == 0 and not service.find(code).locked


def test_a_lock_makes_the_new_group_the_host_chose_and_a_refused_lock_none(db_app):
    """The group a lock goes to is the host's choice, made in the lock's transaction:
    refused, no group row; locked, the game in it, given back; locked again with
    another new group, the first lock's group, and nothing made."""
    with db_app.app_context():
        code, host, secrets = seated(players=PLAYERS[:2])
        thursdays = NewGroup("Thursdays", "a-secret-derived-from-the-hosts")
        assert refused(NotReady, service.lock, code, [host], thursdays) == ["lock-not-done"] * 2
        assert refused(NotAllowed, service.lock, code, [secrets[1]], thursdays) == ["host-only"]
        assert count(Group) == 0 and count(SavedGame) == 0
        service.set_checks(code, [host], False)
        enter_all(code, secrets, PLAYERS[:2])
        saved, _, group = service.lock(code, [host], thursdays)
        assert group is not None and group.name == "Thursdays" and saved.group_id == group.id
        assert opens(group, "a-secret-derived-from-the-hosts")
        again, _, kept = service.lock(code, [host], NewGroup("Fridays"))
        assert again.id == saved.id and kept is not None and kept.id == group.id
        assert [g.name for g in db.session.scalars(select(Group))] == ["Thursdays"]


def test_a_lock_into_an_existing_group_or_none_makes_no_group(db_app):
    with db_app.app_context():
        club, _ = create_group("Club")
        code, host, secrets = seated(checks=False, players=PLAYERS[:2])
        enter_all(code, secrets, PLAYERS[:2])
        saved, _, group = service.lock(code, [host], club)
        assert group is not None and group.id == club.id and saved.group_id == club.id
        other, other_host, other_secrets = seated(checks=False, players=PLAYERS[:2])
        enter_all(other, other_secrets, PLAYERS[:2])
        alone, _, none = service.lock(other, [other_host])
        assert none is None and alone.group_id is None and count(Group) == 1


# -- refusals write nothing


def test_a_refused_change_writes_nothing_and_keeps_the_version(db_app):
    with db_app.app_context():
        code, host, secrets = seated()
        service.save_draft(code, 2, [secrets[1]], Draft(cells=cells(PLAYERS[1])[:15] + (None,)))
        before = service.find(code)
        seats_before = db.session.execute(select(TableSeat.__table__)).all()
        shown = before.seat(2).shown
        for kind, call, args, problem in [
            (NotAllowed, service.save_draft, (code, 2, [secrets[2]], Draft(done=False)), "seat-not-yours"),
            (GameErrors, service.save_draft, (code, 2, [secrets[1]], Draft(done=True)), "kingdom-not-complete"),
            (NoSuchTable, service.save_draft, (code, 9, [host], Draft(done=False)), "seat-not-found"),
            (TableConflict, service.check, (code, 2, [secrets[2]], shown), "check-not-done"),
            (GameErrors, service.report_wrong, (code, 2, [secrets[2]], 16, shown), "cell-invalid"),
            (NotAllowed, service.set_checks, (code, [secrets[1]], False), "host-only"),
            (TableConflict, service.take_seat, (code, "ADA", []), "name-taken"),
            (TableConflict, service.take_seat, (code, "Eve", []), "table-full"),
            (TableConflict, service.answer_move, (code, [host], True), "move-none"),
            (TableConflict, service.ask_to_move, (code, 2, [secrets[1]]), "move-already-yours"),
            (NotReady, service.lock, (code, [host]), "lock-not-done"),
            (TableConflict, service.play_again, (code, [host]), "table-not-locked"),
        ]:
            assert problem in refused(kind, call, *args), call.__name__
            assert service.find(code) == before, (call.__name__, problem)
        assert db.session.execute(select(TableSeat.__table__)).all() == seats_before
        assert count(SavedGame) == 0 and count(ScoreTable) == 1


# -- announcements


class Recorder:
    """A publisher of the table's events that keeps what it is given, with the
    table's version as another connection reads it then (committed only)."""

    def __init__(self) -> None:
        self.published: list[tuple[Table, int]] = []

    def publish(self, table: Table) -> None:
        with db.engine.connect() as elsewhere:
            committed = elsewhere.scalar(select(ScoreTable.version).where(ScoreTable.code == table.code))
        self.published.append((table, committed))


def test_each_committed_change_is_published_once_after_its_commit_and_a_refusal_never(db_app):
    recorder = Recorder()
    replaced = events.set_publisher(recorder)
    try:
        with db_app.app_context():
            table, host = service.start("pocket", DAY)  # nobody can watch a table before its code is out
            _, _, bo = service.take_seat(table.code, "Bo", [])
            refused(NotAllowed, service.set_checks, table.code, [bo], False)
            service.take_seat(table.code, "Ada", [host])
    finally:
        assert events.set_publisher(replaced) is recorder
    assert [(t.code, t.version, len(t.seats), committed) for t, committed in recorder.published] == [
        (table.code, 2, 1, 2),
        (table.code, 3, 2, 3),
    ]


def test_without_a_publisher_a_change_is_made_all_the_same(db_app):
    replaced = events.set_publisher(None)
    try:
        with db_app.app_context():
            table, host = service.start("pocket", DAY)
            assert service.take_seat(table.code, "Ada", [host])[0].version == 2
    finally:
        events.set_publisher(replaced)


def test_every_committed_change_is_announced_once_with_its_version_and_seats(db_app):
    with db_app.app_context():
        table, host = service.start("pocket", DAY)
        code = table.code
        other, _ = service.start("pocket", DAY)
        stream, elsewhere = watching(db_app, code), watching(db_app, other.code)
        service.take_seat(other.code, "Zoë", [])  # another table's change: not this table's phones'
        _, _, bo = service.take_seat(code, "Bo", [])
        service.take_seat(code, "Ada", [host])
        after_seats = announced(stream)
        assert [(t["version"], [s["name"] for s in t["seats"]]) for t in after_seats] == [
            (2, ["Bo"]),
            (3, ["Bo", "Ada"]),
        ]
        changes = [
            lambda: service.save_draft(code, 1, [bo], Draft(cells=cells(PLAYERS[1]), done=True)),
            lambda: service.save_draft(code, 2, [host], Draft(cells=cells(PLAYERS[0]), done=True)),
            lambda: service.check(code, 1, [host], service.find(code).seat(1).shown),
            lambda: service.set_checks(code, [host], False),
            lambda: service.ask_to_move(code, 1, ["a new phone"]),
            lambda: service.answer_move(code, [bo], False),  # seat 1 is Bo's: his phone answers
        ]
        for version, change in enumerate(changes, start=4):
            result = change()
            table = result if isinstance(result, Table) else result[0]
            (event,) = announced(stream)
            assert event["version"] == table.version == version and event == live.announcement(table)
            assert event["seats"] == live.announcement(service.find(code))["seats"]
        assert event["seats"][0]["checked_by"] == 2 and not event["checks_required"]
        service.lock(code, [host])
        (event,) = announced(stream)
        assert event["version"] == 10 and event["locked"] and event["expires_at"] is None
        service.lock(code, [host])  # locking again changes nothing: nothing announced
        following = service.play_again(code, [host])
        (event,) = announced(stream)
        assert (event["version"], event["next_code"]) == (11, following.code)
        service.play_again(code, [host])
        assert announced(stream) == []
        assert [t["seats"][0]["name"] for t in announced(elsewhere)] == ["Zoë"]


def test_an_announced_table_is_the_table_read_back_its_look_included(db_app):
    # Found in review (PostgreSQL): a move's time read back in ZoneInfo("Etc/UTC") gave the
    # announcement another look than every later answer about the same version.
    with db_app.app_context():
        table, host = service.start("pocket", DAY)
        stream = watching(db_app, table.code)
        for change in (
            lambda: service.take_seat(table.code, "Ada", [host]),
            lambda: service.take_seat(table.code, "Bo", []),
            lambda: service.ask_to_move(table.code, 1, []),
            lambda: service.answer_move(table.code, [host], False),
        ):
            change()
            (event,) = announced(stream)
            assert event == live.announcement(service.find(table.code)), event["version"]


def test_a_refused_change_announces_nothing(db_app):
    with db_app.app_context():
        code, host, secrets = seated()
        stream = watching(db_app, code)
        shown = service.find(code).seat(1).shown
        for kind, call, args in [
            (NotAllowed, service.save_draft, (code, 1, [secrets[1]], Draft(done=False))),
            (GameErrors, service.save_draft, (code, 1, [host], Draft(done=True))),
            (TableConflict, service.check, (code, 1, [secrets[1]], shown)),
            (TableConflict, service.take_seat, (code, "Eve", [])),
            (NotReady, service.lock, (code, [host])),
            (NotAllowed, service.set_checks, (code, [secrets[1]], False)),
        ]:
            refused(kind, call, *args)
        assert stream.get_received() == []


def test_a_stream_needs_a_ticket_signed_for_a_table(db_app, tmp_path):
    with db_app.app_context():
        table, _ = service.start("pocket", DAY)
    streams = db_app.extensions["socketio"]
    for auth in (None, {}, {"ticket": table.code}, {"ticket": "x" * 300}, {"ticket": 5}):
        assert not streams.test_client(db_app, auth=auth).is_connected(), auth
    with make_test_app(tmp_path, SECRET_KEY="another").test_request_context():  # another app's key
        forged = live.ticket(table.code)
    assert not streams.test_client(db_app, auth={"ticket": forged}).is_connected()
    assert watching(db_app, table.code).is_connected()


# -- several at once


def test_locking_from_many_threads_at_once_makes_exactly_one_game(db_app):
    with db_app.app_context():
        code, host, secrets = seated(checks=False)
        enter_all(code, secrets)
        version = service.find(code).version
        games = in_threads(db_app, 6, lambda _: service.lock(code, [host])[0].id)
        assert len(set(games)) == 1 and count(SavedGame) == 1
        assert service.find(code).version == version + 1


def test_drafts_from_four_threads_at_once_all_land(db_app):
    with db_app.app_context():
        code, _, secrets = seated()
        version = service.find(code).version

        def enter(i: int) -> None:
            kingdom = cells(PLAYERS[i])
            for row in range(1, 5):  # a save every fourth card, as a phone's draft does
                draft = Draft(kingdom[: 4 * row] + (None,) * (16 - 4 * row))
                service.save_draft(code, i + 1, [secrets[i]], draft)

        in_threads(db_app, 4, enter)
        table = service.find(code)
        assert [seat.cells for seat in table.seats] == [cells(player) for player in PLAYERS]
        assert table.version == version + 16


def test_cards_sent_to_one_seat_from_many_pages_at_once_all_land(db_app):
    """Pages on one seat send only what they changed (``base``): each change reads the seat as
    the change before it committed it, even one that waited for the table while that change
    was made (on PostgreSQL the claim and the read are one statement: it is read again)."""
    with db_app.app_context():
        code, _, secrets = seated()
        kingdom = cells(PLAYERS[0])
        empty = {"kingdom": [None] * 16, "legends": []}

        def enter(i: int) -> None:
            for cell in (i, i + 8):
                sent = [None] * 16
                sent[cell] = kingdom[cell]
                service.save_draft(code, 1, [secrets[0]], {"kingdom": sent, "base": empty})

        in_threads(db_app, 8, enter)
        assert service.find(code).seat(1).cells == kingdom


def test_a_draft_is_claimed_and_read_in_one_statement_on_postgresql_then_written(db_app):
    """A phone's every card: the table claimed and read (one statement on PostgreSQL; SQLite's
    writers take turns for the whole database, so it reads after claiming), the seat written."""
    with db_app.app_context():
        code, _, secrets = seated()
        kingdom = cells(PLAYERS[0])
        statements: list[str] = []

        def count_statement(conn, cursor, statement, *args) -> None:
            statements.append(statement.split()[0])

        sqlalchemy.event.listen(db.engine, "before_cursor_execute", count_statement)
        try:
            service.save_draft(code, 1, [secrets[0]], {"kingdom": [*kingdom[:4], *[None] * 12]})
        finally:
            sqlalchemy.event.remove(db.engine, "before_cursor_execute", count_statement)
        postgresql = db.engine.dialect.name == "postgresql"
        assert statements == (["WITH", "UPDATE"] if postgresql else ["UPDATE", "SELECT", "UPDATE"])


# -- play again


def test_play_again_opens_one_new_table_with_the_same_seats_and_secrets(db_app):
    with db_app.app_context():
        code, host, secrets = seated(checks=False)
        enter_all(code, secrets)
        service.lock(code, [host])
        assert refused(NotAllowed, service.play_again, code, [secrets[1]]) == ["host-only"]
        assert refused(NoSuchTable, service.play_again, "AAAAAA" if code != "AAAAAA" else "BBBBBB", [host]) == [
            "table-not-found"
        ]
        following = service.play_again(code, [host], date(2026, 12, 1))
        assert service.play_again(code, [host]) == following
        assert service.find(code).next_code == following.code != code
        assert [s.name for s in following.seats] == ["Ada", "Bo", "Cy", "Di"]
        assert (following.version, following.locked, following.checks_required) == (1, False, False)
        assert (following.played_on, following.ruleset, following.host) == (
            date(2026, 12, 1),
            "pocket",
            secret_hash(host),
        )
        assert all(s.cards_entered == 0 and not s.done and s.legends == () for s in following.seats)
        for number, secret in enumerate(secrets, start=1):  # each phone's secret takes its seat back
            assert identify(following, [secret]).seats == {number}
        assert identify(following, [host]).host
        service.save_draft(following.code, 2, [secrets[1]], Draft(cells=cells(PLAYERS[1])))


def test_play_again_asked_from_several_threads_at_once_opens_one_table(db_app):
    with db_app.app_context():
        code, host, secrets = seated(checks=False, players=PLAYERS[:2])
        enter_all(code, secrets, PLAYERS[:2])
        service.lock(code, [host])
        codes = in_threads(db_app, 4, lambda _: service.play_again(code, [host]).code)
        assert len(set(codes)) == 1 and service.find(code).next_code == codes[0]
        assert count(ScoreTable) == 2 and count(TableSeat) == 4


def test_play_again_after_the_new_table_expired_opens_another(db_app):
    with db_app.app_context():
        code, host, secrets = seated(checks=False, players=PLAYERS[:2])
        enter_all(code, secrets, PLAYERS[:2])
        service.lock(code, [host])
        first = service.play_again(code, [host])
        day_ago = datetime.now(UTC) - timedelta(hours=24, seconds=1)
        db.session.execute(update(ScoreTable).where(ScoreTable.code == first.code).values(created_at=day_ago))
        db.session.commit()
        second = service.play_again(code, [host])
        assert second.code != first.code and service.find(code).next_code == second.code
        assert service.find(first.code) is None


# -- expiry


def test_unlocked_tables_expire_after_24_hours_with_their_drafts(db_app):
    with db_app.app_context():
        old_code, old_host, old_secrets = seated(checks=False)
        enter_all(old_code, old_secrets)
        locked_code, locked_host, locked_secrets = seated(checks=False)
        enter_all(locked_code, locked_secrets)
        service.lock(locked_code, [locked_host])
        day_ago = datetime.now(UTC) - timedelta(hours=24, seconds=1)
        db.session.execute(update(ScoreTable).values(created_at=day_ago))
        db.session.commit()
        fresh = service.start("pocket", DAY)[0].code  # starting a table clears the old ones
        assert service.find(old_code) is None
        assert service.find(locked_code).locked  # a locked table's link still shows the sheet
        assert service.find(fresh) is not None
        assert count(TableSeat) == 4  # the locked table's
        assert refused(NoSuchTable, service.save_draft, old_code, 1, [old_host], Draft(done=False)) == [
            "table-not-found"
        ]
        # on access too, without a new table started
        db.session.execute(update(ScoreTable).where(ScoreTable.code == fresh).values(created_at=day_ago))
        db.session.commit()
        assert service.find(fresh) is None
        assert count(ScoreTable) == 1
        # a table not yet a day old stays
        young = service.start("pocket", DAY)[0].code
        almost = datetime.now(UTC) - timedelta(hours=23, minutes=59)
        db.session.execute(update(ScoreTable).where(ScoreTable.code == young).values(created_at=almost))
        db.session.commit()
        assert service.expire() == 0 and service.find(young) is not None


def test_the_app_clears_expired_tables_when_it_starts(db_app):
    url = db_app.config["SQLALCHEMY_DATABASE_URI"]
    with db_app.app_context():
        stale, fresh = service.start("pocket", DAY)[0].code, service.start("pocket", DAY)[0].code
        day_ago = datetime.now(UTC) - timedelta(hours=25)
        db.session.execute(update(ScoreTable).where(ScoreTable.code == stale).values(created_at=day_ago))
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    restarted = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url}
    )  # migrates, then clears
    with restarted.app_context():
        assert db.session.scalars(select(ScoreTable.code)).all() == [fresh]
        db.session.remove()
        db.engine.dispose()


# -- secrets


def test_secrets_are_stored_only_as_hashes(db_app):
    with db_app.app_context():
        code, host, secrets = seated()
        enter_all(code, secrets)
        service.save_draft(code, 3, [host], Draft(cells=cells(PLAYERS[0])))  # the host's phone helps Cy
        _, mover = service.ask_to_move(code, 4, [])
        assert len(host) >= 32 and all(len(s) >= 32 for s in [*secrets, mover])
        everything = [host, *secrets[1:], mover]
        stored = repr(db.session.execute(select(ScoreTable.__table__)).all())
        stored += repr(db.session.execute(select(TableSeat.__table__)).all())
        assert not any(secret in stored for secret in everything)
        table_row = db.session.execute(select(ScoreTable.host_token_hash, ScoreTable.move_asker)).one()
        assert tuple(table_row) == (secret_hash(host), secret_hash(mover))
        seats = db.session.execute(select(TableSeat.token_hash, TableSeat.entered_by).order_by(TableSeat.number)).all()
        assert [s.token_hash for s in seats] == [secret_hash(s) for s in secrets]
        assert [sorted(s.entered_by) for s in seats] == [
            [secret_hash(host)],
            [secret_hash(secrets[1])],
            sorted({secret_hash(secrets[2]), secret_hash(host)}),
            [secret_hash(secrets[3])],
        ]


# -- a seat moved to another phone


def not_seen_since(code: str, secret: str, minutes: float = 3) -> None:
    """The phone keeping *secret* last seen at table *code* *minutes* ago (its seats', and the host's role's)."""
    when = datetime.now(UTC) - timedelta(minutes=minutes)
    table_id = select(ScoreTable.id).where(ScoreTable.code == code).scalar_subquery()
    hashed = secret_hash(secret)
    db.session.execute(
        update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.token_hash == hashed).values(seen_at=when)
    )
    db.session.execute(
        update(ScoreTable)
        .where(ScoreTable.code == code, ScoreTable.host_token_hash == hashed)
        .values(host_seen_at=when)
    )
    db.session.commit()


def test_a_seat_moves_to_another_phone_when_another_phone_at_the_table_allows_it(db_app):
    with db_app.app_context():
        code, host, secrets = seated()
        enter_all(code, secrets)
        asked, new_bo = service.ask_to_move(code, 2, [])  # a new phone asks for Bo's seat
        assert new_bo not in secrets and asked.move.seat == 2 and asked.move.asker == secret_hash(new_bo)
        assert service.find(code).move == asked.move  # the time of asking read back as it was written
        assert refused(NotAllowed, service.answer_move, code, [new_bo], True) == ["move-not-yours"]
        # Bo's phone is there: only it may answer; gone, another phone at the table does
        assert refused(NotAllowed, service.answer_move, code, [secrets[2]], True) == ["move-not-yours"]
        not_seen_since(code, secrets[1])
        allowed = service.answer_move(code, [secrets[2]], True)
        assert allowed.move is None and service.find(code) == allowed
        assert identify(allowed, [new_bo]).seats == {2} and not identify(allowed, [secrets[1]]).is_anyone
        assert refused(NotAllowed, service.save_draft, code, 2, [secrets[1]], Draft(done=False)) == ["seat-not-yours"]
        assert not service.save_draft(code, 2, [new_bo], Draft(done=False)).seat(2).done
        # the host's own seat takes the host's role with it
        _, new_ada = service.ask_to_move(code, 1, [])
        not_seen_since(code, host)
        moved = service.answer_move(code, [secrets[3]], True)
        assert moved.host == secret_hash(new_ada) == moved.seat(1).holder
        assert refused(NotAllowed, service.set_checks, code, [host], False) == ["host-only"]
        assert not service.set_checks(code, [new_ada], False).checks_required
        # a phone already seated asks with its own secret, not a new one
        _, kept = service.ask_to_move(code, None, [secrets[2]])
        assert kept == secrets[2]
        assert service.answer_move(code, [new_ada], False).host == secret_hash(new_ada)


def test_a_two_phone_table_whose_hosts_phone_is_gone_is_locked_from_the_other_phone(db_app):
    """Issue 33: both kingdoms done and checked, the host's phone gone: "Become the host" on the other
    phone asked for someone else's "Yes", and there was nobody else."""
    with db_app.app_context():
        table, host = service.start("pocket", DAY)
        code = table.code
        service.take_seat(code, "Ada", [host])
        _, _, bo = service.take_seat(code, "Bo", [])
        service.save_draft(code, 1, [host], Draft(cells=cells(PLAYERS[0]), done=True))
        service.save_draft(code, 2, [bo], Draft(cells=cells(PLAYERS[1]), done=True))
        service.check(code, 1, [bo], service.find(code).seat(1).shown)
        service.check(code, 2, [host], service.find(code).seat(2).shown)
        # asked while the host's phone was there a moment ago: it waits for the host's phone
        asked, _ = service.ask_to_move(code, None, [bo])
        assert asked.move is not None and asked.host == secret_hash(host)
        # the host's phone not seen for 3 minutes: the next time Bo's page says it is here, the role moves
        not_seen_since(code, host)
        moved = service.here(service.find(code), [bo])
        assert moved.move is None and moved.host == secret_hash(bo) and service.find(code) == moved
        assert service.lock(code, [bo]).game.entry["players"][1]["name"] == "Bo"


def test_asked_once_the_hosts_phone_is_gone_and_no_other_phone_is_there_the_seat_moves_at_once(db_app):
    with db_app.app_context():
        table, host = service.start("pocket", DAY)
        code = table.code
        service.take_seat(code, "Ada", [host])
        _, _, bo = service.take_seat(code, "Bo", [])
        not_seen_since(code, host)
        moved, kept = service.ask_to_move(code, 1, [bo])  # "Take Ada's seat" on Bo's phone
        assert kept == bo and moved.move is None and moved.host == secret_hash(bo) == moved.seat(1).holder


def test_a_second_phone_of_a_seated_player_is_refused_the_hosts_seat_while_the_hosts_phone_is_there(db_app):
    """Issue 33: seat 3 allowed a second phone's request for seat 1 while the host was there."""
    with db_app.app_context():
        code, host, secrets = seated()
        _, second = service.ask_to_move(code, 1, [])  # Cy's second phone
        for others in secrets[1:]:
            assert refused(NotAllowed, service.answer_move, code, [others], True) == ["move-not-yours"]
        assert service.find(code).host == secret_hash(host)
        assert service.answer_move(code, [host], False).move is None  # the host's phone says no


def test_a_phone_is_seen_at_each_change_it_makes_and_when_its_page_says_it_is_here(db_app):
    with db_app.app_context():
        code, host, secrets = seated()
        table = service.find(code)
        assert all(seat.seen is not None for seat in table.seats) and table.host_seen is not None
        assert service.here(table, [secrets[1]]) is table  # seen a moment ago: nothing written
        not_seen_since(code, secrets[1])
        before = service.find(code)
        after = service.here(before, [secrets[1]])
        assert after.version == before.version + 1 and datetime.now(UTC) - after.seat(2).seen < timedelta(seconds=5)
        not_seen_since(code, secrets[2])
        service.save_draft(code, 3, [secrets[2]], Draft(cells=cells(PLAYERS[2])))
        assert datetime.now(UTC) - service.find(code).seat(3).seen < timedelta(seconds=5)


def test_the_host_removes_an_empty_seat_and_the_table_goes_on_without_it(db_app):
    with db_app.app_context():
        code, host, secrets = seated(players=PLAYERS[:3])
        service.save_draft(code, 2, [secrets[1]], Draft(cells=cells(PLAYERS[1])))
        assert refused(TableConflict, service.remove_seat, code, 2, [host]) == ["seat-remove-entered"]
        assert refused(NotAllowed, service.remove_seat, code, 3, [secrets[1]]) == ["host-only"]
        after = service.remove_seat(code, 3, [host])
        assert [seat.number for seat in after.seats] == [1, 2] and service.find(code) == after
        assert not identify(after, [secrets[2]]).is_anyone
        assert service.take_seat(code, "Di", [])[1].number == 3


def test_a_request_to_move_waits_ten_minutes_for_an_answer(db_app):
    with db_app.app_context():
        code, _, secrets = seated()
        service.ask_to_move(code, 2, [])
        eleven_ago = datetime.now(UTC) - timedelta(minutes=11)
        db.session.execute(update(ScoreTable).where(ScoreTable.code == code).values(move_asked_at=eleven_ago))
        db.session.commit()
        assert refused(TableConflict, service.answer_move, code, [secrets[2]], True) == ["move-none"]
        assert service.find(code).seat(2).holder == secret_hash(secrets[1])


def test_the_stores_rows_and_the_models_values_have_the_same_fields_in_the_same_order():
    """The service turns one into the other by position (``_table``, ``_row``)."""
    from scorekeeper.store import tables as rows
    from scorekeeper.table.model import MoveRequest, Seat, Table

    renamed = {"token_hash": "holder", "host_token_hash": "host", "seen_at": "seen", "host_seen_at": "host_seen"}
    for row, value in ((rows.TableRow, Table), (rows.SeatRow, Seat), (rows.MoveRow, MoveRequest)):
        assert [renamed.get(name, name) for name in row._fields] == list(value._fields)
