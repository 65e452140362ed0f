"""The referee in your pocket: verdicts judged on the phone, with no network and no wait.

Every test runs on ``engine_server`` (a live server whose pages start the phone's engine:
Pyodide in a Web Worker, see ``referee/web/engine.py`` and ``static/js/engine.js``).  Once the
footer says "The referee works offline on this phone", the phone goes offline and each check
screen and the Three Thirteen split still answer, with the server's own words and markup.
A phone whose engine failed to load, or is still loading, gets the server's answer as before.

The goals of issue 20 are measured and printed (``-s``), never asserted: tap-to-verdict with
the engine ready and the CPU throttled 4× (good network, 400 kbps / 400 ms, none), the bytes
the engine costs, a first visit's bytes, and how long the engine takes to be ready again on
a repeat visit.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE
from tests.flows import start_trece_table
from tests.invariants import offline_noise
from tests.test_browser_weight import weigh

pytestmark = pytest.mark.browser

READY = "() => document.documentElement.dataset.engine === 'ready'"
SETTLED = "() => ['ready', 'failed'].includes(document.documentElement.dataset.engine)"
SLOW = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}
GOOD = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
FORGIVEN = offline_noise("ERR_FAILED", "status of 400", "status of 404")
"""What a phone cut from the network logs (tests/invariants.py), and the engine's files these
tests refuse or drop on purpose."""


class EnginePhone:
    """A phone on the engine's server: its page, its console errors, its requests.  Its
    :class:`~tests.conftest.Phone` is made by ``new_engine_phone``, so every screen it reaches is
    checked (tests/invariants.py) at each load and swap, and at each :meth:`step`."""

    def __init__(self, browser, new_engine_phone, **context) -> None:  # type: ignore[no-untyped-def]
        self.context = browser.new_context(**PHONE, **context)
        self.phone = new_engine_phone(self.context)
        self.page = self.phone.page
        self.page.set_default_timeout(15_000)
        self.url = self.phone.base_url
        self.errors: list[str] = self.phone.errors
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        # what the tests' own doing logs (the phone cut from the network, the engine's files
        # refused or dropped) is forgiven at every step, as close() forgives it
        self.phone.inv.forgives = FORGIVEN

    def open(self, path: str):  # type: ignore[no-untyped-def]
        self.page.goto(self.url + path)
        return self.page

    def ready(self, said: str = "The referee works offline on this phone."):  # type: ignore[no-untyped-def]
        self.page.wait_for_function(READY, timeout=120_000)
        expect(self.page.locator(".engine-state")).to_have_text(said)
        return self.page

    def step(self, what: str, **kw) -> None:  # type: ignore[no-untyped-def]
        """The screen's invariants now (tests/invariants.py)."""
        self.phone.step(what, **kw)

    def close(self) -> None:
        try:
            if not self.page.is_closed():
                self.step("the end of the test")
        finally:
            self.context.close()
        errors = [e for e in self.errors if not FORGIVEN(e)]
        assert errors == [], f"console errors: {errors}"


@pytest.fixture
def pocket(browser, new_engine_phone):  # type: ignore[no-untyped-def]
    phone = EnginePhone(browser, new_engine_phone)
    yield phone
    phone.close()


def judged_locally(page) -> str:  # type: ignore[no-untyped-def]
    return page.evaluate("window.Thirteen.engine.last && window.Thirteen.engine.last.kind")


def tap_tienlen_bomb(page) -> None:  # type: ignore[no-untyped-def]
    page.locator("#picker-check [data-card='2h']").tap()  # the grid fills "On the table" first
    page.locator("#picker-play [data-target]").tap()
    for card in ("3s", "3c", "4d", "4h", "5s", "5c"):
        page.locator(f"#picker-check [data-card='{card}']").tap()


def test_offline_a_tienlen_check_is_judged_on_the_phone(pocket):
    page = pocket.open("/tienlen/check")
    pocket.ready()
    pocket.context.set_offline(True)
    before = len(pocket.requests)
    tap_tienlen_bomb(page)
    box = page.locator("#verdict .verdict")
    expect(box).to_have_attribute("data-state", "legal")
    expect(box).to_contain_text("a double sequence of 3 pairs bombs a single 2")
    expect(box.locator(".badge.bomb")).to_be_visible()
    expect(page.locator("#connection")).to_be_hidden()  # nothing failed to send: nothing was sent
    pocket.step("a bomb judged offline on the phone", result=box)
    assert judged_locally(page) == "tienlen-check"
    assert not [u for u in pocket.requests[before:] if "/tienlen/check" in u]
    # A field error still lands beside its field (out of band), as the server's answer does.
    page.locator("#picker-check [data-card='5c']").tap()
    page.locator("#picker-check [data-card='9d']").tap()
    expect(box).to_have_attribute("data-state", "nocombo")
    pocket.step("no combination, said offline", result=box)


def test_offline_the_house_rules_and_the_language_are_the_phones(pocket):
    page = pocket.open("/lang/vi?next=/tienlen/check")
    pocket.ready("Trọng tài chạy được ngoại tuyến trên điện thoại này.")  # the footer speaks the page's language
    pocket.context.set_offline(True)
    tap_tienlen_bomb(page)
    box = page.locator("#verdict .verdict")
    expect(box).to_contain_text("3 đôi thông chặt được một heo")
    pocket.step("a bomb judged offline in Vietnamese", result=box)
    # A switch changed offline is kept on the phone: the rules cookie is the server's alone
    # (HttpOnly), so the phone keeps it beside the rules the page was drawn with.
    page.locator("summary").filter(has_text=re.compile("Luật|luật")).first.tap()
    page.locator("input[name=quad_beats_pair_of_twos]").check()
    expect(box).to_have_attribute("data-state", "legal")
    pocket.step("a house rule switched offline")
    # (the first answer of the page may already have kept the rules it was drawn with: wait for the switch)
    kept = page.wait_for_function("""() => { const kept = JSON.parse(localStorage.getItem('thirteen-rules-tienlen') || 'null');
        return kept && kept.rules && kept.rules.quad_beats_pair_of_twos === true && kept; }""")
    assert kept.json_value()["rules"]["quad_beats_pair_of_twos"] is True
    assert "quad_beats_pair_of_twos" not in page.evaluate("document.cookie")  # no script reads or writes it
    # The next page (drawn by the server from its cookie, which never heard of the switch) shows
    # the rules chosen on the phone, and its form sends them.
    pocket.context.set_offline(False)
    page.goto(pocket.url + "/tienlen/check")  # not a reload: the browser would restore the boxes itself
    expect(page.locator("input[name=quad_beats_pair_of_twos]")).to_be_checked()
    pocket.step("the next page, online, with the rules chosen on the phone")
    # The next request that reaches the server (the form sent without the phone's engine) carries
    # them, and the server keeps them in its own cookie.
    with page.expect_navigation():
        page.evaluate("HTMLFormElement.prototype.submit.call(document.querySelector('form[data-local-rules]'))")
    pocket.step("the form sent to the server without the phone's engine")
    cookie = next(c for c in pocket.context.cookies() if c["name"] == "rules_tienlen")
    assert "quad_beats_pair_of_twos\\\":true" in cookie["value"] and cookie["httpOnly"]
    page.goto(pocket.url + "/tienlen/check")
    expect(page.locator("input[name=quad_beats_pair_of_twos]")).to_be_checked()  # the server read it back
    page.wait_for_function("() => localStorage.getItem('thirteen-rules-tienlen') === null")  # the server's stand now


def test_offline_a_trece_check_is_judged_on_the_phone(pocket):
    page = pocket.open("/trece/check")
    pocket.ready()
    pocket.context.set_offline(True)
    page.locator("#picker-top [data-target]").tap()
    page.locator("#picker-check [data-card='Qh']").tap()
    for card in ("Kh", "RJ"):
        page.locator(f"#picker-check [data-card='{card}']").tap()
    verdict = page.locator("#verdict .verdict")
    expect(verdict).to_have_attribute("data-verdict", "legal")
    expect(verdict.locator(".demand-line")).to_have_text("RJ on K♥: the other player must play a ♥")  # the server's words
    pocket.step("a joker on K♥ judged offline on the phone", result=verdict)
    assert judged_locally(page) == "trece-check"


def test_offline_a_check_screen_that_answers_by_itself_says_nothing_is_stale_nor_unsent(pocket):
    page = pocket.open("/trece/check")
    pocket.ready()
    page.evaluate("async () => { await navigator.serviceWorker.register('/sw.js'); await navigator.serviceWorker.ready; }")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    pocket.context.set_offline(True)
    page.reload()  # the phone's copy of the check screen, its engine ready again
    page.wait_for_function("() => document.body.hasAttribute('data-from-cache')")
    pocket.ready()
    expect(page.locator("#freshness")).to_be_hidden()  # no "showing the page as of": it answers as online
    pocket.step("the phone's copy of the check screen, offline, its engine ready")
    before = len(pocket.requests)
    page.locator("#picker-top [data-target]").tap()
    page.locator("#picker-check [data-card='Qh']").tap()
    for card in ("Kh", "RJ"):
        page.locator(f"#picker-check [data-card='{card}']").tap()
    verdict = page.locator("#verdict .verdict")
    expect(verdict).to_have_attribute("data-verdict", "legal")
    page.locator("#picker-check [data-card='Kh']").tap()  # a change, answered at once: htmx asks nothing after its wait
    expect(verdict).not_to_have_attribute("data-verdict", "legal")
    page.wait_for_timeout(1000)  # longer than the form's waits (150 ms, 400 ms): a request would have gone
    assert not [u for u in pocket.requests[before:] if "/trece/check" in u]
    expect(page.locator("#connection")).to_have_count(0)  # no red "No connection" over the screen
    pocket.step("a change answered at once offline", result=verdict)


def test_offline_the_three_thirteen_split_is_shown_on_the_phone(pocket):
    page = pocket.open("/three-thirteen/score?round=5")
    pocket.ready()
    pocket.context.set_offline(True)
    for card in ("3s", "4s", "5s", "6h", "6d", "6c", "Kc"):
        page.locator(f"#picker-hand [data-card='{card}']").tap()
    result = page.locator("#score-result")
    expect(result.locator(".tt-split")).to_have_attribute("data-points", "10")
    expect(result).to_contain_text("10 points")
    pocket.step("a hand's split shown offline", result=result)
    assert judged_locally(page) == "three-thirteen-score"
    assert "hand=" in page.url  # the address follows the form, as the server's answer pushes it


def test_offline_a_rounds_live_count_and_split_are_shown_on_the_phone(pocket):
    page = pocket.open("/three-thirteen/")
    for i, name in enumerate(("Ann", "Bao")):
        page.locator(f"#name-{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url(re.compile(r"/three-thirteen/g/"))
    page.goto(page.url + "/round/1")
    pocket.ready()
    pocket.step("round 1, the phone's engine ready")
    pocket.context.set_offline(True)
    page.locator(".tt-step[data-step='1']").tap()
    page.locator("#seat-1 [data-card='Ks']").tap()
    expect(page.locator("#preview-1 .tt-count")).to_have_attribute("data-count", "1")
    for card in ("Kd", "Kc"):
        page.locator(f"#seat-1 [data-card='{card}']").tap()
    expect(page.locator("#preview-1 .tt-split")).to_have_attribute("data-points", "0")
    pocket.step("a hand's live count and split shown offline", result=page.locator("#preview-1"))
    assert judged_locally(page) == "three-thirteen-preview"


def test_offline_a_saved_round_shows_its_split_and_points_at_once_and_is_stored_once(pocket, engine_server):
    page = pocket.open("/three-thirteen/")
    for i, name in enumerate(("Ann", "Bao")):
        page.locator(f"#name-{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url(re.compile(r"/three-thirteen/g/"))
    sheet_url = page.url
    page.goto(sheet_url + "/round/1")
    pocket.ready()
    pocket.step("round 1, the phone's engine ready")
    pocket.context.set_offline(True)
    page.locator(".tt-step[data-step='0']").tap()
    for card in ("Ks", "Kd", "Kc"):
        page.locator(f"#seat-0 [data-card='{card}']").tap()
    # A complete hand that scores nothing is ticked out by the page itself (judged on the phone),
    # which then moves on to the next hand: a tap on the box would race it.
    expect(page.locator("#out-0")).to_be_checked()
    page.locator(".tt-step[data-step='1']").tap()
    for card in ("4h", "9c", "Jd"):
        page.locator(f"#seat-1 [data-card='{card}']").tap()
    # The hand's split, drawn on the phone, lands before Save is tapped (as a player sees it): the
    # last answer the phone gives is then the round's, not a late split's (a busy machine's race).
    expect(page.locator("#preview-1")).to_contain_text("23")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.locator(".tt-save").tap()
    judged = page.locator("[data-local-shown] .tt-judged")
    expect(judged).to_have_attribute("data-state", "ok")
    expect(judged.locator(".tt-hand[data-seat='0'] .tt-split")).to_have_attribute("data-points", "0")
    expect(judged.locator(".tt-hand[data-seat='0'] .badge.ok")).to_be_visible()
    expect(judged.locator(".tt-hand[data-seat='1'] .tt-hand-pts")).to_have_text("23 points")  # 4 + 9 + 10
    expect(page.locator("#outbox")).to_be_visible()  # and it waits to be sent
    pocket.step("the round saved offline, judged on the phone", result=judged)
    assert judged_locally(page) == "three-thirteen-round"
    pocket.context.set_offline(False)
    expect(page.locator("#outbox")).to_be_hidden(timeout=30_000)
    pocket.step("back online, the round sent")
    rounds = [p for kind, p in table_events(engine_server, sheet_url) if p.get("round") == 1]
    assert [r["points"] for r in rounds] == [[0, 23]]  # stored once, as the phone counted it


def table_events(server, url: str) -> list[tuple[str, dict]]:  # type: ignore[no-untyped-def]
    """The events stored for the Tiến lên table behind ``url``, in order."""
    from sqlalchemy import select

    from referee.web.extensions import db
    from referee.web.models import Event
    from referee.web.store import find_by_token

    token = re.search(r"/g/([^/?#]+)", url).group(1)  # type: ignore[union-attr]
    with server.app.app_context():
        access = find_by_token(token)
        assert access is not None
        rows = db.session.execute(select(Event.kind, Event.payload).where(Event.game_id == access.game.id)
                                  .order_by(Event.seq)).all()
        db.session.remove()
    return [(kind, payload) for kind, payload in rows]


def test_three_turns_offline_at_a_table_are_judged_queued_and_stored_once(pocket, engine_server):
    page = pocket.open("/tienlen/new")
    for i, name in enumerate(("Ana", "Bao", "Chi")):
        page.locator(f"#name{i}").fill(name)
    page.locator(".tl-3s").nth(1).tap()  # Bao holds the 3♠ and leads
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url("**/tienlen/g/**")
    page.evaluate("async () => { await navigator.serviceWorker.register('/sw.js'); await navigator.serviceWorker.ready; }")
    page.reload()
    url = page.url
    pocket.ready()
    pocket.step("the table, the phone's engine ready")
    pocket.context.set_offline(True)
    dock = page.locator("#tl-followed [data-after-action]")

    # A play the rules refuse is said at once, and nothing is kept to send.
    page.locator("#tl-followed [data-card='4h']").tap()
    page.locator(".tl-go").tap()
    expect(dock.locator("[data-refusal]")).to_contain_text("3♠")
    expect(page.locator("#outbox")).to_have_count(0)
    pocket.step("a play refused offline", result=dock.locator("[data-refusal]"))
    page.locator("#tl-followed [data-card='4h']").tap()  # untapped

    page.locator("#tl-followed [data-card='3s']").tap()
    page.locator(".tl-go").tap()
    expect(dock.locator("[data-last]")).to_have_text("Bao played 3♠")
    expect(dock.locator("[data-turn]")).to_have_text("▶ Chi to play")
    expect(page.locator("#outbox li")).to_have_count(1)

    # Chi's 4♥ is judged against the table as it stands with Bao's 3♠ on it (still waiting).
    page.locator("#tl-followed [data-card='4h']").tap()
    page.locator(".tl-go").tap()
    expect(dock.locator("[data-last]")).to_have_text("Chi played 4♥")
    expect(dock.locator("[data-turn]")).to_have_text("▶ Ana to play")
    # Ana's 3♣ is lower than the 4♥ now on the table (waiting to be sent): refused at once.
    page.locator("#tl-followed [data-card='3c']").tap()
    page.locator(".tl-go").tap()
    expect(dock.locator("[data-refusal]")).to_be_visible()
    refusal = dock.locator("[data-refusal]").inner_text()
    page.locator("#tl-followed [data-card='3c']").tap()
    page.locator("#tl-followed [data-card='5c']").tap()
    page.locator(".tl-go").tap()
    expect(dock.locator("[data-last]")).to_have_text("Ana played 5♣")
    expect(page.locator("#outbox li")).to_have_count(3)
    pocket.step("three turns played offline", result=dock)
    assert table_events(engine_server, url) == []
    versions = page.evaluate("JSON.parse(localStorage.getItem('thirteen-outbox')).map(e => e.version)")
    assert versions == ["0", "1", "2"]

    pocket.context.set_offline(False)
    expect(page.locator("#outbox")).to_be_hidden(timeout=20_000)
    expect(page.locator(".tl-status-name")).to_have_text("Bao")
    pocket.step("back online, the three turns sent")
    page.wait_for_timeout(4500)  # a retry timer's round: nothing more is sent
    stored = table_events(engine_server, url)
    assert [(kind, payload.get("seat"), payload.get("cards")) for kind, payload in stored] == [
        ("play", 1, "3♠"), ("play", 2, "4♥"), ("play", 0, "5♣")]
    assert "3♣" in refusal and "4♥" in refusal


def test_three_turns_offline_at_a_trece_table_are_judged_queued_and_stored_once(pocket, engine_server):
    page = pocket.open("/trece/")
    start_trece_table(page)
    page.evaluate("async () => { await navigator.serviceWorker.register('/sw.js'); await navigator.serviceWorker.ready; }")
    page.reload()
    url = page.url
    pocket.ready()
    pocket.step("the Trece table, the phone's engine ready")
    pocket.context.set_offline(True)
    dock = page.locator("#table [data-after-action]")

    page.locator("#table [data-card='7c']").tap()  # not one rank from the Q♥: refused at once
    page.locator("#table [data-action=play]").tap()
    expect(dock.locator("[data-refusal]")).to_contain_text("7♣")
    expect(page.locator("#outbox")).to_have_count(0)
    pocket.step("a play refused offline", result=dock.locator("[data-refusal]"))
    page.locator("#table [data-card='7c']").tap()  # untapped

    page.locator("#table [data-card='Kh']").tap()
    page.locator("#table [data-action=play]").tap()
    expect(dock.locator("[data-last]")).to_have_text("Ben played K♥")
    expect(dock.locator("[data-turn]")).to_contain_text("Ana to play")
    page.locator("#table [data-action=draw]").tap()  # Ana draws: judged after Ben's K♥ (waiting)
    expect(dock.locator("[data-last]")).to_have_text("Ana drew a card")
    expect(dock.locator("[data-turn]")).to_contain_text("Ben to play")
    page.locator("#table [data-card='Qc']").tap()
    page.locator("#table [data-action=play]").tap()
    expect(dock.locator("[data-last]")).to_have_text("Ben played Q♣")
    expect(page.locator("#outbox li")).to_have_count(3)
    pocket.step("three turns played offline", result=dock)
    assert page.evaluate("JSON.parse(localStorage.getItem('thirteen-outbox')).map(e => e.version)") == ["0", "1", "2"]
    assert table_events(engine_server, url) == []

    pocket.context.set_offline(False)
    expect(page.locator("#outbox")).to_be_hidden(timeout=20_000)
    pocket.step("back online, the three turns sent")
    page.wait_for_timeout(4500)  # a retry timer's round: nothing more is sent
    assert [kind for kind, _ in table_events(engine_server, url)] == ["play", "draw", "play"]


ENGINE_CACHE = "async () => (await (await caches.open('thirteen-engine')).keys()).map(r => new URL(r.url).pathname)"


def _new_release(page, app, release: str, engine=None) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    app.extensions["thirteen_assets"] = dataclasses.replace(app.extensions["thirteen_assets"], release=release)
    if engine is not None:
        app.extensions["thirteen_engine"] = engine
    page.evaluate("async () => { const r = await navigator.serviceWorker.getRegistration(); await r.update(); }")
    until(page, "async () => { const names = await caches.keys(); return names.some(n => n.endsWith(RELEASE))"
                " && !names.some(n => n.startsWith('thirteen-pages-') && !n.endsWith(RELEASE)); }"
                .replace("RELEASE", repr(release)))


def until(page, check: str) -> None:  # type: ignore[no-untyped-def]
    """Wait until the async function ``check`` answers true (polled: it reads Cache Storage); a
    new release's worker installs in seconds, but a loaded 2-core machine has taken over 20."""
    deadline = time.monotonic() + 60
    while not page.evaluate(check):
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {check}")
        page.wait_for_timeout(200)


def test_the_service_worker_keeps_the_engine_across_releases_until_a_new_engine(pocket, engine_server):
    import dataclasses

    app = engine_server.app
    page = pocket.open("/tienlen/check")
    page.evaluate("async () => { await navigator.serviceWorker.register('/sw.js'); await navigator.serviceWorker.ready; }")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    pocket.ready()
    pocket.step("the check screen under the service worker, the engine ready")
    built = app.extensions["thirteen_engine"]
    files = {f"/static/engine/{name}" for name in built.files()}
    assert files <= set(page.evaluate(ENGINE_CACHE))  # kept by the service worker as the engine fetched them
    assets = app.extensions["thirteen_assets"]
    try:
        _new_release(page, app, "0123456789ab")  # a release with the same engine: kept
        assert files <= set(page.evaluate(ENGINE_CACHE))
        _new_release(page, app, "0123456789ac", dataclasses.replace(built, app="app-000000000000"))
        until(page, f"async () => !(await ({ENGINE_CACHE})()).some(p => p.includes('{built.app}'))")
        kept = set(page.evaluate(ENGINE_CACHE))
        assert {f for f in files if built.runtime in f} <= kept  # the runtime did not change: kept
        assert not {f for f in kept if built.app in f}  # the old library and standard library: dropped
    finally:
        app.extensions["thirteen_assets"] = assets
        app.extensions["thirteen_engine"] = built


def test_a_phone_whose_engine_failed_to_load_gets_the_servers_verdict(pocket):
    # Refused (another release's engine, gone from the server): a failure, said. (A download
    # that breaks is not one: it goes on, below.)
    pocket.context.route("**/static/engine/**", lambda route: route.fulfill(status=404, body="gone"))
    page = pocket.open("/tienlen/check")
    page.wait_for_function(SETTLED, timeout=60_000)
    assert page.evaluate("document.documentElement.dataset.engine") == "failed"
    expect(page.locator(".engine-state")).to_contain_text("could not start")
    pocket.step("the engine could not start (its files refused by the test)", allow=(404,))
    tap_tienlen_bomb(page)
    expect(page.locator("#verdict")).to_contain_text("bombs a single 2")
    pocket.step("the server's verdict", result=page.locator("#verdict"), allow=(404,))
    assert judged_locally(page) is None
    assert any("/tienlen/check" in u for u in pocket.requests[1:])  # the server answered


def test_an_engine_download_that_breaks_never_gives_up_and_goes_on_when_it_can(pocket):
    broken: list[str] = []

    def drop(route) -> None:  # type: ignore[no-untyped-def]
        broken.append(route.request.url)
        route.abort("connectionreset")

    pocket.context.route("**/static/engine/**", drop)
    page = pocket.open("/tienlen/check")
    page.wait_for_function("() => document.documentElement.dataset.engine === 'loading'", timeout=60_000)
    for _ in range(300):  # tried, and tried again, by itself (or, before issue 35, "could not start")
        if len(broken) >= 3 or page.evaluate("document.documentElement.dataset.engine") != "loading":
            break
        page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"  # not "could not start"
    tap_tienlen_bomb(page)  # meanwhile the server answers
    expect(page.locator("#verdict")).to_contain_text("bombs a single 2")
    pocket.step("the server's verdict while the engine's download breaks", result=page.locator("#verdict"))
    assert judged_locally(page) is None
    pocket.context.unroute("**/static/engine/**")  # the network is back
    pocket.ready()
    pocket.step("the engine ready once its download went on")


def test_a_phone_whose_engine_is_still_loading_gets_the_servers_verdict(pocket):
    held = []
    pocket.context.route("**/static/engine/**/thirteen.zip", lambda route: held.append(route))  # never answered
    page = pocket.open("/trece/check")
    page.wait_for_function("() => ['loading', 'starting'].includes(document.documentElement.dataset.engine)",
                           timeout=30_000)
    expect(page.locator(".engine-state")).to_contain_text("Getting the offline referee")
    page.locator("#picker-top [data-target]").tap()
    page.locator("#picker-check [data-card='Jd']").tap()
    page.locator("#picker-check [data-card='Qd']").tap()
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "legal")
    pocket.step("the server's verdict while the engine loads", result=page.locator("#verdict"))
    assert judged_locally(page) is None
    for route in held:
        route.abort()


def test_on_a_metered_connection_the_engine_waits_until_the_player_asks(browser, new_engine_phone):
    phone = EnginePhone(browser, new_engine_phone)
    try:
        page = phone.page
        # Desktop Chromium reports no connection type nor save-data (Android does): the phone's
        # Network Information is given as a phone on mobile data with save-data on reports it.
        phone.context.add_init_script(
            "Object.defineProperty(navigator, 'connection', {value: {type: 'cellular', effectiveType: '4g',"
            " saveData: true}, configurable: true})")
        phone.open("/tienlen/check")
        page.wait_for_function("() => document.documentElement.dataset.engine === 'metered'", timeout=30_000)
        assert not [u for u in phone.requests if "/static/engine/" in u]
        get = page.locator(".engine-state button")
        expect(get).to_have_text(re.compile(r"Get it \(3\.\d MB\)"))
        phone.step("the engine waits to be asked for on a metered connection")
        get.tap()
        phone.ready()
    finally:
        phone.close()


# --------------------------------------------------------------------------- the goals, printed


ENGINE_AFTER_LOAD = """() => {
    const loaded = performance.getEntriesByType('navigation')[0].loadEventStart;
    const engine = performance.getEntriesByType('resource').find(r => /\\/static\\/js\\/engine\\.[0-9a-f]+\\.js$/.test(r.name));
    return engine ? engine.startTime - loaded : -1; }"""


def _engine_file(url: str) -> bool:
    """The engine's own files: its script and what its Web Worker brings (Pyodide, the library)."""
    return "/static/engine/" in url or re.search(r"/static/js/engine(-worker)?\.[0-9a-f]+\.js$", url) is not None


def _transferred(context, page):  # type: ignore[no-untyped-def]
    """(address, bytes over the network, "page" or "worker") of every request answered by the
    network: the page's own, or the service worker's (its precache, and the engine's files it
    fetches for the engine's Web Worker)."""
    rows: list[tuple[str, int, str]] = []

    def finished(request) -> None:  # type: ignore[no-untyped-def]
        response = request.response()
        if response is None or response.from_service_worker:
            return
        sizes = request.sizes()
        body = max(sizes["responseBodySize"], 0) or int(response.headers.get("content-length", "0") or 0)
        who = "page" if request.service_worker is None else "worker"
        rows.append((request.url, body + max(sizes["responseHeadersSize"], 0), who))

    context.on("requestfinished", finished)
    return rows


def _tap_to(page, locator, condition: str) -> float:  # type: ignore[no-untyped-def]
    page.evaluate("""() => { window.__tap = 0; document.addEventListener('click', e => {
        if (e.target.closest('[data-card], button')) window.__tap = performance.now(); }, true); }""")
    locator.tap()
    done = page.wait_for_function(f"() => window.__tap && ({condition}) && performance.now()", polling="raf",
                                  timeout=20_000)
    return float(done.json_value() - page.evaluate("window.__tap")) / 1000


def _tienlen(page) -> None:  # type: ignore[no-untyped-def]
    page.locator("#picker-check [data-card='2h']").tap()
    page.locator("#picker-play [data-target]").tap()
    for card in ("3s", "3c", "4d", "4h", "5s"):
        page.locator(f"#picker-check [data-card='{card}']").tap()


def _trece(page) -> None:  # type: ignore[no-untyped-def]
    page.locator("#picker-top [data-target]").tap()
    for card in ("Jd", "Qh", "Kh"):
        page.locator(f"#picker-check [data-card='{card}']").tap()


def _split(page) -> None:  # type: ignore[no-untyped-def]
    for card in ("3s", "4s", "5s", "6h", "6d", "6c", "Kc", "Kd", "Qs", "Jd", "9h", "8h"):
        page.locator(f"#picker-hand [data-card='{card}']").tap()


# (name, page, the taps before the last one, the last tap, the verdict on screen)
SCREENS = (
    ("Tiến lên check", "/tienlen/check", _tienlen, "#picker-check [data-card='5c']",
     "document.querySelector('#verdict').textContent.includes('bombs a single 2')"),
    ("Trece check", "/trece/check", _trece, "#picker-check [data-card='As']",
     "document.querySelector('#verdict').textContent.includes('A♠')"),
    ("Three Thirteen split (13 cards)", "/three-thirteen/score?round=11", _split, "#picker-hand [data-card='7h']",
     "document.querySelector('#score-result .tt-split') && document.querySelector('#score-result').textContent"
     ".includes('7♥')"),
)


def test_the_goals_of_the_referee_in_your_pocket(browser, engine_server, new_engine_phone):
    """Printed, not asserted: the machine is shared and noisy."""
    phone = EnginePhone(browser, new_engine_phone)
    try:
        page = phone.page
        rows = _transferred(phone.context, page)
        page.goto(engine_server.url + "/tienlen/check", wait_until="load")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
        page.wait_for_timeout(300)
        first_visit = sum(n for u, n, who in rows if who == "page" and not _engine_file(u))
        phone.ready()
        phone.step("a first visit of the Tiến lên check, the engine ready")
        # The engine is asked for only once the page has settled (engine-loader.js: 1.5 s after
        # the load event on a first visit), whatever else the machine is doing meanwhile.
        engine_after_load_ms = page.evaluate(ENGINE_AFTER_LOAD)
        engine_bytes = sum(n for u, n, _ in rows if "/static/engine/" in u)
        first_ready = page.evaluate("window.Thirteen.engine.readyMs")

        # A repeat visit: the engine from the service worker's cache, CPU throttled 4×.
        cdp = phone.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        rows.clear()
        page.reload(wait_until="load")
        phone.ready()
        cold_parts = page.evaluate("window.Thirteen.engine.timings")
        page.reload(wait_until="load")  # the snapshot is kept a moment after the first start
        phone.ready()
        repeat_ready = page.evaluate("window.Thirteen.engine.readyMs")
        repeat_parts = page.evaluate("window.Thirteen.engine.timings")
        repeat_engine_bytes = sum(n for u, n, _ in rows if "/static/engine/" in u)

        # Tap to verdict with the engine ready, CPU throttled 4×, on three networks: each screen
        # is opened on a good network, the engine made ready, then the network is set.
        cdp.send("Network.enable")
        times: dict[str, dict[str, float]] = {}
        engine_ms: dict[str, list[float]] = {}
        for network, conditions in (("good network", GOOD), ("400 kbps / 400 ms", SLOW), ("no network", None)):
            row = times.setdefault(network, {})
            for name, path, setup, last, condition in SCREENS:
                phone.context.set_offline(False)
                cdp.send("Network.emulateNetworkConditions", GOOD)
                page.evaluate("sessionStorage.clear()")  # no cards kept from the screen's last visit
                page.goto(engine_server.url + path, wait_until="load")
                phone.ready()
                if conditions is None:
                    phone.context.set_offline(True)
                else:
                    cdp.send("Network.emulateNetworkConditions", conditions)
                setup(page)
                row[name] = _tap_to(page, page.locator(last), condition)
                engine_ms.setdefault(name, []).append(page.evaluate("window.Thirteen.engine.last.ms"))
                phone.step(f"{name}, {network}: the verdict")  # after the measure, which it does not slow
        phone.context.set_offline(False)
        cdp.send("Network.emulateNetworkConditions", GOOD)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        print("\nThe referee in your pocket (issue 20), headless Chromium, phone context")
        print(f"  engine transferred once: {engine_bytes / 1e6:.2f} MB (goal at most 4 MB); "
              f"again on a repeat visit: {repeat_engine_bytes / 1e3:.1f} KB")
        print(f"  first visit of the Tiến lên check: {first_visit / 1024:.1f} KB by the page before the engine "
              f"(goal 30 KB; the engine asked for {engine_after_load_ms / 1000:.1f} s after the page's load)")
        for path in ("/tienlen/check", "/three-thirteen/score"):
            first, worker, repeat, _ = weigh(browser, engine_server.url + path)
            print(f"  {path} as tests/test_browser_weight.py weighs it, with the engine on: first visit "
                  f"{first / 1024:.1f} KB (+ {worker / 1024:.1f} KB service worker), repeat visit {repeat / 1024:.1f} KB")
        print(f"  engine ready: {first_ready / 1000:.1f} s on a first visit (no throttling), "
              f"{repeat_ready / 1000:.1f} s on a repeat visit with the CPU throttled 4× (goal at most 4 s)")
        print("  tap to verdict with the engine ready, CPU throttled 4× (goal at most 100 ms):")
        for network, row in times.items():
            print("    " + f"{network:<18} " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in row.items()))
        print("  of which the engine (the question to the worker and back, and the swap): " + ", ".join(
            f"{k} {min(v):.0f}–{max(v):.0f} ms" for k, v in engine_ms.items()))
        print("  (the Trece check form waits 150 ms after a change before it asks the server; with the engine ready "
              "the phone answers at the change)")
        print(f"  engine start on the repeat visit, ms: {repeat_parts} (the visit before: {cold_parts})")
        assert engine_bytes > 0 and engine_after_load_ms >= 1450, engine_after_load_ms
    finally:
        phone.context.set_offline(False)
        phone.close()
