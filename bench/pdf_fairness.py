"""PDF fairness: another user's History while one client asks for PDFs at its limit.

    .venv/bin/python bench/pdf_fairness.py                         # SQLite, the production setup
    .venv/bin/python bench/pdf_fairness.py --setup before           # no proxy, per-process counts
    .venv/bin/python bench/pdf_fairness.py --database-url postgresql://…

The production shape (as tests/serving/test_two_hosts.py): the schema migrated
first, two gunicorn instances of two workers (deploy/gunicorn.conf.py), a
redis-server for the rate-limit counts, nginx with the production settings in
front; the default PDF limit (20 per minute, 200 per hour). ``--setup before``:
the same two instances with per-process counts (``memory://``) and no proxy,
each request going straight to one of them at random. First the History
user alone for 10 s (``GET /games`` every 0.1 s, one at a time), then for
SECONDS while the PDF client sends ``GET /sheet/<token>.pdf`` from 4 threads
at once, each request a new game (so no cache helps), as fast as it is
answered. Prints the PDFs rendered (200), refused by the limit (429) and shed
by the app (503), and History's p50 and p95 alone, while PDFs were being
rendered (from the first PDF request to the last 200), and over the whole run.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import date
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.engine import Game  # noqa: E402
from scorekeeper.web.links import encode_game  # noqa: E402
from tests.serving.server import GUNICORN_CONF, gunicorn, nginx, redis_server, release_step  # noqa: E402

CARDS = ["forest", "swamp", "mountain", "plain", "elves", "dwarves", "humans", "goblins", "dragon", "portal"]


def new_token(rng: random.Random, n: int) -> str:
    players = [
        {"name": f"Fair {n} P{i}", "kingdom": [[rng.choice(CARDS) for _ in range(4)] for _ in range(4)]}
        for i in range(rng.randint(2, 4))
    ]
    return encode_game(Game.from_dict({"ruleset": "pocket", "players": players}), date(2026, 11, 30))


def history(bases: list[str], until: float, results: list[tuple[float, float]]) -> None:
    """(start, seconds) of ``GET /games`` one after another every 0.1 s until *until*."""
    session = requests.Session()
    while time.monotonic() < until:
        start = time.monotonic()
        response = session.get(random.choice(bases) + "/games", timeout=30)
        if response.status_code == 200:
            results.append((start, time.monotonic() - start))
        time.sleep(max(0.0, 0.1 - (time.monotonic() - start)))


def pdf_client(bases: list[str], until: float, seed: int, log: list[tuple[float, float, int]]) -> None:
    """(start, end, status) of PDFs asked one after another until *until*."""
    rng, session, n = random.Random(seed), requests.Session(), 0
    while time.monotonic() < until:
        n += 1
        start = time.monotonic()
        base = rng.choice(bases)
        status = session.get(f"{base}/sheet/{new_token(rng, seed * 100000 + n)}.pdf", timeout=60).status_code
        log.append((start, time.monotonic(), status))
        if status == 503:
            time.sleep(1)  # as Retry-After asks (at least)


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000 if len(values) > 1 else float("nan")


def run(seconds: float, setup: str, database_url: str | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-fair-") as folder, contextlib.ExitStack() as stack:
        work = Path(folder)
        url = database_url or f"sqlite:///{work / 'fair.sqlite3'}"
        release_step(url)
        env = {"SCOREKEEPER_MIGRATE": "false", "SCOREKEEPER_PROXY_FIX_X_FOR": "1", "SCOREKEEPER_PROXY_FIX_X_PROTO": "1"}
        if setup == "production":
            env["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = stack.enter_context(redis_server())
        apps = [
            stack.enter_context(gunicorn(url, workers=2, log=work / f"g{n}.log", config=GUNICORN_CONF, **env))
            for n in (1, 2)
        ]
        if setup == "production":
            bases = [stack.enter_context(nginx([a.removeprefix("http://") for a in apps], work / "nginx"))]
        else:
            bases = apps
        for base in bases:
            requests.get(base + "/games", timeout=30)  # warm
        alone: list[tuple[float, float]] = []
        history(bases, time.monotonic() + 10, alone)
        loaded: list[tuple[float, float]] = []
        pdfs: list[tuple[float, float, int]] = []
        until = time.monotonic() + seconds
        threads = [threading.Thread(target=pdf_client, args=(bases, until, seed, pdfs)) for seed in range(1, 5)]
        threads.append(threading.Thread(target=history, args=(bases, until, loaded)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    statuses = Counter(status for _s, _e, status in pdfs)
    first = min(start for start, _e, _s in pdfs)
    last_render = max((end for _s, end, status in pdfs if status == 200), default=first)
    rendering = [t for start, t in loaded if first <= start <= last_render]
    whole = [t for _start, t in loaded]
    return {
        "setup": setup,
        "rendered": statuses[200],
        "refused": statuses[429],
        "shed": statuses[503],
        "other": sum(n for status, n in statuses.items() if status not in (200, 429, 503)),
        "render_window_s": last_render - first,
        "alone_p50": statistics.median(t for _s, t in alone) * 1000,
        "alone_p95": percentile([t for _s, t in alone], 95),
        "rendering_p50": statistics.median(rendering) * 1000 if rendering else float("nan"),
        "rendering_p95": percentile(rendering, 95),
        "whole_p50": statistics.median(whole) * 1000,
        "whole_p95": percentile(whole, 95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--setup", choices=["production", "before"], default="production")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    f = run(args.seconds, args.setup, args.database_url)
    print(
        f"{f['setup']} setup, {args.seconds:.0f} s: PDFs rendered {f['rendered']}, "
        f"refused (429) {f['refused']}, shed (503) {f['shed']}, other {f['other']}; "
        f"rendering lasted {f['render_window_s']:.1f} s\n"
        f"History p50/p95: alone {f['alone_p50']:.0f}/{f['alone_p95']:.0f} ms, "
        f"while PDFs rendered {f['rendering_p50']:.0f}/{f['rendering_p95']:.0f} ms, "
        f"whole run {f['whole_p50']:.0f}/{f['whole_p95']:.0f} ms"
    )


if __name__ == "__main__":
    main()
