"""Shared tables under load: 50 tables × 4 phones watching and entering at once.

Run from the repository root (PostgreSQL optional)::

    .venv/bin/python bench/tables.py                                  # SQLite, 50 tables
    .venv/bin/python bench/tables.py --database-url postgresql://user:pw@127.0.0.1/db
    .venv/bin/python bench/tables.py --tables 10 --think 0.5          # a short run

Starts ``gunicorn -w 4 'scorekeeper:create_app()'`` on a free loopback port
(a fresh SQLite file unless ``--database-url``; the rate limits raised, every
phone has the same address). Then, in one process of greenlets (gevent), each
of the tables plays case 19 (``tests/data/cases/19-four-players.json``)
through the JSON API as four phones would:

- every phone polls ``GET /api/tables/<code>`` with its seat's secret and
  ``If-None-Match``, asking again one second after each answer (as the
  table page's script does);
- at the same time every phone enters its kingdom a card at a time, a
  ``PUT …/seats/<n>`` with the kingdom so far after each card (a think time
  of ``--think`` seconds on average, drawn uniformly from 0 to twice that),
  the last with its Legends and done; then checks the next seat's kingdom
  once it is done; the host locks once every seat is done and checked; every
  phone then opens the game's sheet page.

Meanwhile one more client loads the empty form (``GET /``) and a sheet page
of a new game (``/sheet/<link>``) in turn, without pause: what other users
meet during the run.

The change→sight delay is from the moment a phone sends a card to the first
answer to another phone of the same table that shows it (three per card).
Prints the delay's p50/p95/max, requests per second, errors (any answer but
2xx/304, a refused connection, a locked game whose totals are not case 19's),
and the p50/p95 of each kind of request. Targets (issue #10): p95 delay under
2 s, no errors.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import gevent  # noqa: E402
from gevent.event import Event  # noqa: E402
from geventhttpclient import HTTPClient  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.engine import Card, Game  # noqa: E402
from scorekeeper.web.links import encode_game  # noqa: E402
from tests.serving.server import gunicorn  # noqa: E402

CASE = json.loads((ROOT / "tests" / "data" / "cases" / "19-four-players.json").read_text(encoding="utf-8"))
PLAYERS = CASE["game"]["players"]
TOTALS = {p["name"]: e["total"] for p, e in zip(PLAYERS, CASE["expected"]["players"], strict=True)}
POLL_SECONDS = 1.0  # static/js/table.js asks again one second after each answer


class Run:
    """What the phones measured, shared by every greenlet of the run."""

    def __init__(self, base: str) -> None:
        split = urlsplit(base)
        self.host, self.port = split.hostname or "127.0.0.1", split.port or 80
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.delays: list[float] = []
        self.errors: list[str] = []
        self.sent: dict[tuple[str, int, int], float] = {}  # (code, seat, cards) → when the card was sent
        self.done = Event()

    def client(self) -> HTTPClient:
        """A phone's own connection."""
        return HTTPClient(self.host, self.port, connection_timeout=30, network_timeout=60, concurrency=1)

    def call(self, client: HTTPClient, kind: str, method: str, path: str, body=None, token=None, headers=None):
        """One request: ``(status, headers, parsed JSON or text)``, its latency kept under *kind*."""
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        data = b""
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        start = time.monotonic()
        try:
            response = client.request(method, path, body=data, headers=sent)
            raw = response.read()
            status = response.status_code
            answer_headers = {k.lower(): v for k, v in response.items()}
        except Exception as error:  # a refused or broken connection counts as an error
            self.errors.append(f"{kind}: {type(error).__name__}: {error}")
            return 0, {}, None
        self.latencies[kind].append(time.monotonic() - start)
        if not (200 <= status < 300 or status == 304):
            self.errors.append(f"{kind}: {status} {raw[:200]!r}")
        content = answer_headers.get("content-type", "")
        parsed = json.loads(raw) if raw and content.startswith("application/json") else raw
        return status, answer_headers, parsed


def table(run: Run, number: int, think: float, rng: random.Random) -> None:
    """One table: the host starts it, four phones join, enter, watch, check; the host locks."""
    host_client = run.client()
    status, _, started = run.call(host_client, "start", "POST", "/api/tables", {"played_on": "2026-11-30"})
    if status != 201:
        return
    code, host = started["code"], started["host_token"]
    seats: list[tuple[int, str, dict]] = []
    for player in PLAYERS:
        status, _, seat = run.call(run.client(), "join", "POST", f"/api/tables/{code}/seats", {"name": player["name"]})
        if status != 201:
            return
        seats.append((seat["seat"], seat["seat_token"], player))
    latest: dict[int, dict] = {}  # each phone's last view of the table
    locked = Event()
    phones = [
        gevent.spawn(phone, run, code, seat, token, player, host if seat == 1 else None, latest, locked, think, rng)
        for seat, token, player in seats
    ]
    gevent.joinall(phones)


def phone(run, code, number, token, player, host, latest, locked, think, rng) -> None:
    """One phone: a watching greenlet and the entering (then checking, locking) one."""
    client, watcher_client = run.client(), run.client()
    seen: dict[int, int] = {}

    def watch() -> None:
        etag = None
        while True:
            headers = {"If-None-Match": etag} if etag else {}
            status, answer_headers, state = run.call(
                watcher_client, "poll", "GET", f"/api/tables/{code}", token=token, headers=headers
            )
            now = time.monotonic()
            if status == 200:
                etag = answer_headers.get("etag")
                latest[number] = state
                for seat in state["seats"]:
                    other, cards = seat["seat"], seat["cards_entered"]
                    if other != number and cards > seen.get(other, 0):
                        for count in range(seen.get(other, 0) + 1, cards + 1):
                            if (code, other, count) in run.sent:
                                run.delays.append(now - run.sent[(code, other, count)])
                        seen[other] = cards
                if state["locked"]:
                    locked.set()
                    if state.get("game_url"):
                        run.call(watcher_client, "sheet (locked table)", "GET", urlsplit(state["game_url"]).path)
                    return
            gevent.sleep(POLL_SECONDS)

    watcher = gevent.spawn(watch)
    cells: list[str | None] = [None] * 16
    flat = [card for row in player["kingdom"] for card in row]
    for index, card in enumerate(flat):
        gevent.sleep(rng.uniform(0, 2 * think))
        cells[index] = card
        body: dict = {"kingdom": [cells[r * 4 : r * 4 + 4] for r in range(4)]}
        if index == 15:
            body |= {"legends": player["legends"], "done": True}
        run.sent[(code, number, index + 1)] = time.monotonic()
        run.call(client, "enter a card", "PUT", f"/api/tables/{code}/seats/{number}", body, token=token)
    following = number % 4 + 1
    while not _seat(latest.get(number), following, "done") and not locked.is_set():
        gevent.sleep(0.2)
    if not locked.is_set():
        run.call(client, "check", "POST", f"/api/tables/{code}/seats/{following}/check", token=token)
    if host:
        while not locked.is_set():
            view = latest.get(number)
            if view and all(s["done"] and s["checked_by"] for s in view["seats"]):
                status, _, answer = run.call(client, "lock", "POST", f"/api/tables/{code}/lock", token=host)
                if status == 200:
                    check_game(run, client, answer["game_url"])
                    break
            gevent.sleep(0.2)
    watcher.join(timeout=120)


def _seat(view: dict | None, number: int, field: str):
    if not view:
        return None
    return next((s[field] for s in view["seats"] if s["seat"] == number), None)


def check_game(run: Run, client: HTTPClient, game_url: str) -> None:
    """The locked table's game has case 19's totals, player by player."""
    status, _, game = run.call(client, "game file", "GET", urlsplit(game_url).path + ".json")
    if status != 200:
        return
    status, _, sheet = run.call(client, "game file", "POST", "/api/score", game)
    if status == 200:
        totals = {p["name"]: p["total"] for p in sheet["players"]}
        if totals != TOTALS:
            run.errors.append(f"{game_url}: totals {totals}, not case 19's {TOTALS}")


def pages(run: Run, rng: random.Random) -> None:
    """Other users meanwhile: the empty form and a new game's sheet page, in turn."""
    client = run.client()
    cards = [card.value for card in Card]
    while not run.done.is_set():
        run.call(client, "form page", "GET", "/")
        game = Game.from_dict(
            {
                "players": [
                    {"name": name, "kingdom": [[rng.choice(cards) for _ in range(4)] for _ in range(4)]}
                    for name in ("Quin", "Mads", "Rin")
                ]
            }
        )
        run.call(client, "sheet page", "GET", f"/sheet/{encode_game(game)}")


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bench(tables: int, think: float, database_url: str | None, workers: int, seed: int) -> dict:
    """Run the tables against a fresh gunicorn; returns the figures."""
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-tables-"))
    url = database_url or f"sqlite:///{work / 'tables.sqlite3'}"
    limits = {
        f"SCOREKEEPER_{name}_RATE_LIMIT": "1000000 per minute" for name in ("TABLE", "JOIN", "WRONG_CODE", "SAVE")
    }
    with gunicorn(url, workers=workers, log=work / "gunicorn.log", **limits) as base:
        run = Run(base)
        rng = random.Random(seed)
        other = gevent.spawn(pages, run, random.Random(seed + 1))
        start = time.monotonic()
        gevent.joinall([gevent.spawn(table, run, n, think, random.Random(rng.random())) for n in range(tables)])
        seconds = time.monotonic() - start
        run.done.set()
        other.join()
    log = (work / "gunicorn.log").read_text()
    if "Traceback" in log:
        run.errors.append("a traceback in the server log")
    requests = sum(len(v) for v in run.latencies.values())
    return {
        "database": "postgresql" if url.startswith("postgres") else "sqlite",
        "tables": tables,
        "seconds": seconds,
        "requests": requests,
        "rps": requests / seconds,
        "delay_samples": len(run.delays),
        "delay_p50": percentile(run.delays, 0.5),
        "delay_p95": percentile(run.delays, 0.95),
        "delay_max": max(run.delays, default=float("nan")),
        "errors": run.errors,
        "kinds": {
            kind: (len(values), percentile(values, 0.5), percentile(values, 0.95))
            for kind, values in sorted(run.latencies.items())
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--think", type=float, default=1.5, help="mean seconds between two cards of one phone")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    figures = bench(args.tables, args.think, args.database_url, args.workers, args.seed)
    print(
        f"{figures['database']}: {figures['tables']} tables × 4 phones, {args.workers} gunicorn workers, "
        f"{figures['seconds']:.0f} s: change→sight delay p50 {figures['delay_p50']:.2f} s, "
        f"p95 {figures['delay_p95']:.2f} s, max {figures['delay_max']:.2f} s "
        f"({figures['delay_samples']} sightings); {figures['requests']} requests, "
        f"{figures['rps']:.0f} req/s, {len(figures['errors'])} errors"
    )
    for kind, (count, p50, p95) in figures["kinds"].items():
        print(f"  {kind:22} {count:6} requests  p50 {p50 * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms")
    for error in figures["errors"][:20]:
        print("  error:", error)
    if figures["errors"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
