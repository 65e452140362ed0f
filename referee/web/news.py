"""A poll that carries news is rendered once per game version and shared by the whole table.

When a keeper saves, every watching phone of that table asks for the same fragment within
the next 3 s: twenty phones, twenty identical renders of the sheet.  The first render is kept
here, keyed by everything the answer depends on: the share link (keeper or watcher), the game
version, the address the page was opened at (the share links), the language and the kind of
request (fragment or whole page).  The other phones get it without the game being read from
the database (the poll already read its version), and compressed once per encoding, not once
per phone.  Phones that ask while the first render is under way wait for it rather than render
it again.  A version never changes once written, so an entry can never be stale: it only stops
being asked for.  This is a cache, not state: every worker process has its own, and a worker
that never saw a version renders it from the database like any other.
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import brotli
from flask import Response, current_app, request
from flask_babel import get_locale

from referee.web.bounded import BoundedCache, HostLimit
from referee.web.views import htmx_details

SHARED_VERSION = "thirteen.shared_version"
"""The environ key saying this request's answer is the shared one of that game version (the
WSGI layer, referee.web.quick_poll, may then hand the whole answer to the next phone)."""


@dataclass
class _Answer:
    body: bytes
    headers: list[tuple[str, str]]
    encoded: dict[str, bytes] = field(default_factory=dict)

    def response(self, key: Hashable | None = None) -> Response:
        """The answer, compressed as the phone accepts (brotli, else gzip), each once."""
        accepted = request.headers.get("Accept-Encoding", "").lower()
        encoding = "br" if "br" in accepted else "gzip" if "gzip" in accepted else None
        response = Response(status=200, headers=self.headers)
        if encoding is None or len(self.body) < current_app.config.get("COMPRESS_MIN_SIZE", 500):
            response.set_data(self.body)
            return response
        data = self.encoded.get(encoding)
        if data is None:
            data = (brotli.compress(self.body, quality=current_app.config.get("COMPRESS_BR_LEVEL", 5))
                    if encoding == "br" else gzip.compress(self.body, 6))
            self.encoded[encoding] = data
            if key is not None:
                _answers.grow(key, len(data))  # the compressed copy counts against the bound too
        response.set_data(data)
        response.headers["Content-Encoding"] = encoding
        response.vary.add("Accept-Encoding")
        return response


_answers: BoundedCache[_Answer] = BoundedCache()
_hosts = HostLimit()
_rendering: dict[Hashable, threading.Lock] = {}
_lock = threading.Lock()


def _host() -> str:
    """The address the answer's share links hold: none to key by when ``PUBLIC_URL`` is set."""
    return "" if current_app.config.get("PUBLIC_URL") else request.host


def _key(token: str, version: int) -> Hashable:
    htmx = htmx_details()
    return (token, version, _host(), request.script_root, str(get_locale()),
            bool(htmx), bool(htmx and htmx.boosted))


def _kept(key: Hashable) -> _Answer | None:
    return _answers.get(key)


def shared_answer(token: str, version: int, render: Callable[[], tuple[Response, int]]) -> Response:
    """The poll's answer for the game behind ``token`` at ``version``: from the cache, or
    rendered now by ``render`` (which returns the page and the version it showed; it is kept
    if it is a plain 200 of that very version)."""
    key = _key(token, version)
    kept = _kept(key)
    if kept is None and not _hosts.allows(token, version, _host()):
        return render()[0]  # an address this version was never shown at before: answered, not kept
    if kept is None:
        with _lock:
            one_at_a_time = _rendering.setdefault(key, threading.Lock())
        with one_at_a_time:
            kept = _kept(key)
            if kept is None:
                try:
                    response, shown = render()
                finally:
                    with _lock:
                        _rendering.pop(key, None)
                if shown != version or response.status_code != 200 or response.is_streamed:
                    return response
                kept = _Answer(response.get_data(), list(response.headers.items()))
                _answers.put(key, kept, len(kept.body) + sum(len(k) + len(v) for k, v in kept.headers) + 200)
    request.environ[SHARED_VERSION] = version
    return kept.response(key)


def forget_all() -> None:
    """Empty the cache (tests)."""
    _answers.clear()
    _hosts.seen.clear()
