"""The Three Thirteen score sheet as a state machine: judging a round, the records, the totals.

A round is entered once for the whole table: for every seat either the cards left
in the hand (the referee splits them) or the points (typed when the cards were
not kept), and who went out.  :meth:`Sheet.judge_round` judges such an entry and
keeps every problem beside its seat; :meth:`Sheet.enter_round` saves a clean one
as a frozen :class:`RoundEntered` record (:class:`RoundCorrected` when the round
was saved before).  The rules of an entry:

- at least one player went out, and a player who went out enters the hand: it
  must go out (every card in a set or run), or with ``false_out`` the false claim
  adds 20 to what the hand counts;
- each other seat enters its cards or its points (a whole number, 0 to 999), not
  both; a hand holds the round's number of cards, and only cards the decks hold;
- across the whole table no card is entered more often than the decks hold it;
- in a doubled round (``doubles``: jacks, queens and kings wild) every hand counts
  twice; the false-out penalty does not.

The sheet keeps the contract of :mod:`referee.errors` (``check_x`` / ``can_x`` /
``x``, ``apply``, ``replay``, ``undo`` returning a new sheet).  A record keeps the
points the referee gave, and replaying trusts them: the totals of a saved game
never change with a later change of the solver.

>>> sheet = Sheet(SheetSetup(("Ana", "Bao"), first_dealer=1))
>>> sheet.dealer(1), sheet.starter(1), sheet.next_round
(1, 0, 1)
>>> verdict = sheet.judge_round(1, cards=["9s 9h 9c", ""], points=["", "12"], out=[0])
>>> verdict.ok, verdict.scores
(True, (0, 12))
>>> str(sheet.judge_round(1, cards=["9s 9h 8c", ""], points=["", "12"], out=[0]).errors[0])
'8♣ 9♠ 9♥ fit no set or run, so this hand cannot go out'
>>> sheet.enter_round(1, cards=["9s 9h 9c", ""], points=["", "12"], out=[0])
RoundEntered(round_number=1, out=(0,), hands=(HandEntry(cards='9♠ 9♥ 9♣', points=None), \
HandEntry(cards=None, points=12)), points=(0, 12), doubled=False, false_out=())
>>> sheet.totals, sheet.next_round, sheet.undo().totals
((0, 12), 2, (0, 0))

One idea a module: :mod:`~referee.three_thirteen_sheet.records` (the setup and the
records), :mod:`~referee.three_thirteen_sheet.judging` (a round's entry judged) and
:mod:`~referee.three_thirteen_sheet.sheet` (the sheet's state machine); every public name
is here too.
"""

from __future__ import annotations

from referee.three_thirteen_sheet.judging import (
    HandPreview,
    RoundRefused,
    RoundVerdict,
    SeatVerdict,
    judge_round,
    preview_hand,
)
from referee.three_thirteen_sheet.records import (
    MAX_TYPED,
    RECORDS,
    HandEntry,
    RoundCorrected,
    RoundEntered,
    SheetSetup,
    jokers_for,
    record_from_dict,
)
from referee.three_thirteen_sheet.sheet import ScoredRound, Sheet, replay

__all__ = [
    "MAX_TYPED",
    "SheetSetup",
    "HandEntry",
    "RoundEntered",
    "RoundCorrected",
    "RECORDS",
    "record_from_dict",
    "SeatVerdict",
    "RoundVerdict",
    "judge_round",
    "preview_hand",
    "RoundRefused",
    "HandPreview",
    "ScoredRound",
    "Sheet",
    "replay",
    "jokers_for",
]
