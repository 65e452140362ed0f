"""Tiến lên on the web: the check screen (full page, htmx fragment, no-JS post), its inline
errors, the remembered house rules, the landing and rules pages, and POST /api/tienlen/check."""

import json
import re

import pytest
from werkzeug.http import parse_cookie

from referee.tienlen import TienLenRules, parse_combination
from referee.web.games.tienlen.check import combo_name

HTMX = {"HX-Request": "true"}
BOMB = {"table": "2♥", "play": "3♠3♣4♦4♥5♠5♣"}


def stored_rules(client) -> dict:  # type: ignore[no-untyped-def]
    """The switches in the phone's cookie, read the way the server reads them."""
    raw = client.get_cookie("rules_tienlen").value
    return json.loads(parse_cookie(f"rules_tienlen={raw}")["rules_tienlen"])


def body(response) -> str:  # type: ignore[no-untyped-def]
    return response.get_data(as_text=True)


# --- the landing and rules pages -------------------------------------------------------------


def test_landing_page_links_check_new_game_and_rules(client):
    response = client.get("/tienlen/")
    assert response.status_code == 200
    page = body(response)
    assert 'href="/tienlen/check"' in page
    assert 'href="/tienlen/new"' in page
    assert 'href="/tienlen/rules"' in page


def test_rules_page_has_the_bomb_table_and_every_switch(client):
    response = client.get("/tienlen/rules")
    assert response.status_code == 200
    page = body(response)
    assert "Bombs" in page and "a double sequence of 5 pairs or more" in page
    assert "nothing at all" in page  # four 2s
    for switch in TienLenRules.__dataclass_fields__:
        assert switch in page
    for choice in TienLenRules.CHOICES["first_lead"]:
        assert choice in page


# --- the check screen ---------------------------------------------------------------------


def test_check_page_opens_with_one_grid_for_table_and_play_a_neutral_prompt_and_the_switches(client):
    response = client.get("/tienlen/check")
    assert response.status_code == 200
    page = body(response)
    assert "<html" in page
    assert 'name="table"' in page and 'name="play"' in page and 'name="first_play"' in page
    assert 'data-state="empty"' in page and "Tap the cards" in page
    assert page.count("data-card=") == 52  # one deck on the screen: a target button says where taps go
    assert page.count("data-target") == 2
    assert 'hx-post="/tienlen/check"' in page and 'hx-target="#verdict"' in page
    assert "<details" in page
    for switch in TienLenRules.__dataclass_fields__:
        assert f'name="{switch}"' in page
    assert '<select id="sw-first_lead" name="first_lead">' in page
    assert "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize(
    ("table", "play", "state", "word", "reason", "bomb"),
    [
        ("2♥", "3♠3♣4♦4♥5♠5♣", "legal", "Legal", "a double sequence of 3 pairs bombs a single 2", True),
        ("2d", "5s 5h 5c 5d", "legal", "Legal", "four of a kind bombs a single 2", True),
        ("♦5♠5", "♣5♥5", "legal", "Legal", "5♥ is higher than 5♦", False),
        ("8h", "8s", "illegal", "Not legal", "8♠ is lower than 8♥", False),
        ("9h", "3s 3h", "illegal", "Not legal", "a single card must be beaten by a single card", False),
        ("2h", "3s3c4d4h5s6c", "nocombo", "Not a combination", "rank 5 is not paired", False),
        ("", "4s 6h", "nocombo", "Not a combination", "two cards of different ranks are not a pair", False),
        ("", "Qs Ks As", "legal", "Legal", "any combination may be led on an empty table", False),
    ],
)
@pytest.mark.parametrize("how", ["page", "htmx", "no-js post"])
def test_check_verdicts(client, how, table, play, state, word, reason, bomb):
    data = {"table": table, "play": play}
    if how == "page":
        response = client.get("/tienlen/check", query_string=data)
    elif how == "htmx":
        response = client.post("/tienlen/check", data=data, headers=HTMX)
    else:
        response = client.post("/tienlen/check", data=data)
    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    page = body(response)
    assert ("<html" in page) is (how != "htmx")
    assert f'data-state="{state}"' in page
    assert f">{word}" in page
    assert reason in page
    assert ('class="badge bomb"' in page) is bomb


def test_htmx_fragment_names_both_combinations_and_clears_the_field_errors(client):
    page = body(client.post("/tienlen/check", data=BOMB, headers=HTMX))
    assert "double sequence of 3 pairs" in page and "single 2" in page
    assert '<form' not in page  # the pickers are not replaced
    for pid in ("picker-table-error", "picker-play-error", "first-play-error", "rules-error"):
        assert f'id="{pid}" role="alert" hx-swap-oob="true" hidden' in page


def test_no_js_post_keeps_the_cards_in_the_fields(client):
    page = body(client.post("/tienlen/check", data=BOMB))
    assert 'value="3♠3♣4♦4♥5♠5♣"' in page and 'value="2♥"' in page


def test_empty_play_is_a_neutral_prompt(client):
    response = client.post("/tienlen/check", data={"table": "2h", "play": ""}, headers=HTMX)
    assert response.status_code == 200
    assert 'data-state="empty"' in body(response)


@pytest.mark.parametrize(
    ("data", "field", "needle"),
    [
        ({"table": "2h", "play": "3s 1x"}, "picker-play-error", "&#39;1x&#39; at position 2 is not a card"),
        ({"table": "2x", "play": "3s"}, "picker-table-error", "&#39;2x&#39; at position 1 is not a card"),
        ({"table": "", "play": "3s 3s"}, "picker-play-error", "3♠ appears 2 times"),
        ({"table": "", "play": "JK"}, "picker-play-error", "no jokers"),
        ({"table": "3s", "play": "3s"}, "picker-play-error", "3♠ is both on the table and in the play"),
        ({"table": "4s 5h", "play": "6s"}, "picker-table-error",
         "the table 4♠ 5♥ is not a combination: a sequence needs at least three cards"),
        ({"table": "4s 5h", "play": ""}, "picker-table-error", "the table 4♠ 5♥ is not a combination"),
        ({"table": "9h", "play": "3s", "first_play": "on"}, "first-play-error",
         "The first play of the game is made on an empty table"),
        ({"table": "9h", "play": "10h", "first_lead__present": "1", "first_lead": "never"}, "rules-error",
         "house rule &#39;first_lead&#39; must be one of"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_input_is_a_400_with_the_message_beside_its_field(client, data, field, needle, htmx):
    response = client.post("/tienlen/check", data=data, headers=HTMX if htmx else {})
    assert response.status_code == 400
    page = body(response)
    assert ("<html" in page) is not htmx
    assert 'data-state="error"' in page
    start = page.index(f'id="{field}"')
    assert needle in page[start : page.index("</p>", start)]
    if htmx:
        assert f'id="{field}" role="alert" hx-swap-oob="true">' in page
    else:
        assert f'id="{field}" role="alert">' in page  # shown, not hidden


def test_bad_notation_in_the_url_is_a_400_page_too(client):
    response = client.get("/tienlen/check", query_string={"play": "3z"})
    assert response.status_code == 400
    assert "is not a card" in body(response)


# --- house rules on the check screen ---------------------------------------------------------


def switches_form(**on):  # type: ignore[no-untyped-def]
    form = {f"{key}__present": "1" for key in TienLenRules.__dataclass_fields__ if key != "first_lead"}
    form["first_lead"] = on.pop("first_lead", "contains_3s")
    form.update({key: "on" for key, value in on.items() if value})
    return form


@pytest.mark.parametrize(("switch", "word"), [(False, "Not legal"), (True, "Legal")])
def test_a_switch_in_the_form_changes_the_verdict(client, switch, word):
    data = {"table": "2s 2h", "play": "6s 6h 6c 6d", **switches_form(quad_beats_pair_of_twos=switch)}
    page = body(client.post("/tienlen/check", data=data, headers=HTMX))
    assert f">{word}" in page
    assert "“Four of a kind on a pair of 2s”" in page  # the reason names the switch as on screen
    assert "quad_beats_pair_of_twos" not in page.split('class="why"')[1].split("</p>")[0]


def test_switches_are_remembered_on_the_phone_and_applied_on_reload(client):
    data = {"table": "2s 2h", "play": "6s 6h 6c 6d", **switches_form(quad_beats_pair_of_twos=True)}
    response = client.post("/tienlen/check", data=data, headers=HTMX)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("rules_tienlen=")
    assert stored_rules(client)["quad_beats_pair_of_twos"] is True
    # Reloading the page shows the switch on and judges with it.
    page = body(client.get("/tienlen/check", query_string={"table": "2s 2h", "play": "6s 6h 6c 6d"}))
    assert 'name="quad_beats_pair_of_twos" value="on" checked' in page
    assert "four of a kind beats a pair of 2s" in page
    # A post without switch fields (an old bookmark) keeps the remembered ones.
    page = body(client.post("/tienlen/check", data={"table": "2s 2h", "play": "6s 6h 6c 6d"}, headers=HTMX))
    assert 'data-state="legal"' in page
    # Switching it off is remembered too.
    client.post("/tienlen/check", data={"play": "3s", **switches_form()}, headers=HTMX)
    assert stored_rules(client)["quad_beats_pair_of_twos"] is False


def test_first_lead_choice_is_remembered_and_drives_the_opening_rule(client):
    data = {"play": "3s 4h 5c", "first_play": "on", **switches_form(first_lead="three_spades_alone")}
    page = body(client.post("/tienlen/check", data=data, headers=HTMX))
    assert "the first play of the game must be the 3♠ alone" in page
    page = body(client.get("/tienlen/check"))
    assert '<option value="three_spades_alone" selected>' in page


def test_first_play_box_applies_the_default_opening_rule(client):
    page = body(client.post("/tienlen/check", data={"play": "4s 4h", "first_play": "on"}, headers=HTMX))
    assert 'data-state="illegal"' in page and "must contain the 3♠" in page


def test_a_damaged_rules_cookie_falls_back_to_the_defaults(client):
    client.set_cookie("rules_tienlen", '{"quad_beats_pair_of_twos": "maybe", "nonsense": 1, "play_on": true}')
    response = client.get("/tienlen/check", query_string={"table": "2s 2h", "play": "6s 6h 6c 6d"})
    assert response.status_code == 200
    page = body(response)
    assert 'data-state="illegal"' in page
    assert 'name="play_on" value="on" checked' in page  # the good part of the cookie still counts
    client.set_cookie("rules_tienlen", "not json")
    assert client.get("/tienlen/check").status_code == 200


@pytest.mark.parametrize("text", ["2h", "5s 5d", "2s 2c 2d", "7s 7h 7c 7d", "7s 8s 9s 10s", "3s 3h 4s 4h 5c 5d"])
def test_combination_names_on_the_page_match_the_library(app, text):
    combo = parse_combination(text)
    with app.test_request_context():
        assert combo_name(combo) == combo.name


# --- the JSON API ---------------------------------------------------------------------------


def api(client, **payload):  # type: ignore[no-untyped-def]
    return client.post("/api/tienlen/check", json=payload)


def test_api_the_issue_example(client):
    response = api(
        client, play="3♠3♣4♦4♥5♠5♣", table="2♥", first_play=False, rules={"quad_beats_pair_of_twos": True}
    )
    assert response.status_code == 200
    data = response.get_json()
    assert data["legal"] is True and data["bomb"] is True
    assert data["reason"] == "a double sequence of 3 pairs bombs a single 2"
    assert data["play"]["kind"] == "double_sequence"
    assert data["play"]["cards"] == ["3♠", "3♣", "4♦", "4♥", "5♠", "5♣"]
    assert data["play"]["top"] == "5♣"
    assert data["table"] == {"kind": "single", "name": "single 2", "cards": ["2♥"], "top": "2♥"}


@pytest.mark.parametrize(
    ("play", "kind"),
    [
        ("9h", "single"),
        ("9s 9h", "pair"),
        ("9s 9h 9d", "triple"),
        ("9s 9h 9d 9c", "four_of_a_kind"),
        ("9s 10h Jd", "sequence"),
        ("9s 9h 10s 10h Js Jh", "double_sequence"),
        ("9s 10h", None),
        ("Ks As 2s", None),
    ],
)
def test_api_kinds_on_an_empty_table(client, play, kind):
    response = api(client, play=play)
    assert response.status_code == 200
    data = response.get_json()
    assert data["play"]["kind"] == kind
    assert data["legal"] is (kind is not None)
    assert data["table"] is None
    if kind is None:
        assert data["play"]["top"] is None and data["reason"]


def test_api_a_play_that_is_no_combination_says_why(client):
    data = api(client, play="Ks As 2s", table="").get_json()
    assert data == {
        "legal": False,
        "bomb": False,
        "reason": "a 2 can never be part of a sequence",
        "reason_code": "a 2 can never be part of a sequence",
        "params": {},
        "play": {"kind": None, "name": None, "cards": ["K♠", "A♠", "2♠"], "top": None},
        "table": None,
    }


@pytest.mark.parametrize(("first_play", "legal"), [(True, False), (False, True)])
def test_api_first_play_applies_the_opening_rule(client, first_play, legal):
    data = api(client, play="4s 4h", first_play=first_play).get_json()
    assert data["legal"] is legal
    if first_play:
        assert data["reason"] == "the first play of the game must contain the 3♠"


def test_api_first_lead_switch(client):
    data = api(client, play="3s 4h 5c", first_play=True, rules={"first_lead": "three_spades_alone"}).get_json()
    assert data["legal"] is False and "3♠ alone" in data["reason"]


@pytest.mark.parametrize(("switch", "legal", "bomb"), [(False, False, False), (True, True, True)])
def test_api_switch_quad_beats_pair_of_twos(client, switch, legal, bomb):
    data = api(client, play="6s 6h 6c 6d", table="2s 2h", rules={"quad_beats_pair_of_twos": switch}).get_json()
    assert (data["legal"], data["bomb"]) == (legal, bomb)
    assert "house rule “Four of a kind on a pair of 2s”" in data["reason"]


def test_api_switch_twos_in_sequences(client):
    assert api(client, play="Qs Ks As 2s").get_json()["play"]["kind"] is None
    on = api(client, play="Qs Ks As 2s", rules={"twos_in_sequences": True}).get_json()
    assert on["play"]["kind"] == "sequence" and on["legal"] is True


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        ({"play": "3s 1x"}, "the play: '1x' at position 2 is not a card"),
        ({"play": "3s", "table": "9z"}, "the table: '9z' at position 1 is not a card"),
        ({"play": "3s 3s"}, "3♠ appears 2 times"),
        ({"play": "3s", "table": "4s 5h"}, "the table 4♠ 5♥ is not a combination: a sequence needs at least three"),
        ({"play": "3s", "table": "3s"}, "3♠ is both on the table and in the play"),
        ({"play": "3s", "rules": {"bombs_galore": True}}, "unknown house rule 'bombs_galore'"),
        ({"play": "3s", "rules": {"play_on": "sometimes"}}, "house rule 'play_on' is on or off"),
        ({"play": "3s", "rules": {"first_lead": "first"}}, "house rule 'first_lead' must be one of"),
        ({"play": "3s", "rules": ["play_on"]}, "the field 'rules' must be an object"),
        ({"play": 3}, "the field 'play' must be a string of cards"),
        ({"play": "3s", "table": {"cards": "2h"}}, "the field 'table' must be a string of cards"),
        ({"play": "3s", "first_play": "yes"}, "the field 'first_play' must be true or false"),
        ({"play": "3s", "table": "9h", "first_play": True}, "the first play of the game is made on an empty table"),
        ({"play": "3s", "seat": 2}, "unknown field 'seat'"),
        ({"table": "2h"}, "the field 'play' is missing"),
    ],
)
def test_api_bad_input_is_refused_naming_the_problem(api_error, payload, needle):
    assert needle in api_error("/api/tienlen/check", json=payload)


def test_api_refuses_a_body_that_is_not_json(api_error):
    assert "JSON object" in api_error("/api/tienlen/check", data="play=3s",
                                      content_type="application/x-www-form-urlencoded")


def test_api_takes_a_list_of_cards_too(client):
    data = api(client, play=["5s", "5h"], table=["4c", "4d"]).get_json()
    assert data["legal"] is True and data["play"]["kind"] == "pair"


def test_openapi_document_describes_the_check(client):
    doc = client.get("/api/openapi.json").get_json()
    operation = doc["paths"]["/api/tienlen/check"]["post"]
    assert set(operation["responses"]) >= {"200", "400"}
    request_schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert request_schema["required"] == ["play"]
    assert set(request_schema["properties"]) == {"play", "table", "first_play", "lowest", "rules"}
    assert request_schema["properties"]["lowest"]["examples"][-1] == "9♦"
    assert re.match(request_schema["properties"]["lowest"]["pattern"], "9d")
    schemas = doc["components"]["schemas"]
    assert set(schemas["TienLenRules"]["properties"]) == set(TienLenRules.__dataclass_fields__)
    assert schemas["TienLenRules"]["properties"]["first_lead"]["enum"] == list(TienLenRules.CHOICES["first_lead"])
    assert "double_sequence" in schemas["TienLenCombination"]["properties"]["kind"]["enum"]
    assert operation["requestBody"]["content"]["application/json"]["example"]["play"] == "3♠3♣4♦4♥5♠5♣"


def test_the_card_grid_runs_in_the_games_suit_order_spades_clubs_diamonds_hearts(client):
    import re as _re

    cards = _re.findall(r'data-card="([^"]+)"', body(client.get("/tienlen/check")))
    # the check screen lays the deck out as suit rows of 7 ranks, then 6: ♠ ♣ ♦ ♥ from the top
    assert [c[-1] for c in cards[0:28:7]] == ["s", "c", "d", "h"]
    assert cards[:7] == ["3s", "4s", "5s", "6s", "7s", "8s", "9s"]
    assert cards[28:34] == ["10s", "Js", "Qs", "Ks", "As", "2s"]
    home = _re.findall(r'data-card="([^"]+)"', body(client.get("/")))  # a 4 × 13 grid: suit columns
    assert home[:4] == ["3s", "3c", "3d", "3h"]


def test_a_table_still_being_tapped_in_is_unfinished_not_refused(client):  # type: ignore[no-untyped-def]
    """The check screen asks as each card is tapped (app.js adds live=1): a table that is no
    combination yet says why with a 200, so no failed request is logged on the way; the Check
    button's request (no live) is still the 400."""
    form = {"table": "3♠ 2♥", "play": ""}
    live = client.post("/tienlen/check", data={**form, "live": "1"}, headers={"HX-Request": "true"})
    assert live.status_code == 200
    checked = client.post("/tienlen/check", data=form, headers={"HX-Request": "true"})
    assert checked.status_code == 400
    assert live.get_data(as_text=True) == checked.get_data(as_text=True)
