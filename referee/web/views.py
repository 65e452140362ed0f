"""Shared view helpers and the pages that belong to no single game."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from htmx_flask.requests import HtmxHeaders
from werkzeug.exceptions import HTTPException

from referee.cards import format_cards
from referee.web.checks import read_cards as read_cards  # the pages read card fields as the phone does
from referee.web.database import database_ok
from referee.web.guard import same_site_target
from referee.web.policy import DATABASE_RETRY_SECONDS
from referee.web.words import say as say  # a referee sentence in the reader's language

bp = Blueprint("core", __name__)

def htmx_details() -> HtmxHeaders | None:
    """This request's htmx headers (htmx-flask's ``request.htmx``), or None outside an app
    that installed its request class."""
    details = getattr(request, "htmx", None)
    return details if isinstance(details, HtmxHeaders) else None


def wants_fragment() -> bool:
    """An htmx request that swaps a fragment in (a boosted form or link wants the whole page)."""
    details = htmx_details()
    return details is not None and bool(details) and not details.boosted


def render_page(page: str, fragment: str, status: int = 200, **context: Any) -> Response:
    """Render the full page, or only its fragment for an htmx request.

    Both answers vary on the ``HX-Request`` header, so no cache mixes them up.
    """
    template = fragment if wants_fragment() else page
    response = make_response(render_template(template, **context), status)
    response.vary.add("HX-Request")
    return response


def redirect_to(location: str, code: int = 303) -> Response:
    """A redirect (303 "see other" unless told), typed as the app's own response class, which
    ``flask.redirect`` makes inside an app (``make_response`` hands it back as it is)."""
    return make_response(redirect(location, code))


@bp.app_template_filter("cards")
def cards_filter(cards: Any) -> str:
    return format_cards(cards)


@bp.route("/")
def home() -> Response:
    return render_page("home.html", "home.html")


@bp.route("/vendor/htmx.min.js")
def htmx_js() -> Response:
    """htmx, from the pinned npm package (never a CDN).  Pages link its versioned copy under
    /static/ (compressed, cached for a year); this old address points there."""
    return redirect_to(url_for("static", filename="vendor/htmx.min.js"), 308)


@bp.route("/healthz")
def health() -> tuple[dict[str, str], int, dict[str, str]]:
    """For a load balancer or container healthcheck: 200 when the database answers, else 503
    (with ``Retry-After``, as every 503 of the app)."""

    if database_ok():
        return {"status": "ok", "database": "ok"}, 200, {"Cache-Control": "no-store"}
    return ({"status": "unavailable", "database": "not answering"}, 503,
            {"Retry-After": str(DATABASE_RETRY_SECONDS), "Cache-Control": "no-store"})


@bp.route("/lang/<code>", methods=["GET", "POST"])
def set_language(code: str) -> Response:
    """Switch the page language: remembered on this phone (a cookie), then back to ``next``.

    The switcher posts ``next`` in its body (a share link's token never enters an address, so
    no log keeps it); ``GET /lang/<code>?next=…`` still works for a link kept from before.
    Links carry no language, so a share link opens in each watcher's own language.
    """
    if code not in current_app.config["LANGUAGES"]:
        abort(404)
    response = make_response("", 303)
    response.headers["Location"] = _openable(same_site_target(request.values.get("next") or request.referrer))
    response.set_cookie(LANG_COOKIE, code, max_age=3600 * 24 * 365, samesite="Lax", httponly=True)
    return response


LANG_COOKIE = "lang"


def _openable(target: str) -> str:
    """``target`` (a path of this site) if it is a page that can be opened (GET), else the home
    page: never a form's POST-only address."""
    try:
        current_app.url_map.bind("localhost").match(target.split("?", 1)[0], method="GET")
    except HTTPException:
        return "/"
    return target


def csv_download(rows: Iterable[Sequence[Any]], filename: str) -> Response:
    """``rows`` as a CSV attachment named ``filename`` (CRLF line ends, UTF-8)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)
    response = make_response(buf.getvalue())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
