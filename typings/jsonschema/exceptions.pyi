# The part of jsonschema.exceptions the app uses (referee/web/api_schema.py).
from collections.abc import Iterable
from typing import Any

class ValidationError(Exception):
    message: str
    validator: str
    validator_value: Any
    instance: Any
    schema: Any
    absolute_path: Any

def best_match(errors: Iterable[ValidationError]) -> ValidationError | None: ...
