"""Settle-up on the Three Thirteen score sheet (RULES.md, "Settling up an evening"): the lowest
total wins; with ``settle=winner`` every other player pays the winner the difference × stake,
with ``each`` every pair squares it.  The few lines the sheet's page needs, over the shared
:mod:`referee.web.settle_up`.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.settle import three_thirteen_balances
from referee.web.settle_up import Money, money_of, settle_up_view, sheet_urls, stake_form, stake_words
from referee.web.store import Access

ENDPOINTS = "three_thirteen"


def money_context(access: Access, names: Sequence[str], totals: Sequence[int], finished: bool,
                  rounds: int) -> Money:
    """``stake_form`` and ``settle_up`` (``None`` until a stake is set and a round is saved)."""
    game = access.game
    money_url, _ = sheet_urls(ENDPOINTS, game.keeper_token)
    stake = money_of(game)
    block = None
    if stake is not None and stake.amount and rounds:
        balances = three_thirteen_balances(list(zip(names, totals, strict=True)), stake.amount, stake.settle)
        block = settle_up_view(balances, stake.currency, stake_words=stake_words(stake), final=finished)
    return {"stake_form": stake_form(money_url, game.version, stake, with_settle=True), "settle_up": block}
