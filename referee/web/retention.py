"""Retention for a hosted server: games nobody has used for ``RETENTION_DAYS`` days removed.

Off by default (``RETENTION_DAYS`` unset or 0: nothing is ever removed, as on the LAN server).
When it is set, a sheet says so (``templates/partials/retention.html``), and the removal runs as

    flask --app app games forget --days N      # or without --days: RETENTION_DAYS

from a periodic job (cron, a systemd timer, a scheduled container).

**What counts as use.**  A game is kept while anyone uses it: a write (its ``updated_at``: every
event bumps it), an open of any of its pages, a watch (every poll counts), an import (the game
is new here: an import counts as today, whatever date the file gives it).  Opens and watches are
noted at most once an hour per game (``games.touched_hour``, :func:`referee.web.store.touch`), so
a poll stays one read.  A group is kept while any game of it is kept.

**Never a lost write.**  The games to remove are chosen and removed in one transaction that
holds them: on PostgreSQL ``SELECT … FOR UPDATE SKIP LOCKED`` (a game a write holds at that
moment is skipped: it is in use; a write that comes after waits for the removal and then finds
the game gone; a group is removed only with all its games, so a group whose game was skipped is
kept), on SQLite the database's one write lock, taken before the games are chosen.  So
a racing write either lands first (and the game, now written, is not chosen) or finds it gone and
is told so (410, :class:`referee.web.store.GameGone`), never a 500; a game is removed whole (its
tokens, players, events and write ids with it) or not at all; a run that fails removes nothing;
the count printed is the count removed.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy import ColumnElement, and_, delete, exists, false, select, update
from sqlalchemy.orm import aliased

from referee.web.extensions import db
from referee.web.models import Event, Game, Player, Token, Write

games_cli = AppGroup("games", help="The stored games.")
BATCH = 500
"""Games removed per DELETE statement (a statement's bound values stay few on any database)."""


def _unused(cutoff: datetime, hour: int) -> ColumnElement[bool]:
    """Not written since ``cutoff``, not opened or watched since ``hour``."""
    return and_(Game.updated_at < cutoff, Game.touched_hour < hour)


def forget_unused(days: int, *, now: datetime | None = None) -> int:
    """Remove every game nobody has written, opened or watched for ``days`` days (and every group
    none of whose games is kept), in one transaction; the number removed."""
    moment = now or datetime.now(UTC)
    cutoff = moment - timedelta(days=days)
    hour = int(cutoff.timestamp() // 3600)
    session = db.session
    dialect = db.engine.dialect.name
    try:
        if dialect == "sqlite":
            # The write lock first (BEGIN IMMEDIATE has no portable spelling: a write that changes
            # nothing takes it), so the games are chosen on what every committed write left.
            session.execute(update(Game).where(false()).values(version=Game.version))
        member = aliased(Game)
        chosen = select(Game.id).where(_unused(cutoff, hour), ~_member_kept(member, cutoff, hour))
        if dialect == "postgresql":
            chosen = chosen.with_for_update(skip_locked=True, of=Game)
        ids = _without_groups_in_use(list(session.scalars(chosen)))
        removed = 0
        for start in range(0, len(ids), BATCH):
            part = ids[start:start + BATCH]
            session.execute(update(Game).where(Game.group_id.in_(part)).values(group_id=None)
                            .execution_options(synchronize_session=False))
            for table in (Write, Event, Player, Token):
                session.execute(delete(table).where(table.game_id.in_(part)).execution_options(synchronize_session=False))
            result = session.execute(delete(Game).where(Game.id.in_(part)).execution_options(synchronize_session=False))
            removed += result.rowcount  # type: ignore[attr-defined]  # a DELETE's result is a cursor's
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return removed


def _member_kept(member: type[Game], cutoff: datetime, hour: int) -> ColumnElement[bool]:
    """The group being chosen has a game that is kept (written, opened or watched lately)."""
    return exists().where(member.group_id == Game.id,
                          (member.updated_at >= cutoff) | (member.touched_hour >= hour)).correlate(Game)


def _without_groups_in_use(ids: list[int]) -> list[int]:
    """The chosen games, less each group with a game that was not chosen with it.

    The choice judged a group by its games as last committed, without locking them: on PostgreSQL
    a game that a write or an open held at that moment was skipped as in use, yet its old
    committed row let its group be chosen, and removing the group then waited for that write to
    take the game, kept and just written, out of its group.  A group is removed only with every
    game of it: those the choice holds (locked, judged unused on their latest row: nobody can use
    them before the removal commits).  A game of it not chosen was in use as the run chose; and no
    game joins a group the choice holds (adding one waits for the group's row).  Nothing waits
    here: one read."""
    chosen = set(ids)
    kept: set[int] = set()
    for start in range(0, len(ids), BATCH):
        part = ids[start:start + BATCH]
        members = db.session.execute(select(Game.id, Game.group_id).where(Game.group_id.in_(part)))
        kept.update(group for game, group in members if game not in chosen and group is not None)
    return [i for i in ids if i not in kept]


@games_cli.command("forget")
@click.option("--days", type=int, default=None, help="days without a write, an open or a watch (default: RETENTION_DAYS)")
def forget_command(days: int | None) -> None:
    """Remove the games nobody has written, opened or watched for N days."""
    days = days if days is not None else int(current_app.config.get("RETENTION_DAYS") or 0)
    if days <= 0:
        raise click.UsageError("no retention: give --days N or set RETENTION_DAYS")
    click.echo(f"{forget_unused(days)} games not written, opened or watched for {days} days removed.")


def init_app(app: Flask) -> None:
    raw = os.environ.get("RETENTION_DAYS", "")
    app.config.setdefault("RETENTION_DAYS", int(raw) if raw.isdigit() else 0)
    app.cli.add_command(games_cli)
    app.jinja_env.globals["RETENTION_DAYS"] = lambda: int(app.config.get("RETENTION_DAYS") or 0)
