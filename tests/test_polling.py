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
        assert response.headers["Cache-Control"] == "no-store" and "HX-Request" in response.headers["Vary"]
        assert "Content-Security-Policy" in response.headers
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
    assert len(cost.statements) == 5  # the version lookup alone: the game is not read again


@game_param
def test_a_shared_answer_is_compressed_once_and_handed_out_as_is(app, client, game, monkeypatch):
    keeper, watch = game.create(client)
    assert game.write(client, keeper, 0).status_code in (200, 303)
    compressed: list[int] = []
    real = news.brotli.compress
    monkeypatch.setattr(news.brotli, "compress", lambda data, **kw: compressed.append(len(data)) or real(data, **kw))
    answers = [client.get(game.page(watch), query_string={"since": "0"}, headers={**HX, "Accept-Encoding": "br"})
               for _ in range(4)]
    assert len(compressed) == 1
    assert all(a.headers["Content-Encoding"] == "br" and a.data == answers[0].data for a in answers)
    assert "Accept-Encoding" in answers[0].headers["Vary"] and "HX-Request" in answers[0].headers["Vary"]
    plain = client.get(game.page(watch), query_string={"since": "0"}, headers=HX)
    assert "Content-Encoding" not in plain.headers and news.brotli.decompress(answers[0].data) == plain.data


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


@game_param
def test_a_poll_with_news_after_the_first_phones_is_answered_before_flask_in_each_phones_language(app, client, game):
    from flask import request_started

    keeper, watch = game.create(client)
    assert game.write(client, keeper, 0).status_code in (200, 303)
    english = client.get(game.page(watch), query_string={"since": "0"}, headers=HX)
    seen: list[str] = []

    def started(sender, **extra) -> None:  # type: ignore[no-untyped-def]
        seen.append("flask")

    request_started.connect(started, app)
    try:
        again = [client.get(game.page(watch), query_string={"since": "0"}, headers=HX) for _ in range(3)]
        spanish = client.get(game.page(watch), query_string={"since": "0"}, headers={**HX, "Accept-Language": "es"})
    finally:
        request_started.disconnect(started, app)
    assert all(a.status_code == 200 and a.data == english.data and a.headers == english.headers for a in again)
    assert seen == ["flask"]  # only the Spanish phone's first poll reached the app
    assert spanish.status_code == 200 and spanish.data != english.data  # its own language, not the English answer
