"""The Flask extensions, created once and bound in ``init_app``."""

from __future__ import annotations

from flask_babel import Babel
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from htmx_flask import Htmx
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The models' base (SQLAlchemy 2 typed declarative): ``db.Model`` is built from it and shares
    its metadata and registry, but is invisible to mypy, so the models subclass this."""


db = SQLAlchemy(model_class=Base)
babel = Babel()
htmx = Htmx()
compress = Compress()
# Batch mode lets later migrations alter tables on SQLite too.
migrate = Migrate(render_as_batch=True)
