"""bench/tables.py's CPU by kind of process counts the window alone: what a process had
used before the window is left out, and a worker that ends in it (a restart) is counted
through its master. Real processes, /proc read as the bench reads it; no time asserted
but CPU seconds burnt on purpose."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("bench_tables", Path(__file__).parents[2] / "bench" / "tables.py")
assert _spec is not None and _spec.loader is not None
tables = sys.modules["bench_tables"] = importlib.util.module_from_spec(_spec)  # (its dataclasses look it up)
_spec.loader.exec_module(tables)

BURN = """
import os, signal, time
def burn(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
def ready_then_wait():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    print("ready", os.getpid(), flush=True)
    signal.sigwait({signal.SIGUSR1})
"""

#: A gunicorn-like master (its command line names gunicorn, and a port): its first worker burns
#: 0.3 s, says it is ready, burns 0.2 s once signalled, and ends; the master waits for it and
#: starts a second worker, which burns 0.1 s and says "done".
MASTER = (
    BURN
    + """
first = os.fork()
if first == 0:
    burn(0.3)
    ready_then_wait()
    burn(0.2)
    os._exit(0)
os.waitpid(first, 0)
if os.fork() == 0:
    burn(0.1)
    print("done", flush=True)
    time.sleep(60)
    os._exit(0)
time.sleep(60)
"""
)

#: Another process: 0.3 s before the window, 0.2 s in it.
OTHER = BURN + 'burn(0.3)\nready_then_wait()\nburn(0.2)\nprint("done", flush=True)\ntime.sleep(60)\n'


@pytest.mark.parametrize("streams", [False, True])
def test_the_cpu_of_the_window_alone_by_kind_a_restarted_worker_through_its_master(streams):
    """The master and the other process are children of a shell of their own (the root
    measured), so that nothing else this test process started is counted."""
    port = 45871
    root = subprocess.Popen(
        ["sh", "-c", f'"$PY" -c "$MASTER" gunicorn -b 127.0.0.1:{port} & "$PY" -c "$OTHER" & wait'],
        env=os.environ | {"PY": sys.executable, "MASTER": MASTER, "OTHER": OTHER},
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        ready = [root.stdout.readline().split() for _ in range(2)]
        assert [word for word, _ in ready] == ["ready", "ready"]
        meter = tables.Meter(root.pid, {port} if streams else set(), None)
        meter.begin()
        for _, pid in ready:
            os.kill(int(pid), signal.SIGUSR1)
        assert [root.stdout.readline() for _ in range(2)] == ["done\n", "done\n"]
        used = meter.end()
    finally:
        os.killpg(root.pid, signal.SIGKILL)
        root.wait()
        root.stdout.close()
    workers, idle = ("stream workers", "app workers") if streams else ("app workers", "stream workers")
    assert used[workers] == pytest.approx(0.3, abs=0.08)  # 0.2 s of the first worker, 0.1 of the second
    assert used["other"] == pytest.approx(0.2, abs=0.08)
    assert used["gunicorn masters"] < 0.05
    assert used[idle] == used["nginx"] == used["redis-server"] == used["PostgreSQL"] == 0
    assert set(used) == set(tables.KINDS)
