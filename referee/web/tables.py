"""What every followed game shares on the web: share links, roles, versions, live polling,
and the house rules a phone remembers.

A game page lives at ``/<game>/g/<token>``; the token says whether this phone is a
*keeper* (may enter and correct) or a *watcher* (reads only).  Every form that
writes carries the ``version`` the phone saw; :func:`seen_version` reads it and
``store.append_event`` refuses a stale one.  Watchers poll with ``?since=<version>``
and get an empty ``204`` while nothing changed, which costs one indexed query.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Response, abort, request
from flask_babel import gettext

from referee.web.guard import whole_number
from referee.web.store import Access, find_by_token, game_version

REMEMBER_SECONDS = 3600 * 24 * 365


def open_game(token: str, kind: str) -> Access:
    """The game behind a share link, or a 404 page."""
    access = find_by_token(token, kind)
    if access is None:
        abort(404, gettext("No game has this link. Check that it was copied whole."))
    return access


def require_keeper(access: Access) -> None:
    """Refuse a write through a watch link (403, with the reason)."""
    if not access.can_write:
        abort(403, gettext("This is a watch link: it shows the game but cannot change it."))


def seen_version(form: Mapping[str, Any] | None = None) -> int:
    """The game version the phone saw when it sent the form (400 if missing or not a version)."""
    raw = (form if form is not None else request.form).get("version", "")
    version = whole_number(raw)
    if version is None:
        abort(400, gettext("The form is missing the game version; reload the page and try again."))
    return version


def poll_unchanged(token: str, kind: str) -> Response | None:
    """For a poll (``?since=N``): an empty 204 when the game is still at version N.

    Most of a room's traffic is this answer, so it costs one indexed lookup of one column:
    no game object, no players, no events, no template.  Anything else (no ``since``, a
    changed game, an unknown link) is left to the page, which answers it in full.
    """
    since = whole_number(request.args.get("since"))
    if since is None or since != game_version(token, kind):
        return None
    response = Response(status=204)
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("HX-Request")
    return response


def unchanged_since(access: Access) -> Response | None:
    """:func:`poll_unchanged` for a game already loaded."""
    return poll_unchanged(access.game.watch_token, access.game.kind)


def remembered_rules(kind: str) -> dict[str, Any]:
    """The house-rule switches this phone last used for ``kind`` (from a cookie)."""
    raw = request.cookies.get(f"rules_{kind}")
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def remember_rules(response: Response, kind: str, rules: Mapping[str, Any]) -> Response:
    """Keep the switches on this phone for next time."""
    response.set_cookie(
        f"rules_{kind}", json.dumps(dict(rules), separators=(",", ":")), max_age=REMEMBER_SECONDS, samesite="Lax"
    )
    return response


def switches_from_form(form: Mapping[str, Any], ids: list[str]) -> dict[str, Any]:
    """The switches a form sent: a checkbox present is on; absent is off; others as given."""
    values: dict[str, Any] = {}
    for key in ids:
        if f"{key}__present" in form or key in form:
            values[key] = form.get(key, "off")
    return values
