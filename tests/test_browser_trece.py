"""Trece by touch on a 360-pixel-wide phone: the check screen and a short table game."""

import re

import pytest
from playwright.sync_api import expect

from tests.invariants import WithoutScripts

pytestmark = pytest.mark.browser

KING_RUN = ["Qh", "Kh", "As", "Ks", "Qc", "Jc", "10c"]


def choose(page, field: str, value: str) -> None:
    page.locator(f"#{field}-field label:has(input[value='{value}'])").tap()


def tap_cards(page, picker: str, codes) -> None:
    if picker == "play":  # the check screen: one grid, the play is its second target
        target = page.locator("#picker-play [data-target]")
        if target.get_attribute("aria-pressed") != "true":
            target.tap()
        picker = "check"
    for code in codes:
        page.locator(f"#picker-{picker} [data-card='{code}']").tap()


def top_card(page, code: str) -> None:
    """The check screen's top card: tapped in the grid (the grid then moves on to the play)."""
    target = page.locator("#picker-top [data-target]")
    if target.get_attribute("aria-pressed") != "true":
        target.tap()
    page.locator(f"#picker-check [data-card='{code}']").tap()


def answered(phone, status: int) -> None:
    """A refusal answers 400 (bad input on the check screen) or 422 (an action the rules refuse)
    on purpose; Chromium logs that as a failed load.  Only those go."""
    expected = [e for e in phone.errors if f"status of {status}" in e]
    assert expected, f"the refusal should have answered {status}"
    phone.errors[:] = [e for e in phone.errors if e not in expected]


def fits(phone) -> None:
    assert phone.no_sideways_scroll()
    assert phone.small_targets() == []


def test_tapping_the_king_exception_run_shows_legal(phone):
    page = phone.open("/trece/check")
    fits(phone)
    expect(page.locator("#verdict [data-verdict=waiting]")).to_be_visible()
    top_card(page, "Jd")
    tap_cards(page, "play", KING_RUN)
    assert page.locator("#picker-play .picker-text").input_value() == "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣"
    verdict = page.locator("#verdict .verdict")
    expect(verdict).to_have_attribute("data-verdict", "legal")
    expect(verdict.locator(".word")).to_have_text(re.compile("^legal$", re.I))
    expect(verdict).to_contain_text("is a run on J♦")
    expect(verdict.locator(".word")).to_have_css("text-transform", "uppercase")
    fits(phone)


def test_the_verdict_follows_each_tap_without_replacing_the_pickers(phone):
    page = phone.open("/trece/check")
    page.evaluate("document.querySelector('#picker-play').dataset.mark = 'kept'")
    top_card(page, "Jd")
    tap_cards(page, "play", ["7c"])
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "illegal")
    expect(page.locator("#verdict")).to_contain_text("7♣ is not one rank from J♦")
    tap_cards(page, "play", ["7c", "Qs"])  # untap 7♣, tap Q♠
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "legal")
    assert page.evaluate("document.querySelector('#picker-play').dataset.mark") == "kept"


def test_a_joker_ending_a_run_shows_the_demand(phone):
    page = phone.open("/trece/check")
    expect(page.locator("#must_follow-field")).to_be_hidden()
    top_card(page, "Qh")
    tap_cards(page, "play", ["Kh", "RJ"])
    assert page.locator("#picker-play .picker-text").input_value() == "K♥ RJ"
    verdict = page.locator("#verdict .verdict")
    expect(verdict).to_have_attribute("data-verdict", "legal")
    expect(verdict.locator(".demand-line")).to_have_text("RJ on K♥: the other player must play a ♥")
    assert verdict.inner_text().count("must play") == 1, "the demand is said once"
    fits(phone)


def test_a_joker_on_top_asks_for_its_demand_in_its_own_colour(phone):
    page = phone.open("/trece/check")
    top_card(page, "RJ")
    demand = page.locator("#must_follow-field")
    expect(demand).to_be_visible()
    expect(demand.locator("label:has(input[value='h'])")).to_be_visible()
    expect(demand.locator("label:has(input[value='s'])")).to_be_hidden()
    expect(page.locator("#verdict")).to_contain_text("demands a suit")
    choose(page, "must_follow", "h")
    tap_cards(page, "play", ["9s"])
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "illegal")
    expect(page.locator("#verdict")).to_contain_text("you must play a ♥, not 9♠")
    tap_cards(page, "play", ["9s", "9h"])
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "legal")
    fits(phone)


def test_at_320_px_the_jokers_demand_is_asked_in_full_view_above_the_verdict(browser, live_server, phone_context, new_phone):
    context = browser.new_context(**{**phone_context, "viewport": {"width": 320, "height": 640}})
    page = new_phone(context).page  # its screens checked (tests/invariants.py)
    page.goto(live_server.url + "/trece/check")
    top_card(page, "BJ")
    for suit in ("s", "c"):  # a black joker: the black suits, each wholly in view, nothing over it
        choice = page.locator(f"#must_follow-field label:has(input[value='{suit}']) span")
        expect(choice).to_be_visible()
        assert choice.evaluate("""e => { const r = e.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return r.top >= 0 && r.bottom <= innerHeight && (hit === e || e.contains(hit)); }"""), suit
    choose(page, "must_follow", "c")
    tap_cards(page, "play", ["9c"])
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "legal")
    assert page.evaluate("scrollY") == 0
    context.close()


def test_a_typing_mistake_is_named_beside_the_field(phone):
    page = phone.open("/trece/check")
    top_card(page, "Jd")
    page.locator("#picker-play-text").fill("Q♥ 1x")
    error = page.locator("#picker-play-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("'1x' at position 2 is not a card")
    answered(phone, 400)
    page.locator("#picker-play-text").fill("Q♥")
    expect(error).to_be_hidden()
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "legal")


def test_the_play_error_comes_and_goes_below_the_grid_without_moving_it(phone):
    """The play's error is drawn in the verdict's dock, said once: showing or hiding it does
    not move a card of the grid under a finger."""
    page = phone.open("/trece/check")
    top_card(page, "Jd")
    card = page.locator("#picker-check [data-card='Qh']")
    before = card.bounding_box()
    error = page.locator("#picker-play-error")
    page.locator("#picker-play-text").fill("Q♥ 1x")
    expect(error).to_be_visible()
    answered(phone, 400)
    assert card.bounding_box() == before
    assert page.locator("#verdict-dock #picker-play-error").count() == 1
    assert "is not a card" not in page.locator("#verdict").inner_text()  # not repeated
    page.locator("#picker-play-text").fill("Q♥")
    expect(error).to_be_hidden()
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "legal")
    assert card.bounding_box() == before


def start_table(phone):
    """Ana and Ben, Q♥ turned; Ben plays first."""
    page = phone.open("/trece/")
    fits(phone)
    page.locator("#name0").fill("Ana")
    page.locator("#name1").fill("Ben")
    choose(page, "turned", "Q")
    choose(page, "turned", "h")
    page.get_by_role("button", name="Start the table").tap()
    expect(page.locator("#table .turn")).to_have_text("Ben to play")
    return page


def test_a_short_table_game_by_tapping(phone, second_phone):
    page = start_table(phone)
    fits(phone)
    watch_url = page.locator("#watch-link").input_value()

    # Ben plays K♥ and the red joker: Ana owes a ♥.
    tap_cards(page, "cards", ["Kh", "RJ"])
    page.locator("[data-action=play]").tap()
    expect(page.locator("[data-top]")).to_have_text("RJ")
    expect(page.locator("[data-demand]")).to_contain_text("Ana must play a ♥ or pick up 13")
    expect(page.locator("[data-player='1'] [data-count]")).to_have_attribute("data-count", "11")

    # A watching phone sees the table and no control that writes.
    watcher = second_phone.open(watch_url.replace(second_phone.base_url, ""))
    expect(watcher.locator("[data-top]")).to_have_text("RJ")
    assert watcher.locator("#table form, [data-action]").count() == 0

    # Ana cannot follow: she picks up 13.
    page.locator("[data-action=draw]").tap()
    expect(page.locator("[data-player='0'] [data-count]")).to_have_attribute("data-count", "26")
    expect(page.locator("[data-stock]")).to_have_text("14")
    expect(watcher.locator("[data-player='0'] [data-count]")).to_have_attribute("data-count", "26", timeout=10_000)

    # An illegal play is refused with its reason; the cards stay chosen.
    tap_cards(page, "cards", ["5s"])
    page.locator("[data-action=play]").tap()
    expect(page.locator("#table .verdict.illegal")).to_contain_text("you must play a ♥, not 5♠")
    assert page.locator("#picker-cards .picker-text").input_value() == "5♠"
    answered(phone, 422)

    # Undo names the draw and takes it back.
    undo = page.locator("[data-action=undo]")
    expect(undo).to_contain_text("Ana could not follow the joker and picked up 13")
    undo.tap()
    expect(page.locator(".notice")).to_contain_text("Undone: Ana could not follow the joker")
    expect(page.locator("[data-player='0'] [data-count]")).to_have_attribute("data-count", "13")
    expect(page.locator("[data-stock]")).to_have_text("27")
    fits(phone)


@pytest.mark.parametrize("path", ["/trece/", "/trece/rules", "/trece/check"])
def test_trece_pages_fit_a_phone_in_light_and_dark(browser, phone_context, new_phone, path):
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme, **phone_context)
        phone = new_phone(context)
        phone.open(path)
        fits(phone)
        context.close()
        assert phone.errors == []


def test_without_javascript_the_check_form_still_gives_a_verdict(browser, live_server, phone_context):
    context = browser.new_context(java_script_enabled=False, **phone_context)
    page = context.new_page()
    screen = WithoutScripts(page)
    page.goto(live_server.url + "/trece/check")
    screen.step("the check screen, no JavaScript")
    choose(page, "top", "J")
    choose(page, "top", "d")
    page.locator("#picker-play-text").fill("Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣")
    page.get_by_role("button", name="Check", exact=True).tap()
    expect(page.locator("#verdict .verdict")).to_have_attribute("data-verdict", "legal")
    screen.step("Check: the verdict's page")
    assert page.locator("#picker-play-text").input_value() == "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣"
    context.close()
