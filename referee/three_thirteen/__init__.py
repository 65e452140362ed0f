"""Three Thirteen (3-13 rummy): the rounds, the melds, the score of a hand.

A round deals one card more than the last, and the rank that matches the
number dealt is wild.  At the end of a round every hand is split into sets
and runs; the cards outside them count against their holder.  The referee
finds the split that leaves the fewest points itself.

Round 4 deals six cards and 6s are wild.  Three 9s are a set, and the 6 of
clubs stands in for the 6 of hearts in a run of hearts, so this hand is out:

>>> split = best_split(parse_cards("9s 9h 9c 4h 5h 6c"), Rank.SIX)
>>> print(split)
4♥ 5♥ 6♣(6♥) | 9♠ 9♣ 9♥ | leftover: none, 0 points
>>> split.is_out
True

Cards that fit nothing count: a king 10, a 4 and an ace 1 make 15, or 18
when picture cards count by rank.

>>> best_split(parse_cards("Kd 4s Ac"), Rank.THREE).points
15
>>> best_split(parse_cards("Kd 4s Ac"), Rank.THREE, ThreeThirteenRules(faces="rank")).points
18

One idea a module: :mod:`~referee.three_thirteen.rules` (the house rules, the decks),
:mod:`~referee.three_thirteen.schedule` (the rounds), :mod:`~referee.three_thirteen.melds`
(what cards count, melds and splits), :mod:`~referee.three_thirteen.splits` (the best split)
and :mod:`~referee.three_thirteen.rounds` (splitting, going out, scoring a round); every
public name is here too.
"""

from __future__ import annotations

from referee.cards import (
    Rank,  # noqa: F401  (the examples use it)
    parse_cards,  # noqa: F401  (the examples use it)
)
from referee.switches import rules_from_mapping
from referee.three_thirteen.melds import Face, Meld, RankOnly, Split, card_points, is_wild
from referee.three_thirteen.rounds import (
    OutClaim,
    RoundScore,
    can_go_out,
    check_out,
    go_out,
    score_round,
    split_hand,
)
from referee.three_thirteen.rules import (
    FALSE_OUT_PENALTY,
    JOKER_POINTS,
    MAX_HAND,
    ThreeThirteenRules,
    decks_for,
)
from referee.three_thirteen.schedule import RoundNumberError, Schedule
from referee.three_thirteen.splits import HandSizeError, ImpossibleHandError, best_split

__all__ = [
    "ThreeThirteenRules",
    "Schedule",
    "Meld",
    "RankOnly",
    "Face",
    "Split",
    "OutClaim",
    "RoundScore",
    "HandSizeError",
    "ImpossibleHandError",
    "RoundNumberError",
    "rules_from_mapping",
    "decks_for",
    "card_points",
    "is_wild",
    "best_split",
    "split_hand",
    "check_out",
    "can_go_out",
    "go_out",
    "score_round",
    "MAX_HAND",
    "JOKER_POINTS",
    "FALSE_OUT_PENALTY",
]
