"""No token in any log line: a request's path is logged by its route, tokens cut by their place.

**By where it stands.**  :class:`RoutedPaths` (WSGI middleware, outermost) matches each request's
path against the app's own routes once and keeps, in ``environ[LOGGED_PATH]``, the path every log
line shows (:func:`routed_path`): each URL-rule variable that is not a number, a static file's
name or a language code (a share link's token, a table's token, any variable a route adds) is
replaced by ``…`` and 4 hex digits of its hash, so two games are told apart in a log and not
one character of a token is in it, whatever the token's length or look; a path no route takes
keeps its first segment only.  A query keeps its numbers only.  The LAN server's request log,
gunicorn's access log and the app's own lines (:func:`logged_path`) all use it.

**By its look**, as a second net for text that is no request path (an exception's message, a
traceback): share-link tokens and write ids are cut to their first 4 characters.

A keeper link's token is the keeper's key to a game, and a form's starting id answers with the
keeper link when it is sent again: neither may be read in a log, whatever the route that carried
it, whichever server wrote the line (waitress, gunicorn, the app, SQLAlchemy's exceptions).

:func:`cut_tokens` finds them by their shape: a run of 20 to 64 URL-safe characters holding a
digit (tokens and ids are random: nearly every one has one), or of exactly 32 (every token and
id the app makes is 32 long).  Names in a traceback (``_handle_dbapi_exception``) have neither.
:func:`install` makes every log record of the process pass through it, the traceback too.
"""

from __future__ import annotations

import hashlib
import logging
import re
import traceback
from collections.abc import Callable, Iterable
from typing import Any

from flask import request

_RUN = re.compile(r"(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{4})([A-Za-z0-9_-]{16,60})(?![A-Za-z0-9_-])")
_DIGIT = re.compile(r"[0-9]")
KEPT = 4
"""Characters of a token a log line keeps: enough to tell two games apart, not to open one."""


def _cut(match: re.Match[str]) -> str:
    whole = match.group(0)
    if len(whole) == 32 or _DIGIT.search(whole):
        return whole[:KEPT] + "…"
    return whole


def cut_tokens(text: str) -> str:
    """``text`` with every token-like run cut to its first 4 characters.

    >>> cut_tokens("POST /game/sheet/score/Ql1JEuxAn-XGUUsQh38kcDtGgEQgfFm2/0 303")
    'POST /game/sheet/score/Ql1J…/0 303'
    >>> cut_tokens("write lq3x9a0b1c2d3e4f5g6h7i8j9k0l1m; in _handle_dbapi_exception_noconnection")
    'write lq3x…; in _handle_dbapi_exception_noconnection'
    """
    return _RUN.sub(_cut, text)


def _cutting_factory(make: Any) -> Any:
    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record: logging.LogRecord = make(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: leave it for the handler to report
            return record
        cut = cut_tokens(message)
        if cut != message:
            record.msg, record.args = cut, ()
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = cut_tokens("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
        if record.stack_info:
            record.stack_info = cut_tokens(record.stack_info)
        return record

    factory.cuts_tokens = True  # type: ignore[attr-defined]  # marks it installed
    return factory


def install() -> None:
    """Cut tokens in every log record made from now on in this process (once, however often called)."""
    current = logging.getLogRecordFactory()
    if not getattr(current, "cuts_tokens", False):
        logging.setLogRecordFactory(_cutting_factory(current))


_TOKEN_IN_PATH = re.compile(r"(/g/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]+")


def shown_path(path: str) -> str:
    """A request path fit for a log: a share-link token is cut to its first 4 characters.

    >>> shown_path("/game/g/AbCdEfGhIjKlMnOpQrStUvWxYz012345/act")
    '/game/g/AbCd…/act'
    >>> shown_path("/game/sheet/score/Ql1JEuxAn-XGUUsQh38kcDtGgEQgfFm2/0")
    '/game/sheet/score/Ql1J…/0'
    """
    return cut_tokens(_TOKEN_IN_PATH.sub(r"\1\2…", path))


LOGGED_PATH = "thirteen.logged_path"
"""The environ key of the path a request's log lines show (:class:`RoutedPaths`)."""
KEPT_VARIABLES = frozenset({"filename", "code"})
"""URL-rule variables logged as they are: a static file's name, a language code."""
_VARIABLE = re.compile(r"<(?:[^>:]+:)?(\w+)>")


def tag(value: str) -> str:
    """What a log shows of a secret route variable: 4 hex digits of its hash, none of its characters.

    >>> tag("Ql1JEuxAn-XGUUsQh38kcDtGgEQgfFm2")
    '…deb3'
    """
    return "…" + hashlib.sha256(value.encode()).hexdigest()[:4]


def routed_path(path: str, match: Callable[[str], tuple[Any, dict[str, Any]] | None]) -> str:
    """``path`` as a log shows it: ``match(path)`` gives the route's rule and its variables (or
    ``None``: no route takes it, and only the first segment is kept).

    >>> from werkzeug.routing import Map, Rule
    >>> rules = Map([Rule("/cards/g/<token>/round/<int:number>"), Rule("/lang/<code>")]).bind("localhost")
    >>> def match(path):
    ...     try:
    ...         return rules.match(path, return_rule=True)
    ...     except Exception:
    ...         return None
    >>> routed_path("/cards/g/a/round/3", match), routed_path("/lang/vi", match)
    ('/cards/g/…ca97/round/3', '/lang/vi')
    >>> routed_path("/cards/scores/score/shortTokA/0", match), routed_path("/", match)
    ('/cards/…', '/')
    """
    found = match(path)
    if found is None:
        first, _, rest = path.lstrip("/").partition("/")
        return f"/{first}/…" if rest else f"/{first}"
    rule, values = found

    def shown(variable: re.Match[str]) -> str:
        name = variable.group(1)
        value = values.get(name, "")
        if isinstance(value, int) or name in KEPT_VARIABLES:
            return str(value)
        return tag(str(value))

    return _VARIABLE.sub(shown, str(rule.rule))


def logged_query(query: str) -> str:
    """A query string as a log shows it: its names, and its values only when they are numbers.

    >>> logged_query("since=12"), logged_query("next=%2Fgame%2Fg%2FmeWmpUBiMFKYcdPCUk_NQrydpf&x=1")
    ('since=12', 'next=…&x=1')
    """
    shown = []
    for pair in query.split("&"):
        name, equals, value = pair.partition("=")
        name = name if re.fullmatch(r"[A-Za-z_]{1,20}", name) else "…"
        shown.append(name + equals + (value if re.fullmatch(r"[0-9]{1,10}", value) else "…" if value else ""))
    return "&".join(shown)


class RoutedPaths:
    """WSGI middleware, outermost: the path every log line of this request shows, from the app's
    routes (:func:`routed_path`), in ``environ[LOGGED_PATH]``."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], url_map: Any) -> None:
        self.wsgi_app = wsgi_app
        self.url_map = url_map

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        environ[LOGGED_PATH] = self.shown(str(environ.get("PATH_INFO", "")), str(environ.get("REQUEST_METHOD", "GET")),
                                          str(environ.get("QUERY_STRING", "")))
        return self.wsgi_app(environ, start_response)

    def shown(self, path: str, method: str = "GET", query: str = "") -> str:
        adapter = self.url_map.bind("localhost")

        def match(candidate: str) -> tuple[Any, dict[str, Any]] | None:
            for asked in (method, "GET", "POST"):
                try:
                    return adapter.match(candidate, method=asked, return_rule=True)  # type: ignore[no-any-return]
                except Exception:  # NotFound, MethodNotAllowed, a redirect: tried otherwise, or no route
                    continue
            return None

        shown = routed_path(path, match)
        return shown + (f"?{logged_query(query)[:60]}" if query else "")


def logged_path() -> str:
    """The path the log lines of the request being answered show (Flask's request)."""
    kept = request.environ.get(LOGGED_PATH)
    if isinstance(kept, str):
        return kept
    path = str(request.environ.get("PATH_INFO", ""))
    return routed_path(path, lambda _: (request.url_rule, request.view_args or {}) if request.url_rule else None)
