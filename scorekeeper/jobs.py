"""The app's job queue: work that takes seconds runs outside the request (docs/architecture.md).

One kind of job so far: a group's standing brought up to date after a change
(:func:`scorekeeper.store.standing.bring_up_to_date`). The store notes what is to be rated
again in the change's own transaction and asks, after the commit, for a job
(:func:`~scorekeeper.store.standing.set_catch_up`); the request answers without waiting for
it. Once a minute, and as soon as a worker starts, a sweep asks again for every group still
behind (:func:`~scorekeeper.store.standing.behind_groups`), so a job the queue lost (Redis
restarted empty, a worker killed) is run all the same: the notes in the database, not the
queue, say what is left to rate. A job that rated anything publishes its group once after
its last commit (:func:`scorekeeper.table.events.publish_standing`): every "tonight" page
of the group, on any process, shows the new ratings.

The queue is Huey's (``huey`` on PyPI); ``JOBS`` says where it is and who runs it:

- ``redis`` (the default with ``REDIS_URL``): the queue in that Redis (``RedisHuey``); the
  app's processes only add to it, and ``flask worker`` (compose's ``worker`` service) runs
  the jobs, in threads (``JOB_WORKERS``).
- ``embedded`` (the default without ``REDIS_URL``: ``make run``): the queue in this
  process's memory, run by a consumer thread of this process, started with its first
  request. No Redis, no second process; a job still queued when the process stops is
  found again by the sweep of the next start.
- ``immediate`` (the default of apps made with ``TESTING``): each job runs at once, on the
  thread that committed, after the commit, as Huey's immediate mode does. The tests of the
  catching up itself start real consumers (``tests/test_jobs.py``).

A job that raises is run again (``JOB_RETRIES`` times, ``JOB_RETRY_DELAY`` seconds later,
doubling), and after that the sweep finds its group again.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass, field

import click
from flask import Flask
from huey import MemoryHuey, RedisHuey, crontab
from huey.api import Huey, TaskWrapper
from huey.consumer import Consumer
from redis import ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .store import standing as store_standing
from .table import events

MODES = ("redis", "embedded", "immediate")

#: Seconds to reach Redis and to wait for its answer: a save whose job cannot be queued
#: answers all the same (its note is in the database, the sweep finds it) within this.
REDIS_TIMEOUT = 1.0

logger = logging.getLogger(__name__)


class _OneLine(logging.Filter):
    """Huey's consumer logs a traceback each time it cannot reach its queue: with Redis
    gone, several a second at first, then one every :data:`RETRY_QUEUE_SECONDS`. The
    error's own words on the line say all there is (a job that fails keeps its traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, RedisConnectionError | RedisTimeoutError):
            record.msg, record.args = f"{record.getMessage()}: Redis: {error}", None
            record.exc_info = record.exc_text = None
        return True


#: Huey's loggers that say so when the queue cannot be reached (its worker threads, its
#: scheduler, and a job that could not queue another: the sweep).
_QUEUE_LOGGERS = ("huey", "huey.consumer.Worker", "huey.consumer.Scheduler")

#: The longest pause, in seconds, of a worker that could not read its queue before it tries
#: again: the jobs move on within this of Redis coming back.
RETRY_QUEUE_SECONDS = 2.0


class _InProcessConsumer(Consumer):
    """Huey's consumer run beside the app in its own process (``embedded``): its
    threads only; the signals stay the server's (Huey's own would take them over,
    and cannot be set from a request's thread)."""

    def _set_signal_handlers(self) -> None:
        pass


@dataclass
class Jobs:
    """The app's queue (:attr:`huey`), its jobs, and, with ``embedded``, this process's consumer.

    :ivar mode: one of :data:`MODES`.
    :ivar standing: the job ``standing(group_id)``: the group's standing brought up to date.
    :ivar sweep: the periodic job that asks :attr:`standing` for every group behind.
    """

    huey: Huey
    mode: str
    standing: TaskWrapper
    sweep: TaskWrapper
    _consumer: Consumer | None = None
    _consumer_pid: int | None = None
    _starting: threading.Lock = field(default_factory=threading.Lock)

    def ask(self, group_id: int) -> None:
        """Queue the job that brings *group_id*'s standing up to date. Never raises:
        a job that cannot be queued is logged in one line, and the sweep runs it later."""
        try:
            self.standing(group_id)
        except Exception as error:  # Redis down or hung: the change is stored, its note too
            logger.warning("standing of group %d not queued (%s); the worker's sweep will run it", group_id, error)

    def start_here(self) -> None:
        """``embedded``: start this process's consumer unless it runs (a forked
        worker process starts its own); other modes: nothing."""
        if self.mode != "embedded" or self._consumer_pid == os.getpid():
            return
        with self._starting:
            if self._consumer_pid == os.getpid():
                return
            self._consumer = consumer(self, workers=1, max_delay=1.0, in_process=True)
            self._consumer.start()
            self._consumer_pid = os.getpid()

    def stop_here(self) -> None:
        """Stop this process's consumer (``embedded``), letting the job under way finish."""
        if self._consumer is not None and self._consumer_pid == os.getpid():
            self._consumer.stop(graceful=True)
        self._consumer = self._consumer_pid = None


def consumer(jobs: Jobs, *, workers: int, max_delay: float = RETRY_QUEUE_SECONDS, in_process: bool = False) -> Consumer:
    """A Huey consumer of *jobs*' queue: *workers* threads, and the scheduler that
    runs the periodic sweep (at its start, then every minute) and the retries. A
    queue it cannot reach is logged in one line a try, without a traceback.

    :param max_delay: the longest pause, in seconds, between two looks at a queue
        that cannot be waited on (memory) or could not be reached (Redis gone).
    :param in_process: beside the app's server (``embedded``), leaving it its signals.
    """
    for name in _QUEUE_LOGGERS:
        queue_logger = logging.getLogger(name)
        if not any(isinstance(f, _OneLine) for f in queue_logger.filters):
            queue_logger.addFilter(_OneLine())
    kind = _InProcessConsumer if in_process else Consumer
    return kind(jobs.huey, workers=workers, periodic=True, worker_type="thread", max_delay=max_delay)


def mode_of(app: Flask) -> str:
    """``JOBS`` if set, else ``immediate`` for a ``TESTING`` app, ``redis`` with ``REDIS_URL``,
    else ``embedded``.

    :raises ValueError: a ``JOBS`` not in :data:`MODES`, or ``redis`` without ``REDIS_URL``.
    """
    mode = app.config.get("JOBS") or (
        "immediate" if app.testing else "redis" if app.config.get("REDIS_URL") else "embedded"
    )
    if mode not in MODES:
        raise ValueError(f"JOBS must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "redis" and not app.config.get("REDIS_URL"):
        raise ValueError("JOBS=redis needs REDIS_URL")
    return mode


def _queue(app: Flask, mode: str) -> Huey:
    if mode == "redis":
        # BRPOP's wait (read_timeout) within the socket's timeout, so a worker's empty wait is no error
        pool = ConnectionPool.from_url(
            app.config["REDIS_URL"], socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
        )
        return RedisHuey("scorekeeper", results=False, connection_pool=pool, read_timeout=REDIS_TIMEOUT / 2)
    return MemoryHuey("scorekeeper", results=False, immediate=mode == "immediate")


def init_app(app: Flask) -> Jobs:
    """Make *app*'s queue (:func:`mode_of`) and its jobs, have the store ask for a
    standing's job after each change (``embedded``: start the consumer with the
    process's first request), and add the command ``flask worker``."""
    mode = mode_of(app)
    huey = _queue(app, mode)
    retries = int(app.config.get("JOB_RETRIES", 3))
    delay = float(app.config.get("JOB_RETRY_DELAY", 5))

    @huey.task(retries=retries, retry_delay=delay, retry_backoff=2, name="standing")
    def standing(group_id: int) -> None:
        with app.app_context():
            if store_standing.bring_up_to_date(group_id):
                # once, after its last commit: the group's "tonight" pages show the new ratings
                events.publish_standing(group_id)

    @huey.periodic_task(crontab(), name="standing-sweep")
    def sweep() -> None:
        with app.app_context():
            behind = store_standing.behind_groups()
        for group_id in behind:
            standing(group_id)

    jobs = Jobs(huey, mode, standing, sweep)
    app.extensions["jobs"] = jobs
    store_standing.set_catch_up(app, jobs.ask)
    if mode == "embedded":
        app.before_request(jobs.start_here)

    @app.cli.command("worker")
    @click.option("--threads", type=int, default=None, help="jobs run at once (default: JOB_WORKERS, 2)")
    def worker(threads: int | None) -> None:
        """Run the queued jobs (each group's standing brought up to date) until stopped."""
        if jobs.mode != "redis":
            raise click.UsageError(
                f"the jobs queue is {jobs.mode!r}: a worker of its own needs Redis (REDIS_URL, JOBS=redis)"
            )
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        consumer(jobs, workers=threads or int(app.config.get("JOB_WORKERS", 2))).run()

    return jobs
