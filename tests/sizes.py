"""How many cases the long property and reference tests try.

The whole suite (``./scripts/test``, CI) runs each with a default sized to keep the command short,
and Hypothesis is derandomized there (``tests/conftest.py``): the same cases every run, so a run
never fails by the luck of the draw.  ``THIRTEEN_LONG_TESTS=1`` runs the long sizes, with fresh
random cases each time (docs/testing.md): run it after changing a rules engine.

>>> examples(60, 200) in (60, 200)
True
"""

from __future__ import annotations

import os

LONG = os.environ.get("THIRTEEN_LONG_TESTS", "") not in ("", "0")
"""Whether this run is the long one (``THIRTEEN_LONG_TESTS=1``)."""


def examples(default: int, long: int) -> int:
    """The number of cases of a property test: ``default`` in the suite, ``long`` in the long run."""
    return long if LONG else default
