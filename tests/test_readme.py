"""The README stays one screen: the two commands near the top, every doc it links present."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()


def test_the_readme_is_short_and_its_two_commands_come_first() -> None:
    assert len(README) <= 150, f"README.md has {len(README)} lines; move the detail to docs/"
    top = "\n".join(README[:40])
    assert "```sh\n./scripts/serve\n```" in top
    assert "```sh\n./scripts/test\n```" in top


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^exec \./scripts/test$", ci, re.MULTILINE)


def test_every_document_and_picture_the_readme_links_exists() -> None:
    targets = re.findall(r"\]\(([^)#]+)[^)]*\)|src=\"([^\"]+)\"", "\n".join(README))
    paths = [a or b for a, b in targets if not (a or b).startswith("http")]
    assert len(paths) >= 10
    missing = [p for p in paths if not (ROOT / p).is_file()]
    assert not missing, missing


def test_the_docs_link_only_to_files_that_exist() -> None:
    missing = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            if not (doc.parent / target).is_file():
                missing.append(f"{doc.name} → {target}")
    assert not missing, missing
