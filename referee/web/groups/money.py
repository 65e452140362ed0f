"""Settling up a group's evening (RULES.md, "An evening of several sheets"): each person's
balances summed over the evening's sheets, each sheet with its own stake, then the fewest
transfers.

The stakes, the transfers and the settle-up block are the settle-up module's
(``referee.web.settle_up``: ``money_of(game)``, ``settle_up_view(...)``, the partial
``partials/settle_up.html``; ``referee.settle``: the Three Thirteen balances).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask_babel import gettext

from referee import settle, stats
from referee.web import settle_up
from referee.web.groups.evenings import Evening


def evening_balances(evening: Evening, person: Callable[[str], str], money_of: Callable[[Any], Any],
                     three_thirteen: Callable[..., dict[str, int]]) -> dict[str, dict[str, int]]:
    """Each currency's balances of the evening: per sheet with a stake, its totals × the stake
    (a Three Thirteen sheet: ``three_thirteen(totals, stake, settle)``, lowest wins), summed per
    person over the sheets."""
    by_currency: dict[str, dict[str, int]] = {}
    for sitting in evening.sittings:
        stake = money_of(sitting.game)
        if stake is None or not stake.amount or not any(r.scored for r in sitting.results):
            continue
        sheet: dict[str, int] = {}
        for result in sitting.results:
            if not result.scored:
                continue
            if result.game == stats.THREE_THIRTEEN:
                if not result.rounds or not result.rounds[0]:  # no round entered yet
                    continue
                totals = list(zip(result.names, result.points, strict=True))
                part = three_thirteen(totals, stake.amount, getattr(stake, "settle", "winner"))
            else:
                part = {name: points * stake.amount for name, points in zip(result.names, result.points, strict=True)}
            for name, amount in part.items():
                sheet[name] = sheet.get(name, 0) + amount
        total = by_currency.setdefault(stake.currency, {})
        for name, amount in sheet.items():
            who = person(name)
            total[who] = total.get(who, 0) + amount
    return by_currency


def evening_settle_up(evening: Evening, person: Callable[[str], str],
                      modules: tuple[Any, Any] | None = None) -> Sequence[Any]:
    """The settle-up blocks of a group's evening, one per currency staked (none without a
    stake); ``modules`` stands in for the settle-up modules (web, library)."""
    web, library = modules if modules is not None else (settle_up, settle)
    balances = evening_balances(evening, person, web.money_of, library.three_thirteen_balances)
    return tuple(web.settle_up_view(rows, currency, title=gettext("Settle up the evening"))
                 for currency, rows in balances.items() if rows)
