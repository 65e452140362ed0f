"""Settling up a group's evening (RULES.md, "A group's evenings and stats"): each person's
balance is the sum of what each of the evening's sheets and tables says on its own page
(:func:`referee.evening_money.balances` of the same :class:`referee.evening_money.Sitting`, games
past an end counted nowhere), one settle-up per currency, then the fewest transfers.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext

from referee.group import Group
from referee.web import settle_up
from referee.web.groups.evenings import Evening, evening_money


def evening_settle_up(evening: Evening, group: Group) -> Sequence[settle_up.SettleUpView]:
    """The settle-up blocks of a group's evening, one per currency staked (none without a stake)."""
    return tuple(settle_up.settle_up_view(rows, currency, title=gettext("Settle up the evening"))
                 for currency, rows in evening_money(evening, group).items() if rows)
