"""The JSON API blueprint: shared error handling, the card parser, the OpenAPI document.

Every game's endpoints are registered on :data:`bp` by its own web module.
A mistake in the input is a 400 with ``{"error": "..."}`` naming the problem.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import HTTPException

from referee.cards import format_cards, parse_cards
from referee.text import Message
from referee.web import openapi
from referee.web.i18n import reason_fields

bp = Blueprint("api", __name__, url_prefix="/api")


class BadRequest(ValueError):
    """A request body that is not what the endpoint takes.

    ``reason`` (a referee sentence) and ``field`` are given when the mistake is in one field's
    cards: the answer then carries the sentence's ``reason_code`` and ``params`` too.
    """

    def __init__(self, text: str, *, reason: Message | None = None, field: str | None = None) -> None:
        super().__init__(text)
        self.reason = reason
        self.field = field


def json_body(*, required: tuple[str, ...] = (), allowed: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object, with its required fields present and no unknown ones."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object (Content-Type: application/json)")
    for key in required:
        if key not in data:
            raise BadRequest(f"the field {key!r} is missing")
    if allowed:
        unknown = sorted(set(data) - set(allowed) - set(required))
        if unknown:
            raise BadRequest(f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted({*allowed, *required}))})")
    return data


def text_field(data: dict[str, Any], key: str, *, default: str = "") -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    if not isinstance(value, str):
        raise BadRequest(f"the field {key!r} must be a string of cards")
    return value


def rules_field(data: dict[str, Any]) -> dict[str, Any]:
    rules = data.get("rules")
    if rules is None:
        return {}
    if not isinstance(rules, dict):
        raise BadRequest("the field 'rules' must be an object of house-rule switches")
    return rules


@bp.errorhandler(ValueError)
def bad_input(exc: ValueError):  # type: ignore[no-untyped-def]
    """400 with the English ``error``; a mistake that carries a referee sentence (bad notation,
    too many copies, ...) adds its ``reason_code`` and ``params`` (and ``error_localized``)."""
    body: dict[str, Any] = {"error": str(exc)}
    reason = getattr(exc, "reason", None)
    if isinstance(reason, Message):
        body.update(reason_fields(reason, key="error"), error=str(exc))
    field = getattr(exc, "field", None)
    if field:
        body["field"] = field
    return jsonify(body), 400


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
    from referee.web import with_error_headers

    return with_error_headers(jsonify(error=exc.description or exc.name), exc), exc.code


@bp.route("/openapi.json")
def openapi_document():  # type: ignore[no-untyped-def]
    from referee.web import registry

    return jsonify(openapi.document(registry.entries()))


@bp.post("/cards/parse")
def parse():  # type: ignore[no-untyped-def]
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
