"""The web layer: the only part of ``referee`` that knows Flask.

``init_app`` binds the extensions, registers the games of the registry
(:mod:`referee.web.registry`: one entry per package under ``referee/web/games/``) and the JSON
API, and installs the error pages.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

from flask import Flask, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import get_locale, gettext
from jinja2.bccache import Bucket, FileSystemBytecodeCache
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import ObjectDeletedError
from werkzeug.exceptions import HTTPException

from referee.errors import RefereeError
from referee.web import (
    api,
    api_schema,
    assets,
    engine,
    errors,
    groups,
    guard,
    i18n,
    limits,
    live,
    logs,
    names,
    offline,
    quick_poll,
    registry,
    retention,
    settle_up,
    sharing,
    store,
    tables,
    threads,
    views,
)
from referee.web.database import (
    MIGRATIONS,
    close_session,
    configure_engine,
    hold_objects,
    saved_state,
    upgrade_database,
    watch_commits,
)
from referee.web.extensions import babel, compress, db, htmx, migrate
from referee.web.policy import CONTENT_SECURITY_POLICY, DATABASE_RETRY_SECONDS, JS_ON


class KeptTemplates(FileSystemBytecodeCache):
    """Jinja's compiled templates kept in a folder (each written whole, then renamed into place,
    so processes share it); a folder that cannot be read or written only means compiling again."""

    @classmethod
    def at(cls, folder: str) -> KeptTemplates | None:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            return None
        return cls(folder)

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError):
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass  # a read-only folder: the template stays compiled in this process


def init_app(app: Flask) -> None:
    app.url_map.converters["int"] = guard.AsciiIntegerConverter  # before any route is added
    logs.install()  # no token in any log line of the process (referee.web.logs)
    app.config.setdefault("PUBLIC_URL", None)
    app.config.setdefault("LAN_SHARING", False)  # the LAN server turns it on (referee.web.sharing)
    db.init_app(app)
    with app.app_context():
        configure_engine(db.engine)
    close_session(app)  # a connection that dropped is thrown away quietly, never a traceback
    watch_commits()  # a 503 says whether this request's write was stored (database.saved_state)
    hold_objects()  # no ORM object dies while SQLAlchemy writes to its state (CPython 3.11's crash)
    migrate.init_app(app, db, directory=MIGRATIONS)
    babel.init_app(app, locale_selector=i18n.select_locale)
    i18n.init_app(app)
    htmx.init_app(app)
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.globals["JS_ON"] = JS_ON

    app.jinja_env.globals["POLL_SECONDS"] = tables.POLL_SECONDS
    app.jinja_env.globals["SENDING"] = SENDING
    app.jinja_env.globals["new_write_id"] = tables.new_starting_id
    # The house rules this phone keeps (its HttpOnly cookie), for the phone's engine to read.
    app.jinja_env.globals["kept_switches"] = tables.remembered_rules
    app.jinja_env.globals["short_names"] = names.short_names
    # Money in the reader's locale (its module also adds POST /api/settle to api.bp).
    app.jinja_env.globals["format_money"] = settle_up.format_money
    # Compiled templates kept on disk: a fresh process's first page loads them instead of compiling.
    app.config.setdefault("TEMPLATE_CACHE", os.path.join(app.instance_path, "templates-compiled"))
    if app.config["TEMPLATE_CACHE"]:
        app.jinja_env.bytecode_cache = KeptTemplates.at(str(app.config["TEMPLATE_CACHE"]))

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
    built = assets.init_app(app)
    missing = runs_without(app, has_workbox=built.has_workbox, has_htmx=built.has_htmx)
    if missing:
        app.logger.warning("Thirteen runs without %s.", "; without ".join(missing))
    app.context_processor(_page_time)

    app.register_blueprint(views.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(engine.bp)
    app.register_blueprint(sharing.bp)
    # Each game's package describes itself once (its registry entry): its blueprints, links,
    # followed games, card order, switches and API paths.  Its API routes are on api.bp.
    registry.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(groups.bp)  # shared by every game: reads the registry's entries

    guard.init_app(app)
    api_schema.init_app(app)  # after the guard's checks: the API's bodies against its OpenAPI schema
    limits.init_app(app)  # per client: games started, writes (RATE_LIMITS; off on the LAN server)
    retention.init_app(app)  # RETENTION_DAYS: unused games removed (flask games forget), said on sheets
    app.after_request(_security_headers)
    app.register_error_handler(RefereeError, errors.refused)
    app.register_error_handler(HTTPException, errors.http_error)
    app.register_error_handler(ObjectDeletedError, _game_gone)
    app.register_error_handler(DBAPIError, _database_error)
    app.register_error_handler(PoolTimeout, _database_error)
    app.register_error_handler(Exception, _server_error)
    engine.add_pages(app)  # what the phone draws a game started offline with (after every route)
    live.init_app(app)  # every followed page's event stream (after every game's routes)
    quick_poll.init_app(app)  # after every route and hook: its unchanged polls answer as they would
    threads.init_app(app)  # a thread kept for static files, /sw.js and the offline page (PostgreSQL)
    # Outermost: the path each log line of a request shows, tokens cut by their place in the route.
    app.wsgi_app = logs.RoutedPaths(app.wsgi_app, app.url_map)  # type: ignore[method-assign]  # Flask's way to add WSGI middleware

    if app.config.get("AUTO_MIGRATE", True):
        # Bring the database (SQLite or PostgreSQL) up to the latest migration on start, under
        # a lock so that processes starting at once never race (see referee.web.database).
        upgrade_database(app)


SENDING = "form.htmx-request button,form:has(button.htmx-request) button"
"""What htmx disables while a write is sent (``hx-disabled-elt`` of every form that writes): the
buttons of the form being sent, whether the form or one of its buttons sent it.  An element
inside such a form that asks something else (a preview) says ``hx-disabled-elt="unset"``."""


def runs_without(app: Flask, *, has_workbox: bool, has_htmx: bool = True) -> list[str]:
    """What this start lacks, in the words of the one line the app says when it starts: the
    compiled catalogues (``pybabel compile``), htmx and Workbox (``npm ci``) are built, never
    committed."""
    missing = []
    uncompiled = [code for code in app.config["LANGUAGES"] if not i18n.compiled(app, code)]
    if uncompiled:
        missing.append(f"compiled translations for {', '.join(uncompiled)} (those pages are shown in "
                       f"English; run: pybabel compile -d translations)")
    if not has_htmx:
        missing.append("htmx (every form still works, as a plain form: no live table, no answer without "
                       "a new page; run: scripts/npm-install)")
    if not has_workbox:
        missing.append("Workbox (no service worker: pages do not reopen offline; run: scripts/npm-install)")
    return missing




def _page_time() -> dict[str, str]:
    """When the page was made (UTC): a copy kept for offline use says how old it is."""
    return {"rendered_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


HSTS = "max-age=31536000"
"""Sent on answers to requests that came over https (directly or as a trusted proxy says)."""


def _security_headers(response: Response) -> Response:
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response




def database_down(exc: BaseException) -> bool:
    """Whether ``exc`` is the database not answering (refused, gone, restarting, locked, the
    pool exhausted): a known outage, not a mistake of the app."""
    if isinstance(exc, (OperationalError, PoolTimeout)):
        return True
    return isinstance(exc, DBAPIError) and bool(exc.connection_invalidated)


def _database_error(exc: Exception) -> ResponseReturnValue:
    """A database that does not answer: 503 in the reader's language, one log line, no traceback.

    The answer says what became of the write (``X-Thirteen-Saved``, :func:`database.saved_state`):
    ``no`` (no commit began: nothing was stored), ``unknown`` (the database dropped during the
    commit), ``yes`` (stored; only showing it failed).  It carries the write's id back
    (``X-Thirteen-Write``): sending the write again with that id is safe, it is stored once
    (static/js/app.js keeps it in its outbox and resends it), and a form keeps what was typed."""
    if not database_down(exc):
        return _server_error(exc)
    first_line = str(getattr(exc, "orig", None) or exc).strip().splitlines()[:1]
    saved = saved_state()
    current_app.logger.warning("database not answering (%s %s answered 503, saved: %s): %s", request.method,
                               logs.logged_path(), saved, first_line[0] if first_line else type(exc).__name__)
    try:
        db.session.rollback()
    except DBAPIError:
        pass
    if saved == "yes":
        detail = gettext("It was saved, but the referee cannot reach its records just now to show it. "
                         "Open the page again in a minute.")
        english = "the database stopped answering after the write was stored; open the page again later"
    elif saved == "unknown" or (request.method not in ("GET", "HEAD") and request.headers.get("X-Thirteen-Write")):
        # A write with an id may have been stored by an earlier try of the same id: only its
        # resend can tell (and it is stored once).
        detail = gettext("The referee cannot reach its records just now. What you typed is kept: send it "
                         "again in a minute (it is never saved twice).")
        english = "the database is not answering; send it again later with the same write id (never stored twice)"
    else:
        detail = gettext("The referee cannot reach its records just now, so nothing was saved. "
                         "What you typed is kept: send it again in a minute.")
        english = "the database is not answering; nothing was saved, send it again later"
    if errors.wants_json():
        body = {"error": english}
        if i18n.reader_locale():
            body["error_localized"] = detail
        response = jsonify(body)
        response.status_code = 503
    else:
        try:
            response = views.render_page("errors/error.html", "partials/error.html", status=503, code=503,
                                         title=gettext("Not answering"), detail=detail)
        except Exception:  # the page itself needs the database (it never should): say it plainly
            response = Response(detail, 503, mimetype="text/plain")
    response.headers["Retry-After"] = str(DATABASE_RETRY_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Thirteen-Saved"] = saved
    write = request.headers.get("X-Thirteen-Write", "")
    if write and len(write) <= 64 and write.isascii() and write.isalnum():
        response.headers["X-Thirteen-Write"] = write
    return response


def _game_gone(exc: ObjectDeletedError) -> ResponseReturnValue:
    """A game removed (retention) while this request read it: the 410 sentence, never a 500."""
    db.session.rollback()
    return errors.http_error(store.GameGone())


def _server_error(exc: Exception) -> ResponseReturnValue:
    current_app.logger.exception("unhandled error", exc_info=exc)
    db.session.rollback()
    if errors.wants_json():
        body = {"error": "the referee hit an internal error; nothing was saved"}
        if i18n.reader_locale():
            body["error_localized"] = gettext("The referee hit an internal error. Nothing was saved; try again.")
        return jsonify(body), 500
    try:
        return views.render_page(
            "errors/error.html", "partials/error.html", status=500, code=500,
            title=gettext("Something went wrong"),
            detail=gettext("The referee hit an internal error. Nothing was saved; try again."),
        )
    except Exception:  # the error page itself failed: say it plainly
        return "The referee hit an internal error. Nothing was saved; try again.", 500
