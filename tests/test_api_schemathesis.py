"""The JSON API does what its OpenAPI document says: schemathesis with every check over every
operation, on a budget CI can afford (deterministic, a few hundred cases).

What the document allows is answered 200, or 422 when the facts cannot be (a card held twice,
balances that do not add up to zero: the referee's sentence names the rule); what it forbids is
a 400, whatever the view would have let through.  A 422 is never a mistake the document could
have said (a card that does not read, a field of the wrong type): those are the document's.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.generation.modes import GenerationMode

from referee.web import api, openapi  # noqa: F401  (api adds the shared paths)
from tests.games import ENTRIES

# Cases per operation and mode (each operation: bodies the document allows, then bodies it forbids):
# about 350 in all, some 30 s; SCHEMATHESIS_EXAMPLES=500 for a deeper run on demand.
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))

# The sentences that say a body does not fit the document (its shape, or cards that do not read):
# a 422 never carries one of them, or the document allowed what the app cannot read.
SHAPE_SENTENCES = ("the field ", "unknown field ", "the body must be", "{piece} at position {position} is not a card")


OPERATIONS = sorted(f"{method.upper()} {path}" for path, ops in openapi.document(ENTRIES)["paths"].items()
                    for method in ops)


@pytest.fixture(scope="module")
def api_schema(shared_app):
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", shared_app)
    schema.config.checks.update(included_check_names=["all"])
    # The document answers a readable body whose facts cannot be with a 422 (every operation's
    # "422"); any other refusal of a body it allows is a failure.
    accepted = schema.config.checks.positive_data_acceptance
    accepted.expected_statuses = [*accepted.expected_statuses, "422"]
    return schema


def a_refusal_of_facts_names_a_rule(ctx, response, case):
    """A 422 says why the facts cannot be, never that the body does not read."""
    if response.status_code == 422:
        code = response.json().get("reason_code", "")
        assert not code.startswith(SHAPE_SENTENCES), f"a 422 for a body the document should refuse: {code!r}"
    return None


@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
@pytest.mark.parametrize("label", OPERATIONS)
def test_the_api_answers_as_its_document_says_with_every_check(api_schema, label, mode):
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None, label

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def answers_as_documented(case):
        # The test client does not undo compression: ask for none (a real client's does).
        case.call_and_validate(headers={"Accept-Encoding": "identity"},
                               additional_checks=[a_refusal_of_facts_names_a_rule])

    answers_as_documented()
