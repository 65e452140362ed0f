"""What every request passes before a view sees it: the input a player never types, refused
with a reason (4xx), never a 500.

* :func:`whole_number` is the one way the web layer reads a number from a form or a URL:
  ASCII digits only (``"²"`` and ``"٣"`` are not numbers here), bounded in length and value.
* Bodies larger than ``MAX_CONTENT_LENGTH`` are refused from their ``Content-Length``, before
  a byte of them is read (413).
* Control characters (NUL, ESC, …) in a query or form field are refused (400, naming the
  field): no database stores them and no player types them.
* A write from another site is refused (403): browsers say where a request comes from in
  ``Sec-Fetch-Site`` and ``Origin``; a request with neither (a script, ``curl``) passes.
* JSON nested deeper than :data:`MAX_JSON_DEPTH` is refused before it is parsed (400).
* ``<int:…>`` in a route takes ASCII digits only (:class:`AsciiIntegerConverter`).
* Cookies set over https are ``Secure`` (:func:`mark_secure_cookies`).
"""

from __future__ import annotations

import io
import re
from itertools import accumulate
from typing import Any, NoReturn
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request
from werkzeug.routing import IntegerConverter, Map

from referee.errors import RefereeError
from referee.text import Message, message
from referee.web.numbers import MAX_NUMBER as MAX_NUMBER  # the views read them from here
from referee.web.numbers import whole_number as whole_number

#: JSON objects and arrays nested deeper than this are refused; the API's bodies nest 2 deep.
MAX_JSON_DEPTH = 32

# C0 controls and DEL, except tab, line feed and carriage return (a textarea may send those).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CROSS_SITE = message("This came from another website, so the referee did not accept it. "
                     "Open the game's own page and send it from there.")


def has_control_character(text: str) -> bool:
    """Whether ``text`` holds a control character other than tab and line breaks.

    >>> has_control_character("Anh\\x00"), has_control_character("two\\nlines"), has_control_character("Bảo")
    (True, False, False)
    """
    return _CONTROL.search(text) is not None


def json_depth(body: bytes | str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside strings do not count).

    >>> json_depth('{"a": [1, {"b": "[[["}]}'), json_depth("[]"), json_depth("3")
    (3, 1, 0)
    """
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    text = re.sub(r'"(?:[^"\\]|\\.)*"', "", text)
    steps = (1 if c in "[{" else -1 for c in text if c in "[]{}")
    return max(accumulate(steps, initial=0))


def same_site_target(target: str | None, fallback: str = "/") -> str:
    """``target`` if it is a path on this site, else ``fallback`` (no open redirect).

    >>> same_site_target("/game/"), same_site_target("//evil.example/"), same_site_target("https://evil.example/x")
    ('/game/', '/', '/')
    """
    if not target:
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        if parts.scheme not in ("http", "https") or not _is_this_host(parts.netloc):
            return fallback
    path = parts.path or "/"
    if not path.startswith("/") or path.startswith("//") or "\\" in path or has_control_character(path):
        return fallback
    return path + (f"?{parts.query}" if parts.query else "")


def _is_this_host(netloc: str) -> bool:
    """Whether ``netloc`` names this site: the host the request came to, or ``PUBLIC_URL``'s."""
    try:
        hosts = {request.host.lower(), urlsplit(current_app.config.get("PUBLIC_URL") or "").netloc.lower()}
    except RuntimeError:  # outside a request nothing is this host
        return False
    return bool(netloc) and netloc.lower() in hosts


# --------------------------------------------------------------------------- the hooks


class ChunkedBodyLimit:
    """WSGI middleware for a body sent without a ``Content-Length`` (``Transfer-Encoding:
    chunked``): it is read here up to the app's limit, one byte more telling it is too large
    (then answered 413 by :func:`refuse_large_body`; gunicorn would otherwise hand the app a
    body cut at the limit, fields past it silently dropped).  A body within the limit is given
    to the app with its length, as any other."""

    def __init__(self, wsgi_app: Any, app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if limit is not None:
            limit = LARGER_BODIES.get(environ.get("PATH_INFO", ""), limit)
        if (limit is not None and not environ.get("CONTENT_LENGTH")
                and "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()):
            body = environ["wsgi.input"].read(limit + 1)
            if len(body) > limit:
                environ[TOO_LARGE] = True
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = False
        return self.wsgi_app(environ, start_response)


TOO_LARGE = "thirteen.body_too_large"

LARGER_BODIES: dict[str, int] = {}
"""The few paths that take more than ``MAX_CONTENT_LENGTH`` (a file uploaded to import), with
their own limit in bytes; a package adds its path when it is imported."""


def refuse(status: int, said: Message, *, field: str | None = None) -> NoReturn:
    """Refuse the request before any view sees it: the one refusal family (a
    :class:`~referee.errors.RefereeError` with its HTTP ``status`` and the ``field`` at fault),
    answered as every other (:func:`referee.web.errors.refused`)."""
    raise RefereeError(said, field=field, status=status)


def refuse_large_body() -> None:
    """413 from the ``Content-Length`` header alone (nothing of the body is read), or for a
    chunked body that went past the limit (:class:`ChunkedBodyLimit`)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and request.path in LARGER_BODIES:
        limit = LARGER_BODIES[request.path]
        request.max_content_length = limit  # the form parser's own limit, for this request only
    length = request.content_length
    if limit is not None and (request.environ.get(TOO_LARGE) or (length is not None and length > limit)):
        refuse(413, message("That was too much to send at once (at most {kb} KB).", kb=limit // 1024))


def refuse_cross_site_write() -> None:
    """403 for a write a browser says came from another site; same-origin and scripts pass."""
    if request.method not in _WRITES:
        return
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        if fetch_site in ("same-origin", "none"):
            return
        refuse(403, CROSS_SITE)
    origin = request.headers.get("Origin")
    if origin is None:
        return
    parts = urlsplit(origin)
    if origin == "null" or not _is_this_host(parts.netloc):
        refuse(403, CROSS_SITE)


def refuse_control_characters() -> None:
    """400 naming the first query or form field that holds a control character (NUL, …)."""
    fields = [request.args]
    if request.method in _WRITES and request.mimetype in ("application/x-www-form-urlencoded",
                                                           "multipart/form-data"):
        fields.append(request.form)
    for multi in fields:
        for key, value in multi.items(multi=True):
            if has_control_character(key) or has_control_character(value):
                refuse(400, message("The field “{field}” holds a control character (such as NUL) "
                                    "that nobody can type; remove it and send again.", field=_shown(key)),
                       field=key if not has_control_character(key) else None)


def refuse_deep_json() -> None:
    """400 for a JSON body nested deeper than any endpoint reads (a parser would recurse)."""
    if request.method in _WRITES and request.is_json:
        if json_depth(request.get_data(cache=True)) > MAX_JSON_DEPTH:
            refuse(400, message("the JSON body nests deeper than {most} levels; no endpoint takes that",
                                most=MAX_JSON_DEPTH))


def _shown(key: str) -> str:
    return _CONTROL.sub("?", key)[:40]


class AsciiIntegerConverter(IntegerConverter):
    """``<int:…>`` in every route: ASCII digits only (Werkzeug's own takes any Unicode digit, so
    ``/round/１`` and ``/round/𝟏`` would open round 1), at most ten, within :data:`MAX_NUMBER`."""

    regex = r"[0-9]{1,10}"

    def __init__(self, url_map: Map, fixed_digits: int = 0, min: int | None = None,  # noqa: A002
                 max: int | None = MAX_NUMBER, signed: bool = False) -> None:  # noqa: A002
        super().__init__(url_map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)
        self.regex = r"[0-9]{1,10}"


def mark_secure_cookies(response: Response) -> Response:
    """Every cookie set on a request that came over https (directly, or through a proxy the
    server trusts with ``X-Forwarded-Proto``) is ``Secure``: never sent back over plain http."""
    if request.is_secure:
        cookies = response.headers.getlist("Set-Cookie")
        if cookies:
            response.headers.setlist("Set-Cookie", [
                c if "; secure" in c.lower() else f"{c}; Secure" for c in cookies])
    return response


def init_app(app: Flask) -> None:
    app.wsgi_app = ChunkedBodyLimit(app.wsgi_app, app)  # type: ignore[method-assign]  # Flask's way to add WSGI middleware
    app.after_request(mark_secure_cookies)
    for hook in (refuse_large_body, refuse_cross_site_write, refuse_control_characters, refuse_deep_json):
        app.before_request(hook)
