"""The database under more than one process: SQLite settings, migrations applied once, health.

* **SQLite** runs in WAL mode (readers never wait for a writer, a writer never waits for
  readers) with a busy timeout of :data:`SQLITE_BUSY_TIMEOUT_MS`: long enough for any burst of
  the app's small writes to drain, short enough that a stuck lock shows up as an error
  before a server's request timeout (gunicorn's is 30 s) kills the worker.
* **Migrations** run under a lock, so processes starting at once on an empty database never
  race: a PostgreSQL advisory lock held for the upgrade, or an exclusive ``flock`` on a file
  beside the SQLite database.  The second process waits, then finds nothing left to do.
* **A database that hangs** (its process stopped, a network that drops packets) is given a few
  seconds, never more: PostgreSQL connects within :data:`CONNECT_TIMEOUT_SECONDS`, runs a
  statement within :data:`STATEMENT_TIMEOUT_MS` (the server's own ``statement_timeout``), a
  request waits for a pooled connection :data:`POOL_TIMEOUT_SECONDS` at most, and a
  :class:`Watchdog` closes the socket of any connection that waited for an answer longer than
  :data:`WAIT_SECONDS` (a stopped server cannot enforce its own timeout).  After that the
  :class:`Breaker` answers at once that the database is down for :data:`BREAKER_SECONDS`, and
  then lets one request at a time try again, so a hung database does not hold every thread of
  the server: static files, ``/sw.js``, the offline page and the check screens (which never
  touch the database) keep answering.  SQLite waits :data:`SQLITE_BUSY_TIMEOUT_MS` for a lock.
* **A connection that drops** mid-request never escapes as a traceback: the session is closed
  at the end of the request by :func:`close_session` (in place of Flask-SQLAlchemy's own),
  which drops a dead connection quietly.  :func:`saved_state` says whether this request's write
  was stored, so a 503 never says "nothing was saved" of a write whose commit went through.
* :func:`database_ok` is what ``/healthz`` asks.
* **A session keeps the objects it loaded until it is closed** (:func:`hold_objects`): on
  Python 3.11 the collector must never free one of them while SQLAlchemy writes to its state,
  or the process crashes (see :func:`hold_objects`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask, g, has_app_context
from flask_migrate import stamp, upgrade
from sqlalchemy import event, exc, inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from referee.web import models  # noqa: F401  (tables known to the metadata)
from referee.web.extensions import db

try:  # POSIX; on Windows the LAN server is the only process, so no lock is needed
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]  # no fcntl on Windows: the lock is skipped

MIGRATIONS = str(Path(__file__).resolve().parent / "migrations")
FIRST_MIGRATION = "d20fe8d645eb"
SQLITE_BUSY_TIMEOUT_MS = 4_000
CONNECT_TIMEOUT_SECONDS = 3
STATEMENT_TIMEOUT_MS = 3_000
POOL_TIMEOUT_SECONDS = 3
WAIT_SECONDS = 3.5
"""The longest a request waits for one answer of PostgreSQL before its connection is cut."""
BREAKER_SECONDS = 2.0
"""After a database that did not answer, requests are told at once that it is down for this long."""
log = logging.getLogger("thirteen.database")
#: Any constant the cluster's other users do not take: ``thirteen`` in ASCII.
MIGRATION_LOCK_KEY = int.from_bytes(b"thirteen", "big") & 0x7FFF_FFFF_FFFF_FFFF


def engine_options(uri: str) -> dict[str, Any]:
    """The engine's settings for a database URL: a server database gets its timeouts (connect,
    statement, pool); SQLite's are set on each connection (:func:`configure_engine`)."""
    if uri.startswith("sqlite"):
        return {"hide_parameters": True}  # an error's parameters may hold a token: never in a log
    return {
        "hide_parameters": True,
        "pool_timeout": POOL_TIMEOUT_SECONDS,
        "connect_args": {
            "connect_timeout": CONNECT_TIMEOUT_SECONDS,
            "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={STATEMENT_TIMEOUT_MS}"
                       f" -c idle_in_transaction_session_timeout={10 * STATEMENT_TIMEOUT_MS}",
        },
    }


class Breaker:
    """Whether the database was just found not answering (a connection cut by the
    :class:`Watchdog`, a connect that timed out): for :data:`BREAKER_SECONDS` after that, a new
    connection is refused at once; then one request at a time tries again (the others are
    refused at once meanwhile) until one gets through."""

    def __init__(self, seconds: float = BREAKER_SECONDS) -> None:
        self.seconds = seconds
        self.open_until = 0.0
        self.suspect = False
        self.probing_until = 0.0

    def trip(self) -> None:
        self.open_until = time.monotonic() + self.seconds
        self.suspect = True

    def closed(self) -> None:
        self.suspect = False

    def reason_to_refuse(self) -> str | None:
        """Why a new connection is refused now, or ``None`` (this one may try)."""
        now = time.monotonic()
        if now < self.open_until:
            return "the database did not answer a moment ago"
        if self.suspect:
            if now < self.probing_until:
                return "the database is being tried again by another request"
            self.probing_until = now + CONNECT_TIMEOUT_SECONDS + 1
        return None


class Watchdog:
    """Cuts the socket of a PostgreSQL connection that waited for an answer too long: the
    blocked call then fails at once (a disconnection, so the pool drops the connection) and the
    :class:`Breaker` trips.  One daemon thread per process, started on first use (so a
    gunicorn worker starts its own after the fork)."""

    def __init__(self, breaker: Breaker, seconds: float = WAIT_SECONDS) -> None:
        self.breaker = breaker
        self.seconds = seconds
        self.deadlines: dict[int, tuple[float, Any]] = {}
        self.lock = threading.Lock()
        self.pid = 0

    def arm(self, dbapi_connection: Any) -> None:
        if self.pid != os.getpid():
            self._start()
        with self.lock:
            self.deadlines[id(dbapi_connection)] = (time.monotonic() + self.seconds, dbapi_connection)

    def disarm(self, dbapi_connection: Any) -> None:
        with self.lock:
            self.deadlines.pop(id(dbapi_connection), None)

    def _start(self) -> None:
        with self.lock:
            if self.pid == os.getpid():
                return
            self.pid = os.getpid()
            self.deadlines.clear()
        threading.Thread(target=self._watch, name="thirteen-db-watchdog", daemon=True).start()

    def _watch(self) -> None:
        while True:
            time.sleep(0.1)
            now = time.monotonic()
            with self.lock:
                late = [key for key, (deadline, _) in self.deadlines.items() if deadline <= now]
                for key in late:
                    _, connection = self.deadlines.pop(key)
                    self._cut(connection)

    def _cut(self, dbapi_connection: Any) -> None:
        self.breaker.trip()
        log.warning("the database did not answer in %.1f s: connection closed", self.seconds)
        try:
            fd = dbapi_connection.pgconn.socket
            with socket.socket(fileno=os.dup(fd)) as sock:
                sock.shutdown(socket.SHUT_RDWR)
        except Exception:  # already closed: nothing to cut
            pass


def _watch_postgres(engine: Engine) -> None:
    breaker = Breaker()
    watchdog = Watchdog(breaker)
    engine.info = getattr(engine, "info", None) or {}  # type: ignore[attr-defined]  # where a test finds them
    engine.info.update(breaker=breaker, watchdog=watchdog)  # type: ignore[attr-defined]  # see above

    @event.listens_for(engine, "do_connect")
    def _refuse_while_down(dialect: Any, conn_rec: Any, cargs: Any, cparams: Any) -> None:
        reason = breaker.reason_to_refuse()
        if reason is not None:
            raise dialect.loaded_dbapi.OperationalError(reason)

    @event.listens_for(engine, "handle_error")
    def _timed_out(context: Any) -> None:
        error = context.original_exception
        if context.connection is None and "timeout" in str(error).lower():
            breaker.trip()  # a connect that got no answer in time
        # The server shutting down or crashed (57P01-57P03), or a connection the client found
        # dead (no SQLSTATE): a disconnection, so the connection is closed and the pool renewed.
        if isinstance(error, context.engine.dialect.loaded_dbapi.OperationalError) and (
                getattr(error, "sqlstate", None) in (None, "57P01", "57P02", "57P03")):
            context.is_disconnect = True

    @event.listens_for(engine, "connect")
    def _fresh(dbapi_connection: Any, record: Any) -> None:
        record.info["fresh"] = True
        breaker.closed()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        """The pool's pre-ping, under the watchdog: a connection left from before a restart is
        replaced, one to a database that hangs is cut."""
        if record.info.pop("fresh", False):
            return
        watchdog.arm(dbapi_connection)
        try:
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            dbapi_connection.rollback()
        except Exception as error:
            raise exc.InvalidatePoolError() from error
        finally:
            watchdog.disarm(dbapi_connection)

    def _dbapi(connection: Any) -> Any:
        if connection.invalidated or connection.closed:
            return None  # nothing to watch: the connection is being thrown away
        try:
            return connection.connection.dbapi_connection
        except exc.SQLAlchemyError:
            return None

    def _arm(connection: Any, *_: Any) -> None:
        if (dbapi_connection := _dbapi(connection)) is not None:
            watchdog.arm(dbapi_connection)

    def _disarm(connection: Any, *_: Any) -> None:
        if (dbapi_connection := _dbapi(connection)) is not None:
            watchdog.disarm(dbapi_connection)

    event.listen(engine, "before_cursor_execute", _arm)
    event.listen(engine, "after_cursor_execute", _disarm)
    event.listen(engine, "commit", _arm)
    event.listen(engine, "rollback", _arm)
    event.listen(engine, "reset", lambda dbapi_connection, *_: watchdog.arm(dbapi_connection))
    event.listen(engine, "checkin", lambda dbapi_connection, *_: watchdog.disarm(dbapi_connection))


def configure_engine(engine: Engine) -> None:
    """PostgreSQL: the watchdog, the breaker and a pre-ping under them.  SQLite: WAL and a busy
    timeout on every new connection (a file database only)."""
    if engine.dialect.name == "postgresql":
        _watch_postgres(engine)
        return
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
    with app.app_context():
        with migration_lock(db.engine):
            _adopt_unversioned_database()
            upgrade(directory=MIGRATIONS)


def _adopt_unversioned_database() -> None:
    """A database made before migrations existed (tables, no ``alembic_version``) is marked
    as being at the first migration, so ``upgrade`` carries it on instead of failing."""
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


# --------------------------------------------------------------------------- the request's session


SAVED = "thirteen_saved"
"""``g`` key: ``"started"`` once this request began a commit, ``"yes"`` once one went through."""


def _commit_started(session: Session) -> None:
    if has_app_context() and g.get(SAVED) != "yes":
        setattr(g, SAVED, "started")


def _committed(session: Session) -> None:
    if has_app_context():
        setattr(g, SAVED, "yes")


def watch_commits() -> None:
    """Note on ``g`` when this request's session begins and ends a commit (:func:`saved_state`)."""
    if not event.contains(Session, "before_commit", _commit_started):
        event.listen(Session, "before_commit", _commit_started)
        event.listen(Session, "after_commit", _committed)


def saved_state() -> str:
    """What this request stored, as a 503 tells the phone (``X-Thirteen-Saved``): ``"no"`` when
    no commit began (nothing was stored), ``"yes"`` when a commit went through, ``"unknown"``
    when the database dropped during a commit (it may or may not have been stored)."""
    state = g.get(SAVED) if has_app_context() else None
    return {"started": "unknown", "yes": "yes"}.get(state or "", "no")


HELD = "thirteen_held"
"""``Session.info`` key: the objects this session loaded or added, kept until it is closed."""
_HOLD_EVENTS = ("loaded_as_persistent", "transient_to_pending", "detached_to_persistent")


def _hold(session: Session, instance: object) -> None:
    session.info.setdefault(HELD, []).append(instance)


def hold_objects() -> None:
    """Every session keeps the objects it loaded or added until it is closed and let go of them.

    SQLAlchemy refers to a loaded object only weakly: the object holds its ``InstanceState``,
    the state holds a weak reference whose callback (``InstanceState._cleanup``) sets
    attributes on the state when the object dies.  A page that leaves its objects in a
    reference cycle (a Jinja template that defines a macro: the template's context holds
    the macro, the macro's closure holds the context, and the context holds the page's
    ORM objects) lets them die only when the collector runs, at any allocation.  Closing the
    session writes to every state (``state._strong_obj = None`` in ``_detach_states``); on
    CPython 3.11, a new attribute name on an object whose attributes are kept inline makes
    it a ``__dict__``, and the collector can run inside that allocation.  When it frees that
    very state's object, the callback's own writes free the inline attributes the first write
    is still copying: a use-after-free in the interpreter (``dictresize`` reading freed
    ``values``, found with valgrind), a corrupted heap, and a segmentation fault a request or
    two later, wherever memory is next allocated (issue 33: the group's pages crashed the
    server in ``selectinload``).  CPython 3.12 runs the collector only between bytecodes, not
    inside an allocation, so it cannot happen there.

    Held here, no object of a session can die while SQLAlchemy writes to its state (commit's
    expiry, a rollback, the close); they are let go after the close (:func:`close_session`),
    when nothing writes to their states any more.  They live no longer than the request."""
    for name in _HOLD_EVENTS:
        if not event.contains(Session, name, _hold):
            event.listen(Session, name, _hold)


def close_session(app: Flask) -> None:
    """End every request's session in place of Flask-SQLAlchemy's teardown, which lets the
    rollback of a connection that dropped meanwhile escape (a server's own 500, a traceback):
    here that connection is thrown away and the answer already given stands."""
    theirs = type(db)._teardown_session
    funcs = app.teardown_appcontext_funcs
    funcs[:] = [f for f in funcs if getattr(f, "__func__", None) is not theirs]

    @app.teardown_appcontext
    def _remove_session(_exc: BaseException | None) -> None:
        # The objects the session holds (hold_objects) are let go once it is closed, not before.
        held = db.session().info.pop(HELD, None) if db.session.registry.has() else None
        try:
            db.session.remove()
        except exc.DBAPIError as error:
            log.warning("the database dropped the connection before the request ended: %s",
                        (str(error.orig or error).strip().splitlines() or [""])[0])
            registry = db.session.registry
            if registry.has():
                with contextlib.suppress(Exception):
                    registry().invalidate()
            registry.clear()
        finally:
            del held  # only now, when nothing writes to their states any more
