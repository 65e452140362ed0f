"""The walker in the suite (issue 34): 300 steps by touch through every control it reaches, in
four walks of 75 from fixed seeds (each within the suite's per-test time limit on a loaded
machine), on SQLite, every screen checked with tests/invariants.py (tests/walk.py; the long run
is ``python -m tests.walk --seeds 10 --steps 200``, its figures in docs/testing.md)."""

from __future__ import annotations

import pytest

from tests.walk import REFUSALS, walk

pytestmark = pytest.mark.browser


# Seed 3 found, at step 28, a card tapped on a Three Thirteen round after a refused Save redrawing
# that hand's split out of view (y 822 on a 740 px screen); fixed, and kept here so it stays so.
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_walker_breaks_no_invariant_in_75_steps(browser, live_server, new_phone, seed):
    walker = walk(browser, live_server.url, seed, 75, lambda context: new_phone(context, strict=True, axe=True, allowed=REFUSALS))
    assert len(walker.log) == 75
    print(f"walker seed {seed}: steps at followed tables {walker.tables or 'none'}, {len(walker.screens)} screens")
