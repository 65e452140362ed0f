"""The app shell: home, htmx fragments, errors, the vendored htmx, the shared API parts."""

import re

import pytest


def test_home_lists_the_three_games(client):
    page = client.get("/").get_data(as_text=True)
    for name in ("Tiến lên", "Three Thirteen", "Trece"):
        assert name in page


def test_pages_vary_on_hx_request(client):
    assert "HX-Request" in client.get("/").headers["Vary"]


def test_htmx_is_served_by_the_app_itself(client):
    page = client.get("/").get_data(as_text=True)
    src = re.search(r'src="(/static/vendor/htmx\.min\.[0-9a-f]{12}\.js)"', page)
    assert src, "the page links htmx under a versioned name"
    response = client.get(src.group(1))
    assert response.status_code == 200
    assert "htmx" in response.get_data(as_text=True)[:2000]
    response.close()
    assert "unpkg" not in page and "jsdelivr" not in page
    old = client.get("/vendor/htmx.min.js")  # the old address leads there
    assert old.status_code == 308 and old.headers["Location"].endswith(src.group(1))


@pytest.mark.parametrize("htmx", [False, True])
def test_unknown_page_is_a_friendly_404(client, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get("/no-such-page", headers=headers)
    assert response.status_code == 404
    body = response.get_data(as_text=True)
    assert "Back to the games" in body
    assert ("<html" in body) is not htmx


def test_api_unknown_path_answers_json(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert "error" in response.get_json()


@pytest.mark.parametrize(
    ("body", "needle"),
    [({"cards": "3s 1x"}, "'1x' at position 2"), ({"card": "3s"}, "'cards' is missing"), ({"cards": 5}, "string")],
)
def test_card_parse_api_names_the_problem(api_error, body, needle):
    assert needle in api_error("/api/cards/parse", json=body)


def test_card_parse_api_refuses_a_body_that_is_not_json(api_error):
    assert "JSON object" in api_error("/api/cards/parse", data="3s", content_type="text/plain")


def test_card_parse_api_prints_symbols(client):
    assert client.post("/api/cards/parse", json={"cards": "3s,3c 10h"}).get_json()["text"] == "3♠ 3♣ 10♥"


def test_oversized_body_is_refused_with_a_reason(client):
    response = client.post("/api/cards/parse", json={"cards": "3s " * 40000})
    assert response.status_code == 413
    assert response.get_json()["error"]


def test_openapi_document_lists_the_card_parser(client):
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    assert "/api/cards/parse" in doc["paths"]


def test_a_server_error_is_a_friendly_500_not_a_trace(app):
    @app.route("/boom")
    def boom():
        raise RuntimeError("kaboom")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "Nothing was saved" in response.get_data(as_text=True)
    assert "kaboom" not in response.get_data(as_text=True)


def test_pages_load_nothing_from_other_hosts_and_leak_no_share_token(client):
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize(
    ("path", "words"),
    [("/no-such-page", "nothing at this address"), ("/tienlen/g/not-a-token", "No game has this link")],
)
def test_error_pages_speak_the_players_words(client, path, words):
    body = client.get(path).get_data(as_text=True)
    assert words in body
    assert "requested URL" not in body


@pytest.mark.parametrize("path", ["/api/tienlen/check", "/api/trece/check", "/api/three-thirteen/score"])
@pytest.mark.parametrize("rules", [[], "", 0, "quad_beats_pair_of_twos"])
def test_house_rules_that_are_not_an_object_are_refused(api_error, path, rules):
    body = {"play": "3s", "table": "", "top": "4h", "hand": "3s 4s 5s", "round": 1, "rules": rules}
    body = {k: v for k, v in body.items() if k in {
        "/api/tienlen/check": {"play", "table", "rules"},
        "/api/trece/check": {"play", "top", "rules"},
        "/api/three-thirteen/score": {"hand", "round", "rules"},
    }[path]}
    assert "'rules' must be an object" in api_error(path, json=body)
