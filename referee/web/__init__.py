"""The web layer: the only part of ``referee`` that knows Flask.

``init_app`` binds the extensions, registers the games of the registry
(:mod:`referee.web.registry`: one entry per package under ``referee/web/games/``) and the JSON
API, and installs the error pages.
"""

from __future__ import annotations

from flask import Flask, current_app, jsonify, request
from flask_babel import get_locale, gettext
from werkzeug.exceptions import HTTPException

from referee.web import guard, i18n
from referee.web.database import MIGRATIONS, configure_engine, upgrade_database
from referee.web.extensions import babel, compress, db, htmx, migrate


def init_app(app: Flask) -> None:
    app.config.setdefault("PUBLIC_URL", None)
    app.config.setdefault("LAN_SHARING", False)  # the LAN server turns it on (referee.web.sharing)
    db.init_app(app)
    with app.app_context():
        configure_engine(db.engine)
    migrate.init_app(app, db, directory=MIGRATIONS)
    babel.init_app(app, locale_selector=i18n.select_locale)
    i18n.init_app(app)
    htmx.init_app(app)
    app.jinja_env.globals["get_locale"] = get_locale

    from referee.web import api, assets, engine, names, offline, registry, sharing, tables, views

    app.jinja_env.globals["POLL_SECONDS"] = tables.POLL_SECONDS
    app.jinja_env.globals["short_names"] = names.short_names

    # Pages, fragments and JSON compressed (brotli, else gzip); static files are served
    # precompressed under versioned names by WhiteNoise (see referee.web.assets).
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIN_SIZE", 300)
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/plain", "text/javascript", "application/javascript",
        "application/json", "application/manifest+json", "image/svg+xml", "text/csv",
    ])
    compress.init_app(app)
    assets.init_app(app)
    app.context_processor(_page_time)

    app.register_blueprint(views.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(engine.bp)
    app.register_blueprint(sharing.bp)
    # Each game's package describes itself once (its registry entry): its blueprints, links,
    # followed games, card order, switches and API paths.  Its API routes are on api.bp.
    registry.init_app(app)
    app.register_blueprint(api.bp)

    guard.init_app(app)
    app.after_request(_security_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _server_error)

    if app.config.get("AUTO_MIGRATE", True):
        # Bring the database (SQLite or PostgreSQL) up to the latest migration on start, under
        # a lock so that processes starting at once never race (see referee.web.database).
        upgrade_database(app)


# Everything comes from this server (the table may be offline): the policy enforces it in the
# browser too. Share links carry their token in the URL, so no Referer ever leaves the page.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    # 'wasm-unsafe-eval': the phone's engine compiles WebAssembly (Pyodide); no JavaScript eval.
    "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


def _page_time() -> dict[str, str]:
    """When the page was made (UTC): a copy kept for offline use says how old it is."""
    from datetime import UTC, datetime

    return {"rendered_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


def _security_headers(response):  # type: ignore[no-untyped-def]
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _plain_words(exc: HTTPException) -> str | None:
    """Our own sentence for an error that carries only the server library's stock text."""
    if exc.description != type(exc).description:
        return exc.description  # a view's own reason, already in players' words
    return {
        400: gettext("The referee could not read what was sent. Check the form and send it again."),
        403: gettext("This link may not do that."),
        404: gettext("There is nothing at this address. If it came from a share link, it may have been cut short."),
        405: gettext("This page cannot be used that way; go back and use its buttons."),
        413: gettext("That was too much to send at once."),
    }.get(exc.code or 0, exc.description)


def _title(exc: HTTPException) -> str:
    """The error page's heading in the reader's language (the server library's name otherwise)."""
    return {
        400: gettext("Bad request"),
        403: gettext("Not allowed"),
        404: gettext("Not found"),
        405: gettext("Not this way"),
        409: gettext("Changed meanwhile"),
        413: gettext("Too much at once"),
        422: gettext("Cannot be done"),
        429: gettext("Too many requests"),
    }.get(exc.code or 0) or exc.name


def _http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
    if _wants_json():
        body: dict[str, str] = {"error": getattr(exc, "english", None) or exc.description or exc.name}
        if i18n.reader_locale():
            body["error_localized"] = _plain_words(exc) or exc.name
        if getattr(exc, "field", None):
            body["field"] = exc.field  # type: ignore[attr-defined]
        return with_error_headers(jsonify(body), exc), exc.code
    from referee.web.views import render_page

    response = render_page(
        "errors/error.html", "partials/error.html", status=exc.code or 500,
        code=exc.code, title=_title(exc), detail=_plain_words(exc),
    )
    return with_error_headers(response, exc)


def with_error_headers(response, exc: HTTPException):  # type: ignore[no-untyped-def]
    """The headers an HTTP error carries besides its body (``Allow`` on a 405, ``Retry-After``…)."""
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def _server_error(exc: Exception):  # type: ignore[no-untyped-def]
    current_app.logger.exception("unhandled error", exc_info=exc)
    db.session.rollback()
    if _wants_json():
        body = {"error": "the referee hit an internal error; nothing was saved"}
        if i18n.reader_locale():
            body["error_localized"] = gettext("The referee hit an internal error. Nothing was saved; try again.")
        return jsonify(body), 500
    from referee.web.views import render_page

    try:
        return render_page(
            "errors/error.html", "partials/error.html", status=500, code=500,
            title=gettext("Something went wrong"),
            detail=gettext("The referee hit an internal error. Nothing was saved; try again."),
        )
    except Exception:  # the error page itself failed: say it plainly
        return "The referee hit an internal error. Nothing was saved; try again.", 500
