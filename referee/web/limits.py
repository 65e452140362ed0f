"""Limits for a public address: how many games one client may start, and how many writes it
may send, in a while.  Off unless ``RATE_LIMITS`` is on (the hosted setup turns it on; the LAN
server leaves it off: a room's phones all share one address there).

The counting is the ``limits`` library's (moving windows), in the store ``RATE_LIMIT_STORAGE_URI``
names: ``memory://`` (one process: tests, a single server) or ``redis://host:6379`` (shared by
every worker and container: compose.yaml runs one).  A client is its address; behind a reverse
proxy that the app trusts (``FORWARDED_ALLOW_IPS``, as gunicorn reads it) the last address the
proxy added to ``X-Forwarded-For``.

Over a limit, the answer is a 429 in the reader's language with ``Retry-After`` (the seconds
until the window has room again).  The defaults are far above what a table does (a table starts
a few games an evening and sends a write every few seconds at most) and far below a flood:

* starting games (``POST …/new``, a rematch, a table from a sheet): :data:`NEW_GAMES`;
* any other write: :data:`WRITES`.

A client over a limit stays over it until its window has room (the moving window's reset):
meanwhile its further writes of that kind are refused before Flask by :class:`RefusedAgain`,
with the 429 the app drew for the same request (same path, language, cookies the page reads,
htmx headers) and the same number of seconds left, so a flood costs a lookup a request, not a
page (issue 39: 1,000 starts from one address cost 2.1 ms of CPU each, the room's poll p99
×2.6).  A second the sentence has not been drawn for yet goes to the app (at most one page a
second for each such request).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from referee.text import message
from referee.web.bounded import Answered, BoundedCache, answer_cookies
from referee.web.errors import TooMany
from referee.web.logs import logged_path

NEW_GAMES = "30 per minute; 300 per day"
WRITES = "240 per minute"
_STARTS = ("/new", "/again", "/tables")


class _Limits:
    def __init__(self, app: Flask) -> None:
        self.limiter = MovingWindowRateLimiter(storage_from_string(app.config["RATE_LIMIT_STORAGE_URI"]))
        self.new_games: list[RateLimitItem] = parse_many(app.config["RATE_LIMIT_NEW_GAMES"])
        self.writes: list[RateLimitItem] = parse_many(app.config["RATE_LIMIT_WRITES"])
        self.trusted = {a.strip() for a in str(app.config.get("FORWARDED_ALLOW_IPS") or "").split(",") if a.strip()}


SMALL_BODY = 64 * 1024
"""The largest body :class:`RefusedAgain` reads to refuse it again (the app's limit on other paths)."""
LIMITED = "thirteen.limited"
"""The environ key of a request refused over a limit: (kind, client, reset time, seconds said)."""


def client_address() -> str:
    """The client a limit counts: its address, or the one a trusted proxy says it forwarded."""
    limits: _Limits = current_app.extensions["thirteen_limits"]
    return _address(request.environ, limits.trusted)


def _address(environ: dict[str, Any], trusted: set[str]) -> str:
    address = str(environ.get("REMOTE_ADDR") or "-")
    forwarded = str(environ.get("HTTP_X_FORWARDED_FOR") or "")
    if forwarded and ("*" in trusted or address in trusted):
        return forwarded.split(",")[-1].strip() or address
    return address


def _kind(path: str) -> str:
    return "new" if path.endswith(_STARTS) else "write"


def _check() -> None:
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    limits: _Limits = current_app.extensions["thirteen_limits"]
    starts = _kind(request.path) == "new"
    _hit(limits, limits.new_games if starts else limits.writes, "new" if starts else "write", 1)


def count_new_games(count: int) -> None:
    """Count ``count`` games about to be made by one request (an import: each game it makes is a
    game started) against the new-game limit; a 429 over it, before anything is stored.  Nothing
    when the limits are off."""
    limits: _Limits | None = current_app.extensions.get("thirteen_limits")
    if limits is not None and count > 0:
        _hit(limits, limits.new_games, "new", count)


def _hit(limits: _Limits, items: list[RateLimitItem], what: str, cost: int) -> None:
    who = client_address()
    for item in items:
        if not limits.limiter.hit(item, what, who, cost=cost):
            reset, _ = limits.limiter.get_window_stats(item, what, who)
            seconds = max(1, math.ceil(reset - time.time()))
            if cost > item.amount:  # more at once than the limit ever lets through
                seconds = item.get_expiry()
            current_app.logger.warning("rate limit %s reached (%s %s, %d)", item, request.method,
                                       logged_path(), cost)
            if cost == 1:  # over it until the window has room: the same refusal until then
                request.environ[LIMITED] = (what, who, reset, seconds)
            raise TooMany(message("Too many in a short time from this address. Wait {seconds} seconds and send it "
                                  "again.", seconds=seconds), seconds=seconds)


class RefusedAgain:
    """WSGI middleware: a write from a client already over its limit of that kind is answered the
    app's own 429 for the same request again, before Flask (see the module docstring)."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], trusted: set[str]) -> None:
        self.wsgi_app = wsgi_app
        self.trusted = trusted
        self.over: BoundedCache[float] = BoundedCache(1024 * 1024)  # (kind, client) -> reset time
        self.answers: BoundedCache[tuple[int, str, list[tuple[str, str]], bytes]] = BoundedCache(4 * 1024 * 1024)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") not in ("POST", "PUT", "PATCH", "DELETE"):
            return self.wsgi_app(environ, start_response)
        path = str(environ.get("PATH_INFO", ""))
        kind, who = _kind(path), _address(environ, self.trusted)
        key: Hashable = (kind, who, path, str(environ.get("HTTP_ACCEPT_LANGUAGE") or "")[:200],
                         answer_cookies(str(environ.get("HTTP_COOKIE", ""))), str(environ.get("HTTP_ACCEPT") or "")[:200],
                         *(str(environ.get(h) or "") for h in ("HTTP_HX_REQUEST", "HTTP_HX_BOOSTED", "HTTP_HX_TARGET")))
        reset = self.over.get((kind, who))
        length = str(environ.get("CONTENT_LENGTH") or "")
        small = length.isdigit() and int(length) <= SMALL_BODY  # else the app's own answer (a 413, …)
        if reset is not None and reset > time.time() and small:
            kept = self.answers.get(key)
            if kept is not None and kept[0] == max(1, math.ceil(reset - time.time())):
                self._drain(environ)
                start_response(kept[1], list(kept[2]))
                return [kept[3]]
        answered = Answered(self.wsgi_app, environ, start_response)
        limited = environ.get(LIMITED)
        if limited is None or not answered.status.startswith("429"):
            return answered.chunks
        body = answered.body()
        if not answered.sets_cookie():
            _, _, until, seconds = limited
            self.over.put((kind, who), until, 100)
            self.answers.put(key, (seconds, answered.status, list(answered.headers), body), len(body) + 500)
        return [body]

    @staticmethod
    def _drain(environ: dict[str, Any]) -> None:
        """Read the (small) body, so a kept-alive connection stays in step."""
        stream = environ.get("wsgi.input")
        if stream is not None:
            stream.read(int(environ["CONTENT_LENGTH"]))


def init_app(app: Flask) -> None:
    """Install the limits when ``RATE_LIMITS`` is on (config or the environment)."""
    app.config.setdefault("RATE_LIMITS", os.environ.get("RATE_LIMITS", "") in ("1", "true", "on"))
    app.config.setdefault("RATE_LIMIT_STORAGE_URI", os.environ.get("RATE_LIMIT_STORAGE_URI") or "memory://")
    app.config.setdefault("RATE_LIMIT_NEW_GAMES", os.environ.get("RATE_LIMIT_NEW_GAMES") or NEW_GAMES)
    app.config.setdefault("RATE_LIMIT_WRITES", os.environ.get("RATE_LIMIT_WRITES") or WRITES)
    app.config.setdefault("FORWARDED_ALLOW_IPS", os.environ.get("FORWARDED_ALLOW_IPS", ""))
    if not app.config["RATE_LIMITS"]:
        return
    app.extensions["thirteen_limits"] = _Limits(app)
    if str(app.config["RATE_LIMIT_STORAGE_URI"]).startswith("memory://"):
        app.logger.warning(
            "Rate limits are counted in memory: each process counts apart, so with several gunicorn workers "
            "(WEB_CONCURRENCY) or containers a client gets up to that many times each limit. Set "
            "RATE_LIMIT_STORAGE_URI=redis://… to count them once (compose.yaml runs one).")
    app.before_request_funcs.setdefault(None, []).insert(0, _check)  # before any view reads the database
    app.wsgi_app = RefusedAgain(app.wsgi_app, app.extensions["thirteen_limits"].trusted)  # type: ignore[method-assign]
