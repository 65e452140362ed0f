"""A Tiến lên evening (its score sheet) started offline is played whole on the phone and reaches
the server once (issue 35): by touch, with the phone's engine ready and the network cut, the
evening started from its new-evening form (three games, its end), three games entered by hand, one
corrected and the correction undone, the end moved to four games (the sheet's own form), a stake refused (the referee alone sets it), the page
reloaded offline, every screen drawn on the phone (referee.web.phone_pages and
referee.web.games.tienlen.score_pages, through static/js/engine.js) and checked by the invariants
the journeys use (tests/invariants.py), the end of the evening said as the sheet says it; then
the network comes back and the server holds exactly those records, once, in order, and its sheet
shows the same names, games, totals and end as the phone did.

Each tap's answer time (tap to the drawn page, and its Python part in the worker) is printed
(``-s``); ``THIRTEEN_CPU_SLOWDOWN=4`` throttles the page's CPU as in
tests/test_browser_offline_game.py (not the worker's).  Nothing is asserted on time.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE, Phone
from tests.journey import Walk
from tests.test_browser_offline_game import FORGIVEN, Slow, drawn_ms, kept, stored

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Konstantinos Papadopoulos-Alexandropoulo", "Chi"]
# Who went out first, and the others' cards left, game by game (the third ends the evening).
GAMES = [(0, {1: "5", 2: "13"}), (1, {0: "3", 2: "2"}), (2, {0: "6", 1: "1"})]


def sheet_shown(page) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """What the sheet shows: each player's total, each game's points, the end of the evening."""
    return page.evaluate("""() => {
        const texts = (sel) => [...document.querySelectorAll(sel)].map(e => e.textContent.replace(/\\s+/g, ' ').trim());
        return {totals: texts('#ts-sheet .ts-totals li'), games: texts('#ts-sheet .ts-game .ts-points'),
                end: texts('#ts-sheet .evening-over, #ts-sheet .evening-to-go'), count: texts('#ts-sheet .ts-count')};
    }""")


def enter_game(w, out: int, left: dict[int, str], timings: list[tuple[str, tuple[float, float]]]) -> None:  # type: ignore[no-untyped-def]
    page = w.page
    number = page.locator("#ts-sheet .ts-game").count() + 1
    w.tap("[data-action=by-hand]", f"Enter game {number} by hand", result=page.locator(".ts-entry"))
    timings.append((f"game {number}'s form", drawn_ms(page)))
    w.tap(f".ts-out input[name=out][value='{out}']", f"game {number}: seat {out + 1} went out first")
    for seat, count in left.items():
        w.type(f"#left_{seat}", count)
    w.tap(".ts-entry button[type=submit]", f"Save game {number}", result=page.locator(".ts-game").first)
    timings.append((f"save game {number}", drawn_ms(page)))
    expect(page.locator(f".ts-game[data-game='{number}']")).to_have_count(1)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_an_evening_started_offline_is_played_on_the_phone_and_reaches_the_server_once(
        browser, engine_server, width, height):
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})
    phone = Phone(context, engine_server.url)
    w = Walk(phone)
    page = w.page
    slow = Slow(context, page)
    slowdown = slow.rate
    timings: list[tuple[str, tuple[float, float]]] = []

    w.open("/")
    slow.wait_drawn(page, 240)  # the engine, then its pages, fetched once
    w.tap("a.game-tile[href='/tienlen/']", "Tiến lên")
    w.tap("a[href='/tienlen/scores/']", "Score an evening")
    slow.wait_drawn(page, 120)  # this page's engine (from its memory snapshot)
    kept(page)
    context.set_offline(True)
    page.wait_for_function("() => navigator.onLine === false")  # as the page sees it (the start is then kept at once)
    for i, name in enumerate(NAMES):
        w.type(f"#name{i}", name)
    w.type("#end-games", "3")
    w.tap(".ts-start button[type=submit]", "Start the sheet (offline)", result=page.locator("#ts-sheet"))
    timings.append(("the sheet, started", drawn_ms(page)))
    keeper = dict(page.evaluate("JSON.parse(localStorage.getItem('thirteen-starts'))[0].params"))["keeper_token"]
    assert page.url.endswith(f"/tienlen/scores/g/{keeper}")
    expect(page.locator("#ts-sheet .evening-to-go")).to_have_count(1)

    for out, left in GAMES:
        enter_game(w, out, left, timings)
    expect(page.locator("#ts-sheet .evening-over")).to_have_count(1)  # three games: the evening is over
    # Game 2 corrected (Chi had 4 cards left, not 2), then the correction undone.
    before = sheet_shown(page)
    w.tap(".ts-game[data-game='2'] .ts-correct", "Correct game 2", result=page.locator(".ts-entry"))
    timings.append(("game 2's form", drawn_ms(page)))
    expect(page.locator("#left_2")).to_have_value("2")
    w.type("#left_2", "4")
    w.tap(".ts-entry button[type=submit]", "Save the correction", result=page.locator(".ts-game").first)
    timings.append(("save the correction", drawn_ms(page)))
    corrected = sheet_shown(page)
    assert corrected["totals"] != before["totals"]
    w.tap("#ts-sheet [data-action=undo]", "Undo the correction", result=page.locator("#ts-sheet .notice").first)
    timings.append(("undo", drawn_ms(page)))
    assert sheet_shown(page)["totals"] == before["totals"]
    # The end of the evening moved to four games (its form on the sheet): one game to go again.
    w.tap(".evening-end-form summary", "End of the evening")
    w.type(".evening-end-form #end-games", "4")
    w.tap("[data-action=set-end]", "Save the end", result=page.locator("#ts-sheet"))
    timings.append(("save the end", drawn_ms(page)))
    expect(page.locator("#ts-sheet .evening-to-go")).to_have_count(1)
    expect(page.locator("#ts-sheet .evening-over")).to_have_count(0)
    shown = sheet_shown(page)
    assert shown["totals"] == before["totals"] and len(shown["games"]) == 3 and shown["end"]
    # The stake: the referee alone reads money; refused where it stands, the amount kept, nothing kept to send.
    w.tap(".settle-stake-form summary", "Play for money")
    w.type("#settle-stake", "2")
    w.tap("[data-action=set-stake]", "Save the stake (offline)", result=page.locator(".settle-stake-form .field-error"))
    expect(page.locator("#settle-stake")).to_have_value("2")
    # A reload, still offline: the service worker's "No connection" page, replaced by the phone's drawing.
    page.reload()
    slow.wait_drawn(page, 120)
    expect(page.locator("#ts-sheet")).to_be_visible(timeout=60_000)
    w.settle()
    phone.inv.errors[:] = [e for e in phone.inv.errors if "ERR_INTERNET_DISCONNECTED" not in e]  # its /healthz asks
    phone.step("the sheet drawn again after a reload, offline")
    assert sheet_shown(page) == shown
    writes = page.evaluate("JSON.parse(localStorage.getItem('thirteen-outbox')).map(e => e.id)")
    assert len(writes) == 6
    assert stored(engine_server, keeper) == []  # nothing reached the server

    back = time.monotonic()
    context.set_offline(False)  # no tap: the start, then its six writes, in order
    deadline = back + 20
    while time.monotonic() < deadline and len(stored(engine_server, keeper)) < 6:
        slow.workers()
        page.wait_for_timeout(200)
    took = time.monotonic() - back
    events = stored(engine_server, keeper)
    assert events == list(zip(["game", "game", "game", "correct", "undo", "end"], writes, strict=True)), events
    page.wait_for_function("() => JSON.parse(localStorage.getItem('thirteen-outbox') || '[]').length === 0",
                           timeout=10_000)
    page.wait_for_timeout(4500)  # a retry timer's round: nothing is sent twice
    assert len(stored(engine_server, keeper)) == 6
    server_page = context.new_page()
    server_page.goto(engine_server.url + f"/tienlen/scores/g/{keeper}")
    assert sheet_shown(server_page) == shown
    server_page.close()
    print(f"\n{width}x{height} cpu x{slowdown or 1}: tap -> drawn on the phone (ms): "
          + ", ".join(f"{what} {ms:.0f} ({python:.0f} in Python)" for what, (ms, python) in timings)
          + f"; network back -> the server holds all 6 records: {took:.1f} s")
    phone.forgive_offline(*FORGIVEN)
    broken = phone.broken()
    context.close()
    assert phone.errors == [], f"console errors: {phone.errors}"
    assert broken == [], "screens broke the invariants (tests/invariants.py):\n" + "\n".join(broken)
