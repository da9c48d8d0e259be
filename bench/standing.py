"""A group's standing (store/standing.py) with 100,000 saved games in the group.

    .venv/bin/python bench/standing.py                          # SQLite, 100,000 games
    .venv/bin/python bench/standing.py --postgres postgresql://scorekeeper:scorekeeper@127.0.0.1:5432/sk_bench
    .venv/bin/python bench/standing.py --games 10000 --runs 20

The games go into one group straight through the store's tables (tests/bulk.py: three
worked games of two, three and four players, names from a roster of eight, "Ada" in
every game, spread over about four years), as a group saved before the standing existed:
its ratings are not yet kept. Then, through the Flask test client as a member's phone:

- building the standing (rating every game, in every season and all time, once) as
  the job does it for a group from before the standing (store.standing.bring_up_to_date:
  2,000 games a step, each committed);
- the group's page (all time, and the latest season): *runs* views after one warm-up,
  median and p95;
- through the store, as the web layer calls it: saving a new game (the latest date),
  correcting the newest game, saving a game dated before all others, correcting the oldest
  game and deleting it. Each is timed twice: the change itself, as its request does it (it
  notes what to rate again and queues a job), and then its job, run here on this thread
  (the app's own consumer is stopped), which rates again every game after the change in its
  season and all time.

Figures go in bench/README.md with the date; no test asserts them.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(label: str, action, runs: int = 1) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return times


def report(label: str, times: list[float]) -> None:
    if len(times) == 1:
        print(f"  {label:<44} {times[0]:9.1f} ms", flush=True)
        return
    p95 = statistics.quantiles(times, n=20)[-1]
    print(f"  {label:<44} {statistics.median(times):9.1f} ms median, {p95:.1f} ms p95 ({len(times)} views)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL database to fill (emptied first)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=20, help="views of the page timed (default 20)")
    args = parser.parse_args()

    import sqlalchemy

    from scorekeeper import create_app
    from scorekeeper.engine import Game
    from scorekeeper.store import db
    from scorekeeper.store import games as store
    from scorekeeper.store.groups import new_invite
    from scorekeeper.store.models import SavedGame
    from tests.bulk import add_games, make_group
    from tests.conftest import CASE_FILES, load_case

    if args.postgres:
        url = args.postgres.replace("postgresql://", "postgresql+psycopg://", 1)
        engine = sqlalchemy.create_engine(url)
        with engine.begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        engine.dispose()
    else:
        url = f"sqlite:///{Path(tempfile.mkdtemp()) / 'standing.sqlite3'}"
    print(url.split("@")[-1], flush=True)
    # the jobs queue in this process's memory; its consumer is stopped below, and each job run here, timed
    config = {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": False, "JOBS": "embedded"}
    app = create_app(config | {"WTF_CSRF_ENABLED": False})
    two = load_case(next(p for p in CASE_FILES if p.name.startswith("02-")))["game"]

    def game_of(*names: str) -> Game:
        data = copy.deepcopy(two)
        for player, name in zip(data["players"], names, strict=True):
            player["name"] = name
        return Game.from_dict(data)

    with app.app_context():
        group = make_group()
        started = time.perf_counter()
        add_games(args.games, group=group, batch=5000)
        print(f"  stored {args.games:,} games in {time.perf_counter() - started:.0f} s", flush=True)
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.exec_driver_sql("VACUUM ANALYZE")
        invite = f"/join/{group.public_id}/{new_invite(group)}"
        page = f"/groups/{group.public_id}"
        db.session.remove()

    from scorekeeper.store.standing import bring_up_to_date

    with app.app_context():  # before any request: the first starts the app's own consumer
        group = db.session.merge(group)
        report("the standing built in full, in steps (the job)", timed("", lambda: bring_up_to_date(group.id)))
        db.session.remove()

    phone = app.test_client()
    assert phone.get(invite).status_code == 303

    def view(path: str) -> None:
        response = phone.get(path)
        assert response.status_code == 200, response.status_code
        assert b'id="standing-table"' in response.data

    with app.app_context():
        latest = db.session.scalar(sqlalchemy.select(sqlalchemy.func.max(SavedGame.played_on)))
        db.session.remove()
    for label, path in (("page, all time", page), (f"page, season {latest.year}", f"{page}?season={latest.year}")):
        view(path)
        report(label, timed(label, lambda p=path: view(p), runs=args.runs))

    app.extensions["jobs"].stop_here()  # the pages' requests started it: each job is run below, timed
    with app.app_context():
        group = db.session.merge(group)
        first = date(2019, 12, 31)
        newest: list[SavedGame] = []
        oldest: list[SavedGame] = []

        def save_new() -> None:
            newest.append(store.save_game(game_of("Bo", "Ada"), store.Details(latest), group=group)[0])

        def correct_newest() -> None:
            store.correct_game(newest[0], game_of("Ada", "Bo"), store.Details(latest), based_on=1)

        def save_oldest() -> None:
            oldest.append(store.save_game(game_of("Cy", "Ada"), store.Details(first), group=group)[0])

        def correct_oldest() -> None:
            store.correct_game(oldest[0], game_of("Ada", "Cy"), store.Details(first), based_on=1)

        def delete_oldest() -> None:
            store.delete_game(oldest[0])

        def job() -> None:
            bring_up_to_date(group.id)

        for label, change in (
            ("save a new game (the latest date)", save_new),
            ("correct that game", correct_newest),
            ("save a game dated before all others", save_oldest),
            ("correct that oldest game", correct_oldest),
            ("delete that oldest game", delete_oldest),
        ):
            report(label, timed("", change))
            report("  … then its job", timed("", job))
        db.session.remove()
    view(page)
    report("page, all time, after the changes", timed("", lambda: view(page), runs=args.runs))


if __name__ == "__main__":
    main()
