"""Live at the table: every followed page's event stream, fanned out by one thread per process.

Every followed page (a table, a score sheet, a group and its evenings) opens
``GET <its page>/live`` (``/<game>/g/<token>/live``) as an event stream (htmx's SSE
extension, ``templates/partials/followed.html``).  Its answer is ``text/event-stream``:

* at once, the game's version as it is now (``retry: 2000``, ``id: <version>``,
  ``event: version``, ``data: <version>``), so a phone that (re)connects learns at once whether
  it missed something, whatever ``Last-Event-ID`` it sends or loses;
* each time the game moves on (a round saved, a play, an undo), the fragment a poll would get
  (``id: <version>``, ``event: fragment``, one ``data:`` line per line of it): drawn once for
  every stream of the same link, address, language and house-rules cookies, by the app itself
  answering a poll (:func:`fragment_drawer`), and swapped in by htmx as a poll's answer is; the
  version alone (``event: version``: the page's poll asks for it) when it cannot be drawn;
* a comment line every :data:`HEARTBEAT_SECONDS`, which keeps proxies from closing an idle
  stream and finds phones that went away.

A save thus reaches every phone of the table in one write of a few KB to each socket, with no
request of theirs: twenty phones asking for the same fragment at the same moment would each take
one of the server's few threads, most of them to wait for the one that draws it.

A stream holds no thread.  The server hands its socket over before Flask (the LAN server's
dispatcher, :func:`waitress_dispatcher`; gunicorn's worker, :mod:`referee.web.live_worker`) to the
process's :class:`Hub`: one thread, one selector over every stream's socket, which

* answers a new stream (one query for all the streams that came since the last look: 404 for
  an unknown link),
* looks up the versions of every game a stream follows (one query, every :data:`CHECK_SECONDS`,
  at once after a write of this process): a write of another process or another container is
  seen within that time, with one database connection per process, never one per phone,
* draws the fragments, sends the events and the heartbeats (a phone that does not read its stream is dropped: it
  reconnects and is sent the state first),
* closes every stream when the process stops (a restart does not wait for the phones).

A server that cannot hand a socket over (Flask's own, in development and in the browser tests)
serves the same stream from a Flask route, one thread per stream (:func:`stream_route`).  A
database that stops answering leaves the streams open; the versions are sent as soon as it
answers again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import re
import selectors
import socket
import threading
import time
import weakref
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from flask import Flask, Response, abort, request
from flask_babel import gettext
from sqlalchemy import bindparam, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.test import EnvironBuilder

from referee.web import registry, store
from referee.web.bounded import answer_cookies
from referee.web.extensions import db
from referee.web.groups import GROUP_GAME
from referee.web.models import Game
from referee.web.store import is_token

log = logging.getLogger("thirteen.live")

SUFFIX = "/live"
"""What a followed page's address gets to become its event stream."""
CHECK_SECONDS = 0.25
"""How often a process looks up the versions of the games its streams follow (a write of this
process is seen at once; one of another worker or container within this time)."""
HEARTBEAT_SECONDS = 15.0
"""A comment line this often on every stream (the app's ``LIVE_HEARTBEAT_SECONDS``, from the
environment variable of that name, says otherwise: the tests wait a second, not fifteen)."""
RETRY_MS = 2000
"""How long a phone waits before it reconnects a stream that dropped (the ``retry`` field)."""
STREAM_LIMIT = 4000
"""Streams one process holds at most; one more is a 503 (the phone follows by polling)."""
IDLE_SECONDS = 2.0
"""The hub's thread ends after this long without a stream (a new stream starts it again)."""

_games = Game.__table__.c
_VERSIONS = select(_games.id, _games.version).where(_games.id.in_(bindparam("ids", expanding=True)))
_BY_TOKENS = select(_games.id, _games.version, _games.kind, _games.keeper_token, _games.watch_token).where(
    or_(_games.keeper_token.in_(bindparam("tokens", expanding=True)),
        _games.watch_token.in_(bindparam("tokens", expanding=True))))
_CHUNK = 500
_SHOWN_VERSION = re.compile(r'data-version="([0-9]+)"')

HEADERS = (b"HTTP/1.1 200 OK\r\n"
           b"Content-Type: text/event-stream; charset=utf-8\r\n"
           b"Cache-Control: no-store\r\n"
           b"X-Accel-Buffering: no\r\n"
           b"X-Content-Type-Options: nosniff\r\n"
           b"Connection: close\r\n\r\n")
HEARTBEAT = b": still here\n\n"


def _refusal(status: str, sentence: str) -> bytes:
    body = sentence.encode()
    return (f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
            f"Cache-Control: no-store\r\nConnection: close\r\n\r\n").encode() + body


NOT_FOUND = _refusal("404 Not Found", "No game has this link. Check that it was copied whole.")
BUSY = _refusal("503 Service Unavailable", "Too many phones follow this server by event stream; this one follows by polling.")


def event(version: int, *, first: bool = False) -> bytes:
    """One event: the game's version (the first of a stream says how long to wait before reconnecting).

    >>> event(7, first=True)
    b'retry: 2000\\nid: 7\\nevent: version\\ndata: 7\\n\\n'
    >>> event(8)
    b'id: 8\\nevent: version\\ndata: 8\\n\\n'
    """
    head = f"retry: {RETRY_MS}\n" if first else ""
    return f"{head}id: {version}\nevent: version\ndata: {version}\n\n".encode()


def fragment_event(version: int, fragment: str) -> bytes:
    """One event carrying the fragment a poll would get (each of its lines a ``data:`` line).

    >>> fragment_event(3, '<section data-version="3">\\n  <p>Ann</p>\\r\\n</section>')
    b'id: 3\\nevent: fragment\\ndata: <section data-version="3">\\ndata:   <p>Ann</p>\\ndata: </section>\\n\\n'
    """
    lines = "".join(f"data: {line}\n" for line in fragment.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return f"id: {version}\nevent: fragment\n{lines}\n".encode()


SHOWN_HEADERS = ("HOST", "COOKIE", "ACCEPT_LANGUAGE", "X_FORWARDED_PROTO", "X_FORWARDED_HOST")
"""What a fragment depends on, of the stream's request (besides its link): the address (share
links), the language and house-rules cookies, the language asked for, a trusted proxy's word."""


def shown_headers(pairs: Any) -> dict[str, str]:
    """The :data:`SHOWN_HEADERS` of a request's headers (``Accept-Language`` or ``ACCEPT_LANGUAGE``),
    each at most 2,000 characters.

    >>> shown_headers([("Host", "x:8000"), ("User-Agent", "y"), ("ACCEPT_LANGUAGE", "vi")])
    {'HOST': 'x:8000', 'ACCEPT_LANGUAGE': 'vi'}
    """
    kept: dict[str, str] = {}
    for name, value in pairs:
        key = str(name).upper().replace("-", "_")
        if key in SHOWN_HEADERS:
            kept[key] = str(value)[:2000]
    return kept


def _variant(headers: dict[str, str], scheme: str) -> Hashable:
    """What of a stream's request changes the fragment it is sent (its cookies, only those the app reads)."""
    return (scheme, headers.get("HOST", ""), answer_cookies(headers.get("COOKIE", "")),
            headers.get("ACCEPT_LANGUAGE", "")[:200], headers.get("X_FORWARDED_PROTO", ""),
            headers.get("X_FORWARDED_HOST", ""))


Render = Callable[[str, int, dict[str, str], str], str | None]
"""``render(page path, since, headers, scheme)``: the fragment a poll of the page would get, or ``None``."""


class SocketSink:
    """A stream on a socket the server handed over: the hub writes the whole HTTP answer."""

    def __init__(self, sock: socket.socket) -> None:
        sock.setblocking(False)
        self.sock = sock

    def fileno(self) -> int:
        return self.sock.fileno()

    def start(self, first: bytes) -> bool:
        return self.send(HEADERS + first)

    def refuse(self, answer: bytes) -> None:
        self.send(answer)
        self.close()

    def send(self, data: bytes) -> bool:
        """Whether all of ``data`` went into the socket's buffer at once (a phone that stopped
        reading, or went away, is dropped: it reconnects and is sent the state first)."""
        try:
            return self.sock.send(data) == len(data)
        except OSError:
            return False

    def gone(self) -> bool:
        """Whether the phone hung up (the socket is readable: its end, or bytes nobody asked for)."""
        try:
            return not self.sock.recv(512)
        except BlockingIOError:
            return False
        except OSError:
            return True

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()


class QueueSink:
    """A stream served by a Flask route (a server that cannot hand sockets over): the hub puts
    the events in a queue the route's thread sends."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.closed = False

    def fileno(self) -> None:
        return None

    def start(self, first: bytes) -> bool:
        return self.send(first)

    def refuse(self, answer: bytes) -> None:
        self.close()

    def send(self, data: bytes) -> bool:
        if self.closed:
            return False
        self.queue.put(data)
        return True

    def gone(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True
        self.queue.put(None)

    def chunks(self) -> Iterator[bytes]:
        try:
            while (data := self.queue.get()) is not None:
                yield data
        finally:
            self.closed = True


Sink = SocketSink | QueueSink


class _Stream:
    __slots__ = ("game", "headers", "kind", "path", "scheme", "sent", "sink", "token", "variant")

    def __init__(self, sink: Sink, token: str, kind: str, path: str, headers: dict[str, str], scheme: str) -> None:
        self.sink = sink
        self.token = token
        self.kind = kind
        self.path = path
        self.headers = headers
        self.scheme = scheme
        self.variant = (token, _variant(headers, scheme))
        self.game: int | None = None
        self.sent = -1


class Hub:
    """Every event stream of one process, served by one thread (see the module docstring)."""

    def __init__(self, engine: Engine, pages: dict[str, str], *, render: Render | None = None,
                 check: float = CHECK_SECONDS, heartbeat: float = HEARTBEAT_SECONDS, limit: int = STREAM_LIMIT) -> None:
        self.engine = engine
        self.render = render
        self.pages = pages  # path before the token -> the game's kind
        self.check = check
        self.heartbeat = heartbeat
        self.limit = limit
        self.lock = threading.Lock()
        self.pending: list[_Stream] = []
        self.streams: set[_Stream] = set()
        self.by_game: dict[int, set[_Stream]] = {}
        self.thread: threading.Thread | None = None
        self.stopping = False
        self.waker: socket.socket | None = None
        self.woken = False
        self.outage = False

    # --- what the servers call --------------------------------------------------------

    def match(self, method: str, path: str) -> tuple[str, str] | None:
        """``(token, kind)`` when ``method path`` asks for a followed page's stream."""
        if method != "GET" or not path.endswith(SUFFIX):
            return None
        prefix, _, token = path[: -len(SUFFIX)].rpartition("/")
        kind = self.pages.get(prefix + "/")
        return (token, kind) if kind is not None and is_token(token) else None

    def take(self, sink: Sink, token: str, kind: str, *, headers: dict[str, str] | None = None,
             scheme: str = "http") -> None:
        """A new stream: answered by the hub's thread (started if it is not running).  ``headers``
        (:func:`shown_headers`) and ``scheme`` are its request's: the fragments it is sent are drawn
        for them."""
        prefix = next((p for p, k in self.pages.items() if k == kind), "/")
        stream = _Stream(sink, token, kind, prefix + token, headers or {}, scheme)
        with self.lock:
            if self.stopping or len(self.streams) + len(self.pending) >= self.limit:
                sink.refuse(BUSY)
                return
            self.pending.append(stream)
            if self.thread is None:
                self._start()
        self.wake()

    def wake(self) -> None:
        """Look at the versions now (a write of this process was committed)."""
        self.woken = True
        waker = self.waker
        if waker is not None:
            with contextlib.suppress(OSError):
                waker.send(b"\0")

    def count(self) -> int:
        """Streams open now (and waiting for their first event)."""
        with self.lock:
            return len(self.streams) + len(self.pending)

    def stop(self) -> None:
        """End every stream now (the process stops): each phone reconnects to the next server."""
        with self.lock:
            self.stopping = True
            thread = self.thread
        self.wake()
        if thread is not None and thread is not threading.current_thread():
            thread.join(5)

    # --- the hub's thread ---------------------------------------------------------------

    def _start(self) -> None:
        reader, waker = socket.socketpair()
        reader.setblocking(False)
        waker.setblocking(False)
        self.waker = waker
        self.thread = threading.Thread(target=self._run, args=(reader, waker), name="thirteen-live", daemon=True)
        self.thread.start()

    def _run(self, reader: socket.socket, waker: socket.socket) -> None:
        selector = selectors.DefaultSelector()
        selector.register(reader, selectors.EVENT_READ, None)
        next_check = time.monotonic()
        next_beat = next_check + self.heartbeat
        idle_since: float | None = None
        idle = False
        try:
            while True:
                now = time.monotonic()
                with self.lock:
                    if self.stopping:
                        break
                    if self.streams or self.pending:
                        idle_since = None
                    elif idle_since is None:
                        idle_since = now
                    elif now - idle_since > IDLE_SECONDS:  # a new stream starts a new thread
                        self.thread = None
                        if self.waker is waker:
                            self.waker = None
                        idle = True
                        break
                wait = max(0.0, min(next_check, next_beat) - now)
                for key, _ in selector.select(0 if self.woken else wait):
                    if key.data is None:
                        with contextlib.suppress(OSError):
                            while reader.recv(4096):
                                pass
                    elif key.data.sink.gone():
                        self._drop(key.data, selector)
                now = time.monotonic()
                if self.woken or now >= next_check:
                    self.woken = False
                    answered = self._open(selector) and self._versions(selector)
                    # While the database does not answer, it is asked once a second (and when a stream comes).
                    next_check = time.monotonic() + (self.check if answered else max(self.check, 1.0))
                if now >= next_beat:
                    next_beat = now + self.heartbeat
                    for stream in list(self.streams):
                        if not stream.sink.send(HEARTBEAT):
                            self._drop(stream, selector)
        except Exception:  # never silently: the streams end, the phones poll and reconnect
            log.exception("the event streams' thread stopped")
        finally:
            ending: list[_Stream] = []
            if not idle:
                with self.lock:
                    ending = [*self.streams, *self.pending]
                    self.streams.clear()
                    self.pending.clear()
                    self.by_game.clear()
                    if self.thread is threading.current_thread():
                        self.thread = None
                    if self.waker is waker:
                        self.waker = None
            for stream in ending:
                stream.sink.close()
            selector.close()
            reader.close()
            waker.close()

    def _open(self, selector: selectors.BaseSelector) -> bool:
        """Answer the streams that came since the last look; ``False`` if the database did not answer."""
        with self.lock:
            pending, self.pending = self.pending, []
        if not pending:
            return True
        tokens = sorted({s.token for s in pending})
        found: dict[str, tuple[int, int, str]] = {}
        try:
            with self.engine.connect() as connection:
                for i in range(0, len(tokens), _CHUNK):
                    for game, version, kind, keeper, watch in connection.execute(
                            _BY_TOKENS, {"tokens": tokens[i:i + _CHUNK]}):
                        for token in (keeper, watch):
                            found[token] = (game, version, kind)
            self._answered()
        except (DBAPIError, PoolTimeout) as exc:  # not now: they wait for the database, as the open ones do
            self._unanswered(exc)
            with self.lock:
                self.pending[:0] = pending
            return False
        for stream in pending:
            game = found.get(stream.token)
            if game is None or game[2] != stream.kind:
                stream.sink.refuse(NOT_FOUND)
                continue
            stream.game, stream.sent = game[0], game[1]
            if not stream.sink.start(event(game[1], first=True)):
                stream.sink.close()
                continue
            with self.lock:
                self.streams.add(stream)
                self.by_game.setdefault(game[0], set()).add(stream)
            fileno = stream.sink.fileno()
            if fileno is not None:
                selector.register(fileno, selectors.EVENT_READ, stream)
        return True

    def _versions(self, selector: selectors.BaseSelector) -> bool:
        """Send each stream its game's version if it moved on; ``False`` if the database did not answer."""
        with self.lock:
            games = sorted(self.by_game)
        if not games:
            return True
        versions: dict[int, int] = {}
        try:
            with self.engine.connect() as connection:
                for i in range(0, len(games), _CHUNK):
                    versions.update((game, version) for game, version in connection.execute(
                        _VERSIONS, {"ids": games[i:i + _CHUNK]}))
            self._answered()
        except (DBAPIError, PoolTimeout) as exc:
            self._unanswered(exc)
            return False
        for game in games:
            with self.lock:
                streams = list(self.by_game.get(game, ()))
            version = versions.get(game)
            said: dict[Hashable, tuple[int, bytes]] = {}  # one fragment per link and variant
            for stream in streams:
                if version is None:  # the game was removed (retention): its phones reconnect and hear 404
                    self._drop(stream, selector)
                    continue
                if version == stream.sent:
                    continue
                if stream.variant not in said:
                    said[stream.variant] = self._news(stream, version)
                stream.sent, data = said[stream.variant]
                if not stream.sink.send(data):
                    self._drop(stream, selector)
        return True

    def _news(self, stream: _Stream, version: int) -> tuple[int, bytes]:
        """What to send the streams like ``stream`` now that its game is at ``version``: the
        fragment a poll would get (drawn once for them all), or the version alone (the phones
        fetch it) when it cannot be drawn."""
        if self.render is not None:
            try:
                fragment = self.render(stream.path, stream.sent, stream.headers, stream.scheme)
            except Exception:  # drawing failed (the database went away meanwhile): the phones ask themselves
                log.exception("a followed page's fragment could not be drawn for its event stream")
                fragment = None
            if fragment is not None:
                shown = _SHOWN_VERSION.search(fragment)
                drawn = int(shown.group(1)) if shown else version
                return drawn, fragment_event(drawn, fragment)
        return version, event(version)

    def _drop(self, stream: _Stream, selector: selectors.BaseSelector) -> None:
        with self.lock:
            self.streams.discard(stream)
            followers = self.by_game.get(stream.game or 0)
            if followers is not None:
                followers.discard(stream)
                if not followers:
                    del self.by_game[stream.game or 0]
        fileno = stream.sink.fileno()
        if fileno is not None:
            with contextlib.suppress(KeyError, ValueError, OSError):
                selector.unregister(fileno)
        stream.sink.close()

    def _unanswered(self, exc: BaseException) -> None:
        if not self.outage:
            self.outage = True
            first = str(getattr(exc, "orig", None) or exc).strip().splitlines()[:1]
            log.warning("event streams wait for the database: %s", first[0] if first else type(exc).__name__)

    def _answered(self) -> None:
        if self.outage:
            self.outage = False
            log.warning("event streams: the database answers again")


_HUBS: weakref.WeakSet[Hub] = weakref.WeakSet()  # every app's of this process (the tests make many)
KEY = "thirteen_live"


def hub_of(app: Any) -> Hub | None:
    """The hub of a Flask app (or of what gunicorn loaded), if it has one."""
    extensions = getattr(app, "extensions", None)
    return extensions.get(KEY) if isinstance(extensions, dict) else None


def wake_all() -> None:
    """A write was committed in this process: every hub of the process looks now."""
    for hub in list(_HUBS):
        hub.wake()


def stop_all() -> None:
    """End every stream of the process (it stops)."""
    for hub in list(_HUBS):
        hub.stop()


def followed_pages(app: Flask) -> dict[str, str]:
    """Each followed page's path before its token (``/<game>/g/``) and its kind: every
    game's tables and sheets, and the groups (their evenings are on the group's page)."""
    routes = app.url_map.bind("localhost")
    pages = {}
    for game in [*(followed for entry in registry.entries(app) for followed in entry.followed), GROUP_GAME]:
        if game.endpoint in app.view_functions:
            path = routes.build(game.endpoint, {"token": "TOKEN"})
            pages[path.removesuffix("TOKEN")] = game.kind
    return pages


def stream_route(hub: Hub, kind: str) -> Callable[[str], Response]:
    """The Flask route of ``kind``'s streams, for servers that do not hand sockets over."""

    def live(token: str) -> Response:
        if not is_token(token):
            abort(404, gettext("No game has this link. Check that it was copied whole."))
        if store.game_version(token, kind) is None:
            abort(404, gettext("No game has this link. Check that it was copied whole."))
        if request.method != "GET":  # HEAD: the headers only, no stream to hold a thread
            response = Response(b"", mimetype="text/event-stream")
        else:
            sink = QueueSink()
            hub.take(sink, token, kind, headers=shown_headers(request.headers.items()), scheme=request.scheme)
            response = Response(sink.chunks(), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    live.__name__ = f"live_{kind}"
    return live


def fragment_drawer(app: Flask) -> Render:
    """Draw a followed page's fragment as the app answers a phone's poll (``?since=``, htmx's
    ``HX-Request``) with the stream's own address, cookies and language; not compressed."""

    def render(path: str, since: int, headers: dict[str, str], scheme: str) -> str | None:
        asked = {name.replace("_", "-").title(): value for name, value in headers.items()}
        asked["HX-Request"] = "true"
        host = headers.get("HOST") or "localhost"
        environ = EnvironBuilder(path=path, query_string=f"since={since}", headers=list(asked.items()),
                                 base_url=f"{scheme}://{host}").get_environ()
        environ["REMOTE_ADDR"] = "127.0.0.1"
        answer: list[str] = []

        def start_response(status: str, _headers: Any, _exc_info: Any = None) -> Callable[[bytes], object]:
            answer.append(status)
            return lambda _data: None

        chunks = app.wsgi_app(environ, start_response)
        try:
            body = b"".join(chunks)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        return body.decode() if answer and answer[0].startswith("200 ") else None

    return render


def init_app(app: Flask) -> None:
    """A hub for ``app`` and the Flask routes of the streams (after every game's routes)."""
    pages = followed_pages(app)
    if not pages:
        return
    with app.app_context():
        engine = db.engine
    app.config.setdefault("LIVE_HEARTBEAT_SECONDS", os.environ.get("LIVE_HEARTBEAT_SECONDS") or HEARTBEAT_SECONDS)
    try:
        heartbeat = float(app.config["LIVE_HEARTBEAT_SECONDS"])
    except (TypeError, ValueError):
        heartbeat = 0.0
    if not 0 < heartbeat <= 3600:
        log.warning("LIVE_HEARTBEAT_SECONDS is not a number of seconds (0 to 3600): %s s it is", HEARTBEAT_SECONDS)
        heartbeat = HEARTBEAT_SECONDS
    hub = Hub(engine, pages, render=fragment_drawer(app), heartbeat=heartbeat)
    app.extensions[KEY] = hub
    _HUBS.add(hub)
    if wake_all not in store.COMMITTED:
        store.COMMITTED.append(wake_all)
    for prefix, kind in pages.items():
        app.add_url_rule(f"{prefix}<token>{SUFFIX}", endpoint=f"live_{kind}", view_func=stream_route(hub, kind))
