"""History, a player's stats and the exports at 1,000, 10,000 and 100,000 saved games.

    .venv/bin/python bench/history.py                         # SQLite, 1k/10k/100k
    .venv/bin/python bench/history.py --postgres postgresql://scorekeeper:scorekeeper@127.0.0.1:5432/sk_bench
    .venv/bin/python bench/history.py --sizes 1000 10000      # fewer

The games go into one group, straight through the store's tables
(tests/bulk.py: three worked games of two, three and four players with names
from a roster of eight; "Ada" plays every game, so her stats page is the
largest there is). Each size adds games to the previous one. Then one gunicorn
worker (the README's server, ``--timeout 600`` so a long export is not killed)
serves the database, and each page is fetched five times after one warm-up
fetch; the median is printed:

- History's first page, a filtered page (``?player=Bo``), the last page
  (``?oldest=1``) and the last page filtered;
- Ada's stats page (every game): "first" is the fetch that computes her
  figures, the median those that find them kept (store/stats.py);
- the whole CSV export, streamed: time to the first byte, to the last, its
  size, and the worker's resident memory (``VmRSS``) and peak (``VmHWM``)
  from /proc before and after.

Figures go in bench/README.md with the date; no test asserts them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAGES = {
    "history, first page": "/games",
    "history, filtered (Bo)": "/games?player=Bo",
    "history, last page": "/games?oldest=1",
    "history, last page filtered": "/games?player=Bo&oldest=1",
    "stats of Ada (every game)": "/player?name=Ada",
}


def fill(url: str, target: int, group_name: str = "Bench") -> str:
    """Bring the database at *url* to *target* games in one group (adding only
    what is missing); returns a new invite path of the group (``/join/…``)."""
    from sqlalchemy import func, select

    from scorekeeper import create_app
    from scorekeeper.store import db
    from scorekeeper.store.groups import new_invite
    from scorekeeper.store.models import Group, SavedGame
    from tests.bulk import add_games, make_group

    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        have = db.session.scalar(select(func.count()).select_from(SavedGame)) or 0
        group = db.session.scalar(select(Group).where(Group.name == group_name)) or make_group(group_name)
        if target > have:
            started = time.perf_counter()
            add_games(target - have, group=group, seed=have + 1, batch=5000)
            print(f"  stored {target - have:,} games in {time.perf_counter() - started:.0f} s", flush=True)
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.exec_driver_sql("VACUUM ANALYZE")
        else:
            db.session.execute(db.text("ANALYZE"))
            db.session.commit()
        invite = f"/join/{group.public_id}/{new_invite(group)}"
        db.session.commit()
        db.engine.dispose()
    return invite


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


def memory(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of *pid*, in MiB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("Vm")
    )
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


def measure(url: str, port: int, invite: str, csv: bool = True) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env |= {"SCOREKEEPER_DATABASE_URL": url, "SCOREKEEPER_SECRET_KEY": "bench", "SCOREKEEPER_MIGRATE": "false"}
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "-w",
            "1",
            "--timeout",
            "600",
            "-b",
            f"127.0.0.1:{port}",
            "scorekeeper:create_app()",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                requests.get(base + "/healthz", timeout=2)
                break
            except requests.RequestException:
                time.sleep(0.2)
        worker = worker_pid(server.pid)
        phone = requests.Session()  # a phone in the group: History shows the group's games
        assert phone.get(base + invite, timeout=60).status_code == 200
        for label, path in PAGES.items():
            started = time.perf_counter()
            assert phone.get(base + path, timeout=60).status_code == 200, path  # warm-up
            cold = (time.perf_counter() - started) * 1000
            times, size = [], 0
            for _ in range(5):
                started = time.perf_counter()
                response = phone.get(base + path, timeout=60, headers={"Accept-Encoding": "identity"})
                times.append((time.perf_counter() - started) * 1000)
                size = len(response.content)
            print(
                f"  {label:<30} {statistics.median(times):7.1f} ms  ({max(times):.1f} max, first {cold:.0f} ms,"
                f" {size / 1024:.0f} KB)"
            )
        if not csv:
            return
        before = memory(worker)
        started = time.perf_counter()
        first = None
        size = 0
        with phone.get(base + "/games.csv", stream=True, timeout=600) as response:
            for chunk in response.iter_content(65536):
                if first is None:
                    first = time.perf_counter() - started
                size += len(chunk)
        total = time.perf_counter() - started
        after = memory(worker)
        print(
            f"  {'CSV export':<30} first byte {first * 1000:.0f} ms, all {total:.1f} s, {size / 2**20:.1f} MiB "
            f"(unzipped); worker RSS {before[0]} → {after[0]} MiB, peak {before[1]} → {after[1]} MiB",
            flush=True,
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL database to fill (emptied first)")
    parser.add_argument("--sqlite", metavar="FILE", help="the SQLite file to fill (default: a new one)")
    parser.add_argument("--keep", action="store_true", help="keep what the database holds (add only what is missing)")
    parser.add_argument("--no-csv", action="store_true", help="leave the CSV export out (minutes at 100,000 games)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--port", type=int, default=5310, help="for the gunicorn it starts (default 5310)")
    args = parser.parse_args()
    if args.postgres:
        url = args.postgres.replace("postgresql://", "postgresql+psycopg://", 1)
        import sqlalchemy

        if not args.keep:
            engine = sqlalchemy.create_engine(url)
            with engine.begin() as connection:
                connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
            engine.dispose()
    else:
        url = f"sqlite:///{args.sqlite or Path(tempfile.mkdtemp()) / 'bench.sqlite3'}"
    print(f"{url.split('@')[-1]}", flush=True)
    for games in args.sizes:
        print(f"{games:,} games", flush=True)
        invite = fill(url, games)
        measure(url, args.port, invite, csv=not args.no_csv)


if __name__ == "__main__":
    main()
