"""No Wi-Fi in the middle of a game: nothing typed is lost, nothing is sent twice.

Each test goes offline in the middle of a flow (a check, a Tiến lên play, a Three Thirteen
round, a Trece play), comes back, and checks on the page and in the database that what was
typed arrived once, or, when the game moved on meanwhile, that the keeper is shown the fresh
game with the entry still typed in.  The pages reopened offline come from the service worker.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from referee.web.extensions import db
from referee.web.models import Event
from referee.web.store import find_by_token
from tests.test_browser_three_thirteen import create as create_sheet
from tests.test_browser_tienlen_table import start_game
from tests.test_browser_tienlen_table import tap_cards as tap_table
from tests.test_browser_trece import start_table
from tests.test_browser_trece import tap_cards as tap_trece

pytestmark = pytest.mark.browser

# What Chromium and htmx log for each request that could not be sent, and the 409 a stale
# write answers: those are the point of these tests.
def events(live_server, url: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The kinds of the events stored for the game behind a page's address, in order."""
    token = re.search(r"/g/([^/?#]+)", url).group(1)  # type: ignore[union-attr]
    with live_server.app.app_context():
        access = find_by_token(token)
        assert access is not None
        rows = db.session.scalars(select(Event.kind).where(Event.game_id == access.game.id).order_by(Event.seq))
        kinds = list(rows)
        db.session.remove()
    return kinds


def worker_keeps(page) -> None:  # type: ignore[no-untyped-def]
    """The phone has opened this page once with the service worker running, so it is kept."""
    page.evaluate("async () => { await navigator.serviceWorker.register('/sw.js'); await navigator.serviceWorker.ready; }")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_a_check_tapped_offline_gets_its_verdict_by_itself_when_the_network_is_back(phone):
    page = phone.open("/tienlen/check")
    page.locator("#picker-check [data-card='2h']").tap()  # one grid: the table, then the play
    page.locator("#picker-play [data-target]").tap()
    phone.context.set_offline(True)
    for card in ("3s", "3c", "4d", "4h", "5s", "5c"):
        page.locator(f"#picker-check [data-card='{card}']").tap()
    banner = page.locator("#connection")
    expect(banner).to_contain_text("No connection to the referee")
    # The verdict box says no answer came (not "tap the cards" over cards already tapped).
    expect(page.locator("#verdict [data-state='offline']")).to_contain_text("offline")
    expect(page.locator(".tl-dock")).not_to_have_attribute("data-building", "")
    expect(page.locator("#picker-play .picker-text")).to_have_value("3♠ 3♣ 4♦ 4♥ 5♠ 5♣")

    phone.context.set_offline(False)  # no tap: the check is asked again by itself
    expect(page.locator("#verdict")).to_contain_text("bombs a single 2", timeout=10_000)
    expect(banner).to_be_hidden()
    expect(page.locator("#picker-play .picker-text")).to_have_value("3♠ 3♣ 4♦ 4♥ 5♠ 5♣")
    phone.forgive_offline("status of 409")


def test_a_tienlen_play_made_offline_waits_on_the_phone_and_is_played_once(phone, live_server):
    page = start_game(phone)
    worker_keeps(page)
    url = page.url
    tap_table(page, "3s")
    phone.context.set_offline(True)
    page.locator(".tl-go").tap()
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Waiting to send")
    expect(outbox.locator("li")).to_have_count(1)
    expect(outbox.locator("li")).to_have_attribute("data-version", "0")
    expect(page.locator(".tl-go")).to_be_enabled()  # the sending state is over
    page.locator(".tl-go").tap()  # tapped again: still one entry, not two
    expect(outbox.locator("li")).to_have_count(1)
    expect(page.locator("#tl-followed .picker-text")).to_have_value("3♠")

    page.reload()  # offline: the phone's copy of the table, and the entry still waiting
    expect(page.locator("#freshness")).to_contain_text("Offline: showing the table as of")
    expect(page.locator("#outbox li")).to_have_count(1)
    assert events(live_server, url) == []

    phone.context.set_offline(False)
    expect(page.locator(".tl-felt")).to_contain_text("played by Bao", timeout=15_000)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#freshness")).to_be_hidden()
    page.wait_for_timeout(4500)  # a retry timer's round: nothing more is sent
    assert events(live_server, url) == ["play"]
    assert page.evaluate("() => JSON.parse(localStorage.getItem('thirteen-outbox') || '[]').length") == 0
    phone.forgive_offline("status of 409")


def enter_round_one(page) -> None:  # type: ignore[no-untyped-def]
    """Round 1 entered one hand at a time: Ann went out, Bao's cards, Chi's points, Dan's cards."""
    ann = page.locator("#seat-0")
    ann.locator(".tt-outbox").tap()
    for card in ("Ah", "2h", "3h"):
        ann.locator(f"[data-card='{card}']").tap()
    page.locator(".tt-step[data-step='1']").tap()
    bao = page.locator("#seat-1")
    for card in ("Ks", "9d", "5c"):
        bao.locator(f"[data-card='{card}']").tap()
    bao.locator(".tt-preview .tt-points", has_text="24 points").wait_for()
    page.locator(".tt-step[data-step='2']").tap()
    page.locator("#points-2").fill("7")
    page.locator(".tt-step[data-step='3']").tap()
    dan = page.locator("#seat-3")
    for card in ("Qc", "Qd", "3s"):
        dan.locator(f"[data-card='{card}']").tap()
    dan.locator(".tt-preview .tt-points", has_text="0 points").wait_for()


def test_a_round_saved_offline_survives_a_closed_tab_and_reaches_the_sheet_once(phone, live_server, new_phone):
    page = phone.open("/three-thirteen/")
    sheet_url = create_sheet(page, ["Ann", "Bao", "Chi", "Dan"])
    worker_keeps(page)
    page.get_by_role("link", name="Enter round 1").tap()
    enter_round_one(page)

    phone.context.set_offline(True)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#outbox")).to_contain_text("Waiting to send")
    expect(page.locator("#outbox li")).to_have_count(1)
    expect(page.locator("#points-2")).to_have_value("7")  # the form is untouched
    # Kept and sent by itself, as the outbox says: no "Nothing was sent" beside it.
    expect(page.locator("#outbox")).to_contain_text("kept on the phone and sent by itself")
    expect(page.get_by_text("Nothing was sent")).to_have_count(0)
    phone.forgive_offline("status of 409")
    page.wait_for_function("() => !JSON.parse(localStorage.getItem('thirteen-outbox')).some(e => e.claim)")
    page.close(run_before_unload=True)  # the tab is closed while the Wi-Fi is down

    reopened = new_phone(phone.context)  # the new tab's screens are checked too (tests/invariants.py)
    again = reopened.page
    again.goto(sheet_url)  # opened from the phone's copy
    expect(again.locator("#freshness")).to_contain_text("Offline: showing the sheet as of")
    expect(again.locator("#outbox li")).to_have_count(1)
    assert events(live_server, sheet_url) == []

    phone.context.set_offline(False)
    expect(again.locator("[data-total='1']")).to_have_text("24", timeout=15_000)
    assert [again.locator(f"[data-total='{s}']").inner_text() for s in range(4)] == ["0", "24", "7", "0"]
    expect(again.locator("#outbox")).to_be_hidden()
    again.wait_for_timeout(4500)
    assert events(live_server, sheet_url) == ["round"]
    phone.forgive_offline("status of 409")
    reopened.forgive_offline("status of 409")
    reopened.step("the round sent from the reopened tab")
    assert reopened.errors == []


def test_a_trece_play_kept_offline_meets_the_fresh_table_when_the_game_moved_on(phone, second_phone, live_server):
    page = start_table(phone)
    url = page.url
    other = second_phone.page  # a second keeper at the same table
    other.goto(url)
    phone.context.set_offline(True)
    tap_trece(page, "cards", ["Kh"])
    page.locator("[data-action=play]").tap()
    expect(page.locator("#outbox li")).to_have_count(1)

    other.locator("[data-action=draw]").tap()  # meanwhile Ben draws on the other phone
    expect(other.locator("#table .turn")).to_have_text("Ana to play")
    assert events(live_server, url) == ["draw"]

    phone.context.set_offline(False)  # sent as typed, against the old version: refused, shown
    expect(page.locator("#table .notice.stale")).to_contain_text("The table changed on another phone", timeout=15_000)
    expect(page.locator("#table .turn")).to_have_text("Ana to play")
    expect(page.locator("#picker-cards .picker-text")).to_have_value("K♥")  # kept to re-apply
    expect(page.locator("#outbox")).to_be_hidden()
    page.wait_for_timeout(4500)
    assert events(live_server, url) == ["draw"]  # never written over the draw, never twice
    phone.forgive_offline("status of 409")
    second_phone.errors.clear()


def test_a_page_never_opened_shows_the_offline_page_and_a_visited_one_its_copy(phone):
    page = phone.open("/")
    worker_keeps(page)
    page.goto(phone.base_url + "/trece/rules")
    phone.context.set_offline(True)
    page.goto(phone.base_url + "/trece/rules")
    expect(page.locator("h1")).to_have_text("Trece in a minute")  # the kept copy of a visited page
    expect(page.locator("#freshness")).to_contain_text("Offline: showing the page as of")
    page.goto(phone.base_url + "/three-thirteen/rules")
    expect(page.locator("h1")).to_have_text("No connection")
    expect(page.locator("main")).to_contain_text("never opened on this phone")
    phone.context.set_offline(False)  # no reload, no tap: the page asked for opens once the referee answers
    expect(page.locator("h1")).to_have_text("How Three Thirteen goes", timeout=15_000)
    assert page.url == phone.base_url + "/three-thirteen/rules"
    phone.forgive_offline("status of 409")


def test_the_offline_line_goes_as_soon_as_the_network_is_back_on_a_page_with_no_polls(phone):
    page = phone.open("/")
    worker_keeps(page)
    phone.context.set_offline(True)
    page.reload()  # the home page from the phone's copy: nothing on it asks the referee again
    expect(page.locator("#freshness")).to_contain_text("Offline: showing the page as of")
    back = page.evaluate("() => performance.now()")
    phone.context.set_offline(False)  # no reload, no tap
    page.wait_for_function("() => document.getElementById('freshness').hidden")
    gone = page.evaluate("() => performance.now()") - back
    print(f"\nthe offline line gone {gone:.0f} ms after the network came back")
    expect(page.locator(".connection:not([hidden])")).to_have_count(0)
    phone.forgive_offline("status of 409")


def test_a_watcher_keeps_the_last_sheet_marked_stale_and_catches_up_by_itself(phone, second_phone, live_server):
    page = phone.open("/three-thirteen/")
    create_sheet(page, ["Ann", "Bao", "Chi", "Dan"])
    watcher = second_phone.open(page.locator("#watch-link").input_value().replace(phone.base_url, ""))
    second_phone.context.set_offline(True)
    expect(watcher.locator("#freshness")).to_contain_text("Offline: showing the sheet as of", timeout=8000)
    expect(watcher.locator("#sheet")).to_have_attribute("data-stale", "1")

    page.get_by_role("link", name="Enter round 1").tap()  # the keeper enters a round meanwhile
    enter_round_one(page)
    page.get_by_role("button", name="Save round 1").tap()
    page.wait_for_url(re.compile(r"saved=1"))
    expect(watcher.locator("[data-total='1']")).to_have_text("0")  # still the sheet it had

    second_phone.context.set_offline(False)  # no reload, no tap
    expect(watcher.locator("[data-total='1']")).to_have_text("24", timeout=10_000)
    expect(watcher.locator("#freshness")).to_be_hidden()
    expect(watcher.locator("#sheet")).not_to_have_attribute("data-stale", "1")
    second_phone.forgive_offline("status of 409")


def test_a_write_on_a_slow_network_says_sending_and_takes_no_second_tap(phone, live_server):
    page = start_game(phone)
    url = page.url
    cdp = phone.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": 1500, "downloadThroughput": 50_000, "uploadThroughput": 50_000})
    tap_table(page, "3s")
    go = page.locator(".tl-go")
    go.tap()
    expect(go).to_be_disabled()
    expect(go).to_have_attribute("data-sending", "Sending…")
    page.evaluate("() => document.querySelector('.tl-go').click()")  # an impatient second tap
    expect(page.locator(".tl-felt")).to_contain_text("played by Bao", timeout=15_000)
    assert events(live_server, url) == ["play"]


def test_a_new_release_replaces_the_caches_of_the_old_one(phone, live_server):
    page = phone.open("/")
    worker_keeps(page)
    old = live_server.app.extensions["thirteen_assets"]
    kept = page.evaluate("async () => await caches.keys()")
    assert kept and all(name.endswith(old.release) for name in kept)
    live_server.app.extensions["thirteen_assets"] = dataclasses.replace(old, release="0123456789ab")
    try:
        page.evaluate("async () => { const r = await navigator.serviceWorker.getRegistration(); await r.update(); }")
        for _ in range(50):
            kept = page.evaluate("async () => await caches.keys()")
            if kept and all(name.endswith("0123456789ab") for name in kept):
                break
            page.wait_for_timeout(200)
        assert kept and all(name.endswith("0123456789ab") for name in kept), kept
    finally:
        live_server.app.extensions["thirteen_assets"] = old


def test_a_play_whose_answer_was_lost_is_sent_again_and_stored_once(browser, live_server, new_phone):
    """The referee stored the play, but the Wi-Fi dropped before its answer reached the phone:
    the phone keeps the entry and sends it again; the referee knows it and answers with the table."""
    from tests.conftest import PHONE

    context = browser.new_context(**PHONE, service_workers="block")  # so the route below sees the play
    phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    page = start_game(phone)
    url = page.url
    lost = []

    def answer_lost(route) -> None:  # type: ignore[no-untyped-def]
        route.fetch()  # it reaches the referee...
        lost.append(route.request.headers.get("x-thirteen-write"))
        route.abort("connectionreset")  # ...and the answer never comes back

    sent: list[str | None] = []  # the write id of each play the page sent
    page.on("request", lambda r: r.url.endswith("/play") and r.method == "POST"
            and sent.append(r.headers.get("x-thirteen-write")))
    page.route("**/play", answer_lost, times=1)
    tap_table(page, "3s")
    page.locator(".tl-go").tap()
    # (Not waited for: the outbox's line, which is there only until the play is sent again, at
    # once once the referee answers its probe; on a loaded machine a check could miss it.)
    for _ in range(150):  # the play sent again (it was kept: only a kept play is sent again)
        if len(sent) >= 2:
            break
        page.wait_for_timeout(200)
    # The page's own signal that it was answered: its outbox is empty (the felt may say "played
    # by Bao" before, from a poll: the referee stored the first request).
    page.wait_for_function("() => JSON.parse(localStorage.getItem('thirteen-outbox') || '[]').length === 0"
                           " && window.Thirteen.outbox", timeout=30_000)
    assert lost and lost[0]
    assert sent == [lost[0], lost[0]]  # kept on the phone and sent again, with the same write id
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator(".tl-felt")).to_contain_text("played by Bao")
    expect(page.locator("#tl-followed .notice")).to_have_count(0)  # not "the table changed first"
    assert events(live_server, url) == ["play"]
    phone.forgive_offline("status of 409", "ERR_CONNECTION_RESET")
    phone.step("the play sent again and stored once", allow=(409,))
    context.close()
    assert phone.errors == []


def test_a_play_answered_503_while_the_database_is_down_waits_on_the_phone_and_is_played_once(
        phone, live_server, database_down):
    page = start_game(phone)
    url = page.url
    tap_table(page, "3s")
    with database_down(live_server.app):
        page.locator(".tl-go").tap()
        expect(page.locator("#connection")).to_contain_text("cannot reach its records")
        expect(page.locator("#outbox li")).to_have_count(1)
        expect(page.locator("#outbox li")).to_have_attribute("data-version", "0")
        expect(page.locator("#tl-followed .picker-text")).to_have_value("3♠")  # what was typed stays
        page.wait_for_timeout(4500)  # a retry timer's round while the database is still down: kept
        expect(page.locator("#outbox li")).to_have_count(1)
    assert events(live_server, url) == []
    expect(page.locator(".tl-felt")).to_contain_text("played by Bao", timeout=15_000)  # sent by itself
    expect(page.locator("#outbox")).to_be_hidden()
    assert events(live_server, url) == ["play"]
    phone.errors[:] = [e for e in phone.errors if "503" not in e and "htmx:responseError" not in e]


@pytest.mark.parametrize("status", [500, 502, 504])
def test_a_play_stored_but_answered_with_a_server_error_stays_in_the_outbox_and_is_stored_once(
        browser, live_server, new_phone, status):
    """A 500 (or a proxy's 502/504) does not say whether the play was stored: the phone keeps it and
    sends it again with the same write id, which the referee recognises."""
    from tests.conftest import PHONE

    context = browser.new_context(**PHONE, service_workers="block")  # so the route below sees the play
    # Every screen it reaches is checked (tests/invariants.py); the 5xx answer is the test's own
    # doing (the route below says it in the referee's stead), so it is no invariant's failure.
    phone = new_phone(context, allowed=(status,))
    page = start_game(phone)
    url = page.url
    ids = []

    def stored_then_error(route) -> None:  # type: ignore[no-untyped-def]
        route.fetch()  # the referee stores it...
        ids.append(route.request.headers.get("x-thirteen-write"))
        route.fulfill(status=status, body="Internal Server Error", content_type="text/plain")  # ...and says 5xx

    page.route("**/play", stored_then_error, times=1)
    tap_table(page, "3s")
    page.locator(".tl-go").tap()
    expect(page.locator("#connection")).to_contain_text("never stored twice")
    expect(page.get_by_text("Nothing was saved")).to_have_count(0)
    assert events(live_server, url) == ["play"] and ids and ids[0]

    expect(page.locator(".tl-felt")).to_contain_text("played by Bao", timeout=15_000)  # sent again by itself
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#tl-followed .notice")).to_have_count(0)  # not "the table changed first"
    assert events(live_server, url) == ["play"]
    phone.forgive_offline("status of 409", str(status), "htmx:responseError")
    phone.step("the play sent again and stored once", allow=(409,))
    context.close()
    assert phone.errors == []


def test_a_play_refused_with_a_reason_leaves_the_outbox(phone, live_server):
    """A clear refusal (here 422: a 3 that does not lead the game's first trick) is the referee's
    answer: nothing waits on the phone, the reason is on the page."""
    page = start_game(phone)
    url = page.url
    tap_table(page, "4s")
    page.locator(".tl-go").tap()
    expect(page.locator("#tl-followed")).to_contain_text("3♠")
    page.wait_for_timeout(500)
    assert page.evaluate("() => JSON.parse(localStorage.getItem('thirteen-outbox') || '[]').length") == 0
    assert events(live_server, url) == []
    phone.errors[:] = [e for e in phone.errors if "422" not in e]


OUTBOX = "() => JSON.parse(localStorage.getItem('thirteen-outbox') || '[]').map(e => e.id)"


def test_a_kept_play_dropped_by_another_tabs_write_at_the_same_moment_is_put_back(phone, live_server, new_phone):
    """Two tabs writing the outbox at once: the later write was made from a list read before the
    other's entry landed. The tab that kept the play puts it back; once a tab has answered it
    (or the player threw it away) it stays gone."""
    other_tab = new_phone(phone.context)  # its screens are checked too (tests/invariants.py)
    other = other_tab.open("/")
    page = start_game(phone)
    url = page.url
    tap_table(page, "3s")
    phone.context.set_offline(True)
    page.locator(".tl-go").tap()
    expect(page.locator("#outbox li")).to_have_count(1)
    kept = page.evaluate(OUTBOX)
    other.evaluate("() => localStorage.setItem('thirteen-outbox', '[]')")  # a stale write from the other tab
    page.wait_for_function(f"() => ({OUTBOX})().length === 1")
    assert other.evaluate(OUTBOX) == kept
    expect(page.locator("#outbox li")).to_have_count(1)
    # Answered from the other tab: marked done, then taken out; not put back.
    other.evaluate(f"""() => {{ localStorage.setItem('thirteen-outbox-done', JSON.stringify({kept}));
                                localStorage.setItem('thirteen-outbox', '[]'); }}""")
    other.wait_for_timeout(500)
    assert page.evaluate(OUTBOX) == []
    assert events(live_server, url) == []
    other_tab.forgive_offline()
    other_tab.step("the other tab's home page")
    other.close()
    assert other_tab.errors == []
    phone.context.set_offline(False)
    phone.forgive_offline("status of 409")
