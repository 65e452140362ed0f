"""What a poll costs and what it answers: an unchanged poll is one indexed lookup and no
template; a poll with news is rendered once per version and shared only with the same link."""

from __future__ import annotations

import pytest
from flask import template_rendered
from sqlalchemy import event

from referee.web import news
from referee.web.extensions import db
from tests.games import IDS, ROWS, row

HX = {"HX-Request": "true"}
game_param = pytest.mark.parametrize("game", ROWS, ids=IDS)
THREE_THIRTEEN = row("three_thirteen")


@pytest.fixture(autouse=True)
def _empty_news():  # type: ignore[no-untyped-def]
    news.forget_all()
    yield
    news.forget_all()


class Counted:
    """The SQL statements and templates one request costs."""

    def __init__(self, app) -> None:  # type: ignore[no-untyped-def]
        self.app = app
        self.statements: list[str] = []
        self.templates: list[str] = []

    def __enter__(self) -> Counted:
        with self.app.app_context():
            self.engine = db.engine
        event.listen(self.engine, "before_cursor_execute", self._statement)
        template_rendered.connect(self._template, self.app)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)
        template_rendered.disconnect(self._template, self.app)

    def _statement(self, conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        self.statements.append(statement)

    def _template(self, sender, template, context, **extra) -> None:  # type: ignore[no-untyped-def]
        self.templates.append(template.name)


@game_param
def test_an_unchanged_poll_is_one_indexed_lookup_and_no_template(app, client, game):
    keeper, watch = game.create(client)
    for token in (keeper, watch):
        with Counted(app) as cost:
            response = client.get(game.page(token), query_string={"since": "0"}, headers=HX)
        assert response.status_code == 204
        assert len(cost.statements) == 1, cost.statements
        assert cost.statements[0].lstrip().upper().startswith("SELECT GAMES.VERSION")
        assert "keeper_token" in cost.statements[0] and "watch_token" in cost.statements[0]  # unique indexes
        assert cost.templates == []


@game_param
def test_a_poll_with_news_is_rendered_once_for_every_phone_of_the_link(app, client, game):
    keeper, watch = game.create(client)
    assert game.write(client, keeper, 0).status_code in (200, 303)
    first = client.get(game.page(watch), query_string={"since": "0"}, headers=HX)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-store"
    with Counted(app) as cost:
        again = [client.get(game.page(watch), query_string={"since": "0"}, headers=HX) for _ in range(5)]
    assert all(r.data == first.data for r in again)
    assert all(r.headers["Cache-Control"] == "no-store" and r.headers["Content-Type"] == first.headers["Content-Type"]
               for r in again)
    assert cost.templates == []


@game_param
def test_a_shared_answer_never_crosses_links_versions_or_kinds_of_request(client, game):
    keeper, watch = game.create(client)
    assert game.write(client, keeper, 0).status_code in (200, 303)
    as_keeper = client.get(game.page(keeper), query_string={"since": "0"}, headers=HX).get_data(as_text=True)
    as_watcher = client.get(game.page(watch), query_string={"since": "0"}, headers=HX).get_data(as_text=True)
    assert keeper in as_keeper and keeper not in as_watcher  # a watcher is never handed the keeper link
    whole = client.get(game.page(watch), query_string={"since": "0"}).get_data(as_text=True)
    assert "<html" in whole and "<html" not in as_watcher
    assert game.undo(client, keeper, 1).status_code in (200, 303)
    later = client.get(game.page(watch), query_string={"since": "1"}, headers=HX).get_data(as_text=True)
    assert later != as_watcher and 'since=2' in later.replace("&amp;", "&")


def test_a_shared_answer_keeps_the_address_it_was_opened_at(client):
    keeper, watch = THREE_THIRTEEN.create(client)
    assert THREE_THIRTEEN.write(client, keeper, 0).status_code == 303
    one = client.get(THREE_THIRTEEN.page(keeper), query_string={"since": "0"},
                     base_url="http://192.168.1.20:8000").get_data(as_text=True)
    other = client.get(THREE_THIRTEEN.page(keeper), query_string={"since": "0"},
                       base_url="http://10.0.0.7:8000").get_data(as_text=True)
    assert "http://192.168.1.20:8000/" in one and "http://10.0.0.7:8000/" in other
