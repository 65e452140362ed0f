"""A Trece game for a stake walked by touch from the home page (issue 34), every screen reached
through the app's own links, forms and buttons and checked with tests/invariants.py after every
tap: the table started with a 40-character name, the stake set, a run played, a card drawn, and
the game won with the rest of the hand, the money said.  At 360×740 and 320×640, the languages
and dark mode spread over the two runs."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LONG = "Maria da Conceição Albuquerque-Vasconcel"[:40]
RUNS = [pytest.param(360, 740, "en", "dark", id="360x740-en-dark"),
        pytest.param(320, 640, "pt", "light", id="320x640-pt-light")]
# J♦ turned, Ana deals: the second player leads.  Thirteen cards from one hand in two runs, a card
# drawn by Ana between them.
FIRST = "Qh Kh As"
REST = "Ks Qc Jc 10c 9c 8c 7c 6c 5c 4c"


def start(w, rank: str, suit: str, turned: str) -> None:  # type: ignore[no-untyped-def]
    """From the home page's Trece tile: Ana and the 40-character name, Ana deals, ``rank`` of
    ``suit`` turned, Start."""
    w.tap("a.game-tile[href='/trece/']", "Trece")
    w.type("#name0", "Ana")
    w.type("#name1", LONG)
    w.tap("input[name=dealer][value='0'] + span", "Ana deals")
    w.tap(f"input[name=turned_rank][value='{rank}'] + span", turned)
    w.tap(f"input[name=turned_suit][value='{suit}'] + span", turned)
    w.tap("form button.primary[type=submit]", "Start the table", result=w.page.locator("#table"))


def play(w, cards: str, what: str) -> None:  # type: ignore[no-untyped-def]
    page = w.page
    for card in cards.split():
        w.touch.tap(page.locator(f"#table .picker-grid [data-card='{card}']"))
    w.tap("#table [data-action=play]", what, result=page.locator("#table"))


@pytest.mark.parametrize(("width", "height", "lang", "scheme"), RUNS)
def test_a_trece_game_for_a_stake_by_touch(journey, width, height, lang, scheme):
    w = journey(width, height, scheme)
    page = w.page
    w.open("/")
    w.tap(f".langs [data-lang='{lang}']", f"the language: {lang}")
    start(w, "J", "d", "a jack of diamonds turned")

    w.tap(".settle-stake-form summary", "Play for money")
    w.type("#settle-stake", "2")
    w.tap("[data-action=set-stake]", "Save the stake")

    play(w, FIRST, f"{LONG} plays {FIRST}")
    w.tap("#table [data-action=draw]", "Ana draws", result=page.locator("#table"))
    play(w, REST, f"{LONG} plays the rest of the hand")
    assert page.locator("#table .turn.won").count() == 1
    assert LONG in page.locator("#table").inner_text()


def test_a_joker_owed_by_a_long_named_player_leaves_play_in_view_on_a_320_px_phone(journey):
    """The table's top (whose turn, the joker's demand) names the player by the short name the
    table tells them apart by: with a 40-character name owing a joker's suit, a page drawn whole
    (here after "Save the stake") still shows Play on a 320 × 640 screen, and says whose turn it is."""
    w = journey(320, 640, "light")
    page = w.page
    w.open("/")
    start(w, "Q", "h", "a queen of hearts turned")
    play(w, "Kh", f"{LONG} plays K♥")
    play(w, "Qc", "Ana plays Q♣")
    play(w, "Kd RJ", f"{LONG} plays K♦ and the red joker")
    w.tap("#table [data-action=draw]", "Ana cannot follow: she picks up 13", result=page.locator("#table"))
    short = LONG.split()[0]
    expect(page.locator("#table .turn")).to_have_text(f"{short} to play")
    expect(page.locator("[data-demand]")).to_contain_text(f"Joker: {short} must play a ♦ or pick up 1.")
    w.tap(".settle-stake-form summary", "Play for money")
    w.type("#settle-stake", "2")
    w.tap("[data-action=set-stake]", "Save the stake")  # the page drawn whole: Play in view (tests/invariants.py)
