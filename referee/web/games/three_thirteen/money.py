"""Settle-up on the Three Thirteen score sheet (RULES.md, "Settling up an evening"): the lowest
total wins; with ``settle=winner`` every other player pays the winner the difference × stake,
with ``each`` every pair squares it.  The few lines the sheet's page needs, over the shared
:mod:`referee.web.settle_up`; the figures are :func:`referee.evening_money.balances` of the
sheet's :func:`sitting`, the same its group's evening sums.  A sheet ends after its rounds: it
takes no end switch (:data:`NO_END`).
"""

from __future__ import annotations

from typing import Any

from referee import stats
from referee.evening_money import Sitting
from referee.text import message
from referee.three_thirteen_sheet import Sheet as SheetState
from referee.web.games.three_thirteen.sheet import Sheet, rebuild
from referee.web.settle_up import Money, last_entered, money_block, sitting_of
from referee.web.store import Access, history

ENDPOINTS = "three_thirteen"

NO_END = message("A Three Thirteen sheet ends after its last round: it takes no end of the evening.")
"""The refusal of ``POST …/end`` (RULES.md: a Three Thirteen sheet takes no end switch)."""


def sitting(game: Any, state: SheetState | None = None) -> Sitting:
    """The stored sheet as far as money goes: its rounds so far and its stake (no end switch)."""
    results = stats.three_thirteen_results(state if state is not None else rebuild(game, history(game)))
    return sitting_of(game, results, last_entered(game), ends=False)


def money_context(access: Access, sheet: Sheet) -> Money:
    """``stake_form`` and ``settle_up`` (``None`` until a stake is set and a round is saved)."""
    return money_block(access.game, sitting(access.game, sheet.state), ENDPOINTS, with_settle=True,
                       final=sheet.state.finished)
