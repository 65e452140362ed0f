"""Settle-up on a followed Trece table (RULES.md, "Settling up an evening"): a stake per game won,
and once the game is over the loser pays the winner the stake.  The few lines the table's page
needs, over the shared :mod:`referee.web.settle_up`.
"""

from __future__ import annotations

from referee.settle import trece_balances
from referee.trece import State
from referee.web.settle_up import Money, money_of, settle_up_view, sheet_urls, stake_form, stake_words
from referee.web.store import Access

ENDPOINTS = "trece"


def money_context(access: Access, state: State) -> Money:
    """``stake_form`` and ``settle_up`` (``None`` until a stake is set and the game is over)."""
    game = access.game
    money_url, _ = sheet_urls(ENDPOINTS, game.keeper_token)
    stake = money_of(game)
    block = None
    if stake is not None and stake.amount and state.winner is not None:
        winner, loser = state.players[state.winner], state.players[1 - state.winner]
        block = settle_up_view(trece_balances([(winner, loser)], stake.amount), stake.currency,
                               stake_words=stake_words(stake, per="game"), final=True)
    return {"stake_form": stake_form(money_url, game.version, stake, per="game"), "settle_up": block}
