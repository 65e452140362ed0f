"""Settle-up and the end of the evening on the Tiến lên score sheet (RULES.md, "Settling up an
evening" and "End of an evening"): the few lines the sheet's pages need, over the shared
:mod:`referee.web.settle_up`.

A sheet's balances are :func:`referee.evening_money.balances` of its :func:`sitting` (each
counted game's points × the stake; once the evening is over, up to the game that ended it), the
same figures its group's evening sums.
"""

from __future__ import annotations

from typing import Any

from referee import stats
from referee.evening_money import Sitting
from referee.tienlen_evening import Evening
from referee.web.games.tienlen.evening import GAME, rebuild
from referee.web.settle_up import (
    EveningMoney,
    end_of,
    end_view,
    entered_times,
    money_block,
    sheet_urls,
    sitting_of,
)
from referee.web.store import Access

ENDPOINTS = "tienlen_scores"


def sitting(game: Any, sheet: Evening | None = None) -> Sitting:
    """The stored sheet as far as money goes: its games, stake and end (for its page and its group)."""
    evening = sheet if sheet is not None else rebuild(game)
    return sitting_of(game, stats.tienlen_sheet_results(evening), entered_times(game, GAME))


def evening_context(access: Access, sheet: Evening) -> EveningMoney:
    """What the sheet's pages draw: ``evening_end`` (:class:`~referee.web.settle_up.EndView`),
    ``stake_form`` and ``settle_up`` (``None`` until a stake is set)."""
    game = access.game
    _, end_url = sheet_urls(ENDPOINTS, game.keeper_token)
    ended = end_view(end_of(game), sheet.names, [g.totals for g in sheet.games], entered_times(game, GAME),
                     start=game.created_at, action=end_url, version=game.version)
    money = money_block(game, sitting(game, sheet), ENDPOINTS, note=ended.past_end, final=ended.progress.over,
                        square=sheet.names)
    return {"evening_end": ended, **money}
