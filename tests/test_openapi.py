"""The OpenAPI document is valid, and every endpoint answers the way it says it does."""

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from referee.web import api, openapi  # noqa: F401  (api adds the shared paths)
from tests.games import ENTRIES

# Each game's package lists its paths in its registry entry; the document is read from the
# registry (the toy game's included) so the tests can be parametrised over its operations (the
# served one must match).
DOC = openapi.document(ENTRIES)
OPERATIONS = [(path, method, op) for path, ops in DOC["paths"].items() for method, op in ops.items()]


def inline(node):
    """The schema with every ``#/components/...`` reference replaced by what it names."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = DOC
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return inline({**target, **rest})
        return {k: inline(v) for k, v in node.items()}
    if isinstance(node, list):
        return [inline(v) for v in node]
    return node


def schema_validator(schema):
    return Draft202012Validator(inline(schema))


def test_the_document_is_valid_openapi(client):
    assert client.get("/api/openapi.json").get_json() == DOC
    validate(DOC)
    assert {"/api/tienlen/check", "/api/three-thirteen/score", "/api/trece/check", "/api/cards/parse"} <= set(DOC["paths"])


@pytest.mark.parametrize(("path", "method", "op"), OPERATIONS, ids=[f"{m} {p}" for p, m, _ in OPERATIONS])
def test_the_documented_example_gets_an_answer_of_the_documented_shape(client, path, method, op):
    body = op["requestBody"]["content"]["application/json"]
    schema_validator(body["schema"]).validate(body["example"])
    response = client.open(path, method=method.upper(), json=body["example"])
    assert response.status_code == 200, response.get_json()
    answer_schema = op["responses"]["200"]["content"]["application/json"]["schema"]
    schema_validator(answer_schema).validate(response.get_json())


@pytest.mark.parametrize(("path", "method", "op"), OPERATIONS, ids=[f"{m} {p}" for p, m, _ in OPERATIONS])
def test_a_bad_body_gets_the_documented_error_shape(client, path, method, op):
    response = client.open(path, method=method.upper(), json={"no": "such field"})
    assert response.status_code == 400
    error_schema = op["responses"]["400"]["content"]["application/json"]["schema"]
    schema_validator(error_schema).validate(response.get_json())
