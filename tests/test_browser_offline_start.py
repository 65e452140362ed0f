"""Starting a game with no network: every new-game form works in airplane mode.  The phone
makes the game's links itself, keeps the start, says on the page what it will do, lists the
game "not sent yet" on the home page, and sends it by itself once the referee can be reached;
the server then holds the game at the phone's links, once."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from referee.web.extensions import db
from referee.web.models import Game
from tests.test_browser_trece import choose

pytestmark = pytest.mark.browser

def games_at(live_server, token: str) -> list[tuple[str, list[str]]]:  # type: ignore[no-untyped-def]
    """The games whose keeper link is ``token``: kind and players."""
    with live_server.app.app_context():
        found = [(g.kind, g.player_names) for g in db.session.scalars(select(Game).where(Game.keeper_token == token))]
        db.session.remove()
    return found


def sheet(page) -> None:  # type: ignore[no-untyped-def]
    for i, name in enumerate(["Ann", "Bao", "Chi", "Dan"]):
        page.locator(f"#name-{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()


def table(page) -> None:  # type: ignore[no-untyped-def]
    for i, name in enumerate(["Ana", "Bao", "Chi"]):
        page.locator(f"#name{i}").fill(name)
    page.locator(".tl-3s").nth(1).tap()
    page.get_by_role("button", name="Start the game").tap()


def evening(page) -> None:  # type: ignore[no-untyped-def]
    for i, name in enumerate(["An", "Binh", "Chi", "Dung"]):
        page.locator(f"#name{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()


def trece(page) -> None:  # type: ignore[no-untyped-def]
    page.locator("#name0").fill("Ana")
    page.locator("#name1").fill("Ben")
    choose(page, "turned", "Q")
    choose(page, "turned", "h")
    page.get_by_role("button", name="Start the table").tap()


FORMS: list[tuple[str, Callable, str, str, list[str]]] = [  # type: ignore[type-arg]
    ("/three-thirteen/", sheet, "three_thirteen", "#sheet", ["Ann", "Bao", "Chi", "Dan"]),
    ("/tienlen/new", table, "tienlen", "#tl-followed", ["Ana", "Bao", "Chi"]),
    ("/tienlen/scores/", evening, "tienlen_scores", "#ts-sheet", ["An", "Binh", "Chi", "Dung"]),
    ("/trece/", trece, "trece", "#table", ["Ana", "Ben"]),
]


def kept_starts(page) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    return page.evaluate("() => JSON.parse(localStorage.getItem('thirteen-starts') || '[]')")


def keeper_of(start: dict) -> str:  # type: ignore[type-arg]
    return dict(start["params"])["keeper_token"]


def worker_ready(page) -> None:  # type: ignore[no-untyped-def]
    """The service worker runs and keeps the form page (as after any first visit)."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=15_000)
    page.wait_for_function("() => window.Thirteen && window.Thirteen.starts")  # its script, from the worker's cache
    page.wait_for_function("() => document.documentElement.dataset.kept === '1'", timeout=30_000)  # the page kept


@pytest.mark.parametrize(("path", "fill", "kind", "content", "names"), FORMS, ids=[f[2] for f in FORMS])
def test_a_game_started_offline_is_kept_said_listed_and_started_once_when_the_network_is_back(
        phone, live_server, path, fill, kind, content, names):
    page = phone.open(path)
    worker_ready(page)
    phone.context.set_offline(True)
    fill(page)
    note = page.locator("#offline-start")
    expect(note).to_contain_text("kept on this phone, not sent yet", timeout=2000)
    expect(note).to_contain_text(", ".join(names))
    assert page.url.endswith(path)  # the app's own page, not the browser's error page
    starts = kept_starts(page)
    assert len(starts) == 1
    keeper = keeper_of(starts[0])
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", keeper)
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", dict(starts[0]["params"])["watch_token"])

    page.reload()  # offline: the form from the phone's copy, the start still kept and said
    expect(page.locator("#offline-start")).to_contain_text("not sent yet")
    page.goto(phone.base_url + "/")
    listed = page.locator("#phone-games li")
    expect(listed).to_have_count(1)
    expect(listed.first.locator("[data-unsent]")).to_have_text("not sent yet")
    expect(listed.first).to_contain_text(", ".join(names))
    page.go_back()
    # (The server is not asked here: under load Chromium has let a request of an "offline"
    # context through its service worker now and then, unseen by Playwright.  Whatever reached
    # it, the phone sends the start again with its write id and links: one game, below.)

    phone.context.set_offline(False)  # no tap: sent by itself, and the game opens
    page.wait_for_url(f"**/g/{keeper}", timeout=20_000)
    # (Chromium tells the page the network is back before the service worker: the game's
    # page may first be the "No connection" page, which opens the game once the referee answers.)
    expect(page.locator(content)).to_be_visible(timeout=20_000)
    assert games_at(live_server, keeper) == [(kind, names)]
    assert kept_starts(page) == []
    page.wait_for_timeout(4500)  # a retry timer's round: nothing more is sent
    assert games_at(live_server, keeper) == [(kind, names)]
    page.goto(phone.base_url + "/")
    expect(page.locator("#phone-games li")).to_have_count(1)
    expect(page.locator("#phone-games [data-unsent]")).to_have_count(0)
    phone.forgive_offline("status of 409", "ERR_CONNECTION_RESET")


def test_a_game_can_be_started_offline_from_a_form_this_phone_never_opened(phone, live_server):
    page = phone.open("/trece/rules")  # one page, which links to no other game's form
    page.wait_for_function("() => document.documentElement.dataset.kept === '1'", timeout=30_000)
    phone.context.set_offline(True)
    page.goto(phone.base_url + "/tienlen/scores/")
    expect(page.locator("h1")).not_to_have_text("No connection")
    page.wait_for_function("() => window.Thirteen && window.Thirteen.starts")
    evening(page)
    expect(page.locator("#offline-start")).to_contain_text("kept on this phone, not sent yet")
    keeper = keeper_of(kept_starts(page)[0])
    phone.context.set_offline(False)
    page.wait_for_url(f"**/g/{keeper}", timeout=20_000)
    assert games_at(live_server, keeper) == [("tienlen_scores", ["An", "Binh", "Chi", "Dung"])]
    phone.forgive_offline("status of 409", "ERR_CONNECTION_RESET")


def test_a_link_already_taken_is_replaced_by_another_and_said(phone, live_server):
    taken_page = phone.open("/trece/")
    trece(taken_page)
    expect(taken_page.locator("#table .turn")).to_have_text("Ben to play")
    taken = re.search(r"/g/([\w-]+)", taken_page.url).group(1)  # type: ignore[union-attr]
    page = phone.open("/three-thirteen/")
    worker_ready(page)
    phone.context.set_offline(True)
    sheet(page)
    expect(page.locator("#offline-start")).to_contain_text("not sent yet")
    # As if the phone had picked, by chance, a link another game already has.
    page.evaluate("""(taken) => { const list = JSON.parse(localStorage.getItem('thirteen-starts'));
        list[0].params.forEach(p => { if (p[0] === 'keeper_token') p[1] = taken; });
        list[0].link = list[0].prefix + '/g/' + taken;
        localStorage.setItem('thirteen-starts', JSON.stringify(list)); }""", taken)
    page.route("**/three-thirteen/new", lambda route: route.continue_())  # let the first answer be seen
    phone.context.set_offline(False)
    page.wait_for_url(re.compile(r"/three-thirteen/g/"), timeout=20_000)
    mine = re.search(r"/g/([\w-]+)", page.url).group(1)  # type: ignore[union-attr]
    assert mine != taken
    assert games_at(live_server, mine) == [("three_thirteen", ["Ann", "Bao", "Chi", "Dan"])]
    assert games_at(live_server, taken) == [("trece", ["Ana", "Ben"])]  # the other game untouched
    phone.forgive_offline("status of 409", "ERR_CONNECTION_RESET")


def test_a_start_whose_answer_was_lost_is_sent_again_after_a_reload_and_makes_one_game(browser, live_server,
                                                                                       new_phone):
    from tests.conftest import PHONE

    context = browser.new_context(**PHONE, service_workers="block")  # so the route below sees the form
    phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    page = phone.open("/three-thirteen/")
    page.wait_for_function("() => window.Thirteen && window.Thirteen.starts")  # no worker here: from the network
    sent = []

    def answer_lost(route) -> None:  # type: ignore[no-untyped-def]
        route.fetch(max_redirects=0)  # it reaches the referee, which starts the game...
        sent.append(route.request.post_data or "")
        route.abort("connectionreset")  # ...and the answer never comes back

    page.route("**/three-thirteen/new", answer_lost, times=1)
    sheet(page)
    expect(page.locator("#offline-start")).to_contain_text("not sent yet")
    keeper = keeper_of(kept_starts(page)[0])
    assert games_at(live_server, keeper) == [("three_thirteen", ["Ann", "Bao", "Chi", "Dan"])] and sent
    page.reload()  # the start is still kept: sent again, the referee knows its id
    page.wait_for_url(f"**/g/{keeper}", timeout=20_000)
    expect(page.locator("#sheet")).to_be_visible()
    assert games_at(live_server, keeper) == [("three_thirteen", ["Ann", "Bao", "Chi", "Dan"])]
    with live_server.app.app_context():
        assert db.session.query(Game).filter(Game.keeper_token == keeper).count() == 1
        db.session.remove()
    phone.forgive_offline("status of 409", "ERR_CONNECTION_RESET")
    phone.step("the sheet started once, after the reload", allow=(409,))
    context.close()
    assert phone.errors == []


def test_a_start_dropped_by_another_tabs_write_at_the_same_moment_is_put_back_and_started_once(
        phone, live_server, new_phone):
    other_tab = new_phone(phone.context)  # its screens are checked too (tests/invariants.py)
    other = other_tab.open("/")
    page = phone.open("/trece/")
    worker_ready(page)
    phone.context.set_offline(True)
    trece(page)
    expect(page.locator("#offline-start")).to_contain_text("not sent yet")
    keeper = keeper_of(kept_starts(page)[0])
    other.evaluate("() => localStorage.setItem('thirteen-starts', '[]')")  # a stale write from the other tab
    # Waited for in the other tab: the start tab sees its own list until the other's write reaches it.
    other.wait_for_function("() => JSON.parse(localStorage.getItem('thirteen-starts') || '[]').length === 1")
    assert keeper_of(kept_starts(other)[0]) == keeper
    other_tab.forgive_offline()
    other_tab.step("the other tab's home page")
    other.close()
    assert other_tab.errors == []
    phone.context.set_offline(False)
    page.wait_for_url(f"**/g/{keeper}", timeout=20_000)
    # The game itself, not the "No connection" page that may come first at its address and then
    # opens it (a navigation: a read of the page meanwhile would find no page to read).
    expect(page.locator("#table")).to_be_visible(timeout=20_000)
    assert games_at(live_server, keeper) == [("trece", ["Ana", "Ben"])]
    assert kept_starts(page) == []
    phone.forgive_offline("status of 409", "ERR_CONNECTION_RESET")


def test_a_game_started_offline_opens_from_the_home_page_once_the_network_is_back(phone, live_server):
    page = phone.open("/three-thirteen/")
    worker_ready(page)
    phone.context.set_offline(True)
    sheet(page)
    expect(page.locator("#offline-start")).to_contain_text("its page opens then")
    keeper = keeper_of(kept_starts(page)[0])
    page.locator(".brand").tap()  # to the home page, where it is listed "not sent yet"
    expect(page.locator("#phone-games [data-unsent]")).to_have_text("not sent yet")
    phone.context.set_offline(False)  # no tap: sent by itself, and its page opens, as the note said
    page.wait_for_url(f"**/g/{keeper}", timeout=20_000)
    expect(page.locator("#sheet")).to_be_visible(timeout=20_000)
    assert games_at(live_server, keeper) == [("three_thirteen", ["Ann", "Bao", "Chi", "Dan"])]
    phone.forgive_offline("status of 409", "ERR_CONNECTION_RESET")
