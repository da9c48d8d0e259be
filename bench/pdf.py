"""How long one score-sheet PDF takes, from request to bytes (WeasyPrint).

Run from the repository root::

    .venv/bin/python bench/pdf.py             # 15 timed PDFs after 2 warm-up ones
    .venv/bin/python bench/pdf.py --runs 40

Each run is ``GET /sheet/<token>.pdf`` through the Flask test client for the
4-player game of tests/data/cases/19-four-players.json with every name
40 characters long: decoding the link, scoring, rendering the template and
laying it out as one A4 (then Letter) page. Prints the median and the slowest.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game

GAME_FILE = Path(__file__).resolve().parent.parent / "tests" / "data" / "cases" / "19-four-players.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed PDFs per paper (default 15)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed PDFs first (default 2)")
    args = parser.parse_args()

    game = json.loads(GAME_FILE.read_text(encoding="utf-8"))["game"]
    for i, player in enumerate(game["players"]):
        player["name"] = (f"{player['name']} Wanderer of the Endless Marches {i}" + "x" * 40)[:40]
    parsed = Game.from_dict(game)
    database = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    client = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "RATELIMIT_ENABLED": False}
    ).test_client()
    days = iter(range(10**6))  # a different date each time: a new link, so no PDF comes from the cache

    for paper in ("a4", "letter"):

        def url(paper: str = paper) -> str:
            played_on = date(2026, 1, 1) + timedelta(days=next(days))
            return f"/sheet/{encode_game(parsed, played_on)}.pdf?paper={paper}"

        for _ in range(args.warmup):
            client.get(url())
        timings = []
        for _ in range(args.runs):
            next_url = url()
            start = time.perf_counter()
            response = client.get(next_url)
            timings.append(time.perf_counter() - start)
            assert response.status_code == 200 and response.data.startswith(b"%PDF")
        print(
            f"{paper:6} median {statistics.median(timings):.2f} s, slowest {max(timings):.2f} s, "
            f"{len(response.data) // 1024} KiB, {args.runs} runs"
        )


if __name__ == "__main__":
    main()
