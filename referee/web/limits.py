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
"""

from __future__ import annotations

import math
import os
import time

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from referee.text import message
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


def client_address() -> str:
    """The client a limit counts: its address, or the one a trusted proxy says it forwarded."""
    limits: _Limits = current_app.extensions["thirteen_limits"]
    address = request.environ.get("REMOTE_ADDR") or "-"
    forwarded = request.headers.get("X-Forwarded-For", "")
    if forwarded and ("*" in limits.trusted or address in limits.trusted):
        return forwarded.split(",")[-1].strip() or address
    return str(address)


def _check() -> None:
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    limits: _Limits = current_app.extensions["thirteen_limits"]
    starts = request.path.endswith(_STARTS)
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
            raise TooMany(message("Too many in a short time from this address. Wait {seconds} seconds and send it "
                                  "again.", seconds=seconds), seconds=seconds)


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
