"""A game started offline is played on the phone, start to finish, and reaches the server once
(issue 35): by touch, with the phone's engine ready and the network cut, a Three Thirteen sheet
started from the home page, two rounds entered, one corrected and the correction undone (and a
Tiến lên table started from the home page, five plays, a pass and an undo; a Trece table to a
joker's penalty, its end of the evening set, undone and set again on the way), every screen drawn on the phone (referee.web.phone_pages through static/js/engine.js) and checked by
the invariants the journeys use (tests/invariants.py); then the network comes back and within
20 s the server holds exactly those records, once, in order, and its sheet shows the same names,
rounds and totals as the phone did.

Each tap's answer time (from htmx's request to the drawn answer, on the phone) and the Python
part of it (in the engine's worker) are printed (``-s``); with ``THIRTEEN_CPU_SLOWDOWN=4`` the
page's CPU is throttled 4× (DevTools' CPU throttling, which Chromium allows on pages only, not
on workers: the worker's Python time times 4 is the estimate for it) to measure the goal of an
answer within 1 s on a 4× slower CPU.  Nothing is asserted on time.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from referee.web.extensions import db
from referee.web.models import Event, Game, Write
from tests import invariants
from tests.conftest import PHONE, Phone
from tests.journey import Walk

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Konstantinos Papadopoulos-Alexandropoulo", "Chi"]
DRAWS = "() => !!(window.Thirteen && window.Thirteen.engine && window.Thirteen.engine.drawsPages && window.Thirteen.engine.drawsPages())"
offline_noise = invariants.offline_noise("status of 409")
"""What a phone cut from the network says by design, at whatever step it comes (on a busy machine
a request or the event stream may still be in flight at the cut), and the stale writes these
tests send on purpose."""


class Slow:
    """``THIRTEEN_CPU_SLOWDOWN=<rate>``: the page runs on a CPU that many times slower (DevTools'
    CPU throttling); the workers it starts (the engine's) are let run as they start (DevTools
    cannot throttle a worker's CPU), their Python time printed apart."""

    def __init__(self, context, page) -> None:  # type: ignore[no-untyped-def]
        self.rate = float(os.environ.get("THIRTEEN_CPU_SLOWDOWN", "0") or 0)
        self.waiting: list[str] = []
        self._id = 0
        if not self.rate:
            return
        self.cdp = context.new_cdp_session(page)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": self.rate})
        self.cdp.on("Target.attachedToTarget", lambda e: self.waiting.append(e["sessionId"]))
        self.cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})

    def workers(self) -> None:
        while self.waiting:
            session = self.waiting.pop(0)
            # (DevTools throttles a page's CPU only: "Operation is only supported for pages, not
            # workers". The engine's worker runs at full speed; its Python time is printed apart.)
            self._id += 1
            try:
                self.cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(
                    {"id": self._id, "method": "Runtime.runIfWaitingForDebugger", "params": {}})})
            except Exception:  # noqa: BLE001 - playwright's Error: the worker is gone already (its page left)
                continue

    def wait_drawn(self, page, timeout_s: float) -> None:  # type: ignore[no-untyped-def]
        """Until the page's engine draws pages, letting each worker it starts run throttled."""
        end = time.monotonic() + timeout_s
        while True:
            self.workers()
            if page.evaluate(DRAWS):
                return
            if time.monotonic() > end:
                raise AssertionError(f"the engine drew no page within {timeout_s} s")
            page.wait_for_timeout(100)


def kept(page) -> None:  # type: ignore[no-untyped-def]
    """As after any first visit: the service worker runs and has kept, in the background, every
    stylesheet and script of this release (the page says so: data-kept), so the game's own
    (a table's, never opened on this phone) are there offline."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=15_000)
    page.wait_for_function("() => document.documentElement.dataset.kept === '1'", timeout=30_000)


def drawn_ms(page) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The last tap's answer on the phone: from the tap's request to the drawn answer, and the
    Python part of it (in the engine's worker)."""
    last = page.evaluate("window.Thirteen.engine.last || {}")
    return float(last.get("ms", -1)), float(last.get("workerMs") or 0)


def sheet_shown(page) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """What a sheet shows: its players, each round's points and running totals, the totals, its money."""
    return page.evaluate("""() => {
        const t = document.querySelector('#sheet .tt-table');
        const cells = (sel) => [...t.querySelectorAll(sel)].map(e => e.textContent.replace(/\\s+/g, ' ').trim());
        return {names: cells('thead th:not(.tt-rcol)').map(n => n.replace(/ ?★.*$/, '')),
                rounds: cells('tbody tr'), totals: cells('tfoot td'),
                money: [...document.querySelectorAll('.settle-up .settle-stake, .settle-up li')].map(e => e.textContent.replace(/\\s+/g, ' ').trim())};
    }""")


def enter_round(t: OfflinePhone, number: int) -> None:
    """Round ``number`` by touch: the first seat goes out with a run of hearts, the others' points typed."""
    w, page = t.w, t.page
    w.tap(".tt-enter", f"Enter round {number}", result=page.locator("[data-round-form]"))
    t.drawn(f"round {number}'s page")
    for seat in range(3):
        if page.locator(".tt-steps").is_visible():
            w.tap(f".tt-step[data-step='{seat}']", f"round {number}: the hand of seat {seat + 1}")
        if seat == 0:
            w.tap(f"#seat-{seat} .tt-outbox", f"round {number}: seat 1 went out")
            w.type(f"#picker-{seat}-text", " ".join(f"{r}h" for r in ["A", "2", "3", "4", "5"][: number + 2]))
        else:
            w.type(f"#points-{seat}", str(4 * seat + number))
    w.tap(".tt-save", f"Save round {number}", result=page.locator("#sheet"))
    t.drawn(f"save round {number}")


def stored(server, keeper: str) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """The game's events at ``keeper``: (kind, write id), in order."""
    with server.app.app_context():
        game = db.session.scalars(select(Game).where(Game.keeper_token == keeper)).first()
        if game is None:
            db.session.remove()
            return []
        ids = {w.seq: w.write_id for w in db.session.scalars(select(Write).where(Write.game_id == game.id))}
        found = [(e.kind, ids.get(e.seq, "")) for e in db.session.scalars(
            select(Event).where(Event.game_id == game.id).order_by(Event.seq))]
        db.session.remove()
    return found


class OfflinePhone:
    """A phone by touch at one size that opens the app from its home page, waits until its engine
    draws pages and the service worker kept the release, taps its way to a new-game form and is
    then cut from the network; at the end, the network comes back and the server must hold exactly
    the records the phone kept, once, in order, and draw what the phone drew. What every game
    started offline shares (tests/test_browser_offline_evening.py too)."""

    def __init__(self, browser, server, width: int, height: int) -> None:  # type: ignore[no-untyped-def]
        self.context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})
        self.phone = Phone(self.context, server.url)
        self.w = Walk(self.phone)
        self.page = self.w.page
        self.slow = Slow(self.context, self.page)
        self.server = server
        self.size = f"{width}x{height}"
        self.timings: list[tuple[str, tuple[float, float]]] = []

    def offline_at(self, *taps: tuple[str, str]) -> None:
        """From the home page, the taps (selector, what) to a form, then no network."""
        page = self.page
        self.w.open("/")
        self.slow.wait_drawn(page, 240)  # the engine, then its pages, fetched once
        for selector, what in taps:
            self.w.tap(selector, what)
        self.slow.wait_drawn(page, 120)  # this page's engine (from its memory snapshot)
        kept(page)
        self.context.set_offline(True)
        self.phone.inv.forgives = offline_noise
        page.wait_for_function("() => navigator.onLine === false")  # as the page sees it (the start is then kept at once)

    def drawn(self, what: str) -> None:
        """Note the last tap's answer time on the phone (printed at the end)."""
        self.timings.append((what, drawn_ms(self.page)))

    def started(self, prefix: str) -> str:
        """The keeper link of the game the phone just started offline, at whose page it is."""
        keeper = dict(self.page.evaluate("JSON.parse(localStorage.getItem('thirteen-starts'))[0].params"))["keeper_token"]
        assert self.page.url.endswith(f"{prefix}/g/{keeper}")
        return str(keeper)

    def reloaded_offline(self, content: str) -> None:
        """A reload, still offline: the service worker has no copy of this page (the referee never
        drew it), its "No connection" page comes, and the phone draws the game there instead."""
        page = self.page
        page.reload()
        self.slow.wait_drawn(page, 120)
        expect(page.locator(content)).to_be_visible(timeout=60_000)
        self.w.settle()
        # (A fresh page asks the referee whether it answers, /healthz, and sends what waits: the
        # browser logs each as it fails offline, by design, forgiven as offline_noise.)
        self.phone.step("the game drawn again after a reload, offline")

    def sent_once(self, keeper: str, kinds: list[str], address: str, shown_by, shown) -> None:  # type: ignore[no-untyped-def]
        """The network back (no tap): the start, then the writes kept, reach the server once, in
        order, with the phone's write ids, and its page at ``address`` shows what the phone did
        (``shown_by(page)``). How long that took is printed beside the taps (the goal is 20 s:
        measured, not asserted; a loaded machine gets two minutes)."""
        page = self.page
        writes = page.evaluate("JSON.parse(localStorage.getItem('thirteen-outbox')).map(e => e.id)")
        assert len(writes) == len(kinds)
        assert stored(self.server, keeper) == []  # nothing reached the server
        back = time.monotonic()
        self.context.set_offline(False)
        while time.monotonic() < back + 120 and len(stored(self.server, keeper)) < len(kinds):
            self.slow.workers()
            page.wait_for_timeout(200)
        took = time.monotonic() - back
        events = stored(self.server, keeper)
        assert events == list(zip(kinds, writes, strict=True)), events
        page.wait_for_function("() => JSON.parse(localStorage.getItem('thirteen-outbox') || '[]').length === 0",
                               timeout=30_000)
        page.wait_for_timeout(4500)  # a retry timer's round: nothing is sent twice
        assert len(stored(self.server, keeper)) == len(kinds)
        server_page = self.context.new_page()
        server_page.goto(self.server.url + address)
        assert shown_by(server_page) == shown
        server_page.close()
        print(f"\n{self.size} cpu x{self.slow.rate or 1}: tap -> drawn on the phone (ms): "
              + ", ".join(f"{what} {ms:.0f} ({python:.0f} in Python)" for what, (ms, python) in self.timings)
              + f"; network back -> the server holds all {len(kinds)} records: {took:.1f} s")

    def finish(self) -> None:
        """No console error but the network's own, and no screen that broke the invariants."""
        self.phone.errors[:] = [e for e in self.phone.errors if not offline_noise(e)]
        broken = self.phone.broken()
        self.context.close()
        assert self.phone.errors == [], f"console errors: {self.phone.errors}"
        assert broken == [], "screens broke the invariants (tests/invariants.py):\n" + "\n".join(broken)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_a_sheet_started_offline_is_played_on_the_phone_and_reaches_the_server_once(
        browser, engine_server, width, height):
    t = OfflinePhone(browser, engine_server, width, height)
    w, page = t.w, t.page
    t.offline_at(("a.game-tile[href='/three-thirteen/']", "Three Thirteen"))
    for i, name in enumerate(NAMES):
        w.type(f"#name-{i}", name)
    w.tap("form button.primary[type=submit]", "Start the sheet (offline)", result=page.locator("#sheet"))
    t.drawn("the sheet, started")
    keeper = t.started("/three-thirteen")
    expect(page.locator("h1")).to_contain_text("Score sheet")

    enter_round(t, 1)
    enter_round(t, 2)
    # Round 1 corrected, then the correction undone.
    w.tap("#sheet a[href$='/round/1']", "Round 1 on the sheet", result=page.locator("h1, .tt-banner").first)
    t.drawn("round 1's page")
    w.tap(".tt-correct summary", "Correct this round")
    if page.locator(".tt-steps").is_visible():
        w.tap(".tt-step[data-step='1']", "round 1: the hand of seat 2")
    w.type("#points-1", "30")
    w.tap(".tt-save", "Save the correction", result=page.locator("#sheet"))
    t.drawn("save the correction")
    expect(page.locator("#sheet .tt-fix")).to_have_count(1)
    w.tap(".tt-undo", "Undo the correction", result=page.locator("#sheet .notice").first)
    t.drawn("undo")
    expect(page.locator("#sheet .tt-fix")).to_have_count(0)
    # The stake, offline (issue 35): 1 a point in the reader's currency, the money drawn by the phone.
    w.tap(".settle-stake-form summary", "Play for money")
    w.type("#settle-stake", "1")
    w.tap("[data-action=set-stake]", "Save the stake (offline)")  # a page drawn whole: its main control in view
    t.drawn("save the stake")
    expect(page.locator(".settle-up .settle-stake")).to_contain_text("$1.00")
    shown = sheet_shown(page)
    assert shown["names"] == NAMES and len(shown["rounds"]) == 2 and shown["money"], shown
    t.reloaded_offline("#sheet")
    assert sheet_shown(page) == shown
    t.sent_once(keeper, ["round", "round", "correct", "undo", "money"], f"/three-thirteen/g/{keeper}", sheet_shown, shown)
    t.finish()


def table_shown(page) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """What a followed table shows: whose turn, what lies on the felt, the players, the moves."""
    return page.evaluate("""() => {
        const texts = (sel) => [...document.querySelectorAll(sel)].map(e => e.textContent.replace(/\\s+/g, ' ').trim());
        return {status: texts('#tl-followed .tl-status'), felt: texts('#tl-followed .tl-felt'),
                players: texts('#tl-followed .tl-player'), log: texts('#tl-followed .tl-log li')};
    }""")


MOVES = [("play", 1, "3s"), ("play", 2, "5h"), ("play", 0, "7d"), ("play", 1, "9c"), ("pass", 2, ""),
         ("play", 0, "Kd")]


@pytest.mark.parametrize(("width", "height"), [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_a_tienlen_table_started_offline_is_played_on_the_phone_and_reaches_the_server_once(
        browser, engine_server, width, height):
    t = OfflinePhone(browser, engine_server, width, height)
    w, page = t.w, t.page
    t.offline_at(("a.game-tile[href='/tienlen/']", "Tiến lên"), ("a.game-tile[href='/tienlen/new']", "Start a game"))
    for i, name in enumerate(["Ana", "Bao", NAMES[1]]):
        w.type(f"#name{i}", name)
    w.tap(".tl-3s >> nth=1", "Bao holds 3♠")
    w.tap("#tl-new button[type=submit]", "Start the game (offline)", result=page.locator("#tl-followed"))
    t.drawn("the table, started")
    keeper = t.started("/tienlen")
    for n, (what, seat, cards) in enumerate(MOVES, 1):
        if what == "play":
            for card in cards.split():
                w.touch.tap(page.locator(f"#tl-followed [data-card='{card}']"))
            w.tap(".tl-go", f"move {n}: seat {seat + 1} plays {cards}", result=page.locator(".tl-status"))
        else:
            w.tap(".tl-pass", f"move {n}: seat {seat + 1} passes", result=page.locator(".tl-status"))
        t.drawn(f"move {n}")
    expect(page.locator("#tl-followed .tl-log li")).to_have_count(6)
    w.tap(".tl-undo button[data-action=undo]", "Undo the last play", result=page.locator("#tl-followed [data-show]"))
    t.drawn("undo")
    expect(page.locator("#tl-followed .tl-log li")).to_have_count(5)
    shown = table_shown(page)
    t.sent_once(keeper, ["play", "play", "play", "play", "pass", "play", "undo"], f"/tienlen/g/{keeper}", table_shown, shown)
    t.finish()


def trece_shown(page) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """What a Trece table shows: the pile, the demand, each player's count, the moves."""
    return page.evaluate("""() => {
        const texts = (sel) => [...document.querySelectorAll(sel)].map(e => e.textContent.replace(/\\s+/g, ' ').trim());
        return {top: texts('#table [data-top]'), stock: texts('#table [data-stock]'),
                counts: [...document.querySelectorAll('#table [data-player] [data-count]')].map(e => e.dataset.count),
                turn: texts('#table .turn'), log: texts('#table .log li, #table ol li'),
                end: texts('#table .evening-to-go li, #table .evening-over'),
                money: texts('#table .settle-up h2, #table .settle-up li')};
    }""")


def set_end(t: OfflinePhone, field: str, value: str, what: str) -> None:
    """The end of the evening set on the table by touch (its form, under the table): ``field`` typed."""
    w, page = t.w, t.page
    w.tap("#table .evening-end-form summary", "End of the evening")
    for name in ("games", "target"):
        w.type(f"#table #end-{name}", value if name == field else "")
    w.tap("#table [data-action=set-end]", f"Save the end: {what}", result=page.locator("#table"))
    t.drawn(f"save the end ({what})")
    expect(page.locator("#table .evening-to-go li")).to_have_count(1)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_a_trece_table_started_offline_is_played_to_a_penalty_and_its_end_set_on_the_phone_and_reaches_the_server_once(
        browser, engine_server, width, height):
    t = OfflinePhone(browser, engine_server, width, height)
    w, page = t.w, t.page
    t.offline_at(("a.game-tile[href='/trece/']", "Trece"))
    w.type("#name0", "Ana")
    w.type("#name1", NAMES[1])
    w.tap("input[name=dealer][value='0'] + span", "Ana deals")
    w.tap("input[name=turned_rank][value='Q'] + span", "a queen turned")
    w.tap("input[name=turned_suit][value='h'] + span", "of hearts")
    w.tap("form button.primary[type=submit]", "Start the table (offline)", result=page.locator("#table"))
    t.drawn("the table, started")
    keeper = t.started("/trece")
    for n, cards in enumerate([["Kh"], ["Qc"], ["Kd", "RJ"]], 1):
        if n == 3:  # the end of the evening (issue 35): three games, said under the table; undone; two games won
            set_end(t, "games", "3", "three games")
            w.tap("#table [data-action=undo]", "Undo: End of the evening changed",
                  result=page.locator("#table [data-show]"))
            t.drawn("undo the end")
            expect(page.locator("#table .evening-to-go")).to_have_count(0)
            expect(page.locator("#table .log li")).to_have_count(2)  # the plays stay
            set_end(t, "target", "2", "two games won")
            # the stake, offline (issue 35): 2 a game in the reader's currency, drawn by the phone
            w.tap("#table .settle-stake-form summary", "Play for money")
            w.type("#settle-stake", "2")
            w.tap("#table [data-action=set-stake]", "Save the stake (offline)")  # a page drawn whole: Play in view
            t.drawn("save the stake")
            expect(page.locator("#table [data-action=undo]")).to_contain_text("Stake changed")  # no game won yet: no money to say
            expect(page.locator("#settle-stake")).to_have_value("2.00")
        for card in cards:
            w.touch.tap(page.locator(f"#table .picker-grid [data-card='{card}']"))
        w.tap("#table [data-action=play]", f"play {n}: {' '.join(cards)}", result=page.locator("#table"))
        t.drawn(f"play {n}")
    expect(page.locator("[data-demand]")).to_contain_text("Ana must play a ♦ or pick up 13")
    w.tap("#table [data-action=draw]", "Ana cannot follow: she picks up 13", result=page.locator("#table"))
    t.drawn("the penalty")
    expect(page.locator("[data-player='0'] [data-count]")).to_have_attribute("data-count", "25")
    shown = trece_shown(page)
    assert len(shown["end"]) == 1 and len(shown["log"]) == 4
    t.sent_once(keeper, ["play", "play", "end", "undo", "end", "money", "play", "draw"], f"/trece/g/{keeper}", trece_shown, shown)
    t.finish()
