"""Load: 50 concurrent users for 60 s against gunicorn, then every saved game checked.

Run from the repository root (PostgreSQL optional)::

    .venv/bin/python bench/load.py                          # SQLite, one instance, 60 s
    .venv/bin/python bench/load.py --seconds 15 --database-url postgresql://user:pw@127.0.0.1/db
    .venv/bin/python bench/load.py --instances 2 --workers 2 --database-url postgresql://…

Migrates the schema first (``flask db upgrade``, the release step; a fresh
SQLite file unless --database-url), then starts INSTANCES gunicorn servers
(``-c deploy/gunicorn.conf.py``, WORKERS each, ``SCOREKEEPER_MIGRATE=false``)
on free loopback ports; with more than one, a redis-server of its own holds
the rate-limit counts (as compose.yaml's Redis) and every request goes to one
of them at random (a game saved through one is read and corrected through
another); ``--proxy`` puts nginx with the production settings in front. Then
it runs bench/locustfile.py headless with locust (score, save, correct, PDF,
history, API) and reads back every saved game's JSON export, comparing it
with what was last sent. All users share one address, so the save and PDF
rate limits are raised for the run. Prints requests, failures, requests/s,
latency percentiles and the check's result; exits non-zero on any error.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving.server import GUNICORN_CONF, gunicorn, nginx, redis_server, release_step  # noqa: E402

LOCUST = Path(sys.executable).with_name("locust")
UNLIMITED = "1000000 per minute"


def run(
    seconds: int,
    users: int,
    database_url: str | None,
    workers: int = 4,
    instances: int = 1,
    proxy: bool = False,
) -> dict:
    """Run the load; returns the figures and the list of problems found."""
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    url = database_url or f"sqlite:///{work / 'load.sqlite3'}"
    record, shed = work / "saved.jsonl", work / "shed"
    record.touch()
    release_step(url)
    with contextlib.ExitStack() as stack:
        env = {
            "SCOREKEEPER_MIGRATE": "false",
            "SCOREKEEPER_SAVE_RATE_LIMIT": UNLIMITED,
            "SCOREKEEPER_PDF_RATE_LIMIT": UNLIMITED,
        }
        if instances > 1:
            env["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = stack.enter_context(redis_server())
        if proxy:
            env |= {"SCOREKEEPER_PROXY_FIX_X_FOR": "1", "SCOREKEEPER_PROXY_FIX_X_PROTO": "1"}
        bases = [
            stack.enter_context(
                gunicorn(url, workers=workers, log=work / f"gunicorn-{n}.log", config=GUNICORN_CONF, **env)
            )
            for n in range(instances)
        ]
        hosts = (
            [stack.enter_context(nginx([b.removeprefix("http://") for b in bases], work / "nginx"))] if proxy else bases
        )
        locust = subprocess.run(
            [
                str(LOCUST),
                "-f",
                str(ROOT / "bench" / "locustfile.py"),
                "--headless",
                "--host",
                hosts[0],
                "-u",
                str(users),
                "-r",
                str(users),
                "-t",
                f"{seconds}s",
                "--csv",
                str(work / "stats"),
                "--only-summary",
                "--stop-timeout",
                "30",
            ],  # fmt: skip
            env={**os.environ, "LOAD_RECORD": str(record), "LOAD_SHED": str(shed), "LOAD_HOSTS": " ".join(hosts)},
            capture_output=True,
            text=True,
            timeout=seconds + 180,
        )
        problems, saved, corrected = check_saved(hosts, record)
    with open(work / "stats_stats.csv", encoding="utf-8") as stats:
        total = next(row for row in csv.DictReader(stats) if row["Name"] == "Aggregated")
    logs = [path.read_text() for path in work.glob("gunicorn-*.log")]
    if any("Traceback" in log for log in logs):
        problems.append("a traceback in a server log")
    return {
        "database": "postgresql" if url.startswith("postgres") else "sqlite",
        "instances": instances,
        "workers": workers,
        "proxy": proxy,
        "requests": int(total["Request Count"]),
        "failures": int(total["Failure Count"]),
        "rps": float(total["Requests/s"]),
        "p50_ms": float(total["50%"]),
        "p95_ms": float(total["95%"]),
        "p99_ms": float(total["99%"]),
        "saved": saved,
        "corrected": corrected,
        "pdf_shed": int(shed.read_text()) if shed.exists() else 0,
        "problems": problems,
        "locust_exit": locust.returncode,
        "locust_stderr": locust.stderr[-2000:],
    }


def check_saved(hosts: list[str], record: Path) -> tuple[list[str], int, int]:
    """Every recorded game reads back (through any of *hosts*) equal to what was
    last saved for it; a correction whose answer its user never saw (stopped at
    the end of the run) may have been saved or not. Returns the problems, the
    games saved and the corrections."""
    latest: dict[str, dict] = {}
    pending: dict[str, dict] = {}
    corrections = 0
    for line in record.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item.get("pending"):
            pending[item["id"]] = item["game"]
            continue
        pending.pop(item["id"], None)
        if item["game"] is not None:
            corrections += item["id"] in latest
            latest[item["id"]] = item["game"]  # a correction comes after its save
    problems = []
    for public_id, sent in latest.items():
        got = requests.get(f"{random.choice(hosts)}/g/{public_id}.json", timeout=30)
        if got.status_code != 200:
            problems.append(f"{public_id}: {got.status_code}")
            continue
        stored = got.json()
        candidates = [sent, *([pending[public_id]] if public_id in pending else [])]
        expected = [
            game | {"location": game["location"].strip(), "notes": game["notes"].strip()} for game in candidates
        ]
        if stored not in expected:
            keys = sorted(key for key in expected[0].keys() | stored.keys() if expected[0].get(key) != stored.get(key))
            problems.append(f"{public_id}: stored game differs from what was last sent in {', '.join(keys)}")
    return problems, len(latest), corrections


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers per instance")
    parser.add_argument("--instances", type=int, default=1, help="gunicorn servers (more than one: Redis too)")
    parser.add_argument("--proxy", action="store_true", help="nginx with the production settings in front")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    figures = run(args.seconds, args.users, args.database_url, args.workers, args.instances, args.proxy)
    print(
        f"{figures['database']}: {args.users} users, {args.seconds} s, {args.instances} instance(s) of "
        f"{args.workers} gunicorn workers{' behind nginx' if args.proxy else ''}: "
        f"{figures['requests']} requests, {figures['failures']} failures, {figures['rps']:.1f} req/s, "
        f"p50 {figures['p50_ms']:.0f} ms, p95 {figures['p95_ms']:.0f} ms, p99 {figures['p99_ms']:.0f} ms; "
        f"{figures['saved']} games saved, {figures['corrected']} corrections, "
        f"{len(figures['problems'])} read back wrong; {figures['pdf_shed']} PDFs shed (503)"
    )
    for problem in figures["problems"][:20]:
        print("  problem:", problem)
    if figures["failures"] or figures["problems"]:
        print(figures["locust_stderr"])
        sys.exit(1)


if __name__ == "__main__":
    main()
