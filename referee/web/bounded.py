"""A least-recently-used cache bounded in bytes, and the part of a request a poll's answer
depends on, for the two poll caches (:mod:`referee.web.quick_poll`, :mod:`referee.web.news`).

A count of entries is no bound: one answer may be 200 bytes or 200 KB.  Each entry here says
its size; the oldest are dropped while the total is over :data:`DEFAULT_BYTES`.  And a key
holds only what changes the answer, read as the app reads it: the language cookie and the
house-rules cookies (never the whole ``Cookie`` header), the address the page was opened at
only when share links are built from it (no ``PUBLIC_URL``) and then at most
:data:`HOSTS_PER_ANSWER` addresses per game version, never ``HX-Current-URL``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from http.cookies import CookieError, SimpleCookie
from typing import Any, Generic, TypeVar
from urllib.parse import quote

from markupsafe import escape

V = TypeVar("V")
DEFAULT_BYTES = 8 * 1024 * 1024
"""Bytes of answers one cache keeps at most in a process (a room of 50 tables needs about 1 MB)."""
HOSTS_PER_ANSWER = 4
ADDRESS_SHOWN = "thirteen.address_shown"
"""The environ key of the address share links were built from while drawing an answer
(``sharing.public_base``); once the answer is drawn, whether it shows it (:func:`shows_address`).
Only an answer that shows it is kept per address; any other is one for every address, so a new
``Host`` is answered from the caches, never with another address's links."""


def shows_address(environ: dict[str, object], body: bytes) -> bool:
    """Whether ``body`` shows the address its share links were built from, as it is or as a page
    or a link writes it (a page's context may build the links that its fragment leaves out).

    >>> environ = {ADDRESS_SHOWN: "http://a&b:8000"}
    >>> shows_address(environ, b'<input value="http://a&amp;b:8000/g/x">'), shows_address(environ, b"<p>no</p>")
    (True, False)
    >>> shows_address({}, b"http://a&b:8000")
    False
    """
    base = environ.get(ADDRESS_SHOWN)
    if not isinstance(base, str) or not base:
        return False
    return any(form.encode() in body for form in {base, str(escape(base)), quote(base), quote(base, safe="")})
ANY_ADDRESS = "*"
"""The address of a kept answer that shows none."""
"""Addresses one game version is kept for (loopback, the LAN address, a name or two); a poll at
another address is answered in full, not kept."""


class Answered:
    """An app's WSGI answer, passed on to the server as it comes, with its status and headers
    noted (both caches decide from them whether to keep it) and its body joined on demand.

    >>> def app(environ, start_response):
    ...     start_response("429 Too Many Requests", [("Retry-After", "3")])
    ...     return [b"slow ", b"down"]
    >>> answered = Answered(app, {}, lambda status, headers, exc_info=None: None)
    >>> answered.status, answered.headers, answered.body()
    ('429 Too Many Requests', [('Retry-After', '3')], b'slow down')
    """

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> None:
        self.status = ""
        self.headers: list[tuple[str, str]] = []

        def noting(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            self.status, self.headers = status, headers
            return start_response(status, headers, exc_info)

        self.chunks = wsgi_app(environ, noting)

    def sets_cookie(self) -> bool:
        return any(name.lower() == "set-cookie" for name, _ in self.headers)

    def body(self) -> bytes:
        """The whole body (the app's iterable then closed, as a server would)."""
        try:
            return b"".join(self.chunks)
        finally:
            if hasattr(self.chunks, "close"):
                self.chunks.close()


class BoundedCache(Generic[V]):
    """LRU entries with their sizes, the total kept under ``limit`` bytes; thread-safe."""

    def __init__(self, limit: int = DEFAULT_BYTES) -> None:
        self.limit = limit
        self.entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self.size = 0
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            kept = self.entries.get(key)
            if kept is None:
                return None
            self.entries.move_to_end(key)
            return kept[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        if size > self.limit:
            return
        with self.lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self.entries[key] = (value, size)
            self.size += size
            while self.size > self.limit and self.entries:
                _, (_, dropped) = self.entries.popitem(last=False)
                self.size -= dropped

    def grow(self, key: Hashable, extra: int) -> None:
        """An entry took ``extra`` more bytes (a compressed copy of it was added)."""
        with self.lock:
            kept = self.entries.get(key)
            if kept is not None:
                self.entries[key] = (kept[0], kept[1] + extra)
                self.size += extra
                while self.size > self.limit and self.entries:
                    _, (_, dropped) = self.entries.popitem(last=False)
                    self.size -= dropped

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.size = 0

    def __len__(self) -> int:
        return len(self.entries)


def answer_cookies(header: str) -> tuple[tuple[str, str], ...]:
    """The cookies a page's answer depends on (the language, the house rules kept), from a
    ``Cookie`` header: any other cookie a client sends changes nothing and is left out.

    >>> answer_cookies("lang=es; tracker=abc; rules_demo=%7B%7D")
    (('lang', 'es'), ('rules_demo', '%7B%7D'))
    """
    if not header:
        return ()
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return (("?", header[:200]),)  # unreadable: kept whole, as the app would read it
    return tuple(sorted((name, morsel.value) for name, morsel in jar.items()
                        if name == "lang" or name.startswith("rules_")))


class HostLimit:
    """The addresses each game version was kept for: at most :data:`HOSTS_PER_ANSWER`."""

    def __init__(self) -> None:
        self.seen: BoundedCache[set[str]] = BoundedCache(1024 * 1024)
        self.lock = threading.Lock()

    def allows(self, token: str, version: int, host: str) -> bool:
        with self.lock:
            hosts = self.seen.get((token, version))
            if hosts is None:
                hosts = set()
                self.seen.put((token, version), hosts, 200)
            if host in hosts:
                return True
            if len(hosts) >= HOSTS_PER_ANSWER:
                return False
            hosts.add(host)
            return True
