"""Every screen at 320 and 360 px by touch: nothing scrolls sideways (the page or a box in
it), and axe-core finds no serious or critical accessibility violation, light and dark."""

from __future__ import annotations

import re

import pytest

from tests.axe import axe_violations
from tests.conftest import PHONE

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
    # A 3-13 sheet with a false out (its key explains ✗).
    r = client.post("/three-thirteen/new", data={"names": ["Ann", "Bao"], "dealer": "0", "false_out__present": "1",
                                                 "false_out": "on"})
    false_sheet = r.headers["Location"]
    form = {"version": "0", "out": "0", "cards_0": "4h 5h 9c", "points_1": "12"}
    assert client.post(false_sheet + "/round/1", data=form).status_code == 303
    paths.append(false_sheet)
    # A finished followed hand ("Score this hand") and its scoring page on a sheet made for it.
    r = client.post("/tienlen/new", data={"name0": "Ana", "name1": "Bao", "leader": "0", "hand_size": "13"})
    table = r.headers["Location"].replace("http://localhost", "")
    for what, form in (("play", {"seat": "0", "cards": "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"}),
                       ("pass", {"seat": "1"}), ("play", {"seat": "0", "cards": "2h"})):
        html = client.get(table).get_data(as_text=True)
        form["version"] = re.search(r'name="version" value="(\d+)"', html).group(1)
        assert client.post(f"{table}/{what}", data=form).status_code == 303
    token = table.rsplit("/", 1)[1]
    r = client.post(f"/tienlen/scores/score/{token}/0")
    assert r.status_code == 303
    paths += [table, r.headers["Location"]]
    return [p.replace("http://localhost", "") for p in paths]


def opened(phone, path: str):  # type: ignore[no-untyped-def]
    """``path`` opened and settled, its screen checked (tests/invariants.py): the page that says
    there is no such page is answered 404, as it should be."""
    page = phone.open(path)
    phone.settled()
    phone.step(f"opened {path}", allow=(404,) if path == "/no-such-page" else ())
    return page


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
def test_no_screen_scrolls_sideways_at_320_and_360_px(browser, new_phone, screens, width):
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 740}})
    phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    bad = {}
    for path in screens:
        opened(phone, path)
        if found := sideways(phone.page):
            bad[path] = found
    context.close()
    assert bad == {}
    assert [e for e in phone.errors if "404" not in e] == []


@pytest.mark.parametrize("width", [320, 360])
def test_card_buttons_are_44_px_tall_and_at_least_40_wide_at_320_and_360_px(browser, new_phone, screens, width):
    """Every card button on every screen is at least 44 px tall; the seven-column grid cannot
    make them 44 px wide at 320 px, so there they must keep at least 40 × 44 px."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 740}})
    phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    smallest: dict[str, tuple[float, float]] = {}
    for path in screens:
        opened(phone, path)
        sizes = phone.page.evaluate(
            """() => [...document.querySelectorAll('.picker-grid [data-card]')]
                 .map(e => e.getBoundingClientRect()).filter(r => r.width > 0)
                 .map(r => [r.width, r.height])""")
        if sizes:
            smallest[path] = (min(w for w, _ in sizes), min(h for _, h in sizes))
    context.close()
    assert smallest, "no screen showed a card grid"
    width_px, height_px = min(w for w, _ in smallest.values()), min(h for _, h in smallest.values())
    print(f"at {width} px the smallest card button is {width_px:.1f} x {height_px:.1f} px")
    least = 40 if width == 320 else 44
    assert {p: size for p, size in smallest.items() if size[0] < least or size[1] < 44} == {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_or_critical_violation_on_any_screen(browser, new_phone, screens, scheme):
    context = browser.new_context(color_scheme=scheme, bypass_csp=True, **PHONE)  # lets the test inject axe
    phone = new_phone(context)  # every screen it reaches is checked (tests/invariants.py)
    found = {}
    for path in screens:
        opened(phone, path)
        if violations := axe_violations(phone.page):
            found[path] = violations
    # The pickers in use: the check screens with cards chosen and a verdict showing.
    page = phone.open("/tienlen/check")
    page.locator("#picker-check [data-card='2h']").tap()
    page.locator("#picker-check [data-card='3s']").tap()
    page.locator("#verdict [data-state]").first.wait_for()
    phone.step("the Tiến lên check in use")
    if violations := axe_violations(page):
        found["/tienlen/check (in use)"] = violations
    # Trece's joker on top: its demand asked in the verdict dock.
    page = phone.open("/trece/check")
    page.locator("#picker-top [data-target]").tap()
    page.locator("#picker-check [data-card='RJ']").tap()
    page.locator("#must_follow-field").wait_for()
    phone.step("the Trece check, a joker on top")
    if violations := axe_violations(page):
        found["/trece/check (joker on top)"] = violations
    # A caught-cards picker open on the scoring page of a finished hand.
    scoring = next(p for p in screens if "/table/" in p)
    page = phone.open(scoring)
    page.locator(".ts-caught summary").first.tap()
    phone.step("a caught-cards picker open")
    if violations := axe_violations(page):
        found[scoring + " (caught open)"] = violations
    context.close()
    assert found == {}


def test_the_eight_player_sheet_shows_every_column_at_320_px(browser, live_server, new_phone, screens):
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 740}})
    phone = new_phone(context)  # its screens checked (tests/invariants.py)
    page = phone.page
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
    phone.step("the eight-player sheet at 320 px")
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
