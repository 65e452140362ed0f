"""Two keeper phones on one table: each follows the other live, and a poll never wipes the
cards a player is in the middle of tapping."""


import pytest
from playwright.sync_api import expect

from tests.test_browser_tienlen_table import start_game
from tests.test_browser_trece import start_table, tap_cards

pytestmark = pytest.mark.browser


def test_trece_keepers_follow_each_other_and_keep_the_cards_being_tapped(phone, second_phone):
    page = start_table(phone)
    keeper_url = page.locator("#keeper-link").input_value()

    other = second_phone.open(keeper_url.replace(second_phone.base_url, ""))
    expect(other.locator("#table .turn")).to_have_text("Ben to play")

    # Ben's phone is half-way through tapping a run when Ana's phone enters a draw for Ben.
    tap_cards(page, "cards", ["Kh", "Ah"])
    other.locator("[data-action=draw]").tap()
    expect(other.locator("#table .turn")).to_have_text("Ana to play")

    # The first phone catches up by itself and the two tapped cards are still chosen.
    expect(page.locator("#table .turn")).to_have_text("Ana to play", timeout=10_000)
    expect(page.locator("#picker-cards .picker-text")).to_have_value("K♥ A♥")
    expect(page.locator("#picker-cards [data-card='Kh']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#picker-cards .chip")).to_have_count(2)


def test_tienlen_keepers_follow_each_other_and_keep_the_cards_being_tapped(phone, second_phone):
    page = start_game(phone, holder=0)
    keeper_url = page.url

    other = second_phone.open(keeper_url.replace(second_phone.base_url, ""))
    for card in ("3s", "4s", "5s"):
        other.locator(f"#tl-followed [data-card='{card}']").tap()
    other.locator(".tl-go").tap()
    expect(other.locator(".tl-status-name")).to_have_text("Bao")

    # Meanwhile the first phone had started tapping Bao's answer.
    # It is refreshed by the poll, and the cards it was tapping are still there.
    expect(page.locator(".tl-status-name")).to_have_text("Bao", timeout=10_000)
    for card in ("6h", "7h"):
        page.locator(f"#tl-followed [data-card='{card}']").tap()
    other.locator(".tl-pass").tap()
    expect(page.locator(".tl-status-name")).to_have_text("Chi", timeout=10_000)
    expect(page.locator("#picker-cards-text")).to_have_value("6♥ 7♥")


def test_cards_being_tapped_survive_a_reload_until_they_are_played(phone):
    page = start_game(phone, holder=0)

    for card in ("3s", "4s", "5s"):
        page.locator(f"#tl-followed [data-card='{card}']").tap()
    page.reload()
    expect(page.locator("#picker-cards-text")).to_have_value("3♠ 4♠ 5♠")
    expect(page.locator("#tl-followed [data-card='4s']")).to_have_attribute("aria-pressed", "true")

    page.locator(".tl-go").tap()
    expect(page.locator(".tl-status-name")).to_have_text("Bao")
    page.reload()
    expect(page.locator("#picker-cards-text")).to_have_value("")
