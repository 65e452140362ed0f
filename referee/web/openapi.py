"""The OpenAPI document of the JSON API, served at ``/api/openapi.json``.

The shared paths (:func:`add_path`) and, for each game of the app's registry
(:mod:`referee.web.registry`), its own :class:`Section` of paths and schemas, written beside
its endpoints, plus one schema per rules class of the game, built from the library's switch
metadata (the fields, their defaults and ``CHOICES``) by :func:`rules_schema`: one way for
every game.
"""

from __future__ import annotations

import copy
import dataclasses
import types
import typing
from collections.abc import Sequence
from typing import Any, Protocol

from referee.cards import notation_pattern

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
        "description": "Cards in notation: rank then suit (10♥, 10h, TH, qs) or suit then rank (♥10), "
        "separated by spaces, commas, semicolons or nothing; jokers JK, RJ, BJ, 🃏. Or a list of such "
        "strings, read as one. The pattern is the app's own reader (referee.cards.parse_cards).",
        "anyOf": [
            {"type": "string", "pattern": notation_pattern()},
            {"type": "array", "items": {"type": "string", "pattern": notation_pattern()}},
        ],
        "examples": ["3♠ 3♣ 4♦", "3s3c4d"],
    },
}



class Section:
    """One game's paths and schemas, written beside its endpoints (``API = Section()``) and
    listed in its registry entry."""

    def __init__(self) -> None:
        self.paths: dict[str, dict[str, Any]] = {}
        self.schemas: dict[str, Any] = {}

    def add_path(self, path: str, method: str, operation: dict[str, Any]) -> None:
        self.paths.setdefault(path, {})[method.lower()] = operation

    def add_schema(self, name: str, schema: dict[str, Any]) -> None:
        self.schemas[name] = schema


_SHARED = Section()


def add_path(path: str, method: str, operation: dict[str, Any]) -> None:
    """A path every app has (not a game's)."""
    _SHARED.add_path(path, method, operation)


def rules_ref(cls: type) -> dict[str, str]:
    """A reference to the schema of the rules class ``cls`` (see :func:`rules_schema`)."""
    return {"$ref": f"#/components/schemas/{cls.__name__}"}


def rules_schema(cls: type) -> dict[str, Any]:
    """The JSON schema of a game's house rules, from the library's own metadata: each field of
    the frozen rules dataclass (its switch id), its default, its type and ``CHOICES``.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, kw_only=True)
    ... class Demo:
    ...     "A demo's house rules."
    ...     doubles: bool = False
    ...     faces: str = "ten"
    ...     decks: int | None = None
    ...     CHOICES = {"faces": ("ten", "rank")}
    >>> rules_schema(Demo)["properties"]
    {'doubles': {'type': 'boolean', 'default': False}, 'faces': {'enum': ['ten', 'rank'], 'type': 'string', \
'default': 'ten'}, 'decks': {'type': ['integer', 'null'], 'default': None}}
    """
    choices: dict[str, tuple[Any, ...]] = getattr(cls, "CHOICES", {})
    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        default = f.default
        if f.name in choices:
            options = list(choices[f.name])
            kind = "integer" if all(isinstance(o, int) for o in options) else "string"
            properties[f.name] = {"enum": options, "type": kind, "default": default}
            continue
        hint = hints.get(f.name)
        nullable = isinstance(hint, types.UnionType) and type(None) in typing.get_args(hint)
        base = next((a for a in typing.get_args(hint) if a is not type(None)), None) if nullable else hint
        kinds: dict[object, str] = {bool: "boolean", int: "integer", str: "string"}
        kind = kinds.get(base, "string")
        properties[f.name] = {"type": [kind, "null"] if nullable else kind, "default": default}
        low, high = getattr(cls, "RANGES", {}).get(f.name, (None, None))  # bounds the class checks
        if low is not None:
            properties[f.name].update(minimum=low, maximum=high)
    summary = (cls.__doc__ or "").strip().split("\n")[0]
    return {
        "type": "object",
        "additionalProperties": False,
        "description": f"{summary} Missing switches keep their defaults.".strip(),
        "properties": properties,
    }


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
                "description": "A body this document does not allow: the reason names the card, switch or field.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            },
            "422": {
                "description": "A body this document allows whose facts cannot be (a card held twice, balances "
                "that do not add up to zero, two players out): the reason names the rule.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            },
        },
    }


class Documented(Protocol):
    """A game as the document reads it (a :class:`~referee.web.registry.GameEntry`)."""

    @property
    def name(self) -> str: ...
    @property
    def api(self) -> Sequence[Section]: ...
    @property
    def rules(self) -> Sequence[type]: ...


def document(games: Sequence[Documented]) -> dict[str, Any]:
    """The document: the shared paths, then each game's sections and rules schemas."""
    paths = copy.deepcopy(_SHARED.paths)
    schemas = copy.deepcopy(_SCHEMAS)
    for game in games:
        for section in game.api:
            paths.update(copy.deepcopy(section.paths))
            schemas.update(copy.deepcopy(section.schemas))
        for cls in game.rules:
            schemas[cls.__name__] = rules_schema(cls)
    names = [game.name for game in games]
    told = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Thirteen referee API",
            "version": "1.0.0",
            "description": f"Check plays and score hands for {told}.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }
