"""Score-sheet requests per second under gunicorn, against a hello-world route of the same app.

Run from the repository root (needs Debian's ``wrk``)::

    .venv/bin/python bench/http_throughput.py                  # 4 workers, 10 s per URL, 32 connections

Starts ``gunicorn -w N 'scorekeeper:create_app()'`` on a free loopback port
and lets wrk hammer, one after the other: ``/healthz`` (plain text "ok": the
hello-world baseline), one score-sheet link over and over (a table's players
all opening the same link), and the saved game's read-only page. Prints
requests per second and each one's ratio to the baseline. Target for the
sheet: at least 0.5.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.engine import Game  # noqa: E402
from scorekeeper.web.links import encode_game  # noqa: E402
from tests.serving.server import gunicorn  # noqa: E402


def wrk(url: str, seconds: int, connections: int, threads: int) -> float:
    """Requests per second wrk reaches on *url* (non-2xx answers make it fail)."""
    out = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if "Non-2xx" in out:
        raise SystemExit(f"errors from {url}:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk not found: apt-get install wrk")
    game = json.loads((ROOT / "tests/data/cases/19-four-players.json").read_text())["game"]
    token = encode_game(Game.from_dict(game), date(2026, 11, 30))
    database = Path(tempfile.mkdtemp()) / "http.sqlite3"
    with gunicorn(f"sqlite:///{database}", workers=args.workers) as base:
        session = requests.Session()
        page = session.get(f"{base}/sheet/{token}", timeout=10).text
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[1]
        saved = session.post(f"{base}/games", data={"csrf_token": csrf, "token": token}, timeout=10)
        public = re.search(r"(/g/[\w-]+)/", saved.url)[1]
        urls = {
            "hello world (/healthz)": f"{base}/healthz",
            "score sheet (/sheet/<token>)": f"{base}/sheet/{token}",
            "saved game (/g/<id>)": f"{base}{public}",
        }
        rates = {name: wrk(url, args.seconds, args.connections, args.threads) for name, url in urls.items()}
    baseline = rates["hello world (/healthz)"]
    print(f"gunicorn, {args.workers} sync workers; wrk {args.threads} threads, {args.connections} connections, "
          f"{args.seconds} s per URL")
    for name, rate in rates.items():
        print(f"  {name:30} {rate:8.0f} req/s   ratio {rate / baseline:.2f}")


if __name__ == "__main__":
    main()
