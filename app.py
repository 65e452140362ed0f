"""Thirteen: the card-table referee.  ``create_app(config)`` builds the Flask app.

This module only defines the factory: importing it builds no app and writes nothing.
Flask's command line finds the factory by itself (``flask --app app run``, ``flask --app app
db upgrade``); ``./scripts/serve`` (``python -m referee.web.serve``) calls it once.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy.engine import URL

from referee.web import init_app
from referee.web.database import engine_options

HERE = Path(__file__).resolve().parent


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The application factory.

    Configuration comes from defaults, then ``instance/config.py`` if present,
    then the environment (``DATABASE_URL`` or the ``POSTGRES_*`` settings, ``SECRET_KEY``, ``PUBLIC_URL``, ``AUTO_MIGRATE=0``), then
    ``config``.  On start the database is migrated to the latest schema unless
    ``AUTO_MIGRATE`` is off.
    """
    app = Flask(
        __name__,
        instance_path=str(HERE / "instance"),
        instance_relative_config=True,
        template_folder=str(HERE / "templates"),
        static_folder=str(HERE / "static"),
    )
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{HERE / 'instance' / 'thirteen.sqlite'}",
        MAX_CONTENT_LENGTH=64 * 1024,
        BABEL_DEFAULT_LOCALE="en",
        LANGUAGES=["en", "es", "pt", "vi"],  # referee/web/i18n.py; catalogues in translations/
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if config is None:
        app.config.from_pyfile("config.py", silent=True)
        database_url = os.environ.get("DATABASE_URL") or postgres_url_from(os.environ)
        if database_url:
            app.config["SQLALCHEMY_DATABASE_URI"] = _normalise_db_url(database_url)
        if os.environ.get("PUBLIC_URL"):  # the address phones use, e.g. https://thirteen.example.org
            app.config["PUBLIC_URL"] = os.environ["PUBLIC_URL"]
        if os.environ.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
        if os.environ.get("AUTO_MIGRATE") == "0":  # run ``flask --app app db upgrade`` yourself
            app.config["AUTO_MIGRATE"] = False
    else:
        app.config.update(config)
        if "SQLALCHEMY_DATABASE_URI" in config:
            app.config["SQLALCHEMY_DATABASE_URI"] = _normalise_db_url(config["SQLALCHEMY_DATABASE_URI"])
    # A server database gets its timeouts (connect, statement, pool); its connections are pinged
    # when taken from the pool, under a watchdog (referee.web.database).  A SQLite file has
    # nothing to go stale, and the ping cost a sixth of a poll's time.
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", engine_options(str(app.config["SQLALCHEMY_DATABASE_URI"])))
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))

    init_app(app)
    return app


def _instance_secret(folder: Path) -> str:
    """A random secret kept in ``instance/secret_key``, made on the first start."""
    path = folder / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


def postgres_url_from(environ: Mapping[str, str]) -> str | None:
    """The PostgreSQL URL from ``POSTGRES_HOST``, ``POSTGRES_PORT``, ``POSTGRES_USER``,
    ``POSTGRES_PASSWORD`` and ``POSTGRES_DB`` (as compose.yaml passes them), each part quoted as
    a URL needs, so a password may hold any character; ``None`` without ``POSTGRES_HOST``.

    >>> url = postgres_url_from({"POSTGRES_HOST": "db", "POSTGRES_USER": "thirteen",
    ...                          "POSTGRES_PASSWORD": "p@ss:w/rd", "POSTGRES_DB": "thirteen"})
    >>> url
    'postgresql+psycopg://thirteen:p%40ss%3Aw%2Frd@db:5432/thirteen'
    >>> from sqlalchemy.engine import make_url
    >>> make_url(url).password
    'p@ss:w/rd'
    """
    if not environ.get("POSTGRES_HOST"):
        return None
    url = URL.create(
        "postgresql+psycopg",
        username=environ.get("POSTGRES_USER") or "postgres",
        password=environ.get("POSTGRES_PASSWORD") or None,
        host=environ["POSTGRES_HOST"],
        port=int(environ.get("POSTGRES_PORT") or 5432),
        database=environ.get("POSTGRES_DB") or environ.get("POSTGRES_USER") or "postgres",
    )
    return url.render_as_string(hide_password=False)


def _normalise_db_url(url: str) -> str:
    """Hosted PostgreSQL often hands out ``postgres://`` URLs; SQLAlchemy wants a driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url
