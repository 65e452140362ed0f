"""A Trece game for a stake walked by touch from the home page (issue 34), every screen reached
through the app's own links, forms and buttons and checked with tests/invariants.py after every
tap: the table started with a 40-character name, the stake set, a run played, a card drawn, and
the game won with the rest of the hand, the money said.  At 360×740 and 320×640, the languages
and dark mode spread over the two runs."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

LONG = "Maria da Conceição Albuquerque-Vasconcel"[:40]
RUNS = [pytest.param(360, 740, "en", "dark", id="360x740-en-dark"),
        pytest.param(320, 640, "pt", "light", id="320x640-pt-light")]
# J♦ turned, Ana deals: the second player leads.  Thirteen cards from one hand in two runs, a card
# drawn by Ana between them.
FIRST = "Qh Kh As"
REST = "Ks Qc Jc 10c 9c 8c 7c 6c 5c 4c"


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
    w.tap("a.game-tile[href='/trece/']", "Trece")
    w.type("#name0", "Ana")
    w.type("#name1", LONG)
    w.tap("input[name=dealer][value='0'] + span", "Ana deals")
    w.tap("input[name=turned_rank][value='J'] + span", "a jack turned")
    w.tap("input[name=turned_suit][value='d'] + span", "of diamonds")
    w.tap("form button.primary[type=submit]", "Start the table", result=page.locator("#table"))

    w.tap(".settle-stake-form summary", "Play for money")
    w.type("#settle-stake", "2")
    w.tap("[data-action=set-stake]", "Save the stake")

    play(w, FIRST, f"{LONG} plays {FIRST}")
    w.tap("#table [data-action=draw]", "Ana draws", result=page.locator("#table"))
    play(w, REST, f"{LONG} plays the rest of the hand")
    assert page.locator("#table .turn.won").count() == 1
    assert LONG in page.locator("#table").inner_text()
