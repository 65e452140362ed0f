"""The Trece check screen stays where it is while its verdict answers: the first cards of the
play tapped while the phone's own referee is still loading (its status line in the footer) do
not scroll the page to that line, and the grid stays under the finger. 360 × 740 and 320 × 640."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE, Phone
from tests.touch import Touch

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_the_trece_check_does_not_jump_while_the_phones_referee_loads(browser, engine_server, size):
    width, height = size
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})
    # The engine's runtime never arrives: its status line stays in the footer, saying so.
    context.route("**/pyodide/**", lambda route: route.fulfill(status=503, body=""))
    phone = Phone(context, engine_server.url)
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
    context.close()
    phone.errors[:] = [e for e in phone.errors if "503" not in e and "pyodide" not in e.lower()]
    assert phone.errors == []


def test_the_trece_jokers_are_not_under_the_verdict_at_320_px(browser, live_server):
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}})
    phone = Phone(context, live_server.url)
    page = phone.open("/trece/check")
    page.wait_for_function("() => [...document.querySelectorAll('[data-picker]')].every(p => p.dataset.ready)")
    touch = Touch(page)
    for joker in ("RJ", "BJ"):
        button = page.locator(f"#picker-check [data-card='{joker}']")
        assert touch._reachable(button), f"{joker} is covered or off the screen"
        box = button.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 44, box  # a card button's least size at 320 px
    context.close()
    assert phone.errors == []
