"""Tiến lên scores, round three (issue 27): one account of the moment the first player went out.

RULES.md, "Tiến lên scores", the paragraph after "every count must agree": with ``play_on``
the first out is the moment that counts for items 1–3; a 2 held then and chopped later counts
twice; the counts are checked from the same facts whether or not the order is typed; a caught
bomb may be any double sequence of three or more pairs; a card entered twice is a sentence.
"""

from __future__ import annotations

import pytest

from referee.cards import Card, parse_cards
from referee.tienlen import Chop, Hand, Setup, TienLenRules
from referee.tienlen_scores import (
    CardsLeftError,
    CardTwiceError,
    ChopChainError,
    FinishedGame,
    PlayedCardError,
    ScoreRules,
    finished_game_from_hand,
    score,
)

NAMES = ("An", "Bao", "Chi")
PLAY_ON = ScoreRules(play_on=True)
# Bao's thirteen cards when An went out: the 2♥ (played and chopped later), no bomb.
BAO = "2h 3c 3d 4h 5h 6h 8d 9h 10d Jh Qd Kh Ad"


def twos(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))  # type: ignore[arg-type]


def issue_hand() -> Hand:
    """The issue's hand: An plays 3♠…A♠, Bao and Chi pass, An plays 2♣ and is out; Bao plays
    2♥, Chi bombs it with 5♣5♦6♣6♦7♣7♦ and goes out later."""
    hand = Hand(Setup(NAMES, TienLenRules(play_on=True), leader=0))
    hand.play(0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    hand.pass_(1)
    hand.pass_(2)
    hand.play(0, "2c")
    hand.play(1, "2h")
    hand.play(2, "5c 5d 6c 6d 7c 7d")
    hand.pass_(1)
    hand.play(2, "8c 9c 10c Jc Qc Kc Ac")
    assert hand.over
    return hand


def test_a_two_held_at_the_first_out_and_chopped_after_counts_caught_and_chopped_in_a_followed_game() -> None:
    hand = issue_hand()
    with_leftover = finished_game_from_hand(hand, [None, BAO, None])
    with_caught = finished_game_from_hand(hand, caught=[None, "2h", None])
    assert score(with_leftover, PLAY_ON).points == (54, -30, -24)
    assert score(with_caught, PLAY_ON).points == (54, -30, -24)
    lines = [str(p.sentence(NAMES)) for p in score(with_caught, PLAY_ON).payments]
    assert "Bao was caught holding 2♥: Bao pays An 2" in lines
    assert "Chi chopped Bao's 2♥: Bao pays Chi 2" in lines


def test_the_followed_hand_marks_the_bomb_that_fell_after_the_first_out() -> None:
    game = finished_game_from_hand(issue_hand())
    assert game.after_out == ((True,),)
    assert game.to_dict()["chops"] == [[{"by": 2, "from": 1, "twos": "2♥", "after_out": True}]]


def test_a_leftover_or_caught_hand_without_the_two_played_after_the_first_out_is_refused_saying_so() -> None:
    hand = issue_hand()
    with pytest.raises(PlayedCardError, match="^Bao played 2♥ after An went out, so it is among Bao's leftover cards$"):
        finished_game_from_hand(hand, [None, BAO.replace("2h", "Qh"), None])
    with pytest.raises(PlayedCardError, match="^Bao played 2♥ after An went out, so it is among Bao's caught cards$"):
        finished_game_from_hand(hand, caught=[None, "2s", None])


def test_the_same_game_typed_by_hand_with_or_without_the_order_scores_the_same() -> None:
    chop = ((Chop(2, 1, twos("2h")),),)
    for order in (None, (0, 2, 1)):
        for entered in ({"leftover": (None, BAO, None)}, {"caught": (None, "2h", None)}):
            game = FinishedGame(players=3, winner=0, cards_left=(0, 13, 13), order=order, chops=chop,
                                after_out=((True,),), names=NAMES, **entered)  # type: ignore[arg-type]
            assert score(game, PLAY_ON).points == (54, -30, -24)


def test_the_same_game_through_the_json_body_scores_the_same() -> None:
    body = {"players": 3, "winner": 0, "cards_left": [0, 13, 13], "caught": [None, "2h", None],
            "chops": [[{"by": 2, "from": 1, "twos": "2h", "after_out": True}]]}
    assert score(FinishedGame.from_dict(body), PLAY_ON).points == (54, -30, -24)
    assert score(FinishedGame.from_dict({**body, "order": [0, 2, 1]}), PLAY_ON).points == (54, -30, -24)


def test_a_frozen_seat_that_bombed_after_the_first_out_is_accepted_without_the_order() -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 13, 13), chops=((Chop(2, 1, twos("2h")),),),
                        after_out=((True,),), names=NAMES)
    assert score(game, PLAY_ON).points == (52, -28, -24)


def test_a_frozen_seat_was_in_no_chop_before_the_first_out() -> None:
    with pytest.raises(ChopChainError, match="^Chi had played no card when An went out, so was in no chop until then$"):
        FinishedGame(players=3, winner=0, cards_left=(0, 12, 13), chops=((Chop(2, 1, twos("2h")),),), names=NAMES)


@pytest.mark.parametrize("order", [None, [0, 1]])
def test_the_counts_are_checked_the_same_whether_or_not_the_order_is_typed(order) -> None:  # type: ignore[no-untyped-def]
    body = {"players": 2, "winner": 0, "cards_left": [0, 12], "order": order,
            "chops": [[{"by": 1, "from": 0, "twos": "2h"}]]}
    with pytest.raises(ChopChainError, match="^seat 1 had played 1 of 13 cards when seat 0 went out, fewer than "
                                             "the 4 cards of a bomb$"):
        FinishedGame.from_dict(body)


@pytest.mark.parametrize("order", [None, (0, 1, 2)])
def test_a_winner_is_never_credited_more_than_thirteen_cards(order) -> None:  # type: ignore[no-untyped-def]
    chains = tuple((Chop(0, 1 + i % 2, twos(two)),) for i, two in enumerate(("2h", "2d", "2c", "2s")))
    with pytest.raises(ChopChainError, match="^An had played 13 of 13 cards when An went out, fewer than the 16 "):
        FinishedGame(players=3, winner=0, cards_left=(0, 9, 9), order=order, chops=chains, names=NAMES)


def test_with_two_players_no_bomb_falls_after_the_first_out() -> None:
    with pytest.raises(ChopChainError, match="^with two players the hand is over when An goes out"):
        FinishedGame(players=2, winner=0, cards_left=(0, 12), order=(0, 1), chops=((Chop(1, 0, twos("2h")),),),
                     after_out=((True,),), names=NAMES[:2])


def test_a_bomb_after_the_first_out_needs_play_on() -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 13, 13), chops=((Chop(2, 1, twos("2h")),),),
                        after_out=((True,),), names=NAMES)
    with pytest.raises(ChopChainError, match="play_on is off"):
        score(game)


def test_the_first_out_bombs_nothing_after_going_out() -> None:
    with pytest.raises(ChopChainError, match="^An went out, so bombed nothing after going out$"):
        FinishedGame(players=3, winner=0, cards_left=(0, 12, 13), chops=((Chop(0, 1, twos("2h")),),),
                     after_out=((True,),), names=NAMES)


def test_the_first_outs_last_two_may_be_chopped_after_the_out() -> None:
    game = FinishedGame(players=3, winner=0, cards_left=(0, 12, 13), chops=((Chop(1, 0, twos("2c")),),),
                        after_out=((True,),), names=NAMES)
    assert score(game, PLAY_ON).points == (12 + 26 - 1, -12 + 1, -26)


def test_a_two_chopped_before_the_first_out_is_not_in_a_hand_entered_then() -> None:
    with pytest.raises(CardTwiceError, match="^2♥ was chopped before An went out, so it is not among Bao's leftover"):
        FinishedGame(players=3, winner=0, cards_left=(0, 2, 8), leftover=(None, "2h 3c", None),
                     chops=((Chop(2, 1, twos("2h")),),), names=NAMES)


@pytest.mark.parametrize(("cards", "bombs"), [
    ("3c 3d 4c 4d 5c 5d 6c 6d", 1),
    ("3c 3d 4c 4d 5c 5d 6c 6d 7c 7d", 1),
    ("3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c 8d", 2),
    ("3c 3d 4c 4d 5c 5d 6c 6d 9s 9c 9d 9h", 2),
])
def test_a_caught_double_sequence_of_any_length_is_a_bomb_scored_like_the_named_hand(cards, bombs) -> None:  # type: ignore[no-untyped-def]
    filler = list(parse_cards("Ks Ah Qh Jh 10h"))[: 13 - len(parse_cards(cards))]
    hand = cards + " " + " ".join(str(c) for c in filler)
    caught = FinishedGame(players=2, winner=0, cards_left=(0, 13), caught=(None, cards))
    named = FinishedGame(players=2, winner=0, cards_left=(0, 13), leftover=(None, hand))
    assert score(caught).points == score(named).points == (26 + 4 * bombs, -26 - 4 * bombs)


def test_seven_pairs_in_a_row_cannot_be_caught_in_a_hand_of_thirteen() -> None:
    with pytest.raises(CardsLeftError, match="^seat 1 has 13 cards left, so 14 caught cards cannot be in the hand$"):
        FinishedGame(players=2, winner=0, cards_left=(0, 13), caught=(None, "3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c 8d 9c 9d"))


def test_a_caught_card_outside_the_bombs_is_still_named() -> None:
    # 5♥ could be in the double sequence (with 5♣ or 5♦), so it is not "part of no bomb": it is
    # the one card too many (issue 27 audit: a refusal says only what is true of the cards)
    with pytest.raises(CardsLeftError, match="^5♥ is one card too many: the other caught cards are bombs without it"):
        FinishedGame(players=2, winner=0, cards_left=(0, 13), caught=(None, "3c 3d 4c 4d 5c 5d 5h"))
    with pytest.raises(CardsLeftError, match="^9♥ is neither a 2 nor part of a bomb"):
        FinishedGame(players=2, winner=0, cards_left=(0, 13), caught=(None, "3c 3d 4c 4d 5c 5d 9h"))


def test_a_caught_card_typed_twice_is_refused_with_a_sentence() -> None:
    with pytest.raises(CardTwiceError, match="^2♠ is given twice$"):
        FinishedGame(players=2, winner=0, cards_left=(0, 5), caught=(None, "2s 2s"))
    with pytest.raises(CardTwiceError, match="^2♠ is given twice$"):
        finished_game_from_hand(issue_hand(), caught=[None, "2s 2s", None])


def test_a_bomb_on_a_bomb_that_fell_after_the_first_out_fell_after_it_too() -> None:
    with pytest.raises(ChopChainError, match="^Chi bombed after An went out, so Bao's bomb on it came after too$"):
        FinishedGame(players=3, winner=0, cards_left=(0, 5, 13), chops=((Chop(2, 1, twos("2h")), Chop(1, 2)),),
                     after_out=((True, False),), names=NAMES)


def test_a_bomb_after_the_out_on_a_bomb_from_before_is_on_the_first_outs_last_play() -> None:
    with pytest.raises(ChopChainError, match="^Bao bombed before An went out, so Chi's bomb on it came before too$"):
        FinishedGame(players=3, winner=0, cards_left=(0, 5, 13), chops=((Chop(1, 0, twos("2h")), Chop(2, 1)),),
                     after_out=((False, True),), names=NAMES)
    game = FinishedGame(players=3, winner=0, cards_left=(0, 5, 13), chops=((Chop(0, 1, twos("2h")), Chop(1, 0)),),
                        after_out=((False, True),), names=NAMES)  # An went out bombing Bao's 2♥; Bao bombed back
    assert score(game, PLAY_ON).points == (5 + 26 + 2 - 4, -5 - 2 + 4, -26)
