"""Issue 27 on a 360-pixel phone, by touch: "What it scores" follows the cards tapped, a second
keeper's refusal shows the hand as the sheet holds it, and a game with more than four bombs is
entered by hand ("Another chop") and its after-the-first-out bomb ticked."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.test_browser_tienlen_scores import answered, post_to_table, ready_pickers, total

pytestmark = pytest.mark.browser

NAMES = ("An", "Bao", "Chi")
# An plays 3♠…A♠, Bao and Chi pass, An plays 2♣ and is out; Bao plays 2♥, Chi bombs it and goes out later.
HAND = [("play", 0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"), ("pass", 1, ""), ("pass", 2, ""), ("play", 0, "2c"),
        ("play", 1, "2h"), ("play", 2, "5c 5d 6c 6d 7c 7d"), ("pass", 1, ""), ("play", 2, "8c 9c 10c Jc Qc Kc Ac")]


def play_on_sheet(phone):  # type: ignore[no-untyped-def]
    page = phone.open("/tienlen/scores/")
    for i, name in enumerate(NAMES):
        page.locator(f"#name{i}").fill(name)
    page.locator(".ts-switches summary").tap()  # the house rules are folded under the names
    page.locator("label:has(input[name='play_on'])").tap()
    page.get_by_role("button", name="Start the sheet").tap()
    page.wait_for_url("**/tienlen/scores/g/**")
    return page


def played_table(phone):  # type: ignore[no-untyped-def]
    """The issue's hand played at a table the sheet started; the sheet's hand page, open."""
    page = play_on_sheet(phone)
    sheet_url = page.url
    page.locator(".ts-follow summary").tap()
    page.locator('input[name="leader"][value="0"]').tap()
    page.get_by_role("button", name="Start a table with these players").tap()
    page.wait_for_url("**/tienlen/g/**")
    table_url = page.url
    for what, seat, cards in HAND:
        post_to_table(page, table_url, what, **({"seat": str(seat)} | ({"cards": cards} if cards else {})))
    page.goto(sheet_url)
    page.locator('[data-action="from-table"]').tap()
    page.wait_for_url("**/table/**")
    ready_pickers(page)
    return page


def test_what_it_scores_follows_the_caught_cards_tapped(phone) -> None:  # type: ignore[no-untyped-def]
    page = played_table(phone)
    preview = page.locator(".ts-preview")
    expect(preview.locator("li")).to_have_count(3)
    expect(preview).to_contain_text("Bao had played no card when An went out: Bao pays An 2 × 13 = 26")
    page.locator("#ts-caught-1 >> xpath=ancestor::details/summary").tap()
    page.locator("#ts-caught-1 [data-card='2h']").tap()
    expect(preview).to_contain_text("Bao was caught holding 2♥: Bao pays An 2")
    expect(preview.locator("li")).to_have_count(4)
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    shown = preview.locator("li").all_inner_texts()
    page.locator('[data-action="add-table-game"]').tap()
    page.wait_for_url("**added=1")
    expect(total(page, 0)).to_have_text("+54")
    expect(total(page, 1)).to_have_text("-30")
    expect(total(page, 2)).to_have_text("-24")
    saved = page.locator(".ts-game").first.locator("li").all_inner_texts()
    assert saved == shown  # the preview said what was saved


def test_a_second_keeper_sees_the_hand_as_the_sheet_holds_it(phone, second_phone) -> None:  # type: ignore[no-untyped-def]
    page = played_table(phone)
    other = second_phone.open(page.url.replace(second_phone.base_url, ""))
    ready_pickers(other)
    page.locator("#ts-caught-1 >> xpath=ancestor::details/summary").tap()
    page.locator("#ts-caught-1 [data-card='2h']").tap()
    page.locator('[data-action="add-table-game"]').tap()
    page.wait_for_url("**added=1")
    other.locator("#ts-caught-1 >> xpath=ancestor::details/summary").tap()
    for card in ("2h", "2s"):
        other.locator(f"#ts-caught-1 [data-card='{card}']").tap()
    other.locator('[data-action="add-table-game"]').tap()
    expect(other.get_by_text("This hand is already on the sheet.")).to_be_visible()
    listed = other.locator(".ts-on-sheet li")
    expect(listed.first).to_be_visible()
    lines = listed.all_inner_texts()
    assert "Bao was caught holding 2♥: Bao pays An 2" in lines
    assert not any("2♠" in line for line in lines)  # the sheet's list, not what this phone tapped
    assert other.locator(".ts-preview").count() == 0
    second_phone.errors[:] = [e for e in second_phone.errors if not re.search(r"status of 4(09|22)", e)]
    assert second_phone.no_sideways_scroll()


def by_hand_an_out(phone):  # type: ignore[no-untyped-def]
    """The play_on sheet's by-hand form, An ticked as the one who went out."""
    page = play_on_sheet(phone)
    page.locator('[data-action="by-hand"]').tap()
    page.wait_for_url("**/add")
    page.locator('input[name="out"][value="0"]').tap()
    return page


def test_five_bombs_by_hand_one_after_the_first_out_by_touch(phone) -> None:  # type: ignore[no-untyped-def]
    page = by_hand_an_out(phone)
    page.locator("#left_1").fill("1")
    page.locator("#left_2").fill("13")
    add = page.get_by_role("button", name="Another chop")
    expect(add).to_be_visible()
    add.tap()
    expect(page.locator("#chop_by_4")).to_be_visible()
    # Bao and An bomb each other in one trick (An's bomb first); after An went out Chi bombs Bao's 2♥.
    for row, (by, on) in enumerate([("1", "0"), ("0", "1"), ("1", "0"), ("0", "1")]):
        page.locator(f"#chop_by_{row}").select_option(by)
        page.locator(f"#chop_on_{row}").select_option(on)
    page.locator("#chop_by_4").select_option("2")
    page.locator("#chop_on_4").select_option("1")
    page.locator("#chop_twos_4").fill("2h")
    page.locator("input[name='chop_after_4']").tap()
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []
    page.get_by_role("button", name="Save the game").tap()
    page.wait_for_url("**added=1")
    # Bombs: An pays Bao 2, Bao pays An 4, An pays Bao 6, Bao pays An 8; Chi chopped Bao's 2♥: 2.
    # Cards: Bao 1, Chi frozen 26.
    expect(total(page, 0)).to_have_text("+31")
    expect(total(page, 1)).to_have_text("-7")
    expect(total(page, 2)).to_have_text("-24")
    page.locator(".ts-game").first.get_by_role("link", name="Correct").tap()
    page.wait_for_url("**/game/1")
    expect(page.locator("#chop_by_4")).to_have_value("2")
    expect(page.locator("input[name='chop_after_4']")).to_be_checked()
    expect(page.locator("#chop_by_5")).to_have_value("")  # and a row for one more
    assert phone.no_sideways_scroll()


@pytest.mark.parametrize("sized", [(320, 640)], indirect=True, ids=["320x640"])
def test_the_audits_longer_refusals_fit_a_320_pixel_phone_beside_their_fields(sized) -> None:  # type: ignore[no-untyped-def]
    """The two refusals the audit made truer (a card too many among caught bombs; a 2 chopped
    before the first out typed as caught) are the longest a by-hand game gets: said beside
    their fields, nothing scrolls sideways."""
    phone, width, _ = sized
    page = by_hand_an_out(phone)
    page.locator("#left_1").fill("12")
    page.locator("#left_2").fill("7")
    for seat, cards in ((1, "2h"), (2, "3c 3d 4c 4d 5c 5d 5h")):
        page.locator(f"#ts-caught-{seat}-text >> xpath=ancestor::details/summary").tap()
        page.locator(f"#ts-caught-{seat}-text").fill(cards)
    page.locator("#chop_by_0").select_option("2")  # Chi bombed Bao's 2♥ before An went out
    page.locator("#chop_on_0").select_option("1")
    page.locator("#chop_twos_0").fill("2h")
    for word, sentence, clear in (
            ("one card too many", "5♥ is one card too many: the other caught cards are bombs without it", 2),
            ("went out", "2♥ was chopped before An went out, so it is not among Bao's caught cards", None)):
        page.get_by_role("button", name="Save the game").tap()
        refusal = page.locator(".field-error").filter(has_text=word).first
        expect(refusal).to_contain_text(sentence)
        answered(phone, 422)
        box = refusal.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert phone.no_sideways_scroll()
        if clear is not None:
            page.locator(f"#ts-caught-{clear}-text").fill("")
