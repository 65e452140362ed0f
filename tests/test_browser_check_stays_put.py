"""The Trece check screen stays where it is while its verdict answers: the first cards of the
play tapped while the phone's own referee is still loading (its status line in the footer) do
not scroll the page to that line, and the grid stays under the finger. 360 × 740 and 320 × 640."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE
from tests.touch import Touch

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_the_trece_check_does_not_jump_while_the_phones_referee_loads(browser, new_engine_phone, size):
    width, height = size
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})
    # The engine's runtime never arrives: its status line stays in the footer, saying so.
    context.route("**/pyodide/**", lambda route: route.fulfill(status=503, body=""))
    phone = new_engine_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    page = phone.open("/trece/check")
    page.wait_for_function("() => [...document.querySelectorAll('[data-picker]')].every(p => p.dataset.ready)")
    touch = Touch(page)
    touch.tap(page.locator("#picker-top [data-target]"))
    touch.tap(page.locator("#picker-check [data-card='Jd']"))
    touch.tap(page.locator("#picker-check [data-card='Qs']"))
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "legal")
    page.wait_for_timeout(300)  # any scroll after the swap has happened by now
    touch._track()
    expect(page.locator(".engine-state")).to_be_attached()
    touch.report(f"Trece check, two cards while the phone's referee loads, at {width}×{height}")
    assert touch.scrolled == 0
    assert page.evaluate("scrollY") == 0
    # The runtime refused on purpose (503) is this test's doing, and what the page logs of it.
    for errors in (phone.errors, phone.inv.errors):
        errors[:] = [e for e in errors if "503" not in e and "pyodide" not in e.lower()]
    phone.step("two cards tapped while the phone's referee loads", allow=(503,))
    context.close()
    assert phone.errors == []


def test_the_trece_jokers_are_not_under_the_verdict_at_320_px(browser, new_phone):
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}})
    phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    page = phone.open("/trece/check")
    page.wait_for_function("() => [...document.querySelectorAll('[data-picker]')].every(p => p.dataset.ready)")
    touch = Touch(page)
    for joker in ("RJ", "BJ"):
        button = page.locator(f"#picker-check [data-card='{joker}']")
        assert touch._reachable(button), f"{joker} is covered or off the screen"
        box = button.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 44, box  # a card button's least size at 320 px
    phone.step("the Trece check at 320 px")
    context.close()
    assert phone.errors == []
