"""A group by touch at 360×740 and 320×640: made from a sheet's players, tonight's Tiến lên sheet
started from it with a tap per person, its first game entered, the evening and the stats shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.touch import Touch

pytestmark = pytest.mark.browser

PHONE = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
NAMES = ("An", "Binh", "Chi", "Dung")


def fits(page) -> list[str]:  # type: ignore[no-untyped-def]
    """What a phone cannot use: sideways scroll, buttons or fields under 44 × 44 px."""
    page.wait_for_load_state("load")
    wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, a, input:not([type=hidden]), select, summary')]
            .filter(e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
               return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'
                 && !(e.tagName === 'INPUT' && (e.type === 'checkbox' || e.type === 'radio') && e.closest('label'))
                 && (r.width < 44 || r.height < 44); })
            .map(e => e.tagName + ' ' + (e.textContent || e.name || e.id).trim().slice(0, 30))""")
    return (["scrolls sideways"] if wide else []) + small


def enter_game(page, touch: Touch, winner: int, left: dict[int, str]) -> None:  # type: ignore[no-untyped-def]
    touch.tap(page.locator('[data-action="by-hand"]'))
    page.wait_for_url("**/add")
    touch = Touch(page, taps=touch.taps)
    touch.tap(page.locator(f'input[name="out"][value="{winner}"]'))
    for seat, value in left.items():
        touch.tap(page.locator(f"#left_{seat}"))
        page.locator(f"#left_{seat}").fill(value)
    touch.tap(page.get_by_role("button", name="Save the game"))
    page.wait_for_url("**added=*")


@pytest.mark.parametrize("size", [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_a_group_made_from_a_sheet_starts_tonights_sheet_with_a_tap_per_person(browser, live_server, new_phone, size):  # type: ignore[no-untyped-def]
    width, height = size
    context = browser.new_context(**PHONE, viewport={"width": width, "height": height})
    errors: list[str] = []
    page = new_phone(context).page  # its screens checked (tests/invariants.py)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10_000)
    page.goto(live_server.url + "/groups/")  # making a group on its own, and the import, fit too
    assert fits(page) == []
    # Last week's sheet, typed as today.
    page.goto(live_server.url + "/tienlen/scores/")
    for i, name in enumerate(NAMES):
        page.locator(f"#name{i}").tap()
        page.locator(f"#name{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url("**/tienlen/scores/g/**")
    enter_game(page, Touch(page), 1, {0: "5", 2: "13", 3: "2"})

    # Make a group of these players, in one tap.
    touch = Touch(page, from_here=True)
    touch.tap(page.locator('[data-action="make-group"]'))
    page.wait_for_url("**/groups/g/**")
    expect(page.locator("h1")).to_contain_text("An, Binh, Chi, Dung")
    expect(page.locator(".evening")).to_have_count(1)
    expect(page.locator(".evening .winner").first).to_contain_text("Binh")
    assert fits(page) == []
    group_url = page.url

    # Tonight's sheet: each person one tap, in seat order, then Start.
    touch = Touch(page)
    form = page.locator("form[data-group-start]").first
    for name in ("Dung", "An", "Chi", "Binh"):
        touch.tap(form.locator(f'button[data-person="{name}"]'))
    expect(form.locator('button[data-person="Dung"] .seat-no')).to_have_text("1")
    touch.tap(form.get_by_role("button", name="Start"))
    page.wait_for_url("**/tienlen/scores/g/**")
    assert touch.taps == 5  # no name typed: the people are picked
    expect(page.locator('[data-total="0"]').locator("xpath=..")).to_contain_text("Dung")
    enter_game(page, Touch(page), 0, {1: "4", 2: "3", 3: "6"})  # Dung goes out first
    expect(page.locator('[data-total="0"]')).to_have_text("+13")

    # The group's page and its stats, read on the same phone.
    page.goto(group_url)
    expect(page.locator(".sittings li")).to_have_count(2)
    assert fits(page) == []
    Touch(page).tap(page.locator('[data-action="stats"]'))
    page.wait_for_url("**/stats")
    expect(page.locator('table[data-stats="all"] tr[data-person="Dung"] [data-stat="wins"]')).to_have_text("1")
    expect(page.locator('table[data-stats="all"] tr[data-person="Binh"] [data-stat="games"]')).to_have_text("2")
    expect(page.locator(".group-chart svg[role=img]")).to_be_visible()
    assert fits(page) == []
    assert errors == []
    context.close()
