"""The load run of bench/load.py, shortened: 50 users under gunicorn, zero errors,
every saved game read back equal (SQLite, and PostgreSQL when configured).

``SCOREKEEPER_LOAD_SECONDS`` sets the length (default 15; the full run is 60).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

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
