"""A thread kept for what needs no database: static files, ``/sw.js`` and the offline page are
answered within a second whatever PostgreSQL does, from the first request of a freeze on.

A server has a few threads (waitress 8, a gunicorn worker 4).  When PostgreSQL hangs (its
processes stopped, a network that drops packets), every request that asks it waits until the
watchdog cuts it (:data:`referee.web.database.WAIT_SECONDS`), and a handful of phones' polls hold
every thread: a static file asked meanwhile waited 2.6–3.4 s for one (issue 39).  So
:class:`DatabaseGate` (WSGI middleware, in front of the app) lets at most ``threads - 1``
requests that may use the database in at once; one thread is always free for the paths that never
do (:data:`NO_DATABASE`).  A request that finds every database slot taken waits for one at most
:data:`GATE_WAIT_SECONDS` (not at all when every slot has been held that long: the database
hangs); then it goes on marked (``environ[BUSY]``), and the first connection
it asks for is refused at once (the app's 503 in the reader's language, ``X-Thirteen-Saved: no``),
so it never waits on the database holding the kept thread; a page that needs no database (a check
screen, the home page) is answered as usual.

On only with PostgreSQL and when the server says how many threads it runs (``THIRTEEN_THREADS``,
set by ``referee.web.serve`` and ``gunicorn.conf.py``): a SQLite file never hangs that way (a lock
is waited for :data:`referee.web.database.SQLITE_BUSY_TIMEOUT_MS` at most).
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask, has_request_context, request
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from referee.web.extensions import db

THREADS_ENV = "THIRTEEN_THREADS"
BUSY = "thirteen.database_slots_taken"
GATE_WAIT_SECONDS = 0.8
"""How long a request waits for a database slot before it goes on marked busy: far above the few
milliseconds a slot is held while the database answers, even on a loaded machine, and below the
second a static file may wait."""
NO_DATABASE = ("/static/", "/sw.js", "/offline", "/manifest.webmanifest", "/favicon.ico")
"""Paths (prefixes) answered without the database: never wait for a database slot."""


UNGATED = ("/groups/import",)
"""Paths let in without a slot: an import may wait long for another (imports are stored one at a
time, :mod:`referee.web.groups.transfer`), and must not hold a slot meanwhile."""


def needs_no_database(path: str) -> bool:
    """Whether ``path`` is answered without the database (:data:`NO_DATABASE`).

    >>> needs_no_database("/static/css/app.1a2b.css"), needs_no_database("/sw.js"), needs_no_database("/cards/g/x")
    (True, True, False)
    """
    return path.startswith(NO_DATABASE)


_WHOLE_REQUEST = re.compile(rb"(?:GET|HEAD) (/[^ ?#]*)[^ ]* HTTP/1\.[01]\r\n(?:[^\r\n]*\r\n)*?\r\n")


def is_whole_request_needing_no_database(head: bytes) -> bool:
    """Whether ``head`` (a connection's first bytes, peeked) holds a whole ``GET`` or ``HEAD``
    request, its headers ended, of a path answered without the database: a server may answer it
    on a thread of its own (``referee.web.live_worker``).

    >>> is_whole_request_needing_no_database(b"GET /sw.js HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
    True
    >>> is_whole_request_needing_no_database(b"GET /sw.js HTTP/1.1\\r\\nHost: x\\r\\n")  # still coming
    False
    >>> is_whole_request_needing_no_database(b"GET /cards/g/x HTTP/1.1\\r\\n\\r\\n")
    False
    """
    found = _WHOLE_REQUEST.match(head)
    return found is not None and needs_no_database(found.group(1).decode("latin-1"))


class DatabaseGate:
    """WSGI middleware: at most ``slots`` requests that may use the database in the app at once
    (see the module docstring)."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], slots: int,
                 wait: float = GATE_WAIT_SECONDS) -> None:
        self.wsgi_app = wsgi_app
        self.slots = threading.BoundedSemaphore(max(1, slots))
        self.wait = wait
        self.lock = threading.Lock()
        self.held: dict[int, float] = {}  # each slot's holder (a number) and since when
        self.taken = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = str(environ.get("PATH_INFO", ""))
        if needs_no_database(path) or path.startswith(UNGATED):
            return self.wsgi_app(environ, start_response)
        if not self._acquire():
            environ[BUSY] = True  # the database is not answering in time: refused at once
            return self.wsgi_app(environ, start_response)
        with self.lock:
            self.taken += 1
            mine = self.taken
            self.held[mine] = time.monotonic()
        try:
            body = self.wsgi_app(environ, start_response)
        except BaseException:
            self._release(mine)
            raise
        return _Releasing(body, lambda: self._release(mine))

    def _acquire(self) -> bool:
        """A slot: at once if one is free; else waited for :data:`GATE_WAIT_SECONDS`, unless every
        slot has been held longer than that already (the database hangs: no wait at all, so the
        requests queued before a static file never hold the kept thread in turn)."""
        if self.slots.acquire(blocking=False):
            return True
        with self.lock:
            oldest = min(self.held.values(), default=time.monotonic())
        if time.monotonic() - oldest > self.wait:
            return False
        return self.slots.acquire(timeout=self.wait)

    def _release(self, mine: int) -> None:
        with self.lock:
            self.held.pop(mine, None)
        self.slots.release()


class _Releasing:
    """The app's answer, giving back its slot once the server closed it (WSGI)."""

    def __init__(self, body: Iterable[bytes], release: Callable[[], None]) -> None:
        self.body = body
        self.release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            release, self.release = self.release, None
            if release is not None:
                release()


def busy(environ: dict[str, Any] | None = None) -> bool:
    """Whether this request found every database slot taken (it must not wait on the database)."""
    if environ is not None:
        return bool(environ.get(BUSY))
    return has_request_context() and bool(request.environ.get(BUSY))


def _refuse_when_busy(engine: Engine) -> None:
    def refuse(*_: Any) -> None:
        if busy():
            raise OperationalError("(no statement: every database slot of this server is taken)", None,
                                   Exception("the database is not answering in time"))

    event.listen(engine, "do_connect", refuse, insert=True)  # before a new connection is tried
    event.listen(engine, "checkout", refuse, insert=True)  # before a pooled one is pinged


def init_app(app: Flask) -> None:
    """Put :class:`DatabaseGate` in front of ``app`` (PostgreSQL, ``THIRTEEN_THREADS`` set)."""
    raw = os.environ.get(THREADS_ENV, "")
    with app.app_context():
        engine = db.engine
    if not raw.isdigit() or engine.dialect.name != "postgresql":
        return
    _refuse_when_busy(engine)
    app.wsgi_app = DatabaseGate(app.wsgi_app, int(raw) - 1)  # type: ignore[method-assign]  # Flask's way to add WSGI middleware
