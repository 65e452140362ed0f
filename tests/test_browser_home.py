"""The home page and the card picker, by touch, on a 360-pixel-wide phone."""

import pytest

from tests.invariants import WithoutScripts

pytestmark = pytest.mark.browser


def test_home_fits_a_phone_and_every_target_is_thumb_sized(phone):
    page = phone.open("/")
    assert page.locator("h1").is_visible()
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    assert page.evaluate("document.documentElement.classList.contains('js')")


def test_picker_taps_select_and_unselect_and_the_text_follows(phone):
    page = phone.open("/")
    picker = page.locator("[data-picker]").first
    text = picker.locator(".picker-text")
    picker.locator("[data-card='5h']").tap()
    picker.locator("[data-card='3s']").tap()
    picker.locator("[data-card='2c']").tap()
    assert text.input_value() == "3♠ 5♥ 2♣"  # Tiến lên order: 3 low, 2 high
    assert picker.locator("[data-card='5h']").get_attribute("aria-pressed") == "true"
    picker.locator("[data-card='5h']").tap()
    assert text.input_value() == "3♠ 2♣"
    assert picker.locator(".chip").all_inner_texts() == ["3♠", "2♣"]
    picker.locator(".chip", has_text="2♣").tap()
    assert text.input_value() == "3♠"


def test_typing_in_the_picker_lights_up_the_cards(phone):
    page = phone.open("/")
    picker = page.locator("[data-picker]").first
    picker.locator(".picker-text").fill("qs, 10h 3c")
    assert picker.locator("[data-card='Qs']").get_attribute("aria-pressed") == "true"
    assert picker.locator("[data-card='10h']").get_attribute("aria-pressed") == "true"
    assert picker.locator(".chip").count() == 3


def test_picker_card_buttons_are_at_least_44_px(phone):
    page = phone.open("/")
    box = page.locator("[data-card='10h']").first.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert phone.no_sideways_scroll()


def test_without_javascript_the_picker_is_a_plain_text_field(browser, live_server, phone_context):
    context = browser.new_context(java_script_enabled=False, **phone_context)
    page = context.new_page()
    screen = WithoutScripts(page)
    page.goto(live_server.url + "/")
    screen.step("the home page, no JavaScript")
    assert page.locator(".picker-text").first.is_visible()
    assert not page.locator(".picker-grid").first.is_visible()
    context.close()


def test_the_scripts_work_in_either_order(phone):
    """picker.js before app.js (a page loads app.js first, picker.js at the end of its body):
    both still add to window.Thirteen, and the picker still sorts the cards in the order its
    page gives (data-ranks)."""
    page = phone.page

    def swap(route):  # type: ignore[no-untyped-def]
        response = route.fetch()
        html = response.text()
        picker = next(line for line in html.splitlines() if "js/picker." in line)
        app = next(line for line in html.splitlines() if "js/app." in line)
        route.fulfill(response=response, body=html.replace(picker, "\0").replace(app, picker).replace("\0", app))

    page.route(phone.base_url + "/", swap)
    phone.open("/")
    order = page.evaluate("[...document.scripts].map(s => s.src).filter(s => /js\\/(app|picker)\\./.test(s))")
    assert "js/picker." in order[0] and "js/app." in order[1]
    assert page.evaluate("typeof window.Thirteen.outbox.flush === 'function' && typeof window.Thirteen.parseCards === 'function'")
    picker = page.locator("[data-picker]").first
    for card in ("2c", "5h", "3s"):
        picker.locator(f"[data-card='{card}']").tap()
    ranks = picker.get_attribute("data-ranks").split()
    assert picker.locator(".picker-text").input_value() == " ".join(
        sorted(["3♠", "5♥", "2♣"], key=lambda c: ranks.index(c[:-1])))
