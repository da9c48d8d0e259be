"""Saved games: SQLAlchemy models, Alembic migrations and the queries the web layer needs.

The database is an SQLite file in the instance folder unless ``DATABASE_URL``
(or ``SCOREKEEPER_DATABASE_URL``) names another, such as PostgreSQL. The
schema is brought up to date by Alembic when the app starts, so a fresh
checkout needs no extra command; what the services clear at start-up is done
then too (shared tables left unlocked for a day: the app factory's ``at_start``).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from flask import Flask
from flask_migrate import Migrate, upgrade
from sqlalchemy import event, insert, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError, IntegrityError
from sqlalchemy.pool import NullPool, Pool

from .db import db

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

migrate = Migrate(directory=str(MIGRATIONS))


def can_store() -> None:
    """Write and commit the one row of ``readiness`` (``/readyz``): a game can be stored
    now only if the database answers *and* takes a write (no full disk, no read-only file).

    :raises sqlalchemy.exc.OperationalError: (or another of ``web.outage.DATABASE_ERRORS``)
        when it cannot.
    """
    from .models import Readiness

    now = datetime.now(UTC)
    try:
        with db.engine.begin() as connection:
            if connection.execute(update(Readiness).where(Readiness.id == 1).values(checked_at=now)).rowcount == 0:
                connection.execute(insert(Readiness).values(id=1, checked_at=now))
    except IntegrityError:  # another readiness check wrote the first row at the same moment: writes work
        pass


def database_url(app: Flask) -> str:
    """The database to use: ``SQLALCHEMY_DATABASE_URI`` if configured, else
    ``SCOREKEEPER_DATABASE_URL`` or ``DATABASE_URL``, else an SQLite file in
    the instance folder. ``postgres://`` is read as ``postgresql+psycopg://``."""
    url = (
        app.config.get("SQLALCHEMY_DATABASE_URI")
        or app.config.get("DATABASE_URL")
        or os.environ.get("SCOREKEEPER_DATABASE_URL")
        or os.environ.get("DATABASE_URL")
    )
    if not url:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def init_app(app: Flask, at_start: Callable[[], object] = lambda: None) -> None:
    """Bind the database to *app* and, unless ``MIGRATE`` is false
    (``SCOREKEEPER_MIGRATE=false``), migrate its schema to the newest revision,
    then call *at_start* (in an app context, before the connections are closed):
    the services' own clearing up at start-up, such as expired tables. Without it
    the schema is migrated by ``flask db upgrade`` (a release step)."""
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app)
    options = app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {})
    # A database error's message (logged) leaves out the statement's values: names, notes,
    # a table's code, a secret's hash (web/logs.py: no log writes a secret).
    options.setdefault("hide_parameters", True)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        options.setdefault("connect_args", {"timeout": 30})
    elif app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # A pooled connection is tried before each use and replaced if the server
        # dropped it (a PostgreSQL restart): no request fails for an old connection.
        # (A SQLite file has no server to drop it: no "SELECT 1" before each query.)
        options.setdefault("pool_pre_ping", True)
        # an unreachable host answers within seconds (503), not after the system's TCP timeout
        options.setdefault("connect_args", {"connect_timeout": int(app.config.get("DATABASE_CONNECT_TIMEOUT", 5))})
    if app.testing:  # tests make many short-lived apps: keep no idle connection behind
        options.setdefault("poolclass", NullPool)
    from . import models  # noqa: F401  (the tables Alembic compares against)

    db.init_app(app)
    migrate.init_app(app, db)
    migrate_now = app.config.get("MIGRATE", True)
    if isinstance(migrate_now, str):  # "no", "off": anything but JSON's true/false/0/1
        migrate_now = migrate_now.strip().lower() not in {"", "0", "false", "no", "off"}
    if migrate_now:
        with app.app_context():
            with _migration_lock(app):
                upgrade(directory=str(MIGRATIONS))
            at_start()
            # Close every connection the migration opened (the lock's included):
            # workers forked after this (gunicorn --preload) must not share them.
            db.engine.dispose()


@contextmanager
def _migration_lock(app: Flask):
    """One process at a time migrates: several workers may start together.

    PostgreSQL: a session advisory lock. SQLite: an exclusive lock on a file
    beside the database (all workers of one SQLite file share a machine).
    """
    engine = db.engine
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.exec_driver_sql(f"SELECT pg_advisory_lock({_LOCK_ID})")
            try:
                yield
            finally:
                connection.exec_driver_sql(f"SELECT pg_advisory_unlock({_LOCK_ID})")
                connection.commit()
        return
    database = engine.url.database
    lock_path = Path(database + ".migrate-lock") if database and database != ":memory:" else None
    if lock_path is None:
        yield
        return
    with open(lock_path, "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


_LOCK_ID = 720_461_113  # any constant; names this app's migration lock


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record) -> None:
    """SQLite: write-ahead logging (readers never wait for a writer), foreign
    keys enforced, and a writer waits up to 30 s for another instead of failing.

    ``synchronous=NORMAL`` (SQLite's advice with WAL): a commit is written to the log
    without waiting for the disk, which is synced at each checkpoint. A transaction is
    still all or nothing, and nothing committed is lost when the app or its server
    process dies; only a power cut or a crash of the machine itself may take the last
    moments' commits with it. In return a commit takes microseconds instead of a disk
    flush (0.75 ms here), during which every other writer waits: at a busy table,
    hundreds of drafts a second (bench/README.md, "Shared tables")."""
    module = type(dbapi_connection).__module__
    if not module.startswith("sqlite3"):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    file = next((row[2] for row in cursor.execute("PRAGMA database_list") if row[1] == "main"), "")
    cursor.close()
    if file and not os.access(file, os.W_OK):  # SQLite opened it read-only, for good
        connection_record.info["read_only_file"] = file


@event.listens_for(Engine, "handle_error")
def _read_only_sqlite_connection_is_lost(context) -> None:
    """SQLite opens a file it may not write read-only, and such a connection
    stays read-only after the file is writable again: treat "attempt to write
    a readonly database" as a lost connection, so SQLAlchemy drops it and the
    pool's others (the next request connects afresh) instead of keeping it."""
    if getattr(context.original_exception, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
        context.is_disconnect = True


@event.listens_for(Pool, "checkout")
def _replace_read_only_sqlite_connection(dbapi_connection, connection_record, connection_proxy) -> None:
    """A connection opened while its SQLite file was read-only is replaced as
    soon as the file is writable again (before, it serves reads as it can)."""
    file = connection_record.info.get("read_only_file")
    if file and os.access(file, os.W_OK):
        raise DisconnectionError("the SQLite file is writable again")  # the pool connects afresh
