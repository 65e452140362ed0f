"""The JSON API blueprint: shared error handling, the card parser, the OpenAPI document.

Every game's endpoints are registered on :data:`bp` by its own web module.
A mistake in the input is a :class:`~referee.errors.RefereeError` (:class:`~referee.errors.UnreadableInput`
for a body not shaped as the endpoint takes it), answered 400 with ``{"error": "..."}`` naming
the problem; anything else raised by a view is a bug, answered 500 (and logged).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from referee.cards import format_cards, parse_cards
from referee.errors import RefereeError, UnreadableInput
from referee.text import Message, message
from referee.web import openapi, registry
from referee.web.errors import answer_json

bp = Blueprint("api", __name__, url_prefix="/api")


def in_field(exc: RefereeError, field: str, what: Message) -> UnreadableInput:
    """The mistake ``exc`` found in the request's ``field``, said with ``what`` the field holds
    ("the play: '1x' at position 3 is not a card"); its ``reason`` stays the referee's own."""
    return UnreadableInput(exc.reason, said=message("{what}: {why}", what=what, why=exc.reason), field=field)


def json_body(*, required: tuple[str, ...] = (), allowed: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object, with its required fields present and no unknown ones."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise UnreadableInput(message("the body must be a JSON object (Content-Type: application/json)"))
    for key in required:
        if key not in data:
            raise UnreadableInput(message("the field {field} is missing", field=repr(key)), field=key)
    if allowed:
        unknown = sorted(set(data) - set(allowed) - set(required))
        if unknown:
            raise UnreadableInput(message("unknown field {field} (allowed: {allowed})", field=repr(unknown[0]),
                                     allowed=", ".join(sorted({*allowed, *required}))), field=unknown[0])
    return data


def text_field(data: dict[str, Any], key: str, *, default: str = "") -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    if not isinstance(value, str):
        raise UnreadableInput(message("the field {field} must be a string of cards", field=repr(key)), field=key)
    return value


def rules_field(data: dict[str, Any]) -> dict[str, Any]:
    rules = data.get("rules")
    if rules is None:
        return {}
    if not isinstance(rules, dict):
        raise UnreadableInput(message("the field {field} must be an object of house-rule switches", field="'rules'"),
                         field="rules")
    return rules


@bp.errorhandler(RefereeError)
def bad_input(exc: RefereeError) -> ResponseReturnValue:
    """The one answer to a mistake in a request (:func:`referee.web.answer_json`): 400, or the
    status the web layer gave it (403, 413)."""
    return answer_json(exc)


@bp.route("/openapi.json")
def openapi_document() -> ResponseReturnValue:
    return jsonify(openapi.document(registry.entries()))


@bp.post("/cards/parse")
def parse() -> ResponseReturnValue:
    data = json_body(required=("cards",))
    cards = parse_cards(text_field(data, "cards"))
    return jsonify(cards=[str(c) for c in cards], text=format_cards(cards), ascii=format_cards(cards, ascii=True))


openapi.add_path(
    "/api/cards/parse",
    "post",
    openapi.json_operation(
        "Read cards written in any notation and print them back with suit symbols.",
        {"type": "object", "required": ["cards"], "properties": {"cards": {"$ref": "#/components/schemas/Cards"}}},
        {
            "type": "object",
            "properties": {
                "cards": {"type": "array", "items": {"type": "string"}},
                "text": {"type": "string"},
                "ascii": {"type": "string"},
            },
        },
        {"cards": "3s,3c 10h"},
    ),
)
