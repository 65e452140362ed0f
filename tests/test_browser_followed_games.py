"""The shared answers of a followed game, in a real browser (phone context), once per game: a
refused action keeps what was typed and says why; a stale write shows the fresh state, the
notice, and keeps what was typed; a watcher that loses the network keeps its page marked stale
(every followed game of the registry, the toy's included)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.games import IDS, ROWS

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Game:
    name: str
    prefix: str
    new: dict[str, Any]
    page: str
    """The page under the keeper link where the typing happens."""
    legal: tuple[str, dict[str, Any]]
    """A write another phone makes first (path after the token, form)."""
    field: str
    refused: str
    """Typed into ``field``: refused by the rules on the new game ..."""
    because: str
    """... for this reason."""
    stale: str
    """Typed into ``field``: fine, but sent from a phone that has not seen the other write."""
    send: str


GAMES = [
    Game("tienlen", "/tienlen", {"name0": "Ana", "name1": "Bao", "leader": "0", "hand_size": "13"}, "",
         ("/play", {"seat": "0", "cards": "3s"}), "#picker-cards-text", "4♠ 4♥", "must contain the 3♠", "5♠",
         ".tl-go"),
    Game("trece", "/trece", {"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q", "turned_suit": "h"},
         "", ("/act", {"action": "draw"}), "#picker-cards-text", "9♦ 10♦", "not one rank from Q♥", "K♥",
         "[data-action=play]"),
    Game("three_thirteen", "/three-thirteen", {"names": ["Ann", "Bao"], "dealer": "0"}, "/round/1",
         ("/round/1", {"out": "0", "cards_0": "A♥ 2♥ 3♥", "points_1": "17"}), "#picker-0-text",
         "A♥ 2♥ 3♥", "Mark who went out", "4♣ 5♣ 6♣", "button[type=submit]:has-text('Save round 1')"),
]


def post(page, url: str, form: dict[str, Any]):  # type: ignore[no-untyped-def]
    """Another phone's request (the browser's own HTTP client, no page)."""
    return page.request.post(url, data=urlencode(form, doseq=True), max_redirects=0,
                             headers={"Content-Type": "application/x-www-form-urlencoded"})


def start(phone, game: Game) -> str:  # type: ignore[no-untyped-def]
    response = post(phone.page, phone.base_url + game.prefix + "/new", game.new)
    assert response.status == 303, response.text()
    return re.search(r"/g/([\w-]+)", response.headers["location"]).group(1)


def expected_refusals(phone, status: int) -> None:  # type: ignore[no-untyped-def]
    """The browser logs the answer we asked for (409, 422) as a failed load: only those go."""
    phone.errors[:] = [e for e in phone.errors if f"status of {status}" not in e]


@pytest.fixture(params=GAMES, ids=[g.name for g in GAMES])
def game(request) -> Game:  # type: ignore[no-untyped-def]
    return request.param


def test_a_refused_action_says_why_and_keeps_what_was_typed(phone, game):
    token = start(phone, game)
    page = phone.open(f"{game.prefix}/g/{token}{game.page}")
    page.locator(game.field).fill(game.refused)
    page.locator(game.send).first.tap()
    expect(page.get_by_role("alert").filter(has_text=game.because)).to_be_visible()
    expect(page.locator(game.field)).to_have_value(game.refused)
    assert phone.no_sideways_scroll()
    expected_refusals(phone, 422)


def test_a_stale_write_shows_the_fresh_state_and_keeps_what_was_typed(phone, game):
    token = start(phone, game)
    page = phone.open(f"{game.prefix}/g/{token}{game.page}")
    # This phone does not hear of the other phone's write (its polls find nothing new).
    page.route(re.compile(r".*[?&]since=\d+.*"), lambda route: route.fulfill(status=204))
    page.locator(game.field).fill(game.stale)
    path, form = game.legal
    assert post(page, f"{phone.base_url}{game.prefix}/g/{token}{path}", {**form, "version": "0"}).status == 303
    page.locator(game.send).first.tap()
    expect(page.locator(".notice.stale")).to_contain_text("changed on another phone")
    expect(page.locator(game.field)).to_have_value(game.stale)
    expect(page.locator("input[name=version]").first).to_have_value("1")
    assert phone.no_sideways_scroll()
    expected_refusals(phone, 409)


# --- a watcher offline, for every followed game of the registry ---------------------------------

OFFLINE_NOISE = ("ERR_INTERNET_DISCONNECTED", "htmx:sendError", "htmx:afterRequest", "Failed to fetch")


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
    second_phone.errors[:] = [e for e in second_phone.errors if not any(x in e for x in OFFLINE_NOISE)]
