"""axe-core in the browser tests: the npm package is installed by scripts/test into
tests/a11y/node_modules (never served by the app) and injected into a page by the test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def axe_violations(page: Any, impacts: tuple[str, ...] = SERIOUS) -> list[str]:
    """The serious and critical violations axe finds on the page, one line each."""
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: ./scripts/test installs axe-core with npm (tests/a11y)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => { const r = await axe.run(document, {resultTypes: ['violations']});
             return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})); }"""
    )
    return [f"{v['impact']} {v['id']}: {v['help']} at {json.dumps(v['nodes'])}" for v in result if v["impact"] in impacts]
