"""A poll that carries news is rendered once per game version and shared by the whole table.

When a keeper saves, every watching phone of that table asks for the same fragment within
the next 3 s: twenty phones, twenty identical renders of the sheet.  The first render is kept
here, keyed by everything the answer depends on: the share link (keeper or watcher), the game
version, the address the page was opened at (the share links), the language and the kind of
request (fragment or whole page).  A version never changes once written, so an entry can never
be stale: it only stops being asked for.  This is a cache, not state: every worker process has
its own, and a worker that never saw a version renders it from the database like any other.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Response, request
from flask_babel import get_locale

from referee.web.store import Access

ENTRIES = 512
"""Answers kept at most (a room of 50 tables needs 2 per table: keeper and watch link)."""

_answers: OrderedDict[Hashable, tuple[bytes, list[tuple[str, str]]]] = OrderedDict()
_lock = threading.Lock()


def _key(access: Access) -> Hashable:
    game = access.game
    token = game.keeper_token if access.can_write else game.watch_token
    htmx = getattr(request, "htmx", None)
    return (token, game.version, request.host, request.script_root, str(get_locale()),
            bool(htmx), bool(htmx and htmx.boosted))


def shared_answer(access: Access, render: Callable[[], Response]) -> Response:
    """The poll's answer from the cache, or rendered now (and kept if it is a plain 200)."""
    key = _key(access)
    with _lock:
        kept = _answers.get(key)
        if kept is not None:
            _answers.move_to_end(key)
    if kept is not None:
        body, headers = kept
        return Response(body, status=200, headers=headers)
    response = render()
    if response.status_code == 200 and not response.is_streamed:
        with _lock:
            _answers[key] = (response.get_data(), list(response.headers.items()))
            while len(_answers) > ENTRIES:
                _answers.popitem(last=False)
    return response


def forget_all() -> None:
    """Empty the cache (tests)."""
    with _lock:
        _answers.clear()
