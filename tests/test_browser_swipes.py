"""Swipes in the card grid, by real touch input (CDP touch events) on a 360 × 740 phone:
down a suit a run, across a rank a set; taps still choose single cards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.touch import Touch

pytestmark = pytest.mark.browser


def new_sheet(page, names):  # type: ignore[no-untyped-def]
    page.goto(page.url.split("/three-thirteen")[0].split("/trece")[0].rstrip("/") + "/three-thirteen/")
    for i, name in enumerate(names):
        page.locator(f"#name-{i}").fill(name)
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url(re.compile(r"/three-thirteen/g/"))
    return page.url


def play_rounds(page, upto: int, players: int) -> None:  # type: ignore[no-untyped-def]
    """Save rounds 1 … upto straight through HTTP: seat 0 goes out on a run of ♥, the rest type points."""
    sheet = page.url
    for n in range(1, upto + 1):
        html = page.request.get(f"{sheet}/round/{n}").text()
        version = re.search(r'name="version" value="(\d+)"', html).group(1)
        run = " ".join(f"{r}h" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"][: n + 2])
        form = {"version": version, "out": "0", "cards_0": run, **{f"points_{s}": str(s) for s in range(1, players)}}
        assert page.request.post(f"{sheet}/round/{n}", form=form, max_redirects=0).status == 303


def cards(page, seat: int) -> str:  # type: ignore[no-untyped-def]
    return page.locator(f"#picker-{seat}-text").input_value()


def card(page, seat: int, code: str):  # type: ignore[no-untyped-def]
    return page.locator(f"#seat-{seat} [data-card='{code}']")


def test_a_swipe_down_a_suit_is_a_run_and_across_a_rank_a_set_on_the_score_screen(phone):
    page = phone.open("/three-thirteen/score?players=2")  # two players: one deck
    touch = Touch(page)
    grid = page.locator("#picker-hand")
    touch.swipe(grid.locator("[data-card='3h']"), grid.locator("[data-card='7h']"))
    expect(page.locator("#picker-hand-text")).to_have_value("3♥ 4♥ 5♥ 6♥ 7♥")
    touch.swipe(grid.locator("[data-card='9s']"), grid.locator("[data-card='9c']"))  # ♠ ♥ ♣ across the row
    expect(page.locator("#picker-hand-text")).to_have_value("3♥ 4♥ 5♥ 6♥ 7♥ 9♠ 9♥ 9♣")
    # Upwards works too, and a swipe over cards already chosen leaves them chosen (one deck).
    touch.swipe(grid.locator("[data-card='6h']"), grid.locator("[data-card='2h']"))
    expect(page.locator("#picker-hand-text")).to_have_value("2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 9♠ 9♥ 9♣")
    # A tap is still one card, on and off.
    touch.tap(grid.locator("[data-card='Kd']"))
    touch.tap(grid.locator("[data-card='9h']"))
    expect(page.locator("#picker-hand-text")).to_have_value("2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 9♠ 9♣ K♦")
    assert grid.locator("[aria-pressed=true]").count() == 9
    touch.report("score screen")


def test_with_two_decks_one_tap_takes_a_mistaken_card_back_and_a_hold_adds_its_twin(phone):
    page = phone.open("/three-thirteen/score?players=4")  # four players: two decks
    assert page.locator("#picker-hand .picker-field").get_attribute("data-twins") == "2"
    touch = Touch(page)
    grid = page.locator("#picker-hand")
    text = page.locator("#picker-hand-text")
    touch.tap(grid.locator("[data-card='Ks']"))
    touch.tap(grid.locator("[data-card='Ks']"))  # a mistake: one tap takes it back
    expect(text).to_have_value("")
    touch.swipe(grid.locator("[data-card='5s']"), grid.locator("[data-card='7s']"))
    touch.swipe(grid.locator("[data-card='5s']"), grid.locator("[data-card='7s']"))  # a swipe never adds twins
    expect(text).to_have_value("5♠ 6♠ 7♠")
    touch.hold(grid.locator("[data-card='6s']"))  # held: its twin
    expect(text).to_have_value("5♠ 6♠ 6♠ 7♠")
    expect(grid.locator("[data-card='6s'] .n")).to_have_text("×2")
    touch.hold(grid.locator("[data-card='6s']"))  # no third deck
    expect(text).to_have_value("5♠ 6♠ 6♠ 7♠")
    touch.tap(grid.locator("[data-card='6s']"))  # one tap, one copy back
    expect(text).to_have_value("5♠ 6♠ 7♠")
    expect(grid.locator("[data-card='6s'] .n")).to_have_text("")
    touch.report("twins")


def test_a_hold_that_slides_on_is_a_swipe_without_a_twin(phone):
    """A finger that rests long enough for a twin and then slides along the suit chose a run:
    the twin its rest added goes back, the run is the cards it crossed."""
    page = phone.open("/three-thirteen/score?players=4")  # two decks: a hold adds a twin
    touch = Touch(page)
    grid = page.locator("#picker-hand")
    touch.swipe(grid.locator("[data-card='5s']"), grid.locator("[data-card='7s']"), rest=900)
    expect(page.locator("#picker-hand-text")).to_have_value("5♠ 6♠ 7♠")
    expect(grid.locator("[data-card='5s'] .n")).to_have_text("")
    touch.hold(grid.locator("[data-card='9h']"))  # a hold that stays put still adds a card
    expect(page.locator("#picker-hand-text")).to_have_value("5♠ 6♠ 7♠ 9♥")


def test_a_swipe_across_a_rank_takes_exactly_the_cards_it_crosses(phone):
    page = phone.open("/three-thirteen/score?players=2")  # columns ♠ ♥ ♣ ♦
    touch = Touch(page)
    grid = page.locator("#picker-hand")
    touch.swipe(grid.locator("[data-card='6s']"), grid.locator("[data-card='6h']"))
    expect(page.locator("#picker-hand-text")).to_have_value("6♠ 6♥")
    touch.swipe(grid.locator("[data-card='9d']"), grid.locator("[data-card='9c']"))  # right to left
    expect(page.locator("#picker-hand-text")).to_have_value("6♠ 6♥ 9♣ 9♦")
    page = phone.open("/tienlen/check")  # the wide grid: suits are rows ♠ ♣ ♦ ♥, ranks columns
    touch = Touch(page)
    grid = page.locator("#picker-check")
    touch.swipe(grid.locator("[data-card='6s']"), grid.locator("[data-card='6c']"))
    expect(page.locator("#picker-table-text")).to_have_value("6♠ 6♣")


@pytest.mark.parametrize("path", ["/", "followed"])
def test_a_swipe_down_a_suit_is_a_run_and_the_page_does_not_scroll_under_it(phone, live_server, path):
    """The home page's picker and the followed Tiến lên table: ranks are rows, so a run is a
    swipe down; the grid takes it (touch-action: none) and the page stays where it was."""
    if path == "followed":
        client = live_server.app.test_client()
        r = client.post("/tienlen/new", data={"name0": "Ana", "name1": "Bao", "name2": "Chi", "name3": "Dan",
                                              "leader": "0", "hand_size": "13"})
        path = r.headers["Location"].replace("http://localhost", "")
    page = phone.open(path)
    field = page.locator("[data-picker] .picker-text").first
    grid = page.locator("[data-picker] .picker-grid").first
    assert grid.evaluate("g => getComputedStyle(g).touchAction") == "none"
    first = grid.locator("[data-card='3s']")
    first.scroll_into_view_if_needed()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    touch = Touch(page, from_here=True)  # scrolled to the grid: measured from there
    before = page.evaluate("scrollY")
    touch.swipe(first, grid.locator("[data-card='7s']"))
    expect(field).to_have_value("3♠ 4♠ 5♠ 6♠ 7♠")
    assert page.evaluate("scrollY") == before
    assert touch.scrolled == 0
    touch.report(f"run down a suit on {path.split('/')[1] or 'home'}")


def test_a_mostly_meld_thirteen_card_hand_takes_at_most_six_gestures(phone):
    page = phone.open("/three-thirteen/")
    new_sheet(page, ["Ann", "Bao"])
    play_rounds(page, 10, 2)
    page.goto(page.url + "/round/11")  # 13 cards, kings wild
    touch = Touch(page)
    touch.tap(page.locator(".tt-step[data-step='1']"))
    touch.swipe(card(page, 1, "3h"), card(page, 1, "7h"))
    touch.swipe(card(page, 1, "9s"), card(page, 1, "9c"))
    touch.swipe(card(page, 1, "10c"), card(page, 1, "Qc"))
    touch.tap(card(page, 1, "2d"))
    touch.tap(card(page, 1, "Ks"))
    expect(page.locator("#picker-1-text")).to_have_value("2♦ 3♥ 4♥ 5♥ 6♥ 7♥ 9♠ 9♥ 9♣ 10♣ J♣ Q♣ K♠")
    expect(page.locator("#seat-1 [data-live-count]")).to_have_text("13 of 13 cards")
    expect(page.locator("#preview-1 .tt-points")).to_contain_text("2 points")
    touch.report("13-card hand, with the tap on Bao's step")
    hand = touch.gestures - 1  # the hand alone
    print(f"13-card hand alone: {hand} gestures")
    assert hand <= 6


ROUND = {
    # seat: gestures; ("s", a, b) swipe from a to b, ("t", a) tap
    0: [("out",), ("s", "4s", "7s"), ("s", "8h", "8d"), ("s", "Jd", "Kd"), ("s", "Ac", "3c")],
    1: [("s", "3h", "7h"), ("s", "9s", "9c"), ("s", "10c", "Qc"), ("t", "2d"), ("t", "Ks")],
    2: [("s", "As", "3s"), ("s", "10s", "Qs"), ("s", "Ah", "2h"), ("s", "4d", "7d"), ("t", "9d")],
    3: [("s", "10h", "Kh"), ("s", "4c", "7c"), ("t", "Kc"), ("t", "8s"), ("t", "Ad"), ("t", "3d"), ("t", "10d")],
}


def test_a_whole_four_player_thirteen_card_round_takes_at_most_35_gestures(phone):
    page = phone.open("/three-thirteen/")
    new_sheet(page, ["Ann", "Bao", "Chi", "Dan"])
    play_rounds(page, 10, 4)
    page.goto(page.url + "/round/11")
    touch = Touch(page)
    for seat, moves in ROUND.items():
        if seat:  # the hand before, complete, moved on to this one by itself: no Next to tap
            expect(page.locator(f"#seat-{seat}")).to_be_visible()
            assert page.locator(f"#seat-{seat} legend").evaluate("e => e.closest('fieldset').getBoundingClientRect().top") >= 0
        for move in moves:
            if move[0] == "out":
                touch.tap(page.locator(f"#seat-{seat} .tt-outbox"))
            elif move[0] == "s":
                touch.swipe(card(page, seat, move[1]), card(page, seat, move[2]))
            else:
                touch.tap(card(page, seat, move[1]))
        expect(page.locator(f"#seat-{seat} [data-live-count]")).to_have_text("13 of 13 cards")
    touch.tap(page.get_by_role("button", name="Save round 11"))
    page.wait_for_url(re.compile(r"saved=11"))
    totals = [page.locator(f"[data-total='{s}']").inner_text() for s in range(4)]
    assert totals[0] == "0"
    touch.report("4-player 13-card round")
    assert touch.gestures <= 35  # by one tap a card it was 57


def test_at_a_trece_table_a_swipe_along_a_suit_row_lays_the_run_in_the_order_swiped(phone, live_server):
    client = live_server.app.test_client()
    r = client.post("/trece/new", data={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q",
                                        "turned_suit": "♥", "run_after_joker__present": "1"})
    page = phone.open(r.headers["Location"].replace("http://localhost", ""))
    touch = Touch(page)
    grid = page.locator("#picker-cards")
    touch.swipe(grid.locator("[data-card='Kh']"), grid.locator("[data-card='9h']"))  # the wide grid: ♥ is a row
    expect(page.locator("#picker-cards-text")).to_have_value("K♥ Q♥ J♥ 10♥ 9♥")
    touch.report("Trece run by one swipe")
