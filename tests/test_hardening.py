"""Input nobody types at a card table is a 4xx with a reason, never a 500; a stale write is a 409.

Each check runs for every followed game of the registry (tests/games.py) where it applies,
and on SQLite and PostgreSQL where the database is what used to fail.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import re

import pytest

from referee.web.extensions import db
from referee.web.guard import MAX_JSON_DEPTH
from referee.web.models import Game
from tests.games import IDS, ROWS, row

HX = {"HX-Request": "true"}


GAMES = ROWS  # every followed game of the registry (tests/games.py), the toy game's included
TIENLEN, TRECE, THREE_THIRTEEN = row("tienlen"), row("trece"), row("three_thirteen")  # their own forms' checks
game_param = pytest.mark.parametrize("game", GAMES, ids=IDS)


def version_of(client, token: str) -> int:  # type: ignore[no-untyped-def]
    with client.application.app_context():
        return db.session.scalar(db.select(Game.version).where(
            (Game.keeper_token == token) | (Game.watch_token == token)))


def text(response) -> str:  # type: ignore[no-untyped-def]
    return html.unescape(response.get_data(as_text=True))


# --------------------------------------------------------------------------- numbers


@game_param
@pytest.mark.parametrize("since", ["²", "٣", "9" * 5000, "-1", "2147483648", " ", "0x1"])
def test_a_poll_with_a_since_that_is_no_version_gets_the_whole_page(client, game, since):
    keeper, watch = game.create(client)
    for token in (keeper, watch):
        response = client.get(game.page(token), query_string={"since": since}, headers=HX)
        assert response.status_code == 200


@game_param
def test_a_poll_at_the_current_version_is_an_empty_204_that_is_never_cached(client, game):
    keeper, watch = game.create(client)
    response = client.get(game.page(watch), query_string={"since": "0"}, headers=HX)
    assert response.status_code == 204 and response.data == b""
    assert response.headers["Cache-Control"] == "no-store"
    assert game.write(client, keeper, 0).status_code in (200, 303)
    assert client.get(game.page(watch), query_string={"since": "0"}, headers=HX).status_code == 200


@pytest.mark.parametrize(("field", "value", "needle"), [
    ("leader", "²", "holds 3♠"), ("leader", "9" * 5000, "holds 3♠"),
    ("hand_size", "²", "dealt 1 to"), ("hand_size", "9" * 5000, "dealt 1 to"),
])
def test_tienlen_new_game_reads_only_ascii_numbers(client, field, value, needle):
    form = {**TIENLEN.new_form, field: value}
    response = client.post("/tienlen/new", data=form)
    assert response.status_code == 422
    assert needle in text(response)


@pytest.mark.parametrize("seat", ["²", "9" * 5000, "-1"])
def test_tienlen_seat_that_is_no_number_is_refused(client, seat):
    keeper, _ = TIENLEN.create(client)
    response = client.post(f"/tienlen/g/{keeper}/play", data={"version": "0", "seat": seat, "cards": "3s"})
    assert response.status_code == 400
    assert "which player acts" in text(response)


@pytest.mark.parametrize("out", ["²", "9" * 5000, "-1"])
def test_three_thirteen_out_that_is_no_seat_is_not_read_as_one(client, out):
    keeper, _ = THREE_THIRTEEN.create(client)
    response = client.post(f"/three-thirteen/g/{keeper}/round/1", data={
        "version": "0", "out": [out], "cards_0": "4h 5h 6h", "cards_1": "", "points_1": "10"})
    assert response.status_code == 422  # read as nobody out: the round is refused and says so
    assert "Mark who went out" in text(response)
    assert version_of(client, keeper) == 0


@game_param
@pytest.mark.parametrize("seen", ["9223372036854775808", "2147483648", "²", "-1", ""])
def test_a_version_that_is_no_version_is_refused_on_both_databases(any_db_app, game, seen):
    client = any_db_app.test_client()
    keeper, _ = game.create(client)
    for response in (game.undo(client, keeper, seen), game.write(client, keeper, seen)):
        assert response.status_code == 400
        assert "game version" in text(response)


def test_house_rule_decks_in_unicode_digits_is_refused_in_players_words(client):
    response = client.post("/api/three-thirteen/score", json={"hand": "3s 4s 5s", "round": 1, "rules": {"decks": "²"}})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error == "house rule 'decks' takes a whole number, not '²'"
    form = client.post("/three-thirteen/new", data={**THREE_THIRTEEN.new_form, "decks": "²"})
    assert form.status_code == 422 and "house rule 'decks'" in text(form) and "'²'" in text(form)


# --------------------------------------------------------------------------- control characters


@game_param
def test_a_token_with_a_nul_byte_is_no_game_on_both_databases(any_db_app, game):
    client = any_db_app.test_client()
    keeper, _ = game.create(client)
    for token in (keeper[:-1] + "\x00", "\x00", keeper + "%00"):
        assert client.get(game.page(token)).status_code == 404
        assert game.undo(client, token, 0).status_code == 404


@game_param
def test_a_player_name_with_a_control_character_is_refused_on_both_databases(any_db_app, game):
    client = any_db_app.test_client()
    form = dict(game.new_form)
    if isinstance(form.get(game.example.names_field), list):
        form[game.example.names_field] = ["An\x00a", "Bao"]
    else:
        form[game.example.names_field] = "An\x00a"
    response = client.post(f"{game.prefix}/new", data=form)
    assert response.status_code == 400
    assert "control character" in text(response)
    with any_db_app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 0


def test_a_control_character_in_a_query_is_refused_naming_the_field(client):
    response = client.get("/three-thirteen/score", query_string={"hand": "3s\x1b4s"})
    assert response.status_code == 400
    assert "“hand”" in text(response) and "control character" in text(response)


def test_tabs_and_line_breaks_in_a_card_field_are_not_control_characters(client):
    keeper, _ = THREE_THIRTEEN.create(client)
    response = client.post(f"/three-thirteen/g/{keeper}/round/1", data={
        "version": "0", "out": ["0"], "cards_0": "4h\t5h\r\n6h", "cards_1": "", "points_1": "10"})
    assert response.status_code == 303


# --------------------------------------------------------------------------- JSON and bodies


def api_posts(app) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(r.rule for r in app.url_map.iter_rules() if r.rule.startswith("/api/") and "POST" in r.methods)


def test_every_api_endpoint_refuses_json_nested_30000_deep(client, app):
    paths = api_posts(app)
    assert len(paths) >= 4
    for path in paths:
        for body in ("[" * 30000 + "]" * 30000, '{"":' * 10000 + "1" + "}" * 10000, "[" * 30000):
            response = client.post(path, data=body, content_type="application/json")
            assert response.status_code == 400, path
            assert "nests deeper than" in response.get_json()["error"]


def test_json_at_the_depth_cap_is_read_as_usual(client):
    nested = "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1)
    response = client.post("/api/cards/parse", data='{"cards": ' + nested + "}", content_type="application/json")
    assert response.status_code == 400 and "string" in response.get_json()["error"]  # read, then judged


class Untouchable(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        raise AssertionError("the body was read")

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        return 0

    def tell(self) -> int:
        return 0


@pytest.mark.parametrize("path", ["/api/cards/parse", "/three-thirteen/new", "/trece/new"])
def test_a_50_megabyte_body_is_refused_from_its_length_before_it_is_read(client, path):
    response = client.post(path, input_stream=Untouchable(), content_type="application/json",
                           environ_overrides={"CONTENT_LENGTH": str(50 * 1024 * 1024)})
    assert response.status_code == 413
    assert "too much to send" in text(response).lower() or "too large" in text(response).lower()


def test_a_thousand_names_are_refused_with_a_reason_not_cut_to_eight(client):
    response = client.post("/three-thirteen/new", data={"names": [f"P{i}" for i in range(1000)], "dealer": "0"})
    assert response.status_code == 422
    assert "2 to 8 players, not 1000" in text(response)


# --------------------------------------------------------------------------- methods, redirects, caches


@game_param
def test_a_405_says_which_methods_the_address_takes(client, game):
    keeper, _ = game.create(client)
    response = client.get(f"{game.page(keeper)}/undo")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    api = client.get("/api/cards/parse")
    assert api.status_code == 405 and "POST" in api.headers["Allow"] and "error" in api.get_json()


@pytest.mark.parametrize("referrer", [
    "https://evil.example/phish", "//evil.example/", "http://evil.example@localhost.evil/", "javascript:alert(1)"])
def test_choosing_a_language_never_redirects_to_another_site(client, referrer):
    response = client.get("/lang/en", headers={"Referer": referrer})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_choosing_a_language_returns_to_the_page_it_was_chosen_on(client):
    response = client.get("/lang/en", headers={"Referer": "http://localhost/trece/rules?x=1"})
    assert response.headers["Location"] == "/trece/rules?x=1"


@game_param
def test_every_page_behind_a_share_link_is_no_store(client, game):
    keeper, watch = game.create(client)
    paths = [game.page(keeper), game.page(watch)] + [game.page(keeper) + page for page in game.extra_pages]
    for path in paths:
        for headers in ({}, HX):
            response = client.get(path, headers=headers)
            assert response.status_code == 200, path
            assert response.headers["Cache-Control"] == "no-store", path
    stale = game.undo(client, keeper, 7)
    assert stale.headers["Cache-Control"] == "no-store"


# --------------------------------------------------------------------------- where a write comes from


@game_param
@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
    {"Origin": "https://evil.example"}, {"Origin": "null"},
])
def test_a_write_from_another_site_is_refused_with_a_reason(client, game, headers):
    keeper, _ = game.create(client)
    response = client.post(f"{game.page(keeper)}/undo", data={"version": "0"}, headers=headers)
    assert response.status_code == 403
    assert "another website" in text(response)
    created = client.post(f"{game.prefix}/new", data=game.new_form, headers=headers)
    assert created.status_code == 403


@game_param
@pytest.mark.parametrize("headers", [
    {}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {"Origin": "http://localhost"}])
def test_a_write_from_the_same_site_or_a_script_is_taken(client, game, headers):
    keeper, _ = game.create(client)
    assert game.write(client, keeper, 0).status_code in (200, 303)
    response = client.post(f"{game.page(keeper)}/undo", data={"version": "1"}, headers=headers)
    assert response.status_code in (200, 303)
    assert version_of(client, keeper) == 2


def test_a_cross_site_api_call_is_refused_as_json(client):
    response = client.post("/api/cards/parse", json={"cards": "3s"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403 and "another website" in response.get_json()["error"]


# --------------------------------------------------------------------------- stale writes


@game_param
def test_a_stale_undo_with_nothing_left_to_undo_is_a_409(client, game):
    keeper, _ = game.create(client)
    assert game.write(client, keeper, 0).status_code in (200, 303)
    assert game.undo(client, keeper, 1).status_code in (200, 303)  # this phone undid it
    for seen in (0, 1):  # a phone that saw the table before
        response = game.undo(client, keeper, seen)
        assert response.status_code == 409, response.get_data(as_text=True)[:300]
    assert version_of(client, keeper) == 2


@game_param
def test_undo_with_nothing_to_undo_says_so(client, game):
    keeper, _ = game.create(client)
    response = game.undo(client, keeper, 0)
    assert response.status_code in (400, 422)
    assert "nothing to undo" in text(response).lower()
    assert version_of(client, keeper) == 0


def test_a_three_thirteen_round_saved_after_another_phone_undid_is_a_409_keeping_the_hands(client):
    keeper, _ = THREE_THIRTEEN.create(client)
    assert THREE_THIRTEEN.write(client, keeper, 0).status_code == 303  # round 1 saved: version 1
    assert client.get(f"/three-thirteen/g/{keeper}/round/2").status_code == 200  # a phone opens round 2
    assert THREE_THIRTEEN.undo(client, keeper, 1).status_code == 303  # another takes round 1 back
    response = client.post(f"/three-thirteen/g/{keeper}/round/2", data={
        "version": "1", "out": ["1"], "cards_0": "", "points_0": "17", "cards_1": "7c 8c 9c 10c", "points_1": ""})
    assert response.status_code == 409
    body = text(response)
    assert "7c 8c 9c 10c" in body and 'value="17"' in body
    assert version_of(client, keeper) == 2


# --------------------------------------------------------------------------- round two (issue 22)


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_a_rules_cookie_holding_json_nested_990_deep_is_ignored_on_every_page_that_reads_it(client):
    keeper, _ = TIENLEN.create(client)
    sheet = client.post("/tienlen/scores/new", data={"name0": "An", "name1": "Binh", "name2": "Chi"})
    sheet_keeper = sheet.headers["Location"].rsplit("/", 1)[-1]
    for kind in ("tienlen", "trece", "three_thirteen", "tienlen_scores"):
        client.set_cookie(f"rules_{kind}", _deep(990))
    for path in ("/tienlen/check", "/tienlen/new", "/trece/", "/trece/check", "/three-thirteen/",
                 "/tienlen/scores/"):
        response = client.get(path)
        assert response.status_code == 200, path
    start = client.post(f"/tienlen/scores/g/{sheet_keeper}/tables", data={"version": "0", "leader": "0"})
    assert start.status_code == 303


def test_every_url_path_number_takes_ascii_digits_only(client):
    keeper, _ = THREE_THIRTEEN.create(client)
    assert client.get(f"/three-thirteen/g/{keeper}/round/1").status_code == 200
    for number in ("１", "𝟏", "١", "²"):
        assert client.get(f"/three-thirteen/g/{keeper}/round/{number}").status_code == 404
    assert client.get(f"/three-thirteen/g/{keeper}/round/99999999999").status_code == 404


def test_the_rules_cookies_are_http_only(client):
    response = client.post("/trece/new", data=TRECE.new_form)
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("rules_")]
    assert cookies and all("HttpOnly" in c for c in cookies)


def test_cookies_are_secure_when_the_request_came_over_https(client):
    over_https = client.post("/trece/new", data=TRECE.new_form, base_url="https://thirteen.example.org")
    language = client.post("/lang/es", data={"next": "/"}, base_url="https://thirteen.example.org")
    for response in (over_https, language):
        cookies = response.headers.getlist("Set-Cookie")
        assert cookies and all("; Secure" in c for c in cookies)
    plain = client.post("/lang/es", data={"next": "/"})
    assert all("Secure" not in c for c in plain.headers.getlist("Set-Cookie"))


def test_no_cache_keeps_the_qr_code_of_a_keeper_link(client):
    keeper, _ = TRECE.create(client)
    page = html.unescape(client.get(TRECE.page(keeper)).get_data(as_text=True))
    sources = re.findall(r'<img class="qr"[^>]* src="([^"]+)"', page)
    assert len(sources) == 2 and any(keeper in s for s in sources)
    for source in sources:
        response = client.get(source)
        assert response.status_code == 200
        assert "public" not in response.headers["Cache-Control"] and "no-store" in response.headers["Cache-Control"]


def test_the_content_policy_allows_no_inline_script_or_style_and_no_page_has_any(client):
    keeper, _ = TRECE.create(client)
    tt_keeper, _ = THREE_THIRTEEN.create(client)
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "unsafe-inline" not in policy
    for path in ("/", TRECE.page(keeper), THREE_THIRTEEN.page(tt_keeper), f"/three-thirteen/g/{tt_keeper}/round/1"):
        page = client.get(path).get_data(as_text=True)
        assert not re.search(r"\sstyle=", page), path
        assert not re.search(r"\son[a-z]+=", page), path
        scripts = re.findall(r"<script(?![^>]*\ssrc=)(?![^>]*application/json)[^>]*>(.*?)</script>", page, re.S)
        assert len(scripts) == 1  # the one line named by its hash in the policy
        digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy
        assert '"includeIndicatorStyles":false' in page  # htmx's own inline style, off


def test_the_language_switcher_keeps_the_page_out_of_every_address(client):
    keeper, _ = TRECE.create(client)
    page = html.unescape(client.get(TRECE.page(keeper)).get_data(as_text=True))
    assert "/lang/" in page and "?next=" not in page
    switcher = page[page.index('class="langs"'):]
    assert f'name="next" value="{TRECE.page(keeper)}"' in switcher
    back = client.post("/lang/es", data={"next": TRECE.page(keeper)})
    assert back.status_code == 303 and back.headers["Location"] == TRECE.page(keeper)
