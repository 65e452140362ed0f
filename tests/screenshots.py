"""The screenshots of the README and docs (docs/*.png), taken in Chromium at 360 × 740 by touch.

    .venv/bin/python -m tests.screenshots          # writes docs/screenshot-*.png

The browser suite runs the same function into a temporary folder
(tests/test_browser_screenshots.py), so the flows behind the pictures stay working.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from tests.flows import start_trece_table

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIZE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}


def _run_round(client: Any, sheet: str, n: int, out_cards: str, points: dict[int, str]) -> None:
    html = client.get(f"{sheet}/round/{n}").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', html).group(1)  # type: ignore[union-attr]
    form = {"version": version, "out": "0", "cards_0": out_cards, **{f"points_{s}": p for s, p in points.items()}}
    assert client.post(f"{sheet}/round/{n}", data=form).status_code == 303


def take(browser: Any, base_url: str, app: Any, folder: Path) -> list[Path]:
    """Take every screenshot into ``folder``; the app is the live server's (to set games up)."""
    from tests.touch import Touch

    folder.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []

    def shot(page: Any, name: str) -> None:
        page.wait_for_timeout(1400)  # the verdict settles (no longer "so far")
        path = folder / f"screenshot-{name}.png"
        page.screenshot(path=str(path))
        shots.append(path)

    context = browser.new_context(**SIZE)
    page = context.new_page()
    # Tiến lên: the dispute, settled on one screen.
    page.goto(base_url + "/tienlen/check")
    touch = Touch(page)
    touch.tap(page.locator("#picker-check [data-card='2h']"))
    touch.tap(page.locator("#picker-play [data-target]"))
    for a, b in (("3s", "3c"), ("4d", "4h"), ("5s", "5c")):
        touch.swipe(page.locator(f"#picker-check [data-card='{a}']"), page.locator(f"#picker-check [data-card='{b}']"))
    page.locator("#verdict [data-state=legal]").wait_for()
    shot(page, "tienlen-check")

    # Three Thirteen: a round entered one hand at a time, the split live.
    client = app.test_client()
    r = client.post("/three-thirteen/new", data={"names": ["Ann", "Bao", "Chi", "Dan"], "dealer": "0"})
    sheet = r.headers["Location"].replace("http://localhost", "")
    _run_round(client, sheet, 1, "Ah 2h 3h", {1: "14", 2: "7", 3: "21"})
    _run_round(client, sheet, 2, "5c 6c 7c 8c", {1: "9", 2: "0", 3: "12"})
    page.goto(base_url + sheet + "/round/3")
    touch = Touch(page)
    touch.tap(page.locator(".tt-step[data-step='1']"))
    touch.swipe(page.locator("#seat-1 [data-card='9s']"), page.locator("#seat-1 [data-card='9c']"))
    touch.tap(page.locator("#seat-1 [data-card='5s']"))
    touch.tap(page.locator("#seat-1 [data-card='Kd']"))
    # Its split comes, then the round moves on to the next empty hand by itself: back to it.
    page.locator("#preview-1 .tt-points").wait_for(state="attached")
    page.locator(".tt-step[data-step='2'][aria-pressed='true']").wait_for()
    touch.tap(page.locator(".tt-step[data-step='1']"))
    page.locator("#preview-1 .tt-points").wait_for()
    page.locator(".tt-steps").evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, "three-thirteen-round")

    # Three Thirteen: the sheet (eight players fit at 360 px).
    r = client.post("/three-thirteen/new", data={
        "names": ["Annabelle", "Anna", "Chidi", "Dariusz", "Esperanza", "Fumiko", "Gwendolyn", "Hiroshi"], "dealer": "0"})
    big = r.headers["Location"].replace("http://localhost", "")
    for n in range(1, 5):
        run = " ".join(f"{x}h" for x in ["A", "2", "3", "4", "5", "6"][: n + 2])
        _run_round(client, big, n, run, {s: str((s * 7 + n * 5) % 40) for s in range(1, 8)})
    page.goto(base_url + big)
    page.locator("#sheet h2").first.evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, "three-thirteen-sheet")
    context.close()

    # Trece in the dark: a red joker on the king of hearts, its demand said.
    context = browser.new_context(color_scheme="dark", **SIZE)
    page = context.new_page()
    page.goto(base_url + "/trece/check")
    touch = Touch(page)
    touch.tap(page.locator("#picker-check [data-card='Qh']"))
    touch.tap(page.locator("#picker-check [data-card='Kh']"))
    touch.tap(page.locator("#picker-check [data-card='RJ']"))
    page.locator("#verdict .demand-line").wait_for()
    shot(page, "trece-joker-dark")

    # Trece table: a refusal, in view beside the turn after tapping Play at the bottom.
    page.goto(base_url + "/trece/")
    start_trece_table(page)
    page.locator("#picker-cards [data-card='5s']").tap()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.locator("[data-action=play]").tap()
    page.locator("[data-refusal]").wait_for()
    shot(page, "trece-refusal-dark")
    context.close()
    return shots


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM, LiveServer, _make_app

    with tempfile.TemporaryDirectory() as tmp:
        from referee.web.registry import GAME_PACKAGES

        app = _make_app(f"sqlite:///{Path(tmp) / 'shots.sqlite'}", GAME_PACKAGES=GAME_PACKAGES)  # the app's games only
        with LiveServer(app, Path(tmp)) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for path in take(browser, server.url, app, DOCS):
                print(path.relative_to(DOCS.parent))
            browser.close()


if __name__ == "__main__":
    main()
