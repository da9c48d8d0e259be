"""Run the app under gunicorn on a free loopback port, as production would."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn(
    database_url: str | None,
    workers: int = 3,
    log: Path | None = None,
    command: Path = GUNICORN,
    cwd: Path | str | None = None,
    app: str = "scorekeeper:create_app()",
    **env: str,
):
    """Yield the base URL of ``gunicorn -w WORKERS APP`` (by default
    ``'scorekeeper:create_app()'``), stopped on exit. Waits at most 60 s for it
    to answer ``/healthz`` (another *app*: ``/``).

    *database_url* None: the app's own default (SQLite in its instance folder).
    *command*: another environment's gunicorn, started in *cwd*."""
    port = free_port()
    environment = os.environ | {"SCOREKEEPER_SECRET_KEY": "gunicorn-test-secret", **env}
    if database_url is not None:
        environment["SCOREKEEPER_DATABASE_URL"] = database_url
    output = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [str(command), "-w", str(workers), "-b", f"127.0.0.1:{port}", "--timeout", "60", app],
        env=environment,
        cwd=cwd,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                probe = "/healthz" if app.startswith("scorekeeper:") else "/"
                if requests.get(base + probe, timeout=2).status_code == 200:
                    break
            except requests.RequestException:  # not listening yet, or still migrating
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start (exit {process.poll()})")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        if log:
            output.close()
