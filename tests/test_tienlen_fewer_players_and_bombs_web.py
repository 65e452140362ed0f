"""Fewer than four players everywhere (the rules page, the check screen, ``POST /api/tienlen/check``,
the lowest-card lists), and the table log marking every bomb."""

from __future__ import annotations

import re

import pytest

from tests.test_tienlen_table_web import Table, create, text

# --- the lowest card dealt: the check screen and the API -----------------------------------------


def api(client, **body):  # type: ignore[no-untyped-def]
    return client.post("/api/tienlen/check", json=body)


def test_the_api_opens_with_the_lowest_card_dealt_when_told(client) -> None:  # type: ignore[no-untyped-def]
    answer = api(client, play="3c 4d 5h", first_play=True, lowest="3c")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["legal"] is True and body["reason"] == "the first play of the game contains the 3♣"
    refused = api(client, play="4d 5h 6s", first_play=True, lowest="3c").get_json()
    assert refused["legal"] is False and refused["reason"] == "the first play of the game must contain the 3♣"


def test_the_api_says_a_card_below_the_lowest_card_dealt_was_not_dealt(client) -> None:  # type: ignore[no-untyped-def]
    body = api(client, play="3s 3c", first_play=True, lowest="3c").get_json()
    assert body["legal"] is False and body["reason"] == "3♠ was not dealt: the lowest card dealt is 3♣"


def test_without_lowest_the_api_still_asks_for_the_3s(client) -> None:  # type: ignore[no-untyped-def]
    body = api(client, play="3c 4d 5h", first_play=True).get_json()
    assert body["reason"] == "the first play of the game must contain the 3♠"


@pytest.mark.parametrize("lowest", ["9h", "10s", "zz", 3, "RJ"])
def test_the_api_refuses_a_lowest_card_no_deal_can_have(client, lowest) -> None:  # type: ignore[no-untyped-def]
    answer = api(client, play="3c", first_play=True, lowest=lowest)
    assert answer.status_code == 400
    body = answer.get_json()
    assert body["field"] == "lowest" and "9♦" in body["error"]


def test_the_lowest_cards_are_derived_from_the_tables_size() -> None:
    from referee.tienlen import lowest_cards

    assert [str(c) for c in lowest_cards(4)] == ["3♠"]
    assert str(lowest_cards(3)[-1]) == "6♣" and len(lowest_cards(3)) == 14
    assert str(lowest_cards(2)[-1]) == "9♦" and len(lowest_cards(2)) == 27
    # two players of 10 cards leave 32 undealt: the lowest dealt is at most the 33rd card, the J♠
    assert str(lowest_cards(2, 10)[-1]) == "J♠"


def options(body: str, name: str) -> list[str]:
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', body, re.S)
    assert select, f"no select {name}"
    return re.findall(r'<option value="([^"]+)"', select.group(1))


def test_the_check_screen_offers_the_lowest_card_dealt_beside_the_first_play(client) -> None:  # type: ignore[no-untyped-def]
    body = text(client.get("/tienlen/check"))
    first = body.index('name="first_play"')
    lowest = body.index('name="lowest"')
    assert 0 < lowest - first < 1500  # in the same box, right after it
    choices = options(body, "lowest")
    assert choices[0] == "3♠" and choices[-1] == "9♦" and len(choices) == 27


def test_the_check_screen_judges_the_opening_with_the_lowest_card_chosen(client) -> None:  # type: ignore[no-untyped-def]
    answer = client.post("/tienlen/check", data={"play": "3c 4d 5h", "first_play": "on", "lowest": "3♣"})
    assert answer.status_code == 200
    assert "the first play of the game contains the 3♣" in text(answer)
    assert '<option value="3♣" selected>' in text(answer)
    refused = client.post("/tienlen/check", data={"play": "3c 4d 5h", "first_play": "on", "lowest": "9♥"})
    assert refused.status_code == 400 and "Choose the lowest card dealt from the list." in text(refused)


def test_the_new_game_form_offers_up_to_the_9d_for_two_players(client) -> None:  # type: ignore[no-untyped-def]
    choices = options(text(client.get("/tienlen/new")), "lowest")
    assert choices[-1] == "9♦" and len(choices) == 27
    response = client.post("/tienlen/new", data={"name0": "Ana", "name1": "Bao", "leader": "1", "lowest": "9♦"})
    assert response.status_code == 303, text(response)
    three = client.post("/tienlen/new", data={"name0": "Ana", "name1": "Bao", "name2": "Chi", "leader": "1",
                                               "lowest": "9♦"})
    assert three.status_code == 422
    assert options(text(three), "lowest")[-1] == "6♣"  # now the table's size is known


def test_the_rules_page_says_what_two_or_three_players_do(client) -> None:  # type: ignore[no-untyped-def]
    body = text(client.get("/tienlen/rules"))
    assert "two or three players may play too" in body
    assert "whoever holds the lowest card dealt starts" in body


@pytest.mark.parametrize(("code", "words"), [("es", "carta más baja repartida"), ("pt", "carta mais baixa distribuída"),
                                             ("vi", "lá nhỏ nhất được chia")])
def test_the_rules_page_says_it_in_every_language(client, code, words) -> None:  # type: ignore[no-untyped-def]
    body = text(client.get("/tienlen/rules", headers={"Accept-Language": code}))
    assert re.search(r'id="fewer">[^<]*' + re.escape(words), body)


# --- rules pages say what the sheets say; conventions are labelled --------------------------------


def test_the_trece_page_labels_what_the_sheet_does_not_say(client) -> None:  # type: ignore[no-untyped-def]
    body = text(client.get("/trece/rules"))
    for convention in ("if that first card is a joker", "taking that card ends your turn"):
        paragraph = re.search(r"<p[^>]*>([^<]*" + re.escape(convention) + r"[^<]*)</p>", body)
        assert paragraph and paragraph.group(1).startswith("House convention of this app"), convention
    assert "your turn is over" not in body


def test_the_tienlen_page_says_four_pairs_and_who_leads_with_play_on(client) -> None:  # type: ignore[no-untyped-def]
    body = text(client.get("/tienlen/rules"))
    assert "four or more pairs" not in body
    assert "House convention of this app: a longer double sequence may too." in body
    assert "If the player who went out made the last play, the next player still in leads." in body


# --- the table log marks every bomb ---------------------------------------------------------------


def log_lines(body: str) -> list[str]:
    section = re.search(r'<section class="tl-log">(.*?)</section>', body, re.S)
    assert section
    return [re.sub(r"\s+", " ", line).strip() for line in re.findall(r"<li>(.*?)</li>", section.group(1), re.S)]


def test_a_led_double_sequence_and_a_bomb_on_a_bomb_are_marked_in_the_log(app, client) -> None:  # type: ignore[no-untyped-def]
    table = Table(app, client, create(client))  # Bao (seat 1) holds the 3♠
    table.ok(table.play(1, "3s 3c 4s 4c 5s 5c"))  # a double sequence led: a bomb
    table.ok(table.play(2, "7s 7c 8s 8c 9s 9c"))  # a higher one on it: a bomb beating a bomb
    lines = log_lines(table.page())
    assert "Bao played 3♠ 3♣ 4♠ 4♣ 5♠ 5♣ · bomb" in lines
    assert "Chi played 7♠ 7♣ 8♠ 8♣ 9♠ 9♣ · bomb" in lines


def test_a_four_of_a_kind_beaten_by_a_higher_one_is_marked_in_the_log(app, client) -> None:  # type: ignore[no-untyped-def]
    table = Table(app, client, create(client))
    table.ok(table.play(1, "3s"))
    table.ok(table.play(2, "2s"))
    table.ok(table.play(3, "5s 5c 5d 5h"))  # bombs the 2
    table.ok(table.play(0, "6s 6c 6d 6h"))  # a higher four of a kind on it
    lines = log_lines(table.page())
    assert "Dung played 5♠ 5♣ 5♦ 5♥ · bomb" in lines
    assert "Ana played 6♠ 6♣ 6♦ 6♥ · bomb" in lines
    assert "Bao played 3♠" in lines and "Chi played 2♠" in lines  # plain plays stay plain


@pytest.mark.parametrize(("names", "highest", "count"), [(("An", "Binh"), "9♦", 27), (("An", "Binh", "Chi"), "6♣", 14)])
def test_the_score_sheet_offers_the_lowest_cards_for_its_tables_size(client, names, highest, count) -> None:  # type: ignore[no-untyped-def]
    from tests.test_tienlen_scores_web import start_sheet

    token = start_sheet(client, names=names)
    choices = options(text(client.get(f"/tienlen/scores/g/{token}")), "lowest")
    assert choices[-1] == highest and len(choices) == count


def test_a_four_player_score_sheet_asks_for_no_lowest_card(client) -> None:  # type: ignore[no-untyped-def]
    from tests.test_tienlen_scores_web import start_sheet

    token = start_sheet(client)
    assert 'name="lowest"' not in text(client.get(f"/tienlen/scores/g/{token}"))
