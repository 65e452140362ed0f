"""The Tiến lên score sheet on a 360-pixel phone, by touch, with a second phone watching live."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAMES = ("An", "Binh", "Chi", "Dung")


def start_sheet(phone, names=NAMES):  # type: ignore[no-untyped-def]
    page = phone.open("/tienlen/scores/")
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    for i, name in enumerate(names):
        page.locator(f"#name{i}").tap()
        page.locator(f"#name{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url("**/tienlen/scores/g/**")
    return page


def ready_pickers(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until picker.js has set up every card grid on the page (taps before that are lost)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-picker]')].every(p => p.dataset.ready)"
    )


def answered(phone, status: int) -> None:  # type: ignore[no-untyped-def]
    """A refusal answers 422 on purpose; Chromium logs that as a failed load. Only those go."""
    expected = [e for e in phone.errors if f"status of {status}" in e]
    assert expected, f"the refusal should have answered {status}"
    phone.errors[:] = [e for e in phone.errors if e not in expected]


def total(page, seat):  # type: ignore[no-untyped-def]
    return page.locator(f'[data-total="{seat}"]')


def post_to_table(page, table_url, what, **form):  # type: ignore[no-untyped-def]
    """A play at the followed table, sent as the table's own form would send it."""
    html = page.request.get(table_url).text()
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    response = page.request.post(f"{table_url}/{what}", form={**form, "version": version}, max_redirects=0)
    assert response.status == 303, response.text()


def test_a_game_from_a_followed_table_is_added_by_touch(phone) -> None:  # type: ignore[no-untyped-def]
    page = start_sheet(phone)
    sheet_url = page.url
    page.locator(".ts-follow summary").tap()
    page.locator('input[name="leader"][value="1"]').tap()
    page.get_by_role("button", name="Start a table with these players").tap()
    page.wait_for_url("**/tienlen/g/**")
    table_url = page.url
    expect(page.locator(".tl-status-name")).to_have_text("Binh")
    # The hand of the worked example, played at the table: Binh's 2♥ is chopped, then Dung's bomb.
    moves = [("play", 1, "3s"), ("pass", 2, ""), ("pass", 3, ""), ("pass", 0, ""), ("play", 1, "2h"), ("pass", 2, ""),
             ("play", 3, "4s 4c 5s 5c 6s 6c"), ("play", 0, "7s 7c 8s 8c 9s 9c"), ("pass", 1, ""), ("pass", 3, ""),
             ("play", 0, "3c 4d 5d 6d 7d"), ("pass", 1, ""), ("pass", 2, ""), ("pass", 3, ""), ("play", 0, "10s"),
             ("pass", 1, ""), ("pass", 2, ""), ("pass", 3, ""), ("play", 0, "Js")]
    for what, seat, cards in moves:
        form = {"seat": str(seat)} | ({"cards": cards} if cards else {})
        post_to_table(page, table_url, what, **form)
    page.goto(table_url)
    expect(page.locator(".tl-status-name")).to_have_text("An wins")
    # The table's page links the sheet by its watch link (issue 29); its keeper scores the hand
    # through "Score this hand", onto the evening's sheet that started the table.
    expect(page.locator("a.tl-sheet-link")).to_have_attribute("href", re.compile(r"/tienlen/scores/g/"))
    page.locator('[data-action="score-hand"]').tap()
    page.wait_for_url(sheet_url.rstrip("/") + "/table/**")
    ready_pickers(page)
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    expect(page.locator(".ts-preview")).to_contain_text("Dung chopped Binh's 2♥: Binh pays Dung 2")
    # A played card among the leftover cards is refused with the reason, and what was tapped stays.
    page.locator("#ts-left-1 >> xpath=ancestor::details/summary").tap()
    for card in ("2s", "3h", "8h", "9h", "10h", "Jh", "Qh", "Kh", "Ah", "Qs", "Js"):
        page.locator(f"#ts-left-1 [data-card='{card}']").tap()
    expect(page.locator("#ts-left-1-text")).to_have_value("3♥ 8♥ 9♥ 10♥ J♠ J♥ Q♠ Q♥ K♥ A♥ 2♠")
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    page.locator('[data-action="add-table-game"]').tap()
    expect(page.locator("#ts-left-1-error")).to_have_text("J♠ has already been played: it cannot be among Binh's leftover cards")
    expect(page.locator("#ts-left-1-text")).to_have_value(re.compile("J♠"))
    answered(phone, 422)
    ready_pickers(page)  # the refusal is a whole page: tap only once its pickers are set up
    page.locator("#ts-left-1 [data-card='Js']").tap()  # take the J♠ back out, put the K♠ in
    page.locator("#ts-left-1 [data-card='Ks']").tap()
    page.locator('[data-action="add-table-game"]').tap()
    page.wait_for_url("**/tienlen/scores/g/**added=1")
    expect(total(page, 0)).to_have_text("+49")
    expect(total(page, 1)).to_have_text("-14")
    expect(total(page, 2)).to_have_text("-26")
    expect(total(page, 3)).to_have_text("-9")
    expect(page.locator(".ts-game").first).to_contain_text("An bombed Dung's bomb: Dung pays An 2 + 2 = 4")
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []


def test_a_game_by_hand_while_a_watcher_sees_the_totals_live(phone, second_phone) -> None:  # type: ignore[no-untyped-def]
    page = start_sheet(phone)
    watch_url = page.locator("#watch-link").input_value()
    watcher = second_phone.page
    watcher.goto(watch_url)
    expect(total(watcher, 0)).to_have_text("0")
    assert watcher.locator("#ts-sheet form").count() == 0
    assert second_phone.no_sideways_scroll()
    assert second_phone.small_targets() == []

    page.locator('[data-action="by-hand"]').tap()
    page.wait_for_url("**/add")
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    page.locator('input[name="out"][value="0"]').tap()
    for seat, value in ((1, "5"), (2, "13"), (3, "2")):
        page.locator(f"#left_{seat}").tap()
        page.locator(f"#left_{seat}").fill(value)
    page.locator("#ts-left-1 >> xpath=ancestor::details/summary").tap()
    for card in ("2d", "7d", "8d", "9c", "9s"):
        page.locator(f"#ts-left-1 [data-card='{card}']").tap()
    page.locator("#ts-left-2 >> xpath=ancestor::details/summary").tap()
    page.locator("#ts-left-2-text").fill("2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah")  # typing works too
    page.locator("#chop_by_0").select_option("3")
    page.locator("#chop_on_0").select_option("1")
    page.locator("#chop_twos_0").fill("2h")
    page.locator("#chop_by_1").select_option("0")
    page.locator("#chop_on_1").select_option("3")
    page.get_by_role("button", name="Save the game").tap()
    page.wait_for_url("**added=1")
    expect(total(page, 0)).to_have_text("+40")
    expect(total(page, 2)).to_have_text("-27")
    expect(page.locator(".ts-game").first).to_contain_text("Chi had played no card when An went out: Chi pays An 2 × 13 = 26")

    # The watcher's sheet follows without a reload.
    expect(total(watcher, 0)).to_have_text("+40", timeout=10_000)
    expect(total(watcher, 1)).to_have_text("-9")
    expect(total(watcher, 3)).to_have_text("-4")
    expect(watcher.locator(".ts-game")).to_have_count(1)
    assert watcher.locator("#ts-sheet form").count() == 0

    # Undo by touch: the watcher sees the game go.
    page.locator('[data-action="undo"]').tap()
    expect(total(page, 0)).to_have_text("0")
    expect(total(watcher, 0)).to_have_text("0", timeout=10_000)
    assert phone.no_sideways_scroll() and second_phone.no_sideways_scroll()


def test_a_chop_row_says_a_new_trick_began_by_touch_on_a_320_pixel_phone(browser, phone_context, new_phone) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(**{**phone_context, "viewport": {"width": 320, "height": 640}})
    phone = new_phone(context)
    page = start_sheet(phone)
    page.locator('[data-action="by-hand"]').tap()
    page.wait_for_url("**/add")
    page.locator('input[name="out"][value="0"]').tap()
    for seat, value in ((1, "5"), (2, "4"), (3, "2")):
        page.locator(f"#left_{seat}").tap()
        page.locator(f"#left_{seat}").fill(value)
    page.locator("#chop_by_0").select_option("3")
    page.locator("#chop_on_0").select_option("1")
    page.locator("#chop_twos_0").fill("2h")
    page.locator("#chop_by_1").select_option("0")
    page.locator("#chop_on_1").select_option("3")
    new_trick = page.get_by_role("checkbox", name="A new trick began").first
    new_trick.tap()
    expect(new_trick).to_be_checked()
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    page.get_by_role("button", name="Save the game").tap()
    page.wait_for_url("**added=1")
    expect(total(page, 0)).to_have_text("+13")  # 11 cards left, and Dung's bomb of a new trick: 2
    expect(page.locator(".ts-game").first).to_contain_text("An bombed Dung's bomb: Dung pays An 2")
    context.close()
    assert phone.errors == [], f"console errors: {phone.errors}"
