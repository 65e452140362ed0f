# The part of jsonschema the app uses (referee/web/api_schema.py).
from collections.abc import Iterator
from typing import Any

from jsonschema.exceptions import ValidationError

class Draft202012Validator:
    schema: dict[str, Any]
    def __init__(self, schema: dict[str, Any]) -> None: ...
    def iter_errors(self, instance: Any) -> Iterator[ValidationError]: ...
