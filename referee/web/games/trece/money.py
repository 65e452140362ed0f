"""Settle-up and the end of the evening on a followed Trece table (RULES.md, "Settling up an
evening" and "End of an evening"): a stake per game won, and once a game is over its loser pays
its winner the stake.  A table takes the end switches ``games`` (its finished games) and
``target`` (games won), not ``until`` (:data:`NO_UNTIL`).  The figures are
:func:`referee.evening_money.balances` of the table's :func:`sitting`, the same its group's
evening sums; the few lines the table's page needs, over the shared :mod:`referee.web.settle_up`.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from referee import evening_money, stats
from referee.evening_money import Sitting
from referee.text import message
from referee.trece import State
from referee.web.settle_up import (
    EveningMoney,
    end_of,
    end_view,
    last_entered,
    money_block,
    sheet_urls,
    sitting_of,
)
from referee.web.store import Access

ENDPOINTS = "trece"
ENDS = ("target", "games")
"""The end switches a Trece table takes."""
NO_UNTIL = message("A Trece table ends by its games or by the games a player won, not by the clock.")
"""The refusal of an ``until`` end (RULES.md: a Trece table takes ``games`` and ``target``)."""


def sitting(game: Any, state: State) -> Sitting:
    """The stored table as far as money goes: its games, stake and end (for its page and its group)."""
    return sitting_of(game, stats.trece_results(state), last_entered(game))


def money_context(access: Access, state: State) -> EveningMoney:
    """``evening_end``, ``stake_form`` and ``settle_up`` (``None`` until a stake is set and a game is over)."""
    game = access.game
    _, end_url = sheet_urls(ENDPOINTS, game.keeper_token)
    table = sitting(game, state)
    got = evening_money.end_progress(end_of(game), state.players, table.results, start=game.created_at)
    ended = end_view(end_of(game), state.players, [], [], start=game.created_at, action=end_url,
                     version=game.version, switches=ENDS, got=got,
                     target_label=gettext("Target: ends when a player has won this many games"))
    money = money_block(game, table, ENDPOINTS, per="game", note=ended.past_end, final=state.winner is not None)
    return {"evening_end": ended, **money}
