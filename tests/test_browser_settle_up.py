"""Settle up at the end of a Tiến lên evening, by touch, at 360×740 and 320×640: the new-evening
form's end switch, the stake, two games, the winner and the fewest payments in words."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.touch import Touch

pytestmark = pytest.mark.browser

PHONE = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def fits(page) -> bool:  # type: ignore[no-untyped-def]
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def small_targets(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.evaluate(
        """() => [...document.querySelectorAll(`.settle-up a, .settle-up button, .settle-stake-form summary,
                  .settle-stake-form input:not([type=hidden]), .settle-stake-form select, .settle-stake-form button,
                  .evening-end-form summary, .evening-end-fields input:not([type=hidden]), .evening-end-form button`)]
            .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
                           && (r.width < 44 || r.height < 44); })
            .map(e => e.tagName + ' ' + (e.name || e.textContent).trim().slice(0, 30))"""
    )


def add_by_hand(page, touch, out: int, left: dict[int, str]) -> None:  # type: ignore[no-untyped-def]
    touch.tap(page.locator('[data-action="by-hand"]'))
    page.wait_for_url("**/add")
    touch.tap(page.locator(f'input[name="out"][value="{out}"]'))
    for seat, value in left.items():
        touch.tap(page.locator(f"#left_{seat}"))
        page.locator(f"#left_{seat}").fill(value)
    touch.tap(page.get_by_role("button", name="Save the game"))
    page.wait_for_url("**added=*")


@pytest.mark.parametrize("size", [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_settle_up_at_the_end_of_a_tien_len_evening_by_touch(browser, live_server, new_phone, size):
    width, height = size
    context = browser.new_context(**PHONE, viewport={"width": width, "height": height})
    errors: list[str] = []
    page = new_phone(context).page  # its screens checked (tests/invariants.py)
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10_000)
    touch = Touch(page)
    page.goto(live_server.url + "/tienlen/scores/")
    for i, name in enumerate(("An", "Binh", "Chi")):
        touch.tap(page.locator(f"#name{i}"))
        page.locator(f"#name{i}").fill(name)
    touch.tap(page.locator("#end-games"))
    page.locator("#end-games").fill("2")
    assert fits(page)
    touch.tap(page.get_by_role("button", name="Start the sheet"))
    page.wait_for_url("**/tienlen/scores/g/**")
    expect(page.locator(".evening-to-go")).to_contain_text("2 games left")

    # The stake: 1,000 ₫ a point.
    touch.tap(page.locator(".settle-stake-form summary"))
    touch.tap(page.locator("#settle-stake"))
    page.locator("#settle-stake").fill("1000")
    page.locator("#settle-currency").select_option("VND")
    assert small_targets(page) == []
    assert fits(page)
    touch.tap(page.locator('[data-action="set-stake"]'))
    expect(page.locator(".settle-up")).to_contain_text("₫1,000 a point")

    add_by_hand(page, touch, 0, {1: "5", 2: "3"})   # An +8, Binh −5, Chi −3
    expect(page.locator(".evening-to-go")).to_contain_text("1 game left")
    add_by_hand(page, touch, 1, {0: "1", 2: "4"})   # Binh +5, An −1, Chi −4: An 7, Binh 0, Chi −7

    over = page.locator(".evening-over")
    expect(over).to_contain_text("The evening is over: 2 games played", ignore_case=True)
    expect(over).to_contain_text("An won the evening.")
    block = page.locator('.settle-up[data-state="final"]')
    expect(block).to_contain_text("Binh is square")
    expect(block.locator(".settle-transfers li")).to_have_count(1)
    expect(block.locator(".settle-transfers li")).to_have_text("Chi pays An ₫7,000")
    block.scroll_into_view_if_needed()
    assert fits(page)
    assert small_targets(page) == []

    # A game past the end is still taken, and said.
    add_by_hand(page, touch, 2, {0: "2", 1: "2"})
    expect(page.locator('[data-state="past-end"]')).to_contain_text("1 game was played past the end")
    expect(page.locator(".settle-transfers li")).to_have_text("Chi pays An ₫7,000")
    context.close()
    assert errors == [], errors
