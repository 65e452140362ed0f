"""A Tiến lên evening (its score sheet) started offline is drawn on the phone as the server draws
it (issue 35): the same records (the new-evening form with the phone's links, then its writes in
order) given to the server's test client and to :func:`referee.web.phone_pages.draw` (plain
CPython here; the engine's Pyodide runs the same modules) give the same pages and fragments,
statuses and addresses.  What is normalised away, and why: :mod:`tests.test_phone_pages`.
"""

from __future__ import annotations

import pytest

from referee.web import phone_pages
from tests.test_phone_pages import Table, kit  # noqa: F401  (the kit fixture: pages.zip's, given to the phone)

NAMES = {"name0": "Ann", "name1": "Bao", "name2": "Chi Nguyễn Thị Minh Khai", "name3": ""}


def evening(client, share, language, **end):  # type: ignore[no-untyped-def]
    """A new evening of three, its end switches as given, sent to the server and kept for the phone."""
    return Table(client, share, language, form="/tienlen/scores/", action="/tienlen/scores/new",
                 names={**NAMES, **end})


@pytest.mark.parametrize("language", ["en", "vi"])
def test_an_evening_started_offline_is_drawn_on_the_phone_as_the_server_draws_it(client, kit, language):  # type: ignore[no-untyped-def]  # noqa: F811
    table = evening(client, kit, language, games="3")
    sheet = table.game
    table.same_get(sheet)
    table.same_get(sheet, htmx=True, boosted=True)
    table.same_get(sheet, htmx=True)
    table.same_get(sheet + "/add")
    # A game refused (nobody went out; a count that is no count): the form again, each mistake beside its field.
    refused = table.same_write(sheet + "/add", [("left_1", "x"), ("left_2", "4")], status=422)
    assert 'aria-invalid="true"' in refused
    # Three games by hand: the cards left, caught 2s, a frozen player, a chop.
    saved = table.same_write(sheet + "/add", [("out", "0"), ("left_1", "5"), ("left_2", "13")])
    assert "Game 1 saved." in saved or language != "en"
    table.same_write(sheet + "/add", [("out", "1"), ("left_0", "3"), ("cards_2", "2h 9c 9d 9s 4h")])
    table.same_write(sheet + "/add", [("out", "2"), ("left_0", "6"), ("left_1", "1"),
                                      ("chop_by_0", "2"), ("chop_on_0", "0"), ("chop_twos_0", "2s")])
    # The evening is over (3 games): its winner said; a fourth game is past its end.
    over = table.same_get(sheet)
    assert 'data-state="over"' in over
    table.same_get(sheet + "/add")
    # Game 2 corrected (its form filled in from what was saved), then a correction refused, then undone.
    table.same_get(sheet + "/game/2")
    table.same_write(sheet + "/game/2", [("out", "1"), ("left_0", "7"), ("cards_2", "2h 9c 9d 9s 4h")])
    table.same_write(sheet + "/game/2", [("out", "1"), ("left_0", "14"), ("left_2", "3")], status=422)
    table.same_write(sheet + "/undo", [], htmx=True, boosted=False)
    table.same_get(sheet)
    table.same_write(sheet + "/redo", [], htmx=True, boosted=False)
    table.same_write(sheet + "/undo", [], htmx=True, boosted=False)
    # The end of the evening changed (5 games), and a target that is no number refused.
    table.same_write(sheet + "/end", [("target", ""), ("games", "5"), ("until", ""), ("utc_offset", "0")])
    table.same_write(sheet + "/end", [("target", "-4"), ("games", ""), ("until", ""), ("utc_offset", "0")],
                     status=422)
    table.same_write(sheet + "/add", [("out", "0"), ("left_1", "2"), ("left_2", "2")], htmx=True, boosted=False)
    # What the phone shows now: the sheet, its fragment (a poll's answer), each game's page.
    table.same_get(sheet)
    table.same_get(sheet + f"?since={table.version - 1}", htmx=True)
    for number in (1, 2, 3, 4):
        table.same_get(sheet + f"/game/{number}")
    # A stale phone (a version behind), a game the sheet does not have, a watch link.
    table.version -= 1
    table.same_write(sheet + "/add", [("out", "1"), ("left_0", "4"), ("left_2", "4")], status=409)
    table.same_write(sheet + "/game/1", [("out", "1"), ("left_0", "4"), ("left_2", "4")], status=409)
    table.same_write(sheet + "/end", [("target", "30"), ("games", ""), ("until", ""), ("utc_offset", "0")], status=409)
    table.version += 1
    table.same_get(sheet + "/game/9")
    table.same_write(sheet + "/game/9", [("out", "1"), ("left_0", "4"), ("left_2", "4")], status=404)
    watch = sheet.replace(table.keeper, table.watch)
    table.same_get(watch)
    table.same_get(watch + "/add")
    table.same_get(watch + "/game/1")
    table.same_write(watch + "/add", [("out", "1"), ("left_0", "4"), ("left_2", "4")], status=403)
    table.same_write(watch + "/end", [("games", "9")], status=403)
    assert table.phone("GET", sheet + f"?since={table.version}", htmx=True)["status"] == 204
    assert len(table.writes) == 9


@pytest.mark.parametrize("language", ["en", "pt"])
def test_an_evening_to_a_target_is_drawn_on_the_phone_as_the_server_draws_it(client, kit, language):  # type: ignore[no-untyped-def]  # noqa: F811
    """A target of points: how far there is to go, then who reached it; and a plain form's 303."""
    table = evening(client, kit, language, target="10")
    sheet = table.game
    assert 'data-state="to-go"' in table.same_get(sheet)
    to_go = table.same_write(sheet + "/add", [("out", "0"), ("left_1", "4"), ("left_2", "3")])
    assert 'data-state="to-go"' in to_go and 'data-state="over"' not in to_go
    table.same_write(sheet + "/add", [("out", "0"), ("left_1", "6"), ("left_2", "2")], htmx=False, boosted=False)
    assert 'data-state="over"' in table.same_get(sheet)
    assert len(table.writes) == 2


def test_a_new_evening_form_the_server_refuses_makes_no_game_on_the_phone(client, kit):  # type: ignore[no-untyped-def]  # noqa: F811
    table = evening(client, kit, "en")
    table.start["params"] = [(k, "" if k.startswith("name") else v) for k, v in table.start["params"]]
    assert table.phone("GET", table.game)["status"] == 0  # the network is asked: nothing drawn here


STAKES = {"en": ("2.50", "EUR", "abc", "0.001", "€2.50 a point"), "vi": ("1.000", "VND", "abc", "0,5", "1.000\xa0₫ mỗi điểm"),
          "pt": ("0,50", "BRL", "R$ 1", "0,001", "R$\xa00,50 por ponto"), "es": ("1.234,5", "USD", "1,2,3", "0,005", "")}


@pytest.mark.parametrize("language", ["en", "vi", "pt", "es"])
def test_the_stake_of_an_evening_started_offline_is_drawn_on_the_phone_as_the_server_draws_it(client, kit, language):  # type: ignore[no-untyped-def]  # noqa: F811
    """The stake form read and the money drawn as the referee does (issue 35): refusals (no
    amount, a unit the currency has not), the stake, the payments and the settle-up, its undo and
    redo, a stale form; then a currency the phone's tables have not is refused where it stands,
    nothing kept to send."""
    typed, currency, unreadable, too_small, words = STAKES[language]
    table = evening(client, kit, language, games="3")
    sheet = table.game
    table.same_write(sheet + "/add", [("out", "0"), ("left_1", "4"), ("left_2", "3")])
    table.same_write(sheet + "/money", [("stake", unreadable), ("currency", currency)], status=422)
    refused = table.same_write(sheet + "/money", [("stake", too_small), ("currency", currency)], status=422)
    assert 'aria-invalid="true"' in refused
    table.same_write(sheet + "/money", [("stake", typed), ("currency", "ZZZ")], status=422)
    money = table.same_write(sheet + "/money", [("stake", typed), ("currency", currency)])
    assert 'class="settle-up' in money or "settle-up" in money
    if words:
        assert words in money
    table.same_get(sheet)
    table.same_get(sheet + f"?since={table.version - 1}", htmx=True)
    table.same_write(sheet + "/add", [("out", "1"), ("left_0", "3"), ("cards_2", "2h 9c 9d 9s 4h")])
    table.same_write(sheet + "/add", [("out", "2"), ("left_0", "6"), ("left_1", "1")])
    assert 'data-state="over"' in table.same_get(sheet)
    table.same_write(sheet + "/undo", [], htmx=True, boosted=False)
    table.same_write(sheet + "/undo", [], htmx=True, boosted=False)
    table.same_write(sheet + "/undo", [], htmx=True, boosted=False)  # the stake undone: no money on the sheet
    assert words not in table.same_get(sheet) or not words
    table.same_write(sheet + "/redo", [], htmx=True, boosted=False)
    table.same_write(sheet + "/money", [("stake", ""), ("currency", currency)], htmx=False, boosted=False)
    table.version -= 1
    table.same_write(sheet + "/money", [("stake", typed), ("currency", currency)], status=409)
    table.version += 1
    table.same_write(sheet.replace(table.keeper, table.watch) + "/money", [("stake", "1"), ("currency", "EUR")],
                     status=403)
    kept = len(table.writes)
    answer = table.phone("POST", sheet + "/money", [("version", str(table.version)), ("stake", "250"),
                                                     ("currency", "JPY")], htmx=True, boosted=True, write="abcdef123456")
    assert (answer["status"], answer["stored"], answer["url"]) == (422, False, sheet)  # a reload there shows the sheet
    assert answer["headers"] == {"HX-Reswap": "innerHTML show:#settle-stake:top"}  # the refusal in view
    assert 'value="250"' in answer["html"] and '<details class="settle-stake-form" open>' in answer["html"]
    assert len(table.writes) == kept


def test_the_worker_warms_up_the_evening_before_the_first_tap(kit):  # type: ignore[no-untyped-def]  # noqa: F811
    """The worker's warm-up draws a made-up evening too: its sheet and by-hand page compiled."""
    phone_pages.warm_up("pt")
    assert phone_pages._env is not None and phone_pages._env.cache is not None
    compiled = {name for _loader, name in phone_pages._env.cache}
    assert {"tienlen_scores/sheet.html", "tienlen_scores/entry.html"} <= compiled


def test_a_stake_is_read_in_the_language_of_its_form_on_the_phone_as_on_the_server(client, kit):  # type: ignore[no-untyped-def]  # noqa: F811
    """A stake kept on a phone is read, there and when it reaches the referee, with the numbers of
    the form it was typed in (``lang``), whatever language the page is drawn in then: "1.000" typed
    in Vietnamese is a thousand đồng on an English page too (the review of the offline stake)."""
    table = evening(client, kit, "en", games="3")
    sheet = table.game
    table.same_write(sheet + "/add", [("out", "0"), ("left_1", "4"), ("left_2", "3")])
    money = table.same_write(sheet + "/money", [("stake", "1.000"), ("currency", "VND"), ("lang", "vi")])
    assert "₫1,000 a point" in money.replace("\xa0", " "), money[money.find("settle-up"):][:600]
