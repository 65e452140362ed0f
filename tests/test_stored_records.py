"""Stored records, for every followed game of the registry (``tests/games.py``, the toy's included):

* one convention: an event's kind is its record's ``action`` and its payload the record's whole
  ``to_dict()`` (``Done.of``), read back by ``store.records_of``;
* every stored log replays (the page opens from it, in a request of its own);
* a stored log that no longer replays is the server's fault: a 500 whose log names the game,
  never a 422 as if the keeper had typed something wrong;
* a write opens its game once (one lookup by token per request).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event as sa_event

from referee.errors import RefereeError
from referee.text import message
from referee.web.extensions import db
from referee.web.models import Event
from referee.web.store import find_by_token
from referee.web.tables import FollowedGame
from tests.games import IDS, ROWS, Row


@pytest.fixture(params=ROWS, ids=IDS)
def game(request) -> Row:  # type: ignore[no-untyped-def]
    return request.param


def stored(app) -> list[Event]:  # type: ignore[no-untyped-def]
    with app.app_context():
        events = db.session.query(Event).order_by(Event.id).all()
        db.session.expunge_all()
        return events


def test_a_write_stores_its_record_whole_and_the_log_replays(app, client, game) -> None:
    keeper, watch = game.start(client)
    assert game.write(client, keeper, 0).status_code == 303
    events = stored(app)
    assert events, "the legal write stored nothing"
    last = events[-1]
    assert last.payload.get("action") == last.kind, (
        f"{game.kind} stored {last.kind!r} with a payload whose action is {last.payload.get('action')!r}: "
        "store the record's whole to_dict() (Done.of)")
    for token in (keeper, watch):  # each a request of its own: the state is built from the stored log
        assert client.get(game.page(token)).status_code == 200


@contextmanager
def build_raising(followed: FollowedGame[Any], exc: Exception) -> Iterator[None]:
    """The game's rules no longer replay its stored records (as after a bad migration)."""
    build = followed.build

    def broken(stored_game: Any) -> Any:
        raise exc

    object.__setattr__(followed, "build", broken)  # a frozen dataclass
    try:
        yield
    finally:
        object.__setattr__(followed, "build", build)


@pytest.mark.parametrize("failure", [RefereeError(message("Not your turn.")), KeyError("seat"), ValueError("bad")],
                         ids=["refusal", "key", "value"])
def test_a_log_that_no_longer_replays_is_a_logged_500_naming_the_game(app, client, game, failure, caplog) -> None:
    keeper, _ = game.start(client)
    assert game.write(client, keeper, 0).status_code == 303
    with app.app_context():
        found = find_by_token(keeper)
        assert found is not None
        game_id = found.game.id
    caplog.set_level(logging.ERROR)
    with build_raising(game.followed, failure):
        page = client.get(game.page(keeper))
        write = game.write(client, keeper, 1)
    assert page.status_code == 500, page.status_code
    assert write.status_code == 500, write.status_code
    assert f"the stored {game.kind} game {game_id} (version 1) no longer replays" in caplog.text
    assert len(stored(app)) == 1  # nothing stored by the write


def test_a_damaged_stored_record_is_a_500_never_a_refusal(app, client, game, caplog) -> None:
    """A record changed by hand in the database (every text of its payload unreadable)."""
    keeper, _ = game.start(client)
    assert game.write(client, keeper, 0).status_code == 303
    with app.app_context():
        row = db.session.query(Event).order_by(Event.id.desc()).first()
        assert row is not None
        row.payload = {k: ("1x 1x" if isinstance(v, str) and k != "action" else -7 if isinstance(v, int) else v)
                       for k, v in row.payload.items()}
        db.session.commit()
    caplog.set_level(logging.ERROR)
    response = client.get(game.page(keeper))
    assert response.status_code in (200, 500)  # a damage the rules may not even see
    assert response.status_code != 422
    if response.status_code == 500:
        assert f"the stored {game.kind} game" in caplog.text


@contextmanager
def lookups(app) -> Iterator[list[str]]:  # type: ignore[no-untyped-def]
    """The statements that look a game up by its share link's token."""
    seen: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if "WHERE games.keeper_token = " in statement:
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    sa_event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa_event.remove(engine, "before_cursor_execute", count)


def test_a_write_looks_its_game_up_once(app, client, game) -> None:
    keeper, _ = game.start(client)
    with lookups(app) as seen:
        assert game.write(client, keeper, 0).status_code == 303
    assert len(seen) == 1, f"{game.kind}'s write looked its game up {len(seen)} times"
