"""Settle-up and the end of the evening on the Tiến lên score sheet (RULES.md, "Settling up an
evening" and "End of an evening"): the few lines the sheet's pages need, over the shared
:mod:`referee.web.settle_up`.

A sheet's balances are each player's total × the stake; once the evening is over (its end
switches), the totals at the game that ended it.
"""

from __future__ import annotations

from referee.tienlen_evening import Evening
from referee.web.games.tienlen.evening import GAME
from referee.web.settle_up import (
    EveningMoney,
    end_of,
    end_view,
    entered_times,
    money_of,
    settle_up_view,
    sheet_rows,
    sheet_urls,
    stake_form,
    stake_words,
)
from referee.web.store import Access

ENDPOINTS = "tienlen_scores"


def evening_context(access: Access, sheet: Evening) -> EveningMoney:
    """What the sheet's pages draw: ``evening_end`` (:class:`~referee.web.settle_up.EndView`),
    ``stake_form`` and ``settle_up`` (``None`` until a stake is set)."""
    game = access.game
    money_url, end_url = sheet_urls(ENDPOINTS, game.keeper_token)
    stake = money_of(game)
    ended = end_view(end_of(game), sheet.names, [g.totals for g in sheet.games], entered_times(game, GAME),
                     start=game.created_at, action=end_url, version=game.version)
    block = None
    if stake is not None and stake.amount:
        totals = ended.progress.totals if ended.progress.over else sheet.totals
        block = settle_up_view(sheet_rows(sheet.names, totals, stake), stake.currency,
                               stake_words=stake_words(stake), note=ended.past_end, final=ended.progress.over)
    return {"evening_end": ended, "stake_form": stake_form(money_url, game.version, stake), "settle_up": block}
