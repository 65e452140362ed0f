"""A Tiến lên evening (its score sheet) started offline is played whole on the phone and reaches
the server once (issue 35): by touch, with the phone's engine ready and the network cut, the
evening started from its new-evening form (three games, its end), three games entered by hand, one
corrected and the correction undone, the end moved to four games (the sheet's own form), a stake refused (no amount) then set (the
payments and the settle-up drawn on the phone as the referee draws them), the page reloaded offline, every screen drawn on the phone (referee.web.phone_pages and
referee.web.games.tienlen.score_pages, through static/js/engine.js) and checked by the invariants
the journeys use (tests/invariants.py), the end of the evening said as the sheet says it; then
the network comes back and the server holds exactly those records, once, in order, and its sheet
shows the same names, games, totals and end as the phone did.

Each tap's answer time (tap to the drawn page, and its Python part in the worker) is printed
(``-s``); ``THIRTEEN_CPU_SLOWDOWN=4`` throttles the page's CPU as in
tests/test_browser_offline_game.py (not the worker's).  Nothing is asserted on time.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.test_browser_offline_game import OfflinePhone

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Konstantinos Papadopoulos-Alexandropoulo", "Chi"]
# Who went out first, and the others' cards left, game by game (the third ends the evening).
GAMES = [(0, {1: "5", 2: "13"}), (1, {0: "3", 2: "2"}), (2, {0: "6", 1: "1"})]


def sheet_shown(page) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """What the sheet shows: each player's total, each game's points, the end of the evening."""
    return page.evaluate("""() => {
        const texts = (sel) => [...document.querySelectorAll(sel)].map(e => e.textContent.replace(/\\s+/g, ' ').trim());
        return {totals: texts('#ts-sheet .ts-totals li'), games: texts('#ts-sheet .ts-game .ts-points'),
                end: texts('#ts-sheet .evening-over, #ts-sheet .evening-to-go'), count: texts('#ts-sheet .ts-count'),
                money: texts('#ts-sheet .settle-up h2, #ts-sheet .settle-stake, #ts-sheet .settle-balances li, '
                             + '#ts-sheet .settle-up h3, #ts-sheet .settle-transfers li, #ts-sheet .settle-note')};
    }""")


def enter_game(t: OfflinePhone, out: int, left: dict[int, str]) -> None:
    """A game by hand: who went out first, the cards the others were left with."""
    w, page = t.w, t.page
    number = page.locator("#ts-sheet .ts-game").count() + 1
    w.tap("[data-action=by-hand]", f"Enter game {number} by hand", result=page.locator(".ts-entry"))
    t.drawn(f"game {number}'s form")
    w.tap(f".ts-out input[name=out][value='{out}']", f"game {number}: seat {out + 1} went out first")
    for seat, count in left.items():
        w.type(f"#left_{seat}", count)
    w.tap(".ts-entry button[type=submit]", f"Save game {number}", result=page.locator(".ts-game").first)
    t.drawn(f"save game {number}")
    expect(page.locator(f".ts-game[data-game='{number}']")).to_have_count(1)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_an_evening_started_offline_is_played_on_the_phone_and_reaches_the_server_once(
        browser, engine_server, width, height):
    t = OfflinePhone(browser, engine_server, width, height)
    w, page = t.w, t.page
    t.offline_at(("a.game-tile[href='/tienlen/']", "Tiến lên"), ("a[href='/tienlen/scores/']", "Score an evening"))
    for i, name in enumerate(NAMES):
        w.type(f"#name{i}", name)
    w.type("#end-games", "3")
    w.tap(".ts-start button[type=submit]", "Start the sheet (offline)", result=page.locator("#ts-sheet"))
    t.drawn("the sheet, started")
    keeper = t.started("/tienlen/scores")
    expect(page.locator("#ts-sheet .evening-to-go")).to_have_count(1)

    for out, left in GAMES:
        enter_game(t, out, left)
    expect(page.locator("#ts-sheet .evening-over")).to_have_count(1)  # three games: the evening is over
    # Game 2 corrected (Chi had 4 cards left, not 2), then the correction undone.
    before = sheet_shown(page)
    w.tap(".ts-game[data-game='2'] .ts-correct", "Correct game 2", result=page.locator(".ts-entry"))
    t.drawn("game 2's form")
    expect(page.locator("#left_2")).to_have_value("2")
    w.type("#left_2", "4")
    w.tap(".ts-entry button[type=submit]", "Save the correction", result=page.locator(".ts-game").first)
    t.drawn("save the correction")
    corrected = sheet_shown(page)
    assert corrected["totals"] != before["totals"]
    w.tap("#ts-sheet [data-action=undo]", "Undo the correction", result=page.locator("#ts-sheet .notice").first)
    t.drawn("undo")
    assert sheet_shown(page)["totals"] == before["totals"]
    # The end of the evening moved to four games (its form on the sheet): one game to go again.
    w.tap(".evening-end-form summary", "End of the evening")
    w.type(".evening-end-form #end-games", "4")
    w.tap("[data-action=set-end]", "Save the end", result=page.locator("#ts-sheet"))
    t.drawn("save the end")
    expect(page.locator("#ts-sheet .evening-to-go")).to_have_count(1)
    expect(page.locator("#ts-sheet .evening-over")).to_have_count(0)
    shown = sheet_shown(page)
    assert shown["totals"] == before["totals"] and len(shown["games"]) == 3 and shown["end"]
    assert shown["money"] == []  # no stake yet: no money on the sheet
    # The stake, offline: an amount that is none refused beside its field (what was typed kept),
    # then 2 a point in the reader's currency (USD): the balances and the payments drawn on the phone.
    w.tap(".settle-stake-form summary", "Play for money")
    w.type("#settle-stake", "abc")
    w.tap("[data-action=set-stake]", "Save a stake that is no amount (offline)",
          result=page.locator(".settle-stake-form .field-error"))
    t.drawn("the stake refused")
    expect(page.locator("#settle-stake")).to_have_value("abc")
    w.type("#settle-stake", "2")
    w.tap("[data-action=set-stake]", "Save the stake (offline)", result=page.locator("#ts-sheet .settle-up"))
    t.drawn("save the stake")
    shown = sheet_shown(page)
    assert shown["totals"] == before["totals"] and shown["money"], shown
    assert any("$2.00 a point" in line for line in shown["money"]), shown["money"]
    assert page.locator("#ts-sheet .settle-transfers li").count() >= 1
    t.reloaded_offline("#ts-sheet")
    assert sheet_shown(page) == shown
    t.sent_once(keeper, ["game", "game", "game", "correct", "undo", "end", "money"], f"/tienlen/scores/g/{keeper}", sheet_shown, shown)
    t.finish()
