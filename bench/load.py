"""Load: 50 concurrent users for 60 s against gunicorn, then every saved game checked.

Run from the repository root (PostgreSQL optional)::

    .venv/bin/python bench/load.py                          # SQLite, 60 s
    .venv/bin/python bench/load.py --seconds 15 --database-url postgresql://user:pw@127.0.0.1/db

Starts ``gunicorn -w 4 'scorekeeper:create_app()'`` on a free loopback port
(a fresh SQLite file unless --database-url), runs bench/locustfile.py headless
with locust, then reads back every saved game's JSON export and compares it
with what was sent. All users share one address, so the save rate limit is
raised for the run. Prints requests, failures, requests/s, latency
percentiles and the check's result; exits non-zero on any error.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving.server import gunicorn  # noqa: E402  (shared with the tests)

LOCUST = Path(sys.executable).with_name("locust")


def run(seconds: int, users: int, database_url: str | None, workers: int = 4) -> dict:
    """Run the load; returns the figures and the list of problems found."""
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    url = database_url or f"sqlite:///{work / 'load.sqlite3'}"
    record = work / "saved.jsonl"
    record.touch()
    with gunicorn(
        url, workers=workers, log=work / "gunicorn.log", SCOREKEEPER_SAVE_RATE_LIMIT="1000000 per minute"
    ) as base:
        locust = subprocess.run(
            [
                str(LOCUST),
                "-f",
                str(ROOT / "bench" / "locustfile.py"),
                "--headless",
                "--host",
                base,
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
                "10",
            ],  # fmt: skip
            env={**os.environ, "LOAD_RECORD": str(record)},
            capture_output=True,
            text=True,
            timeout=seconds + 120,
        )
        problems = check_saved(base, record)
    with open(work / "stats_stats.csv", encoding="utf-8") as stats:
        total = next(row for row in csv.DictReader(stats) if row["Name"] == "Aggregated")
    log = (work / "gunicorn.log").read_text()
    if "Traceback" in log:
        problems.append("a traceback in the server log")
    return {
        "database": "postgresql" if url.startswith("postgres") else "sqlite",
        "requests": int(total["Request Count"]),
        "failures": int(total["Failure Count"]),
        "rps": float(total["Requests/s"]),
        "p50_ms": float(total["50%"]),
        "p95_ms": float(total["95%"]),
        "p99_ms": float(total["99%"]),
        "saved": len(record.read_text(encoding="utf-8").splitlines()),
        "problems": problems,
        "locust_exit": locust.returncode,
        "locust_stderr": locust.stderr[-2000:],
    }


def check_saved(base: str, record: Path) -> list[str]:
    """Every recorded save reads back equal to what was sent."""
    problems = []
    for line in record.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        sent = item["game"]
        got = requests.get(f"{base}/g/{item['id']}.json", timeout=30)
        if got.status_code != 200:
            problems.append(f"{item['id']}: {got.status_code}")
            continue
        expected = sent | {"location": sent["location"].strip(), "notes": sent["notes"].strip()}
        if got.json() != expected:
            problems.append(f"{item['id']}: stored game differs from what was sent")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    figures = run(args.seconds, args.users, args.database_url, args.workers)
    print(
        f"{figures['database']}: {args.users} users, {args.seconds} s, {args.workers} gunicorn workers: "
        f"{figures['requests']} requests, {figures['failures']} failures, {figures['rps']:.1f} req/s, "
        f"p50 {figures['p50_ms']:.0f} ms, p95 {figures['p95_ms']:.0f} ms, p99 {figures['p99_ms']:.0f} ms; "
        f"{figures['saved']} games saved, {len(figures['problems'])} read back wrong"
    )
    for problem in figures["problems"][:20]:
        print("  problem:", problem)
    if figures["failures"] or figures["problems"]:
        print(figures["locust_stderr"])
        sys.exit(1)


if __name__ == "__main__":
    main()
