"""A whole followed Tiến lên hand played by touch at 360 × 740 and 320 × 640, then scored: every
move's cards, Play and Pass are reached with nothing scrolled (the grid and the dock are on the
screen as the page opens and after every answer), and from the last card played to the hand's
line on the evening's sheet takes at most 3 gestures, nothing scrolled. The figures are printed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.touch import Touch

pytestmark = pytest.mark.browser

SIZES = [(360, 740), (320, 640)]
NAMES = ["An", "Binh", "Chi", "Dung"]
# Binh leads 3♠; Binh's 2♥ is chopped by Dung, Dung's bomb by An; An goes out; Chi never plays.
HAND = [("play", 1, "3s"), ("pass", 2, ""), ("pass", 3, ""), ("pass", 0, ""), ("play", 1, "2h"), ("pass", 2, ""),
        ("play", 3, "4s 4c 5s 5c 6s 6c"), ("play", 0, "7s 7c 8s 8c 9s 9c"), ("pass", 1, ""), ("pass", 3, ""),
        ("play", 0, "3c 4d 5d 6d 7d"), ("pass", 1, ""), ("pass", 2, ""), ("pass", 3, ""), ("play", 0, "10s"),
        ("pass", 1, ""), ("pass", 2, ""), ("pass", 3, ""), ("play", 0, "Js")]


def version(client, path: str) -> str:  # type: ignore[no-untyped-def]
    return re.search(r'name="version" value="(\d+)"', client.get(path).get_data(as_text=True)).group(1)


def table_from_a_sheet(live_server) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    client = live_server.app.test_client()
    r = client.post("/tienlen/scores/new", data={f"name{i}": n for i, n in enumerate(NAMES)})
    sheet = r.headers["Location"].replace("http://localhost", "")
    r = client.post(f"{sheet}/tables", data={"leader": "1", "lowest": "3♠", "version": version(client, sheet)})
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"].replace("http://localhost", ""), sheet


def wholly_in_view(page, selector: str) -> bool:  # type: ignore[no-untyped-def]
    return bool(page.locator(selector).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"))


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=["360x740", "320x640"])
def test_a_whole_followed_hand_is_played_and_scored_with_nothing_scrolled(sized, live_server):
    phone, width, height = sized
    table, sheet = table_from_a_sheet(live_server)
    page = phone.open(table)
    page.wait_for_function("() => [...document.querySelectorAll('[data-picker]')].every(p => p.dataset.ready)")
    touch = Touch(page)
    section = page.locator("#tl-followed")
    start = int(section.get_attribute("data-version"))
    for n, (what, seat, cards) in enumerate(HAND, 1):
        expect(page.locator(".tl-status-name")).to_have_text(NAMES[seat])
        # The whole grid and the dock are on the screen, the dock over no card.
        assert wholly_in_view(page, "#tl-followed .picker-grid"), f"move {n}: the grid is not all in view"
        assert wholly_in_view(page, ".tl-play-dock"), f"move {n}: the dock is not all in view"
        grid_bottom = page.locator("#tl-followed .picker-grid").evaluate("e => e.getBoundingClientRect().bottom")
        dock_top = page.locator(".tl-play-dock").evaluate("e => e.getBoundingClientRect().top")
        assert grid_bottom <= dock_top + 1, f"move {n}: the dock covers the grid ({grid_bottom:.0f} > {dock_top:.0f})"
        if what == "play":
            for card in cards.split():
                touch.tap(page.locator(f"#tl-followed [data-card='{card}']"))
            touch.tap(page.locator(".tl-go"))
        else:
            touch.tap(page.locator(".tl-pass"))
        expect(section).to_have_attribute("data-version", str(start + n))
    moves = touch.gestures
    touch.report(f"a whole followed 4-player hand of {len(HAND)} moves at {width}×{height} (goal: 0 px)")
    assert touch.scrolled == 0

    # The hand is over: its winner and "Score this hand" in view where the last card was played.
    expect(page.locator(".tl-status-name")).to_have_text("An wins")
    assert wholly_in_view(page, ".tl-status") and wholly_in_view(page, '[data-action="score-hand"]')
    touch.tap(page.locator('[data-action="score-hand"]'))
    page.wait_for_url(re.compile(r"/tienlen/scores/g/.+/table/\d+/0$"))
    touch = Touch(page, taps=touch.taps - moves, swipes=touch.swipes, scrolled=touch.scrolled)
    touch.tap(page.locator('[data-action="add-table-game"]'))
    page.wait_for_url(re.compile(r"added=1"))
    assert page.url.startswith(live_server.url + sheet)
    line = page.locator(".ts-game").first
    expect(line).to_contain_text("An bombed Dung's bomb: Dung pays An 2 + 2 = 4")
    assert wholly_in_view(page, ".ts-game"), "the hand's new line is below the view"
    touch.report(f"the last card played to the hand's line on the sheet at {width}×{height} (goal: 3 gestures, 0 px)")
    assert touch.gestures <= 3
    assert touch.scrolled == 0
    assert phone.no_sideways_scroll()
