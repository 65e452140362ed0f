"""Settle up and the end of an evening through the web layer: POST /api/settle, a sheet's stake
and currency, the settle-up block in words, the end switches of a Tiến lên evening."""

from __future__ import annotations

import html
import re

import pytest

from referee.web.store import find_by_token

NAMES = ("An", "Binh", "Chi", "Dung")


def text(response) -> str:  # type: ignore[no-untyped-def]
    # Babel puts a no-break space between the amount and the currency sign.
    return html.unescape(response.get_data(as_text=True)).replace("\xa0", " ").replace("\u202f", " ")


def version(app, token) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return find_by_token(token).game.version


def start_sheet(client, names=NAMES, **end) -> str:  # type: ignore[no-untyped-def]
    form = {f"name{i}": n for i, n in enumerate(names)}
    form.update({k: str(v) for k, v in end.items()})
    response = client.post("/tienlen/scores/new", data=form)
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[1]


def post(client, app, token, path, seen=None, headers=None, **form):  # type: ignore[no-untyped-def]
    form["version"] = str(version(app, token) if seen is None else seen)
    return client.post(f"/tienlen/scores/g/{token}{path}", data=form, headers=headers or {})


def add_game(client, app, token, **form):  # type: ignore[no-untyped-def]
    response = post(client, app, token, "/add", **form)
    assert response.status_code == 303, text(response)


def page(client, token, lang="en", game="/tienlen/scores") -> str:  # type: ignore[no-untyped-def]
    """A sheet's or table's page (``game``: where that game's pages are), in ``lang``."""
    response = client.get(f"{game}/g/{token}", headers={"Accept-Language": lang})
    assert response.status_code == 200, text(response)
    return text(response)


# --- POST /api/settle ---------------------------------------------------------------------------


def test_api_settle_answers_the_fewest_transfers(client):
    response = client.post("/api/settle", json={"balances": {"An": 1250, "Binh": -500, "Chi": -750}})
    assert response.status_code == 200
    assert response.get_json() == {"transfers": [{"from": "Chi", "to": "An", "amount": 750},
                                                 {"from": "Binh", "to": "An", "amount": 500}]}


def test_api_settle_uses_the_zero_sum_groups(client):
    balances = {"A": 5, "B": -2, "C": -3, "D": 4, "E": -1, "F": -3}
    transfers = client.post("/api/settle", json={"balances": balances}).get_json()["transfers"]
    assert len(transfers) == 4
    left = dict(balances)
    for t in transfers:
        left[t["from"]] += t["amount"]
        left[t["to"]] -= t["amount"]
    assert not any(left.values())


def test_api_settle_refuses_balances_not_adding_to_zero(client):
    response = client.post("/api/settle", json={"balances": {"An": 10, "Binh": -4}},
                           headers={"Accept-Language": "es"})
    body = response.get_json()
    assert response.status_code == 422  # the document allows the body: its facts cannot be
    assert body["error"] == "the balances add up to 6, not 0"
    assert body["reason_code"] == "the balances add up to {total}, not 0" and body["params"] == {"total": 6}
    assert body["field"] == "balances" and body["error_localized"] != body["error"]


@pytest.mark.parametrize("amount", [2.5, "2", True, None, [2]])
def test_api_settle_refuses_an_amount_that_is_not_a_whole_number(client, amount):
    response = client.post("/api/settle", json={"balances": {"An": amount, "Binh": -2}})
    assert response.status_code == 400
    error = response.get_json()["error"]  # a null is the schema's to say (issue 29), the rest the settle-up's
    assert ("An's balance" in error and "whole number" in error) or ("'balances/An'" in error and "integer" in error)


@pytest.mark.parametrize("body, says", [
    ({"balances": {"": 0}}, "is not a player's name"),
    ({"balances": {"   ": 0}}, "is not a player's name"),
    ({"balances": {"x" * 81: 0}}, "longer than 80"),
    ({"balances": [1, -1]}, "must be an object"),
    ({}, "is missing"),
    ({"balances": {}, "stake": 3}, "unknown field"),
    ({"balances": {"An": 10**16, "Binh": -(10**16)}}, "more than"),
    ({"balances": {f"P{i}": 0 for i in range(17)}}, "more than one settle-up takes"),
])
def test_api_settle_names_the_mistake(client, body, says):
    response = client.post("/api/settle", json=body)
    assert response.status_code == 400 and says in response.get_json()["error"]


def test_api_settle_is_in_the_openapi_document(client):
    doc = client.get("/api/openapi.json").get_json()
    op = doc["paths"]["/api/settle"]["post"]
    assert "400" in op["responses"]
    assert op["requestBody"]["content"]["application/json"]["example"]["balances"]["An"] == 1250


# --- the stake on a sheet -------------------------------------------------------------------------


def test_a_sheet_without_a_stake_has_no_settle_up(client):
    token = start_sheet(client)
    add_game(client, client.application, token, out="0", left_1="5", left_2="3", left_3="2")
    assert 'class="settle-up"' not in page(client, token)


def test_the_stake_gives_balances_and_the_fewest_transfers_in_words(client, app):
    token = start_sheet(client)
    add_game(client, app, token, out="0", left_1="5", left_2="3", left_3="2")  # An +10, B −5, C −3, D −2
    response = post(client, app, token, "/money", stake="1000", currency="VND")
    assert response.status_code == 303
    body = page(client, token)
    assert "An is owed ₫10,000" in body and "Binh owes ₫5,000" in body
    assert "Binh pays An ₫5,000" in body and "Chi pays An ₫3,000" in body and "Dung pays An ₫2,000" in body
    assert "₫1,000 a point" in body and "3 payments settle it" in body


@pytest.mark.parametrize("lang, says", [
    ("es", "Binh paga a An 5.000,00 €"),
    ("pt", "Binh paga R$ 50,00 a An"),
    ("vi", "Binh trả An 5.000 ₫"),
])
def test_the_settle_up_is_said_in_the_readers_language_and_locale(client, app, lang, says):
    token = start_sheet(client)
    add_game(client, app, token, out="0", left_1="5", left_2="3", left_3="2")
    currency, stake = {"es": ("EUR", "1000"), "pt": ("BRL", "10"), "vi": ("VND", "1000")}[lang]
    assert post(client, app, token, "/money", stake=stake, currency=currency).status_code == 303
    assert says in page(client, token, lang)


def test_a_stake_in_cents_is_read_in_the_readers_locale(client, app):
    token = start_sheet(client, names=("An", "Binh"))
    add_game(client, app, token, out="0", left_1="1")
    response = post(client, app, token, "/money", stake="0,50", currency="BRL", headers={"Accept-Language": "pt"})
    assert response.status_code == 303
    assert "Binh paga R$ 0,50 a An" in page(client, token, "pt")


@pytest.mark.parametrize("stake, currency, says", [
    ("abc", "VND", "is not an amount of money"),
    ("0.5", "VND", "has no amount smaller than"),
    ("0.001", "USD", "has no amount smaller than"),
    ("-5", "USD", "between nothing and"),
    ("5", "XYZ", "Choose a currency"),
    # an exponent no stake has: refused at once (it was a 500, decimal.Overflow, or a minute of
    # work building a million-digit number: the review of the offline stake)
    ("1e999999", "USD", "between nothing and"),
    ("1e999997", "USD", "between nothing and"),
    ("1e999999", "VND", "between nothing and"),
])
def test_a_bad_stake_is_refused_with_what_was_typed_kept(client, app, stake, currency, says):
    token = start_sheet(client)
    response = post(client, app, token, "/money", stake=stake, currency=currency)
    assert response.status_code == 422
    body = text(response)
    assert says in body and f'value="{stake}"' in body


def test_the_stake_is_keeper_only(client, app):
    token = start_sheet(client)
    with app.app_context():
        watch = find_by_token(token).game.watch_token
    response = client.post(f"/tienlen/scores/g/{watch}/money",
                           data={"stake": "5", "currency": "USD", "version": str(version(app, token))})
    assert response.status_code == 403


def test_a_stale_stake_is_a_409_keeping_what_was_typed(client, app):
    token = start_sheet(client, names=("An", "Binh"))
    seen = version(app, token)
    add_game(client, app, token, out="0", left_1="1")
    response = post(client, app, token, "/money", seen=seen, stake="777", currency="USD")
    assert response.status_code == 409 and 'value="777"' in text(response)


def test_a_stake_sent_twice_is_applied_once(client, app):
    token = start_sheet(client)
    seen = version(app, token)
    headers = {"X-Thirteen-Write": "stake0000001"}
    first = post(client, app, token, "/money", seen=seen, headers=headers, stake="5", currency="USD")
    again = post(client, app, token, "/money", seen=seen, headers=headers, stake="5", currency="USD")
    assert first.status_code == again.status_code == 303
    assert version(app, token) == seen + 1


def test_the_stake_is_undone_by_name_and_does_not_touch_the_games(client, app):
    token = start_sheet(client, names=("An", "Binh"))
    add_game(client, app, token, out="0", left_1="4")
    post(client, app, token, "/money", stake="2", currency="USD")
    body = page(client, token)
    assert "Undo: Stake changed" in body and "Binh pays An $8.00" in body
    assert post(client, app, token, "/undo").status_code == 303
    body = page(client, token)
    assert 'class="settle-up"' not in body and 'data-total="0">+4<' in body


# --- the end of the evening ----------------------------------------------------------------------


def test_a_new_evening_keeps_its_end_switches(client, app):
    token = start_sheet(client, names=("An", "Binh"), games="3")
    body = page(client, token)
    assert "3 games left" in body
    add_game(client, app, token, out="0", left_1="1")
    assert "2 games left" in page(client, token)


def test_a_bad_end_switch_on_the_new_evening_form_is_refused_with_the_names_kept(client):
    form = {"name0": "An", "name1": "Binh", "until": "25:99", "games": "4"}
    response = client.post("/tienlen/scores/new", data=form)
    assert response.status_code == 422
    body = text(response)
    assert "is not a clock time" in body and 'value="An"' in body and 'value="4"' in body


def test_the_evening_ends_at_its_games_with_the_winner_and_the_settle_up(client, app):
    token = start_sheet(client, games="2")
    post(client, app, token, "/money", stake="1000", currency="VND")
    add_game(client, app, token, out="0", left_1="5", left_2="3", left_3="2")
    add_game(client, app, token, out="1", left_0="1", left_2="1", left_3="1")
    body = page(client, token)
    assert "the evening is over: 2 games played" in body.lower()
    assert "An won the evening." in body
    assert 'data-state="final"' in body and "Binh pays An ₫2,000" in body


def test_a_game_past_the_end_is_allowed_but_said_and_left_out_of_the_result(client, app):
    token = start_sheet(client, names=("An", "Binh"), games="1")
    post(client, app, token, "/money", stake="1", currency="VND")
    add_game(client, app, token, out="0", left_1="5")
    add_game(client, app, token, out="1", left_0="2")  # allowed after the end
    body = page(client, token)
    assert 'data-state="past-end"' in body
    assert "1 game was played past the end; it is not in the result." in body
    assert "Binh pays An ₫5" in body and 'data-total="0">+3<' in body  # the sheet counts every game


def test_the_target_says_how_far_and_ends_the_evening(client, app):
    token = start_sheet(client, names=("An", "Binh"), target="10")
    add_game(client, app, token, out="0", left_1="6")
    assert "An is 4 points from the target" in page(client, token)
    add_game(client, app, token, out="0", left_1="5")
    body = page(client, token)
    assert "reached the target of 10 points" in body and "An won the evening." in body


def test_the_end_switches_change_on_the_sheet_keeper_only_versioned(client, app):
    token = start_sheet(client)
    response = post(client, app, token, "/end", target="", games="5", until="", utc_offset="420")
    assert response.status_code == 303
    assert "5 games left" in page(client, token)
    response = post(client, app, token, "/end", games="-2")
    assert response.status_code == 422 and 'value="-2"' in text(response)
    assert post(client, app, token, "/end", seen=0, games="3").status_code == 409


def test_until_on_the_sheet_says_the_game_being_played_at_that_time_is_the_last(client, app):
    token = start_sheet(client, until="23:59", utc_offset="0")
    body = page(client, token)
    assert re.search(r"the evening ends with the game being played at 23:59|the game being played at 23:59 is the last",
                     body)


@pytest.mark.parametrize("lang, words", [
    ("es", "Quedan 3 partidas"),
    ("pt", "Faltam 3 jogos"),
    ("vi", "Còn 3 ván"),
])
def test_how_far_to_go_is_said_in_the_readers_language(client, lang, words):
    token = start_sheet(client, games="3")
    assert words in page(client, token, lang)


# --- the stake on a Three Thirteen sheet -------------------------------------------------------


def three_thirteen_sheet(client, names=("An", "Binh", "Chi")) -> str:  # type: ignore[no-untyped-def]
    response = client.post("/three-thirteen/new", data={"names": list(names) + [""] * (8 - len(names)), "dealer": "0"})
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[-1]


def three_thirteen_round(client, app, token, number, points) -> None:  # type: ignore[no-untyped-def]
    data = {"version": str(version(app, token)), "out": ["0"], "cards_0": "A♥ 2♥ 3♥", "points_0": ""}  # one run
    for seat, value in enumerate(points[1:], start=1):
        data[f"cards_{seat}"] = ""
        data[f"points_{seat}"] = str(value)
    response = client.post(f"/three-thirteen/g/{token}/round/{number}", data=data)
    assert response.status_code == 303, text(response)


def three_thirteen_money(client, app, token, **form):  # type: ignore[no-untyped-def]
    form["version"] = str(version(app, token))
    return client.post(f"/three-thirteen/g/{token}/money", data=form)


def test_three_thirteen_winner_is_paid_the_difference_times_the_stake(client, app):
    token = three_thirteen_sheet(client)
    three_thirteen_round(client, app, token, 1, [0, 7, 12])
    assert three_thirteen_money(client, app, token, stake="0.50", currency="USD", settle="winner").status_code == 303
    body = page(client, token, game="/three-thirteen")
    # Binh pays An 7 × 0.50, Chi pays An 12 × 0.50.
    assert "Chi pays An $6.00" in body and "Binh pays An $3.50" in body
    assert "$0.50 a point" in body and "Undo: Stake changed" in body


def test_three_thirteen_each_pair_squares_the_difference(client, app):
    token = three_thirteen_sheet(client)
    three_thirteen_round(client, app, token, 1, [0, 7, 12])
    assert three_thirteen_money(client, app, token, stake="1", currency="USD", settle="each").status_code == 303
    body = page(client, token, game="/three-thirteen")
    # An +7 +12 = 19; Binh −7 +5 = −2; Chi −12 −5 = −17.
    assert "An is owed $19.00" in body and "Binh owes $2.00" in body and "Chi owes $17.00" in body
    assert 'value="each" selected' in body


def test_three_thirteen_settle_switch_takes_only_its_choices(client, app):
    token = three_thirteen_sheet(client)
    response = three_thirteen_money(client, app, token, stake="1", currency="USD", settle="split")
    assert response.status_code == 422 and "Choose how the stake is paid" in text(response)


def test_the_next_game_past_the_end_says_so_on_its_form(client, app):
    token = start_sheet(client, names=("An", "Binh"), games="1")
    add = client.get(f"/tienlen/scores/g/{token}/add")
    assert 'data-state="past-end"' not in text(add)
    add_game(client, app, token, out="0", left_1="5")
    add = client.get(f"/tienlen/scores/g/{token}/add")
    assert add.status_code == 200 and "this game is past its end" in text(add)


# --- the stake on a Trece table (per game won) ---------------------------------------------------

# A whole Trece game on the default deal (dealer Ana, Q♥ turned), Ben winning: (action, form).
TRECE_GAME = [
    ("play", "K♥ RJ"), ("draw", ""), ("draw", ""), ("draw", ""), ("play", "5♥"), ("play", "6♥"),
    ("play", "7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♣ 2♣ 3♣"), ("thirteen", "0"), ("play", "4♣"),
    ("play", "5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♦ 2♦ 3♦ 4♦"), ("last_card", "1"), ("play", "5♦"), ("play", "6♦"),
]


def trece_table(client) -> str:  # type: ignore[no-untyped-def]
    response = client.post("/trece/new", data={"name0": "Ana", "name1": "Ben", "dealer": "0", "turned_rank": "Q",
                                               "turned_suit": "♥", "run_after_joker__present": "1"})
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[1]


def trece_act(client, app, token, action, value) -> None:  # type: ignore[no-untyped-def]
    form = {"action": action, "version": str(version(app, token))}
    if action == "play":
        form["cards"] = value
    elif value:
        form["player"] = value
    response = client.post(f"/trece/g/{token}/act", data=form)
    assert response.status_code == 303, text(response)


def test_a_trece_table_played_for_a_stake_has_the_loser_pay_the_winner(client, app):
    token = trece_table(client)
    response = client.post(f"/trece/g/{token}/money", data={"stake": "2,50", "currency": "EUR",
                                                          "version": str(version(app, token))},
                           headers={"Accept-Language": "es"})
    assert response.status_code == 303
    body = page(client, token, game="/trece")
    assert "Undo: Stake changed" in body and 'class="settle-up"' not in body  # nobody has won yet
    for action, value in TRECE_GAME:  # the stake is no move: the game goes on as before
        trece_act(client, app, token, action, value)
    body = page(client, token, game="/trece")
    assert "Ben has no cards left and wins!" in body
    assert "Ana pays Ben €2.50" in body and "€2.50 a game won" in body
    es = text(client.get(f"/trece/g/{token}", headers={"Accept-Language": "es"}))
    assert "Ana paga a Ben 2,50 €" in es


def test_undoing_a_trece_stake_takes_back_the_stake_not_the_last_move(client, app):
    token = trece_table(client)
    trece_act(client, app, token, "play", "K♥ RJ")
    client.post(f"/trece/g/{token}/money", data={"stake": "1", "currency": "USD", "version": str(version(app, token))})
    response = client.post(f"/trece/g/{token}/undo", data={"version": str(version(app, token))})
    assert response.status_code == 303
    body = page(client, token, game="/trece")
    assert "Undo: Ben played K♥ RJ" in body and 'class="settle-up"' not in body
    assert 'data-count="11"' in body  # Ben's run is still on the table


@pytest.mark.parametrize("lang, typed, currency, amount", [
    ("vi", "1.000", "VND", 1000),  # a thousand in Vietnamese, one in English
    ("pt", "2,50", "BRL", 250),  # two and a half in Portuguese, 250 in English
])
def test_a_stake_is_read_in_the_language_its_form_was_drawn_in(client, app, lang, typed, currency, amount):
    """A stake kept on a phone and sent later (by then the phone may speak another language, or
    show a page of another) is read with the numbers of the form it was typed in (its ``lang``),
    not the reader's at the time it arrives."""
    from referee.web.settle_up import money_of

    token = start_sheet(client, names=("An", "Binh"))
    assert f'name="lang" value="{lang}"' in page(client, token, lang)
    response = post(client, app, token, "/money", stake=typed, currency=currency, lang=lang,
                    headers={"Accept-Language": "en"})
    assert response.status_code == 303, text(response)
    with app.app_context():
        stake = money_of(find_by_token(token).game)
    assert (stake.amount, stake.currency) == (amount, currency)
