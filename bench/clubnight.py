"""A club night on one small box: many tables finishing together into a few groups, an old
game corrected meanwhile, and Redis stopped for a while (issue 32).

Run from the repository root (with the ``test`` extra installed), PostgreSQL required::

    .venv/bin/python bench/clubnight.py --database-url postgresql://scorekeeper:scorekeeper@127.0.0.1:5432/scorekeeper
    .venv/bin/python bench/clubnight.py --tables 10 --big-group 2000 --redis-gap 10 --database-url …   # a short try

What runs: the production shape of bench/tables.py (its servers, phones and CPU meter are
this script's too): nginx, ``--instances`` app instances (2) with their stream workers,
Redis, the standing's job worker, on a fresh PostgreSQL database. Before the phones sit
down, ``--groups`` groups (5) are made, the first holding ``--big-group`` saved games
(100,000, as bench/standing.py stores them: tests/bulk.py), its standing built. Then
``--tables`` tables (100) × 4 phones play case 19 as bench/tables.py's streamed pages do
(a card every ``--think`` seconds a phone, 1.5 on average), and each host locks its table
into one of the groups (table *n* into group *n* mod 5, each host's phone having opened
the group's invite link first): all tables finish within the same minute. Meanwhile:

- ``--correction-at`` seconds into the game (20), the oldest game of the big group is
  corrected, dated ``--correction-date`` (2009-06-01), through its private edit link as a
  phone does it: every game after it is rated again;
- ``--redis-gap-at`` seconds into the game (30), the redis-server is stopped (``SHUTDOWN
  NOSAVE``) and started again on the same port ``--redis-gap`` seconds later (20).

Reported (printed, and with ``--json FILE``), never asserted:

- locks: how many were answered 200 on the first press (target: all), and every other status;
- answers 5xx, in all (target 0), and every error bench/tables.py counts;
- change→sight p50 / p95 of the cards sent outside the gap, and of those sent in it;
- the gap: for each phone, how long after Redis stopped its page said pushes were not
  arriving (target ≤ 5 s), and how long after Redis came back pushes reached it again
  (target ≤ 2 s);
- the correction's answer time, and the save into its group meanwhile;
- each group's standing: how long after its last lock (or the correction) its page
  stopped saying it is being brought up to date (target ≤ 60 s);
- the servers' CPU by process (bench/tables.py's :class:`Meter`), the job worker's among "other".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import tables  # bench/tables.py's servers, phones and meter (bench/ is on the path of a script run here)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


#: What the seeding process runs in the checkout: the groups, the big one's games and
#: standing, and a known secret for the edit link of its oldest game.
SEED = r"""
import json, secrets, sys
from datetime import date
from sqlalchemy import select
from scorekeeper import create_app
from scorekeeper.store import db
from scorekeeper.store.games import _hash
from scorekeeper.store.groups import create_group
from scorekeeper.store.models import KeptStanding, SavedGame
from scorekeeper.store import standing
from tests.bulk import add_games

url, count, groups = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
app = create_app({"SQLALCHEMY_DATABASE_URI": url, "MIGRATE": False, "SECRET_KEY": "seed"})
made = []
with app.app_context():
    for n in range(groups):
        secret = secrets.token_urlsafe(16)
        group, _ = create_group(f"Club night {n + 1}", secret=secret)
        made.append({"id": group.public_id, "invite": secret, "row": group.id})
    big = db.session.get(type(group), made[0]["row"])
    add_games(count, group=big, first=date(2022, 1, 1), days=1400)
    # the games went in past the standing (straight into the tables): it is built from them
    db.session.delete(db.session.get(KeptStanding, big.id))
    db.session.commit()
    if hasattr(standing, "bring_up_to_date"):  # the standing rated by a job
        standing.bring_up_to_date(big.id)
    else:  # a checkout from before it: built on reading
        standing.standing(big, budget=float("inf"))
    oldest = db.session.scalars(
        select(SavedGame).where(SavedGame.group_id == big.id).order_by(SavedGame.played_on, SavedGame.id).limit(1)
    ).one()
    edit = secrets.token_urlsafe(16)
    oldest.edit_token_hash = _hash(edit)
    db.session.commit()
    print(json.dumps({"groups": made, "correction": {"game": oldest.public_id, "secret": edit}}))
"""


def seed(checkout: Path, url: str, count: int, groups: int) -> dict[str, Any]:
    """The groups and the big group's games, stored by the checkout's own code (its .venv)."""
    started = time.monotonic()
    done = subprocess.run(
        [str(checkout / ".venv" / "bin" / "python"), "-c", SEED, url, str(count), str(groups)],
        cwd=checkout,
        env=os.environ | {"PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        sys.exit(f"seeding failed:\n{done.stderr[-3000:]}")
    print(f"(seeded {count} games into group 1 of {groups}, its standing built, in {time.monotonic() - started:.0f} s)")
    return json.loads(done.stdout.strip().splitlines()[-1])


class ClubRun(tables.Run):
    """bench/tables.py's figures, and the club night's: locks by status, the answers 5xx,
    and when each card was sent (to tell those sent in the gap)."""

    def __init__(self) -> None:
        super().__init__()
        self.locks: dict[int, int] = defaultdict(int)
        self.fivexx = 0
        self.gap: tuple[float, float] | None = None  # Redis stopped, started again (monotonic)
        self.gap_delays: list[float] = []
        self.noticed: list[float] = []  # seconds from Redis stopped to a page saying so
        self.resumed: list[float] = []  # seconds from Redis back to a push reaching a page
        self.told_wrongly: list[float] = []  # when pages were told the beats stopped with Redis there
        self.last_lock: dict[str, float] = {}  # group id → its last lock's answer
        self.locked_into: dict[str, int] = defaultdict(int)  # group id → its tables locked
        self.standing_waits: dict[str, asyncio.Task] = {}  # group id → its standing watched since its last lock
        self.base = ""
        self.tables_of: dict[str, int] = {}  # group id → its tables
        self.correction_sent = 0.0
        self.standing_limit = 300.0
        self.first: dict[str, Any] | None = None  # the big group

    async def request(self, session: Any, kind: str, method: str, url: str, **options: Any) -> Any:
        answer = await super().request(session, kind, method, url, **options)
        if answer is not None and answer.status >= 500:
            self.fivexx += 1
        return answer


class ClubTable(tables.Table):
    """A table whose cards sent while Redis was stopped are counted apart."""

    def seen(self, viewer: str, name: str, count: int) -> None:
        run: ClubRun = self.run
        if viewer == name or count <= self.seen_upto[name]:
            return
        now = time.monotonic()
        for card in range(self.seen_upto[name] + 1, count + 1):
            sent = self.sent_at.get((name, card))
            if sent is None:
                continue
            in_gap = run.gap is not None and run.gap[0] <= sent and (run.gap[1] == 0 or sent < run.gap[1] + 2)
            (run.gap_delays if in_gap else run.delays).append(now - sent)
        self.seen_upto[name] = count


def club_phone(kind: type, group: dict[str, Any]) -> type:
    """*kind* of phone whose host locks into *group*, having opened its invite link first."""

    class ClubPhone(kind):  # type: ignore[misc, valid-type]
        """The streamed pages, hearing the server's beats as static/js/stream.js and table.js do:
        silent for two beats and half a second, the page says changes are not arriving and asks
        its live part at once and every :data:`SLOW_POLL` s; the beats back, once more."""

        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self.heard, self.every, self.since, self.late = 0.0, 0.0, 0.0, False
            self.watchdog: asyncio.Task | None = None

        async def _stream(self, live: str, ticket: str) -> None:
            # a new page's stream beats anew, and the page is not late (stream.js's quiet()): a page
            # left took its watchdog and its asking with it (the phone's tasks are cancelled then)
            self.heard = self.every = 0.0
            self.since, self.late = time.monotonic(), False
            await super()._stream(live, ticket)

        async def _beat(self, every: float) -> None:
            run: ClubRun = self.run
            now = time.monotonic()
            if self.late:
                self.late = False
                if run.gap is not None and run.gap[1]:
                    run.resumed.append(now - run.gap[1])
                self._spawn(self._ask())
            self.heard, self.every = now, every
            if self.watchdog is None or self.watchdog.done():
                self.watchdog = self._spawn(self._silence())

        async def _silence(self) -> None:
            run: ClubRun = self.run
            while True:
                await asyncio.sleep(0.25)
                now = time.monotonic()
                if self.late or not self.every or now - self.heard < 2 * self.every + 0.5:
                    continue
                self.late = True
                if run.gap is not None and not run.gap[1]:
                    run.noticed.append(now - max(run.gap[0], self.since))
                elif run.gap is None or now - run.gap[1] > 2 * self.every + 0.5:
                    run.told_wrongly.append(now)
                self._spawn(self._asking())

        async def _asking(self) -> None:
            while self.late:
                await self._ask()
                await asyncio.sleep(SLOW_POLL)

        async def _ask(self) -> None:
            div = tables.LIVE_DIV.search(self.page)
            if div is not None:
                live = tables.html.unescape(tables.attributes(div.group(0))["data-live"] or "")
                await tables.PullingPages._live(self, live, self.url)

        async def lock(self) -> dict[str, int]:
            await self._until(lambda: len(self.view) == 4 and all(s.checked for s in self.view.values()))
            joined = urljoin(self.base, f"/join/{group['id']}/{group['invite']}")
            await self.run.request(self.session, "group invite", "GET", joined)
            form = next(f for f in self.forms.values() if f.action.endswith("/host"))
            answer = await self.run.request(
                self.session,
                "lock",
                "POST",
                urljoin(self.base, form.action),
                data=form.data(("action", "lock"), ("group", group["id"])),
            )
            self.run.locks[answer.status if answer is not None else 0] += 1
            run: ClubRun = self.run
            run.last_lock[group["id"]] = time.monotonic()
            run.locked_into[group["id"]] += 1
            if run.locked_into[group["id"]] == run.tables_of[group["id"]]:  # the group's last lock: watched now
                since = max(run.last_lock[group["id"]], run.correction_sent if group is run.first else 0.0)
                wait = standing_current(run.base, group, since, run.standing_limit)
                run.standing_waits[group["id"]] = asyncio.ensure_future(wait)
            await self._open("", "locked page", answer)
            names = [tables.html.unescape(n) for n in tables.SHEET_NAME.findall(self.page)]
            row = tables.SHEET_TOTALS.search(self.page)
            totals = [int(v) for v in re.findall(r'data-value="(-?\d+)"', row.group(1))] if row else []
            return dict(zip(names, totals, strict=False))

    return ClubPhone


async def correct(run: ClubRun, base: str, correction: dict[str, Any], when: str) -> dict[str, float]:
    """The big group's oldest game corrected through its edit link, dated *when*: the form
    as its page gives it, the date changed; the answer's time, and a save into the group then."""
    import aiohttp

    figures: dict[str, float] = {}
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        page = f"{base}/g/{correction['game']}/{correction['secret']}/edit"
        answer = await run.request(session, "correction page", "GET", page)
        if answer is None or answer.status != 200:
            run.errors.append(f"correction page: {answer.status if answer else 'no answer'}")
            return figures
        shown = DISABLED.sub("", answer.text)  # a browser sends nothing of a disabled fieldset (a player slot unused)
        form = next(f for f in tables.forms(shown).values() if "/edit" in f.action)
        data = [(name, when if name == "played_on" else value) for name, value in form.data()]
        started = time.monotonic()
        answer = await run.request(session, "correction", "POST", urljoin(page, form.action), data=data)
        figures["correction_seconds"] = time.monotonic() - started
        if answer is None or answer.status not in (200, 303):
            run.errors.append(f"correction: {answer.status if answer else 'no answer'}")
    return figures


#: Seconds between two asks of the live part while the beats are silent (static/js/table.js's SLOW_POLL).
SLOW_POLL = 10.0
DISABLED = re.compile(r"<fieldset\b[^>]*\bdisabled\b[^>]*>.*?</fieldset>", re.S)


def redis_port(env_url: str) -> int:
    return urlsplit(env_url).port or 6379


@contextlib.contextmanager
def redis_gap_control(url: str) -> Any:
    """Stop the run's redis-server and start another on its port: ``stop()``, ``start()``."""
    port = redis_port(url)
    started: list[subprocess.Popen] = []

    class Control:
        def stop(self) -> None:
            subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True, check=False)

        def start(self) -> None:
            command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
            started.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))

    try:
        yield Control()
    finally:
        for process in started:
            process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)


async def standing_current(base: str, group: dict[str, Any], since: float, limit: float) -> float | None:
    """Seconds from *since* until *group*'s page no longer says its standing is being
    brought up to date (or worked out for the first time); ``None`` if not within *limit*
    seconds of asking."""
    import aiohttp

    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        async with session.get(f"{base}/join/{group['id']}/{group['invite']}", allow_redirects=False):
            pass
        deadline = time.monotonic() + limit  # the wait's own limit (the last lock may be long past)
        while time.monotonic() < deadline:
            async with session.get(f"{base}/groups/{group['id']}") as answer:
                page = await answer.text()
            if (
                answer.status == 200
                and 'id="standing-catching-up"' not in page
                and 'id="standing-building"' not in page
            ):
                return time.monotonic() - since
            await asyncio.sleep(0.5)
    return None


async def club_drive(args: argparse.Namespace, serving: Any, meter: Any, seeded: dict[str, Any]) -> dict[str, Any]:
    """The tables played (bench/tables.py's drive) with the correction and the Redis gap meanwhile,
    then each group's standing waited for."""
    run = ClubRun()
    groups = seeded["groups"]
    kinds = {n: club_phone(tables.StreamPages, groups[n % len(groups)]) for n in range(len(groups))}
    base = serving.bases[0][0]
    extra: dict[str, Any] = {}
    run.base, run.first, run.standing_limit = base, groups[0], args.standing_limit
    run.tables_of = {g["id"]: len(range(n, args.tables, len(groups))) for n, g in enumerate(groups)}

    async def meanwhile() -> None:
        started = time.monotonic()

        async def at(seconds: float) -> None:
            await asyncio.sleep(max(0.0, started + seconds - time.monotonic()))

        async def correction() -> None:
            await at(args.correction_at)
            extra["correction_sent"] = run.correction_sent = time.monotonic()
            extra.update(await correct(run, base, seeded["correction"], args.correction_date))

        async def gap() -> None:
            if not args.redis_gap or serving.redis is None:
                return
            await at(args.redis_gap_at)
            run.gap = (time.monotonic(), 0.0)
            control.stop()
            await asyncio.sleep(args.redis_gap)
            control.start()
            run.gap = (run.gap[0], time.monotonic())

        await asyncio.gather(correction(), gap())

    # a redis-server started again in the gap: stopped once the games and the standings' waits end
    with redis_gap_control(serving.redis or "redis://127.0.0.1:6379") as control:
        figures = await tables.drive(
            args,
            serving.bases,
            meter,
            run=run,
            kind_of=lambda n: kinds[n % len(groups)],
            table_kind=ClubTable,
            meanwhile=meanwhile,
        )
        waits = []
        for group in groups:  # watched since its last lock; a group with a table not locked: from now
            since = max(run.last_lock.get(group["id"], 0.0), run.correction_sent if group is groups[0] else 0.0)
            waits.append(
                run.standing_waits.get(group["id"]) or standing_current(base, group, since, args.standing_limit)
            )
        current = await asyncio.gather(*waits)
    gap = run.gap
    return figures | {
        "locks": dict(run.locks),
        "fivexx": run.fivexx,
        "gap_delay_samples": len(run.gap_delays),
        "gap_delay_p50": tables.percentile(run.gap_delays, 0.5),
        "gap_delay_p95": tables.percentile(run.gap_delays, 0.95),
        "gap_delay_max": max(run.gap_delays, default=float("nan")),
        "noticed": [tables.percentile(run.noticed, q) for q in (0.5, 0.95, 1.0)] + [len(run.noticed)],
        "resumed": [tables.percentile(run.resumed, q) for q in (0.5, 0.95, 1.0)] + [len(run.resumed)],
        "told_wrongly": len(run.told_wrongly),
        # seconds after Redis came back of each (negative: before Redis stopped)
        "told_wrongly_at": sorted(
            round(t - gap[1], 1) if gap[1] and t > gap[1] else round(t - gap[0], 1) for t in run.told_wrongly
        )
        if gap
        else [],
        "gap_seconds": (gap[1] - gap[0]) if gap and gap[1] else None,
        "standing_current": current,
        "correction_seconds": extra.get("correction_seconds"),
    }


def club_bench(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-clubnight-"))
    checkout = Path(args.checkout).resolve()
    with contextlib.ExitStack() as stack:
        url, database = stack.enter_context(tables.fresh_postgres(args.database_url))
        with tables.servers(args, url, work) as serving:
            seeded = seed(checkout, url, args.big_group, args.groups)
            meter = tables.Meter(os.getpid(), serving.stream_ports, database)
            figures = asyncio.run(club_drive(args, serving, meter, seeded))
    for log in sorted([*work.glob("gunicorn-*.log"), *work.glob("worker.log")]):
        text = log.read_text(errors="replace")
        figures["errors"] += [f"{log.name}: a traceback"] * text.count("Traceback")
        figures["errors"] += [f"{log.name}: a worker timeout"] * text.count("WORKER TIMEOUT")
    figures |= {"checkout": str(checkout), "tables": args.tables, "instances": args.instances, "groups": args.groups}
    if figures["errors"] or args.keep or None in figures["standing_current"]:
        print(f"(server logs kept in {work})", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def club_report(f: dict[str, Any]) -> None:
    def seconds(value: float | None) -> str:
        return "—" if value is None or value != value else f"{value:.2f} s"

    locks = f["locks"]
    print(
        f"{Path(f['checkout']).name}: {f['tables']} tables × 4 into {f['groups']} groups, "
        f"{f['instances']} instances, PostgreSQL, {f['seconds']:.0f} s of play"
    )
    print(f"  locks answered 200 on the first press: {locks.get(200, 0) + locks.get(303, 0)}/{f['tables']} {locks}")
    print(
        f"  answers 5xx: {f['fivexx']}; errors: {len(f['errors'])}; locked games right {f['games_right']}/{f['tables']}"
    )
    print(
        f"  change→sight outside the gap: p50 {seconds(f['delay_p50'])}, p95 {seconds(f['delay_p95'])} "
        f"({f['delay_samples']} cards); sent in the gap: p50 {seconds(f['gap_delay_p50'])}, "
        f"p95 {seconds(f['gap_delay_p95'])}, max {seconds(f['gap_delay_max'])} ({f['gap_delay_samples']} cards)"
    )
    n50, n95, nmax, nn = f["noticed"]
    r50, r95, rmax, rn = f["resumed"]
    told = f"p50 {seconds(n50)}, p95 {seconds(n95)}, max {seconds(nmax)} ({nn} pages)"
    print(f"  Redis stopped {seconds(f['gap_seconds'])}: pages told {told}")
    print(
        f"  pages told so with Redis there (a beat late): {f['told_wrongly']}, at (s after Redis was back, "
        f"negative: before it stopped) {f['told_wrongly_at']}"
    )
    back = f"p50 {seconds(r50)}, p95 {seconds(r95)}, max {seconds(rmax)} ({rn} pages)"
    print(f"  pushes back after Redis returned: {back}")
    print(f"  the correction answered in {seconds(f['correction_seconds'])}")
    for n, wait in enumerate(f["standing_current"], 1):
        print(
            f"  group {n}: standing current {seconds(wait)} after its last lock"
            + (" or the correction" if n == 1 else "")
        )
    print("  CPU ms a card: " + ", ".join(f"{k} {v:.2f}" for k, v in f["cpu_ms_per_card"].items()))
    for error in f["errors"][:20]:
        print("  error:", error)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--database-url", required=True, help="a PostgreSQL server and role (a fresh database is made)")
    parser.add_argument("--checkout", default=str(ROOT), help="the checkout to serve (its .venv)")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--groups", type=int, default=5)
    parser.add_argument("--big-group", type=int, default=100_000, help="saved games in the first group")
    parser.add_argument("--think", type=float, default=1.5)
    parser.add_argument("--instances", type=int, choices=(1, 2), default=2)
    parser.add_argument("--live-workers", type=int, default=1)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--correction-at", type=float, default=20.0, help="seconds into the game")
    parser.add_argument("--correction-date", default="2009-06-01")
    parser.add_argument("--redis-gap-at", type=float, default=10.0, help="seconds into the game")
    parser.add_argument("--redis-gap", type=float, default=20.0, help="seconds Redis stays stopped (0: never)")
    parser.add_argument("--standing-limit", type=float, default=300.0, help="seconds to wait for a group's standing")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", action="store_true", help="keep the servers' logs")
    args = parser.parse_args()
    # what bench/tables.py's servers and drive read
    args.direct, args.env, args.phones, args.cards, args.idle = False, [], "stream", 16, 0
    return args


def main() -> None:
    args = arguments()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    figures = club_bench(args)
    club_report(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
