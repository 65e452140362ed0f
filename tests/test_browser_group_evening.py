"""A group's evening by touch, at 360×740 and 320×640, reached by taps from the home page: a Tiến
lên sheet with an end (a game played past it), a Trece table and a Three Thirteen sheet, each for
money, then settled on the group's page in one sum that agrees with each page (issue 36)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
WIN = "6s 7s 8s 9s 10s Js Qs Ks Ah 2h 3h 4h 5h"


def usable(page) -> list[str]:  # type: ignore[no-untyped-def]
    """What a phone cannot use: sideways scroll, a page without its stylesheet."""
    page.wait_for_load_state("load")
    wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    styled = page.evaluate("[...document.styleSheets].some(s => { try { return s.cssRules.length > 0 } catch (e) { return false } })")
    return (["scrolls sideways"] if wide else []) + ([] if styled else ["no stylesheet"])


def settle_words(page) -> list[str]:  # type: ignore[no-untyped-def]
    return [re.sub(r"\s+", " ", t).strip() for t in page.locator(".settle-up .settle-words").all_inner_texts()]


def stake(page, amount: str) -> None:  # type: ignore[no-untyped-def]
    page.locator(".settle-stake-form summary").tap()
    page.locator("#settle-stake").tap()
    page.locator("#settle-stake").fill(amount)
    page.locator("#settle-currency").select_option("USD")
    page.locator('[data-action="set-stake"]').tap()
    page.wait_for_load_state("load")


def by_hand(page, out: int, left: dict[int, str]) -> None:  # type: ignore[no-untyped-def]
    page.locator('[data-action="by-hand"]').tap()
    page.wait_for_url("**/add")
    page.locator(f'input[name="out"][value="{out}"]').tap()
    for seat, value in left.items():
        page.locator(f"#left_{seat}").tap()
        page.locator(f"#left_{seat}").fill(value)
    page.get_by_role("button", name="Save the game").tap()
    page.wait_for_url("**added=*")


def where(page) -> list[str]:  # type: ignore[no-untyped-def]
    """The page's address and its document's start, as the page itself says them (Playwright's
    page.url may not have heard yet of a back step within the document, htmx's history; two
    steps may share an address, a form's 303 to the page it was sent from), asked again while a
    navigation lands."""
    for _ in range(20):
        try:
            return list(page.evaluate("[location.href, String(performance.timeOrigin)]"))
        except PlaywrightError as error:
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
            page.wait_for_load_state("load")
    raise AssertionError(f"the page never settled: {page.url}")


def back_to(page, part: str) -> None:  # type: ignore[no-untyped-def]
    """The phone's back button, one step at a time (each waits until the page moved: another
    address or another document), until the page is the one asked for."""
    for _ in range(12):
        before = where(page)
        if part in before[0]:
            page.wait_for_load_state("load")
            return
        try:
            page.go_back()
        except PlaywrightError as error:
            # The back button's page may itself be replaced while it loads (htmx restoring a
            # boosted page's history entry asks the server again): the phone is still somewhere.
            if "ERR_ABORTED" not in str(error):
                raise
        page.wait_for_function("b => location.href !== b[0] || String(performance.timeOrigin) !== b[1]", arg=before)
        page.wait_for_load_state("load")
    raise AssertionError(f"never back at {part}: {where(page)[0]}")


def start_from_group(page, game: str, people: tuple[str, ...]):  # type: ignore[no-untyped-def]
    start = page.locator("details.group-start", has=page.locator("summary", has_text=game))
    if start.get_attribute("open") is None:
        start.locator("summary").tap()
    form = start.locator("form[data-group-start]")
    for name in people:
        form.locator(f'button[data-person="{name}"]').tap()
    return form


@pytest.mark.parametrize("size", [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_a_groups_evening_of_three_games_is_settled_on_the_groups_page(browser, live_server, new_phone, size):  # type: ignore[no-untyped-def]
    width, height = size
    # A phone at UTC−8: the group made from its sheet takes its time zone (app.js fills the field).
    context = browser.new_context(**PHONE, viewport={"width": width, "height": height},
                                  timezone_id="America/Los_Angeles")
    phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    page = phone.page
    page.set_default_timeout(15_000)

    # From the home page: Tiến lên, its score sheet, two players and an end after one game.
    page.goto(live_server.url + "/")
    page.locator(".game-tile", has_text="Tiến lên").tap()
    page.locator(".game-tile", has_text="Score an evening").tap()
    for i, name in enumerate(("An", "Binh")):
        page.locator(f"#name{i}").tap()
        page.locator(f"#name{i}").fill(name)
    page.locator("#end-games").tap()
    page.locator("#end-games").fill("1")
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url("**/tienlen/scores/g/**")
    by_hand(page, 0, {1: "5"})  # An +5: the evening's one game
    by_hand(page, 1, {0: "9"})  # past the end: counted nowhere
    stake(page, "1")
    expect(page.locator(".evening-over")).to_contain_text("the evening is over: 1 game played")
    assert settle_words(page) == ["Binh pays An $5.00"]
    assert usable(page) == []

    # A group of these players, in one tap; the sheet's evening already settled there.
    page.locator('[data-action="make-group"]').tap()
    page.wait_for_url("**/groups/g/**")
    group_url = page.url.split("?")[0]
    assert settle_words(page) == ["Binh pays An $5.00"]
    expect(page.locator(".group-zone")).to_contain_text("this group's days in America/Los_Angeles")

    # Tonight's Trece table from the group: An deals, Binh plays all thirteen cards at once.
    form = start_from_group(page, "Trece", ("An", "Binh"))
    form.locator("#turned-field label:has(input[name='turned_rank'][value='5'])").tap()
    form.locator("#turned-field label:has(input[name='turned_suit'][value='d'])").tap()
    form.get_by_role("button", name="Start").tap()
    page.wait_for_url("**/trece/g/**")
    stake(page, "2.50")
    for code in WIN.split():
        page.locator(f"#picker-cards [data-card='{code}']").tap()
    page.locator('[data-action="play"]').tap()
    expect(page.locator(".settle-up .settle-words")).to_have_text(["An pays Binh $2.50"])
    assert usable(page) == []

    # Tonight's Three Thirteen sheet from the group: An goes out, Binh holds 24 points.
    back_to(page, group_url)
    form = start_from_group(page, "Three Thirteen", ("An", "Binh"))
    form.get_by_role("button", name="Start").tap()
    page.wait_for_url("**/three-thirteen/g/**")
    stake(page, "0.10")
    page.get_by_role("link", name="Enter round 1").tap()
    an = page.locator("#seat-0")
    an.get_by_text("went out").tap()
    for card in ("Ah", "2h", "3h"):
        an.locator(f"[data-card='{card}']").tap()
    an.locator("[data-next]").tap()
    binh = page.locator("#seat-1")
    for card in ("Ks", "9d", "5c"):
        binh.locator(f"[data-card='{card}']").tap()
    binh.locator(".tt-preview .tt-points", has_text="24 points").wait_for()
    page.get_by_role("button", name="Save round 1").tap()
    page.wait_for_url(re.compile(r"saved=1"))
    assert settle_words(page) == ["Binh pays An $2.40"]
    assert usable(page) == []

    # The group's page: one evening, one sum: 5.00 − 2.50 + 2.40.
    back_to(page, group_url)
    page.reload()
    evening = page.locator("article.evening")
    expect(evening).to_have_count(1)
    expect(evening.locator(".sittings li")).to_have_count(3)
    expect(evening.locator(".settle-up .settle-words")).to_have_text(["Binh pays An $4.90"])
    evening.locator(".settle-up").scroll_into_view_if_needed()
    expect(evening.locator(".settle-up .settle-words")).to_be_in_viewport()
    assert usable(page) == []
    assert phone.errors == []
    context.close()
