"""A game started offline: the server takes it with the tokens the phone made (its share links
were already on the phone's pages), once however often the form is sent, and refuses with a
clear 409 a token another game already has (the phone then picks another).  Over every
followed game, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
import secrets

import pytest

from referee.web.extensions import db
from referee.web.models import Game as GameRow
from referee.web.store import find_by_token
from tests.games import IDS, ROWS, Row


@pytest.fixture(params=ROWS, ids=IDS)
def game(request) -> Row:  # type: ignore[no-untyped-def]
    return request.param


def phone_token() -> str:
    return secrets.token_urlsafe(24)  # what offline-start.js makes: 32 URL-safe characters


def games_of(app, kind: str) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return db.session.query(GameRow).filter(GameRow.kind == kind).count()


def started(game: Row, client, **fields):  # type: ignore[no-untyped-def]
    return client.post(f"{game.prefix}/new", data={**game.new, **fields})


def test_a_game_started_with_the_phones_tokens_keeps_them_and_the_same_form_twice_makes_one_game(any_db_app, game):
    client = any_db_app.test_client()
    keeper, watch, write = phone_token(), phone_token(), secrets.token_hex(16)
    first = started(game, client, keeper_token=keeper, watch_token=watch, write=write)
    again = started(game, client, keeper_token=keeper, watch_token=watch, write=write)  # the outbox sends it again
    assert first.status_code == again.status_code == 303, first.get_data(as_text=True)[:400]
    assert first.headers["Location"].endswith(f"/g/{keeper}") and again.headers["Location"] == first.headers["Location"]
    with any_db_app.app_context():
        as_keeper, as_watcher = find_by_token(keeper), find_by_token(watch)
        assert as_keeper is not None and as_watcher is not None
        assert as_keeper.role == "keeper" and as_watcher.role == "watcher"
        assert as_keeper.game.id == as_watcher.game.id
    assert games_of(any_db_app, game.kind) == 1
    assert client.get(f"{game.prefix}/g/{watch}").status_code == 200  # watchers see it from then on


def test_a_token_already_another_games_is_a_409_and_starts_nothing(any_db_app, game):
    client = any_db_app.test_client()
    taken, _ = game.start(client)  # another game's keeper link
    refused = started(game, client, keeper_token=taken, watch_token=phone_token(), write=secrets.token_hex(16))
    assert refused.status_code == 409
    assert "already another game" in refused.get_data(as_text=True)
    assert games_of(any_db_app, game.kind) == 1
    _, other_watch = game.start(client)
    refused = started(game, client, keeper_token=phone_token(), watch_token=other_watch, write=secrets.token_hex(16))
    assert refused.status_code == 409 and games_of(any_db_app, game.kind) == 2
    # The phone picks another and sends again, with the same write id: one new game.
    write, keeper = secrets.token_hex(16), phone_token()
    assert started(game, client, keeper_token=taken, watch_token=phone_token(), write=write).status_code == 409
    assert started(game, client, keeper_token=keeper, watch_token=phone_token(), write=write).status_code == 303
    assert games_of(any_db_app, game.kind) == 3


@pytest.mark.parametrize(("fields", "named"), [
    ({"keeper_token": "short"}, "keeper_token"),
    ({"watch_token": "x" * 31 + "!"}, "watch_token"),
    ({"keeper_token": "a" * 33}, "keeper_token"),
], ids=["short", "not-url-safe", "long"])
def test_a_token_that_is_not_32_url_safe_characters_is_a_400_naming_the_field(app, client, game, fields, named):
    response = started(game, client, **fields)
    assert response.status_code == 400
    assert named in response.get_data(as_text=True)
    assert games_of(app, game.kind) == 0


def test_the_same_token_for_keeper_and_watcher_is_a_400(app, client, game):
    token = phone_token()
    response = started(game, client, keeper_token=token, watch_token=token)
    assert response.status_code == 400 and "must differ" in response.get_data(as_text=True)
    assert games_of(app, game.kind) == 0


def test_a_form_without_the_phones_tokens_gets_the_servers(app, client, game):
    keeper, watch = game.start(client)
    assert re.fullmatch(r"[\w-]{32}", keeper) and re.fullmatch(r"[\w-]{32}", watch)
