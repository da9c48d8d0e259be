"""Slow clients: 200 connections that send their headers one line every 5 s, while
another user asks for History four times a second. Each setup in turn:

    .venv/bin/python bench/slow_clients.py                    # 200 clients, 40 s per setup
    .venv/bin/python bench/slow_clients.py --clients 4 --seconds 40 --setups gunicorn

- ``gunicorn``: gunicorn alone, 4 sync workers (the issue's setup);
- ``gthread``: gunicorn alone, 4 gthread workers of 8 threads;
- ``nginx``: nginx with the production settings (deploy/nginx/default.conf.template)
  in front of the same 4 sync workers: the setup the README gives.

Each slow client opens a connection, sends a request line and then one header
line every 5 s, never the blank line that ends the headers; when the server
closes the connection, it opens another at once, so CLIENTS are always trying.
Meanwhile a probe asks ``GET /games`` every 0.25 s on a new connection (10 s
timeout). Prints, per setup: probes, answered, answered under 1 s, p50, p95 and
the slowest answer, and how many slow connections the server closed.
Production settings otherwise (deploy/gunicorn.conf.py, timeout 30 s); SQLite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving.server import GUNICORN_CONF, gunicorn, nginx, release_step  # noqa: E402

SETUPS = ("gunicorn", "gthread", "nginx")


class SlowClients:
    """*count* connections to *port* sending one header line every *pause* seconds."""

    def __init__(self, port: int, count: int, pause: float = 5.0) -> None:
        self.port, self.count, self.pause = port, count, pause
        self.closed = 0  # connections the server closed (timed out, refused)
        self.loop = asyncio.new_event_loop()
        self.stopping = False
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.run(),), daemon=True)

    async def one(self, n: int) -> None:
        while not self.stopping:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.write(b"GET /games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                await writer.drain()
                line = 0
                while not self.stopping:
                    with contextlib.suppress(asyncio.TimeoutError):
                        if await asyncio.wait_for(reader.read(1024), self.pause) == b"":
                            break  # closed by the server
                        break  # it answered (an error page): this one is done
                    line += 1
                    writer.write(f"X-Slow-{n}-{line}: 1\r\n".encode())
                    await writer.drain()
                writer.close()
            except OSError:
                pass
            if not self.stopping:
                self.closed += 1
                await asyncio.sleep(0.05)

    async def run(self) -> None:
        await asyncio.gather(*(self.one(n) for n in range(self.count)))

    def __enter__(self) -> SlowClients:
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.stopping = True
        self.thread.join(timeout=self.pause + 5)


def probe(base: str, seconds: float, every: float = 0.25) -> list[float | None]:
    """Latency in seconds of ``GET /games`` every *every* seconds (None: no answer in 10 s or an error)."""
    results: list[float | None] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            ok = requests.get(base + "/games", timeout=10, headers={"Connection": "close"}).status_code == 200
            results.append(time.monotonic() - start if ok else None)
        except requests.RequestException:
            results.append(None)
        time.sleep(max(0.0, every - (time.monotonic() - start)))
    return results


def run(setup: str, clients: int, seconds: float, work: Path) -> dict:
    url = f"sqlite:///{work / 'slow.sqlite3'}"
    release_step(url)
    with contextlib.ExitStack() as stack:
        app = stack.enter_context(
            gunicorn(
                url,
                workers=4,
                log=work / f"gunicorn-{setup}.log",
                config=GUNICORN_CONF,
                timeout=30,
                worker_class="gthread" if setup == "gthread" else "sync",
                SCOREKEEPER_MIGRATE="false",
            )
        )
        base = stack.enter_context(nginx([app.removeprefix("http://")], work / "nginx")) if setup == "nginx" else app
        port = int(base.rsplit(":", 1)[1])
        unloaded = probe(base, 3)
        with SlowClients(port, clients) as slow:
            time.sleep(2)  # every slow connection open
            answers = probe(base, seconds)
            closed = slow.closed
    times = sorted(t for t in answers if t is not None)
    quantiles = statistics.quantiles(times, n=20, method="inclusive") if len(times) > 1 else [float("nan")] * 19
    return {
        "setup": setup,
        "probes": len(answers),
        "answered": len(times),
        "under_1s": sum(t < 1 for t in times),
        "p50_ms": statistics.median(times) * 1000 if times else float("nan"),
        "p95_ms": quantiles[18] * 1000,
        "max_ms": max(times) * 1000 if times else float("nan"),
        "alone_p50_ms": statistics.median([t for t in unloaded if t is not None]) * 1000,
        "closed": closed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--setups", nargs="+", choices=SETUPS, default=list(SETUPS))
    args = parser.parse_args()
    print(f"{args.clients} slow clients, {args.seconds:.0f} s per setup; probe: GET /games every 0.25 s")
    print("setup     probes answered <1s   p50 ms   p95 ms   max ms  (alone p50)  slow connections closed")
    for setup in args.setups:
        with tempfile.TemporaryDirectory(prefix="scorekeeper-slow-") as work:
            f = run(setup, args.clients, args.seconds, Path(work))
        print(
            f"{f['setup']:9} {f['probes']:6} {f['answered']:8} {f['under_1s']:4} {f['p50_ms']:8.0f} "
            f"{f['p95_ms']:8.0f} {f['max_ms']:8.0f}  ({f['alone_p50_ms']:5.0f})      {f['closed']}"
        )


if __name__ == "__main__":
    main()
