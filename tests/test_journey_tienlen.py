"""A Tiến lên evening walked by touch from the home page (issue 34), every screen reached through
the app's own links, forms and buttons and checked with tests/invariants.py after every tap:

the sheet started from the home page, a table followed from the sheet and a whole hand played on
it, the hand scored onto the sheet, a game by hand, a correction, money and the end of the
evening; a group made from the sheet, its next evening started from the group, its stats, its
file downloaded and imported on a second server.  At 360×740 and 320×640, with a 40-character
name, the languages and dark mode spread over the two runs."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LONG = "Nguyễn Thị Phương Thảo Hoàng-Trần Minh Lo"[:40]
NAMES = ["An", "Binh", "Chi", LONG]
# Binh leads 3♠; Binh's 2♥ is chopped by the fourth, whose bomb An bombs; An goes out; Chi never plays.
HAND = [("play", 1, "3s"), ("pass", 2, ""), ("pass", 3, ""), ("pass", 0, ""), ("play", 1, "2h"), ("pass", 2, ""),
        ("play", 3, "4s 4c 5s 5c 6s 6c"), ("play", 0, "7s 7c 8s 8c 9s 9c"), ("pass", 1, ""), ("pass", 3, ""),
        ("play", 0, "3c 4d 5d 6d 7d"), ("pass", 1, ""), ("pass", 2, ""), ("pass", 3, ""), ("play", 0, "10s"),
        ("pass", 1, ""), ("pass", 2, ""), ("pass", 3, ""), ("play", 0, "Js")]
RUNS = [pytest.param(360, 740, "vi", "light", id="360x740-vi-light"),
        pytest.param(320, 640, "es", "dark", id="320x640-es-dark")]


def play_the_hand(w) -> None:  # type: ignore[no-untyped-def]
    page = w.page
    for n, (what, seat, cards) in enumerate(HAND, 1):
        if what == "play":
            for card in cards.split():
                w.touch.tap(page.locator(f"#tl-followed [data-card='{card}']"))
            w.tap(".tl-go", f"move {n}: seat {seat + 1} plays {cards}", result=page.locator(".tl-status"))
        else:
            w.tap(".tl-pass", f"move {n}: seat {seat + 1} passes", result=page.locator(".tl-status"))


def a_hand_played_on_a_table_followed_from_its_sheet(w, lang: str) -> None:  # type: ignore[no-untyped-def]
    """From the home page in ``lang``: the evening's sheet, a table followed from it, a whole
    hand played on that table."""
    page = w.page
    w.tap(f".langs [data-lang='{lang}']", f"the language: {lang}")
    assert page.locator("html").get_attribute("lang").startswith(lang)
    w.tap("a.game-tile[href='/tienlen/']", "Tiến lên")
    w.tap("a[href='/tienlen/scores/']", "Score an evening")
    for i, name in enumerate(NAMES):
        w.type(f"#name{i}", name)
    w.tap(".ts-start button[type=submit]", "Start the sheet", result=page.locator("#ts-sheet"))
    w.tap(".ts-follow summary", "Follow a table")
    w.tap(".ts-follow input[name=leader][value='1']", "the second player holds the lowest card")
    w.tap("[data-action=start-table]", "Start a table with these players", result=page.locator(".tl-go"))
    play_the_hand(w)


@pytest.mark.parametrize(("width", "height", "lang", "scheme"), RUNS)
def test_a_tienlen_evening_by_touch(journey, second_server, width, height, lang, scheme):
    w = journey(width, height, scheme)
    page = w.page
    w.open("/")
    a_hand_played_on_a_table_followed_from_its_sheet(w, lang)
    w.tap("[data-action=score-hand]", "Score this hand")
    w.tap("[data-action=add-table-game]", "Add the hand to the sheet", result=page.locator(".ts-game").first)
    assert page.locator(".ts-game").count() == 1

    # A game by hand: An out first, the others' cards left.
    w.tap("[data-action=by-hand]", "Enter a game by hand")
    w.tap(".ts-out input[name=out][value='0']", "An went out first")
    for seat, left in ((1, "5"), (2, "13"), (3, "2")):
        w.type(f"#left_{seat}", left)
    w.tap(".ts-entry button[type=submit]", "Save the game", result=page.locator(".ts-game").first)
    assert page.locator(".ts-game[data-game='2']").count() == 1

    # A correction of that game: Chi had 12 cards left, not 13.
    w.tap(".ts-game[data-game='2'] .ts-correct", "Correct game 2")
    w.type("#left_2", "12")
    w.tap(".ts-entry button[type=submit]", "Save the correction", result=page.locator(".ts-game").first)

    # Money, and the end of the evening.
    w.tap(".settle-stake-form summary", "Play for money")
    w.type("#settle-stake", "0.5")
    w.tap("[data-action=set-stake]", "Save the stake")
    w.tap(".evening-end-form summary", "End of the evening")
    w.type(".evening-end-form #end-games", "3")
    w.tap("[data-action=set-end]", "Save the end")

    # A group of these players, made from the sheet; its next evening started from the group.
    w.tap(".share-box summary", "Share this game")
    w.tap("[data-action=make-group]", "Make a group of these players", result=page.locator("#group"))
    path = w.download("[data-action=export]", "Download the group as a file")
    w.tap("[data-action=stats]", "Stats per person")
    w.tap(f"a[href='{page.url.rsplit('/stats', 1)[0].replace(w.phone.base_url, '')}']", "Back to the group",
          result=page.locator("#group"))
    for n in range(4):
        w.tap(f".group-start[open] .chip.person >> nth={n}", f"seat {n + 1} from the group")
    w.tap(".group-start[open] [data-action=start]", "Start tonight's sheet", result=page.locator("#ts-sheet"))
    assert page.locator("#ts-sheet .ts-count").count() == 1

    # The group's file imported on a second server, reached from its home page.
    other = journey(width, height, scheme, server=second_server)
    other.open("/")
    other.tap(f".langs [data-lang='{lang}']", f"the language: {lang}")
    other.tap("a[href='/groups/']", "Groups, from the home page")
    other.page.locator("input[name=file]").set_input_files(path)
    other.tap("[data-action=import]", "Import the group's file", result=other.page.locator("#group"))
    assert other.page.locator("#group").inner_text().count(LONG) >= 1


IN_VIEW = """e => { const r = e.getBoundingClientRect();
                    return r.bottom > Math.min(r.height, 44) && r.top < innerHeight - Math.min(r.height, 44); }"""


@pytest.mark.parametrize(("width", "height", "lang", "scheme"),
                         [pytest.param(360, 740, "pt", "light", id="360x740-pt"),
                          pytest.param(320, 640, "en", "dark", id="320x640-en-dark")])
def test_a_game_from_the_table_shows_what_it_scores_in_view(journey, width, height, lang, scheme):
    """"A game from the table" (a followed hand scored onto the sheet): "What it scores" stood under
    every player's pickers and the Add button, out of view when the page opened and after every
    caught card tapped (the live preview redrawn 1,000 px down)."""
    w = journey(width, height, scheme)
    page = w.page
    w.open("/")
    a_hand_played_on_a_table_followed_from_its_sheet(w, lang)
    w.tap("[data-action=score-hand]", "Score this hand", result=page.locator(".ts-preview-list"))
    assert page.locator(".ts-preview-list").evaluate(IN_VIEW), "“What it scores” is out of view"
    # Binh (seat 2) was caught holding 2♦ and 2♣: each card tapped redraws what it scores, in view.
    w.tap("#ts-table-form .ts-hand:nth-of-type(2) .ts-caught summary", "Binh: 2s and bombs caught")
    for card in ("2d", "2c"):
        w.tap(f"#ts-caught-1 [data-card='{card}']", f"Binh caught holding {card}", result=page.locator(".ts-preview-box"))
    expect(page.locator(".ts-preview-list")).to_have_attribute("data-state", "ok")
    expect(page.locator(".ts-preview")).to_contain_text("An")
    w.tap("[data-action=add-table-game]", "Add the hand to the sheet", result=page.locator(".ts-game").first)
