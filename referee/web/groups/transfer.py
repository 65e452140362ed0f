"""A sheet, a table or a whole group as one JSON file, and back into any Thirteen server.

The file holds each game as it is stored: its kind, share-link tokens, players, house rules,
setup and every event (undos included: the same records its state machine replays), with
:data:`FORMAT` and :data:`VERSION`.  Importing keeps the tokens, so the links still open the
games on the new server, and a second import of the same file finds the games of the first
and makes nothing twice, even when both are sent at once.  Exporting what was imported gives
the same file again.  A token weaker than the server's own (a file written by hand, or by an
older server: :func:`referee.web.store.strong_token`) is not taken: the game gets a fresh token
of the server's (:func:`renewed_token`), and the import says so.  An import is a write like any
other: its new games count against the new-game limit (:mod:`referee.web.limits`), and it is
counted as a use of each game today (retention).

A Tiến lên score sheet names the tables it follows by their stored id (its ``setup`` and its
records: :data:`TABLE_RECORDS`), and ids differ from server to server: the file names each such
table by its watch token instead (:func:`_tables_named_by_token`, since :data:`VERSION` 2), and an
import gives the sheet the ids its tables have here (:func:`_table_references`), so the sheet
follows its own tables, and its table hands count once in the group, on the new server too.  A
file of version 1 (ids of the server that wrote it) is read by what it says of each table: a table
started from a sheet names it and was made with its follow record; a sheet made for a table has
its players and was made after it.  A table not in the file nor here is named by a negative
number, never any game's id.

A file is refused with a sentence (:class:`ImportRefused`) when it is not one of ours, comes
from a newer version, holds an entry of a kind its game does not know, or a game its game's
state machine cannot replay; nothing of it is stored then.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import false, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError

from referee import group as groups_lib
from referee.errors import RefereeError
from referee.text import Message, message
from referee.tienlen_evening import GameAdded, GameCorrected, TableFollowed
from referee.web import registry, settle_up, store
from referee.web.extensions import db
from referee.web.games.tienlen.evening import KIND as SHEET_KIND
from referee.web.games.tienlen.evening import TABLE_KIND
from referee.web.groups import evenings
from referee.web.models import NAME_MAX, Event, Game, Player, Token, this_hour

FORMAT = "thirteen-games"
VERSION = 2
"""2: a sheet's followed tables named by their watch tokens (1: by the writing server's ids)."""
TABLE_RECORDS = frozenset({TableFollowed.action, GameAdded.action, GameCorrected.action})
"""The records of a Tiến lên sheet (:data:`SHEET_KIND`) that may name a followed table (``table``)."""
MAX_GAMES = 2000
MAX_EVENTS = 20000


class ImportRefused(RefereeError):
    """A file that cannot be imported (a 422 about the form's ``file`` field): one of the refusal
    family, its reason the sentence for the reader."""


def _when(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def game_record(game: Game, group: Game | None = None,
                tables: Mapping[int, str] | None = None) -> dict[str, Any]:
    """One stored game as the file holds it (a sheet's followed tables named by ``tables``, their
    ids' watch tokens: :func:`_tables_named_by_token`)."""
    record = {
        "kind": game.kind,
        "keeper_token": game.keeper_token,
        "watch_token": game.watch_token,
        "group": group.keeper_token if group is not None else None,
        "created_at": _when(game.created_at),
        "updated_at": _when(game.updated_at),
        "players": game.player_names,
        "rules": game.rules,
        "setup": game.setup,
        "events": [{"seq": e.seq, "kind": e.kind, "payload": e.payload, "created_at": _when(e.created_at)}
                   for e in store.history(game)],
    }
    return _tables_named_by_token(record, tables) if tables is not None else record


def _with_tables(record: Mapping[str, Any], name: Callable[[Any], Any]) -> dict[str, Any]:
    """A game of the file with each followed table a sheet names (``setup["table"]``, and
    ``table`` in :data:`TABLE_RECORDS`) named ``name(it)`` instead."""
    out = dict(record)
    if record["kind"] != SHEET_KIND:
        return out
    if record["setup"].get("table") is not None:
        out["setup"] = {**record["setup"], "table": name(record["setup"]["table"])}
    out["events"] = [{**e, "payload": {**e["payload"], "table": name(e["payload"]["table"])}}
                     if e["kind"] in TABLE_RECORDS and e["payload"].get("table") is not None else e
                     for e in record["events"]]
    return out


def _table_ids(record: Mapping[str, Any]) -> list[Any]:
    """The followed tables a game of the file names, in the order it names them first."""
    named: list[Any] = []
    _with_tables(record, lambda t: named.append(t) if t not in named else None)
    return named


def _tables_named_by_token(record: dict[str, Any], tables: Mapping[int, str]) -> dict[str, Any]:
    """A sheet's record with each table id its watch token (``tables``); a table no longer
    stored as -1, -2… in the order the sheet names them (never a game's id anywhere)."""
    gone = [t for t in _table_ids(record) if t not in tables]
    return _with_tables(record, lambda t: tables[t] if t in tables else -1 - gone.index(t))


def _followed_tables(games: Sequence[Game]) -> dict[int, str]:
    """The watch token of each stored table a sheet of ``games`` names."""
    ids = {t for g in games if g.kind == SHEET_KIND
           for t in _table_ids({"kind": g.kind, "setup": g.setup or {},
                                "events": [{"kind": e.kind, "payload": e.payload} for e in store.history(g)]})
           if isinstance(t, int) and t > 0}
    found: dict[int, str] = {g.id: g.watch_token for g in games if g.id in ids and g.kind == TABLE_KIND}
    rest = sorted(ids - set(found))
    for chunk in range(0, len(rest), 500):
        for table_id, watch in db.session.execute(select(Game.id, Game.watch_token).where(
                Game.id.in_(rest[chunk:chunk + 500]), Game.kind == TABLE_KIND)):
            found[table_id] = watch
    return found


def export(games: Sequence[Game], group: Game | None = None) -> bytes:
    """The file of ``games`` (the group's own game first when a whole group is exported)."""
    tables = _followed_tables(games)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "games": [game_record(g, group if g is not group else None, tables) for g in games],
    }
    return (json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()


def export_group(group: Game) -> bytes:
    return export([group, *evenings.group_games(group)], group)


# --------------------------------------------------------------------------- reading a file


def _refuse(reason: Message) -> ImportRefused:
    return ImportRefused(reason, field="file")


def read_file(raw: bytes) -> list[Mapping[str, Any]]:
    """The games of a file, checked for shape (not yet replayed)."""
    return _read_document(raw)[1]


def _read_document(raw: bytes) -> tuple[int, list[Mapping[str, Any]]]:
    """The version and the games of a file, checked for shape (not yet replayed)."""
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _refuse(message("This file is not a Thirteen export: it is not JSON.")) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _refuse(message("This file is not a Thirteen export (it does not say it holds Thirteen games)."))
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _refuse(message("This file is not a Thirteen export: its version is missing."))
    if version > VERSION:
        raise _refuse(message("This file comes from a newer version of Thirteen (format {theirs}; this server "
                              "reads up to {ours}). Update this server, then import it again.",
                              theirs=version, ours=VERSION))
    games = document.get("games")
    if not isinstance(games, list) or not games or len(games) > MAX_GAMES:
        raise _refuse(message("This file is not a Thirteen export: it holds no games."))
    known = {k for e in registry.entries() for k in e.kinds} | {store.GROUP}
    total = 0
    for number, game in enumerate(games, start=1):
        if not isinstance(game, dict) or not _shaped(game):
            raise _refuse(message("Game {n} of the file is not written as Thirteen writes games.", n=number))
        if game["kind"] not in known:
            raise _refuse(message("Game {n} of the file is of a kind this server does not know ({kind}).",
                                  n=number, kind=str(game["kind"])[:30]))
        allowed = _event_kinds(game["kind"])
        strange = next((e["kind"] for e in game["events"] if allowed is not None and e["kind"] not in allowed), None)
        if strange is not None:
            raise _refuse(message("Game {n} of the file holds an entry of a kind its game does not know ({kind}).",
                                  n=number, kind=str(strange)[:30]))
        total += len(game["events"])
    if total > MAX_EVENTS:
        raise _refuse(message("This file holds more than {n} entries: too many to import at once.", n=MAX_EVENTS))
    return version, games


def _event_kinds(kind: str) -> frozenset[str] | None:
    """The kinds of event a stored game of ``kind`` holds (``None``: its game does not say)."""
    if kind == store.GROUP:
        events: frozenset[str] | None = frozenset(groups_lib.RECORDS.classes)  # as GROUP_GAME says
    else:
        events = registry.by_kind(kind)[1].events
    if events is None:
        return None
    return events | {store.UNDO} | settle_up.EVENT_KINDS


def _shaped(game: Mapping[str, Any]) -> bool:
    tokens = [game.get("keeper_token"), game.get("watch_token")]
    group = game.get("group")
    players = game.get("players")
    events = game.get("events")
    return (
        isinstance(game.get("kind"), str)
        and all(isinstance(t, str) and store.is_token(t) for t in tokens) and tokens[0] != tokens[1]
        and (group is None or (isinstance(group, str) and store.is_token(group)))
        and isinstance(players, list) and len(players) <= store.MAX_PLAYERS
        and all(isinstance(p, str) and 0 < len(p) <= NAME_MAX for p in players)
        and isinstance(game.get("rules"), dict) and isinstance(game.get("setup"), dict)
        and _moment(game.get("created_at")) is not None and _moment(game.get("updated_at")) is not None
        and isinstance(events, list)
        and all(isinstance(e, dict) and e.get("seq") == i and isinstance(e.get("kind"), str)
                and len(e["kind"]) <= 30 and isinstance(e.get("payload"), dict)
                and _moment(e.get("created_at")) is not None
                for i, e in enumerate(events, start=1))
    )


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Imported:
    """What an import did: the file's first game (the group of a group's file), how many of its
    games are new here, and how many were given fresh links because the file's were weaker than
    the server's (:func:`referee.web.store.strong_token`)."""

    first: Game
    new: int
    renewed: int


IMPORT_WAIT_SECONDS = 120.0
"""The longest an import waits for other imports to finish (imports are stored one at a time, so
that the same file sent at once is stored once and its copies answered with the games it made):
three files of 2,000 games sent at once took 45 s in all on a loaded 2-core machine.  Waiting
holds one server thread, not the database (gunicorn's gthread workers and waitress have no
per-request time limit)."""
_ONE_AT_A_TIME = threading.Lock()  # this process's imports
_IMPORT_LOCK_KEY = int.from_bytes(b"t13-imp", "big")
"""The PostgreSQL advisory lock every process's imports take (tried, never waited for in the
database: a wait there would meet the statement timeout)."""


def renewed_token(secret: str, role: str, keeper: str, watch: str) -> str:
    """The server's token for a file's weak ``role`` token (keeper or watch) of the game with these
    tokens: derived from the server's secret (HMAC-SHA256), so as unguessable as one drawn at
    random, and the same every time the same file is imported here (a second import finds the
    games of the first).

    >>> one = renewed_token("s3cret", "keeper", "a", "b")
    >>> one == renewed_token("s3cret", "keeper", "a", "b"), one == renewed_token("other", "keeper", "a", "b")
    (True, False)
    >>> store.strong_token(one), len(one)
    (True, 32)
    """
    attempt = 0
    while True:
        digest = hmac.new(secret.encode(), f"{role}\0{keeper}\0{watch}\0{attempt}".encode(), hashlib.sha256).digest()
        token = base64.urlsafe_b64encode(digest[:24]).decode()
        if store.strong_token(token):
            return token
        attempt += 1


def _with_strong_tokens(games: list[Mapping[str, Any]], secret: str
                        ) -> tuple[list[dict[str, Any]], int, dict[str, str]]:
    """The file's games, each weak token replaced by :func:`renewed_token` (a group's keeper token
    in its games' ``group`` too, a sheet's in the tables it started); how many games were given
    new tokens; and each weak token's new one."""
    renamed: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    renewed = 0
    for data in games:
        game = dict(data)
        keeper, watch = game["keeper_token"], game["watch_token"]
        changed = False
        for role in ("keeper", "watch"):
            token = game[f"{role}_token"]
            if not store.strong_token(token):
                game[f"{role}_token"] = renamed[token] = renewed_token(secret, role, keeper, watch)
                changed = True
        renewed += changed
        out.append(game)
    for game in out:
        if game["group"] in renamed:
            game["group"] = renamed[game["group"]]
        if game["kind"] == TABLE_KIND and any(game["setup"].get(k) in renamed for k in ("sheet", "sheet_watch")):
            game["setup"] = {k: renamed.get(v, v) if k in ("sheet", "sheet_watch") and isinstance(v, str) else v
                             for k, v in game["setup"].items()}
    return out, renewed, renamed


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


_IN_FILE = -10**9
"""A sheet's followed table that is the file's game ``j`` is named ``_IN_FILE - j`` while the
file is replayed, its id here once stored (:func:`_store`)."""


def _table_references(games: list[dict[str, Any]], version: int, renamed: Mapping[str, str]) -> list[dict[str, Any]]:
    """The file's games with each sheet's followed tables named as the replay and :func:`_store`
    take them: a table of the file ``_IN_FILE - j`` (its number in the file, from 0), a table
    stored here its id, any other -1, -2… (never a game's id).  A file of version 2 names them by
    watch token; one of version 1 by the ids of the server that wrote it (:func:`_old_table_ids`)."""
    by_watch = {g["watch_token"]: j for j, g in enumerate(games) if g["kind"] == TABLE_KIND}
    old_ids = _old_table_ids(games) if version < 2 else {}
    named = [t for g in games for t in _table_ids(g) if isinstance(t, str)]
    here: dict[str, int] = {}
    for chunk in range(0, len(named), 500):
        for token, table_id in db.session.execute(
                select(Token.token, Game.id).join(Game, Game.id == Token.game_id)
                .where(Token.token.in_([renamed.get(t, t) for t in named[chunk:chunk + 500]]),
                       Game.kind == TABLE_KIND)):
            here[token] = table_id
    out: list[dict[str, Any]] = []
    for game in games:
        named_here = _table_ids(game)
        kept = [t for t in named_here if version >= 2 and isinstance(t, int) and not isinstance(t, bool)
                and _IN_FILE < t < 0]  # a table the writing server no longer had: kept so
        gone = min(kept, default=0)
        targets: dict[Any, int] = {}
        for table in named_here:
            key = renamed.get(table, table) if isinstance(table, str) else table
            if table in kept:
                continue
            if isinstance(key, str) and key in by_watch:
                targets[table] = _IN_FILE - by_watch[key]
            elif isinstance(key, str) and key in here:
                targets[table] = here[key]
            elif version < 2 and _is_id(key) and key in old_ids:
                targets[table] = _IN_FILE - old_ids[key]
            elif isinstance(key, str | int) and not isinstance(key, bool):
                gone -= 1
                targets[table] = gone
        out.append(_with_tables(game, _renamer(targets)))
    return out


def _renamer(targets: Mapping[Any, int]) -> Callable[[Any], Any]:
    """A table's name in a sheet's record → its name in ``targets`` (itself when not there)."""
    def name(table: Any) -> Any:
        if isinstance(table, str | int) and not isinstance(table, bool):
            return targets.get(table, table)
        return table
    return name


def _old_table_ids(games: list[dict[str, Any]]) -> dict[int, int]:
    """A file of version 1: each table id its sheets name (the writing server's) → the table's
    number in the file, as the file tells it: a table started from a sheet (its ``setup`` names
    the sheet) is the one the sheet's follow record was written with (the nearest in time); a
    sheet made for a table ("Score this hand": its ``setup`` names the id) has the table's players
    and was made after it (the latest such); a table followed by its link, the only table of the
    sheet's players made before the follow.  An id not found so is a table not in the file."""
    old = _OldTables(games)
    old.started_from_sheets()
    old.made_for_tables()
    old.followed_by_link()
    return old.found


class _OldTables:
    """:func:`_old_table_ids`'s three readings, in order, each taking the tables it matched."""

    def __init__(self, games: list[dict[str, Any]]) -> None:
        self.games = games
        self.tables = [j for j, g in enumerate(games) if g["kind"] == TABLE_KIND]
        self.sheets = {g["keeper_token"]: i for i, g in enumerate(games) if g["kind"] == SHEET_KIND}
        self.found: dict[int, int] = {}
        self.taken: set[int] = set()

    @staticmethod
    def when(game: Mapping[str, Any]) -> datetime:
        moment = _moment(game["created_at"])
        assert moment is not None  # read_file checked it
        return moment

    def _match(self, old_id: int, table: int) -> None:
        self.found[old_id] = table
        self.taken.add(table)

    def _before(self, sheet: int, moment: datetime) -> list[int]:
        """The tables not matched yet with the sheet's players, made at ``moment`` or before."""
        players = sorted(self.games[sheet]["players"])
        return [j for j in self.tables if j not in self.taken and sorted(self.games[j]["players"]) == players
                and self.when(self.games[j]) <= moment]

    def started_from_sheets(self) -> None:
        for j in self.tables:
            started = self.games[j]["setup"].get("sheet")
            i = self.sheets.get(started) if isinstance(started, str) else None
            if i is None:
                continue
            follows = [e for e in self.games[i]["events"] if e["kind"] == TableFollowed.action
                       and _is_id(e["payload"].get("table")) and e["payload"]["table"] not in self.found]
            if follows:
                nearest = min(follows, key=lambda e: abs(self.when(e) - self.when(self.games[j])))
                self._match(nearest["payload"]["table"], j)

    def made_for_tables(self) -> None:
        for i in self.sheets.values():
            made_for = self.games[i]["setup"].get("table")
            if not _is_id(made_for) or made_for in self.found:
                continue
            before = self._before(i, self.when(self.games[i]))
            if before:
                self._match(made_for, max(before, key=lambda j: self.when(self.games[j])))

    def followed_by_link(self) -> None:
        for i in self.sheets.values():
            for event in self.games[i]["events"]:
                table = event["payload"].get("table")
                if event["kind"] != TableFollowed.action or not _is_id(table) or table in self.found:
                    continue
                before = self._before(i, self.when(event))
                if len(before) == 1:
                    self._match(table, before[0])


def _built(number: int, data: Mapping[str, Any]) -> Game:
    """A game of the file, not yet stored (its group is set when it is), replayed by its game's
    rules (refused with a sentence otherwise); imported now, so used today for retention."""
    game = Game(kind=data["kind"], rules=data["rules"], setup=data["setup"], version=len(data["events"]),
                keeper_token=data["keeper_token"], watch_token=data["watch_token"],
                created_at=_moment(data["created_at"]), updated_at=_moment(data["updated_at"]),
                touched_hour=this_hour())
    game.players = [Player(seat=i, name=n) for i, n in enumerate(data["players"])]
    game.events = [Event(seq=e["seq"], kind=e["kind"], payload=e["payload"], created_at=_moment(e["created_at"]))
                   for e in data["events"]]
    try:
        _replays(game)
    except (RefereeError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise _refuse(message("Game {n} of the file cannot be replayed by its game's rules ({reason}).",
                              n=number, reason=str(exc)[:120])) from None
    return game


def import_file(raw: bytes, *, secret: str, allow_new: Callable[[int], None] | None = None) -> Imported:
    """Store the file's games (one transaction) and say what was done (:class:`Imported`); a game
    already here (by its tokens) is kept, so the same file twice stores nothing twice, even sent at
    once (imports run one at a time: :func:`_one_import_at_a_time`).

    Every game is read and replayed before anything is written.  ``secret`` derives the fresh
    tokens of weak ones (:func:`renewed_token`); ``allow_new(n)`` is asked before ``n`` new games
    are stored (the new-game limit: it raises to refuse)."""
    version, read = _read_document(raw)
    games, renewed, renamed = _with_strong_tokens(read, secret)
    games = _table_references(games, version, renamed)
    tokens = [t for g in games for t in (g["keeper_token"], g["watch_token"])]
    if len(set(tokens)) != len(tokens):
        raise _refuse(message("This file holds the same game twice."))
    built = [_built(number, data) for number, data in enumerate(games, start=1)]
    with _one_import_at_a_time():
        try:
            first, new = _store(games, built, tokens, allow_new)
        except IntegrityError:  # a game of the file stored meanwhile by a start or another server
            db.session.rollback()
            raise _refuse(message("A game of the file has a link that another game on this server already has.")) from None
    return Imported(first, new, renewed)


def _store(games: list[dict[str, Any]], built: list[Game], tokens: list[str],
           allow_new: Callable[[int], None] | None) -> tuple[Game, int]:
    found: dict[str, Game] = {}
    for chunk in range(0, len(tokens), 500):
        part = tokens[chunk:chunk + 500]
        for game in db.session.scalars(select(Game).join(Token, Token.game_id == Game.id).where(Token.token.in_(part))):
            found[game.keeper_token] = game
            found[game.watch_token] = game
    fresh = sum(1 for data in games if data["keeper_token"] not in found)
    if fresh and allow_new is not None:
        allow_new(fresh)
    made: dict[str, Game] = {}
    new = 0
    for number, (data, game) in enumerate(zip(games, built, strict=True), start=1):
        here = found.get(data["keeper_token"])
        if here is not None:
            if here.watch_token != data["watch_token"] or here.kind != data["kind"]:
                raise _refuse(message("Game {n} of the file has a link that another game on this server "
                                      "already has.", n=number))
            owner = made.get(data["group"]) if data["group"] else None
            if owner is not None and here.group_id is None:  # imported alone before: now in its group
                here.group_id = owner.id
            made[data["keeper_token"]] = here
            continue
        if data["watch_token"] in found:
            raise _refuse(message("Game {n} of the file has a link that another game on this server "
                                  "already has.", n=number))
        group = data["group"]
        owner = made.get(group) if group else None
        if group and owner is None:
            owner = store.keeper_group(group)
        game.group_id = owner.id if owner is not None else None
        db.session.add(game)
        if game.kind == store.GROUP:
            db.session.flush()  # its id, for the games of the group that follow
        made[data["keeper_token"]] = game
        new += 1
    _link_tables(games, built, made)
    db.session.commit()
    return made[games[0]["keeper_token"]], new


def _link_tables(games: list[dict[str, Any]], built: list[Game], made: Mapping[str, Game]) -> None:
    """Each new sheet of the file named with the ids its followed tables of the file have here
    (``_IN_FILE - j`` while replayed: :func:`_table_references`), and a sheet made for a table
    ("Score this hand") made for it here too (``Game.made_for``: the table's hands are scored on
    it, not on a sheet made again)."""
    sheets = [(data, game) for data, game in zip(games, built, strict=True)
              if game.kind == SHEET_KIND and made.get(data["keeper_token"]) is game
              and any(isinstance(t, int) and t <= _IN_FILE for t in _table_ids(data))]
    if not sheets:
        return
    db.session.flush()  # the ids of the file's tables

    def here(table: Any) -> Any:
        if isinstance(table, int) and not isinstance(table, bool) and table <= _IN_FILE:
            return made[games[_IN_FILE - table]["keeper_token"]].id
        return table

    for data, game in sheets:
        linked = _with_tables(data, here)
        game.setup = linked["setup"]
        for event, record in zip(game.events, linked["events"], strict=True):
            if record["payload"] != event.payload:
                event.payload = record["payload"]
        table = game.setup.get("table")
        if _is_id(table) and game.made_for is None:
            key = f"{SHEET_KIND}:{table}"
            if db.session.scalar(select(Game.id).where(Game.made_for == key)) is None:
                game.made_for = key
                db.session.flush()


@contextlib.contextmanager
def _one_import_at_a_time() -> Iterator[None]:
    """One import at a time: this process's imports in turn (a lock in Python, not a wait in the
    database), and across processes the database's own: on PostgreSQL an advisory lock tried
    (never waited for in the database) until :data:`IMPORT_WAIT_SECONDS`; on SQLite its one
    write lock, taken first (a busy database is tried again meanwhile).  Held until the caller's
    commit or rollback; the same file's copies then find its games stored."""
    deadline = time.monotonic() + IMPORT_WAIT_SECONDS
    if not _ONE_AT_A_TIME.acquire(timeout=IMPORT_WAIT_SECONDS):
        raise OperationalError("another import is still being stored", None, Exception("import wait"))
    try:
        dialect = db.engine.dialect.name
        while True:
            try:
                if dialect == "postgresql":
                    taken = db.session.scalar(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": _IMPORT_LOCK_KEY})
                elif dialect == "sqlite":
                    db.session.execute(update(Game).where(false()).values(version=Game.version))
                    taken = True
                else:
                    taken = True
            except OperationalError:
                db.session.rollback()
                if time.monotonic() > deadline:
                    raise
                taken = False
            if taken:
                break
            db.session.rollback()
            if time.monotonic() > deadline:
                raise OperationalError("another import is still being stored", None, Exception("import wait"))
            time.sleep(0.1)
        try:
            yield
        except BaseException:
            db.session.rollback()
            raise
    finally:
        _ONE_AT_A_TIME.release()


def _replays(game: Game) -> None:
    """Replay a game read from a file through its state machine (raises what the replay raises)."""
    if game.kind == store.GROUP:
        evenings.build_group(game)
        return
    evenings.results_of(game)  # the replay, kept for the group's pages
