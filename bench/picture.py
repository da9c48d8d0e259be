"""CPU time of one result picture (PNG) of a new game, from request to bytes.

Run from the repository root::

    .venv/bin/python bench/picture.py             # 40 timed pictures after 3 warm-up ones
    .venv/bin/python bench/picture.py --runs 100
    .venv/bin/python bench/picture.py --names indic

Each run is ``GET /sheet/<token>/picture-en.png`` through the Flask test client
for the 4-player game of tests/data/cases/19-four-players.json with names in
four scripts (Latin with emoji, Chinese, Arabic, Thai; ``--names indic``: issue 33's
Devanagari, Bengali, Tamil and an Ethiopic one), each on a new date, so
a new link: nothing comes from the picture cache. Measured in CPU time of this
process (``time.process_time``), which the machine's other work does not
lengthen. The first picture of a process also reads the fonts' character
maps; it is printed apart. Prints the median, the 90th percentile and the
largest PNG.
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
#: The players' names, by the ``--names`` option.
NAMES = {
    "four": ["Zoë 🐉 Wanderer", "王大锤和他的朋友们一起玩", "سارة بنت أحمد", "สมชาย ใจดี"],
    "indic": ["अनुष्का शर्मा", "ইমন হোসেন", "தமிழ் செல்வன்", "አበበ በቀለ"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="timed pictures (default 40)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed pictures first (default 3)")
    parser.add_argument("--names", choices=NAMES, default="four", help="the players' names (default four)")
    args = parser.parse_args()

    game = json.loads(GAME_FILE.read_text(encoding="utf-8"))["game"]
    for player, name in zip(game["players"], NAMES[args.names], strict=True):
        player["name"] = name
    parsed = Game.from_dict(game)
    database = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    client = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "RATELIMIT_ENABLED": False}
    ).test_client()
    days = iter(range(10**6))  # a different date each time: a new link, so no picture comes from the cache

    def url() -> str:
        return f"/sheet/{encode_game(parsed, date(2026, 1, 1) + timedelta(days=next(days)))}/picture-en.png"

    def cpu(path: str) -> tuple[float, int]:
        start = time.process_time()
        response = client.get(path)
        spent = time.process_time() - start
        assert response.status_code == 200 and response.mimetype == "image/png", response.status
        return spent, len(response.data)

    first, _ = cpu(url())
    for _ in range(args.warmup):
        cpu(url())
    timings, sizes = [], []
    for _ in range(args.runs):
        spent, size = cpu(url())
        timings.append(spent)
        sizes.append(size)
    timings.sort()
    p90 = timings[int(len(timings) * 0.9) - 1]
    print(f"first picture of the process (fonts' character maps read): {first * 1000:.0f} ms CPU")
    print(
        f"{args.runs} new pictures: median {statistics.median(timings) * 1000:.1f} ms CPU, "
        f"p90 {p90 * 1000:.1f} ms, largest PNG {max(sizes) / 1024:.1f} KB"
    )


if __name__ == "__main__":
    main()
