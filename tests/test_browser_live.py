"""Live at the table, in a real browser: a watcher reached by the sheet's share link follows it by
its event stream (no 3-second poll while the stream is open), shows a saved round without a poll
(the sheet comes in the stream), and follows by polling where streams cannot open; a tab in the background gives its
stream up and takes it again when it comes back."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LIVE = re.compile(r"/three-thirteen/g/[\w-]+/live$")


def start_sheet(page) -> str:  # type: ignore[no-untyped-def]
    """The keeper starts a sheet from the home page's Three Thirteen tile; its watch link, from the share box."""
    page.goto(page.url.split("/three-thirteen")[0] + "/three-thirteen/")
    for i, name in enumerate(["Ann", "Bao", "Chi", "Dan"]):
        page.locator(f"#name-{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url(re.compile(r"/three-thirteen/g/"))
    return page.locator("#watch-link").input_value()


def save_round_one(page) -> None:  # type: ignore[no-untyped-def]
    """The keeper enters round 1 by touch and saves it: Ann out, Bao 24, Chi 7, Dan 0."""
    page.get_by_role("link", name="Enter round 1").tap()
    ann = page.locator("#seat-0")
    ann.get_by_text("went out").tap()
    for card in ("Ah", "2h", "3h"):
        ann.locator(f"[data-card='{card}']").tap()
    ann.locator("[data-next]").tap()
    bao = page.locator("#seat-1")
    for card in ("Ks", "9d", "5c"):
        bao.locator(f"[data-card='{card}']").tap()
    bao.locator(".tt-preview .tt-points", has_text="24 points").wait_for()
    expect(page.locator("#seat-2")).to_be_visible()
    page.locator("#points-2").fill("7")
    page.locator(".tt-step[data-step='3']").tap()
    dan = page.locator("#seat-3")
    for card in ("Qc", "Qd", "3s"):
        dan.locator(f"[data-card='{card}']").tap()
    dan.locator(".tt-preview .tt-points", has_text="0 points").wait_for()
    page.get_by_role("button", name="Save round 1").tap()
    page.wait_for_url(re.compile(r"saved=1"))


def polls(page) -> list[str]:  # type: ignore[no-untyped-def]
    """Every poll the page sends from now on (``?since=``), in order."""
    asked: list[str] = []
    page.on("request", lambda r: "since=" in r.url and asked.append(r.url))
    return asked


def test_a_watcher_shows_a_saved_round_from_its_stream_with_no_poll_in_between(phone, second_phone):
    keeper = phone.open("/three-thirteen/")
    watch_url = start_sheet(keeper)
    watcher = second_phone.page
    asked = polls(watcher)
    with watcher.expect_response(LIVE) as opened:
        watcher.goto(watch_url)
    assert opened.value.status == 200
    assert opened.value.headers["content-type"].startswith("text/event-stream")
    assert watcher.locator("[data-total='1']").inner_text() == "0"
    watcher.wait_for_timeout(7000)  # two poll periods: with a stream open, no 3-second poll goes
    assert asked == [], f"the watcher polled beside its open stream: {asked}"

    save_round_one(keeper)
    expect(watcher.locator("[data-total='1']")).to_have_text("24")  # the sheet came by the stream
    assert watcher.locator("[data-total='2']").inner_text() == "7"
    assert asked == [], f"the watcher polled: {asked}"
    assert watcher.evaluate("performance.getEntriesByType('navigation').length") == 1  # no reload
    assert second_phone.no_sideways_scroll()


def test_where_streams_cannot_open_the_watcher_follows_by_polling(phone, second_phone):
    keeper = phone.open("/three-thirteen/")
    watch_url = start_sheet(keeper)
    keeper_token = keeper.url.rsplit("/", 1)[-1].split("?")[0]
    watcher = second_phone.page
    watcher.route(LIVE, lambda route: route.abort())  # a proxy that does not pass event streams
    asked = polls(watcher)
    watcher.goto(watch_url)
    form = {"version": "0", "out": "0", "cards_0": "Ah 2h 3h", "cards_1": "Ks 9d 5c", "points_2": "7",
            "cards_3": "Qc Qd 3s"}
    response = keeper.request.post(f"{phone.base_url}/three-thirteen/g/{keeper_token}/round/1",
                                   data=urlencode(form), max_redirects=0,
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status == 303, response.text()
    expect(watcher.locator("[data-total='1']")).to_have_text("24")
    assert asked, "the watcher did not poll"
    watcher.close()  # its stream, tried again and again, would log another refusal after the forgiving
    second_phone.errors[:] = [e for e in second_phone.errors if "ERR_FAILED" not in e]


def test_a_tab_in_the_background_gives_its_stream_up_polls_and_takes_it_again(phone, second_phone):
    keeper = phone.open("/three-thirteen/")
    watch_url = start_sheet(keeper)
    watcher = second_phone.page
    asked = polls(watcher)
    with watcher.expect_response(LIVE):
        watcher.goto(watch_url)
    hide = """hidden => { Object.defineProperty(document, 'visibilityState', {value: hidden ? 'hidden' : 'visible',
                                                                   configurable: true});
                         document.dispatchEvent(new Event('visibilitychange')); }"""
    watcher.evaluate(hide, True)  # another tab came to the front
    watcher.wait_for_timeout(3500)  # one poll period: the tab follows by polling now
    assert asked, "a tab without its stream did not poll"
    with watcher.expect_response(LIVE) as again:
        watcher.evaluate(hide, False)
    assert again.value.status == 200
