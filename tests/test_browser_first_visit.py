"""A page opened once opens again offline, from its first visit on: a Three Thirteen sheet and
its round pages, a Tiến lên table, a check screen.  The service worker starts only after the
first page; once that page has settled it asks the worker to keep it and the screens it links
to (templates/sw.js, static/js/phone-games.js)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.test_browser_three_thirteen import create as create_sheet
from tests.test_browser_tienlen_table import start_game

pytestmark = pytest.mark.browser

def kept(page, path: str) -> None:  # type: ignore[no-untyped-def]
    """Wait until the service worker keeps ``path`` (it fetches it once the page has settled)."""
    for _ in range(100):
        if page.evaluate("""async (path) => { for (const name of await caches.keys()) {
                 if (!name.startsWith('thirteen-pages-')) continue;
                 const cache = await caches.open(name);
                 if (await cache.match(path, {ignoreVary: true})) return true; }
               return false; }""", path):
            break
        page.wait_for_timeout(200)
    else:
        raise AssertionError(f"{path} was never kept")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")  # the worker has taken over


def test_a_sheet_its_rounds_a_table_and_a_check_screen_open_offline_after_one_visit(browser, live_server, new_phone):
    from tests.conftest import PHONE

    results = {}
    for name in ("sheet", "table", "check"):
        context = browser.new_context(**PHONE)  # a new phone: nothing kept, no service worker
        phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py), offline too
        page = phone.page
        if name == "sheet":
            maker = browser.new_context(**PHONE)  # the keeper's phone makes the sheet; this one opens its link
            keeper = new_phone(maker)
            url = create_sheet(keeper.open("/three-thirteen/"), ["Ann", "Bao", "Chi", "Dan"])
            keeper.step("the keeper started the sheet")
            maker.close()
            page.goto(url)  # the link from the QR code, on a phone that never opened Thirteen
            phone.step("the sheet's link opened")
            rounds = [a.get_attribute("href") for a in page.locator("a[href*='/round/']").all()]
            assert rounds
            paths = [url.replace(live_server.url, "")] + rounds[:2]
            content = "#sheet"
        elif name == "table":
            maker = browser.new_context(**PHONE)
            keeper = new_phone(maker)
            url = start_game(keeper).url
            keeper.step("the keeper started the table")
            maker.close()
            page.goto(url)
            phone.step("the table's link opened")
            paths = [url.replace(live_server.url, "")]
            content = "#tl-followed"
        else:
            page.goto(live_server.url + "/tienlen/check")
            phone.step("the check screen opened")
            paths = ["/tienlen/check"]
            content = "#picker-check"
        for path in paths:
            kept(page, path)
        context.set_offline(True)
        opened = 0
        for path in paths:
            page.goto(live_server.url + path)
            expect(page.locator("main")).not_to_contain_text("never opened on this phone")
            if page.locator(content if path == paths[0] else "main form[action*='/round/']").count():
                opened += 1
            expect(page.locator("#freshness")).to_contain_text("Offline: showing the")
            phone.forgive_offline()  # what a phone cut from the network logs by design
            phone.step(f"{path} opened offline")
        results[name] = (opened, len(paths))
        context.set_offline(False)
        phone.forgive_offline()
        assert phone.errors == []
        context.close()
    print("\nfirst visit, then offline:", results)
    assert all(opened == total for opened, total in results.values()), results
