"""The OpenAPI document of the JSON API, served at ``/api/openapi.json``.

Each game's module adds its own paths with :func:`add_path` when it is imported,
so the document and the endpoints live side by side.
"""

from __future__ import annotations

import copy
from typing import Any

_PATHS: dict[str, dict[str, Any]] = {}

# Beside every English sentence (``reason``, ``error``): its template and parameters, so that
# other programs can say it in their own language; the app's own translation on request.
_LOCALIZED = {
    "type": "string",
    "description": "The sentence in the language the request's Accept-Language picks (es, pt, vi), when it "
    "is not English.",
}
CODE_PROPERTIES: dict[str, Any] = {
    "reason_code": {
        "type": "string",
        "description": "The sentence's template, stable across languages: the msgid of the app's catalogues "
        "(e.g. '{play} is lower than {table}').",
    },
    "params": {
        "type": "object",
        "description": "The values of the template's {blanks}: strings (cards in notation), numbers, or a "
        "nested sentence as {reason_code, params}.",
    },
}
REASON_PROPERTIES: dict[str, Any] = {**CODE_PROPERTIES, "reason_localized": _LOCALIZED}
_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {"type": "string", "description": "What is wrong, naming the card or rule."},
            **CODE_PROPERTIES,
            "error_localized": _LOCALIZED,
            "field": {"type": "string", "description": "The request field that holds the mistake."},
        },
    },
    "Cards": {
        "type": "string",
        "description": "Cards in notation: rank then suit (10♥, 10h, TH, qs), separated by spaces, "
        "commas or nothing; jokers JK, RJ, BJ.",
        "examples": ["3♠ 3♣ 4♦", "3s3c4d"],
    },
}



def add_path(path: str, method: str, operation: dict[str, Any]) -> None:
    _PATHS.setdefault(path, {})[method.lower()] = operation


def add_schema(name: str, schema: dict[str, Any]) -> None:
    _SCHEMAS[name] = schema


def json_operation(
    summary: str, request_schema: dict[str, Any], response_schema: dict[str, Any], example: Any = None
) -> dict[str, Any]:
    """An operation that takes and answers JSON, with the shared 400 answer."""
    body: dict[str, Any] = {"schema": request_schema}
    if example is not None:
        body["example"] = example
    return {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": body}},
        "responses": {
            "200": {"description": "The verdict.", "content": {"application/json": {"schema": response_schema}}},
            "400": {
                "description": "Bad input: the reason names the card, switch or field.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            },
        },
    }


def document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Thirteen referee API",
            "version": "1.0.0",
            "description": "Check plays and score hands for Tiến lên, Three Thirteen and Trece.",
        },
        "paths": copy.deepcopy(_PATHS),
        "components": {"schemas": copy.deepcopy(_SCHEMAS)},
    }
