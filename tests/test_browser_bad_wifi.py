"""Bad Wi-Fi at the table: a request that cannot get through is said plainly, nothing typed
is lost, and the message goes once the connection is back."""

import pytest
from playwright.sync_api import expect

from tests.flows import start_trece_table

pytestmark = pytest.mark.browser


def test_a_lost_connection_is_said_and_the_cards_stay(phone):
    page = phone.open("/tienlen/check")
    grid = page.locator("#picker-check")  # one grid: the table first, then the play
    grid.locator("[data-card='2h']").tap()
    page.locator("#picker-play [data-target]").tap()
    play = grid
    expect(page.locator("#connection")).to_have_count(0)

    phone.context.set_offline(True)
    for card in ("3s", "3c", "4d", "4h", "5s", "5c"):
        play.locator(f"[data-card='{card}']").tap()
    banner = page.locator("#connection")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("No connection to the referee")
    expect(page.locator("#picker-play-text")).to_have_value("3♠ 3♣ 4♦ 4♥ 5♠ 5♣")
    assert phone.no_sideways_scroll()

    phone.context.set_offline(False)
    play.locator("[data-card='5c']").tap()
    play.locator("[data-card='5c']").tap()  # the same cards again, sent now the Wi-Fi is back
    expect(banner).to_be_hidden()
    expect(page.locator("#verdict")).to_contain_text("LEGAL", ignore_case=True)
    expect(page.locator("#verdict")).to_contain_text("bombs a single 2")
    # Chromium and htmx log each request that could not be sent; those are the point of this test.
    expected = ("ERR_INTERNET_DISCONNECTED", "htmx:sendError", "htmx:afterRequest")
    phone.errors[:] = [e for e in phone.errors if not any(x in e for x in expected)]


def test_a_refusal_that_is_not_swapped_in_is_said_in_the_banner(phone, live_server):
    """A keeper link revoked or mistyped (404) must not make a tap silently do nothing."""
    page = phone.open("/trece/")
    start_trece_table(page)
    # The game disappears from under the phone (as if the link were wrong).
    page.evaluate("""() => document.querySelectorAll('#table form[hx-post]').forEach(
        f => f.setAttribute('hx-post', f.getAttribute('hx-post').replace('/g/', '/g/gone-')))""")
    page.evaluate("() => htmx.process(document.body)")
    page.locator("[data-action=draw]").tap()
    banner = page.locator("#connection")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("No game has this link")
    phone.errors[:] = [e for e in phone.errors if "404" not in e and "htmx:responseError" not in e]
