"""A group's standing caught up outside the request (issue 32, item 2), with a real worker
beside the requests: Huey's consumer as the app runs it without Redis (``embedded``: its
threads in the app's process) and as production runs it (``flask worker``, a process of its
own, the queue in a redis-server of the test's), on SQLite and PostgreSQL.

A correction dated years back in a group of 3,000 games answers while its standing is still
behind (the page says so), a save into the same group answers before that rating is done,
and once the worker has run the standing is the one a full rating from scratch gives. Before
the change, the correction rated every later game inside its own request, so the standing
was current the moment it answered.

No time is measured here (bench/standing.py does): "before" is read off the database, whose
notes of what is yet to rate go only with the last step of the job that rates it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest
from bs4 import BeautifulSoup
from huey import signals
from sqlalchemy import delete, event, select, text
from sqlalchemy.pool import QueuePool

from scorekeeper import create_app
from scorekeeper.jobs import consumer
from scorekeeper.store import db
from scorekeeper.store import games as store
from scorekeeper.store import groups as store_groups
from scorekeeper.store.models import KeptStanding, StandingChange
from scorekeeper.store.standing import bring_up_to_date, is_behind, standing
from tests.bulk import add_games
from tests.conftest import form_data, migrated_sqlite
from tests.serving.server import FLASK, job_worker, redis_server, required_program
from tests.store.test_standing import TWO, game_of, kept_rows
from tests.web.test_standing import game_of as game_file

GAMES = 3_000  # a second or so of rating: steps of the job's that a save can come between


@dataclass
class Worker:
    """The app the test's phone talks to, and the worker of its queue, started when the test says."""

    app: object
    kind: str
    start: object
    stop: object

    @property
    def jobs(self):
        return self.app.extensions["jobs"]

    def wait_until_current(self, group_id: int, seconds: float = 180) -> None:
        """Until the worker has brought the group's standing up to date (no time asserted:
        a generous bound only, so that a worker that never runs fails instead of hanging)."""
        deadline = time.monotonic() + seconds
        while True:
            with self.app.app_context():
                if not is_behind(group_id):
                    return
            assert time.monotonic() < deadline, f"the {self.kind} worker did not catch up in {seconds} s"
            time.sleep(0.1)


@pytest.fixture(params=["thread", "process"])
def worker(request, database_url, tmp_path) -> Iterator[Worker]:
    """The app, and its worker: Huey's consumer threads in this process (``JOBS``
    ``embedded``, as ``make run``), or ``flask worker`` in a process of its own with the
    queue in Redis (``JOBS`` ``redis``, as compose's ``worker`` service)."""
    config = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "RATELIMIT_ENABLED": False,
        "MIGRATE": False,
        "SQLALCHEMY_ENGINE_OPTIONS": {"poolclass": QueuePool, "pool_size": 3},
        "JOB_RETRIES": 5,
        "JOB_RETRY_DELAY": 0.2,
    }
    if request.param == "thread":
        app = create_app(config | {"JOBS": "embedded"})
        jobs = app.extensions["jobs"]
        yield Worker(app, "thread", jobs.start_here, jobs.stop_here)
        jobs.stop_here()
    else:
        with redis_server(required_program("redis-server")) as redis_url, contextlib.ExitStack() as running:
            app = create_app(config | {"JOBS": "redis", "REDIS_URL": redis_url})
            environment = {"SCOREKEEPER_REDIS_URL": redis_url, "SCOREKEEPER_MIGRATE": "false"}
            environment["SCOREKEEPER_JOB_RETRY_DELAY"] = "0.2"

            def start() -> None:
                running.enter_context(job_worker(database_url, tmp_path / "worker.log", **environment))

            yield Worker(app, "process", start, running.close)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def big_group(app, games: int = GAMES, *, built: bool = True) -> tuple[int, str, str, str]:
    """A group of *games* games from 2021 on (tests/bulk.py) and one of 1 June 2020 saved
    as a phone would (Ada beat Bo): the group's id, public id, invite link and that game's
    private link. Its standing is built here (*built*), or left to be built as that of a
    group from before the standing."""
    with app.app_context():
        group, secret = store_groups.create_group("Club night")
        add_games(games, group=group, first=date(2021, 1, 1), days=1500)
        saved, edit = store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2020, 6, 1)), group=group)
        private = f"/g/{saved.public_id}/{edit}"
        db.session.delete(db.session.get(KeptStanding, group.id))  # as a group from before the standing
        db.session.execute(delete(StandingChange))
        db.session.commit()
        if built:
            bring_up_to_date(group.id)
        return group.id, group.public_id, f"/join/{group.public_id}/{secret}", private


def notes_of(app, group_id: int) -> set[int]:
    """The ids of the group's notes of what its standing has yet to rate."""
    with app.app_context():
        return set(db.session.scalars(select(StandingChange.id).where(StandingChange.group_id == group_id)))


def catching_up(phone, page: str) -> bool:
    """Whether the group's page says that its standing is being brought up to date."""
    soup = BeautifulSoup(phone.get(page).data, "lxml")
    assert soup.select_one("#standing-table") is not None  # the standing from before is shown meanwhile
    return soup.select_one("#standing-catching-up") is not None


def test_a_back_dated_correction_answers_before_the_standing_and_a_save_beside_it_is_not_held(worker: Worker):
    group_id, public_id, invite, private = big_group(worker.app, built=False)
    worker.start()
    worker.wait_until_current(group_id)  # the worker's first sweep builds the group's standing: it runs
    phone = worker.app.test_client()
    assert phone.get(invite).status_code == 303
    page = f"/groups/{public_id}"
    assert not catching_up(phone, page)
    later = phone.post("/", data=form_data(game_file(TWO, "Cy", "Di")) | {"played_on": "2025-06-01"})
    later_sheet = later.headers["Location"].removeprefix("/sheet/")

    # Bo won the game dated before all others after all: the correction answers, and its
    # standing is not yet rated again (every game of the group comes after it) …
    corrected = form_data(game_file(TWO, "Bo", "Ada")) | {"based_on": 1, "played_on": "2020-06-01"}
    assert phone.post(private + "/edit", data=corrected).status_code == 303
    noted = notes_of(worker.app, group_id)
    assert noted  # what is to be rated again, kept with the correction
    # … and a save into the same group meanwhile answers too, before that rating is done
    assert phone.post("/games", data={"token": later_sheet, "group": public_id}).status_code == 303
    assert noted & notes_of(worker.app, group_id), "the save waited for the correction's rating"
    assert catching_up(phone, page)

    worker.wait_until_current(group_id)
    assert not catching_up(phone, page)
    worker.stop()
    with worker.app.app_context():
        group = store_groups.find_group(public_id)
        kept = kept_rows(group)
        players = {p.name: p.games for p in standing(group).players}
        assert players["Bo"] > 0 and players["Di"] > 0 and players["Cy"] > 0
        assert sum(players.values()) == sum(1 for key in kept[0] if key[0] == 0)  # every seat of all time rated once
        # the standing kept step by step is the one a full rating from scratch gives
        db.session.delete(db.session.get(KeptStanding, group_id))
        db.session.commit()
        bring_up_to_date(group_id)
        assert kept_rows(group) == kept


def test_a_job_the_queue_lost_is_run_by_the_workers_sweep(worker: Worker):
    with worker.app.app_context():
        group, _ = store_groups.create_group("Friday")
        store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2026, 3, 1)), group=group)
        group_id, public_id = group.id, group.public_id
        assert is_behind(group_id)
    worker.jobs.huey.flush()  # the queue loses its job (a Redis restarted empty, the app's process gone)
    assert len(worker.jobs.huey) == 0
    worker.start()  # the worker's sweep finds the group behind in the database
    worker.wait_until_current(group_id)
    with worker.app.app_context():
        # Ada beat Bo in their first game: mu 27.635, sigma 8.066, rating 3.438 (tests/store/test_standing.py)
        ratings = {p.name: round(p.rating, 3) for p in standing(store_groups.find_group(public_id)).players}
        assert ratings == {"Ada": 3.438, "Bo": -1.833}


REFUSE = {
    "sqlite": [
        "CREATE TRIGGER refuse_snapshots BEFORE INSERT ON rating_snapshots BEGIN SELECT RAISE(ABORT, 'refused'); END"
    ],
    "postgresql": [
        "CREATE FUNCTION refuse_snapshots() RETURNS trigger LANGUAGE plpgsql"
        " AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$",
        "CREATE TRIGGER refuse_snapshots BEFORE INSERT ON rating_snapshots"
        " FOR EACH ROW EXECUTE FUNCTION refuse_snapshots()",
    ],
}
ALLOW = {
    "sqlite": ["DROP TRIGGER refuse_snapshots"],
    "postgresql": ["DROP TRIGGER refuse_snapshots ON rating_snapshots", "DROP FUNCTION refuse_snapshots()"],
}


@pytest.mark.parametrize("worker", ["thread"], indirect=True)  # Huey's signals are seen in the worker's process
def test_a_failed_job_is_retried_and_nothing_rated_is_lost(worker: Worker):
    retried = threading.Event()
    worker.jobs.huey.signal(signals.SIGNAL_RETRYING)(lambda signal, task, *_: retried.set())
    with worker.app.app_context():
        dialect = db.engine.dialect.name
        group, _ = store_groups.create_group("Friday")
        for statement in REFUSE[dialect]:  # the database refuses every snapshot: a real failure of the job's
            db.session.execute(text(statement))
        db.session.commit()
        try:
            # the save itself is stored: its rating is not its request's
            store.save_game(game_of(TWO, "Ada", "Bo"), store.Details(date(2026, 3, 1)), group=group)
            group_id, public_id = group.id, group.public_id
            worker.start()
            assert retried.wait(60), "the job did not fail and get retried"
            assert is_behind(group_id)  # the failed job left its note
        finally:
            for statement in ALLOW[dialect]:
                db.session.execute(text(statement))
            db.session.commit()
    worker.wait_until_current(group_id)  # a retry, well before the sweep's next minute
    with worker.app.app_context():
        ratings = {p.name: round(p.rating, 3) for p in standing(store_groups.find_group(public_id)).players}
        assert ratings == {"Ada": 3.438, "Bo": -1.833}


def test_the_worker_needs_a_queue_of_its_own(tmp_path):
    """Without Redis the app's processes run their jobs themselves: ``flask worker`` says so."""
    result = subprocess.run(
        [str(FLASK), "--app", "scorekeeper", "worker"],
        env=os.environ | {"SCOREKEEPER_SECRET_KEY": "t", "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode != 0 and "needs Redis" in result.stderr


def test_one_job_rates_a_group_at_a_time_and_takes_the_notes_of_those_turned_away(database_url):
    """Two jobs for one group at once: the second returns at once, leaving its note, and the
    one rating takes it when it lets go (the latest notes win, none is left behind)."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url, "MIGRATE": False}
        | {"JOBS": "embedded"}  # queued in memory, and no request ever starts the consumer: the jobs run here
    )
    group_id, public_id, _, _ = big_group(app)
    with app.app_context():
        group = store_groups.find_group(public_id)
        store.save_game(game_of(TWO, "Cy", "Ada"), store.Details(date(2020, 5, 1)), group=group)  # before all

    stepped = threading.Event()

    def first_job() -> None:
        with app.app_context():
            event.listen(db.session(), "after_commit", lambda session: stepped.set())  # a step of 500 games done
            bring_up_to_date(group_id, step=500)

    first = threading.Thread(target=first_job)
    first.start()
    assert stepped.wait(60)  # the first job holds the group, 2,500 games still to rate
    with app.app_context():
        group = store_groups.find_group(public_id)
        store.save_game(game_of(TWO, "Di", "Ada"), store.Details(date(2030, 1, 1)), group=group)
        bring_up_to_date(group_id)  # the second job: the group is taken
        assert first.is_alive(), "the second job waited for the first"
        assert is_behind(group_id)  # its note stays …
    first.join(120)
    with app.app_context():
        assert not is_behind(group_id)  # … for the first job, which took it when it let go
        group = store_groups.find_group(public_id)
        kept = kept_rows(group)
        db.session.delete(db.session.get(KeptStanding, group_id))
        db.session.commit()
        bring_up_to_date(group_id)
        assert kept_rows(group) == kept  # the game of 2030 rated, as from scratch
        db.session.remove()
        db.engine.dispose()


def test_a_worker_that_cannot_reach_redis_says_so_in_one_line_a_try(tmp_path, caplog):
    """Redis stopped: each try of Huey's worker at its queue is one line with Redis's own
    error, not a traceback (a club night's 20 s without Redis once wrote 30 of them)."""
    from tests.serving.server import free_port

    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": migrated_sqlite(tmp_path / "a.sqlite3")}
        | {"MIGRATE": False, "JOBS": "redis", "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}  # nobody there
    )
    worker, _ = consumer(app.extensions["jobs"], workers=1).worker_threads[0]
    with caplog.at_level(logging.INFO, logger="huey"):
        worker.loop()  # one real try at the queue, refused
        worker.loop()
    tries = [record for record in caplog.records if record.name == "huey.consumer.Worker"]
    assert len(tries) == 2
    for record in tries:
        assert record.exc_info is None and "Traceback" not in caplog.text
        assert record.getMessage().startswith("Error reading from queue: Redis: Error 111 connecting to 127.0.0.1")
