"""The JSON API's checks come from its OpenAPI schema: what the schema forbids is a 400 naming the
field, and the schema says what the rules refuse (one source, so they cannot disagree)."""

from __future__ import annotations

import pytest


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
