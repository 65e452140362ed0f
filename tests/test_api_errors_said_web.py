"""Every API error is a sentence: ``error`` in English, ``error_localized`` in the reader's language
(keeping the field it names), and ``field`` when one field is at fault. And the score sheet's
refusals sit beside their field with their counts said right."""

from __future__ import annotations

import pytest

from tests.languages import translate
from tests.test_tienlen_scores_web import Evening, play_the_chop_chain_hand, start_sheet, text

VI = {"Accept-Language": "vi"}

# (path, body, the field at fault or None)
MISTAKES = [
    ("/api/tienlen/check", [1, 2], None),
    ("/api/tienlen/check", {"table": "2h"}, "play"),
    ("/api/tienlen/check", {"play": "3s", "colour": "red"}, "colour"),
    ("/api/tienlen/check", {"play": 3}, "play"),
    ("/api/tienlen/check", {"play": "3s", "rules": "all"}, "rules"),
    ("/api/tienlen/check", {"play": "3s", "first_play": "yes"}, "first_play"),
    ("/api/tienlen/check", {"play": "3s", "lowest": "Kh"}, "lowest"),
    ("/api/tienlen/check", {"play": "3s 3s"}, "play"),
    ("/api/tienlen/check", {"play": "3s", "rules": {"first_lead": "never"}}, "rules"),
    ("/api/trece/check", {"top": "Kh", "play": "RJ", "must_follow": "x"}, "must_follow"),
    ("/api/trece/check", {"top": "Kh", "play": "RJ", "must_follow": 3}, "must_follow"),
    ("/api/trece/check", {"top": " ", "play": "RJ"}, "top"),
    ("/api/trece/check", {"top": "zz", "play": "RJ"}, "top"),
    ("/api/trece/check", {"top": "Kh", "play": "zz"}, "play"),
    ("/api/three-thirteen/score", {"hand": "3s 4s 5s", "round": "one"}, "round"),
    ("/api/three-thirteen/score", {"hand": "3s 4s 5s", "round": 1, "players": 99}, "players"),
    ("/api/three-thirteen/score", {"hand": "3s zz", "round": 1}, "hand"),
    ("/api/tienlen/score", {"players": 2, "winner": 0, "cards_left": [0, 13], "frozen": [True, False]}, "frozen"),
    ("/api/tienlen/score", {"players": 2, "winner": 0, "cards_left": [0, 13], "frozen": "yes"}, "frozen"),
    ("/api/tienlen/score", {"players": 2, "winner": 0, "cards_left": [0, 3], "leftover": [None, "2h"]}, "leftover"),
    ("/api/tienlen/score", {"players": 2, "winner": 0, "cards_left": [0, 3], "leftover": [None, "zz"]}, "leftover"),
    ("/api/tienlen/score", {"players": 2, "winner": 0, "cards_left": [1, 3]}, "cards_left"),
    ("/api/tienlen/score", {"players": 2, "winner": 0}, "cards_left"),
    ("/api/tienlen/score", {"players": 2, "winner": 0, "cards_left": [0, 3],
                            "chops": [[{"by": 0, "from": 1, "twos": "Ah"}]]}, "chops"),
]


@pytest.mark.parametrize(("path", "body", "field"), MISTAKES)
def test_every_api_error_is_said_in_the_readers_language_and_names_its_field(  # type: ignore[no-untyped-def]
        client, documented_status, path, body, field) -> None:
    answer = client.post(path, json=body, headers=VI)
    assert answer.status_code == documented_status(path, body)
    data = answer.get_json()
    assert data["error"] and data["error_localized"] and data["error_localized"] != data["error"], data
    assert data.get("field") == field, data


def test_a_translated_card_mistake_keeps_the_field_it_names(client) -> None:  # type: ignore[no-untyped-def]
    es = client.post("/api/tienlen/check", json={"play": "4s", "table": "3s 3s"},
                     headers={"Accept-Language": "es"}).get_json()
    assert es["error"].startswith("the table: ")
    assert es["error_localized"].startswith(translate("es", "the table") + ": ")
    assert es["field"] == "table"


def test_the_trece_suit_mistake_is_translated(client) -> None:  # type: ignore[no-untyped-def]
    data = client.post("/api/trece/check", json={"top": "Kh", "play": "RJ", "must_follow": "x"},
                       headers={"Accept-Language": "pt"}).get_json()
    assert "'x' is not a suit" in data["error"]
    assert data["error_localized"] == translate(
        "pt", "the field {field} must be a suit such as ♥ or h, or null: {value} is not a suit",
        field="'must_follow'", value="'x'")


def test_the_openapi_document_lists_the_field_every_error_may_carry(client) -> None:  # type: ignore[no-untyped-def]
    doc = client.get("/api/openapi.json").get_json()
    error = doc["components"]["schemas"]["Error"]["properties"]
    assert {"error", "error_localized", "field"} <= set(error)


# --- the score sheet: refusals beside their field, counts said right ---------------------------


def test_a_leftover_in_bad_notation_is_refused_beside_its_seat(app, client) -> None:  # type: ignore[no-untyped-def]
    e = Evening(app, client, start_sheet(client))
    table = e.start_table(leader=1)
    play_the_chop_chain_hand(e, table)
    response = e.post(f"/table/{e.table_id(table)}/0", cards_1="2s zz")
    assert response.status_code == 422
    body = text(response)
    assert 'id="ts-left-1-error" role="alert">Binh\'s leftover cards: \'zz\' at position 2 is not a card' in body


def test_one_leftover_card_is_said_in_the_singular(app, client) -> None:  # type: ignore[no-untyped-def]
    e = Evening(app, client, start_sheet(client))
    table = e.start_table(leader=1)
    play_the_chop_chain_hand(e, table)
    response = e.post(f"/table/{e.table_id(table)}/0", cards_3="8h")
    assert response.status_code == 422
    assert "Dung has 7 cards left, but 1 leftover card is entered" in text(response)


def test_the_not_frozen_help_describes_the_tick_as_not_frozen(app, client) -> None:  # type: ignore[no-untyped-def]
    e = Evening(app, client, start_sheet(client))
    response = e.post("/add", out="0", left_1="13", frozen_1="maybe", left_2="3", left_3="4")
    assert response.status_code == 422
    assert "The “not frozen” box is either ticked or left empty." in text(response)


# --- errors the server answers before any endpoint runs --------------------------------------------


def test_refusals_before_the_endpoint_are_said_in_english_and_in_the_readers_language(client) -> None:  # type: ignore[no-untyped-def]
    deep = client.post("/api/tienlen/check", data="[" * 30000, content_type="application/json", headers=VI)
    assert deep.status_code == 400
    body = deep.get_json()
    assert body["error"].startswith("the JSON body nests deeper than")
    assert body["error_localized"].startswith("nội dung JSON lồng sâu hơn")
    cross = client.post("/api/tienlen/check", json={"play": "3s"},
                        headers={**VI, "Origin": "http://elsewhere.example"})
    assert cross.status_code == 403
    body = cross.get_json()
    assert body["error"].startswith("This came from another website")
    assert body["error_localized"] == translate(
        "vi", "This came from another website, so the referee did not accept it. "
              "Open the game's own page and send it from there.")
    missing = client.post("/api/no-such-thing", json={}, headers=VI)
    assert missing.status_code == 404 and missing.get_json()["error_localized"]
    wrong_way = client.get("/api/tienlen/check", headers=VI)
    assert wrong_way.status_code == 405 and wrong_way.get_json()["error_localized"]


def test_a_control_character_names_its_field(client) -> None:  # type: ignore[no-untyped-def]
    answer = client.post("/api/tienlen/check?play=3s%00", json={"play": "3s"}, headers=VI)
    assert answer.status_code == 400
    body = answer.get_json()
    assert body["field"] == "play" and "“play”" in body["error"] and body["error_localized"] != body["error"]


def test_english_readers_get_no_localized_copy(client) -> None:  # type: ignore[no-untyped-def]
    body = client.post("/api/tienlen/check", json={"play": "3s", "lowest": "Kh"}).get_json()
    assert "error_localized" not in body and body["field"] == "lowest"


# --- the wild card and the joker on the pages ------------------------------------------------------


@pytest.mark.parametrize(("code", "wild", "joker"), [("es", "carta loca", "comodín"), ("pt", "carta maluca", "curinga")])
def test_the_three_thirteen_rules_page_keeps_the_wild_card_and_the_joker_apart(client, code, wild, joker) -> None:  # type: ignore[no-untyped-def]
    import re

    body = text(client.get("/three-thirteen/rules", headers={"Accept-Language": code}))
    paragraphs = re.findall(r"<(?:p|li|dd)[^>]*>(.*?)</(?:p|li|dd)>", body, re.S)
    left_over = [p for p in paragraphs if "20" not in p and ("propio valor" in p or "valor normal" in p)]
    assert left_over and all(wild in p.lower() and joker not in p.lower() for p in left_over)
    assert any(joker[:5] in p.lower() for p in body.split("<dt>")[1:])  # the jokers switch keeps the joker's word
