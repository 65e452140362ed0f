"""The database under more than one process: SQLite settings, migrations applied once, health.

* **SQLite** runs in WAL mode (readers never wait for a writer, a writer never waits for
  readers) with a busy timeout of :data:`SQLITE_BUSY_TIMEOUT_MS`: long enough for any burst of
  the app's small writes to drain, short enough that a stuck lock shows up as an error
  before a server's request timeout (gunicorn's is 30 s) kills the worker.
* **Migrations** run under a lock, so processes starting at once on an empty database never
  race: a PostgreSQL advisory lock held for the upgrade, or an exclusive ``flock`` on a file
  beside the SQLite database.  The second process waits, then finds nothing left to do.
* :func:`database_ok` is what ``/healthz`` asks.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event, text
from sqlalchemy.engine import Engine

from referee.web.extensions import db

try:  # POSIX; on Windows the LAN server is the only process, so no lock is needed
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

MIGRATIONS = str(Path(__file__).resolve().parent / "migrations")
FIRST_MIGRATION = "d20fe8d645eb"
SQLITE_BUSY_TIMEOUT_MS = 10_000
#: Any constant the cluster's other users do not take: ``thirteen`` in ASCII.
MIGRATION_LOCK_KEY = int.from_bytes(b"thirteen", "big") & 0x7FFF_FFFF_FFFF_FFFF


def configure_engine(engine: Engine) -> None:
    """SQLite: WAL and a busy timeout on every new connection (a file database only)."""
    if engine.dialect.name != "sqlite" or engine.url.database in (None, "", ":memory:"):
        return

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()


@contextlib.contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the database's migration lock (waiting for it) while the block runs."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            connection.commit()
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
                connection.commit()
        return
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:" or fcntl is None:
        yield  # an in-memory database belongs to one process
        return
    lock_path = Path(path).with_name(Path(path).name + ".migrate-lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def upgrade_database(app: Flask) -> None:
    """Bring the database up to the latest migration, once, whoever else starts at the same time."""
    from flask_migrate import upgrade

    from referee.web import models  # noqa: F401  (tables known to the metadata)

    with app.app_context():
        with migration_lock(db.engine):
            _adopt_unversioned_database()
            upgrade(directory=MIGRATIONS)


def _adopt_unversioned_database() -> None:
    """A database made before migrations existed (tables, no ``alembic_version``) is marked
    as being at the first migration, so ``upgrade`` carries it on instead of failing."""
    from flask_migrate import stamp
    from sqlalchemy import inspect

    tables = set(inspect(db.engine).get_table_names())
    if "games" in tables and "alembic_version" not in tables:
        # Made by ``db.create_all()`` from today's models (every table there): already the newest.
        whole = set(db.metadata.tables) <= tables
        stamp(directory=MIGRATIONS, revision="head" if whole else FIRST_MIGRATION)


def database_ok() -> bool:
    """Whether the database answers a trivial query."""
    try:
        with db.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception:
        return False
    return True
