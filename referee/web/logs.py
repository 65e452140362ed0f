"""No token in any log line: share-link tokens and write ids are cut to their first 4 characters.

A keeper link's token is the keeper's key to a game, and a form's starting id answers with the
keeper link when it is sent again: neither may be read in a log, whatever the route that carried
it, whichever server wrote the line (waitress, gunicorn, the app, SQLAlchemy's exceptions).

:func:`cut_tokens` finds them by their shape: a run of 20 to 64 URL-safe characters holding a
digit (tokens and ids are random: nearly every one has one), or of exactly 32 (every token and
id the app makes is 32 long).  Names in a traceback (``_handle_dbapi_exception``) have neither.
:func:`install` makes every log record of the process pass through it, the traceback too.
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any
from urllib.parse import unquote_plus

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
_LONG_TOKEN = re.compile(r"([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{16,}")


def shown_query(query: str) -> str:
    """A query string fit for a log: decoded, with share-link tokens cut as in a path, and any
    other run of 20 or more token characters (a link's token anywhere) cut to its first 4.

    >>> shown_query("next=%2Fgame%2Fg%2FmeWmpUBiMFKYcdPCUk_NQrydpf&x=1")
    'next=/game/g/meWm…&x=1'
    >>> shown_query("link=http://192.168.1.20:8000/game/g/Ql1JEuxAn-XGUUsQh38kcDtGgEQgfFm2"), shown_query("since=12")
    ('link=http://192.168.1.20:8000/game/g/Ql1J…', 'since=12')
    """
    return _LONG_TOKEN.sub(r"\1…", shown_path(unquote_plus(query)))


def shown_path(path: str) -> str:
    """A request path fit for a log: a share-link token is cut to its first 4 characters.

    >>> shown_path("/game/g/AbCdEfGhIjKlMnOpQrStUvWxYz012345/act")
    '/game/g/AbCd…/act'
    >>> shown_path("/game/sheet/score/Ql1JEuxAn-XGUUsQh38kcDtGgEQgfFm2/0")
    '/game/sheet/score/Ql1J…/0'
    """
    return cut_tokens(_TOKEN_IN_PATH.sub(r"\1\2…", path))
