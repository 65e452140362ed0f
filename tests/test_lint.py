"""The code base passes ruff, and the whole referee package (web included) mypy --strict, as part of the suite."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_finds_nothing_in_the_whole_referee_package():
    # The files and the strictness are in pyproject.toml ([tool.mypy]).
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", os.devnull, "--config-file", str(ROOT / "pyproject.toml")],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def library_modules():  # type: ignore[no-untyped-def]
    """``referee/*.py`` and the library's packages (``referee/tienlen_scores/``): all but the web layer."""
    root = ROOT / "referee"
    return sorted(p for p in root.rglob("*.py") if p.relative_to(root).parts[0] != "web")


def test_rule_modules_import_nothing_from_the_web_layer():
    for path in library_modules():
        text = path.read_text(encoding="utf-8")
        for banned in ("import flask", "from flask", "import sqlalchemy", "from sqlalchemy", "from referee.web"):
            assert banned not in text, f"{path.name} imports the web layer ({banned})"
