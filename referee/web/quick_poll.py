"""The unchanged poll, answered before Flask: most of a room's traffic, at a fraction of the cost.

Every followed page asks ``GET /<game>/g/<token>?since=<version>`` every 3 s; nearly always the
game is still at that version and the answer is an empty ``204``.  Through Flask that answer
costs about 1 ms of CPU (routing, the request hooks, the response hooks, SQLAlchemy's
statement machinery); here, as WSGI middleware in front of the app, it is one query on a pooled
connection (the statement compiled once) and a fixed set of headers.  Anything else (another path, a query that is not
exactly ``since=<ASCII digits>``, a game that moved on, an unknown link, a database that does
not answer) goes to the app untouched, which answers it in full as
:meth:`referee.web.tables.FollowedGame.page` does.

The paths are those of every :class:`~referee.web.tables.FollowedGame`'s table page, read from
the app's own routes when it starts, so a fourth game is covered without a line here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from referee.web import registry
from referee.web.bounded import ADDRESS_SHOWN, ANY_ADDRESS, Answered, BoundedCache, HostLimit, answer_cookies
from referee.web.extensions import db
from referee.web.models import this_hour
from referee.web.news import SHARED_VERSION
from referee.web.store import _VERSION_BY_TOKEN, is_token, touch
from referee.web.tables import KNOWN_VERSION, unchanged
from referee.web.threads import BUSY

Environ = dict[str, Any]
_SINCE = re.compile(r"since=([0-9]{1,10})")
_PLACEHOLDER = "TOKEN"
# What a poll's answer may depend on besides the link, the version, the address (share links,
# see _host), the cookies the app reads and the encoding: the language asked for, fragment or page.
_ANSWER_DEPENDS_ON = ("SCRIPT_NAME", "wsgi.url_scheme", "HTTP_X_FORWARDED_PROTO", "HTTP_ACCEPT_LANGUAGE",
                      "HTTP_HX_REQUEST", "HTTP_HX_BOOSTED", "HTTP_HX_TARGET", "HTTP_HX_TRIGGER")


def _encoding(environ: Environ) -> str:
    """The encoding the shared answer is given in (referee.web.news): brotli, else gzip, else none."""
    accepted = str(environ.get("HTTP_ACCEPT_ENCODING", "")).lower()
    return "br" if "br" in accepted else "gzip" if "gzip" in accepted else ""


class QuickPoll:
    """WSGI middleware: ``204`` for a poll whose game is still at the version it names; the
    answer the app gave the table's first phone for a poll with news, to the others."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], engine: Engine, pages: dict[str, str],
                 headers: list[tuple[str, str]], *, public_url: bool = False, limit: int | None = None) -> None:
        self.wsgi_app = wsgi_app
        self.engine = engine
        self.pages = pages  # path before the token -> the game's kind
        self.headers = headers
        compiled = _VERSION_BY_TOKEN.compile(dialect=engine.dialect)
        self.sql = compiled.string
        self.positions = compiled.positiontup if compiled.positional else None
        # Share links hold PUBLIC_URL when it is set: the address a poll came to changes nothing.
        self.public_url = public_url
        self.answers: BoundedCache[tuple[str, list[tuple[str, str]], bytes]] = (
            BoundedCache(limit) if limit else BoundedCache())
        self.hosts = HostLimit()

    def __call__(self, environ: Environ, start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and not environ.get(BUSY):  # busy: the app says 503
            since = _SINCE.fullmatch(environ.get("QUERY_STRING", ""))
            if since is not None:
                prefix, _, token = environ.get("PATH_INFO", "").rpartition("/")
                kind = self.pages.get(prefix + "/")
                if kind is not None and is_token(token):
                    version = self._version(token, kind)
                    if version == int(since.group(1)):
                        start_response("204 No Content", list(self.headers))
                        return []
                    if version is not None:
                        return self._news(environ, start_response, token, version)
        return self.wsgi_app(environ, start_response)

    def _news(self, environ: Environ, start_response: Callable[..., Any], token: str, version: int) -> Iterable[bytes]:
        """A poll with news: the app's whole answer, kept for the next phone that asks exactly the
        same (every request header the answer may depend on is in the key), so the table's other
        phones get it without Flask.  Only an answer the app marks as shared (a 200 of that very
        version, :mod:`referee.web.news`) and that sets no cookie is kept."""
        host = "" if self.public_url else str(environ.get("HTTP_X_FORWARDED_HOST") or environ.get("HTTP_HOST") or "")
        rest = (answer_cookies(str(environ.get("HTTP_COOKIE", ""))), _encoding(environ),
                *(str(environ.get(name) or "")[:200] for name in _ANSWER_DEPENDS_ON))
        # An answer that shows no address (no share links) is kept once for every address.
        anywhere: Hashable = (token, version, ANY_ADDRESS, *rest)
        key: Hashable = (token, version, host, *rest)
        kept = self.answers.get(anywhere) or self.answers.get(key)
        if kept is not None:
            status, headers, body = kept
            start_response(status, list(headers))
            return [body]
        environ[KNOWN_VERSION] = (token, version)  # the app need not ask again
        answered = Answered(self.wsgi_app, environ, start_response)
        body = answered.body()
        address = bool(environ.get(ADDRESS_SHOWN))
        if (environ.get(SHARED_VERSION) == version and answered.status.startswith("200 ") and not answered.sets_cookie()
                and (not address or self.public_url or self.hosts.allows(token, version, host))):
            size = len(body) + sum(len(k) + len(v) for k, v in answered.headers) + 200
            self.answers.put(key if address else anywhere, (answered.status, list(answered.headers), body), size)
        return [body]

    def _version(self, token: str, kind: str) -> int | None:
        values = {"token": token, "kind": kind}
        params: Any = tuple(values[name] for name in self.positions) if self.positions else values
        try:
            with self.engine.connect() as connection:
                row = connection.exec_driver_sql(self.sql, params).first()
                if row is None:
                    return None
                if row[1] < this_hour():  # watched: noted once an hour (retention keeps it)
                    touch(token, connection)
                return int(row[0])
        except (DBAPIError, PoolTimeout):  # the database does not answer: the app says so (503)
            return None


def init_app(app: Flask) -> None:
    """Put :class:`QuickPoll` in front of ``app`` for the table pages of every followed game.

    The headers are those the app itself gives an unchanged poll (its response hooks run once
    here: no-store, Vary, the content policy…), so both answers are the same."""
    routes = app.url_map.bind("localhost")
    pages = {}
    for game in (followed for entry in registry.entries(app) for followed in entry.followed):
        if game.endpoint in app.view_functions:
            path = routes.build(game.endpoint, {"token": _PLACEHOLDER})
            pages[path.removesuffix(_PLACEHOLDER)] = game.kind
    if not pages:
        return
    first = next(iter(pages))
    with app.test_request_context(f"{first}{_PLACEHOLDER}?since=0", headers={"HX-Request": "true"}):
        answer = app.process_response(unchanged())
        headers = [(k, v) for k, v in answer.headers.items() if k.lower() != "set-cookie"]
    with app.app_context():
        engine = db.engine
    app.wsgi_app = QuickPoll(  # type: ignore[method-assign]  # Flask's way to add WSGI middleware
        app.wsgi_app, engine, pages, headers, public_url=bool(app.config.get("PUBLIC_URL")),
        limit=app.config.get("POLL_CACHE_BYTES"))
