"""The JSON API's request checks, derived from its OpenAPI document: one source, so the checks
and the document cannot disagree.

Before any API view runs, a JSON body is validated against the request schema of its operation
in ``/api/openapi.json`` (:func:`referee.web.openapi.document`, built once per app); a body the
schema refuses is never answered as done. The view speaks first, so a mistake it names (a card
that does not read, a house rule's value, a round the game has not) is said in its players'
words; whatever the schema forbids and the view let through is then a 400 naming the field and
what is wrong, in the API's ``{"error": ...}`` form.  The schema says the notation of cards with
the reader's own grammar (:func:`referee.cards.notation_pattern`) and each rules class with its
own metadata, so what it allows the views read: ``tests/test_api_schemathesis.py`` runs
schemathesis with every check over the document.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, g, request
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from referee.errors import REFUSED, UNREADABLE, UnreadableInput
from referee.text import Message, message
from referee.web import openapi, registry
from referee.web.errors import answer_json

_KEY = "thirteen_api_schemas"
_VERDICT = "thirteen_schema_verdict"


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
    """Note (in ``g``) whether the API's schema allows this request's JSON body, and if not why."""
    g.pop(_VERDICT, None)
    if request.method != "POST" or not request.is_json or not request.path.startswith("/api/"):
        return
    validator = _validators(current_app).get((request.method, request.path))
    if validator is None:
        return
    data = request.get_json(silent=True)
    if data is None:
        return  # not JSON at all: the view says so
    _whole_numbers(data)
    error = best_match(validator.iter_errors(data))
    g.setdefault(_VERDICT, None if error is None else SchemaRefusal(_sentence(error, validator.schema), _field(error)))


def _whole_numbers(data: Any) -> None:
    """Read ``2.0`` as ``2`` throughout the (cached) body, in place: JSON has one kind of number
    and the schema's ``integer`` takes both, so the views, which want a whole number as an
    ``int``, take both too.  (The guard has refused deep JSON before this runs.)

    >>> body = {"round": 2.0, "cards_left": [0.0, 3.5], "rules": {"decks": 1e0}}
    >>> _whole_numbers(body); body
    {'round': 2, 'cards_left': [0, 3.5], 'rules': {'decks': 1}}
    """
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in list(items):
        if isinstance(value, float) and value.is_integer():
            data[key] = int(value)
        else:
            _whole_numbers(value)


def answer_by_the_schema(response: Response) -> Response:
    """The status of an API answer is the document's: a body the schema forbids is a 400 and is
    never answered as done, a body it allows that the referee refuses is a 422.

    The view speaks first, so a mistake it names (a card that does not read, a house rule's
    value) is said in players' words; what it let through (a null read like a missing field) is
    then a 400 with the schema's sentence.  A body that fits the document but whose facts cannot
    be (balances that do not add up to zero, a card held twice, two players out) keeps the
    view's sentence, as a 422."""
    if _VERDICT not in g:
        return response
    refusal: SchemaRefusal | None = g.pop(_VERDICT)
    if refusal is not None and response.status_code < 400:
        return answer_json(refusal)
    if refusal is None and response.status_code == UNREADABLE:
        response.status_code = REFUSED
    return response


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
    """Check every API body against the schema (before its view runs, said after it)."""
    app.before_request(check_body)
    app.after_request(answer_by_the_schema)
