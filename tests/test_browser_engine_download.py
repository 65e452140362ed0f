"""While the phone's engine downloads on a slow link, the page's own requests go beside it:
a verdict tapped meanwhile is the server's, and the engine's download goes on, never cut off
nor started again (cutting it off and going on with a Range request made the browser fetch the
rest uncompressed, 3.5 times the bytes: taps every few seconds kept it from ever ending).  How
long the download takes with taps and without is measured by ``python -m
tests.bench_engine_download`` (the engine's own Web Worker throttled too).

The tap-to-verdict times are printed (``-s``), never asserted: the machine is shared."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.test_browser_engine import FORGIVEN, SLOW, EnginePhone, _tap_to, _tienlen

pytestmark = pytest.mark.browser

VERDICT = "document.querySelector('#verdict').textContent.includes('bombs a single 2')"


def tap_to_verdict(phone: EnginePhone, *, engine: bool) -> tuple[float, str]:
    """The Tiến lên check on a 400 kbit/s, 400 ms link: tap → the server's verdict, and what
    the engine was doing at the tap."""
    page = phone.page
    if not engine:
        page.route("**/engine.json", lambda route: route.abort())  # no engine: nothing downloads
    cdp = phone.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW)
    big: list[str] = []  # the engine's large file, once its bytes have begun to come
    page.on("response", lambda r: "/static/engine/" in r.url and "pyodide.asm" in r.url and big.append(r.url))
    page.goto(phone.url + "/tienlen/check", wait_until="load")
    if engine:
        page.wait_for_function("() => document.documentElement.dataset.engine === 'loading'", timeout=60_000)
        for _ in range(300):  # well into the download: a large file on its way, some of it here
            if big:
                break
            page.wait_for_timeout(200)
        page.wait_for_timeout(1000)
    _tienlen(page)
    expect(page.locator("#verdict")).not_to_contain_text("bombs a single 2")
    state = page.evaluate("document.documentElement.dataset.engine || 'none'")
    seconds = _tap_to(page, page.locator("#picker-check [data-card='5c']"), VERDICT)
    phone.step("the server's verdict on a slow link", result=page.locator("#verdict"))  # after the measure
    return seconds, state


def test_a_verdict_tapped_while_the_engine_downloads_is_the_servers_and_the_download_goes_on(browser, new_engine_phone):
    before = EnginePhone(browser, new_engine_phone, service_workers="block")
    try:
        baseline, _ = tap_to_verdict(before, engine=False)
    finally:
        before.close()

    phone = EnginePhone(browser, new_engine_phone, service_workers="block")
    asked: list[tuple[str, str]] = []  # (address, Range) of each request of the download (not Pyodide's own)
    phone.page.on("request", lambda r: "/static/engine/" in r.url and r.headers.get("x-thirteen-direct") == "1"
                  and asked.append((r.url, r.headers.get("range", ""))))
    try:
        during, state = tap_to_verdict(phone, engine=True)
        assert state == "loading"  # the verdict was the server's, asked while the engine downloaded
        assert phone.page.evaluate("window.Thirteen.engine.isReady()") is False
        phone.ready()  # the download went on to the end: the engine starts
        urls = [url for url, _ in asked]
        assert [r for _, r in asked if r] == []  # never cut off, never fetched on in pieces
        assert len(urls) == len(set(urls)), urls  # each file asked once
        print(f"\ntap → verdict at 400 kbit/s / 400 ms (Tiến lên check): {baseline * 1000:.0f} ms with no engine "
              f"download, {during * 1000:.0f} ms while the engine downloads")
    finally:
        phone.errors[:] = [e for e in phone.errors if not FORGIVEN(e)]
        phone.close()


def test_a_rounds_split_asked_before_the_engine_was_ready_is_shown_as_soon_as_it_is(browser, engine_server, new_engine_phone):
    """The round's split could not be asked (no network, the engine not ready yet): it shows by
    itself the moment the engine is ready, answered on the phone."""
    import re

    phone = EnginePhone(browser, new_engine_phone, service_workers="block")
    page = phone.page
    held = []
    try:
        page.route("**/engine.json", lambda route: held.append(route))  # the engine waits
        page.goto(engine_server.url + "/three-thirteen/")
        for i, name in enumerate(("Ann", "Bao")):
            page.locator(f"#name-{i}").fill(name)
        page.get_by_role("button", name="Start the sheet").tap()
        page.wait_for_url(re.compile(r"/three-thirteen/g/"))
        page.goto(page.url + "/round/1")
        page.route("**/preview**", lambda route: route.abort("internetdisconnected"))  # no answer from the server
        page.locator(".tt-step[data-step='1']").tap()
        for card in ("Ks", "Kd", "Kc"):
            page.locator(f"#seat-1 [data-card='{card}']").tap()
        expect(page.locator("#preview-1 .tt-split")).to_have_count(0)  # only the count, no split yet
        page.wait_for_function("() => true")
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(100)
        for route in held:
            route.continue_()
        page.unroute("**/engine.json")
        phone.ready()
        expect(page.locator("#preview-1 .tt-split")).to_have_attribute("data-points", "0")  # no tap
        phone.step("the split shown once the engine is ready", result=page.locator("#preview-1"))
        assert page.evaluate("window.Thirteen.engine.last.kind") == "three-thirteen-preview"
    finally:
        phone.errors[:] = [e for e in phone.errors if not FORGIVEN(e)]
        phone.close()
