"""The phone's games: the home page lists the games this phone opened or started, newest first,
kept on the phone only, each opened with one tap, even with no network at all."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.test_browser_three_thirteen import create as create_sheet
from tests.test_browser_tienlen_table import start_game
from tests.test_browser_trece import start_table

pytestmark = pytest.mark.browser

def test_the_home_page_lists_the_last_three_games_offline_each_opening_with_one_tap(phone, live_server):
    page = phone.open("/three-thirteen/")
    sheet = create_sheet(page, ["Ann", "Bao", "Chi", "Dan"])  # a first visit: no service worker yet
    table = start_game(phone).url
    trece = start_table(phone)
    trece_keeper = trece.url
    trece_watch = trece.locator("#watch-link").input_value()
    trece.goto(trece_watch)  # its watch link opened too: still one game, kept by this phone
    expect(trece.locator("#table")).to_be_visible()
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=15_000)
    page.goto(phone.base_url + "/")
    games = page.locator("#phone-games li")
    expect(games).to_have_count(3)
    # Newest first: the Trece table (watched), the Tiến lên table, the sheet.
    expect(games.nth(0)).to_contain_text("Trece")
    expect(games.nth(0)).to_contain_text("You keep it")
    expect(games.nth(0)).to_contain_text("Ana, Ben")
    expect(games.nth(1)).to_contain_text("Tiến lên")
    expect(games.nth(1)).to_contain_text("Ana, Bao, Chi")
    expect(games.nth(1)).to_contain_text("You keep it")
    expect(games.nth(2)).to_contain_text("Three Thirteen")
    expect(games.nth(2)).to_contain_text("Ann, Bao, Chi, Dan")
    expect(games.nth(2)).to_contain_text("last change")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert phone.small_targets() == []

    phone.context.set_offline(True)
    page.reload()  # the home page from the phone's copy, the list from the phone
    for n, (url, content) in enumerate([(trece_keeper, "#table"), (table, "#tl-followed"), (sheet, "#sheet")]):
        expect(page.locator("#phone-games li")).to_have_count(3)
        page.locator("#phone-games li").nth(n).locator("a").tap()
        page.wait_for_url(url.replace(phone.base_url, "**"))
        expect(page.locator(content)).to_be_visible()
        expect(page.locator("#freshness")).to_contain_text("Offline: showing the")
        page.go_back()
    phone.context.set_offline(False)
    phone.forgive_offline()


def test_a_game_opened_by_its_watch_link_is_listed_as_watched(phone, second_phone):
    page = start_table(phone)
    watcher = second_phone.open(page.locator("#watch-link").input_value().replace(phone.base_url, ""))
    expect(watcher.locator("#table")).to_be_visible()
    watcher.wait_for_function("() => window.Thirteen && window.Thirteen.games")  # kept once its page has settled
    watcher.goto(phone.base_url + "/")
    games = watcher.locator("#phone-games li")
    expect(games).to_have_count(1)
    expect(games.first).to_contain_text("Trece · table")
    expect(games.first).to_contain_text("You watch it")
    expect(games.first).to_contain_text("Ana, Ben")
    assert "/g/" in (games.first.locator("a").get_attribute("href") or "")


def test_a_game_is_removed_from_the_phone_list_and_a_waiting_write_says_not_sent_yet(phone, live_server):
    page = start_game(phone)
    page.locator("#tl-followed [data-card='3s']").tap()
    phone.context.set_offline(True)
    page.locator(".tl-go").tap()
    expect(page.locator("#outbox li")).to_have_count(1)
    page.route("**/play", lambda route: route.abort("internetdisconnected"))  # still not sent
    phone.context.set_offline(False)
    page.goto(phone.base_url + "/")
    games = page.locator("#phone-games li")
    expect(games).to_have_count(1)
    expect(games.first.locator("[data-unsent]")).to_have_text("not sent yet")
    page.once("dialog", lambda dialog: dialog.accept())
    games.first.get_by_role("button", name=re.compile("Remove")).tap()
    expect(games).to_have_count(0)
    expect(page.locator("#phone-games")).to_be_hidden()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('thirteen-games')).length") == 0
    page.close()  # its outbox would go on trying the play the route still refuses
    phone.forgive_offline()


LISTED = "() => JSON.parse(localStorage.getItem('thirteen-games') || '[]').map(g => g.link)"


def test_a_game_dropped_by_another_tabs_write_at_the_same_moment_is_listed_again(phone, new_phone):
    """Two tabs of one phone that write the list at once: the later write was made from a list
    read before the other's landed (as when a first visit's page settles late). The game it
    left out is put back by its own page, and a game the player removed stays removed."""
    table = start_table(phone)
    table.wait_for_function("() => window.Thirteen && window.Thirteen.games")
    link = table.evaluate(LISTED)[0]
    other_tab = new_phone(phone.context)  # its screens are checked too (tests/invariants.py)
    other = other_tab.open("/")
    other.wait_for_function("() => window.Thirteen && window.Thirteen.games")
    other.evaluate("() => localStorage.setItem('thirteen-games', JSON.stringify([{link: '/trece/g/x', name: 'Trece'}]))")
    table.wait_for_function(f"() => ({LISTED})().includes({link!r})")
    # both tabs see the list as put back (the home tab may write once more first: it is read when settled)
    other.wait_for_function(f"() => {{ const l = ({LISTED})(); return l.length === 2 && l.includes({link!r}); }}")
    assert sorted(other.evaluate(LISTED)) == sorted(["/trece/g/x", link])
    other.evaluate(f"() => window.Thirteen.games.forget({link!r})")  # removed by the player, on the home page
    other.evaluate("() => localStorage.setItem('thirteen-games', JSON.stringify([]))")  # and another write
    other.wait_for_timeout(500)
    assert link not in table.evaluate(LISTED)
    other_tab.step("the other tab's home page")
    other.close()
    assert other_tab.errors == []


def test_a_game_left_before_the_list_script_came_is_listed_all_the_same(phone):
    """A first visit on a busy phone: the service worker takes over late, and the player leaves the
    sheet's page before static/js/phone-games.js came (held back here). The home page lists the
    sheet all the same: app.js noted the page as it was left (the list used to miss it)."""
    held: list = []  # type: ignore[type-arg]
    phone.context.route("**/static/js/phone-games.*.js", lambda route: held.append(route))
    page = phone.open("/three-thirteen/")
    sheet = create_sheet(page, ["Ann", "Bao", "Chi", "Dan"])
    expect(page.locator("#thirteen-game")).to_have_count(1)
    assert not page.evaluate("!!(window.Thirteen.games)")  # the list's script has not come
    phone.context.unroute("**/static/js/phone-games.*.js")
    page.goto(phone.base_url + "/")  # the app opened again from the phone's home screen: a new document
    games = page.locator("#phone-games li")
    expect(games).to_have_count(1, timeout=20_000)  # the script comes once the worker is in control
    expect(games.first).to_contain_text("Ann")
    assert games.first.locator("a").first.get_attribute("href").endswith(sheet.replace(phone.base_url, ""))
    for route in held:  # the first page's request, never answered: let it go
        try:
            route.abort()
        except Exception:  # its page is gone
            pass
