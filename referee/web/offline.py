"""What makes Thirteen an installable app that opens without a network.

* ``/manifest.webmanifest``: name, colours and the PNG icons (192, 512, maskable 512) that
  :mod:`referee.web.assets` renders from ``static/icon.svg``.
* ``/sw.js``: the service worker (Workbox, served from this app).  It precaches the app shell
  (every static file of this release), keeps each page the phone opens so it opens again
  offline (marked with the time it was fetched), and drops the caches of older releases.
* ``/offline``: the page shown offline for a page this phone never opened.

Service workers run only on a secure origin (``https://``, or ``localhost``/``127.0.0.1``):
on a plain ``http://192.168.…`` address the phone still keeps what was typed (``app.js``),
but a page cannot be reopened without the network.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, render_template, url_for
from flask_babel import gettext

from referee.web import assets, engine, registry
from referee.web.views import render_page

bp = Blueprint("offline", __name__)


@bp.route("/manifest.webmanifest")
def manifest() -> Response:
    icons = [
        {"src": url_for("static", filename=name), "sizes": f"{size}x{size}", "type": "image/png",
         "purpose": "maskable" if maskable else "any"}
        for name, size, maskable in assets.ICONS
    ]
    icons.append({"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"})
    body = {
        "name": gettext("Thirteen — card-table referee"),
        "short_name": gettext("Thirteen"),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#0f5132",
        "theme_color": "#0f5132",
        "icons": icons,
    }
    response = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


# What every page loads: precached when the worker installs (kept small: the worker takes over,
# and the phone's own scripts come, once it has installed).
SHELL = ("css/app.css", "vendor/htmx.min.js", "vendor/htmx-ext-sse.min.js", "js/live.js", "js/picker.js", "js/app.js", "js/phone-games.js",
         "js/offline-start.js", "js/home-games.js", "icon.svg")


def shell() -> list[str]:
    """The versioned URLs of the app shell of this release."""
    return [url_for("static", filename=name) for name in SHELL]


def other_files() -> list[str]:
    """Every other stylesheet and script of this release (a game's own, which the pages of its
    forms need offline): kept in the background once a page has settled."""
    static = Path(current_app.static_folder or "static")
    names = sorted(f"{folder}/{p.name}" for folder in ("css", "js") for p in (static / folder).glob(f"*.{folder}"))
    return [url_for("static", filename=name) for name in names if name not in SHELL]


def start_pages() -> list[str]:
    """The pages the service worker keeps once a page has settled: the home page and, for each game,
    its home, its links and its new-game forms (so that every game can be started offline, and
    its check screen opened, on a phone that has only ever opened one page)."""
    pages = [url_for("core.home")]
    for entry in registry.entries():
        for endpoint in (entry.home, *(link.endpoint for link in entry.links), *entry.forms):
            url = url_for(endpoint)
            if url not in pages:
                pages.append(url)
    return pages


@bp.route("/sw.js")
def service_worker() -> Response:
    built = assets.current()
    if not built.has_workbox:  # node_modules missing: no worker rather than a broken one
        abort(404, "The service worker needs Workbox: run npm ci (scripts/serve does).")
    body = render_template(
        "sw.js",
        release=built.release,
        workbox=[url_for("static", filename=f"vendor/workbox/workbox-{m}.prod.js") for m in assets.WORKBOX_MODULES],
        shell=shell(),
        offline_page=url_for("offline.offline_page"),
        start_pages=start_pages(),
        other_files=other_files(),
        engine_files=engine.file_urls(),
    )
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # the browser checks for a new release on every visit
    return response


@bp.route("/offline")
def offline_page() -> Response:
    return render_page("offline.html", "offline.html")
