"""Fewer than four players (RULES.md): the table is opened with the lowest card dealt, not a stuck 3♠."""

from __future__ import annotations

import pytest

from tests.test_tienlen_table_web import Table, text, turn


def create(client, names, leader, lowest=None):  # type: ignore[no-untyped-def]
    form = {f"name{i}": n for i, n in enumerate(names)}
    form["leader"] = str(leader)
    if lowest is not None:
        form["lowest"] = lowest
    return client.post("/tienlen/new", data=form)


def test_the_new_game_form_asks_for_the_lowest_card_dealt(client) -> None:  # type: ignore[no-untyped-def]
    body = text(client.get("/tienlen/new"))
    assert 'name="lowest"' in body and "Lowest card dealt" in body
    assert '<option value="3♠" selected>' in body and '<option value="6♣">' in body


def test_three_players_open_with_the_lowest_card_dealt(app, client) -> None:  # type: ignore[no-untyped-def]
    response = create(client, ("Ana", "Bao", "Chi"), leader=2, lowest="3♦")
    assert response.status_code == 303
    table = Table(app, client, response.headers["Location"].rsplit("/", 1)[1])
    body = table.page()
    assert turn(body) == "Chi"
    assert "the first play must contain 3♦" in body
    assert "The lowest card dealt is 3♦" in body
    refused = table.play(2, "3s 4s 5s")
    assert refused.status_code == 422
    assert "3♠ was not dealt: the lowest card dealt is 3♦" in text(refused)
    refused = table.play(2, "4d 5d 6d")
    assert refused.status_code == 422 and "must contain the 3♦" in text(refused)
    table.ok(table.play(2, "3d 4d 5d"))
    assert turn(table.page()) == "Ana"


def test_with_all_52_cards_dealt_the_lowest_card_is_the_3s(client) -> None:  # type: ignore[no-untyped-def]
    response = create(client, ("Ana", "Bao", "Chi", "Dung"), leader=0, lowest="3♦")
    assert response.status_code == 422
    assert "with all 52 cards dealt the lowest card dealt is the 3♠, not 3♦" in text(response)


def test_a_lowest_card_no_deal_can_have_is_refused(client) -> None:  # type: ignore[no-untyped-def]
    response = create(client, ("Ana", "Bao", "Chi"), leader=0, lowest="9h")
    assert response.status_code == 422
    assert "with 39 cards dealt the lowest card dealt is at most 6♣, not 9♥" in text(response)
    response = create(client, ("Ana", "Bao"), leader=0, lowest="zz")
    assert response.status_code == 422 and "Choose the lowest card dealt" in text(response)


@pytest.mark.parametrize(("names", "lowest", "words"), [
    (["An", "Bao", "Chi"], "3♦", "Tap the player who holds 3♦, the lowest card dealt: they lead the first hand."),
    (["An", "Bao"], "4♠", "Tap the player who holds 4♠, the lowest card dealt: they lead the first hand."),
    (["An", "Bao", "Chi", "Dung"], None, "Tap the player who holds 3♠: they lead the first hand."),
])
def test_the_refusal_without_a_leader_names_the_lowest_card_dealt(client, names, lowest, words) -> None:  # type: ignore[no-untyped-def]
    response = create(client, names, leader=None, lowest=lowest)
    assert response.status_code == 422
    assert words in text(response)
