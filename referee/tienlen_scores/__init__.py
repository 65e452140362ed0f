"""Tiến lên scores: what one finished game is worth, as payments between players.

A table that plays for points keeps a zero-sum sheet: every item of RULES.md
("Tiến lên scores") is a :class:`Payment` from one seat to another, so the
points always add up to zero.  :func:`score` takes the facts of a finished game
(:class:`FinishedGame`: the winner or finishing order, cards left, leftover
cards, who was frozen, the chop chains, an instant win) and the amounts
(:class:`ScoreRules`, field names = the switch ids of RULES.md).

The worked example of RULES.md: B led 2♥, D bombed it with three pairs, A
bombed D with higher three pairs; later A went out; B held 5 cards, C had
played nothing, D held 2.

>>> game = FinishedGame(
...     players=4, winner=0, cards_left=(0, 5, 13, 2),
...     leftover=(None, "2d 7d 8d 9c 9s", "2s 3c 4d 5h 6s 7c 8h 9h 10s Jc Qd Kh Ah", None),
...     chops=((Chop(3, 1, (Card.parse("2h"),)), Chop(0, 3)),),
...     names=("A", "B", "C", "D"))
>>> result = score(game)
>>> result.points
(40, -9, -27, -4)
>>> for payment in result.payments:
...     print(payment.sentence(game.names))
B had 5 cards left: B pays A 5
C had played no card when A went out: C pays A 2 × 13 = 26
D had 2 cards left: D pays A 2
B was caught holding 2♦: B pays A 2
C was caught holding 2♠: C pays A 1
D chopped B's 2♥: B pays D 2
A bombed D's bomb: D pays A 2 + 2 = 4

Decisions where RULES.md is thin (each is tested):

* A bomb beating a bomb is "chồng" whatever the first bomb was played on: a
  trick's chain may start with a bomb on a bomb (``twos`` empty).
* ``frozen`` is a multiplier from 1 to 10; a seat may be frozen only with all
  13 cards left (the default: frozen exactly then).  The other amounts are
  whole points from 0 to 1000; a payment of 0 points is left out.
* ``score_by: places`` needs ``play_on`` (RULES.md: it needs the finishing order).
* Caught holding: one payment for a loser's 2s, one per bomb.
* A frozen seat was in no chop before the first player went out; with ``play_on`` it
  may have bombed (or been chopped) after, a bomb marked ``after_out``.
* A caught hand's cards other than 2s must be bombs however they lie (four of a kind,
  double sequences of three or more pairs); they are counted as the most disjoint bombs.

The package, one idea per module: :mod:`~referee.tienlen_scores.rules` (the amounts),
:mod:`~referee.tienlen_scores.errors`, :mod:`~referee.tienlen_scores.reading` (cards and
JSON fields), :mod:`~referee.tienlen_scores.facts` (:class:`FinishedGame`: the one
account of the first out), :mod:`~referee.tienlen_scores.chops` (every chop and its
moment), :mod:`~referee.tienlen_scores.bombs`, :mod:`~referee.tienlen_scores.payments`
(:func:`score`) and :mod:`~referee.tienlen_scores.followed` (a followed hand's facts).
"""

from __future__ import annotations

from referee.cards import Card
from referee.tienlen import Chop
from referee.tienlen_scores.bombs import bombs_in, count_bombs, smallest_bomb, splits_into_bombs
from referee.tienlen_scores.errors import (
    CardsLeftError,
    CardTwiceError,
    ChopChainError,
    InstantWinError,
    NoSuchSeatError,
    OrderError,
    PlayedCardError,
    ScoreError,
    ScoreInputError,
)
from referee.tienlen_scores.facts import FinishedGame
from referee.tienlen_scores.followed import finished_game_from_hand
from referee.tienlen_scores.payments import Payment, Score, score
from referee.tienlen_scores.reading import check_players
from referee.tienlen_scores.rules import DEFAULT_SCORE_RULES, HAND_SIZE, ITEMS, ScoreRules, ScoreSwitchError

__all__ = [
    "HAND_SIZE",
    "ITEMS",
    "ScoreRules",
    "DEFAULT_SCORE_RULES",
    "ScoreSwitchError",
    "ScoreError",
    "ScoreInputError",
    "NoSuchSeatError",
    "CardsLeftError",
    "CardTwiceError",
    "PlayedCardError",
    "ChopChainError",
    "OrderError",
    "InstantWinError",
    "Chop",
    "FinishedGame",
    "Payment",
    "Score",
    "score",
    "bombs_in",
    "count_bombs",
    "smallest_bomb",
    "splits_into_bombs",
    "check_players",
    "finished_game_from_hand",
]

# The errors answer to the package's name (they print as before, and their doctests read the
# same): which module raises each is a detail of the package's layout.
for _public in (ScoreSwitchError, ScoreError, ScoreInputError, NoSuchSeatError, CardsLeftError,
                CardTwiceError, PlayedCardError, ChopChainError, OrderError, InstantWinError):
    _public.__module__ = __name__
del _public
_ = Card  # the worked example's notation
