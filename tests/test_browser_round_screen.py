"""Three Thirteen round entry on one screen, by touch at 360 × 740 and 320 × 640: the hand being
entered, its count, "went out", Next (Save on the last hand) and the whole split in view
together; a round of the issue's mix (one hand out, two mostly melds, one with no meld at all)
takes at most 30 gestures with 13 cards and 15 with 5, nothing scrolled. Where nobody decides
anything there is no gesture: a complete hand moves on to the next by itself, the complete hand
that scores nothing is ticked "went out", and a run across the grid's split is one swipe. The
gestures and the scrolling are printed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.touch import Touch

pytestmark = pytest.mark.browser

SIZES = [(360, 740), (320, 640)]
NAMES = ["Nguyễn Văn An", "Nguyễn Thị Bình", "Trần Văn Chi", "Phạm Minh Dũng"]

# seat: gestures; ("s", a, b) swipe from a to b, ("t", a) tap.  Round 11 (kings wild): An went
# out (2♦…J♦ across the split after the 7, and J♠ Q♠ K♠), Bình and Chi hold mostly melds,
# Dũng holds no meld at all (13 lone cards, 13 taps).
ROUND_13 = {
    0: [("s", "2d", "Jd"), ("s", "Js", "Ks")],
    1: [("s", "Kh", "Kd"), ("s", "4c", "5c"), ("s", "7c", "8c"), ("s", "10c", "Jc"), ("s", "Ac", "2c"), ("t", "Qh"), ("t", "Qd")],
    2: [("s", "3h", "7h"), ("s", "2s", "3s"), ("s", "5s", "6s"), ("s", "8s", "9s"), ("t", "Ah"), ("t", "10h")],
    3: [("t", c) for c in ["As", "4s", "7s", "10s", "2h", "8h", "9h", "Jh", "3c", "6c", "9c", "Qc", "Ad"]],
}
# Round 3 (fives wild), the same mix.
ROUND_5 = {
    0: [("s", "3s", "7s")],
    1: [("s", "Ah", "3h"), ("t", "9c"), ("t", "Kd")],
    2: [("s", "8c", "10c"), ("s", "Jd", "Qd")],
    3: [("t", c) for c in ["2d", "7h", "9s", "Jc", "Kh"]],
}


def sheet_at_round(phone, live_server, upto: int) -> str:  # type: ignore[no-untyped-def]
    """A 4-player sheet with rounds 1 … upto - 1 saved (straight through HTTP)."""
    client = live_server.app.test_client()
    r = client.post("/three-thirteen/new", data={"names": NAMES, "dealer": "0"})
    sheet = r.headers["Location"].replace("http://localhost", "")
    for n in range(1, upto):
        html = client.get(f"{sheet}/round/{n}").get_data(as_text=True)
        version = re.search(r'name="version" value="(\d+)"', html).group(1)
        run = " ".join(f"{r}h" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"][: n + 2])
        form = {"version": version, "out": "0", "cards_0": run, **{f"points_{s}": str(s) for s in range(1, 4)}}
        assert client.post(f"{sheet}/round/{n}", data=form).status_code == 303
    return sheet


def in_view(page, selector: str) -> bool:  # type: ignore[no-untyped-def]
    return page.locator(selector).evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }")


def enter_round(page, moves, dealt: int, width: int, height: int, strict: bool) -> Touch:  # type: ignore[no-untyped-def]
    touch = Touch(page)
    last = max(moves)
    for seat, gestures in moves.items():
        # The hand before, once complete, moved on to this one by itself: no Next to tap.
        expect(page.locator(f"#seat-{seat}")).to_be_visible()
        go = f"#seat-{seat} .tt-save" if seat == last else f"#seat-{seat} [data-next]"
        parts = {"tab": f".tt-step[data-step='{seat}']", "went out": f"#seat-{seat} .tt-outbox",
                 "next or save": go, "split": f"#preview-{seat}"}
        seen = {what: in_view(page, sel) for what, sel in parts.items()}
        print(f"{width}×{height} hand {seat + 1}: in view {seen}, scrollY {page.evaluate('scrollY'):.0f}")
        if strict:
            assert all(seen.values()), seen
        # The save bar is never over the hand's own controls: what a finger meets is the control.
        for sel in (go, f"#seat-{seat} .tt-outbox", f"#seat-{seat} [data-card='Kd']"):
            assert touch._reachable(page.locator(sel)) or not in_view(page, sel), sel
        for move in gestures:
            if move[0] == "s":
                touch.swipe(page.locator(f"#seat-{seat} [data-card='{move[1]}']"), page.locator(f"#seat-{seat} [data-card='{move[2]}']"))
            else:
                touch.tap(page.locator(f"#seat-{seat} [data-card='{move[1]}']"))
        expect(page.locator(f"#seat-{seat} [data-live-count]")).to_have_text(f"{dealt} of {dealt} cards")
        expect(page.locator(f".tt-step[data-step='{seat}'] [data-step-count]")).to_contain_text(f"{dealt}/{dealt}")
        expect(page.locator(f"#preview-{seat} .tt-points")).to_be_attached()
        if seat == 0:  # all in melds, nobody ticked yet: the one who went out
            expect(page.locator("#out-0")).to_be_checked()
    page.wait_for_load_state("networkidle")
    assert in_view(page, f"#preview-{last}") and in_view(page, f"#seat-{last} .tt-save")
    touch.tap(page.get_by_role("button", name=re.compile(r"^Save round")))
    page.wait_for_url(re.compile(r"saved="))
    return touch


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=["360x740", "320x640"])
def test_a_four_player_thirteen_card_round_of_mixed_hands_takes_at_most_30_gestures_and_no_scrolling(sized, live_server):
    phone, width, height = sized
    sheet = sheet_at_round(phone, live_server, 11)
    page = phone.open(sheet + "/round/11")
    touch = enter_round(page, ROUND_13, 13, width, height, strict=True)
    assert page.locator("[data-total='0']").inner_text() == "0"
    expect(page.locator("tr[data-round='11'] td[data-seat='0'] .tt-out")).to_have_count(1)  # went out, from the split
    touch.report(f"4-player 13-card round, one out, two mostly melds, one without a meld, at {width}×{height} "
                 "(goal: 30 gestures, 0 px)")
    assert touch.gestures <= 30
    assert touch.scrolled == 0


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=["360x740", "320x640"])
def test_a_four_player_five_card_round_of_mixed_hands_takes_at_most_15_gestures_and_no_scrolling(sized, live_server):
    phone, width, height = sized
    sheet = sheet_at_round(phone, live_server, 3)
    page = phone.open(sheet + "/round/3")
    touch = enter_round(page, ROUND_5, 5, width, height, strict=True)
    touch.report(f"4-player 5-card round, one out, two mostly melds, one without a meld, at {width}×{height} "
                 "(goal: 15 gestures, 0 px)")
    assert touch.gestures <= 15
    assert touch.scrolled == 0


@pytest.mark.parametrize("sized", [(320, 640)], indirect=True, ids=["320x640"])
def test_eight_players_sharing_family_names_are_told_apart_on_the_tabs_and_the_sheet(sized, live_server):
    phone, width, height = sized
    names = ["Nguyễn Văn An", "Nguyễn Thị Bình", "Trần Văn Chi", "Phạm Minh Dũng",
             "Nguyễn Hữu Em", "Lê Thị Giang", "Trần Thị Hà", "Phạm Văn Khoa"]
    client = live_server.app.test_client()
    r = client.post("/three-thirteen/new", data={"names": names, "dealer": "0"})
    sheet = r.headers["Location"].replace("http://localhost", "")
    page = phone.open(sheet + "/round/1")
    tabs = [t.strip() for t in page.locator(".tt-step-name").all_inner_texts()]
    assert tabs == ["An", "Bình", "Chi", "Dũng", "Em", "Giang", "Hà", "Khoa"]
    # Each tab shows its whole short name (nothing cut) and the page is no wider than the phone.
    assert page.evaluate("[...document.querySelectorAll('.tt-step-name')].every(e => e.scrollWidth <= e.clientWidth)")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert "Next: Bình" in page.locator("#seat-0 [data-next]").inner_text()
    page = phone.open(sheet)
    heads = [h.strip() for h in page.locator(".tt-table thead abbr").all_inner_texts()]
    assert heads == ["An", "Bình", "Chi", "Dũng", "Em", "Gian", "Hà", "Khoa"]
