"""Retention for a hosted server: games nobody has changed for ``RETENTION_DAYS`` days removed.

Off by default (``RETENTION_DAYS`` unset or 0: nothing is ever removed, as on the LAN server).
When it is set, a sheet says so (``templates/partials/retention.html``), and the removal runs as

    flask --app app games forget --days N      # or without --days: RETENTION_DAYS

from a periodic job (cron, a systemd timer, a scheduled container).  A game counts as used when
it was last written (its ``updated_at``: every event bumps it); its players, events and write
ids go with it.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy import delete, select

from referee.web.extensions import db
from referee.web.models import Event, Game, Player, Write

games_cli = AppGroup("games", help="The stored games.")


def forget_unused(days: int, *, now: datetime | None = None) -> int:
    """Remove every game not written for ``days`` days; the number removed."""
    cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
    old = select(Game.id).where(Game.updated_at < cutoff).scalar_subquery()
    count = len(db.session.scalars(select(Game.id).where(Game.updated_at < cutoff)).all())
    for table in (Write, Event, Player):
        db.session.execute(delete(table).where(table.game_id.in_(old)))
    db.session.execute(delete(Game).where(Game.id.in_(old)))
    db.session.commit()
    return count


@games_cli.command("forget")
@click.option("--days", type=int, default=None, help="days without a write (default: RETENTION_DAYS)")
def forget_command(days: int | None) -> None:
    """Remove the games nobody has changed for N days."""
    days = days if days is not None else int(current_app.config.get("RETENTION_DAYS") or 0)
    if days <= 0:
        raise click.UsageError("no retention: give --days N or set RETENTION_DAYS")
    click.echo(f"{forget_unused(days)} games not changed for {days} days removed.")


def init_app(app: Flask) -> None:
    raw = os.environ.get("RETENTION_DAYS", "")
    app.config.setdefault("RETENTION_DAYS", int(raw) if raw.isdigit() else 0)
    app.cli.add_command(games_cli)
    app.jinja_env.globals["RETENTION_DAYS"] = lambda: int(app.config.get("RETENTION_DAYS") or 0)
