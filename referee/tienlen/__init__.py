"""Tiến lên (Thirteen): card order, combinations, verdicts and the hand's state machine.

One idea a module: :mod:`~referee.tienlen.combinations` (the card order, what a set of
cards is), :mod:`~referee.tienlen.rules` (the house rules), :mod:`~referee.tienlen.verdicts`
(whether a play beats the table), :mod:`~referee.tienlen.actions` (a hand's setup, records
and errors) and :mod:`~referee.tienlen.hand` (the hand's and the game's state machines);
every public name is here too.

Cards rank ``3 4 5 6 7 8 9 10 J Q K A 2`` (the 2 is the highest) and, on equal
rank, by suit ``♠ < ♣ < ♦ < ♥``.  A play must be the same kind and size as the
combination on the table with a higher highest card; the only plays that beat a
different kind are the bombs on 2s.

>>> str(check("♣5♥5", "♦5♠5").reason)
'the highest card decides: 5♥ is higher than 5♦'
>>> check("♣5♥6♦7", "♦5♦6♣7").legal
True
>>> v = check("3s 3h 4s 4h 5c 5d", "2h")
>>> v.legal, v.bomb, str(v.reason)
(True, True, 'a double sequence of 3 pairs bombs a single 2')
>>> str(check("8s", "8h").reason)
'8♠ is lower than 8♥'
>>> str(check("4s 5s 6s 7s", "3h 4h 5h").reason)
'a sequence must be beaten by a sequence of the same length: 4 cards on 3'

Decisions where the sheets are thin (each is tested):

* ``twos_in_sequences`` lets a 2 end a *sequence* (``Q K A 2``), never wrap
  (``K A 2 3`` is refused).  It does not apply to double sequences: RULES.md
  says "no 2" for both kinds and the switch names the sequence only, so a
  double sequence never holds a 2 (``K K A A 2 2`` stays refused).
* Beating a bomb: a four of a kind is beaten by a higher four of a kind, a
  double sequence only by a double sequence of the same number of pairs with a
  higher top (the ordinary same-kind rule).  A 4-pair double sequence does not
  beat a 3-pair one.  This holds whether or not the bomb was played on a 2:
  a verdict looks at the two combinations only.
* ``quad_beats_three_pairs``: any four of a kind beats a double sequence of
  exactly 3 pairs (whatever it was played on).  ``four_pairs_beat_quad``: a
  double sequence of 4 *or more* pairs beats any four of a kind, except four
  2s: nothing ever beats four 2s.
* ``quad_beats_pair_of_twos``: any four of a kind beats a pair of 2s.
* ``bomb_after_pass``: a player who passed and then bombs a 2 is back in the
  trick (no longer locked), so they may answer a counter-bomb.
* :attr:`Verdict.bomb` is true exactly when a legal play beats a *different
  kind* (a bomb row of RULES.md or one of the bomb switches).  A higher four of
  a kind on a four of a kind is legal by the same-kind rule, so ``bomb`` is
  false there, though :attr:`Combination.is_bomb` is true for both.
"""

from __future__ import annotations

from referee.cards import NotationError, TooManyCopiesError
from referee.switches import SwitchError
from referee.tienlen.actions import (
    INSTANT_WIN_NAMES,
    RECORDS,
    Action,
    ActionError,
    CardAlreadyPlayedError,
    CardNotDealtError,
    Chop,
    HandOverError,
    IllegalPlayError,
    InstantWinAction,
    InstantWinKind,
    NextHandAction,
    NotYourTurnError,
    PassAction,
    PlayAction,
    Setup,
    action_from_dict,
    check_lowest_card,
    lowest_cards,
)
from referee.tienlen.combinations import (
    RANK_ORDER,
    THREE_OF_SPADES,
    Combination,
    Kind,
    NotACombinationError,
    card_power,
    classify,
    is_bomb,
    kind_name,
    parse_combination,
    rank_power,
    sort_cards,
    table_combination,
)
from referee.tienlen.hand import Game, Hand, replay, replay_game
from referee.tienlen.rules import DEFAULT_RULES, TienLenRules
from referee.tienlen.verdicts import SWITCH_NAMES, Verdict, beats, check

__all__ = [
    "RANK_ORDER",
    "THREE_OF_SPADES",
    "rank_power",
    "card_power",
    "sort_cards",
    "Kind",
    "kind_name",
    "Combination",
    "parse_combination",
    "NotACombinationError",
    "table_combination",
    "classify",
    "TienLenRules",
    "DEFAULT_RULES",
    "Verdict",
    "check",
    "is_bomb",
    "lowest_cards",
    "beats",
    "ActionError",
    "IllegalPlayError",
    "NotYourTurnError",
    "CardAlreadyPlayedError",
    "HandOverError",
    "CardNotDealtError",
    "Chop",
    "InstantWinKind",
    "Setup",
    "PlayAction",
    "PassAction",
    "InstantWinAction",
    "NextHandAction",
    "Action",
    "action_from_dict",
    "RECORDS",
    "check_lowest_card",
    "Hand",
    "replay",
    "Game",
    "replay_game",
    "NotationError",
    "TooManyCopiesError",
    "SwitchError",
    "SWITCH_NAMES",
    "INSTANT_WIN_NAMES",
]
