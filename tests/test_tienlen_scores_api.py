"""POST /api/tienlen/score: the issue's example, and a 400 naming each inconsistency."""

from __future__ import annotations

import pytest

EXAMPLE = {
    "players": 4, "winner": 0, "order": [0, 3, 1, 2], "cards_left": [0, 5, 13, 2],
    "leftover": [None, "2d 7d 8d 9c 9s", "2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", None],
    "frozen": [False, False, True, False],
    "chops": [[{"by": 3, "from": 1, "twos": "2h"}, {"by": 0, "from": 3}]],
    "instant_win": None, "rules": {"score_by": "cards"},
}


def test_the_worked_example_scores_40_minus_9_minus_27_minus_4(client) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/api/tienlen/score", json=EXAMPLE)
    assert response.status_code == 200, response.get_json()
    data = response.get_json()
    assert data["points"] == [40, -9, -27, -4]
    assert data["payments"][0] == {"from": 1, "to": 0, "points": 5, "item": "cards"}
    assert {p["item"] for p in data["payments"]} == {"cards", "frozen", "caught", "chop"}
    totals = [0, 0, 0, 0]
    for p in data["payments"]:
        totals[p["from"]] -= p["points"]
        totals[p["to"]] += p["points"]
    assert totals == data["points"]


def test_places_with_play_on_uses_the_order(client) -> None:  # type: ignore[no-untyped-def]
    body = {"players": 4, "winner": 0, "order": [0, 3, 1, 2], "cards_left": [0, 5, 12, 2],
            "rules": {"score_by": "places", "play_on": True}}
    data = client.post("/api/tienlen/score", json=body).get_json()
    assert data["points"] == [2, -1, -2, 1]
    assert {p["item"] for p in data["payments"]} == {"places"}


def test_an_instant_win(client) -> None:  # type: ignore[no-untyped-def]
    body = {"players": 3, "winner": 2, "cards_left": [13, 13, 0], "instant_win": 2, "rules": {"instant_wins": True}}
    data = client.post("/api/tienlen/score", json=body).get_json()
    assert data["points"] == [-26, -26, 52]
    assert [p["item"] for p in data["payments"]] == ["instant", "instant"]


def _with(**changes):  # type: ignore[no-untyped-def]
    body = {k: v for k, v in EXAMPLE.items()}
    for key, value in changes.items():
        if value is ...:
            body.pop(key)
        else:
            body[key] = value
    return body


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (_with(winner=4), "the winner must be a seat from 0 to 3, not 4"),
        (_with(cards_left=[2, 5, 13, 2]), "went out, so has 0 cards left, not 2"),
        (_with(cards_left=[0, 5, 13]), "one count per player"),
        (_with(leftover=[None, "2d 7d 8d 9c", "2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", None]),
         "5 cards left, but 4 leftover cards"),
        (_with(leftover=[None, "2d 7d 8d 9c 9s", "2d 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", None]),
         "2♦ is given twice"),
        (_with(chops=[[{"by": 3, "from": 1, "twos": "Ah"}]]), "A♥ is not a 2"),
        (_with(chops=[[{"by": 3, "from": 1, "twos": "2d"}]]), "2♦ was chopped before seat 0 went out, so it is not among seat 1's leftover"),
        (_with(chops=[[{"by": 3, "from": 1, "twos": "2h"}], [{"by": 0, "from": 3, "twos": "2h"}]]),
         "2♥ is chopped twice"),
        (_with(chops=[[{"by": 3, "from": 1, "twos": "2h"}, {"by": 0, "from": 1}]]), "chain is broken"),
        (_with(order=..., rules={"score_by": "places", "play_on": True}), "needs the finishing order"),
        (_with(rules={"chop_bleu": 1}), "unknown house rule 'chop_bleu'"),
        (_with(rules={"chop_red": -2}), "chop_red is a whole number from 0 to 1000, not -2"),
        (_with(rules={"twos_in_sequences": True}), "unknown house rule 'twos_in_sequences'"),
        (_with(order=[0, 3, 1, 1]), "every seat once"),
        (_with(frozen=[False, True, True, False]), "has 5 cards left, so played some"),
        (_with(players=5), "2 to 4 players"),
        ({"players": 2, "winner": 0, "cards_left": [0, 13], "instant_win": 0}, "instant wins are off"),
        (_with(instant_win=0), "after an instant win nobody has played: seat 1 holds 13 cards, not 5"),
        (_with(cards_left="0 5 13 2"), "cards_left must be a list"),
        (_with(leftover=[None, "2d 7d 8d 9c Zz", None, None]), "'Zz'"),
        (_with(surprise=1), "unknown field 'surprise'"),
    ],
)
def test_an_inconsistency_is_refused_naming_it(client, documented_status, body, words) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/api/tienlen/score", json=body)
    assert response.status_code == documented_status("/api/tienlen/score", body)
    assert words in response.get_json()["error"]


def test_the_endpoint_is_in_the_openapi_document(client) -> None:  # type: ignore[no-untyped-def]
    doc = client.get("/api/openapi.json").get_json()
    op = doc["paths"]["/api/tienlen/score"]["post"]
    assert op["requestBody"]["content"]["application/json"]["example"]["cards_left"] == [0, 5, 13, 2]
    rules = op["requestBody"]["content"]["application/json"]["schema"]["properties"]["rules"]
    assert rules == {"$ref": "#/components/schemas/ScoreRules"}  # built from the library's ScoreRules
    assert set(doc["components"]["schemas"]["ScoreRules"]["properties"]) >= {
        "score_by", "first_stake", "second_stake", "frozen", "two_left_black", "two_left_red", "bomb_left",
        "chop_black", "chop_red", "chop_bomb", "instant_stake", "play_on", "instant_wins"}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": 2, "winner": 0, "cards_left": [0, 13], "frozen": [False, False]},
         "seat 1 has 13 cards left, so played no card and was frozen"),
        ({"players": 4, "winner": 0, "cards_left": [0, 12, 12, 12],
          "chops": [[{"by": 1, "from": 2, "twos": "2h 2d 2s"}, {"by": 3, "from": 1}, {"by": 1, "from": 3}]]},
         "seat 2 had played 1 of 13 cards when seat 0 went out, so could not have played the chopped 2♠ 2♦ 2♥"),
        ({"players": 4, "winner": 0, "cards_left": [0, 12, 5, 12], "chops": [[{"by": 1, "from": 2, "twos": "2h"}]]},
         "seat 1 had played 1 of 13 cards when seat 0 went out, fewer than the 4 cards of a bomb"),
    ],
)
def test_hand_entered_counts_that_cannot_happen_are_a_422_naming_the_seat_and_the_count(  # type: ignore[no-untyped-def]
        client, body, words) -> None:
    response = client.post("/api/tienlen/score", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["error"] == words
