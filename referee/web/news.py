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

from referee.web.bounded import ADDRESS_SHOWN, ANY_ADDRESS, BoundedCache, HostLimit, shows_address
from referee.web.views import htmx_details

SHARED_VERSION = "thirteen.shared_version"
"""The environ key saying this request's answer is the shared one of that game version (the
WSGI layer, referee.web.quick_poll, may then hand the whole answer to the next phone)."""


@dataclass
class _Answer:
    body: bytes
    headers: list[tuple[str, str]]
    address: bool = False  # it shows the address it was asked at (share links): kept per address
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


def _key(token: str, version: int, host: str) -> Hashable:
    htmx = htmx_details()
    return (token, version, host, request.script_root, str(get_locale()),
            bool(htmx), bool(htmx and htmx.boosted))


def _kept(token: str, version: int) -> tuple[_Answer | None, Hashable]:
    """The kept answer for this request, if any (one for every address first, then one that shows
    this very address), and the key it is or would be kept under for every address."""
    anywhere = _key(token, version, ANY_ADDRESS)
    kept = _answers.get(anywhere)
    return (kept if kept is not None else _answers.get(_key(token, version, _host()))), anywhere


def shared_answer(token: str, version: int, render: Callable[[], tuple[Response, int]]) -> Response:
    """The poll's answer for the game behind ``token`` at ``version``: from the cache, or
    rendered now by ``render`` (which returns the page and the version it showed; it is kept
    if it is a plain 200 of that very version).  An answer that shows no address (no share
    links) is kept once for every address; one that does, per address (at most
    :data:`~referee.web.bounded.HOSTS_PER_ANSWER` of them: past that it is answered, not kept)."""
    kept, anywhere = _kept(token, version)
    if kept is None:
        with _lock:
            one_at_a_time = _rendering.setdefault(anywhere, threading.Lock())
        with one_at_a_time:
            kept, _ = _kept(token, version)
            if kept is None:
                request.environ.pop(ADDRESS_SHOWN, None)
                try:
                    response, shown = render()
                finally:
                    with _lock:
                        _rendering.pop(anywhere, None)
                if shown != version or response.status_code != 200 or response.is_streamed:
                    return response
                address = shows_address(request.environ, response.get_data())
                if address and not _hosts.allows(token, version, _host()):
                    return response  # an address this version was never shown at before: answered, not kept
                kept = _Answer(response.get_data(), list(response.headers.items()), address)
                _answers.put(_key(token, version, _host()) if address else anywhere, kept,
                             len(kept.body) + sum(len(k) + len(v) for k, v in kept.headers) + 200)
    request.environ[SHARED_VERSION] = version
    request.environ[ADDRESS_SHOWN] = kept.address
    return kept.response(_key(token, version, _host()) if kept.address else anywhere)


def forget_all() -> None:
    """Empty the cache (tests)."""
    _answers.clear()
    _hosts.seen.clear()
