"""Writing games safely: one transaction per action, guarded by the game's version.

Every write names the version the phone last saw.  The version is bumped with a
conditional ``UPDATE … WHERE version = :seen`` inside the same transaction as the
new event, so of two phones that saw the same table only one can write; the
other gets :class:`StaleGame` and is shown the fresh state.  This works the same
on SQLite and PostgreSQL.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from flask_babel import gettext
from sqlalchemy import CursorResult, bindparam, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import joinedload
from werkzeug.exceptions import Conflict, Gone

from referee.errors import NothingToUndo
from referee.web.events import UNDO as UNDO  # one name for an undo, on the server and the phone
from referee.web.events import effective_events as effective_events
from referee.web.events import records_of as records_of
from referee.web.extensions import db
from referee.web.models import Event, Game, Player, Token, Write, _now, this_hour
from referee.web.numbers import MAX_PLAYERS as MAX_PLAYERS  # the most players a game may have
from referee.web.players import clean_names as clean_names  # read on the phone too (no database there)

T = TypeVar("T")
log = logging.getLogger("thirteen.store")

_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


class StaleGame(Exception):
    """Someone else wrote to the game since this phone last saw it.

    Not a refusal (:class:`~referee.errors.RefereeError`): the rules were never asked, and what
    was typed may well be right.  :class:`~referee.web.tables.FollowedGame` answers it with a 409:
    the fresh game and what was typed kept, to check and send again."""

    def __init__(self, game: Game, seen: int) -> None:
        self.game = game
        self.seen = seen
        super().__init__(f"the game changed (version {seen} is now {game.version})")


@dataclass(frozen=True)
class Access:
    """A game reached through a share link, and what that link may do."""

    game: Game
    role: str  # "keeper" or "watcher"

    @property
    def can_write(self) -> bool:
        return self.role == "keeper"


STRONG_TOKEN_LENGTH = 32
"""The fewest characters of a token the server takes from elsewhere (a phone, a file): as many
as the server's own (:func:`referee.web.models.new_token`, 32 URL-safe characters)."""
STRONG_TOKEN_DISTINCT = 16
"""The fewest distinct characters of such a token: the server's 32 random characters hold 16 or
more (all but about one in 10^7 of them), ``"a" * 32``, ``"0" * 32`` or a word repeated do not."""


def strong_token(token: str) -> bool:
    """Whether ``token`` looks like one the server makes: at least :data:`STRONG_TOKEN_LENGTH`
    URL-safe characters (at most 64), at least :data:`STRONG_TOKEN_DISTINCT` of them different.
    Only such a token proposed by a phone or brought by a file is taken.

    >>> from referee.web.models import new_token
    >>> all(strong_token(new_token()) for _ in range(200))
    True
    >>> strong_token("a" * 32), strong_token("0" * 32), strong_token("abcdefgh" * 4), strong_token("shortTokA")
    (False, False, False, False)
    >>> strong_token("Ql1JEuxAn-XGUUsQh38kcDtGgEQgfFm2"), strong_token("Ql1JEuxAn XGUUsQh38kcDtGgEQgfFm2")
    (True, False)
    """
    return (is_token(token) and len(token) >= STRONG_TOKEN_LENGTH
            and len(set(token)) >= STRONG_TOKEN_DISTINCT)


class GameGone(Gone):
    """The game was removed (retention: nobody opened, watched or wrote it for the days the host
    keeps games) while this request was reading or writing it: 410, with what to do."""

    def __init__(self) -> None:
        super().__init__(gettext("This game is no longer kept on this server: nobody opened it for a long "
                                 "time. Nothing was saved. If you kept its file, import it again."))


class TokenTaken(ValueError):
    """A token a phone made for its game is already another game's link: the phone picks another.

    Not a refusal (:class:`~referee.errors.RefereeError`): nothing the player typed is wrong and
    no sentence of the rules applies; it is a collision of the phone's random links, answered 409
    (``FollowedGame.start``), on which the phone makes new links and sends the form again itself."""

    def __init__(self, token: str) -> None:
        super().__init__("this link is already another game's")
        self.token = token


def _new_game(kind: str, names: Sequence[str], rules: dict[str, Any], setup: dict[str, Any],
              created_by: str | None = None, group: Game | None = None,
              tokens: dict[str, str] | None = None, made_for: str | None = None,
              started_from: Game | None = None) -> Game:
    if started_from is not None and group is None and started_from.group_id is not None:
        group = db.session.get(Game, started_from.group_id)  # started from a group's game: in the group
    game = Game(kind=kind, rules=rules, setup=setup, version=0, created_by=created_by or None,
                group_id=group.id if group is not None else None, made_for=made_for,
                started_from=started_from.id if started_from is not None else None, **(tokens or {}))
    game.players = [Player(seat=i, name=n) for i, n in enumerate(names)]
    db.session.add(game)
    return game


def create_game(kind: str, names: Sequence[str], *, rules: dict[str, Any], setup: dict[str, Any],
                events: Sequence[tuple[str, dict[str, Any]]] = (), created_by: str | None = None,
                group: Game | None = None,
                keeper_token: str | None = None, watch_token: str | None = None,
                made_for: Game | None = None, started_from: Game | None = None) -> Game:
    """Store a new game with its players, and its first ``events`` (kind, payload), in one
    transaction: the game never exists without them.  ``group`` is the group (a table of
    friends, :data:`GROUP`) it is started from.

    ``created_by`` is the write id of the form that starts it: the same form sent again (a
    double tap, a resend after a lost answer) gets the game it started, not a second one.

    ``keeper_token`` / ``watch_token``: the share links' tokens a phone made itself (a game
    started offline, whose pages the phone drew with those links before the server knew it;
    :data:`PHONE_TOKEN`).  A token already another game's raises :class:`TokenTaken` (nothing
    stored); the same form sent again still gets its own game.
    ``made_for`` is the game it is made for (:func:`made_for`): one of ``kind`` per such game,
    however many requests make it at once (the others get the one that was stored).
    ``started_from`` is the game it was started from (a rematch, the sheet "Score this hand" makes
    for a table): a game started from a group's game is in that group, on its evening.
    """
    key = _made_for_key(kind, made_for) if made_for is not None else None
    if key is not None and (made := _made_with(key)) is not None:
        return made
    if created_by:
        started = _started_with(created_by, kind)
        if started is not None:
            return started
    tokens = {name: token for name, token in (("keeper_token", keeper_token), ("watch_token", watch_token)) if token}
    for token in tokens.values():
        if not strong_token(token):
            raise ValueError("a game's token from a phone is at least 32 URL-safe characters, 16 of them different")
    if len(set(tokens.values())) < len(tokens):
        raise ValueError("a game's keeper and watch tokens must differ")
    for token in tokens.values():
        if token_in_use(token):
            raise TokenTaken(token)
    game = _new_game(kind, names, rules, setup, created_by, group, tokens, key, started_from)
    game.version = len(events)
    game.events = [Event(seq=i + 1, kind=k, payload=p) for i, (k, p) in enumerate(events)]
    try:
        db.session.commit()
    except IntegrityError:  # the same form, sent twice at once: the other request stored it
        db.session.rollback()
        started = _made_with(key) if key is not None else None
        if started is None and created_by:
            started = _started_with(created_by, kind)
        if started is not None:
            return started
        taken = next((t for t in tokens.values() if token_in_use(t)), None)
        if taken is not None:  # another game took the phone's token at the same moment
            raise TokenTaken(taken) from None
        raise
    return game


GROUP = "group"
"""The store kind of a group: a table of friends, stored as a game of its own (its records are
its people and how its evenings are grouped; :mod:`referee.web.groups`)."""


def keeper_group(token: str) -> Game | None:
    """The group whose *keeper* token this is (a form starting a game from a group posts it in
    its body, field ``group``); ``None`` for anything else, a watch link included."""
    if not token or not is_token(token):
        return None
    return db.session.scalar(select(Game).where(Game.keeper_token == token, Game.kind == GROUP))


def token_in_use(token: str) -> bool:
    """Whether ``token`` is already a share link of some game or group (keeper or watch): the
    tokens table (:class:`~referee.web.models.Token`), which holds each once."""
    return db.session.scalar(select(Token.game_id).where(Token.token == token)) is not None


class StartingIdTaken(Conflict):
    """A form's starting id that already started a game of another kind (a page kept from
    another game, or an id made up): 409, nothing is started.

    Not a refusal (:class:`~referee.errors.RefereeError`): the rules were never asked; the page
    itself is out of date (it carries another form's id), so it is an HTTP conflict whose sentence
    says to open the page again, answered by the shared HTTP error page."""

    def __init__(self) -> None:
        super().__init__(gettext("This form already started another game. Open the page again to start a new one."))


def _started_with(write_id: str, kind: str) -> Game | None:
    """The game this starting id started, if of ``kind``; :class:`StartingIdTaken` if of another."""
    started = db.session.scalar(select(Game).where(Game.created_by == write_id))
    if started is not None and started.kind != kind:
        raise StartingIdTaken()
    return started


@dataclass
class NewGame:
    """A game to create with a write, in the write's own transaction: a payload value of an
    event, stored as the new game's id.  A stale write (409) creates nothing; ``created`` is
    the game once the write stood."""

    kind: str
    names: Sequence[str]
    rules: dict[str, Any]
    setup: dict[str, Any]
    started_from: Game | None = None
    """The game whose write starts it (its group's, on its evening: :func:`create_game`)."""
    created: Game | None = None


def is_token(token: str) -> bool:
    """Whether ``token`` could be a share-link token (URL-safe base64, at most 64 characters).

    Anything else (a NUL byte, a space, a slash) is no game's link and never reaches the database.

    >>> is_token("Ql1JEuxAn-XGUUsQh38kcDtGgEQgfFm2"), is_token("abc\\x00"), is_token(""), is_token("x" * 65)
    (True, False, False, False)
    """
    return _TOKEN.fullmatch(token) is not None


def find_by_token(token: str, kind: str | None = None) -> Access | None:
    """The game a share link opens, with the link's role; ``None`` for an unknown link."""
    if not is_token(token):
        return None
    game = db.session.scalar(  # its players in the same statement: never a game row without them
        select(Game).options(joinedload(Game.players)).where((Game.keeper_token == token) | (Game.watch_token == token))
    )
    if game is None or (kind is not None and game.kind != kind):
        return None
    if game.touched_hour < this_hour():
        touch(token)
    return Access(game, "keeper" if game.keeper_token == token else "watcher")


# The row is taken only if nobody holds it (SKIP LOCKED on PostgreSQL; SQLite has no row locks):
# a touch never waits, neither behind a write (which marks the game used anyway) nor behind a
# retention run that chose the game (which then finds it in use or removes it whole).
_TOUCH = (update(Game)
          .where(Game.id.in_(select(Game.id)
                             .where(or_(Game.keeper_token == bindparam("token"), Game.watch_token == bindparam("token")),
                                    Game.touched_hour < bindparam("hour"))
                             .with_for_update(skip_locked=True)),
                 Game.touched_hour < bindparam("hour"))
          .values(touched_hour=bindparam("hour")))


def touch(token: str, connection: Connection | None = None) -> None:
    """Note that the game behind ``token`` is in use this hour (opened, watched, polled): at most
    one small UPDATE per game an hour, on its own connection and transaction, so a poll stays one
    read the rest of the hour.  Retention keeps a game touched within its days
    (:mod:`referee.web.retention`).  A database too busy to take it is left for the next open."""
    values = {"token": token, "hour": this_hour()}
    try:
        if connection is not None:
            if connection.in_transaction():
                connection.rollback()  # the read that found it stale ends here
            with connection.begin():
                connection.execute(_TOUCH, values)
            return
        with db.engine.begin() as own:
            own.execute(_TOUCH, values)
    except OperationalError as exc:  # locked, busy: the next open this hour tries again
        log.warning("a game's last use not noted (%s)", type(exc.orig).__name__)


def made_for(kind: str, source: Game) -> Game | None:
    """The game of ``kind`` made for ``source`` (``create_game(..., made_for=source)``): the
    score sheet a table's "Score this hand" made, found again by its unique, indexed key."""
    return _made_with(_made_for_key(kind, source))


def _made_for_key(kind: str, source: Game) -> str:
    return f"{kind}:{source.id}"


def _made_with(key: str) -> Game | None:
    return db.session.scalar(select(Game).where(Game.made_for == key))


@dataclass(frozen=True)
class WriteId:
    """The id a phone gave one write, and what that write carried (hashed)."""

    id: str
    fingerprint: str


def applied_write(game: Game, write: WriteId) -> Write | None:
    """The write of ``game`` stored under this id, at whatever version: a phone sending again
    an entry whose answer it never got (the Wi-Fi dropped on the way back)."""
    return db.session.scalar(select(Write).where(Write.game_id == game.id, Write.write_id == write.id))


def game_made_by(game: Game, write: WriteId, key: str) -> Game | None:
    """The game a write of ``game`` created with its event (a :class:`NewGame` at ``key`` of the
    payload), if this write id was applied: a form that starts a game, sent again."""
    stored = applied_write(game, write)
    if stored is None or not same_write(stored, write):
        return None
    payload = db.session.scalar(select(Event.payload).where(Event.game_id == game.id, Event.seq == stored.seq))
    made = payload.get(key) if isinstance(payload, dict) else None
    return db.session.get(Game, made) if isinstance(made, int) else None


def same_write(stored: Write, write: WriteId) -> bool:
    """Whether ``write`` is the stored one sent again (the same body; a write stored before
    bodies were kept matches any)."""
    return stored.fingerprint in ("", write.fingerprint)


COMMITTED: list[Callable[[], None]] = []
"""Called after each event is committed (:mod:`referee.web.live` wakes this process's event streams)."""

_games = Game.__table__.c
# Built once (and compiled once, by SQLAlchemy's statement cache): a poll only binds the token.
_VERSION_BY_TOKEN = select(_games.version, _games.touched_hour).where(
    or_(_games.keeper_token == bindparam("token"), _games.watch_token == bindparam("token")),
    _games.kind == bindparam("kind"),
)


def game_version(token: str, kind: str) -> int | None:
    """The version of the game behind a share link: one indexed lookup of one column, on a
    pooled connection (no ORM session, no game object)."""
    if not is_token(token):
        return None
    with db.engine.connect() as connection:
        row = connection.execute(_VERSION_BY_TOKEN, {"token": token, "kind": kind}).first()
        if row is None:
            return None
        if row[1] < this_hour():
            touch(token, connection)
        return int(row[0])


def append_event(game: Game, seen: int, kind: str, payload: dict[str, Any], write: WriteId | None = None) -> Event:
    """Add one event to the game, in one transaction, if nobody wrote since ``seen``; with
    ``write``, its id is kept in the same transaction (:func:`applied_write`).

    A :class:`NewGame` among the payload's values is created in the same transaction (the
    event keeps its id), so it exists exactly when the event does.  Raises :class:`StaleGame`
    (after rolling back) when the game moved on, or when the same write id was stored meanwhile.
    """
    bumped = cast(CursorResult[Any], db.session.execute(  # an UPDATE's result is a cursor's
        update(Game)
        .where(Game.id == game.id, Game.version == seen)
        .values(version=Game.version + 1, updated_at=_now())
        .execution_options(synchronize_session=False)
    ))
    if bumped.rowcount != 1:
        db.session.rollback()
        _refresh(game)
        raise StaleGame(game, seen)
    new = {key: value for key, value in payload.items() if isinstance(value, NewGame)}
    made = {key: _new_game(n.kind, n.names, n.rules, n.setup, started_from=n.started_from) for key, n in new.items()}
    if made:
        db.session.flush()  # the new games' ids, inside this transaction
    event = Event(game_id=game.id, seq=seen + 1, kind=kind,
                  payload={**payload, **{key: made_game.id for key, made_game in made.items()}})
    db.session.add(event)
    if write is not None:
        db.session.add(Write(game_id=game.id, write_id=write.id, seq=seen + 1, fingerprint=write.fingerprint))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        _refresh(game)
        raise StaleGame(game, seen) from None
    for committed in COMMITTED:
        committed()
    for key, made_game in made.items():
        new[key].created = made_game
    _refresh(game)
    return event


def _refresh(game: Game) -> None:
    """The game as stored now; :class:`GameGone` (410) if retention removed it meanwhile."""
    if db.session.scalar(select(Game.id).where(Game.id == game.id)) is None:
        raise GameGone()
    db.session.refresh(game)


def history(game: Game) -> list[Event]:
    """The game's events as of the version this request read, oldest first.

    The version and the events are read by two queries; another phone may write in
    between. Keeping only ``seq <= version`` makes the log agree with the version, so a
    write judged on it and then made with ``append_event(game, game.version, ...)``
    is refused as stale (409) instead of being judged against a table nobody saw.
    """
    events = [e for e in game.events if e.seq <= game.version]
    if len(events) != game.version:  # its events removed since its row was read: retention ran
        raise GameGone()
    return events


def live_events(game: Game) -> list[Event]:
    """The events still in force at the version this request read."""
    return effective_events(history(game))


def undo_last(game: Game, seen: int, write: WriteId | None = None) -> Event:
    """Record an undo of the latest effective event (kept in the history)."""
    live = live_events(game)
    if not live:
        raise NothingToUndo()
    target = live[-1]
    return append_event(game, seen, UNDO, {"undoes": target.seq, "kind": target.kind}, write)


def last_undo(game: Game) -> Event | None:
    """The change the game's latest undo took back, while that undo is the game's last change
    (what a redo would store again), or ``None``."""
    events = history(game)
    if not events or events[-1].kind != UNDO:
        return None
    undoes = events[-1].payload.get("undoes")
    return next((e for e in events if e.seq == undoes), None)


def replay(game: Game, apply: Callable[[T, Event], T], start: T) -> T:
    """Fold the game's effective events into a state, oldest first."""
    state = start
    for event in live_events(game):
        state = apply(state, event)
    return state
