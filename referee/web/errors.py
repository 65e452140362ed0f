"""The app's answers to a mistake: one for the referee's (:class:`~referee.errors.RefereeError`),
one for an HTTP error, in a page, a fragment or the JSON API alike.

A view (or a hook before it) raises the library's :class:`~referee.errors.RefereeError` for every
mistake a person should read: the rules refuse (422), the input cannot be read
(:class:`~referee.errors.UnreadableInput`, 400), or the web layer's own refusals (a cross-site
write 403, a body too large 413, given as ``status``).  Nothing else is answered as bad input: any
other exception is a bug, a 500 that is logged.

A followed game's write shows the refusal on its own page (:meth:`referee.web.tables.FollowedGame.write`);
everywhere else :func:`refused` answers it: the error page (or its fragment for htmx) with the
sentence in the reader's language, or under ``/api/`` the JSON body

``error``
    the whole sentence in English (``said``: the reason placed, "the play: '1x' is not a card");
``reason_code`` / ``params``
    the referee's sentence (``reason``) as data: its template (the catalogue msgid) and blanks;
``error_localized``
    the whole sentence in the reader's language, when the request names one the app speaks;
``field``
    the input it is about, when one is.

The JSON API has no game to refuse an action against: a mistake the referee read and refused
there (422 on a page) is the request's mistake, 400, as the OpenAPI document says.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from referee.errors import REFUSED, UNREADABLE, RefereeError
from referee.text import Message
from referee.web import i18n
from referee.web.i18n import message_json
from referee.web.views import render_page, say
from referee.web.words import error_title as title  # the phone's error pages say it too
from referee.web.words import plain_refusal


def wants_json() -> bool:
    """Whether this request is the JSON API's."""
    return request.path.startswith("/api/")


def api_status(exc: RefereeError) -> int:
    """The status of ``exc`` in the JSON API: 400 for any mistake in what was sent (the API
    refuses no action as a game stands), else the one the web layer gave it (403, 413)."""
    return UNREADABLE if exc.status == REFUSED else exc.status


def json_fields(exc: RefereeError) -> dict[str, Any]:
    """The JSON API's body for ``exc`` (see the module docstring)."""
    body: dict[str, Any] = {"error": str(exc.said), **message_json(exc.reason)}
    if i18n.reader_locale():
        body["error_localized"] = say(exc.said)
    if exc.field:
        body["field"] = exc.field
    return body


def answer_json(exc: RefereeError) -> Response:
    response = jsonify(json_fields(exc))
    response.status_code = api_status(exc)
    return _with_retry(response, exc)


def _with_retry(response: Response, exc: RefereeError) -> Response:
    if isinstance(exc, TooMany):
        response.headers["Retry-After"] = str(exc.seconds)
    return response


class TooMany(RefereeError):
    """Too many requests from one address (:mod:`referee.web.limits`): a 429 that says when to
    send again, in its sentence and in ``Retry-After``."""

    STATUS = 429

    def __init__(self, reason: Message, *, seconds: int) -> None:
        super().__init__(reason)
        self.seconds = seconds


def refused(exc: RefereeError) -> ResponseReturnValue:
    """The app's answer to a :class:`RefereeError` no view answered itself."""
    if wants_json():
        return answer_json(exc)
    return _with_retry(render_page("errors/error.html", "partials/error.html", status=exc.status, code=exc.status,
                                   title=title(exc.status), detail=say(exc.said)), exc)


def plain_words(exc: HTTPException) -> str | None:
    """Our own sentence for an error that carries only the server library's stock text."""
    if exc.description != type(exc).description:
        return exc.description  # a view's own reason, already in players' words
    return plain_refusal(exc.code) or exc.description


def http_error(exc: HTTPException) -> ResponseReturnValue:
    """An HTTP error (404, 405, a view's ``abort(403, reason)``): the error page, or under
    ``/api/`` ``{"error": …}`` (``error_localized`` for a reader of another language)."""
    if wants_json():
        body: dict[str, str] = {"error": exc.description or exc.name}
        if i18n.reader_locale():
            body["error_localized"] = plain_words(exc) or exc.name
        response = jsonify(body)
        if exc.code is not None:
            response.status_code = exc.code
        return with_error_headers(response, exc)
    response = render_page(
        "errors/error.html", "partials/error.html", status=exc.code or 500,
        code=exc.code, title=title(exc.code) or exc.name, detail=plain_words(exc),
    )
    return with_error_headers(response, exc)


def with_error_headers(response: Response, exc: HTTPException) -> Response:
    """The headers an HTTP error carries besides its body (``Allow`` on a 405, ``Retry-After``…)."""
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response
