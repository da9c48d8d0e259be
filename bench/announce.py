"""What announcing one change of a shared table costs, per announcement: the time of the
request that made the change (its thread's wall and CPU time), and the CPU of its whole
process (the request's thread, and the thread announcing for it until Redis has replied).

    .venv/bin/python bench/announce.py                       # starts a redis-server of its own
    .venv/bin/python bench/announce.py --redis redis://127.0.0.1:6379/0 --count 5000

The table is case 19's, four kingdoms entered and done (tests/data/cases/19-four-players.json);
``scorekeeper.table.events.publish`` is called as the service calls it after a commit, in an
app's context, in each of the ways a process is set up (see bench/README.md). The last line is
a stream worker's part: an announcement read from Redis passed on to a phone.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.table import events, service  # noqa: E402
from scorekeeper.table.model import Draft, Table, read_cells  # noqa: E402
from scorekeeper.web.tables.wire import push  # noqa: E402
from tests.conftest import CASE_FILES, load_case  # noqa: E402

PLAYERS = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]["players"]


def four_kingdoms(app: Any) -> Table:
    """A table of case 19's four players, every kingdom entered and done."""
    with app.app_context():
        table, host = service.start("pocket", date(2026, 11, 30))
        secrets = [service.take_seat(table.code, p["name"], [host] if n == 0 else [])[2] for n, p in enumerate(PLAYERS)]
        for number, (player, secret) in enumerate(zip(PLAYERS, secrets, strict=True), start=1):
            draft = Draft(read_cells(player["kingdom"], {}), tuple(player["legends"]), True)
            service.save_draft(table.code, number, [secret], draft)
        found = service.find(table.code)
        assert found is not None
        return found


def watched(app: Any, code: str) -> list[object]:
    """A phone in table *code*'s room of *app*'s process: the packets sent to it, counted, not sent."""
    server = app.extensions["socketio"].server
    sent: list[object] = []
    server.manager_initialized = True
    server.manager.initialize()
    server.manager.enter_room(server.manager.connect("a-phone", "/"), "/", code)
    server._send_eio_packet = lambda eio_sid, packet: sent.append(packet)
    time.sleep(0.3)  # the manager's listener subscribed
    return sent


def best(run: Callable[[], object], count: int, rounds: int, settle: Callable[[], None]) -> tuple[float, ...]:
    """Per call of *run*'s *count*: the least wall, thread CPU and process CPU (µs) of *rounds* rounds."""
    wall, caller, process = [], [], []
    for _ in range(rounds):
        w, c, p = time.perf_counter(), time.thread_time(), time.process_time()
        run()
        caller.append(time.thread_time() - c)
        settle()
        wall.append(time.perf_counter() - w)
        process.append(time.process_time() - p)
    return tuple(min(figures) / count * 1e6 for figures in (wall, caller, process))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", help="a Redis URL (default: a redis-server of this script's own)")
    parser.add_argument("--count", type=int, default=2000, help="announcements a round (default 2000)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds; the best is shown (default 7)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp())
    with contextlib.ExitStack() as stack:
        if args.redis is None:
            from tests.serving.server import redis_server

            args.redis = stack.enter_context(redis_server())

        def app(name: str, **config: object) -> Any:
            (folder / name).mkdir()
            database = f"sqlite:///{folder / name / 'db.sqlite3'}"
            return create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database} | config)

        def measure(label: str, made: Any, watching: bool = False) -> None:
            table = four_kingdoms(made)
            manager = made.extensions["socketio"].server.manager
            sent = watched(made, table.code) if watching else []

            def settle() -> None:  # until the announcing thread, if any, has sent all it was given
                outbox = getattr(manager, "_outbox", None)
                while outbox is not None and not outbox.empty():
                    time.sleep(0.001)
                time.sleep(0.005 if outbox is not None else 0)

            with made.app_context():
                run = lambda: [events.publish(table) for _ in range(args.count)]  # noqa: E731
                run()
                wall, caller, process = best(run, args.count, args.rounds, settle)
            each = len(sent) // ((args.rounds + 1) * args.count)
            print(f"{label:48} {wall:5.0f} µs wall {caller:5.0f} µs CPU {process:5.0f} µs process CPU, {each} sent")

        table = four_kingdoms(app("dict"))
        figures = best(lambda: [push(table) for _ in range(args.count)], args.count, args.rounds, lambda: None)
        print(f"{'wire.push alone (the JSON of a table)':48} {figures[1]:5.0f} µs CPU")
        measure("no Redis, nobody watching", app("alone"))
        measure("no Redis, a phone watching (make run)", app("make-run"), watching=True)
        measure("Redis, nobody watching (an app worker)", app("worker", REDIS_URL=args.redis))
        measure("Redis, a phone watching (a process doing both)", app("both", REDIS_URL=args.redis), watching=True)

        made = app("stream", REDIS_URL=args.redis)
        table = four_kingdoms(made)
        manager = made.extensions["socketio"].server.manager
        sent = watched(made, table.code)
        message = {"method": "emit", "event": "table", "data": [push(table)], "binary": False}
        message |= {"namespace": "/", "room": table.code, "skip_sid": None, "callback": None, "host_id": "another"}
        raw = manager.json.dumps(message).encode()
        run = lambda: [manager._handle_emit(manager.json.loads(raw)) for _ in range(args.count)]  # noqa: E731
        wall, caller, _ = best(run, args.count, args.rounds, lambda: None)
        each = len(sent) // (args.rounds * args.count)
        print(f"{'a stream worker: from Redis to a phone':48} {wall:5.0f} µs wall {caller:5.0f} µs CPU, {each} sent")


if __name__ == "__main__":
    main()
