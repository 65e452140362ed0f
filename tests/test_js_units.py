"""The browser scripts' own unit tests (``tests/js/*.test.js``), run by Node's test runner
(``node --test``) as part of the suite: each JavaScript test that fails fails this test, with
Node's report."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).resolve().parent / "js"


def test_the_scripts_unit_tests_pass_under_node() -> None:
    if shutil.which("node") is None:
        pytest.fail("Node.js is needed for the scripts' unit tests: run ./scripts/test")
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.js"))
    assert files, "no tests/js/*.test.js"
    result = subprocess.run(["node", "--test", *files], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# pass 0" not in result.stdout
