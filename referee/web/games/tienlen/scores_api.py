"""``POST /api/tienlen/score``: score one finished game of Tiến lên (RULES.md, "Tiến lên scores").

The body holds the game's facts (``referee.tienlen_scores.FinishedGame.from_dict``)
and the switches; any inconsistency is a 400 ``{"error": ...}`` naming it.
"""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue

from referee.switches import rules_from_mapping
from referee.tienlen_scores import ITEMS, FinishedGame, ScoreRules, score
from referee.web import api, openapi

FIELDS = ("players", "winner", "order", "cards_left", "leftover", "caught", "frozen", "chops", "instant_win", "rules")


@api.bp.post("/tienlen/score")
def api_tienlen_score() -> ResponseReturnValue:
    data = api.json_body(required=("players", "winner", "cards_left"), allowed=FIELDS)
    rules = rules_from_mapping(ScoreRules, api.rules_field(data))
    game = FinishedGame.from_dict({k: v for k, v in data.items() if k != "rules"})
    return jsonify(score(game, rules).to_dict())


API = openapi.Section()

_SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
_PER_SEAT = {"minItems": 2, "maxItems": 4}

API.add_schema(
    "TienLenPayment",
    {
        "type": "object",
        "required": ["from", "to", "points", "item"],
        "properties": {
            "from": {**_SEAT, "description": "The seat that pays."},
            "to": {**_SEAT, "description": "The seat that is paid."},
            "points": {"type": "integer", "minimum": 1},
            "item": {"type": "string", "enum": list(ITEMS)},
            "cards": {"$ref": "#/components/schemas/Cards", "description": "The 2s chopped or caught, or the bomb caught."},
        },
    },
)
API.add_path(
    "/api/tienlen/score",
    "post",
    openapi.json_operation(
        "Tiến lên: score one finished game. The payments (from, to, points, item) add up to each seat's points, "
        "which add up to 0.",
        {
            "type": "object",
            "required": ["players", "winner", "cards_left"],
            "additionalProperties": False,
            "properties": {
                "players": {"type": "integer", "minimum": 2, "maximum": 4},
                "winner": {**_SEAT, "description": "The seat that went out first (0 cards left)."},
                "order": {"type": ["array", "null"], "items": _SEAT, **_PER_SEAT,
                          "description": "The finishing order, every seat once, first = winner; needed for places."},
                "cards_left": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 13},
                               **_PER_SEAT, "description": "Per seat, counted when the winner went out."},
                "leftover": {"type": ["array", "null"], **_PER_SEAT,
                             "items": {"oneOf": [{"$ref": "#/components/schemas/Cards"}, {"type": "null"}]},
                             "description": "Per seat null or the cards left; a count must equal cards_left."},
                "caught": {"type": ["array", "null"], **_PER_SEAT,
                           "items": {"oneOf": [{"$ref": "#/components/schemas/Cards"}, {"type": "null"}]},
                           "description": "Per seat null or only the 2s and bomb cards caught in the hand "
                                          "(instead of every leftover card)."},
                "frozen": {"type": ["array", "null"], "items": {"type": "boolean"}, **_PER_SEAT,
                           "description": "Default: true exactly for a seat with 13 cards left."},
                "chops": {
                    "type": "array",
                    "description": "One chain per trick where bombs fell; each later step bombs the step before. "
                                   "The counts are checked at the first out, with or without the order.",
                    "items": {"type": "array", "minItems": 1, "items": {
                        "type": "object", "required": ["by", "from"], "additionalProperties": False,
                        "properties": {"by": _SEAT, "from": _SEAT,
                                       "twos": {"$ref": "#/components/schemas/Cards",
                                                "description": "The 2s of the beaten play (first step only)."},
                                       "after_out": {"type": "boolean", "description":
                                                     "The bomb fell after the first player went out (play_on)."}},
                    }},
                },
                "instant_win": {"oneOf": [_SEAT, {"type": "null"}],
                                "description": "The seat that declared an instant win (needs instant_wins)."},
                "rules": openapi.rules_ref(ScoreRules),
            },
        },
        {
            "type": "object",
            "required": ["points", "payments"],
            "properties": {
                "points": {"type": "array", "items": {"type": "integer"}, "description": "Per seat; they add up to 0."},
                "payments": {"type": "array", "items": {"$ref": "#/components/schemas/TienLenPayment"}},
            },
        },
        {
            "players": 4, "winner": 0, "order": [0, 3, 1, 2], "cards_left": [0, 5, 13, 2],
            "leftover": [None, "2d 7d 8d 9c 9s", "2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", None],
            "frozen": [False, False, True, False],
            "chops": [[{"by": 3, "from": 1, "twos": "2h"}, {"by": 0, "from": 3}]],
            "instant_win": None, "rules": {"score_by": "cards"},
        },
    ),
)
