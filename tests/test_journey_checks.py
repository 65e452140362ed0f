"""The dispute each game exists for, walked by touch from the home page (issue 34): its "Check a
play" link, the cards tapped on the one card grid, the verdict in view with its reason, every
screen checked with tests/invariants.py after every tap.  Tiến lên: does 3♠3♣4♦4♥5♠5♣ beat a single
2♥ (a bomb)?  Trece: is Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣ one run on J♦ (the king exception)?  (Three
Thirteen's split of a hand is walked in tests/test_journey_three_thirteen.py.)  At 360×740 and
320×640, the languages and dark mode spread over the two runs."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

RUNS = [pytest.param(360, 740, "vi", "dark", id="360x740-vi-dark"),
        pytest.param(320, 640, "es", "light", id="320x640-es-light")]


def check(w, game: str, first: str, cards: list[str]) -> None:  # type: ignore[no-untyped-def]
    """From the home page: the game's "Check a play", ``first`` on the grid's first target
    (the table, the pile's top), then the play's cards, each tap's verdict in view."""
    page = w.page
    w.tap(f".game-quick a[href='/{game}/check']", f"{game}: Check a play", result=page.locator("#verdict"))
    w.tap(f"#picker-check [data-card='{first}']", f"{first} first", result=page.locator("#verdict"))
    target = page.locator("#picker-play [data-target]")
    if target.get_attribute("aria-pressed") != "true":
        w.tap(target, "then the play")
    for card in cards:
        w.tap(f"#picker-check [data-card='{card}']", f"the play: {card}", result=page.locator("#verdict"))


@pytest.mark.parametrize(("width", "height", "lang", "scheme"), RUNS)
def test_each_games_dispute_is_checked_by_touch_from_the_home_page(journey, width, height, lang, scheme):
    w = journey(width, height, scheme)
    page = w.page
    w.open("/")
    w.tap(f".langs [data-lang='{lang}']", f"the language: {lang}")

    check(w, "tienlen", "2h", ["3s", "3c", "4d", "4h", "5s", "5c"])
    expect(page.locator("#verdict [data-state='legal']")).to_be_visible()
    expect(page.locator("#verdict .badge.bomb")).to_be_visible()
    w.phone.step("the verdict: legal, a bomb")

    w.tap("header .brand", "home again, by the top bar")
    check(w, "trece", "Jd", ["Qh", "Kh", "As", "Ks", "Qc", "Jc", "10c"])
    expect(page.locator("#verdict [data-verdict=legal]")).to_be_visible()
    w.phone.step("the verdict: legal, one run")
