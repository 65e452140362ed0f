"""The walker in the suite (issue 34): 300 steps by touch through every control it reaches, in
three walks of 100 from fixed seeds (each within the suite's per-test time limit on a loaded
machine), on SQLite, every screen checked with tests/invariants.py (tests/walk.py; the long run
is ``python -m tests.walk --seeds 10 --steps 200``)."""

from __future__ import annotations

import pytest

from tests.walk import REFUSALS, walk

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_walker_breaks_no_invariant_in_100_steps(browser, live_server, new_phone, seed):
    walker = walk(browser, live_server.url, seed, 100, lambda context: new_phone(context, strict=True, axe=True, allowed=REFUSALS))
    assert len(walker.log) == 100
