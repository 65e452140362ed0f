"""A sheet, a table or a whole group as one JSON file, and back into any Thirteen server.

The file holds each game as it is stored: its kind, share-link tokens, players, house rules,
setup and every event (undos included: the same records its state machine replays), with
:data:`FORMAT` and :data:`VERSION`.  Importing keeps the tokens, so the links still open the
games on the new server, and a second import of the same file finds the games of the first
and makes nothing twice.  Exporting what was imported gives the same file again.

A file is refused with a sentence (:class:`ImportRefused`) when it is not one of ours, comes
from a newer version, or holds a game its game's state machine cannot replay; nothing of it is
stored then.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import or_, select

from referee.errors import RefereeError
from referee.text import Message, message
from referee.web import registry, store
from referee.web.extensions import db
from referee.web.groups import evenings
from referee.web.models import NAME_MAX, Event, Game, Player

FORMAT = "thirteen-games"
VERSION = 1
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


def game_record(game: Game, group: Game | None = None) -> dict[str, Any]:
    """One stored game as the file holds it."""
    return {
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


def export(games: Sequence[Game], group: Game | None = None) -> bytes:
    """The file of ``games`` (the group's own game first when a whole group is exported)."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "games": [game_record(g, group if g is not group else None) for g in games],
    }
    return (json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()


def export_group(group: Game) -> bytes:
    return export([group, *evenings.group_games(group)], group)


# --------------------------------------------------------------------------- reading a file


def _refuse(reason: Message) -> ImportRefused:
    return ImportRefused(reason, field="file")


def read_file(raw: bytes) -> list[Mapping[str, Any]]:
    """The games of a file, checked for shape (not yet replayed)."""
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
        total += len(game["events"])
    if total > MAX_EVENTS:
        raise _refuse(message("This file holds more than {n} entries: too many to import at once.", n=MAX_EVENTS))
    return games


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


def import_file(raw: bytes) -> tuple[Game, int]:
    """Store the file's games (one transaction) and answer the first game (the group of a
    group's file) and how many games were new; a game already here (by its tokens) is kept."""
    games = read_file(raw)
    tokens = [t for g in games for t in (g["keeper_token"], g["watch_token"])]
    if len(set(tokens)) != len(tokens):
        raise _refuse(message("This file holds the same game twice."))
    found: dict[str, Game] = {}
    for chunk in range(0, len(tokens), 500):
        part = tokens[chunk:chunk + 500]
        for game in db.session.scalars(select(Game).where(
                or_(Game.keeper_token.in_(part), Game.watch_token.in_(part)))):
            found[game.keeper_token] = game
            found[game.watch_token] = game
    made: dict[str, Game] = {}
    new = 0
    for number, data in enumerate(games, start=1):
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
        game = Game(kind=data["kind"], rules=data["rules"], setup=data["setup"], version=len(data["events"]),
                    keeper_token=data["keeper_token"], watch_token=data["watch_token"],
                    created_at=_moment(data["created_at"]), updated_at=_moment(data["updated_at"]),
                    group_id=owner.id if owner is not None else None)
        game.players = [Player(seat=i, name=n) for i, n in enumerate(data["players"])]
        game.events = [Event(seq=e["seq"], kind=e["kind"], payload=e["payload"], created_at=_moment(e["created_at"]))
                       for e in data["events"]]
        try:
            _replays(game)
        except (RefereeError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            db.session.rollback()
            raise _refuse(message("Game {n} of the file cannot be replayed by its game's rules ({reason}).",
                                  n=number, reason=str(exc)[:120])) from None
        db.session.add(game)
        db.session.flush()  # its id, for the games of the group that follow
        made[data["keeper_token"]] = game
        new += 1
    db.session.commit()
    return made[games[0]["keeper_token"]], new


def _replays(game: Game) -> None:
    """Replay a game read from a file through its state machine (raises what the replay raises)."""
    if game.kind == store.GROUP:
        evenings.build_group(game)
        return
    evenings.results_of(game)  # the replay, kept for the group's pages
