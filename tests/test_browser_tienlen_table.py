"""The Tiến lên table on a 360-pixel phone, by touch, with a second phone watching live."""

import pytest
from playwright.sync_api import expect

from tests.invariants import WithoutScripts

pytestmark = pytest.mark.browser


def start_game(phone, names=("Ana", "Bao", "Chi"), holder=1):
    page = phone.open("/tienlen/new")
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    for i, name in enumerate(names):
        page.locator(f"#name{i}").fill(name)
    page.locator(".tl-3s").nth(holder).tap()
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url("**/tienlen/g/**")
    return page


def tap_cards(page, *cards):
    for card in cards:
        page.locator(f"#tl-followed [data-card='{card}']").tap()


def test_a_hand_played_by_tapping_while_a_second_phone_watches(phone, second_phone):
    page = start_game(phone)
    turn = page.locator(".tl-status-name")
    expect(turn).to_have_text("Bao")
    expect(page.locator(".tl-status-what")).to_contain_text("must contain 3♠")
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    # No Pass on an empty table: the 3♠ holder must lead.
    assert page.locator(".tl-pass").count() == 0

    watch_url = page.locator("#watch-link").input_value()
    watcher = second_phone.page
    watcher.goto(watch_url)
    expect(watcher.locator(".tl-status-name")).to_have_text("Bao")
    assert watcher.locator("main form").count() == 0  # the language switcher is in the footer
    assert watcher.locator("#tl-followed button").count() == 0
    assert watcher.locator("[hx-post]").count() == 0
    assert second_phone.no_sideways_scroll()
    assert second_phone.small_targets() == []

    # The opening: 3♠ in a sequence, entered by tapping.
    tap_cards(page, "3s", "4h", "5c")
    expect(page.locator("#picker-cards-text")).to_have_value("3♠ 4♥ 5♣")
    page.locator(".tl-go").tap()
    expect(turn).to_have_text("Chi")
    expect(page.locator(".tl-felt .tl-card")).to_have_count(3)
    expect(page.locator("#picker-cards-text")).to_have_value("")
    # The watcher sees it without reloading (it polls every 3 s).
    expect(watcher.locator(".tl-felt .tl-card")).to_have_count(3, timeout=10_000)
    expect(watcher.locator(".tl-status-name")).to_have_text("Chi")

    # Two passes: the table clears and Bao, who played last, leads.
    page.locator(".tl-pass").tap()
    expect(turn).to_have_text("Ana")
    expect(page.locator(".tl-player.is-locked")).to_have_count(1)
    page.locator(".tl-pass").tap()
    expect(turn).to_have_text("Bao")
    expect(page.locator(".tl-empty")).to_have_text("The table is clear")
    expect(page.locator(".tl-player.is-locked")).to_have_count(0)
    expect(page.locator(".tl-status-what")).to_contain_text("any combination")
    expect(watcher.locator(".tl-empty")).to_have_text("The table is clear", timeout=10_000)

    # Undo the clearing pass: the combination is back and Ana is on turn again.
    undo = page.locator(".tl-undo button")
    expect(undo).to_have_text("Undo: Ana passed · table cleared")
    undo.tap()
    expect(turn).to_have_text("Ana")
    expect(page.locator(".tl-felt .tl-card")).to_have_count(3)
    expect(page.locator(".tl-undo button")).to_have_text("Undo: Chi passed")
    expect(watcher.locator(".tl-status-name")).to_have_text("Ana", timeout=10_000)
    expect(watcher.locator(".tl-felt .tl-card")).to_have_count(3)
    assert watcher.locator("main form").count() == 0  # the language switcher is in the footer
    assert phone.no_sideways_scroll() and second_phone.no_sideways_scroll()


def test_without_javascript_a_play_is_a_plain_post_and_a_redirect(browser, live_server, phone_context):
    context = browser.new_context(java_script_enabled=False, **phone_context)
    page = context.new_page()
    screen = WithoutScripts(page)
    page.goto(live_server.url + "/tienlen/new")
    screen.step("a new table, no JavaScript")
    page.locator("#name0").fill("Ana")
    page.locator("#name1").fill("Bao")
    page.locator(".tl-3s input").first.check(force=True)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/tienlen/g/**")
    screen.step("Start the game")
    page.locator("#picker-cards-text").fill("3s 3h")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator(".tl-status-name")).to_have_text("Bao")
    expect(page.locator(".tl-felt .tl-card")).to_have_count(2)
    screen.step("Play 3♠ 3♥")
    page.get_by_role("button", name="Pass").click()
    expect(page.locator(".tl-status-name")).to_have_text("Ana")
    expect(page.locator(".tl-empty")).to_be_visible()
    screen.step("Pass")
    context.close()


@pytest.mark.parametrize("lang", ["en", "es", "pt", "vi"])
def test_a_new_table_and_a_followed_table_lead_back_to_tien_len_in_one_row_at_320_px(browser, live_server, phone_context, new_phone, lang):
    context = browser.new_context(**{**phone_context, "viewport": {"width": 320, "height": 640}})
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server.url}])
    page = new_phone(context).page  # its screens checked (tests/invariants.py)
    page.goto(live_server.url + "/tienlen/new")

    def links():  # the top bar's links and whether they share one row
        hrefs = page.locator("header nav a").evaluate_all("as => as.map(a => new URL(a.href).pathname)")
        tops = page.locator("header .brand, header nav a").evaluate_all("as => new Set(as.map(a => Math.round(a.getBoundingClientRect().top))).size")
        return hrefs, tops

    hrefs, rows = links()
    assert hrefs == ["/tienlen/", "/tienlen/check", "/tienlen/rules"] and rows == 1
    page.locator("#name0").fill("Ana")
    page.locator("#name1").fill("Bao")
    page.locator(".tl-3s").first.tap()
    page.locator("#tl-new button[type=submit]").tap()
    page.wait_for_url("**/tienlen/g/**")
    hrefs, rows = links()
    assert hrefs == ["/tienlen/", "/tienlen/rules", "/tienlen/new"] and rows == 1
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    context.close()
