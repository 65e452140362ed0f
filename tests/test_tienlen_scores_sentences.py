"""Every payment sentence says what happened, in each language: the right players, cards and numbers.

One test per kind of payment (cards left, frozen, places, caught holding, chopped, bomb on a bomb,
instant win), read in English and through each shipped catalogue.
"""

from __future__ import annotations

import pytest

from referee.cards import Card
from referee.tienlen import Chop
from referee.tienlen_scores import FinishedGame, Payment, ScoreRules, score
from tests.languages import LANGUAGES, read_catalogue

NAMES = ("An", "Binh", "Chi", "Dung")
PLACES = ScoreRules(score_by="places", play_on=True)


def read(payment: Payment, code: str) -> str:
    """The payment's sentence as a table reading ``code`` sees it."""
    sentence = payment.sentence(NAMES)
    if code == "en":
        return str(sentence)
    catalogue = read_catalogue(code)

    def gettext(msgid: str) -> str:
        entry = catalogue.get(msgid)
        assert entry is not None and entry.string, f"{code} does not translate {msgid!r}"
        return str(entry.string)

    return sentence.translate(gettext)


ALL = ("en", *LANGUAGES)


def only(payments: tuple[Payment, ...], item: str) -> list[Payment]:
    return [p for p in payments if p.item == item]


@pytest.mark.parametrize("code", ALL)
def test_places_with_frozen_players_name_the_second_player_as_second_not_last(code: str) -> None:
    # The table: An 1, Binh 2, Chi 3 and Dung 4 both frozen (13 cards left).
    game = FinishedGame(players=4, winner=0, cards_left=(0, 4, 13, 13), order=(0, 1, 2, 3), names=NAMES)
    (place,) = only(score(game, PLACES).payments, "places")
    assert (place.payer, place.payee, place.points) == (1, 0, 2)
    text = read(place, code)
    assert "An" in text and "Binh" in text and "2" in text
    second = {"en": "second", "es": "segundo", "pt": "segundo", "vi": "về nhì"}[code]
    assert second in text
    came_last = Payment(1, 0, 2, "places", place=1).sentence(NAMES)
    assert text != (str(came_last) if code == "en" else came_last.translate(
        lambda t: str(read_catalogue(code)[t].string)))
    if code == "en":
        assert text == "An went out first and Binh came second, the last of the players not frozen: Binh pays An 2"


@pytest.mark.parametrize("code", ALL)
def test_places_with_a_frozen_player_last_say_third(code: str) -> None:
    # An 1, Chi 2 (frozen), Binh 3, Dung 4 (frozen): Binh is the last of those not frozen, third.
    game = FinishedGame(players=4, winner=0, cards_left=(0, 4, 13, 13), order=(0, 2, 1, 3), names=NAMES)
    (place,) = only(score(game, PLACES).payments, "places")
    text = read(place, code)
    assert {"en": "third", "es": "tercero", "pt": "terceiro", "vi": "về ba"}[code] in text
    assert "Binh" in text and "An" in text


@pytest.mark.parametrize("code", ALL)
def test_places_with_the_frozen_player_ahead_still_say_last(code: str) -> None:
    # An 1, Chi 2 (frozen), Dung 3, Binh 4: Binh came last of all.
    game = FinishedGame(players=4, winner=0, cards_left=(0, 4, 13, 3), order=(0, 2, 3, 1), names=NAMES)
    payments = score(game, PLACES).payments
    (place,) = only(payments, "places")
    assert (place.payer, place.payee) == (1, 0)
    text = read(place, code)
    assert {"en": "came last", "es": "último", "pt": "último", "vi": "về bét"}[code] in text
    (frozen,) = only(payments, "frozen")
    frozen_text = read(frozen, code)
    assert "Chi" in frozen_text and "An" in frozen_text and "2 × 2 = 4" in frozen_text


@pytest.mark.parametrize("code", ALL)
def test_places_without_frozen_players_first_from_last_second_from_third(code: str) -> None:
    game = FinishedGame(players=4, winner=2, cards_left=(3, 5, 0, 1), order=(2, 3, 0, 1), names=NAMES)
    first, second = only(score(game, PLACES).payments, "places")
    assert (first.payer, first.payee, second.payer, second.payee) == (1, 2, 0, 3)
    one, two = read(first, code), read(second, code)
    assert one.index("Chi") < one.index("Binh") and one.endswith("2")
    assert two.index("Dung") < two.index("An") and two.endswith("1")


@pytest.mark.parametrize("code", ALL)
def test_cards_left_name_the_loser_the_winner_and_the_count(code: str) -> None:
    game = FinishedGame(players=3, winner=1, cards_left=(1, 0, 7), names=NAMES[:3])
    one, seven = only(score(game).payments, "cards")
    assert "An" in read(one, code) and "1" in read(one, code) and "Binh" in read(one, code)
    assert read(seven, code).count("7") == 2 and "Chi" in read(seven, code)
    if code != "vi":  # Vietnamese has no plural: "1 lá", "7 lá"
        assert read(one, code) != read(seven, code).replace("Chi", "An").replace("7", "1")  # "1 card", not "1 cards"


@pytest.mark.parametrize("code", ALL)
def test_frozen_with_cards_names_the_frozen_player_and_the_sum(code: str) -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 13), names=NAMES[:2])
    (frozen,) = score(game).payments
    text = read(frozen, code)
    assert "Binh" in text and "An" in text and "2 × 13 = 26" in text


@pytest.mark.parametrize("code", ALL)
def test_caught_holding_names_the_twos_and_the_bomb(code: str) -> None:
    game = FinishedGame(players=2, winner=0, cards_left=(0, 6), leftover=(None, "2d 9s 9c 9d 9h 5s"),
                        names=NAMES[:2])
    twos, bomb = only(score(game).payments, "caught")
    assert "2♦" in read(twos, code) and "Binh" in read(twos, code) and read(twos, code).endswith("2")
    assert "9♠ 9♣ 9♦ 9♥" in read(bomb, code) and read(bomb, code).endswith("4")


@pytest.mark.parametrize("code", ALL)
def test_chops_name_the_bomber_the_chopped_player_the_twos_and_what_was_passed_on(code: str) -> None:
    game = FinishedGame(players=4, winner=0, cards_left=(0, 5, 4, 2),
                        chops=((Chop(3, 1, (Card.parse("2h"),)), Chop(0, 3)),), names=NAMES)
    chopped, bombed = only(score(game).payments, "chop")
    one = read(chopped, code)
    assert "Dung" in one and "Binh" in one and "2♥" in one and one.endswith("2")
    two = read(bombed, code)
    assert "An" in two and "Dung" in two and "2 + 2 = 4" in two


@pytest.mark.parametrize("code", ALL)
def test_an_instant_win_names_the_declarer(code: str) -> None:
    game = FinishedGame(players=2, winner=1, cards_left=(13, 0), instant_win=1, names=NAMES[:2])
    (won,) = score(game, ScoreRules(instant_wins=True)).payments
    text = read(won, code)
    assert "Binh" in text and "An" in text and text.endswith("26")


def test_places_from_a_followed_table_with_two_frozen_players_name_the_second_as_second() -> None:
    """The issue's table followed turn by turn (play_on): An out first, Binh second, Chi and Dung
    frozen (they played their first cards after An went out)."""
    from referee.tienlen import Hand, Setup, TienLenRules
    from referee.tienlen_scores import finished_game_from_hand

    h = Hand(Setup(NAMES, TienLenRules(play_on=True)))
    h.play(0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks")
    h.play(1, "4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac")
    for seat in (2, 3, 0):
        h.pass_(seat)
    h.play(1, "3h")
    h.pass_(2)
    h.pass_(3)
    h.play(0, "As")
    h.pass_(1)
    h.play(0, "2h")  # An goes out; Chi and Dung still hold 13 cards
    for seat in (1, 2, 3):
        h.pass_(seat)
    h.play(1, "3d")  # Binh out second
    h.pass_(2)
    h.pass_(3)
    h.play(2, "3c 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad")
    h.pass_(3)
    h.play(2, "2d")  # Chi third, Dung last
    game = finished_game_from_hand(h)
    assert game.order == (0, 1, 2, 3) and game.frozen_seats == (2, 3)
    (place,) = only(score(game, PLACES).payments, "places")
    assert str(place.sentence(game.names)) == (
        "An went out first and Binh came second, the last of the players not frozen: Binh pays An 2")
    assert "về nhì" in read(place, "vi") and "về bét" not in read(place, "vi")


# Issue 27: a frozen player may have played all thirteen cards after the first out (play_on), so
# the sentence says when it was true: by the time the first player went out.
FIRST_OUT = {"en": "had played no card when An went out", "es": "no había jugado ninguna carta cuando An salió",
             "pt": "não tinha jogado nenhuma carta quando An saiu", "vi": "chưa đánh lá nào khi An về nhất"}


@pytest.mark.parametrize("code", ALL)
def test_a_frozen_payment_says_no_card_was_played_by_the_first_out(code: str) -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 13, 13), order=(0, 1, 2), names=NAMES[:3])
    for frozen in score(game, ScoreRules(play_on=True)).payments:
        text = read(frozen, code)
        assert FIRST_OUT[code] in text.replace("Binh", "X").replace("Chi", "X")
        assert "2 × 13 = 26" in text


@pytest.mark.parametrize("code", ALL)
def test_a_two_held_at_the_first_out_and_chopped_after_is_said_caught_and_chopped(code: str) -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 13, 13), caught=(None, "2h", None), names=NAMES[:3],
                        chops=((Chop(2, 1, (Card.parse("2h"),)),),), after_out=((True,),))
    caught, chop = only(score(game, ScoreRules(play_on=True)).payments, "caught") + \
        only(score(game, ScoreRules(play_on=True)).payments, "chop")
    assert "2♥" in read(caught, code) and "Binh" in read(caught, code) and read(caught, code).endswith("2")
    assert "2♥" in read(chop, code) and "Chi" in read(chop, code) and read(chop, code).endswith("2")
