"""Request paths and queries fit for a log: a share link's token is cut to its first 4 characters
(the request log of ``scripts/serve`` and gunicorn's, and the app's own warnings)."""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

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
    """
    return _TOKEN_IN_PATH.sub(r"\1\2…", path)
