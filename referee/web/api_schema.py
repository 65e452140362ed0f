"""The JSON API's request checks, derived from its OpenAPI document: one source, so the checks
and the document cannot disagree.

Before any API view runs, a JSON body is validated against the request schema of its operation
in ``/api/openapi.json`` (:func:`referee.web.openapi.document`, built once per app); a body the
schema refuses is a 400 naming the field and what is wrong, in the API's ``{"error": ...}``
form (a house rule's value is left to the rules class, whose sentence names the switch; the
schema is built from that class and says the same).  The views keep their own checks for what a schema cannot say (card notation, the rules'
own refusals), never for what it does.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from referee.errors import UnreadableInput
from referee.text import Message, message
from referee.web import openapi, registry

_KEY = "thirteen_api_schemas"


def _validators(app: Flask) -> dict[tuple[str, str], Draft202012Validator]:
    built: dict[tuple[str, str], Draft202012Validator] | None = app.extensions.get(_KEY)
    if built is None:
        document = openapi.document(registry.entries())
        built = {}
        for path, operations in document.get("paths", {}).items():
            for method, operation in operations.items():
                schema = (operation.get("requestBody", {}).get("content", {})
                          .get("application/json", {}).get("schema"))
                if schema is not None:
                    # The components travel with the body's schema, so its "#/components/…" refs resolve.
                    built[(method.upper(), path)] = Draft202012Validator({**schema, "components": document["components"]})
        app.extensions[_KEY] = built
    return built


def _field(error: Any) -> str | None:
    path = [str(p) for p in error.absolute_path]
    if path:
        return path[0]
    if error.validator == "required" and error.message.startswith("'"):
        return str(error.message.split("'")[1])
    if error.validator == "additionalProperties" and "'" in error.message:
        return str(error.message.split("'")[1])
    return None


class SchemaRefusal(UnreadableInput):
    """A body the schema refuses, said as a referee sentence: a 400 of the one refusal family,
    answered (and translated) as every other."""

    def __init__(self, sentence: Message, field: str | None) -> None:
        super().__init__(sentence, field=field)
        self.sentence = sentence


def check_body() -> None:
    """Refuse (400) a JSON body the API's schema does not allow for this request."""
    if request.method != "POST" or not request.is_json or not request.path.startswith("/api/"):
        return
    validator = _validators(current_app).get((request.method, request.path))
    if validator is None:
        return
    data = request.get_json(silent=True)
    if data is None:
        return  # not JSON at all: the view says so
    error = best_match(validator.iter_errors(data))
    if error is None:
        return
    if _field(error) == "rules" and error.absolute_path:
        return  # a switch's value: the rules class says it in players' words (its schema says the same)
    if not _only_the_schema_catches(error):
        return  # the view checks it itself, naming the field in players' words (the schema says the same)
    raise SchemaRefusal(_sentence(error, validator.schema), _field(error))


def _only_the_schema_catches(error: Any) -> bool:
    """What the views would let through: a null where the schema wants a value (a view reads a
    null like a missing optional field)."""
    return bool(error.validator == "type" and error.instance is None)


def _sentence(error: Any, schema: dict[str, Any]) -> Message:
    """What the schema says is wrong, in the API's words (a sentence every language has)."""
    where = "/".join(str(p) for p in error.absolute_path)
    field = repr(where or _field(error) or "")
    if error.validator == "type" and not error.absolute_path:
        return message("the body must be a JSON object (Content-Type: application/json)")
    if error.validator == "required":
        return message("the field {field} is missing", field=repr(_field(error)))
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {})) if isinstance(error.schema, dict) else []
        return message("unknown field {field} (allowed: {allowed})", field=repr(_field(error) or ""),
                       allowed=", ".join(allowed))
    if error.validator == "type":
        wanted = error.validator_value if isinstance(error.validator_value, str) else " or ".join(error.validator_value)
        return message("the field {field} must be of JSON type {kind}, not {value}", field=field, kind=wanted,
                       value=repr(error.instance))
    if error.validator == "enum":
        return message("the field {field} must be one of {choices}, not {value}", field=field,
                       choices=", ".join(repr(v) for v in error.validator_value), value=repr(error.instance))
    if error.validator in ("minimum", "maximum"):
        bounds = error.schema if isinstance(error.schema, dict) else {}
        return message("the field {field} must be from {low} to {high}, not {value}", field=field,
                       low=bounds.get("minimum", "…"), high=bounds.get("maximum", "…"), value=repr(error.instance))
    if error.validator in ("maxProperties", "maxItems"):
        return message("the field {field} holds more than {most} entries", field=field, most=error.validator_value)
    return message("the field {field} does not fit the API's schema", field=field)


def init_app(app: Flask) -> None:
    """Check every API body against the schema before its view runs."""
    app.before_request(check_body)
