"""The screenshots of the README and docs are taken by this flow (``python -m tests.screenshots`` writes
them into docs/); here it runs into a temporary folder so it keeps working."""

import pytest

from tests.screenshots import take

pytestmark = pytest.mark.browser


def test_the_readme_screenshots_can_be_taken(browser, live_server, tmp_path):
    shots = take(browser, live_server.url, live_server.app, tmp_path)
    assert [p.name for p in shots] == [
        "screenshot-tienlen-check.png", "screenshot-three-thirteen-round.png", "screenshot-three-thirteen-sheet.png",
        "screenshot-trece-joker-dark.png", "screenshot-trece-refusal-dark.png",
    ]
    for path in shots:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5_000
