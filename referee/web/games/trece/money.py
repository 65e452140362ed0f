"""Settle-up and the end of the evening on a followed Trece table (RULES.md, "Settling up an
evening" and "End of an evening"): a stake per game won, and once a game is over its loser pays
its winner the stake.  A table takes the end switches ``games`` (its finished games) and
``target`` (games won), not ``until`` (:data:`NO_UNTIL`).  The figures are
:func:`referee.evening_money.balances` of the table's :func:`sitting`, the same its group's
evening sums; the few lines the table's page needs, over the shared :mod:`referee.web.settle_up`.
"""

from __future__ import annotations

from typing import Any

from referee import stats
from referee.evening_money import Sitting
from referee.trece import State
from referee.web.games.trece import pages
from referee.web.games.trece.pages import ENDS as ENDS  # read by the views
from referee.web.games.trece.pages import NO_UNTIL as NO_UNTIL
from referee.web.settle_up import (
    EveningMoney,
    last_entered,
    money_block,
    sheet_urls,
    sitting_of,
)
from referee.web.store import Access, history

ENDPOINTS = "trece"


def sitting(game: Any, state: State) -> Sitting:
    """The stored table as far as money goes: its games, stake and end (for its page and its group)."""
    return sitting_of(game, stats.trece_results(state), last_entered(game))


def money_context(access: Access, state: State) -> EveningMoney:
    """``evening_end``, ``stake_form`` and ``settle_up`` (``None`` until a stake is set and a game is over)."""
    game = access.game
    _, end_url = sheet_urls(ENDPOINTS, game.keeper_token)
    table = sitting(game, state)
    ended = pages.evening_end(state, game.setup, history(game), start=game.created_at, action=end_url,
                              version=game.version)
    money = money_block(game, table, ENDPOINTS, per="game", note=ended.past_end, final=state.winner is not None)
    return {"evening_end": ended, **money}
