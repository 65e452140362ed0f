"""The shared answers of a followed game, in a real browser (phone context), once per game: a
refused action keeps what was typed and says why; a stale write shows the fresh state, the
notice, and keeps what was typed; a watcher that loses the network keeps its page marked stale
(every followed game of the registry, the toy's included)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.games import IDS, ROWS, Row

pytestmark = pytest.mark.browser


# The games whose worked example says how a phone types its refused write (tests/worked: Typing).
TYPED = [row for row in ROWS if row.example.typing is not None]


def post(page, url: str, form: dict[str, Any]):  # type: ignore[no-untyped-def]
    """Another phone's request (the browser's own HTTP client, no page)."""
    return page.request.post(url, data=urlencode(form, doseq=True), max_redirects=0,
                             headers={"Content-Type": "application/x-www-form-urlencoded"})


def start(phone, game: Row) -> str:  # type: ignore[no-untyped-def]
    response = post(phone.page, phone.base_url + game.prefix + "/new", dict(game.new))
    assert response.status == 303, response.text()
    return re.search(r"/g/([\w-]+)", response.headers["location"]).group(1)


def expected_refusals(phone, status: int) -> None:  # type: ignore[no-untyped-def]
    """The browser logs the answer we asked for (409, 422) as a failed load: only those go."""
    phone.errors[:] = [e for e in phone.errors if f"status of {status}" not in e]


@pytest.fixture(params=TYPED, ids=[row.name for row in TYPED])
def game(request) -> Row:  # type: ignore[no-untyped-def]
    return request.param  # type: ignore[no-any-return]


def test_a_refused_action_says_why_and_keeps_what_was_typed(phone, game):
    typing = game.example.typing
    token = start(phone, game)
    page = phone.open(f"{game.page(token)}{typing.page}")
    page.locator(typing.field).fill(game.typed)
    page.locator(typing.send).first.tap()
    expect(page.get_by_role("alert").filter(has_text=typing.because)).to_be_visible()
    expect(page.locator(typing.field)).to_have_value(game.typed)
    assert phone.no_sideways_scroll()
    expected_refusals(phone, 422)


def test_a_stale_write_shows_the_fresh_state_and_keeps_what_was_typed(phone, game):
    typing = game.example.typing
    token = start(phone, game)
    # This phone does not hear of the other phone's write: its polls find nothing new, and its
    # event stream never reaches it (a proxy that does not pass streams; the page polls then).
    phone.page.route(re.compile(r".*[?&]since=\d+.*"), lambda route: route.fulfill(status=204))
    phone.page.route(re.compile(r".*/live$"), lambda route: route.fulfill(status=204))
    page = phone.open(f"{game.page(token)}{typing.page}")
    page.locator(typing.field).fill(typing.stale)
    path, form = game.legal
    assert post(page, f"{phone.base_url}{game.page(token)}{path}", {**dict(form), "version": "0"}).status == 303
    page.locator(typing.send).first.tap()
    expect(page.locator(".notice.stale")).to_contain_text("changed on another phone")
    expect(page.locator(typing.field)).to_have_value(typing.stale)
    expect(page.locator("input[name=version]").first).to_have_value("1")
    assert phone.no_sideways_scroll()
    expected_refusals(phone, 409)


# --- a watcher offline, for every followed game of the registry ---------------------------------

@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_a_watcher_that_loses_the_network_keeps_the_page_marked_stale_and_catches_up(phone, second_phone, row):
    """The live part of every followed page (its data-live section, from the registry) is marked
    stale with the notice naming it ("the sheet", "the table"), then catches up by itself.
    (A Tiến lên score sheet's watcher used to get neither: app.js listed three other ids.)"""
    response = post(phone.page, phone.base_url + row.prefix + "/new", dict(row.new))
    assert response.status == 303, response.text()
    keeper = re.search(r"/g/([\w-]+)", response.headers["location"]).group(1)  # type: ignore[union-attr]
    page = phone.open(row.page(keeper))
    watch = page.locator("#watch-link").input_value().replace(phone.base_url, "")
    watcher = second_phone.open(watch)
    live = watcher.locator("[data-live]")
    expect(live).to_have_attribute("data-live", row.live)
    second_phone.context.set_offline(True)
    expect(watcher.locator("#freshness")).to_contain_text(f"Offline: showing the {row.live} as of", timeout=8000)
    expect(live).to_have_attribute("data-stale", "1")

    path, form = row.legal  # the keeper writes meanwhile
    assert post(phone.page, f"{phone.base_url}{row.page(keeper)}{path}", {**form, "version": "0"}).status == 303
    expect(live).to_have_attribute("data-version", "0")  # still the page it had

    second_phone.context.set_offline(False)  # no reload, no tap
    expect(live).to_have_attribute("data-version", "1", timeout=10_000)
    expect(watcher.locator("#freshness")).to_be_hidden()
    expect(live).not_to_have_attribute("data-stale", "1")
    second_phone.forgive_offline()  # the service worker's script, asked while offline, among them
