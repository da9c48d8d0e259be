"""How long the engine takes to score one 4-player game, explanations included.

Run from the repository root::

    .venv/bin/python bench/engine.py            # 2000 timed runs
    .venv/bin/python bench/engine.py --runs 10000

Each run is ``ENGLISH.sheet(score_game(Game.from_dict(game)))`` on the game of
tests/data/cases/19-four-players.json, what ``scorekeeper score --format json``
and ``POST /api/score`` do: reading and validating the file object (R8),
scoring four kingdoms (R2–R6), placing the players (R7) and writing every
explanation, tiebreak note and warning as an English sentence
(``scorekeeper.words``). Prints the median and 90th percentile in microseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from scorekeeper.engine import Game, score_game
from scorekeeper.words import ENGLISH

GAME_FILE = Path(__file__).resolve().parent.parent / "tests" / "data" / "cases" / "19-four-players.json"


def score_once(game: dict) -> dict:
    return ENGLISH.sheet(score_game(Game.from_dict(game)))


def measure(game: dict, runs: int, warmup: int) -> list[int]:
    """Nanoseconds of each of *runs* scorings, after *warmup* untimed ones."""
    for _ in range(warmup):
        score_once(game)
    timings = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        score_once(game)
        timings.append(time.perf_counter_ns() - start)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000, help="timed runs (default 2000)")
    parser.add_argument("--warmup", type=int, default=200, help="untimed runs first (default 200)")
    args = parser.parse_args()

    game = json.loads(GAME_FILE.read_text(encoding="utf-8"))["game"]
    timings = measure(game, args.runs, args.warmup)
    median = statistics.median(timings) / 1000
    p90 = statistics.quantiles(timings, n=10)[-1] / 1000
    print(f"ENGLISH.sheet(score_game(Game.from_dict(game))), {GAME_FILE.name}")
    print(f"runs:   {args.runs} (after {args.warmup} warm-up)")
    print(f"median: {median:.0f} µs ({median / 1000:.3f} ms)")
    print(f"p90:    {p90:.0f} µs ({p90 / 1000:.3f} ms)")


if __name__ == "__main__":
    main()
