"""The store on a real database (SQLite file, and PostgreSQL when configured):
migrations, revisions, rebuilt summaries, links, concurrency, export/import."""

from __future__ import annotations

import copy
import threading
from datetime import date

import pytest
import sqlalchemy
from flask_migrate import downgrade, upgrade

from scorekeeper.engine import Game, GameErrors
from scorekeeper.store import MIGRATIONS, db
from scorekeeper.store import games as store
from scorekeeper.store.exchange import game_file, history_file, import_games
from scorekeeper.store.models import GameRevision, PlayerResult, SavedGame
from tests.conftest import CASE_FILES, load_case

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
DAY = date(2026, 11, 30)


def game(**changes) -> Game:
    data = copy.deepcopy(FOUR["game"])
    for index, name in changes.items():
        data["players"][int(index.removeprefix("p"))]["name"] = name
    return Game.from_dict(data)


def test_migration_builds_the_schema_from_empty_and_back(db_app):
    with db_app.app_context():
        inspector = sqlalchemy.inspect(db.engine)
        assert {"saved_games", "game_revisions", "player_results", "alembic_version"} <= set(
            inspector.get_table_names()
        )
        downgrade(directory=str(MIGRATIONS), revision="base")
        assert set(sqlalchemy.inspect(db.engine).get_table_names()) <= {"alembic_version"}
        upgrade(directory=str(MIGRATIONS))
        assert "saved_games" in sqlalchemy.inspect(db.engine).get_table_names()


def test_save_stores_entry_revision_and_summary(db_app):
    with db_app.app_context():
        saved, secret = store.save_game(game(), store.Details(DAY, " Club ", "notes"))
        assert saved.revision == 1 and saved.location == "Club"
        assert saved.entry == FOUR["game"] | {"ruleset": "pocket"}
        assert [r.number for r in saved.revisions] == [1]
        totals = [r.total for r in saved.results]
        assert totals == [p["total"] for p in FOUR["expected"]["players"]]
        assert saved.winners == "Di"
        other = secret[:-1] + ("y" if secret.endswith("x") else "x")  # one character off (1 in 64 ended in x)
        assert store.may_edit(saved, secret) and not store.may_edit(saved, other)
        assert not store.may_edit(saved, "")
        assert secret not in saved.edit_token_hash


def test_correction_rebuilds_the_summary_and_keeps_revisions(db_app):
    with db_app.app_context():
        saved, _ = store.save_game(game(), store.Details(DAY))
        store.correct_game(saved, game(p3="Dido"), store.Details(DAY), based_on=1)
        assert saved.revision == 2
        assert [r.number for r in saved.revisions] == [1, 2]
        assert saved.revisions[0].entry["players"][3]["name"] == "Di"
        names = db.session.scalars(sqlalchemy.select(PlayerResult.name).order_by(PlayerResult.seat)).all()
        assert names == ["Ada", "Bo", "Cy", "Dido"]  # rebuilt, not appended
        with pytest.raises(store.GameChanged):
            store.correct_game(saved, game(p0="Adele"), store.Details(DAY), based_on=1)
        assert saved.entry["players"][0]["name"] == "Ada"


def test_delete_removes_revisions_and_results(db_app):
    with db_app.app_context():
        saved, _ = store.save_game(game(), store.Details(DAY))
        store.delete_game(saved)
        for model in (SavedGame, GameRevision, PlayerResult):
            assert db.session.scalar(sqlalchemy.select(sqlalchemy.func.count()).select_from(model)) == 0


def test_import_is_all_or_nothing(db_app):
    with db_app.app_context():
        bad = copy.deepcopy(FOUR["game"])
        bad["players"][0]["name"] = ""
        with pytest.raises(GameErrors):
            import_games({"games": [FOUR["game"], bad]})
        assert list(store.all_games()) == []


def test_history_export_import_round_trip(db_app):
    with db_app.app_context():
        store.save_game(game(), store.Details(date(2026, 11, 1), "Club", "first"))
        store.save_game(game(p0="Zoë"), store.Details(date(2026, 11, 2)))
        exported = history_file(store.all_games())
        for saved in list(store.all_games()):
            store.delete_game(saved)
        import_games(exported)
        assert history_file(store.all_games()) == exported
        assert [game_file(g)["date"] for g in list(store.all_games())] == ["2026-11-01", "2026-11-02"]


THREADS, ROUNDS = 8, 25


def test_concurrent_saves_and_corrections_lose_nothing(db_app):
    """8 threads × 25 rounds: each saves a new game, then tries to correct one
    shared game. Every accepted save and correction is there afterwards."""
    with db_app.app_context():
        shared, _ = store.save_game(game(), store.Details(DAY))
        shared_id = shared.public_id
    saved_ids: list[tuple[str, str]] = []
    accepted: list[str] = []
    refused: list[str] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def worker(thread: int) -> None:
        try:
            for round_ in range(ROUNDS):
                name = f"T{thread}R{round_}"
                with db_app.app_context():
                    saved, _ = store.save_game(game(p0=name), store.Details(DAY))
                    with lock:
                        saved_ids.append((saved.public_id, name))
                with db_app.app_context():
                    target = store.find_game(shared_id)
                    try:
                        store.correct_game(target, game(p1=name), store.Details(DAY), based_on=target.revision)
                        outcome = accepted
                    except store.GameChanged:
                        outcome = refused
                    with lock:
                        outcome.append(name)
                    db.session.remove()
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures
    print(f"corrections accepted {len(accepted)}, refused as changed meanwhile {len(refused)}")
    assert len(saved_ids) == THREADS * ROUNDS and len(accepted) + len(refused) == THREADS * ROUNDS
    with db_app.app_context():
        for public_id, name in saved_ids:
            saved = store.find_game(public_id)
            assert saved.entry["players"][0]["name"] == name
            assert [r.name for r in saved.results][0] == name
            assert [r.number for r in saved.revisions] == [1]
        shared = store.find_game(shared_id)
        numbers = [r.number for r in shared.revisions]
        assert numbers == list(range(1, len(accepted) + 2))  # no gap, no duplicate
        corrected_names = [r.entry["players"][1]["name"] for r in shared.revisions[1:]]
        assert sorted(corrected_names) == sorted(accepted)
        assert shared.entry == shared.revisions[-1].entry
        assert [r.name for r in shared.results][1] == shared.entry["players"][1]["name"]
