"""A Three Thirteen sheet of eleven rounds walked by touch from the home page (issue 34), every
screen reached through the app's own links, forms and buttons and checked with tests/invariants.py
after every tap: three players, one of 40 characters; each round the player who went out ticked
with their hand typed and the others' points, Next, Save; a round corrected and the correction
undone; a second phone following the sheet from its watch link (as the QR code gives it).  At
360×740 and 320×640, the languages and dark mode spread over the two runs."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LONG = "Konstantinos Papadopoulos-Alexandropoulo"[:40]
NAMES = ["Ana", LONG, "Chi"]
RUNS = [pytest.param(360, 740, "pt", "dark", id="360x740-pt-dark"),
        pytest.param(320, 640, "en", "light", id="320x640-en-light")]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def out_hand(number: int) -> str:
    """A hand that goes out in round ``number``: a run of hearts from the ace, as long as the deal."""
    return " ".join(f"{rank}h" for rank in RANKS[: number + 2])


def enter_round(w, number: int) -> None:  # type: ignore[no-untyped-def]
    """Round ``number``: the seat after the dealer goes out, the others' points typed."""
    page = w.page
    out = number % 3
    w.tap(".tt-enter", f"Enter round {number}", result=page.locator("[data-round-form]"))
    for seat in range(3):
        if page.locator(".tt-steps").is_visible():
            w.tap(f".tt-step[data-step='{seat}']", f"round {number}: the hand of seat {seat + 1}")
        if seat == out:
            w.tap(f"#seat-{seat} .tt-outbox", f"round {number}: seat {seat + 1} went out")
            w.type(f"#picker-{seat}-text", out_hand(number))
        else:
            w.type(f"#points-{seat}", str(5 + seat + number))
    w.tap(".tt-save", f"Save round {number}", result=page.locator("#sheet"))


@pytest.mark.parametrize(("width", "height", "lang", "scheme"), RUNS)
def test_a_three_thirteen_sheet_of_eleven_rounds_by_touch(journey, width, height, lang, scheme):
    w = journey(width, height, scheme)
    page = w.page
    w.open("/")
    w.tap(f".langs [data-lang='{lang}']", f"the language: {lang}")
    w.tap("a.game-tile[href='/three-thirteen/']", "Three Thirteen")
    for i, name in enumerate(NAMES):
        w.type(f"#name-{i}", name)
    w.tap("form button.primary[type=submit]", "Start the sheet", result=page.locator("#sheet"))
    for number in range(1, 12):
        enter_round(w, number)
    assert page.locator(".tt-enter").count() == 0  # the sheet is full

    # A second phone follows the sheet from its watch link, as the QR code holds it.
    w.tap(".share-box summary", "Share this game")
    watch = page.locator("#watch-link").input_value()
    watcher = journey(width, height, scheme)
    watcher.open(watch.replace(w.phone.base_url, "") if watch.startswith(w.phone.base_url)
                 else re.sub(r"^https?://[^/]+", "", watch), "open the watch link")

    # Round 2 corrected, then the correction undone; the watcher sees both.
    w.tap("a[href$='/round/2']", "Round 2 on the sheet")
    w.tap(".tt-correct summary", "Correct this round")
    if page.locator(".tt-steps").is_visible():
        w.tap(".tt-step[data-step='0']", "round 2: the hand of seat 1")
    w.type("#points-0", "30")
    w.tap(".tt-save", "Save the correction", result=page.locator("#sheet"))
    expect(watcher.page.locator(".tt-fix").first).to_be_visible(timeout=20_000)
    watcher.phone.step("the watcher sees the correction")
    w.tap(".tt-undo", "Undo the correction", result=page.locator("#sheet .notice").first)
    expect(watcher.page.locator(".tt-fix")).to_have_count(0, timeout=20_000)
    watcher.phone.step("the watcher sees the undo")


@pytest.mark.parametrize(("width", "height"), [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_a_hand_scored_from_the_home_page_shows_its_split_where_the_cards_are_tapped(journey, width, height):
    """"Score a hand" by touch: each card tapped, its split lands in view (found by the walker:
    the result sat under the whole grid, 1,084 px down a 740 px screen)."""
    w = journey(width, height)
    page = w.page
    w.open("/")
    w.tap("a.game-tile[href='/three-thirteen/']", "Three Thirteen")
    w.tap("a[href='/three-thirteen/score']", "Score a hand")
    for card in ("Ah", "2h", "3h", "Kc"):
        w.tap(f".picker-grid [data-card='{card}']", f"tap {card}", result=page.locator("#score-result"))
    expect(page.locator("#score-result")).to_contain_text("this hand has 4")


@pytest.mark.parametrize(("width", "height", "lang", "scheme"),
                         [pytest.param(360, 740, "vi", "light", id="360x740-vi"),
                          pytest.param(320, 640, "es", "dark", id="320x640-es-dark")])
def test_a_card_tapped_after_a_refused_save_shows_the_hands_split_in_view(journey, width, height, lang, scheme):
    """The walker's seed 3 (step 28): a round refused (a hand ticked out, with both its cards and
    points typed) says why above the grid, and the hand's dock (its split, Next) was pushed under
    the screen: each card tapped then redrew the split out of view (y 822 on a 740 px screen)."""
    w = journey(width, height, scheme)
    page = w.page
    w.open("/")
    w.tap(f".langs [data-lang='{lang}']", f"the language: {lang}")
    w.tap("a.game-tile[href='/three-thirteen/']", "Three Thirteen")
    for i, name in enumerate(["Émilie", "Bao", "Chi", "Zé"]):
        w.type(f"#name-{i}", name)
    w.tap("form button.primary[type=submit]", "Start the sheet", result=page.locator("#sheet"))
    w.tap(".tt-enter", "Enter round 1", result=page.locator("[data-round-form]"))
    w.tap("#seat-0 .tt-outbox", "Émilie went out")
    w.type("#points-0", "22")
    w.tap("#seat-0 .picker-grid [data-card='10d']", "tap 10♦", result=page.locator("#preview-0"))
    w.tap(".tt-save", "Save round 1: refused", allow=(422,), result=page.locator("#round-errors"))
    expect(page.locator("#error-0")).to_be_visible()
    # (two cards of three: a whole hand moves on to the next by itself)
    w.tap("#seat-0 .picker-grid [data-card='9d']", "tap 9♦", result=page.locator("#preview-0"))
    expect(page.locator("#preview-0 .tt-count[data-count='2']")).to_be_visible()
