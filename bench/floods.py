"""Floods: what one or a few client addresses' PDFs or imports leave another user.

    .venv/bin/python bench/floods.py pdfs                  # 12 addresses' PDFs, another user's PDFs
    .venv/bin/python bench/floods.py pdfs --addresses 3 --seconds 20
    .venv/bin/python bench/floods.py imports               # one address's 8 MB imports, another's History
    .venv/bin/python bench/floods.py imports --database-url postgresql://…

The production shape (as tests/serving/test_two_hosts.py): the schema migrated first, two
gunicorn instances of WORKERS sync workers (deploy/gunicorn.conf.py), a redis-server for the
rate-limit counts, nginx with the production settings in front; the default limits. Each
client connects from an address of its own (127.0.x.y: this machine), as nginx sees it.

- ``pdfs``: ADDRESSES addresses, two threads each, ask for a new sheet's PDF (no cache helps)
  again and again, as fast as they are answered, for SECONDS; meanwhile another address asks
  for a PDF every 2 s. Prints the flood's answers (200 made, 429 refused by the limit, 503 no
  turn) and the other user's.
- ``imports``: one address posts an 8 MB history (about 8,000 games: more than the save limit
  lets in) from 16 threads, again and again, for SECONDS; meanwhile another address asks for
  History (``GET /games``) every 0.2 s. Prints the imports' answers (429 read and refused by
  the limit, 429 refused unread, 503 refused by nginx) and History's p50, p95 and slowest.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

import requests
from bs4 import BeautifulSoup
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.engine import Game  # noqa: E402
from scorekeeper.web.links import encode_game  # noqa: E402
from tests.conftest import CASE_FILES, load_case  # noqa: E402
from tests.serving.server import GUNICORN_CONF, gunicorn, nginx, redis_server, release_step  # noqa: E402

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]


class FromAddress(requests.adapters.HTTPAdapter):
    """Connections from one loopback address (defined here, not taken from the tests'
    helpers, so that the script runs on older trees too)."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs, source_address=(self.address, 0))


def browser(address: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", FromAddress(address))
    return session


def sheet_pdf(name: str) -> str:
    game = Game.from_dict(FOUR | {"players": [FOUR["players"][0] | {"name": name}, *FOUR["players"][1:]]})
    return f"/sheet/{encode_game(game, date(2031, 1, 1))}.pdf"


@contextlib.contextmanager
def production(workers: int, database_url: str | None):
    """The base URL of nginx in front of two gunicorn instances sharing Redis."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-floods-") as folder, contextlib.ExitStack() as stack:
        work = Path(folder)
        url = database_url or f"sqlite:///{work / 'floods.sqlite3'}"
        release_step(url)
        env = {"SCOREKEEPER_MIGRATE": "false", "SCOREKEEPER_PROXY_FIX_X_FOR": "1", "SCOREKEEPER_PROXY_FIX_X_PROTO": "1"}
        env["SCOREKEEPER_REDIS_URL"] = stack.enter_context(redis_server())
        apps = [
            stack.enter_context(gunicorn(url, workers=workers, log=work / f"g{n}.log", config=GUNICORN_CONF, **env))
            for n in (1, 2)
        ]
        yield stack.enter_context(nginx([app.removeprefix("http://") for app in apps], work / "nginx"))


def pdfs(proxy: str, addresses: int, seconds: float) -> None:
    names = itertools.count()
    flood: Counter[int] = Counter()
    lock = threading.Lock()
    until = time.monotonic() + seconds

    def ask(address: str) -> None:
        session = browser(address)
        while time.monotonic() < until:
            status = session.get(proxy + sheet_pdf(f"Flood {next(names)}"), timeout=60).status_code
            with lock:
                flood[status] += 1

    threads = [threading.Thread(target=ask, args=(f"127.0.1.{n}",)) for n in range(1, addresses + 1) for _ in (1, 2)]
    for thread in threads:
        thread.start()
    other, mine = browser("127.0.2.1"), []
    while time.monotonic() < until - 2:
        start = time.monotonic()
        mine.append(other.get(proxy + sheet_pdf(f"Other {next(names)}"), timeout=60).status_code)
        time.sleep(max(0.0, 2 - (time.monotonic() - start)))
    for thread in threads:
        thread.join()
    print(f"{addresses} addresses for {seconds:.0f} s: flood answered {dict(sorted(flood.items()))}")
    print(f"another user's PDFs: {mine.count(200)} of {len(mine)} made, answers {dict(Counter(mine))}")


def imports(proxy: str, seconds: float) -> None:
    attacker = browser("127.0.6.1")
    page = BeautifulSoup(attacker.get(proxy + "/games/import", timeout=30).text, "lxml")
    game = json.dumps(FOUR | {"date": "2026-11-02"}, separators=(",", ":"))
    history = ('{"games":[' + ",".join([game] * (8_300_000 // len(game))) + "]}").encode()
    fields = {"csrf_token": page.select_one("input[name=csrf_token]")["value"]}
    boundary, body = encode_multipart(fields | {"file": FileStorage(io.BytesIO(history), "history.json")})
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    other = browser("127.0.6.2")
    other.get(proxy + "/games", timeout=30)  # warm
    answers: Counter[str] = Counter()
    waits: list[float] = []
    lock = threading.Lock()
    until = time.monotonic() + seconds

    def post(_thread: int) -> None:
        while time.monotonic() < until:
            response = attacker.post(proxy + "/games/import", data=body, headers=headers, timeout=120)
            kind = (
                "refused unread" if "was not read" in response.text else "read" if response.status_code != 503 else ""
            )
            with lock:
                answers[f"{response.status_code} {kind}".strip()] += 1

    def watch() -> None:
        while time.monotonic() < until:
            start = time.monotonic()
            other.get(proxy + "/games", timeout=120)
            waits.append(time.monotonic() - start)
            time.sleep(max(0.0, 0.2 - (time.monotonic() - start)))

    watcher = threading.Thread(target=watch)
    watcher.start()
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(post, range(16)))
    watcher.join()
    p95 = statistics.quantiles(waits, n=20)[-1] if len(waits) > 1 else float("nan")
    print(f"one address, 16 threads, {len(history) / 1e6:.1f} MB files for {seconds:.0f} s: {dict(answers)}")
    print(
        f"another user's History ({len(waits)}): p50 {statistics.median(waits) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms, slowest {max(waits) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("flood", choices=["pdfs", "imports"])
    parser.add_argument("--addresses", type=int, default=12, help="pdfs: flooding addresses")
    parser.add_argument("--seconds", type=float, default=None, help="default: 40 (pdfs), 30 (imports)")
    parser.add_argument("--workers", type=int, default=8, help="sync workers of each instance")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    with production(args.workers, args.database_url) as proxy:
        if args.flood == "pdfs":
            pdfs(proxy, args.addresses, args.seconds or 40)
        else:
            imports(proxy, args.seconds or 30)


if __name__ == "__main__":
    main()
