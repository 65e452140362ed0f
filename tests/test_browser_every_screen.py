"""Every screen at 320 and 360 px by touch: nothing scrolls sideways (the page or a box in
it), and axe-core finds no serious or critical accessibility violation, light and dark."""

from __future__ import annotations

import re

import pytest

from tests.axe import axe_violations
from tests.conftest import PHONE, Phone

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def screens(live_server):  # type: ignore[no-untyped-def]
    """One of each screen, games made through the app itself."""
    client = live_server.app.test_client()
    paths = ["/", "/tienlen/", "/tienlen/check", "/tienlen/rules", "/tienlen/new",
             "/three-thirteen/", "/three-thirteen/score", "/three-thirteen/rules",
             "/trece/", "/trece/check", "/trece/rules", "/no-such-page"]
    r = client.post("/tienlen/new", data={"name0": "Ana", "name1": "Bao", "name2": "Chi", "name3": "Dan",
                                          "leader": "1", "hand_size": "13"})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    paths.append(r.headers["Location"])
    r = client.post("/trece/new", data={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q",
                                        "turned_suit": "♥", "run_after_joker__present": "1"})
    assert r.status_code == 303
    paths.append(r.headers["Location"])
    r = client.post("/tienlen/scores/new", data={"name0": "Ana", "name1": "Bao", "name2": "Chi", "name3": "Dan"})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    scores = r.headers["Location"]
    paths += ["/tienlen/scores/", scores, scores + "/add"]
    names = ["Annabelle", "Anna", "Chidi", "Dariusz", "Esperanza", "Fumiko", "Gwendolyn", "Hiroshi"]
    r = client.post("/three-thirteen/new", data={"names": names, "dealer": "0"})
    sheet = r.headers["Location"]
    form = {"version": "0", "out": "0", "cards_0": "4h 5h 6h", **{f"points_{s}": str(100 + s) for s in range(1, 8)}}
    assert client.post(sheet + "/round/1", data=form).status_code == 303
    paths += [sheet, sheet + "/round/1", sheet + "/round/2"]
    return [p.replace("http://localhost", "") for p in paths]


def sideways(page) -> list[str]:  # type: ignore[no-untyped-def]
    """The page, or any box in it, wider than it shows (something to scroll sideways)."""
    return page.evaluate(
        """() => { const out = [];
             if (document.documentElement.scrollWidth > innerWidth) out.push('page ' + document.documentElement.scrollWidth);
             for (const e of document.querySelectorAll('body *')) {
               const s = getComputedStyle(e);
               if (e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll'].includes(s.overflowX))
                 out.push((e.id || e.className || e.tagName) + ' ' + e.scrollWidth + '>' + e.clientWidth);
             }
             return out; }"""
    )


@pytest.mark.parametrize("width", [320, 360])
def test_no_screen_scrolls_sideways_at_320_and_360_px(browser, live_server, screens, width):
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 740}})
    phone = Phone(context, live_server.url)
    bad = {}
    for path in screens:
        phone.open(path)
        phone.settled()
        if found := sideways(phone.page):
            bad[path] = found
    context.close()
    assert bad == {}
    assert [e for e in phone.errors if "404" not in e] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_or_critical_violation_on_any_screen(browser, live_server, screens, scheme):
    context = browser.new_context(color_scheme=scheme, bypass_csp=True, **PHONE)  # lets the test inject axe
    phone = Phone(context, live_server.url)
    found = {}
    for path in screens:
        phone.open(path)
        phone.settled()
        if violations := axe_violations(phone.page):
            found[path] = violations
    # The pickers in use: the check screens with cards chosen and a verdict showing.
    page = phone.open("/tienlen/check")
    page.locator("#picker-check [data-card='2h']").tap()
    page.locator("#picker-check [data-card='3s']").tap()
    page.locator("#verdict [data-state]").first.wait_for()
    if violations := axe_violations(page):
        found["/tienlen/check (in use)"] = violations
    context.close()
    assert found == {}


def test_the_eight_player_sheet_shows_every_column_at_320_px(browser, live_server, screens):
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 740}})
    page = context.new_page()
    sheet = next(p for p in screens if re.search(r"/three-thirteen/g/[^/]+$", p))
    page.goto(live_server.url + sheet)
    cells = page.locator(".tt-table tfoot td")
    assert cells.count() == 8
    for i in range(8):
        box = cells.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 320, (i, box)
        text = cells.nth(i).inner_text()
        assert text == ("0" if i == 0 else str(100 + i))
        # the number is not cut off: its cell is as wide as its text needs
        assert cells.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth + 1"), i
    heads = page.locator(".tt-table thead th abbr")
    assert [heads.nth(i).inner_text() for i in range(2)] == ["Annab", "Anna"]  # shortest unique beginnings
    assert heads.first.get_attribute("title") == "Annabelle"
    context.close()


@pytest.mark.parametrize("path", ["/tienlen/check", "/trece/check", "/three-thirteen/score"])
def test_the_pickers_speak_to_a_screen_reader(phone, path):
    """Every card is a button with a name and a pressed state; the targets say which field the
    grid fills; the verdict is a live region, so a screen reader hears it without moving."""
    page = phone.open(path)
    cards = page.locator(".picker-grid [data-card]")
    assert cards.count() >= 52
    names = cards.evaluate_all("bs => bs.map(b => [b.tagName, b.getAttribute('aria-label'), b.getAttribute('aria-pressed')])")
    assert all(tag == "BUTTON" and label and pressed in ("true", "false") for tag, label, pressed in names)
    assert ["10 hearts", "false"] in [[label, pressed] for _, label, pressed in names]
    live = page.locator("#verdict, #score-result")
    assert live.first.get_attribute("aria-live") == "polite"
    if path != "/three-thirteen/score":
        targets = page.locator("[data-target]")
        assert targets.count() == 2
        assert targets.evaluate_all("ts => ts.map(t => t.getAttribute('aria-pressed'))") == ["true", "false"]
        page.locator(".picker-grid [data-card='Qh']").tap()
        # the card moved on to the next field or stayed: either way the grid says where it is
        label = page.locator(".picker-grid [data-card='Qh']").get_attribute("aria-label")
        pressed = page.locator(".picker-grid [data-card='Qh']").get_attribute("aria-pressed")
        assert pressed == "true" or "(" in label, label
