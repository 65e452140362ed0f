"""The JSON API's checks come from its OpenAPI schema: what the schema forbids is a 400 naming the
field, and the schema says what the rules refuse (one source, so they cannot disagree)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from referee.cards import NotationError, notation_pattern, parse_cards


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/cards/parse", {"cards": None}, "cards"),
    ("/api/trece/check", {"top": "RJ", "play": "3s", "must_follow": None}, "must_follow"),
    ("/api/trece/check", {"top": "rj", "play": "3s"}, "must_follow"),
    ("/api/three-thirteen/score", {"hand": "3s 4s 5s", "round": 1, "rules": {"decks": 0}}, "rules"),
])
def test_a_body_the_schema_forbids_is_a_400_naming_the_field(client, path, body, field):
    response = client.post(path, json=body)
    assert response.status_code == 400
    assert response.get_json()["field"] == field


def test_the_schema_says_what_the_rules_refuse(client):
    document = client.get("/api/openapi.json").get_json()
    decks = document["components"]["schemas"]["ThreeThirteenRules"]["properties"]["decks"]
    assert (decks["minimum"], decks["maximum"]) == (1, 8)
    trece = document["paths"]["/api/trece/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert trece["then"]["required"] == ["must_follow"]


def test_a_body_the_schema_allows_reaches_the_rules(client):
    response = client.post("/api/trece/check", json={"top": "3h", "play": "4h", "must_follow": None})
    assert response.status_code == 200 and response.get_json()["legal"] is True


# What schemathesis with every check found (issue 39): the document and the app now agree.
@pytest.mark.parametrize(("path", "body"), [
    ("/api/three-thirteen/score", {"hand": "3s 4s 5s", "round": 1, "rules": None}),
    ("/api/tienlen/check", {"play": "3s", "rules": None}),
    ("/api/trece/check", {"top": "3h", "play": "4h", "rules": None}),
    ("/api/trece/check", {"top": "RJ", "play": "3s", "must_follow": ""}),
    ("/api/cards/parse", {"cards": "\u008b"}),
    ("/api/tienlen/check", {"play": "3s", "lowest": "3s 4s"}),
])
def test_what_the_document_forbids_is_a_400(client, path, body):
    assert not _allowed(client, path, body)
    response = client.post(path, json=body)
    assert response.status_code == 400, response.get_json()


@pytest.mark.parametrize(("path", "body", "sentence"), [
    ("/api/settle", {"balances": {"An": 5, "Binh": -5, "Chi": 1}}, "add up to"),
    ("/api/three-thirteen/score", {"hand": "3s 4s 5s 6s 7s 8s", "round": 2}, "Round 2 deals 4 cards"),
    ("/api/tienlen/check", {"play": "3s", "table": "3s"}, "3♠"),
    ("/api/tienlen/check", {"play": "3s 3s"}, "3♠"),
    ("/api/tienlen/score", {"players": 2, "winner": 0, "cards_left": [0, 0]}, "only the winner went out"),
])
def test_a_body_the_document_allows_whose_facts_cannot_be_is_a_422_naming_the_rule(client, path, body, sentence):
    assert _allowed(client, path, body)
    response = client.post(path, json=body)
    assert response.status_code == 422 and sentence in response.get_json()["error"], response.get_json()


@pytest.mark.parametrize(("path", "body"), [
    ("/api/tienlen/check", {"play": "4s", "first_play": True, "lowest": "3c"}),  # any notation the app reads
    ("/api/tienlen/check", {"play": "4s", "first_play": True, "lowest": "♣3"}),
    ("/api/three-thirteen/score", {"hand": "3s 4s 5s", "round": 1.0, "players": 2.0}),  # JSON's one kind of number
    ("/api/settle", {"balances": {"An": 5.0, "Binh": -5}}),
    ("/api/trece/check", {"top": "♦J", "play": ["Q♦", "K♦"], "must_follow": " "}),
    ("/api/cards/parse", {"cards": "10h\u00a0♠3;JK"}),
])
def test_what_the_document_allows_is_read(client, path, body):
    assert _allowed(client, path, body)
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()


def test_a_letter_that_folds_to_a_suit_is_no_card_not_a_crash(client):
    for text in ("3\u017f", "\u212aS"):  # a long s; the Kelvin sign
        response = client.post("/api/cards/parse", json={"cards": text})
        assert response.status_code == 400 and "is not a card" in response.get_json()["error"]


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="2345678910AJQKTajqkt SsCcDdHh♠♤♣♧♦♢♥♡\ufe0f,;\u00a0\u3000\x1cRrBb🃏\u017f\u212ax", max_size=12))
def test_the_documented_notation_is_the_readers(text):
    """The Cards pattern matches a text exactly when the app's reader reads it."""
    try:
        parse_cards(text)
        reads = True
    except NotationError:
        reads = False
    assert bool(re.match(notation_pattern(), text)) == reads


def _allowed(client, path, body):
    document = client.get("/api/openapi.json").get_json()
    schema = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": document["components"]}).is_valid(body)
