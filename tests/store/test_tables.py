"""Shared tables in the store (issue #10), on SQLite and PostgreSQL: joining by
R8's name rules, drafts only by their seat or the host, checks by another
seat, one game per lock however often and from however many threads."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from scorekeeper import create_app
from scorekeeper.engine import GameError, GameErrors
from scorekeeper.store import db
from scorekeeper.store import tables as store
from scorekeeper.store.models import SavedGame, ScoreTable, TableSeat
from scorekeeper.words import ENGLISH
from tests.conftest import CASE_FILES, load_case

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
PLAYERS = FOUR["game"]["players"]
DAY = date(2026, 11, 30)


def refused(kind: type[Exception], call, *args, **kwargs) -> list[GameError]:
    with pytest.raises(kind) as caught:
        call(*args, **kwargs)
    error = caught.value
    return list(error.errors) if isinstance(error, GameErrors) else [error]


def ids(errors: list[GameError]) -> list[str]:
    return [e.message_id for e in errors]


def seated(checks: bool = True, players=PLAYERS):
    """A table with the case-19 players seated; returns (code, host token, seat tokens)."""
    new = store.create_table("pocket", DAY, checks_required=checks)
    table = store.find(new.code)
    tokens = [store.join(table, p["name"]).token for p in players]
    return new.code, new.host_token, tokens


def enter_all(code: str, tokens: list[str], players=PLAYERS) -> None:
    for number, (player, token) in enumerate(zip(players, tokens, strict=True), start=1):
        store.update_seat(
            store.find(code), number, token, cells=player["kingdom"], legends=player["legends"], done=True
        )


def test_codes_use_the_alphabet_without_look_alikes_and_are_found_however_typed(db_app):
    assert not set("0O1IL") & set(store.CODE_ALPHABET) and len(set(store.CODE_ALPHABET)) == 31
    with db_app.app_context():
        codes = [store.create_table("pocket", DAY).code for _ in range(20)]
        assert len(set(codes)) == 20
        assert all(len(code) == 6 and set(code) <= set(store.CODE_ALPHABET) for code in codes)
        code = codes[0]
        typed = f" {code[:3].lower()} - {code[3:]} "
        assert store.find(typed).code == code
        assert store.find(code[:5]) is None and store.find(code + "A") is None
        assert store.find("ABCDE0") is None  # not in the alphabet: never a code
        wrong = next(c for c in ("AAAAAA", "BBBBBB") if c not in codes)
        assert store.find(wrong) is None
        refused(GameErrors, store.create_table, "deluxe", DAY)


def test_join_checks_names_by_R8_at_once_against_the_other_seats(db_app):
    with db_app.app_context():
        code = store.create_table("pocket", DAY).code
        table = store.find(code)
        assert store.join(table, "  Zoë ").number == 1
        assert store.state(table).seats[0].name == "Zoë"
        # the same name in another case, Unicode form or with a zero-width space is taken (R8)
        for same in ("zoë", "Zoe\u0308", "Zo\u200bë"):
            (error,) = refused(store.TableConflict, store.join, table, same)
            assert error.message_id == "name-taken" and error.params["other"] == "Zoë"
        assert ids(refused(GameErrors, store.join, table, "   ")) == ["name-empty"]
        assert ids(refused(GameErrors, store.join, table, "A" * 41)) == ["name-too-long"]
        assert ids(refused(GameErrors, store.join, table, 5)) == ["name-not-text"]
        for name in ("Bo", "Cy", "Di"):
            store.join(table, name)
        (full,) = refused(store.TableConflict, store.join, table, "Eve")
        assert full.message_id == "table-full" and ENGLISH.error(full).endswith("at most 4 players")
        assert [seat.number for seat in store.state(table).seats] == [1, 2, 3, 4]
        assert store.look(code)[0] == store.state(table)
        empty = store.create_table("pocket", DAY).code
        assert store.look(empty)[0].seats == () and store.look("AAAAAA" if empty != "AAAAAA" else "BBBBBB") is None


def test_a_seat_is_changed_only_by_its_own_token_or_the_hosts(db_app):
    with db_app.app_context():
        code, host, (ada, bo, _, _) = seated()
        table = store.find(code)
        first_row = [["forest", "elves", None, None], [None] * 4, [None] * 4, [None] * 4]
        mine = store.update_seat(table, 1, ada, cells=first_row)
        assert mine.cards_entered == 2 and mine.cells[:3] == ("forest", "elves", None)
        # 16 cells row by row do too; blanks may be "" or null
        by_host = store.update_seat(table, 1, host, cells=["forest", "elves", "portal"] + [""] * 13)
        assert by_host.cards_entered == 3
        for token in (bo, "", None, ada + "x", host[:-1]):
            (error,) = refused(store.NotAllowed, store.update_seat, table, 1, token, cells=first_row)
            assert error.message_id == "seat-not-yours"
        assert ids(refused(store.NoSuchTable, store.update_seat, table, 7, host, done=False)) == ["seat-not-found"]
        assert store.state(table).seats[0].cards_entered == 3


def test_drafts_refuse_what_R8_refuses_with_the_cell_and_done_needs_16_cards(db_app):
    with db_app.app_context():
        code, _, (ada, *_) = seated()
        table = store.find(code)
        bad = [["forest", "xyz", None, None], [None] * 4, [None] * 4, [None] * 3]
        errors = refused(GameErrors, store.update_seat, table, 1, ada, cells=bad)
        assert ids(errors) == ["row-length"] and errors[0].row == 4
        bad[3].append("dragon!")
        errors = refused(GameErrors, store.update_seat, table, 1, ada, cells=bad)
        assert ids(errors) == ["card-unknown", "card-unknown"] and (errors[0].row, errors[0].column) == (1, 2)
        assert ENGLISH.error(errors[0]) == "Ada, row 1, column 2: 'xyz' is not one of the ten card ids"
        errors = refused(GameErrors, store.update_seat, table, 1, ada, legends=["four-tribes", "x", "four-tribes"])
        assert ids(errors) == ["legend-unknown", "legend-listed-twice"]
        assert ids(refused(GameErrors, store.update_seat, table, 1, ada, legends="four-tribes")) == ["legends-not-list"]
        almost = [row[:] for row in PLAYERS[0]["kingdom"]]
        almost[2][2] = None
        store.update_seat(table, 1, ada, cells=almost)
        (early,) = refused(GameErrors, store.update_seat, table, 1, ada, done=True)
        assert early.message_id == "kingdom-not-complete" and early.params["count"] == 15
        assert store.update_seat(table, 1, ada, cells=PLAYERS[0]["kingdom"], done=True).done


def test_checks_are_by_another_seat_and_a_change_clears_them(db_app):
    with db_app.app_context():
        code, host, (ada, bo, cy, _) = seated()
        table = store.find(code)
        assert ids(refused(store.TableConflict, store.check, table, 1, bo)) == ["check-not-done"]
        store.update_seat(table, 1, ada, cells=PLAYERS[0]["kingdom"], legends=PLAYERS[0]["legends"], done=True)
        assert ids(refused(store.TableConflict, store.check, table, 1, ada)) == ["check-own-seat"]
        assert ids(refused(store.NotAllowed, store.check, table, 1, host)) == ["check-needs-seat"]
        assert ids(refused(store.NotAllowed, store.check, table, 1, "nobody")) == ["check-needs-seat"]
        store.check(table, 1, bo)
        assert store.state(table).seats[0].checked_by == 2
        # sending the same draft again keeps the check; a changed cell clears it
        store.update_seat(table, 1, ada, cells=PLAYERS[0]["kingdom"])
        assert store.state(table).seats[0].checked_by == 2
        changed = [row[:] for row in PLAYERS[0]["kingdom"]]
        changed[0][0] = "swamp"
        after = store.update_seat(table, 1, ada, cells=changed)
        assert after.checked_by is None and after.done


def test_something_is_wrong_shows_the_cell_to_the_owner_until_done_again(db_app):
    with db_app.app_context():
        code, host, tokens = seated()
        enter_all(code, tokens)
        table = store.find(code)
        assert ids(refused(GameErrors, store.report_wrong, table, 2, tokens[2], 16)) == ["cell-invalid"]
        assert ids(refused(GameErrors, store.report_wrong, table, 2, tokens[2], True)) == ["cell-invalid"]
        store.check(table, 2, tokens[0])
        store.report_wrong(table, 2, tokens[2], 6)
        bo = store.state(table).seats[1]
        assert (bo.wrong_cell, bo.wrong_by, bo.done, bo.checked_by) == (6, 3, False, None)
        reasons = refused(store.NotReady, store.lock, table, host)
        assert "lock-wrong-cell" in ids(reasons)
        assert "Bo: another player reported r2c3 as wrong" in ENGLISH.error(reasons[1])
        store.update_seat(table, 2, tokens[1], done=True)
        bo = store.state(table).seats[1]
        assert (bo.wrong_cell, bo.done) == (None, True)


def test_a_report_stays_through_changes_to_other_cards_and_goes_with_its_own(db_app):
    """Found by a fresh tester: Bo's taps elsewhere, made as the report came in,
    wiped it unseen. Only a change of the card it names (or done again) ends it."""
    with db_app.app_context():
        code, host, tokens = seated()
        enter_all(code, tokens)
        table = store.find(code)
        store.report_wrong(table, 2, tokens[2], 6)
        cells = list(store.state(table).seats[1].cells)
        other = "forest" if cells[0] != "forest" else "swamp"
        store.update_seat(table, 2, tokens[1], cells=[other, *cells[1:]])
        bo = store.state(table).seats[1]
        assert (bo.wrong_cell, bo.wrong_by, bo.checked_by) == (6, 3, None)
        fixed = [other, *cells[1:6], "dragon" if cells[6] != "dragon" else "portal", *cells[7:]]
        store.update_seat(table, 2, tokens[1], cells=fixed)
        assert store.state(table).seats[1].wrong_cell is None


def test_a_legend_claimed_by_two_seats_shows_to_both_and_blocks_the_lock_R6_1(db_app):
    with db_app.app_context():
        code, host, tokens = seated(checks=False)
        enter_all(code, tokens)
        table = store.find(code)
        store.update_seat(table, 2, tokens[1], legends=["lands-mountain", "tribes-humans"])
        seats = store.state(table).seats
        assert seats[0].legend_clashes == {"tribes-humans": (2,)}
        assert seats[1].legend_clashes == {"tribes-humans": (1,)}
        assert seats[2].legend_clashes == {}
        (claimed,) = refused(store.NotReady, store.lock, table, host)
        assert claimed.message_id == "legend-claimed" and claimed.player_name == "Bo"


def test_lock_needs_every_seat_done_and_checked_then_makes_one_game(db_app):
    with db_app.app_context():
        code, host, tokens = seated()
        table = store.find(code)
        reasons = refused(store.NotReady, store.lock, table, host)
        assert ids(reasons) == ["lock-not-done"] * 4
        assert ENGLISH.error(reasons[0]) == "Ada: the kingdom is not marked done yet"
        enter_all(code, tokens)
        reasons = refused(store.NotReady, store.lock, table, host)
        assert ids(reasons) == ["lock-not-checked"] * 4
        assert ids(refused(store.NotAllowed, store.lock, table, tokens[0])) == ["host-only"]
        for number in range(1, 5):
            store.check(table, number, tokens[number % 4])
        version = store.state(table).version
        saved, edit = store.lock(table, host)
        again, edit_again = store.lock(store.find(code), host)
        assert again.id == saved.id and edit_again == edit
        assert db.session.scalar(select(func.count()).select_from(SavedGame)) == 1
        assert [r.total for r in saved.results] == [p["total"] for p in FOUR["expected"]["players"]]
        assert [r.place for r in saved.results] == [p["place"] for p in FOUR["expected"]["players"]]
        assert saved.played_on == DAY and saved.entry == FOUR["game"]
        from scorekeeper.store.games import may_edit

        assert may_edit(saved, edit)
        locked = store.state(store.find(code))
        assert locked.locked and locked.game_id == saved.public_id and locked.version == version + 1
        # a locked table takes no more seats or changes
        table = store.find(code)
        assert ids(refused(store.TableConflict, store.join, table, "Eve")) == ["table-locked"]
        assert ids(refused(store.TableConflict, store.update_seat, table, 1, tokens[0], done=False)) == ["table-locked"]
        assert ids(refused(store.TableConflict, store.check, table, 1, tokens[1])) == ["table-locked"]
        assert store.may_see_edit_link(table, host) == edit and store.may_see_edit_link(table, tokens[0]) is None
        # what a poll reads in one query is the same state and the same viewer
        for token in (host, tokens[2], None, "wrong"):
            looked, seen_by = store.look(code.lower(), token)
            assert looked == store.state(table) and seen_by == store.viewer(table, token)
            assert store.edit_link_secret(looked, seen_by, token) == (edit if token == host else None)


def test_with_checks_off_and_two_players_done_is_enough(db_app):
    with db_app.app_context():
        code, host, tokens = seated(players=PLAYERS[:2])
        table = store.find(code)
        assert ids(refused(store.NotAllowed, store.set_checks, table, tokens[0], False)) == ["host-only"]
        store.set_checks(table, host, False)
        enter_all(code, tokens, PLAYERS[:2])
        saved, _ = store.lock(store.find(code), host)
        assert [r.name for r in saved.results] == ["Ada", "Bo"]
        lonely = store.create_table("classic", DAY)
        table = store.find(lonely.code)
        store.join(table, "Solo")
        assert ids(refused(store.NotReady, store.lock, table, lonely.host_token)) == ["player-count", "lock-not-done"]


def test_locking_from_many_threads_at_once_makes_exactly_one_game(db_app):
    with db_app.app_context():
        code, host, tokens = seated(checks=False)
        enter_all(code, tokens)
    games: list[int] = []
    problems: list[BaseException] = []
    start = threading.Barrier(6)

    def lock() -> None:
        try:
            with db_app.app_context():
                start.wait()
                saved, _ = store.lock(store.find(code), host)
                games.append(saved.id)
        except BaseException as error:  # reported below
            problems.append(error)

    threads = [threading.Thread(target=lock) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == [] and len(games) == 6 and len(set(games)) == 1
    with db_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(SavedGame)) == 1


def test_drafts_from_four_threads_at_once_all_land(db_app):
    with db_app.app_context():
        code, _, tokens = seated()
        version = store.state(store.find(code)).version
    problems: list[BaseException] = []
    start = threading.Barrier(4)

    def enter(number: int) -> None:
        try:
            with db_app.app_context():
                start.wait()
                player = PLAYERS[number - 1]
                cells = [None] * 16
                for index, card in enumerate(card for row in player["kingdom"] for card in row):
                    cells[index] = card
                    if index % 4 == 3:  # a save every fourth card, as a phone's draft does
                        store.update_seat(store.find(code), number, tokens[number - 1], cells=list(cells))
        except BaseException as error:  # reported below
            problems.append(error)

    threads = [threading.Thread(target=enter, args=(n,)) for n in range(1, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == []
    with db_app.app_context():
        table = store.state(store.find(code))
        assert [seat.cards_entered for seat in table.seats] == [16] * 4
        assert table.version == version + 16


def test_play_again_opens_one_new_table_with_the_same_seats_and_secrets(db_app):
    with db_app.app_context():
        code, host, tokens = seated(checks=False)
        table = store.find(code)
        assert ids(refused(store.TableConflict, store.play_again, table, host)) == ["table-not-locked"]
        enter_all(code, tokens)
        store.lock(store.find(code), host)
        assert ids(refused(store.NotAllowed, store.play_again, store.find(code), tokens[1])) == ["host-only"]
        following = store.play_again(store.find(code), host)
        assert store.play_again(store.find(code), host).code == following.code
        assert store.state(store.find(code)).next_code == following.code
        fresh = store.state(following)
        assert [s.name for s in fresh.seats] == ["Ada", "Bo", "Cy", "Di"] and not fresh.locked
        assert all(s.cards_entered == 0 and not s.done for s in fresh.seats)
        assert not fresh.checks_required
        # each phone's secret takes its seat back; the host stays host
        assert store.viewer(following, tokens[2]).seats == {3}
        assert store.viewer(following, host).host


def test_unlocked_tables_expire_after_24_hours_with_their_drafts(db_app):
    with db_app.app_context():
        old_code, old_host, old_tokens = seated(checks=False)
        enter_all(old_code, old_tokens)
        locked_code, locked_host, locked_tokens = seated(checks=False)
        enter_all(locked_code, locked_tokens)
        store.lock(store.find(locked_code), locked_host)
        day_ago = datetime.now(UTC) - timedelta(hours=24, seconds=1)
        db.session.execute(update(ScoreTable).values(created_at=day_ago))
        db.session.commit()
        fresh = store.create_table("pocket", DAY).code  # starting a table clears the old ones
        assert store.look(old_code) is None and store.find(old_code) is None
        assert store.find(locked_code).locked_at is not None  # a locked table's link still shows the sheet
        assert store.find(fresh) is not None
        assert db.session.scalar(select(func.count()).select_from(TableSeat)) == 4  # the locked table's
        # on access too, without a new table started
        db.session.execute(update(ScoreTable).where(ScoreTable.code == fresh).values(created_at=day_ago))
        db.session.commit()
        assert store.find(fresh) is None
        assert db.session.scalar(select(func.count()).select_from(ScoreTable)) == 1


def test_secrets_are_stored_only_as_hashes(db_app):
    with db_app.app_context():
        code, host, tokens = seated()
        table = store.find(code)
        stored = [table.host_token_hash] + [seat.token_hash for seat in table.seats]
        assert all(len(h) == 64 for h in stored) and len(set(stored)) == 5
        assert not any(token in h for token in [host, *tokens] for h in stored)
        assert len(host) >= 32 and all(len(t) >= 32 for t in tokens)


def test_the_app_clears_expired_tables_when_it_starts(tmp_path):
    url = f"sqlite:///{tmp_path / 'start.sqlite3'}"
    config = {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url}
    app = create_app(config)
    with app.app_context():
        stale, fresh = store.create_table("pocket", DAY).code, store.create_table("pocket", DAY).code
        day_ago = datetime.now(UTC) - timedelta(hours=25)
        db.session.execute(update(ScoreTable).where(ScoreTable.code == stale).values(created_at=day_ago))
        db.session.commit()
        db.engine.dispose()
    restarted = create_app(config)  # migrates, then clears
    with restarted.app_context():
        assert db.session.scalars(select(ScoreTable.code)).all() == [fresh]
        db.engine.dispose()
