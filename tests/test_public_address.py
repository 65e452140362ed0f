"""What a public address meets: starting ids reused, limits, retention, caches keyed by what a
client sets, headers behind a proxy, a table's page that must not hold its sheet's keeper link."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from referee.web.extensions import db
from referee.web.models import Game
from tests.games import ROWS


def _games(app) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Game)))


@pytest.mark.parametrize("write", ["a1" * 16, "9" * 20], ids=["hex", "twenty-nines"])
def test_a_starting_id_reused_on_another_kind_of_game_is_a_409_that_starts_nothing(app, client, write):
    first, other = ROWS[0], next(r for r in ROWS if r.kind != ROWS[0].kind)
    assert client.post(f"{first.prefix}/new", data={**first.new, "write": write}).status_code == 303
    before = _games(app)
    response = client.post(f"{other.prefix}/new", data={**other.new, "write": write}, headers={"Accept-Language": "es"})
    assert response.status_code == 409
    assert "Abre la página de nuevo" in response.get_data(as_text=True)
    assert _games(app) == before
    again = client.post(f"{first.prefix}/new", data={**first.new, "write": write})  # its own form: the same game
    assert again.status_code == 303 and _games(app) == before


# --------------------------------------------------------------------------- behind a proxy, headers


def _get(url: str, path: str, headers: dict[str, str]):  # type: ignore[no-untyped-def]
    import http.client
    import urllib.parse

    connection = http.client.HTTPConnection(urllib.parse.urlsplit(url).netloc, timeout=30)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


@pytest.mark.parametrize("trusted", [True, False], ids=["trusted-proxy", "no-proxy"])
def test_the_lan_server_believes_x_forwarded_proto_from_its_trusted_proxy_only(tmp_path, trusted):
    from tests.servers import ProductionServer

    env = {"TRUSTED_PROXY": "127.0.0.1"} if trusted else {}
    with ProductionServer("waitress", f"sqlite:///{tmp_path / 'p.sqlite'}", tmp_path / "log", env=env) as server:
        response = _get(server.url, "/lang/es?next=/", {"X-Forwarded-Proto": "https"})
    cookie = response.getheader("Set-Cookie") or ""
    assert ("Secure" in cookie) is trusted
    assert (response.getheader("Strict-Transport-Security") is not None) is trusted


def test_https_answers_carry_hsts_and_plain_ones_do_not(client):
    assert "max-age=" in client.get("/", base_url="https://thirteen.example.org").headers["Strict-Transport-Security"]
    assert "Strict-Transport-Security" not in client.get("/").headers


def test_static_files_carry_the_content_policy_and_no_referrer(client):
    import re

    css = re.search(r'href="(/static/css/[^"]+\.css)"', client.get("/").get_data(as_text=True)).group(1)
    for path in (css, "/static/icon.svg"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.headers["Referrer-Policy"] == "no-referrer"
        response.close()


def test_a_table_started_from_an_evening_does_not_hold_the_evenings_keeper_link(app, client):
    from referee.web.store import find_by_token

    names = {f"name{i}": n for i, n in enumerate(("An", "Binh", "Chi", "Dung"))}
    sheet = client.post("/tienlen/scores/new", data={**names, "write": "b2" * 16})
    assert sheet.status_code == 303, sheet.get_data(as_text=True)
    sheet_token = sheet.headers["Location"].rsplit("/", 1)[1]
    table = client.post(f"/tienlen/scores/g/{sheet_token}/tables", data={"version": "0", "leader": "0"})
    assert table.status_code == 303, table.get_data(as_text=True)
    table_token = table.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        watch = find_by_token(sheet_token).game.watch_token
    page = client.get(f"/tienlen/g/{table_token}").get_data(as_text=True)
    assert sheet_token not in page and watch in page


# --------------------------------------------------------------------------- the poll caches


def _quick_poll(app):  # type: ignore[no-untyped-def]
    from referee.web.quick_poll import QuickPoll

    layer = app.wsgi_app
    while not isinstance(layer, QuickPoll):
        layer = layer.wsgi_app if hasattr(layer, "wsgi_app") else layer.application
    return layer


def test_polls_at_a_thousand_addresses_keep_a_bounded_cache(app, client):
    from flask import template_rendered

    from referee.web import bounded, news

    news.forget_all()
    game = next(r for r in ROWS if r.kind == "three_thirteen")
    keeper, watch = game.create(client)
    assert game.write(client, keeper, 0).status_code in (200, 303)
    for i in range(1000):
        response = client.get(game.page(watch), query_string={"since": "0"}, headers={"HX-Request": "true"},
                              base_url=f"http://h{i}.example:8000")
        assert response.status_code == 200
    quick = _quick_poll(app)
    assert len(quick.answers) <= bounded.HOSTS_PER_ANSWER and len(news._answers) <= bounded.HOSTS_PER_ANSWER
    assert quick.answers.size <= quick.answers.limit and news._answers.size <= news._answers.limit
    # Headers and cookies a client sets that change nothing are not in the key: answered from the cache.
    rendered: list[str] = []
    template_rendered.connect(lambda sender, template, context, **extra: rendered.append(template.name), app)
    for extra in ({"HX-Current-URL": "http://h0.example:8000/x?y=1"}, {"Cookie": "tracker=abc123"}):
        response = client.get(game.page(watch), query_string={"since": "0"}, base_url="http://h0.example:8000",
                              headers={"HX-Request": "true", **extra})
        assert response.status_code == 200
    assert rendered == []


def test_the_cache_is_bounded_in_bytes_not_entries():
    from referee.web.bounded import BoundedCache

    cache: BoundedCache[bytes] = BoundedCache(10_000)
    for i in range(100):
        cache.put(i, b"x" * 3000, 3000)
    assert cache.size <= 10_000 and len(cache) == 3 and cache.get(99) is not None and cache.get(0) is None


# --------------------------------------------------------------------------- limits per client


@pytest.fixture
def limited_app(make_app):  # type: ignore[no-untyped-def]
    app = make_app(RATE_LIMITS=True, RATE_LIMIT_NEW_GAMES="3 per minute", RATE_LIMIT_WRITES="5 per minute")
    yield app
    with app.app_context():
        db.engine.dispose()


def test_a_client_starting_games_past_the_limit_gets_a_429_with_retry_after_in_its_language(limited_app):
    game = ROWS[0]
    flood = limited_app.test_client()
    answers = [flood.post(f"{game.prefix}/new", data=dict(game.new), headers={"Accept-Language": "es"})
               for _ in range(5)]
    assert [a.status_code for a in answers] == [303, 303, 303, 429, 429]
    refused = answers[-1]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "Espera" in refused.get_data(as_text=True)
    assert _games(limited_app) == 3
    # Another phone (another address) starts its game as usual.
    other = limited_app.test_client()
    assert other.post(f"{game.prefix}/new", data=dict(game.new),
                      environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 303


def test_writes_past_the_limit_are_429_and_polls_are_never_limited(limited_app):
    game = ROWS[0]
    client = limited_app.test_client()
    keeper, _ = game.start(client)
    statuses = [game.write(client, keeper, v).status_code for v in range(7)]
    assert 429 in statuses and statuses.count(429) >= 2
    assert all(client.get(game.page(keeper), query_string={"since": "0"}).status_code in (200, 204) for _ in range(30))


def test_limits_are_off_unless_asked_for(app, client):
    game = ROWS[0]
    assert all(client.post(f"{game.prefix}/new", data=dict(game.new)).status_code == 303 for _ in range(40))


def test_a_limited_api_call_is_a_json_429(limited_app):
    client = limited_app.test_client()
    path = next(r.rule for r in limited_app.url_map.iter_rules() if r.rule.startswith("/api/") and "POST" in r.methods)
    answers = [client.post(path, json={}) for _ in range(7)]
    refused = answers[-1]
    assert refused.status_code == 429 and refused.is_json and "Wait" in refused.get_json()["error"]
    assert int(refused.headers["Retry-After"]) >= 1


# --------------------------------------------------------------------------- retention


def test_retention_is_off_by_default_and_said_on_the_sheet_when_on(make_app):
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from referee.web.retention import forget_unused

    quiet = make_app()
    sheet = next(r for r in ROWS if r.live == "sheet")
    client = quiet.test_client()
    keeper, _ = sheet.start(client)
    assert "This server removes" not in client.get(sheet.page(keeper)).get_data(as_text=True)
    kept = make_app(RETENTION_DAYS=30)
    client = kept.test_client()
    old, _ = sheet.start(client)
    fresh, _ = sheet.start(client)
    page = client.get(sheet.page(old), headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "30 días" in page
    with kept.app_context():
        db.session.execute(update(Game).where(Game.keeper_token == old)  # written and opened 31 days ago
                           .values(updated_at=datetime.now(UTC) - timedelta(days=31),
                                   touched_hour=int((datetime.now(UTC) - timedelta(days=31)).timestamp() // 3600)))
        db.session.commit()
        assert forget_unused(30) == 1
    assert client.get(sheet.page(old)).status_code == 404
    assert client.get(sheet.page(fresh)).status_code == 200
    runner = kept.test_cli_runner()
    assert "0 games" in runner.invoke(args=["games", "forget"]).output


def test_a_new_address_is_answered_from_the_caches_unless_the_answer_shows_it(app, client, monkeypatch):
    """Only the share links show the address a page was asked at: a poll's answer without them
    is kept once for every address (a new Host costs no drawing, issue 39), one with them per
    address, and no address is ever answered with another's links."""
    from referee.web import news, sharing

    news.forget_all()
    drawn: list[str] = []
    original = sharing.public_base
    monkeypatch.setattr(sharing, "public_base", lambda: drawn.append("page") or original())  # each page drawn
    shown: dict[bool, int] = {}
    for game in ROWS:
        keeper, watch = game.create(client)
        assert game.write(client, keeper, 0).status_code in (200, 303)
        for link, boosted in ((watch, False), (keeper, True)):
            for i in range(6):
                drawn.clear()
                host = f"h{i}.example:8000"
                headers = {"HX-Request": "true", **({"HX-Boosted": "true"} if boosted else {})}
                response = client.get(game.page(link), query_string={"since": "0"}, headers=headers,
                                      base_url=f"http://{host}")
                assert response.status_code == 200
                body = response.get_data(as_text=True)
                links = "example:8000" in body
                assert not links or (host in body and all(f"h{j}.example" not in body for j in range(6) if j != i))
                if i > 0 and not links:
                    assert drawn == [], (game.kind, i)  # kept for every address: not drawn again
                if i == 0:
                    assert drawn, "the first poll of a version is drawn"
                shown[links] = shown.get(links, 0) + 1
    assert shown.get(False) and shown.get(True), shown
