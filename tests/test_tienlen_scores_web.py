"""The Tiến lên score sheet through the web layer: an evening of games, from a followed table or by hand."""

from __future__ import annotations

import html
import re
import threading

import pytest

from referee.web.extensions import db
from referee.web.models import Game
from referee.web.store import find_by_token

NAMES = ("An", "Binh", "Chi", "Dung")


def text(response) -> str:  # type: ignore[no-untyped-def]
    return html.unescape(response.get_data(as_text=True))


def version(app, token) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return find_by_token(token).game.version


def watch_token(app, token) -> str:  # type: ignore[no-untyped-def]
    with app.app_context():
        return find_by_token(token).game.watch_token


def start_sheet(client, names=NAMES, **switches) -> str:  # type: ignore[no-untyped-def]
    form = {f"name{i}": n for i, n in enumerate(names)}
    for key, value in switches.items():
        form[f"{key}__present"] = "1"
        if value is not False:
            form[key] = "on" if value is True else str(value)
    response = client.post("/tienlen/scores/new", data=form)
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[1]


def totals(body: str) -> list[int]:
    return [int(t) for t in re.findall(r'data-total="\d">([+-]?\d+)<', body)]


class Evening:
    """A keeper phone on the sheet (and on the table it follows)."""

    def __init__(self, app, client, token):  # type: ignore[no-untyped-def]
        self.app, self.client, self.token = app, client, token

    def post(self, path: str, seen: int | None = None, **form):  # type: ignore[no-untyped-def]
        form["version"] = str(version(self.app, self.token) if seen is None else seen)
        return self.client.post(f"/tienlen/scores/g/{self.token}{path}", data=form)

    def page(self, path: str = "", **query) -> str:  # type: ignore[no-untyped-def]
        response = self.client.get(f"/tienlen/scores/g/{self.token}{path}", query_string=query)
        assert response.status_code == 200, text(response)
        return text(response)

    def refused(self, path: str, **form) -> str:  # type: ignore[no-untyped-def]
        """Posts a form the sheet refuses (422): the page that says why."""
        response = self.post(path, **form)
        assert response.status_code == 422, text(response)
        return text(response)

    def start_table(self, leader: int, lowest: str = "3♠") -> str:
        response = self.post("/tables", leader=str(leader), lowest=lowest)
        assert response.status_code == 303, text(response)
        return response.headers["Location"].rsplit("/", 1)[1]

    def table_id(self, table_token: str) -> int:
        with self.app.app_context():
            return find_by_token(table_token).game.id

    def play(self, table: str, seat: int, cards: str) -> None:
        response = self.client.post(f"/tienlen/g/{table}/play",
                                    data={"seat": str(seat), "cards": cards, "version": str(version(self.app, table))})
        assert response.status_code == 303, text(response)

    def pass_(self, table: str, *seats: int) -> None:
        for seat in seats:
            response = self.client.post(f"/tienlen/g/{table}/pass",
                                        data={"seat": str(seat), "version": str(version(self.app, table))})
            assert response.status_code == 303, text(response)


@pytest.fixture
def evening(app, client):  # type: ignore[no-untyped-def]
    return Evening(app, client, start_sheet(client))


def play_the_chop_chain_hand(e: Evening, table: str) -> None:
    """Binh leads 3♠; later Binh's 2♥ is bombed by Dung, Dung's bomb by An; An goes out; Chi never plays."""
    e.play(table, 1, "3s")
    e.pass_(table, 2, 3, 0)
    e.play(table, 1, "2h")
    e.pass_(table, 2)
    e.play(table, 3, "4s 4c 5s 5c 6s 6c")
    e.play(table, 0, "7s 7c 8s 8c 9s 9c")
    e.pass_(table, 1, 3)
    e.play(table, 0, "3c 4d 5d 6d 7d")
    e.pass_(table, 1, 2, 3)
    e.play(table, 0, "10s")
    e.pass_(table, 1, 2, 3)
    e.play(table, 0, "Js")


def chop_chain_table(e: Evening) -> str:
    """A table started from the sheet, Binh leading, its chop-chain hand played: the table's token."""
    table = e.start_table(leader=1)
    play_the_chop_chain_hand(e, table)
    return table


# --- starting ------------------------------------------------------------------------------------


def test_the_start_form_explains_every_score_switch_in_one_line(client) -> None:  # type: ignore[no-untyped-def]
    body = text(client.get("/tienlen/scores/"))
    for switch in ("score_by", "play_on", "instant_wins", "first_stake", "second_stake", "frozen", "two_left_black",
                   "two_left_red", "bomb_left", "chop_black", "chop_red", "chop_bomb", "instant_stake"):
        assert f'name="{switch}"' in body
    assert 'type="number" id="sw-chop_red" name="chop_red"' in body


def test_an_evening_needs_two_to_four_names(client) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/tienlen/scores/new", data={"name0": "An"})
    assert response.status_code == 422
    assert "needs 2 to 4 players, not 1" in text(response)


def test_a_bad_amount_is_refused_with_the_reason_and_the_names_kept(client) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/tienlen/scores/new", data={"name0": "An", "name1": "Binh", "chop_red": "-3"})
    assert response.status_code == 422
    body = text(response)
    assert "chop_red" in body and 'value="Binh"' in body


def test_amounts_are_editable_and_kept(app, client) -> None:  # type: ignore[no-untyped-def]
    token = start_sheet(client, ("An", "Binh"), chop_red=5, frozen=3)
    with app.app_context():
        rules = find_by_token(token).game.rules
    assert rules["chop_red"] == 5 and rules["frozen"] == 3


# --- a followed table ----------------------------------------------------------------------------


def test_a_followed_four_player_game_with_a_chop_chain_is_scored_end_to_end(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    table = chop_chain_table(e)
    body = e.page()
    table_id = e.table_id(table)
    link = f"/tienlen/scores/g/{e.token}/table/{table_id}/0"
    assert link in body and "An went out" in body
    form = e.page(f"/table/{table_id}/0")
    assert "11 cards left" in form and "played no card" in form
    assert "Dung chopped Binh's 2♥: Binh pays Dung 2" in form  # the preview, before anything is saved
    response = e.post(f"/table/{table_id}/0", cards_1="2s 3h 8h 9h 10h Jh Qh Kh Ah Qs Ks")
    assert response.status_code == 303
    body = e.page()
    assert totals(body) == [48 + 1, -13 - 1, -26, -9]
    for line in ("Binh had 11 cards left: Binh pays An 11", "Chi had played no card when An went out: Chi pays An 2 × 13 = 26",
                 "Binh was caught holding 2♠: Binh pays An 1", "Dung chopped Binh's 2♥: Binh pays Dung 2",
                 "An bombed Dung's bomb: Dung pays An 2 + 2 = 4"):
        assert line in body
    assert "Every finished hand of the followed table is on the sheet." in body
    assert "already on the sheet" in e.refused(f"/table/{table_id}/0")


def test_a_keepers_leftover_with_a_played_card_is_refused_and_kept(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    table = chop_chain_table(e)
    table_id = e.table_id(table)
    before = version(e.app, e.token)
    typed = "2s 3h 8h 9h 10h Jh Qh Kh Ah Qs Js"
    body = e.refused(f"/table/{table_id}/0", cards_1=typed)
    assert "J♠ has already been played: it cannot be among Binh's leftover cards" in body
    assert f'value="{typed}"' in body
    assert "Dung has 7 cards left, but 2 leftover cards are entered" in e.refused(f"/table/{table_id}/0", cards_3="8h 9h")
    assert version(e.app, e.token) == before


def test_a_three_player_table_from_the_sheet_opens_with_the_lowest_card(app, client) -> None:  # type: ignore[no-untyped-def]
    e = Evening(app, client, start_sheet(client, ("An", "Binh", "Chi")))
    table = e.start_table(leader=2, lowest="3♦")
    body = text(client.get(f"/tienlen/g/{table}"))
    assert "the first play must contain 3♦" in body
    e.play(table, 2, "3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad")
    e.pass_(table, 0, 1)
    e.play(table, 2, "2h")
    table_id = e.table_id(table)
    response = e.post(f"/table/{table_id}/0", cards_0="3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c")
    assert response.status_code == 422
    assert "3♣ was not dealt (the lowest card dealt is 3♦)" in text(response)
    e.post(f"/table/{table_id}/0", cards_0="3h 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2c")
    assert totals(e.page()) == [-27, -26, 53]


def test_a_table_is_followed_by_its_link_only_with_the_same_players(app, client, evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    other = client.post("/tienlen/new", data={"name0": "Dung", "name1": "Chi", "name2": "Binh", "name3": "An",
                                              "leader": "0"})
    token = other.headers["Location"].rsplit("/", 1)[1]
    response = e.post("/follow", link=f"http://phone/tienlen/g/{watch_token(app, token)}")
    assert response.status_code == 303
    strangers = client.post("/tienlen/new", data={"name0": "X", "name1": "Y", "leader": "0"})
    token2 = strangers.headers["Location"].rsplit("/", 1)[1]
    response = e.post("/follow", link=f"/tienlen/g/{token2}")
    assert response.status_code == 422
    assert "are not this sheet's" in text(response)
    response = e.post("/follow", link="nonsense")
    assert response.status_code == 422 and "not the link of a Tiến lên table" in text(response)


# --- by hand ---------------------------------------------------------------------------------------


def test_a_game_entered_by_hand_scores_the_worked_example(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    response = e.post("/add", out="0", cards_1="2d 7d 8d 9c 9s", left_2="13",
                      cards_2="2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", left_3="2",
                      chop_by_0="3", chop_on_0="1", chop_twos_0="2h", chop_by_1="0", chop_on_1="3")
    assert response.status_code == 303, text(response)
    body = e.page()
    assert totals(body) == [40, -9, -27, -4]
    assert "Dung chopped Binh's 2♥: Binh pays Dung 2" in body


def test_a_game_by_hand_with_mistakes_is_refused_field_by_field(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    response = e.post("/add", out="0", left_1="5", cards_1="2d 7d", left_2="x", left_3="2")
    assert response.status_code == 422
    body = text(response)
    assert "Cards left is a whole number from 0 to 13." in body
    assert 'value="2d 7d"' in body
    refused = e.refused("/add", out="0", left_1="5", cards_1="2d 7d", left_2="4", left_3="2")
    assert "Binh has 5 cards left, but 2 leftover cards are entered" in refused
    refused = e.refused("/add", out="0", left_1="5", left_2="4", left_3="2", chop_by_0="1", chop_on_0="2",
                        chop_twos_0="Kh")
    assert "K♥ is not a 2: only 2s are chopped" in refused
    assert version(e.app, e.token) == 0


def test_a_loser_with_13_cards_left_played_no_card_so_is_frozen(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    e.post("/add", out="0", left_1="5", left_2="13", left_3="2")
    assert totals(e.page()) == [33, -5, -26, -2]  # Chi played nothing: frozen, 13 cards paid twice
    assert 'name="frozen_2"' not in e.page("/add")  # no tick says otherwise: 13 cards left is frozen
    before = version(e.app, e.token)
    refused = e.refused("/add", out="0", left_1="5", left_2="13", left_3="2", frozen_2="no")  # an old form
    assert "Chi has 13 cards left, so played no card and was frozen" in refused
    refused = e.refused("/add", out="0", left_1="5", left_2="13", left_3="2", frozen_2="yes please")
    assert "The “not frozen” box is either ticked or left empty." in refused
    assert version(e.app, e.token) == before


@pytest.mark.parametrize("odd", ["５", "٣", "²", "5 5", "+5", "-1", "14", "9" * 60])
def test_cards_left_and_places_are_read_as_ascii_whole_numbers_only(app, client, odd) -> None:  # type: ignore[no-untyped-def]
    e = Evening(app, client, start_sheet(client, score_by="places", play_on=True))
    response = e.post("/add", out="0", left_1=odd, left_2="4", left_3="2")
    assert response.status_code == 422 and "Cards left is a whole number from 0 to 13." in text(response)
    response = e.post("/add", out="0", left_1="5", left_2="4", left_3="2",
                      place_0="1", place_1=odd, place_2="3", place_3="4")
    assert response.status_code == 422 and "different place" in text(response)
    assert e.post("/tables", leader=odd).status_code == 422
    assert version(app, e.token) == 0


def test_places_need_every_place(app, client) -> None:  # type: ignore[no-untyped-def]
    e = Evening(app, client, start_sheet(client, score_by="places", play_on=True))
    response = e.post("/add", out="2", left_0="3", left_1="5", left_3="1", place_2="1", place_0="2")
    assert response.status_code == 422 and "different place" in text(response)
    response = e.post("/add", out="2", left_0="3", left_1="5", left_3="1",
                      place_2="1", place_3="2", place_0="3", place_1="4")
    assert response.status_code == 303
    assert totals(e.page()) == [-1, -2, 2, 1]


def test_a_game_is_corrected_and_undone(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    e.post("/add", out="0", left_1="5", left_2="4", left_3="2")
    e.post("/add", out="1", left_0="1", left_2="1", left_3="1")
    assert totals(e.page()) == [10, -2, -5, -3]
    form = e.page("/game/1")
    assert 'name="left_1" min="0" max="13" inputmode="numeric" value="5"' in form
    response = e.post("/game/1", out="0", left_1="6", left_2="4", left_3="2")
    assert response.status_code == 303
    body = e.page()
    assert totals(body) == [11, -3, -5, -3] and "corrected" in body
    assert "Undo: Game 1 corrected" in body
    e.post("/undo")
    assert totals(e.page()) == [10, -2, -5, -3]


def test_a_stale_write_is_a_409_that_keeps_what_was_typed(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    e.post("/add", out="0", left_1="5", left_2="4", left_3="2")
    response = e.post("/add", seen=0, out="1", left_0="7", left_2="4", left_3="2")
    assert response.status_code == 409
    body = text(response)
    assert "changed on another phone" in body and 'value="7"' in body
    assert totals(e.page()) == [11, -5, -4, -2]


def test_correcting_a_game_another_keepers_undo_removed_is_a_409_that_keeps_what_was_typed(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    e.post("/add", out="0", left_1="5", left_2="4", left_3="2")
    e.post("/undo", seen=1)  # another keeper takes game 1 back; this phone still shows it at version 1
    response = e.post("/game/1", seen=1, out="0", left_1="9", left_2="4", left_3="2")
    assert response.status_code == 409
    body = text(response)
    assert "changed on another phone" in body and 'value="9"' in body
    assert version(e.app, e.token) == 2
    missing = e.post("/game/7", out="0", left_1="9", left_2="4", left_3="2")  # at the current version
    assert missing.status_code == 404 and "no game 7" in text(missing)


def test_adding_from_a_table_whose_follow_was_undone_is_a_409_that_keeps_what_was_typed(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    table = chop_chain_table(e)
    table_id = e.table_id(table)
    seen = version(e.app, e.token)
    e.post("/undo", seen=seen)  # another keeper takes the follow back
    typed = "2s 3h 8h 9h 10h Jh Qh Kh Ah Qs Ks"
    response = e.post(f"/table/{table_id}/0", seen=seen, cards_1=typed)
    assert response.status_code == 409
    body = text(response)
    assert "changed on another phone" in body and typed in body
    assert version(e.app, e.token) == seen + 1
    stranger = e.post("/table/99999/0", cards_1=typed)  # a table this sheet never followed
    assert stranger.status_code == 404


# --- sharing, CSV, rematch ---------------------------------------------------------------------------


def test_a_watcher_sees_the_totals_and_cannot_write(app, client, evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    e.post("/add", out="0", left_1="5", left_2="4", left_3="2")
    watch = watch_token(app, e.token)
    body = text(client.get(f"/tienlen/scores/g/{watch}"))
    assert totals(body) == [11, -5, -4, -2]
    assert "<form" not in body.split('id="ts-sheet"')[1].split("</section>")[0]
    response = client.post(f"/tienlen/scores/g/{watch}/add", data={"version": "1", "out": "0"})
    assert response.status_code == 403


def test_the_sheet_polls_and_keeper_pages_are_not_stored(app, client, evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    response = client.get(f"/tienlen/scores/g/{e.token}", query_string={"since": "0"})
    assert response.status_code == 204
    for path in ("", "/add"):
        response = client.get(f"/tienlen/scores/g/{e.token}{path}")
        assert response.headers["Cache-Control"] == "no-store"
    body = e.page()
    assert "since=0" in body and 'class="qr"' in body  # the poll, and the share QR codes


def test_csv_export_has_a_row_per_game_and_the_totals(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    e.post("/add", out="0", left_1="5", left_2="4", left_3="2")
    response = e.client.get(f"/tienlen/scores/g/{e.token}/scores.csv")
    rows = response.get_data(as_text=True).splitlines()
    assert rows[0].startswith("game,from,An,Binh,Chi,Dung")
    assert rows[1].startswith("1,hand,11,-5,-4,-2,")
    assert rows[-1].startswith("total,,11,-5,-4,-2")


def test_rematch_starts_a_new_sheet_with_the_same_players_and_switches(app, client) -> None:  # type: ignore[no-untyped-def]
    token = start_sheet(client, chop_red=4)
    response = client.post(f"/tienlen/scores/g/{token}/again")
    assert response.status_code == 303
    new = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        game = find_by_token(new).game
        assert game.player_names == list(NAMES) and game.rules["chop_red"] == 4 and game.version == 0


def test_a_table_started_from_the_sheet_links_back_to_it(app, client, evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    table = e.start_table(leader=0)
    keeper_page = text(client.get(f"/tienlen/g/{table}"))
    # The table's keeper page links the sheet by its watch link (issue 29: sharing the table's
    # keeper link must not share the sheet's); its keeper scores a hand through "Score this hand".
    assert f'href="/tienlen/scores/g/{watch_token(app, e.token)}"' in keeper_page
    assert e.token not in keeper_page
    watcher_page = text(client.get(f"/tienlen/g/{watch_token(app, table)}"))
    assert f'href="/tienlen/scores/g/{watch_token(app, e.token)}"' in watcher_page
    assert e.token not in watcher_page


def test_a_chop_row_that_says_a_new_trick_began_is_a_bomb_on_a_bomb_of_its_own(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    game = {"out": "0", "left_1": "5", "left_2": "4", "left_3": "2",
            "chop_by_0": "3", "chop_on_0": "1", "chop_twos_0": "2h", "chop_by_1": "0", "chop_on_1": "3"}
    assert 'name="chop_new_1" value="yes"' in e.page("/add") and 'name="chop_new_0"' not in e.page("/add")
    e.post("/add", **game)  # one trick: An's bomb takes over what Dung's had won
    assert totals(e.page()) == [15, -7, -4, -4]
    response = e.post("/add", **game, chop_new_1="yes")  # a later trick: An bombed a bomb of Dung's
    assert response.status_code == 303, text(response)
    assert totals(e.page()) == [15 + 13, -14, -8, -4 - 2]
    assert re.search(r'name="chop_new_1" value="yes" checked', e.page("/game/2"))  # a correction keeps it


def test_a_game_by_hand_with_a_chop_the_counts_rule_out_is_refused_naming_the_seat(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    refused = e.refused("/add", out="0", left_1="12", left_2="12", left_3="12",
                        chop_by_0="1", chop_on_0="2", chop_twos_0="2h 2d 2s", chop_by_1="3", chop_on_1="1")
    assert "Chi had played 1 of 13 cards when An went out, so could not have played the chopped 2♠ 2♦ 2♥" in refused
    refused = e.refused("/add", out="0", left_1="12", left_2="5", left_3="5", chop_by_0="1", chop_on_0="2",
                        chop_twos_0="2h")
    assert "Binh had played 1 of 13 cards when An went out, fewer than the 4 cards of a bomb" in refused
    assert version(e.app, e.token) == 0


def _tables(app) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return db.session.query(Game).filter(Game.kind == "tienlen").count()


def test_two_phones_starting_a_table_at_once_start_one_table(any_db_app) -> None:  # type: ignore[no-untyped-def]
    token = start_sheet(any_db_app.test_client())
    results: list[int] = []
    barrier = threading.Barrier(2)

    def phone() -> None:
        c = any_db_app.test_client()
        barrier.wait()
        results.append(c.post(f"/tienlen/scores/g/{token}/tables", data={"leader": "0", "version": "0"}).status_code)

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == [303, 409]
    assert _tables(any_db_app) == 1
    assert version(any_db_app, token) == 1


def test_a_stale_or_refused_start_a_table_leaves_no_table_behind(app, client) -> None:  # type: ignore[no-untyped-def]
    e = Evening(app, client, start_sheet(client, names=("An", "Binh", "Chi")))
    e.post("/add", out="0", left_1="5", left_2="4")
    response = e.post("/tables", seen=0, leader="0")
    assert response.status_code == 409 and _tables(app) == 0
    response = e.post("/tables", leader="0", lowest="9h")
    assert response.status_code == 422 and _tables(app) == 0
    assert "with 39 cards dealt the lowest card dealt is at most 6♣, not 9♥" in text(response)
    e.start_table(leader=0)
    assert _tables(app) == 1


# --- "Score this hand" from a finished table, and the caught 2s and bombs --------------------------


def own_table(client) -> str:  # type: ignore[no-untyped-def]
    """A four-player table started on its own (no sheet), with the keeper's token."""
    r = client.post("/tienlen/new", data={**{f"name{i}": n for i, n in enumerate(NAMES)}, "leader": "1",
                                          "play_on__present": "1"})
    assert r.status_code == 303, text(r)
    return r.headers["Location"].rsplit("/", 1)[1]


def test_score_this_hand_opens_the_hand_on_the_sheet_that_started_the_table(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    table = chop_chain_table(e)
    assert 'data-action="score-hand"' in text(e.client.get(f"/tienlen/g/{table}"))
    response = e.client.post(f"/tienlen/scores/score/{table}/0")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/tienlen/scores/g/{e.token}/table/{e.table_id(table)}/0")


def test_score_this_hand_on_a_table_of_its_own_makes_one_sheet_following_it(app, client) -> None:  # type: ignore[no-untyped-def]
    table = own_table(client)
    e = Evening(app, client, "")
    play_the_chop_chain_hand(e, table)
    first = client.post(f"/tienlen/scores/score/{table}/0")
    again = client.post(f"/tienlen/scores/score/{table}/0")  # sent twice: the same sheet
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    with app.app_context():
        sheets = db.session.scalars(db.select(Game).where(Game.kind == "tienlen_scores")).all()
        assert len(sheets) == 1 and sheets[0].player_names == list(NAMES) and sheets[0].version == 1
        assert sheets[0].rules["play_on"] is False  # the table's own switch
    page = text(client.get(first.headers["Location"]))
    assert "11 cards left" in page and "played no card" in page


def test_score_this_hand_is_the_keepers_and_needs_a_real_table(app, client) -> None:  # type: ignore[no-untyped-def]
    table = own_table(client)
    assert client.post(f"/tienlen/scores/score/{watch_token(app, table)}/0").status_code == 403
    assert client.post("/tienlen/scores/score/no-such-table/0").status_code == 404


def test_only_the_caught_2s_and_bombs_are_tapped_and_checked_against_the_plays(evening) -> None:  # type: ignore[no-untyped-def]
    e = evening
    table = chop_chain_table(e)
    table_id = e.table_id(table)
    before = version(e.app, e.token)
    refused = e.post(f"/table/{table_id}/0", caught_1="2s Kh")
    assert refused.status_code == 422
    assert re.search(r'id="ts-caught-1-error"[^>]*>K♥ is neither a 2 nor part of a bomb', text(refused))
    played = e.post(f"/table/{table_id}/0", caught_1="2h")
    assert "2♥ has already been played: it cannot be caught in Binh's hand" in text(played)
    assert version(e.app, e.token) == before
    headers = {"X-Thirteen-Write": "caught2s01"}
    form = {"caught_1": "2s", "version": str(before)}
    for _ in range(2):  # the answer lost on the way back: sent again, scored once
        response = e.client.post(f"/tienlen/scores/g/{e.token}/table/{table_id}/0", data=form, headers=headers)
        assert response.status_code == 303
    body = e.page()
    assert totals(body) == [48 + 1, -13 - 1, -26, -9]
    assert "Binh was caught holding 2♠: Binh pays An 1" in body
    assert version(e.app, e.token) == before + 1


def test_an_earlier_hand_of_the_table_is_scored_from_its_line_in_the_past_hands(app, client) -> None:  # type: ignore[no-untyped-def]
    table = own_table(client)
    e = Evening(app, client, "")
    play_the_chop_chain_hand(e, table)
    assert client.post(f"/tienlen/g/{table}/next", data={"version": str(version(app, table))}).status_code == 303
    page = text(client.get(f"/tienlen/g/{table}"))
    assert re.search(rf'action="/tienlen/scores/score/{table}/0"[^>]*>\s*<button[^>]*data-hand="1"', page)
    watched = text(client.get(f"/tienlen/g/{watch_token(app, table)}"))
    assert 'data-action="score-hand"' not in watched  # the keeper's only
    response = client.post(f"/tienlen/scores/score/{table}/0")
    assert response.status_code == 303 and response.headers["Location"].endswith("/0")
