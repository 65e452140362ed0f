"""The home page and the card picker, by touch, on a 360-pixel-wide phone."""

import pytest

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
    page.goto(live_server.url + "/")
    assert page.locator(".picker-text").first.is_visible()
    assert not page.locator(".picker-grid").first.is_visible()
    context.close()
