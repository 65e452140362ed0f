"""What the app stores: games, their players, and each game's log of events.

A game's state is never stored as such: it is derived by replaying its events
through the rule module's state machine.  ``Game.version`` counts the events
and is the optimistic lock that keeps two phones from both winning a turn.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    event,
    insert,
)
from sqlalchemy.orm import Mapped, Mapper, mapped_column, relationship

from referee.web.extensions import Base
from referee.web.numbers import NAME_MAX as NAME_MAX  # the longest name (its column here)

WRITE_ID_MAX = 40
MADE_FOR_MAX = 60


def _now() -> datetime:
    return datetime.now(UTC)


def new_token() -> str:
    """A long unguessable token for a share link (32 url-safe characters, 16 or more of them
    different: drawn again in the rare case of fewer, so that every token the server makes is
    one it takes back from a file, :func:`referee.web.store.strong_token`)."""
    while len(set(token := secrets.token_urlsafe(24))) < 16:
        pass
    return token


def this_hour() -> int:
    """Hours since 1970 (UTC): the clock of :attr:`Game.touched_hour`."""
    return int(time.time() // 3600)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    version: Mapped[int] = mapped_column(Integer, default=0)
    keeper_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    watch_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    created_by: Mapped[str | None] = mapped_column(String(WRITE_ID_MAX), unique=True, default=None)
    """The write id of the form that started the game: the same form sent again opens this game."""
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), index=True, default=None)
    """The group (a stored game of kind ``"group"``: a table of friends) this game was started
    from or added to, if any (:mod:`referee.web.groups`)."""
    touched_hour: Mapped[int] = mapped_column(Integer, default=this_hour, server_default="0")
    """The hour (:func:`this_hour`) the game was last opened, watched (a poll) or imported, kept at
    most once an hour (:func:`referee.web.store.touch`): retention keeps a game in use even when
    nobody writes it (:mod:`referee.web.retention`).  0: not known (a game stored before it)."""
    made_for: Mapped[str | None] = mapped_column(String(MADE_FOR_MAX), unique=True, default=None)
    """``"<kind>:<game id>"`` for a game made for another (the score sheet "Score this hand" made for
    a table): unique, so however many phones press at once, one game is made for each."""

    started_from: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), default=None)
    """The game this one was started from (a rematch, the sheet "Score this hand" made for a table,
    a table started from a sheet): it is in that game's group, on that game's evening."""

    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None, deferred=True)
    """What the game's records come to for its group's pages (its results, stake and end as a
    :class:`referee.evening_money.Sitting`), kept as computed at ``summary_version``: read again
    only while the game is at that version (:mod:`referee.web.groups.evenings`)."""
    summary_version: Mapped[int | None] = mapped_column(Integer, default=None)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    events: Mapped[list[Event]] = relationship(
        back_populates="game", order_by="Event.seq", cascade="all, delete-orphan"
    )

    @property
    def player_names(self) -> list[str]:
        return [p.name for p in self.players]


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(NAME_MAX))

    game: Mapped[Game] = relationship(back_populates="players")


class Event(Base):
    """One thing that happened: a play, a pass, a round entry, a correction, an undo."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(30))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    game: Mapped[Game] = relationship(back_populates="events")


class Write(Base):
    """A write a phone gave an id (``X-Thirteen-Write``): stored in the same transaction as its
    event, so the same id is applied once per game, whatever version it is sent with again."""

    __tablename__ = "writes"
    __table_args__ = (UniqueConstraint("game_id", "write_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    write_id: Mapped[str] = mapped_column(String(WRITE_ID_MAX))
    seq: Mapped[int] = mapped_column(Integer)
    """The event the write stored."""
    fingerprint: Mapped[str] = mapped_column(String(64))
    """What the write carried (its path and fields but the version), hashed: the same id with
    another body is not the same write."""


class Token(Base):
    """Every share-link token of every game and group, keeper and watch alike, once: its primary
    key is what makes a token the link of one game only, by the database itself, however many
    starts and imports race (a check in Python before the insert cannot).  Each game's two rows
    are inserted in the same transaction as the game (:func:`_tokens_of_new_game`)."""

    __tablename__ = "tokens"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)


@event.listens_for(Game, "after_insert")
def _tokens_of_new_game(_mapper: Mapper[Game], connection: Connection, game: Game) -> None:
    """A stored game's keeper and watch tokens, claimed in the tokens table in the same flush: a
    token that is already any game's (either role) fails the whole transaction (an IntegrityError)."""
    connection.execute(insert(Token), [{"token": game.keeper_token, "game_id": game.id},
                                       {"token": game.watch_token, "game_id": game.id}])
