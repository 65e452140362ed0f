"""From a finished hand of a followed Tiến lên table to its scored line on the sheet, by touch at
360 × 740 and 320 × 640: "Score this hand" opens the hand's scoring page on the evening's sheet
that started the table (or a new sheet with the table's players), the cards left, frozen players
and chops come from the game, and the keeper taps only the 2s and bomb cards caught.  The
gestures and the scrolling are printed beside the issue's goal (6 gestures with nothing caught,
plus one tap per caught card; 45 gestures and 13,956 px before)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.test_browser_followed_hand import HAND, NAMES, SIZES, version
from tests.touch import Touch

pytestmark = pytest.mark.browser

def finished_table(live_server, *, from_sheet: bool) -> tuple[str, str | None]:  # type: ignore[no-untyped-def]
    """A four-player table whose first hand is over (played straight through HTTP): its path,
    and the sheet that started it (``None``: a table started on its own)."""
    client = live_server.app.test_client()
    sheet = None
    if from_sheet:
        r = client.post("/tienlen/scores/new", data={f"name{i}": n for i, n in enumerate(NAMES)})
        sheet = r.headers["Location"].replace("http://localhost", "")
        r = client.post(f"{sheet}/tables", data={"leader": "1", "lowest": "3♠", "version": version(client, sheet)})
    else:
        r = client.post("/tienlen/new", data={**{f"name{i}": n for i, n in enumerate(NAMES)}, "leader": "1"})
    assert r.status_code == 303, r.get_data(as_text=True)
    table = r.headers["Location"].replace("http://localhost", "")
    for what, seat, cards in HAND:
        form = {"seat": str(seat), "version": version(client, table)} | ({"cards": cards} if cards else {})
        assert client.post(f"{table}/{what}", data=form).status_code == 303
    return table, sheet


def score_by_touch(phone, table: str, caught: dict[int, list[str]]) -> Touch:  # type: ignore[no-untyped-def]
    page = phone.open(table)
    expect(page.locator(".tl-status-name")).to_have_text("An wins")
    touch = Touch(page)
    touch.tap(page.locator('[data-action="score-hand"]'))
    page.wait_for_url(re.compile(r"/tienlen/scores/g/.+/table/\d+/0$"))
    page.wait_for_function("() => [...document.querySelectorAll('[data-picker]')].every(p => p.dataset.ready)")
    touch = Touch(page, taps=touch.taps, swipes=touch.swipes, scrolled=touch.scrolled)
    for seat, cards in caught.items():
        touch.tap(page.locator(f"#ts-caught-{seat} >> xpath=ancestor::details/summary"))
        for card in cards:
            touch.tap(page.locator(f"#ts-caught-{seat} [data-card='{card}']"))
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    touch.tap(page.locator('[data-action="add-table-game"]'))
    page.wait_for_url(re.compile(r"added=1"))
    return touch


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=["360x740", "320x640"])
def test_a_finished_hand_reaches_the_evenings_sheet_in_two_taps_with_nothing_caught(sized, live_server):
    phone, width, height = sized
    table, sheet = finished_table(live_server, from_sheet=True)
    touch = score_by_touch(phone, table, {})
    page = phone.page
    assert page.url.startswith(live_server.url + sheet)  # the sheet that started the table
    # Chi played no card (frozen), the chops came from the game: the worked example's totals.
    assert [page.locator(f"[data-total='{s}']").inner_text() for s in range(4)] == ["+48", "-13", "-26", "-9"]
    expect(page.locator(".ts-game").first).to_contain_text("An bombed Dung's bomb: Dung pays An 2 + 2 = 4")
    touch.report(f"a finished followed hand to its line at {width}×{height}, nothing caught "
                 "(goal: 6 gestures; 45 gestures and 13,956 px before)")
    assert touch.gestures <= 6


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=["360x740", "320x640"])
def test_a_caught_two_costs_one_tap_more_on_a_new_sheet_with_the_tables_players(sized, live_server):
    phone, width, height = sized
    table, _ = finished_table(live_server, from_sheet=False)
    touch = score_by_touch(phone, table, {1: ["2s"]})  # Binh was caught holding 2♠
    page = phone.page
    assert [n.strip() for n in page.locator(".ts-totals .ts-name").all_inner_texts()] == NAMES  # the table's players
    expect(page.locator(".ts-game").first).to_contain_text("2♠")
    assert page.locator("[data-total='1']").inner_text() == "-14"  # a black 2 caught: one more than without
    touch.report(f"a finished followed hand with one caught 2 at {width}×{height} "
                 "(goal: 6 gestures + 1 per caught card = 7)")
    assert touch.gestures <= 6 + 1

    # "Score this hand" again opens the same sheet, where the hand is already scored: never twice.
    page.goto(live_server.url + table)
    page.locator('[data-action="score-hand"]').tap()
    page.wait_for_url(re.compile(r"/table/\d+/0$"))
    expect(page.locator(".notice")).to_contain_text("already on the sheet")
    expect(page.locator('[data-action="add-table-game"]')).to_have_count(0)
