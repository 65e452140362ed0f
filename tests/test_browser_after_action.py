"""After every action at a table (play, pass, draw, call, undo, refusal) the result and whose
turn it is are in view without scrolling, wherever the page was: 360 × 740, by touch."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.flows import start_trece_table

pytestmark = pytest.mark.browser

HEIGHT = 740


def in_view(page, selector: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The element's top and bottom in the viewport; fails unless it is wholly on screen once
    the answer has settled (htmx brings it into view when it settles, after the swap)."""
    for _ in range(20):
        box = page.locator(selector).first.bounding_box()
        assert box is not None, selector
        top, bottom = box["y"], box["y"] + box["height"]
        if 0 <= top and bottom <= HEIGHT:
            break
        page.wait_for_timeout(100)
    assert 0 <= top and bottom <= HEIGHT, f"{selector} at {top:.0f}–{bottom:.0f} px, the screen is 0–{HEIGHT}"
    return top, bottom


def scroll_to_bottom(page) -> None:  # type: ignore[no-untyped-def]
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")


def forget_400s(phone) -> None:  # type: ignore[no-untyped-def]
    phone.errors[:] = [e for e in phone.errors if "status of 4" not in e]


def test_tienlen_table_every_action_shows_its_result_and_the_turn(phone):
    page = phone.open("/tienlen/new")
    for i, name in enumerate(("Ana", "Bao", "Chi")):
        page.locator(f"#name{i}").fill(name)
    page.locator(".tl-3s").nth(1).tap()
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url("**/tienlen/g/**")

    # A refusal: K♦ alone cannot open (the 3♠ must be in the first play); Play tapped at the bottom.
    page.locator("#tl-followed [data-card='Kd']").tap()
    scroll_to_bottom(page)
    page.locator(".tl-go").tap()
    refusal = page.locator("[data-refusal]")
    expect(refusal).to_be_visible()
    top, bottom = in_view(page, "[data-refusal]")
    print(f"Tiến lên refusal in the viewport at {top:.0f}–{bottom:.0f} px of {HEIGHT}")
    in_view(page, "[data-turn]")
    expect(page.locator("[data-turn]")).to_contain_text("Bao to play")
    forget_400s(phone)

    # A play: its line and the next player in view.
    page.locator("#tl-followed [data-card='Kd']").tap()  # take K♦ back
    for card in ("3s", "4h", "5c"):
        page.locator(f"#tl-followed [data-card='{card}']").tap()
    scroll_to_bottom(page)
    page.locator(".tl-go").tap()
    expect(page.locator("[data-last]")).to_contain_text("3♠")
    in_view(page, "[data-last]")
    expect(page.locator("[data-turn]")).to_contain_text("Chi to play")
    in_view(page, "[data-turn]")

    # A pass from the top of the page.
    page.evaluate("window.scrollTo(0, 0)")
    page.locator(".tl-pass").tap()
    expect(page.locator("[data-turn]")).to_contain_text("Ana to play")
    in_view(page, "[data-turn]")
    in_view(page, "[data-last]")

    # An undo from the very bottom.
    scroll_to_bottom(page)
    page.locator(".tl-undo button").tap()
    expect(page.locator("[data-turn]")).to_contain_text("Chi to play")
    in_view(page, "[data-turn]")


def test_trece_table_every_action_shows_its_result_and_the_turn(phone):
    page = phone.open("/trece/")
    start_trece_table(page)

    # A refusal: 5♠ on Q♥, Play tapped at the bottom of the page.
    page.locator("#picker-cards [data-card='5s']").tap()
    scroll_to_bottom(page)
    page.locator("[data-action=play]").tap()
    expect(page.locator("[data-refusal]")).to_contain_text("5♠")
    top, bottom = in_view(page, "[data-refusal]")
    print(f"Trece refusal in the viewport at {top:.0f}–{bottom:.0f} px of {HEIGHT}")
    in_view(page, "[data-turn]")
    forget_400s(phone)

    # A play that ends with the joker: the demand is said beside the turn.
    page.locator("#picker-cards [data-card='5s']").tap()
    page.locator("#picker-cards [data-card='Kh']").tap()
    page.locator("#picker-cards [data-card='RJ']").tap()
    scroll_to_bottom(page)
    page.locator("[data-action=play]").tap()
    expect(page.locator("[data-turn]")).to_contain_text("Ana to play")
    expect(page.locator("[data-turn]")).to_contain_text("must play a ♥ or pick up 13")
    in_view(page, "[data-turn]")
    in_view(page, "[data-last]")

    # A draw from the top of the page.
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("[data-action=draw]").tap()
    expect(page.locator("[data-last]")).to_contain_text("picked up 13")
    in_view(page, "[data-last]")
    in_view(page, "[data-turn]")

    # An undo from the bottom.
    scroll_to_bottom(page)
    page.locator("[data-action=undo]").tap()
    expect(page.locator(".play-dock .notice")).to_contain_text("Undone")
    in_view(page, ".play-dock .notice")
    in_view(page, "[data-turn]")


def trece_with_one_card_left(live_server) -> str:  # type: ignore[no-untyped-def]
    """A Trece table where Ben holds one card and has not yet said "last card"; its keeper path."""
    client = live_server.app.test_client()
    r = client.post("/trece/new", data={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q",
                                        "turned_suit": "♥", "run_after_joker__present": "1"})
    url = r.headers["Location"].replace("http://localhost", "")
    version = 0
    for action, cards in [("play", "K♥ RJ"), ("draw", ""), ("draw", ""), ("draw", ""), ("play", "5♥"), ("play", "6♥"),
                          ("play", "7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♣ 2♣ 3♣")]:
        answer = client.post(url + "/act", data={"version": str(version), "action": action, "cards": cards})
        assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
        version += 1
    return url


def test_trece_a_call_shows_its_result_and_the_turn(phone, live_server):
    """Calling "thirteen!" on a player who forgot "last card", tapped from the bottom of the page."""
    page = phone.open(trece_with_one_card_left(live_server))
    expect(page.locator("[data-action=thirteen]")).to_be_visible()
    scroll_to_bottom(page)
    page.locator("[data-action=thirteen]").tap()
    expect(page.locator("[data-last]")).to_contain_text("thirteen")
    top, bottom = in_view(page, "[data-last]")
    in_view(page, "[data-turn]")
    print(f"Trece call result in the viewport at {top:.0f}–{bottom:.0f} px of {HEIGHT}")


def test_trece_last_card_shows_its_result_and_the_turn(phone, live_server):
    """Saying "last card", tapped from the bottom of the page: the call and the turn are on screen."""
    page = phone.open(trece_with_one_card_left(live_server))
    turn = page.locator("[data-turn]").inner_text()
    expect(page.locator("[data-action=last_card]")).to_be_visible()
    scroll_to_bottom(page)
    page.locator("[data-action=last_card]").tap()
    expect(page.locator("[data-last]")).to_contain_text("said “last card”")
    expect(page.locator("[data-action=last_card]")).to_have_count(0)
    expect(page.locator("[data-action=thirteen]")).to_have_count(0)
    top, bottom = in_view(page, "[data-last]")
    in_view(page, "[data-turn]")
    assert page.locator("[data-turn]").inner_text() == turn  # a call is not a turn
    print(f"Trece last-card result in the viewport at {top:.0f}–{bottom:.0f} px of {HEIGHT}")
