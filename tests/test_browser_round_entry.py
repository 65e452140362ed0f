"""Three Thirteen round entry on a 360 × 740 phone: one hand at a time, drafts that outlive a
reload and a closed tab, refusals that open only the hands in error, undo that says what it
takes back, corrections that say so."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def new_sheet(phone, names):  # type: ignore[no-untyped-def]
    page = phone.open("/three-thirteen/")
    for i, name in enumerate(names):
        page.locator(f"#name-{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url(re.compile(r"/three-thirteen/g/[^/?]+$"))
    return page, page.url


def step(page, seat: int):  # type: ignore[no-untyped-def]
    return page.locator(f".tt-step[data-step='{seat}']")


def test_one_hand_at_a_time_with_a_live_count_and_no_jump_to_the_next(phone):
    page, sheet = new_sheet(phone, ["Ann", "Binh", "Chi"])
    page.goto(sheet + "/round/1")
    expect(page.locator("#seat-0")).to_be_visible()
    expect(page.locator("#seat-1")).to_be_hidden()
    page.locator("#seat-0 [data-card='Ah']").tap()
    expect(page.locator("#seat-0 [data-live-count]")).to_have_text("1 of 3 cards")
    expect(step(page, 0).locator("[data-step-count]")).to_have_text("1/3")
    nxt = page.locator("#seat-0 [data-next]")
    nxt.scroll_into_view_if_needed()
    before = page.locator("#seat-0 legend").bounding_box()["y"]
    nxt.tap()
    expect(page.locator("#seat-1")).to_be_visible()
    after = page.locator("#seat-1 legend").bounding_box()["y"]
    print(f"next hand: heading at y={before:.0f} before, y={after:.0f} after")
    # Binh's hand starts where Ann's was, or (Ann's top was scrolled away) under the tabs.
    assert abs(after - before) < 1 or 0 <= after < 200
    assert step(page, 1).get_attribute("aria-pressed") == "true"


def test_a_draft_keeps_cards_ticks_and_points_through_a_reload_and_a_closed_tab(phone, new_phone):
    page, sheet = new_sheet(phone, ["Ann", "Bao", "Chi"])
    page.goto(sheet + "/round/1")
    page.locator("#seat-0 .tt-outbox").tap()
    for card in ("Ah", "2h", "3h"):
        page.locator(f"#seat-0 [data-card='{card}']").tap()
    step(page, 1).tap()
    page.locator("#points-1").fill("17")
    step(page, 2).tap()
    page.locator("#seat-2 [data-card='Kd']").tap()
    page.wait_for_timeout(300)  # the draft is written a moment after the last change

    page.reload()
    assert page.locator("#out-0").is_checked()
    assert page.locator("#picker-0-text").input_value() == "A♥ 2♥ 3♥"
    assert page.locator("#points-1").input_value() == "17"
    assert page.locator("#picker-2-text").input_value() == "K♦"
    assert step(page, 2).get_attribute("aria-pressed") == "true"  # back on the hand being entered

    page.close()  # the tab is closed; a new tab opens the round again
    new_tab = new_phone(phone.context)  # its screens are checked too (tests/invariants.py)
    tab = new_tab.page
    tab.goto(sheet + "/round/1")
    assert tab.locator("#out-0").is_checked()
    assert tab.locator("#picker-0-text").input_value() == "A♥ 2♥ 3♥"
    assert tab.locator("#points-1").input_value() == "17"
    assert tab.locator("#picker-2-text").input_value() == "K♦"
    tab.locator(".tt-step[data-step='2']").tap()
    tab.locator("#seat-2 [data-clear]").tap()  # three players, two decks: a second tap adds a twin
    tab.locator("#points-2").fill("4")
    tab.get_by_role("button", name="Save round 1").tap()
    tab.wait_for_url(re.compile(r"saved=1"))
    # The sheet arrives through htmx (app.js sends the form): its drafts are dropped once it is in.
    tab.locator("[data-clear-drafts]").first.wait_for(state="attached")
    tab.wait_for_function("() => !Object.keys(localStorage).some(k => k.startsWith('thirteen-round:'))", timeout=5000)
    keys = tab.evaluate("Object.keys(localStorage).filter(k => k.startsWith('thirteen-round:'))")
    assert keys == []  # saved: the draft is gone
    assert [tab.locator(f"[data-total='{s}']").inner_text() for s in range(3)] == ["0", "17", "4"]
    new_tab.step("round 1 saved from the new tab")
    assert new_tab.errors == []


def test_a_refused_save_opens_only_the_hands_in_error_with_the_first_reason_in_view(phone):
    page, sheet = new_sheet(phone, ["Ann", "Bao", "Chi", "Dan"])
    page.goto(sheet + "/round/1")
    page.locator("#seat-0 .tt-outbox").tap()
    for card in ("Ah", "2h", "3h"):
        page.locator(f"#seat-0 [data-card='{card}']").tap()
    step(page, 1).tap()
    page.locator("#points-1").fill("5")
    # Chi and Dan are left empty: both are in error, Chi first.
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#error-2")).to_be_visible()
    assert page.locator("#seat-2").is_visible()
    for seat in (0, 1, 3):
        assert page.locator(f"#seat-{seat}").is_hidden()
    expect(page.locator("#error-2")).to_be_in_viewport(ratio=1)  # brought in once the swap settled
    box = page.locator("#error-2").bounding_box()
    print(f"first reason of the refused save at y={box['y']:.0f}–{box['y'] + box['height']:.0f} of 740")
    assert 0 <= box["y"] and box["y"] + box["height"] <= 740
    assert "has-error" in (step(page, 3).get_attribute("class") or "")
    assert "has-error" not in (step(page, 1).get_attribute("class") or "")
    assert page.locator("#picker-0-text").input_value() == "A♥ 2♥ 3♥"  # what was typed is kept
    phone.errors[:] = [e for e in phone.errors if "status of 4" not in e]  # the refusal (400 or 422)


def test_undo_says_what_it_takes_back_and_a_correction_says_corrected(phone):
    page, sheet = new_sheet(phone, ["Ann", "Bao"])
    page.goto(sheet + "/round/1")
    page.locator("#seat-0 .tt-outbox").tap()
    for card in ("Ah", "2h", "3h"):
        page.locator(f"#seat-0 [data-card='{card}']").tap()
    step(page, 1).tap()
    page.locator("#points-1").fill("9")
    page.get_by_role("button", name="Save round 1").tap()
    page.wait_for_url(re.compile(r"saved=1"))
    expect(page.locator(".notice.ok").first).to_have_text("Round 1 saved.")
    undo = page.locator("button.tt-undo")
    expect(undo).to_have_text("Undo: round 1 as entered (Ann 0, Bao 9)")

    # A correction says so.
    page.goto(sheet + "/round/1")
    page.locator("details.tt-correct summary").tap()
    page.locator(".tt-step[data-step='1']").tap()
    page.locator("#points-1").fill("12")
    page.get_by_role("button", name="Save the correction").tap()
    page.wait_for_url(re.compile(r"saved=1"))
    expect(page.locator(".notice.ok").first).to_have_text("Round 1 corrected.")
    expect(undo).to_have_text("Undo: the correction of round 1 (Ann 0, Bao 12)")

    undo.tap()
    expect(page.locator("[data-undone]")).to_have_text(
        "Undone: the correction of round 1 (Ann 0, Bao 12). The sheet is as it was before it.")
    assert page.locator("[data-total='1']").inner_text() == "9"
    expect(undo).to_have_text("Undo: round 1 as entered (Ann 0, Bao 9)")


def test_points_typed_are_said_in_the_languages_plural_forms(phone):
    """"1 point typed", never "1 points typed": the live count beside a hand says the typed
    points in its language's form for that number (Intl.PluralRules over the page's forms)."""
    page, sheet = new_sheet(phone, ["Ann", "Bao", "Chi"])
    for code, one, two in (("en", "1 point typed", "2 points typed"), ("es", "1 punto escrito", "2 puntos escritos"),
                           ("vi", "1 điểm gõ tay", "2 điểm gõ tay")):
        page.goto(sheet + "/round/1")
        page.locator(f'nav.langs button[data-lang="{code}"]').tap()
        page.wait_for_url(re.compile(r"/round/1$"))
        step(page, 1).tap()
        page.locator("#points-1").fill("1")
        expect(page.locator("#seat-1 [data-live-count]")).to_have_text(one)
        page.locator("#points-1").fill("2")
        expect(page.locator("#seat-1 [data-live-count]")).to_have_text(two)
        page.locator("#points-1").fill("")
