"""A group's "tonight" page at a club night: many tables started from the group's page, and
television screens watching them all (issue 34, part 2).

Run from the repository root (with the ``test`` extra installed)::

    .venv/bin/python bench/tonight.py                                  # 30 tables, screens 0 then 1 then 10
    .venv/bin/python bench/tonight.py --tables 5 --screens 1 --think 0.5    # a short try
    .venv/bin/python bench/tonight.py --database-url postgresql://user:pw@127.0.0.1:5432/db

What runs, once for each count of ``--screens`` (``0,1,10``), on fresh servers each time:
bench/tables.py's production shape (nginx, an instance's gunicorn, its stream worker, Redis,
the job worker; SQLite, or a fresh PostgreSQL database beside ``--database-url``'s) and its
streamed phones: ``--tables`` tables (30) × 4 phones play case 19, a card every ``--think``
seconds a phone (1.5 on average), check each other and lock, except that each host starts its
table from the group's page (having opened the group's invite link first), so every table
belongs to one group and is told to its "tonight" page. Before the first table starts, the
screens open the page by the group's screen link, as a television does, and connect its stream
as static/js/tonight.js does (its ticket, the versions it shows, the evening's games); they
then only listen (a dropped stream connects again at once, counted).

Reported (printed, and with ``--json FILE``), never asserted:

- pushes per change to a screen: the ``table`` events it received ÷ the changes of the
  evening's tables (each table's versions, 1 to its last; target one), and the changes it
  never received (target none; each screen's, summed);
- requests from the screens between their catch-up (connected, what they missed sent) and
  the end (target none: a screen asks nothing; tonight.js loads the page again only after
  30 s without a stream), and streams dropped and connected again;
- the servers' CPU over the game's window, by kind of process (bench/tables.py's
  :class:`Meter`), for each count of screens: what a screen costs is the difference, for
  one screen and per screen of ten; with change→sight p50/p95 of the phones beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import aiohttp
import tables  # bench/tables.py's servers, phones and meter (bench/ is on the path of a script run here)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


#: What the seeding process runs in the checkout: the group, its invite secret and a screen link.
SEED = r"""
import json, secrets, sys
from scorekeeper import create_app
from scorekeeper.store.groups import create_group
from scorekeeper.store.tonight import new_screen_link

app = create_app({"SQLALCHEMY_DATABASE_URI": sys.argv[1], "MIGRATE": False, "SECRET_KEY": "seed"})
with app.app_context():
    invite = secrets.token_urlsafe(16)
    group, _ = create_group("Club night", secret=invite)
    print(json.dumps({"id": group.public_id, "invite": invite, "screen": new_screen_link(group)}))
"""


def seed(checkout: Path, url: str) -> dict[str, str]:
    """The group, stored by the checkout's own code (its .venv): its public id, invite secret, screen secret."""
    done = subprocess.run(
        [str(checkout / ".venv" / "bin" / "python"), "-c", SEED, url],
        cwd=checkout,
        env=os.environ | {"PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        sys.exit(f"seeding failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def group_phone(group: dict[str, str]) -> type:
    """bench/tables.py's streamed phone whose host starts its table from *group*'s page."""

    class GroupPhone(tables.StreamPages):  # type: ignore[misc, name-defined]
        async def start(self) -> str:
            await self._open(f"/join/{group['id']}/{group['invite']}", "group invite")  # then the group's page
            form = self.forms["group-start-table"]
            answer = await self.run.request(
                self.session, "start table", "POST", urljoin(self.base, form.action), data=form.data()
            )
            await self._open("", "table page", answer)
            return self.url.rsplit("/", 1)[1]

    return GroupPhone


TONIGHT = re.compile(r'<div class="tonight" id="tonight"[^>]*>')
CARD = re.compile(r'<article class="tonight-table[^"]*" id="table-[^"]*" data-code="([^"]*)" data-version="(\d+)"')


class Screen:
    """A television on the group's tonight page (static/js/tonight.js), listening only."""

    def __init__(self, base: str, live: str, path: str) -> None:
        self.base, self.live, self.path = base, live, path
        self.session: aiohttp.ClientSession | None = None
        self.stream: Any = None
        self.shown: dict[str, int] = {}  # each table's version drawn
        self.games = 0
        self.ticket = ""
        self.pushes: Counter[tuple[str, int]] = Counter()  # (code, version) → table events received
        self.caught_up: list[tuple[str, int]] = []  # what the tonight events brought
        self.requests = 0  # HTTP requests after the first catch-up
        self.counting = False
        self.drops = 0
        self.errors: list[str] = []

    async def open(self) -> None:
        traced = aiohttp.TraceConfig()  # every HTTP request of the screen, its stream's (re)connections included
        traced.on_request_start.append(self._asked)
        self.session = aiohttp.ClientSession(trace_configs=[traced])
        async with self.session.get(urljoin(self.base, self.path)) as answer:
            page = await answer.text()
            if answer.status != 200:
                raise RuntimeError(f"the tonight page answered {answer.status}")
        data = tables.attributes(TONIGHT.search(page).group(0))  # type: ignore[union-attr]
        self.ticket, self.games = data["data-ticket"] or "", int(data["data-games"] or 0)
        self.shown = {code: int(version) for code, version in CARD.findall(page)}
        await self._connect()
        self.counting = True

    async def _connect(self) -> None:
        import socketio

        logging.getLogger("engineio.client").setLevel(logging.CRITICAL)
        stream = self.stream = socketio.AsyncClient(reconnection=False, http_session=self.session)
        stream.on("table", self._table)
        stream.on("tonight", self._tonight)

        async def dropped() -> None:  # stream.js connects again (and is sent what it missed)
            if self.stream is stream and self.session is not None and not self.session.closed:
                self.drops += 1
                asyncio.ensure_future(self._connect())

        stream.on("disconnect", dropped)
        auth = {"ticket": self.ticket, "lang": "en", "versions": self.shown, "games": self.games}
        try:
            await stream.connect(self.live, transports=["websocket"], auth=auth, wait_timeout=30)
        except Exception as error:
            self.errors.append(f"screen stream: {type(error).__name__}: {error}")

    async def _asked(self, *_: Any) -> None:
        if self.counting:
            self.requests += 1

    def _draw(self, table: dict[str, Any]) -> None:
        if table["version"] > self.shown.get(table["code"], 0):
            self.shown[table["code"]] = table["version"]
        if "evening" in table:
            self.games = table["evening"]["games"]

    async def _table(self, table: dict[str, Any]) -> None:
        self.pushes[(table["code"], table["version"])] += 1
        self._draw(table)

    async def _tonight(self, missed: dict[str, Any]) -> None:
        for table in missed["tables"]:
            self.caught_up.append((table["code"], table["version"]))
            self._draw(table)
        self.games = missed["evening"]["games"]

    async def close(self) -> None:
        stream, self.stream = self.stream, None
        if stream is not None:
            with contextlib.suppress(Exception):
                await stream.disconnect()
        if self.session is not None:
            await self.session.close()


async def evening(args: argparse.Namespace, serving: Any, meter: Any, group: dict[str, str], screens: int) -> dict:
    """The screens open the page, then the tables play (bench/tables.py's drive); the figures."""
    base, live = serving.bases[0]
    watching = [Screen(base, live, f"/groups/{group['id']}/screen/{group['screen']}") for _ in range(screens)]
    await asyncio.gather(*(screen.open() for screen in watching))
    kind = group_phone(group)
    figures = await tables.drive(args, serving.bases, meter, kind_of=lambda n: kind)
    await asyncio.sleep(2)  # the last lock's push on its way
    for screen in watching:
        await screen.close()
    finals = {}  # each table's last version, as any screen saw it
    for screen in watching:
        for code, version in [*screen.pushes, *screen.caught_up]:
            finals[code] = max(finals.get(code, 0), version)
    changes = sum(finals.values())
    received = sum(sum(screen.pushes.values()) for screen in watching)
    missed = sum(
        sum(1 for code, last in finals.items() for v in range(1, last + 1) if (code, v) not in screen.pushes)
        for screen in watching
    )
    return figures | {
        "screens": screens,
        "evening_tables": len(finals),
        "evening_changes": changes,
        "pushes_per_change": received / (changes * screens) if changes and screens else None,
        "changes_not_pushed": missed,
        "caught_up": sum(len(screen.caught_up) for screen in watching),
        "screen_requests": sum(screen.requests for screen in watching),
        "screen_drops": sum(screen.drops for screen in watching),
        "screen_errors": [error for screen in watching for error in screen.errors],
    }


def one_run(args: argparse.Namespace, screens: int) -> dict[str, Any]:
    """Fresh servers and database, the group seeded, the evening played with *screens* screens."""
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-tonight-"))
    checkout = Path(args.checkout).resolve()
    with contextlib.ExitStack() as stack:
        database = None
        if args.database_url:
            url, database = stack.enter_context(tables.fresh_postgres(args.database_url))
        else:
            url = f"sqlite:///{work / 'tonight.sqlite3'}"
        with tables.servers(args, url, work) as serving:
            group = seed(checkout, url)
            meter = tables.Meter(os.getpid(), serving.stream_ports, database)
            figures = asyncio.run(evening(args, serving, meter, group, screens))
    for log in sorted([*work.glob("gunicorn-*.log"), *work.glob("worker.log")]):
        text = log.read_text(errors="replace")
        figures["errors"] += [f"{log.name}: a traceback"] * text.count("Traceback")
    figures["errors"] += figures.pop("screen_errors")
    if figures["errors"]:
        print(f"(server logs kept in {work})", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return figures | {"database": "postgresql" if database else "sqlite"}


def report(runs: list[dict[str, Any]], tables_count: int) -> None:
    first = runs[0]
    print(f"tonight: {tables_count} tables × 4 phones from one group's page, {first['database']}, one instance")
    for f in runs:
        cpu = f["cpu_seconds"]
        server = sum(cpu.values())
        line = (
            f"  {f['screens']:2} screen(s): {f['seconds']:.0f} s, change→sight p50 {f['delay_p50']:.2f} s "
            f"p95 {f['delay_p95']:.2f} s; server CPU {server:.1f} s ("
            + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items() if v >= 0.05)
            + f"); {len(f['errors'])} errors"
        )
        print(line)
        if f["screens"]:
            per = f["pushes_per_change"]
            print(
                f"      {f['evening_changes']} changes of {f['evening_tables']} tables: pushes per change to a screen "
                f"{per:.3f}, changes not pushed {f['changes_not_pushed']}, sent at the catch-up {f['caught_up']}; "
                f"requests from the screens after their catch-up {f['screen_requests']}, "
                f"streams dropped {f['screen_drops']}"
            )
    base = next((f for f in runs if f["screens"] == 0), None)
    if base is not None:
        for f in runs:
            if f["screens"]:
                more = sum(f["cpu_seconds"].values()) - sum(base["cpu_seconds"].values())
                streams = f["cpu_seconds"].get("stream workers", 0) - base["cpu_seconds"].get("stream workers", 0)
                print(
                    f"  {f['screens']} screen(s) cost {more:+.2f} s of server CPU over the game "
                    f"({more / f['screens']:+.2f} s a screen; the stream workers' {streams:+.2f} s), "
                    f"{100 * more / f['seconds']:+.1f} % of one core"
                )
    for f in runs:
        for error in f["errors"][:10]:
            print("  error:", error)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--screens", default="0,1,10", help="the runs' counts of screens, comma-separated")
    parser.add_argument("--think", type=float, default=1.5, help="mean seconds between two cards of one phone")
    parser.add_argument("--database-url", help="a PostgreSQL server and role (a fresh database is made beside it)")
    parser.add_argument("--checkout", default=str(ROOT), help="the checkout to serve (its .venv)")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--live-workers", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    # what bench/tables.py's servers and drive read
    args.instances, args.direct, args.env, args.phones, args.cards, args.idle = 1, False, [], "stream", 16, 0
    return args


def main() -> None:
    args = arguments()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    runs = [one_run(args, int(count)) for count in args.screens.split(",")]
    report(runs, args.tables)
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
