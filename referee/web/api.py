"""The JSON API blueprint: shared error handling, the card parser, the OpenAPI document.

Every game's endpoints are registered on :data:`bp` by its own web module.
A mistake in the input is a 400 with ``{"error": "..."}`` naming the problem.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from referee.cards import format_cards, parse_cards
from referee.text import Message, message
from referee.web import openapi
from referee.web.i18n import reason_fields

bp = Blueprint("api", __name__, url_prefix="/api")


class BadRequest(ValueError):
    """A request body that is not what the endpoint takes, said as a referee sentence.

    ``sentence`` is the whole mistake (``error``, translated as ``error_localized``); ``reason``
    is the referee sentence inside it when the mistake is in one field's cards (its
    ``reason_code`` and ``params`` are given), else the sentence itself; ``field`` names the
    field at fault.
    """

    def __init__(self, sentence: Message, *, reason: Message | None = None, field: str | None = None) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence
        self.reason = reason if reason is not None else sentence
        self.field = field


def json_body(*, required: tuple[str, ...] = (), allowed: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object, with its required fields present and no unknown ones."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest(message("the body must be a JSON object (Content-Type: application/json)"))
    for key in required:
        if key not in data:
            raise BadRequest(message("the field {field} is missing", field=repr(key)), field=key)
    if allowed:
        unknown = sorted(set(data) - set(allowed) - set(required))
        if unknown:
            raise BadRequest(message("unknown field {field} (allowed: {allowed})", field=repr(unknown[0]),
                                     allowed=", ".join(sorted({*allowed, *required}))), field=unknown[0])
    return data


def text_field(data: dict[str, Any], key: str, *, default: str = "") -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    if not isinstance(value, str):
        raise BadRequest(message("the field {field} must be a string of cards", field=repr(key)), field=key)
    return value


def rules_field(data: dict[str, Any]) -> dict[str, Any]:
    rules = data.get("rules")
    if rules is None:
        return {}
    if not isinstance(rules, dict):
        raise BadRequest(message("the field {field} must be an object of house-rule switches", field="'rules'"),
                         field="rules")
    return rules


@bp.errorhandler(ValueError)
def bad_input(exc: ValueError):  # type: ignore[no-untyped-def]
    """400 with the English ``error``; a mistake that carries a referee sentence (every
    :class:`BadRequest`, bad notation, too many copies, a house rule, ...) adds its
    ``reason_code`` and ``params`` and, for a reader of another language, ``error_localized``
    (the whole mistake, the field it names included). ``field`` names the field at fault."""
    body: dict[str, Any] = {"error": str(exc)}
    reason = getattr(exc, "reason", None)
    if isinstance(reason, Message):
        body.update(reason_fields(reason, key="error"), error=str(exc))
    sentence = getattr(exc, "sentence", None)
    if isinstance(sentence, Message) and "error_localized" in body:
        body["error_localized"] = sentence.translate(gettext)
    field = getattr(exc, "field", None) or getattr(exc, "switch", None) and "rules"
    if field:
        body["field"] = field
    return jsonify(body), 400


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
    """The app's own answer for an API path: ``error`` in English, ``error_localized``, ``field``."""
    from referee.web import _http_error

    return _http_error(exc)


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
