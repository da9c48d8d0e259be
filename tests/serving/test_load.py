"""The load run of bench/load.py, shortened: 50 users under gunicorn, zero errors,
every saved game read back equal (SQLite, and PostgreSQL when configured); and the
same spread over two instances sharing the database and a redis-server.

``SCOREKEEPER_LOAD_SECONDS`` sets the length (default 15; the full run is 60).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from tests.serving.databases import fresh_database
from tests.serving.server import required_program

LOAD = Path(__file__).resolve().parents[2] / "bench" / "load.py"


@pytest.fixture(scope="module")
def load_module():
    spec = importlib.util.spec_from_file_location("bench_load", LOAD)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_fifty_users_no_errors_and_every_game_saved(load_module, database_url):
    seconds = int(os.environ.get("SCOREKEEPER_LOAD_SECONDS", "15"))
    figures = load_module.run(seconds=seconds, users=50, database_url=database_url, workers=4)
    print(
        f"\n{figures['database']}: {figures['requests']} requests, {figures['failures']} failures, "
        f"{figures['rps']:.1f} req/s, p95 {figures['p95_ms']:.0f} ms, {figures['saved']} saved"
    )
    assert figures["requests"] > 0 and figures["saved"] > 0
    assert figures["failures"] == 0, figures["locust_stderr"]
    assert figures["problems"] == []


@pytest.mark.slow
def test_load_spread_over_two_instances_loses_nothing(load_module, tmp_path):
    """Every request to either of two instances of two workers (one Redis for the rate
    limits, one database: PostgreSQL when configured): a game saved through one is
    read and corrected through the other; no errors, every game read back as last sent."""
    required_program("redis-server")
    seconds = int(os.environ.get("SCOREKEEPER_LOAD_SECONDS", "15"))
    database_url = fresh_database(tmp_path)
    figures = load_module.run(seconds=seconds, users=50, database_url=database_url, workers=2, instances=2)
    print(
        f"\n{figures['database']}, 2 instances: {figures['requests']} requests, {figures['failures']} failures, "
        f"{figures['rps']:.1f} req/s, p95 {figures['p95_ms']:.0f} ms, {figures['saved']} saved, "
        f"{figures['corrected']} corrected"
    )
    assert figures["requests"] > 0 and figures["saved"] > 0  # corrections too, unless the machine is slow
    assert figures["failures"] == 0, figures["locust_stderr"]
    assert figures["problems"] == []
