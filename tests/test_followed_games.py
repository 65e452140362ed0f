"""What every followed game does the same way on the web (``referee/web/tables.py``), checked
once over the followed games: a stale write, a refused action, cards that cannot be read, undo
with nothing to undo, a write through a watch link, the poll, and the cache headers.

The rows are the registry's followed games (``tests/games.py``; the toy game's included): each
game's entry carries a worked example of its forms (how to start one, a write the rules accept,
a write they refuse with what the phone typed).  A fourth game gets its rows from its entry.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import pytest

from referee.web.extensions import db
from referee.web.models import Event
from referee.web.models import Game as GameRow
from referee.web.store import find_by_token
from referee.web.tables import POLL_SECONDS
from tests.games import IDS, ROWS, Row

GAMES = ROWS

HTMX = {"HX-Request": "true"}


@pytest.fixture(params=GAMES, ids=IDS)
def game(request) -> Row:  # type: ignore[no-untyped-def]
    return request.param


def text(response) -> str:  # type: ignore[no-untyped-def]
    return html.unescape(response.get_data(as_text=True))


def refusal(response) -> str:  # type: ignore[no-untyped-def]
    """A write the referee refused (422, nothing stored): the page that says why."""
    assert response.status_code == 422, text(response)
    return text(response)


def events(app) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return db.session.query(Event).count()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_a_stale_write_is_409_with_the_fresh_state_and_keeps_what_was_typed(app, client, game, headers):
    keeper, _ = game.start(client)
    assert game.post(client, keeper, game.legal, 0).status_code == 303  # now at version 1
    response = game.post(client, keeper, game.refused, 0, headers=headers)  # this phone saw version 0
    assert response.status_code == 409
    body = text(response)
    assert "changed on another phone" in body
    assert f'value="{game.typed}"' in body
    assert 'name="version" value="1"' in body  # the fresh state, ready to send again
    undo = client.post(f"{game.prefix}/g/{keeper}/undo", data={"version": "0"}, headers=headers)
    assert undo.status_code == 409 and "changed on another phone" in text(undo)
    assert events(app) == 1


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_an_action_the_rules_refuse_is_422_changes_nothing_and_keeps_what_was_typed(app, client, game, headers):
    keeper, _ = game.start(client)
    body = refusal(game.post(client, keeper, game.refused, 0, headers=headers))
    assert f'value="{game.typed}"' in body
    assert 'role="alert"' in body
    assert events(app) == 0


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_cards_the_referee_cannot_read_are_the_same_refusal_with_the_notation_sentence(app, client, game, headers):
    keeper, _ = game.start(client)
    body = refusal(game.post(client, keeper, game.unreadable, 0, headers=headers))
    assert "'1x' at position 3 is not a card" in body
    assert 'value="' + next(v for k, v in game.unreadable[1].items() if "cards" in k) + '"' in body
    assert events(app) == 0


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_undo_with_nothing_to_undo_is_the_same_refusal_in_every_game(app, client, game, headers):
    keeper, _ = game.start(client)
    undo = client.post(f"{game.prefix}/g/{keeper}/undo", data={"version": "0"}, headers=headers)
    assert "There is nothing to undo." in refusal(undo)
    assert events(app) == 0


def test_undo_names_the_move_and_takes_it_back(app, client, game):
    keeper, _ = game.start(client)
    game.post(client, keeper, game.legal, 0)
    page = text(client.get(f"{game.prefix}/g/{keeper}"))
    assert re.search(r"Undo: \w", page)
    response = client.post(f"{game.prefix}/g/{keeper}/undo", data={"version": "1"}, headers=HTMX)
    assert response.status_code == 200 and "Undone: " in text(response)
    with app.app_context():
        assert find_by_token(keeper).game.version == 2
    again = client.post(f"{game.prefix}/g/{keeper}/undo", data={"version": "2"})
    assert again.status_code == 422  # the undo itself is not undone by another undo


def test_an_undo_can_itself_be_taken_back_by_redo_in_every_game(app, client, game):
    """The answer to an undo says what went and offers Redo beside it; Redo stores the change
    again as it was (the page is the page before the undo), and there is then nothing to redo."""
    keeper, watch = game.start(client)
    game.post(client, keeper, game.legal, 0)
    before = re.search(r"Undo: ([^<]+)<", text(client.get(f"{game.prefix}/g/{keeper}"))).group(1)
    undone = text(client.post(f"{game.prefix}/g/{keeper}/undo", data={"version": "1"}, headers=HTMX))
    assert f"Undone: {before}" in undone
    assert re.search(r'<button type="submit" form="redo-form" class="redo" data-action="redo"[^>]*>Redo</button>', undone)
    assert re.search(rf'<form id="redo-form"[^>]* action="[^"]*/g/{keeper}/redo"', undone)
    # Reopened later, the page still offers it, named on its own button.
    assert 'data-action="redo">Redo the last undo</button>' in text(client.get(f"{game.prefix}/g/{keeper}"))
    assert 'data-action="redo"' not in text(client.get(f"{game.prefix}/g/{watch}"))
    redone = client.post(f"{game.prefix}/g/{keeper}/redo", data={"version": "2"}, headers=HTMX)
    assert redone.status_code == 200 and "Redone: " in text(redone)
    assert re.search(r"Undo: ([^<]+)<", text(redone)).group(1) == before
    assert 'data-action="redo"' not in text(redone)
    with app.app_context():
        assert find_by_token(keeper).game.version == 3
    again = client.post(f"{game.prefix}/g/{keeper}/redo", data={"version": "3"}, headers=HTMX)
    assert again.status_code == 422 and "There is nothing to redo." in text(again)
    assert game.post(client, watch, ("/redo", {}), 3).status_code == 403


def test_a_game_with_nothing_entered_offers_no_undo(client, game):
    keeper, _ = game.start(client)
    page = text(client.get(f"{game.prefix}/g/{keeper}"))
    assert 'data-action="undo"' not in page and "Undo last entry" not in page


UNDO_FORM = re.compile(
    r'<form(?: class="[^"]*")? method="post" action="(?P<action>[^"]+)"(?: hx-post="(?P=action)" hx-target="#[\w-]+" hx-swap="outerHTML[^"]*"| hx-boost="true") hx-disabled-elt="[^"]+">\s*'
    r'<input type="hidden" name="version" value="(?P<version>\d+)">\s*'
    r'<button type="submit"(?: class="[^"]*")? data-action="undo">Undo: (?P<what>[^<]+)</button>\s*</form>')


def test_the_undo_button_is_one_form_in_every_game(client, game):
    """One macro (``undo_form`` in partials/followed.html) writes it: the keeper's page posts the
    version it saw to ``undo`` and names the move; a watcher's page has no undo button."""
    keeper, watch = game.start(client)
    game.post(client, keeper, game.legal, 0)
    forms = list(UNDO_FORM.finditer(text(client.get(f"{game.prefix}/g/{keeper}"))))
    assert len(forms) == 1, "exactly one undo form, written by the shared macro"
    assert forms[0]["action"].endswith(f"/g/{keeper}/undo") and forms[0]["version"] == "1"
    assert 'data-action="undo"' not in text(client.get(f"{game.prefix}/g/{watch}"))


@pytest.mark.parametrize("which", ["legal", "refused", "undo"])
def test_a_watch_link_may_not_write(app, client, game, which):
    _, watch = game.start(client)
    what = ("/undo", {}) if which == "undo" else getattr(game, which)
    response = game.post(client, watch, what, 0)
    assert response.status_code == 403
    assert "watch link" in text(response)
    assert events(app) == 0


def test_a_write_without_the_version_it_saw_is_400(client, game):
    keeper, _ = game.start(client)
    path, form = game.legal
    assert client.post(f"{game.prefix}/g/{keeper}{path}", data=form).status_code == 400


@pytest.mark.parametrize("role", ["keeper", "watch"])
def test_a_poll_at_the_current_version_is_an_empty_204(client, game, role):
    keeper, watch = game.start(client)
    token = keeper if role == "keeper" else watch
    page = text(client.get(f"{game.prefix}/g/{token}"))
    assert f'hx-trigger="every {POLL_SECONDS}s, sse:version"' in page and "since=0" in page
    # the page follows its event stream (referee/web/live.py), htmx's SSE extension loaded
    assert f'hx-ext="sse" sse-connect="{game.prefix}/g/{token}/live"' in page
    assert re.search(r'src="/static/vendor/htmx-ext-sse\.min\.[0-9a-f]{12}\.js"', page)
    poll = client.get(f"{game.prefix}/g/{token}?since=0", headers=HTMX)
    assert poll.status_code == 204 and poll.get_data() == b""
    assert poll.headers["Cache-Control"] == "no-store"
    for odd in ("²", "00000000000000000000000", "-0", "0 "):
        assert client.get(f"{game.prefix}/g/{token}", query_string={"since": odd}).status_code == 200
    game.post(client, keeper, game.legal, 0)
    fresh = client.get(f"{game.prefix}/g/{token}?since=0", headers=HTMX)
    assert fresh.status_code == 200 and "<html" not in text(fresh) and "since=1" in text(fresh)


def test_no_page_of_a_game_is_kept_in_a_cache(client, game):
    keeper, watch = game.start(client)
    answers = [client.get(f"{game.prefix}/g/{t}", headers=h) for t in (keeper, watch) for h in ({}, HTMX)]
    answers += [client.get(f"{game.prefix}/g/{keeper}{p}") for p in game.extra_pages]
    answers.append(game.post(client, keeper, game.refused, 0))
    answers.append(game.post(client, keeper, game.legal, 0))
    answers.append(game.post(client, keeper, game.refused, 0))  # stale now
    answers.append(game.post(client, watch, game.legal, 1))  # 403
    assert [a.status_code for a in answers[-4:]] == [422, 303, 409, 403]
    for answer in answers:
        assert answer.status_code < 500
        assert answer.headers.get("Cache-Control") == "no-store", (answer.request.path, answer.status_code)


def test_the_share_box_has_the_watch_link_and_for_a_keeper_the_keeper_link(client, game):
    keeper, watch = game.start(client)
    as_keeper = text(client.get(f"{game.prefix}/g/{keeper}"))
    as_watcher = text(client.get(f"{game.prefix}/g/{watch}"))
    assert as_keeper.count('class="qr"') == 2 and watch in as_keeper and 'id="keeper-link"' in as_keeper
    assert as_watcher.count('class="qr"') == 1 and keeper not in as_watcher


def test_an_unknown_link_is_404_and_another_games_link_too(client, game):
    assert client.get(f"{game.prefix}/g/nope").status_code == 404
    other = next(g for g in GAMES if g is not game)
    keeper, _ = other.start(client)
    assert client.get(f"{game.prefix}/g/{keeper}").status_code == 404


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_a_write_while_the_database_is_down_is_a_503_in_the_players_language_with_no_traceback(
        any_db_app, game, headers, caplog, database_down):
    client = any_db_app.test_client()
    keeper, _ = game.start(client)
    spanish = {**headers, "Accept-Language": "es", "X-Thirteen-Write": "abc123def"}
    with database_down(any_db_app):
        write = game.post(client, keeper, game.legal, 0, headers=spanish)
        page = client.get(f"{game.prefix}/g/{keeper}", headers={"Accept-Language": "es"})
        poll = client.get(f"{game.prefix}/g/{keeper}?since=0", headers={**HTMX, "Accept-Language": "es"})
    for response in (write, page, poll):
        assert response.status_code == 503
        assert response.headers["Retry-After"].isdigit()
    # A write with an id: nothing stored by this request (X-Thirteen-Saved), and sending it again is safe.
    assert write.headers["X-Thirteen-Saved"] == "no" and write.headers["X-Thirteen-Write"] == "abc123def"
    assert "nunca se guarda dos veces" in text(write)
    assert all("así que no se guardó nada" in text(r) for r in (page, poll))
    assert not [r for r in caplog.records if r.exc_info]  # a known outage: one line, no traceback
    assert any("database not answering" in r.getMessage() and "/g/" in r.getMessage() and keeper not in r.getMessage()
               for r in caplog.records)
    assert events(any_db_app) == 0
    # Sent again once the database is back, with the same write id: stored once.
    again = game.post(client, keeper, game.legal, 0, headers=spanish)
    assert again.status_code in (200, 303) and events(any_db_app) == 1


def test_starting_a_game_while_the_database_is_down_is_a_503(any_db_app, game, database_down):
    client = any_db_app.test_client()
    with database_down(any_db_app):
        response = client.post(f"{game.prefix}/new", data=game.new)
    assert response.status_code == 503



def games_of(app, kind: str | None = None) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        query = db.session.query(GameRow)
        return (query.filter(GameRow.kind == kind) if kind else query).count()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_a_write_id_sent_again_at_the_current_version_is_applied_once_and_answered_the_same(
        any_db_app, game, headers):
    client = any_db_app.test_client()
    keeper, _ = game.start(client)
    mine = {**headers, "X-Thirteen-Write": "sameid0001"}
    first = game.post(client, keeper, game.legal, 0, headers=mine)
    again = game.post(client, keeper, game.legal, 1, headers=mine)  # the page had caught up meanwhile
    late = game.post(client, keeper, game.legal, 0, headers=mine)  # the outbox's copy, typed at 0
    assert first.status_code in (200, 303)
    assert again.status_code == late.status_code == first.status_code
    # The same page (a mark of the entry just added may be left out: it was the game as it was then).
    assert urlsplit(again.headers.get("Location", "")).path == urlsplit(first.headers.get("Location", "")).path
    assert events(any_db_app) == 1


def test_a_write_id_sent_again_with_another_body_is_a_409_keeping_what_was_typed(any_db_app, game):
    client = any_db_app.test_client()
    keeper, _ = game.start(client)
    mine = {**HTMX, "X-Thirteen-Write": "sameid0002"}
    assert game.post(client, keeper, game.legal, 0, headers=mine).status_code == 200
    other = game.post(client, keeper, game.refused, 0, headers=mine)
    assert other.status_code == 409
    assert game.typed in text(other)
    assert events(any_db_app) == 1


def test_an_undo_sent_again_is_applied_once(any_db_app, game):
    client = any_db_app.test_client()
    keeper, _ = game.start(client)
    game.post(client, keeper, game.legal, 0)
    game.post(client, keeper, game.legal, 1)  # two moves where the game allows it; one at least
    version = events(any_db_app)
    mine = {**HTMX, "X-Thirteen-Write": "undoid0001"}
    first = client.post(f"{game.prefix}/g/{keeper}/undo", data={"version": str(version)}, headers=mine)
    again = client.post(f"{game.prefix}/g/{keeper}/undo", data={"version": str(version + 1)}, headers=mine)
    assert first.status_code == again.status_code == 200
    assert events(any_db_app) == version + 1


def _starting_form(client, path: str) -> str:  # type: ignore[no-untyped-def]
    page = text(client.get(path))
    return re.search(r'name="write" value="([0-9a-f]{32})"', page).group(1)


def test_a_form_that_starts_a_game_sent_twice_starts_one_game(any_db_app, game):
    client = any_db_app.test_client()
    index = {"tienlen": "/tienlen/new"}.get(game.name, f"{game.prefix}/")
    write = _starting_form(client, index)
    assert write != _starting_form(client, index)  # every showing of the form has its own
    first = client.post(f"{game.prefix}/new", data={**game.new, "write": write})
    again = client.post(f"{game.prefix}/new", data={**game.new, "write": write})
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert games_of(any_db_app) == 1
    other = client.post(f"{game.prefix}/new", data=game.new)  # another form: another game
    assert other.headers["Location"] != first.headers["Location"] and games_of(any_db_app) == 2


@pytest.mark.parametrize("prefix, new", [
    ("/three-thirteen", {"names": ["Ann", "Bao"], "dealer": "0"}),
    ("/tienlen/scores", {"name0": "An", "name1": "Binh", "name2": "Chi"}),
])
def test_a_rematch_sent_twice_is_one_new_game(any_db_app, prefix, new):
    client = any_db_app.test_client()
    keeper = re.search(r"/g/([\w-]+)", client.post(f"{prefix}/new", data=new).headers["Location"]).group(1)
    write = re.search(r'/again">\s*<input type="hidden" name="write" value="([0-9a-f]{32})"',
                      text(client.get(f"{prefix}/g/{keeper}"))).group(1)
    first = client.post(f"{prefix}/g/{keeper}/again", data={"write": write})
    again = client.post(f"{prefix}/g/{keeper}/again", data={"write": write})
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert games_of(any_db_app) == 2


def test_starting_a_table_from_the_score_sheet_sent_twice_starts_one_table(any_db_app):
    client = any_db_app.test_client()
    new = client.post("/tienlen/scores/new", data={"name0": "An", "name1": "Binh", "name2": "Chi"})
    keeper = re.search(r"/g/([\w-]+)", new.headers["Location"]).group(1)
    form = {"version": "0", "leader": "0", "lowest": "3♠"}
    mine = {"X-Thirteen-Write": "t" * 24}
    first = client.post(f"/tienlen/scores/g/{keeper}/tables", data=form, headers=mine)
    again = client.post(f"/tienlen/scores/g/{keeper}/tables", data=form, headers=mine)
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"] and "/tienlen/g/" in first.headers["Location"]
    assert games_of(any_db_app, "tienlen") == 1
