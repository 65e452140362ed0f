"""The walker in the suite (issue 34): 300 steps from a fixed seed by touch through every control
it reaches, on SQLite, every screen checked with tests/invariants.py (tests/walk.py; the long
run is ``python -m tests.walk --seeds 10 --steps 2000``)."""

from __future__ import annotations

import pytest

from tests.walk import walk

pytestmark = pytest.mark.browser


def test_the_walker_breaks_no_invariant_in_300_steps(browser, live_server, new_phone):
    walker = walk(browser, live_server.url, 1, 300, lambda context: new_phone(context, strict=True, axe=True))
    assert len(walker.log) == 300
