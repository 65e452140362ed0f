"""Settling up an evening: balances, and the fewest transfers that square them.

A table that plays for money names a **stake** (an amount per point, or per game won) in a
currency, kept exactly as a whole number of the currency's smallest unit.  At the end of
the evening every player has a **balance** (positive: is owed; negative: owes), and the
balances add up to zero (``RULES.md``, "Settling up an evening").

:func:`settle` gives the exact fewest :class:`Transfer` s that bring every balance to zero:
split the players into as many groups whose balances add up to zero as possible; a group of
``k`` players then needs ``k - 1`` payments, so ``n`` players with a non-zero balance need
``n`` minus the number of groups.

>>> settle({"An": 1250, "Binh": -500, "Chi": -750})
(Transfer('Chi', 'An', 750), Transfer('Binh', 'An', 500))
>>> settle({"An": 30, "Binh": -30, "Chi": 20, "Dung": -20})
(Transfer('Binh', 'An', 30), Transfer('Dung', 'Chi', 20))
>>> settle({"An": 0, "Binh": 0})
()

Balances come from a sheet's totals and its stake:

>>> points_balances({"An": 40, "Binh": -9, "Chi": -27, "Dung": -4}, stake=1000)
{'An': 40000, 'Binh': -9000, 'Chi': -27000, 'Dung': -4000}
>>> three_thirteen_balances([("An", 40), ("Binh", 55), ("Chi", 61)], stake=10)
{'An': 360, 'Binh': -150, 'Chi': -210}
>>> trece_balances([("An", "Binh"), ("An", "Binh"), ("Binh", "An")], stake=500)
{'An': 500, 'Binh': -500}
>>> add_balances({"An": 5, "Binh": -5}, {"Binh": 3, "Chi": -3})
{'An': 5, 'Binh': -2, 'Chi': -3}

A mistake is refused with a sentence, carrying what was given:

>>> settle({"An": 10, "Binh": -5})
Traceback (most recent call last):
...
referee.settle.UnbalancedError: the balances add up to 5, not 0
>>> settle({"An": 2.5, "Binh": -2.5})
Traceback (most recent call last):
...
referee.settle.NotWholeError: An's balance 2.5 is not a whole number of the smallest unit
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.errors import RefereeError
from referee.switches import bad_choice
from referee.text import message

__all__ = [
    "MAX_PEOPLE",
    "SETTLE_CHOICES",
    "BadNameError",
    "NotWholeError",
    "SettleError",
    "TooManyPeopleError",
    "Transfer",
    "UnbalancedError",
    "add_balances",
    "check_balances",
    "fewest_transfers",
    "points_balances",
    "settle",
    "three_thirteen_balances",
    "trece_balances",
]

#: The most people one settle-up takes (the exact search doubles with every person).
MAX_PEOPLE = 16

#: The choices of the Three Thirteen switch ``settle``.
SETTLE_CHOICES = ("winner", "each")


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment: ``payer`` pays ``payee`` ``amount`` (a whole number of the smallest unit, > 0).

    >>> t = Transfer("Binh", "An", 500)
    >>> t
    Transfer('Binh', 'An', 500)
    >>> t.to_dict()
    {'from': 'Binh', 'to': 'An', 'amount': 500}
    >>> Transfer.from_dict(t.to_dict()) == t
    True
    """

    payer: str
    payee: str
    amount: int

    def __repr__(self) -> str:
        return f"Transfer({self.payer!r}, {self.payee!r}, {self.amount!r})"

    def to_dict(self) -> dict[str, object]:
        """The transfer as the JSON API says it."""
        return {"from": self.payer, "to": self.payee, "amount": self.amount}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Transfer:
        """The transfer back from :meth:`to_dict`."""
        amount = data["amount"]
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise TypeError(f"amount {amount!r} is not a whole number")
        return cls(str(data["from"]), str(data["to"]), amount)


class SettleError(RefereeError):
    """Balances that cannot be settled; ``balances`` is what was given."""

    balances: object


class UnbalancedError(SettleError):
    """The balances do not add up to zero; ``total`` is what they add up to.

    >>> UnbalancedError({"An": 1}, 1).total
    1
    """

    def __init__(self, balances: object, total: int) -> None:
        self.balances = balances
        self.total = total
        super().__init__(message("the balances add up to {total}, not 0", total=total))


class NotWholeError(SettleError):
    """A balance that is not a whole number of the smallest unit; ``name`` and ``value`` name it."""

    def __init__(self, balances: object, name: str, value: object) -> None:
        self.balances = balances
        self.name = name
        self.value = value
        super().__init__(message(
            "{name}'s balance {value} is not a whole number of the smallest unit", name=name, value=value
        ))


class BadNameError(SettleError):
    """A player's name that is not a name (not text, or blank); ``name`` is it.

    >>> str(BadNameError({" ": 0}, " "))
    "' ' is not a player's name"
    """

    def __init__(self, balances: object, name: object) -> None:
        self.balances = balances
        self.name = name
        super().__init__(message("{name} is not a player's name", name=repr(name)))


class TooManyPeopleError(SettleError):
    """More people than one settle-up takes (:data:`MAX_PEOPLE`); ``count`` is how many."""

    def __init__(self, balances: object, count: int) -> None:
        self.balances = balances
        self.count = count
        super().__init__(message(
            "{count} people are more than one settle-up takes (at most {most})", count=count, most=MAX_PEOPLE
        ))


def check_balances(balances: Mapping[Any, Any]) -> dict[str, int]:
    """The balances as names to whole numbers, or the first mistake raised.

    Names must be non-blank text, amounts whole numbers (``int``, not ``bool``), at
    most :data:`MAX_PEOPLE` people, adding up to zero.

    >>> check_balances({"An": 3, "Binh": -3})
    {'An': 3, 'Binh': -3}
    >>> check_balances({"An": True, "Binh": -1})
    Traceback (most recent call last):
    ...
    referee.settle.NotWholeError: An's balance True is not a whole number of the smallest unit
    >>> check_balances({"": 0})
    Traceback (most recent call last):
    ...
    referee.settle.BadNameError: '' is not a player's name
    """
    if not isinstance(balances, Mapping):
        raise TypeError(f"balances must be a mapping, not {type(balances).__name__}")
    checked: dict[str, int] = {}
    for name, value in balances.items():
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise BadNameError(balances, name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise NotWholeError(balances, name, value)
        checked[name] = value
    if len(checked) > MAX_PEOPLE:
        raise TooManyPeopleError(balances, len(checked))
    total = sum(checked.values())
    if total:
        raise UnbalancedError(balances, total)
    return checked


def fewest_transfers(balances: Mapping[str, int]) -> int:
    """How many transfers settle these balances at the fewest (``len(settle(balances))``).

    >>> fewest_transfers({"A": 5, "B": -2, "C": -3, "D": 4, "E": -4})
    3
    """
    return len(settle(balances))


def settle(balances: Mapping[str, int]) -> tuple[Transfer, ...]:
    """The fewest transfers that bring every balance to zero, in a fixed order.

    Exact: ``n`` people with a non-zero balance pay ``n - g`` transfers, ``g`` the most
    groups with zero-sum balances they split into (found by a search over the subsets;
    a pair owing and owed the same amount is always one of the groups).  The order
    depends only on the balances, never on the order they were given in: groups as found
    over the names in sorted order, and in each group the one owing most pays the one
    owed most.

    >>> settle({"E": -4, "D": 4, "C": -3, "B": -2, "A": 5})
    (Transfer('E', 'D', 4), Transfer('C', 'A', 3), Transfer('B', 'A', 2))
    """
    checked = check_balances(balances)
    left = sorted((name, amount) for name, amount in checked.items() if amount)
    groups: list[list[tuple[str, int]]] = []
    # A pair owing and owed the same amount is a group of some best split: take them first.
    by_amount: dict[int, list[int]] = {}
    paired: set[int] = set()
    for index, (_, amount) in enumerate(left):
        partners = by_amount.get(-amount)
        if partners:
            other = partners.pop(0)
            paired.update((index, other))
            groups.append(sorted((left[other], left[index])))
        else:
            by_amount.setdefault(amount, []).append(index)
    rest = [entry for index, entry in enumerate(left) if index not in paired]
    groups.extend(_zero_sum_groups(rest))
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_settle_group(group))
    return tuple(transfers)


def _zero_sum_groups(people: Sequence[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """The most groups with zero-sum balances ``people`` (adding up to zero, no two of them
    opposite, none zero: every group has three people or more) split into.

    Every subset's sum is found once; ``most(mask)`` (for a zero-sum ``mask``) tries each
    zero-sum subset holding the lowest person of ``mask`` as one group and the rest split
    at best, remembering the answer per mask; the smallest groups first, stopping once a
    split reaches a third of the people.
    """
    count = len(people)
    if not count:
        return []
    full = (1 << count) - 1
    values = [amount for _, amount in people]
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    holding: list[list[int]] = [[] for _ in range(count)]
    for mask in range(1, full + 1):
        if not sums[mask]:
            holding[(mask & -mask).bit_length() - 1].append(mask)
    for groups_of in holding:
        groups_of.sort(key=int.bit_count)
    found: dict[int, tuple[int, int]] = {0: (0, 0)}

    def most(mask: int) -> int:
        known = found.get(mask)
        if known is not None:
            return known[0]
        top, pick = -1, mask
        for group in holding[(mask & -mask).bit_length() - 1]:
            if group & mask == group:
                got = most(mask ^ group)
                if got > top:
                    top, pick = got, group
                    if top + 1 >= mask.bit_count() // 3:
                        break  # no pair is left, so no group is smaller than three: none better
        found[mask] = (top + 1, pick)
        return top + 1

    most(full)
    groups: list[list[tuple[str, int]]] = []
    mask = full
    while mask:
        group = found[mask][1]
        groups.append([people[i] for i in range(count) if group >> i & 1])
        mask ^= group
    return groups


def _settle_group(group: Sequence[tuple[str, int]]) -> list[Transfer]:
    """``k - 1`` transfers (at most) squaring a zero-sum group: the one owing most pays the one owed most."""
    owed = {name: amount for name, amount in group}
    transfers: list[Transfer] = []
    while True:
        creditors = [(amount, name) for name, amount in owed.items() if amount > 0]
        debtors = [(-amount, name) for name, amount in owed.items() if amount < 0]
        if not creditors:
            return transfers
        credit, payee = max(creditors, key=lambda item: (item[0], _reverse(item[1])))
        debt, payer = max(debtors, key=lambda item: (item[0], _reverse(item[1])))
        amount = min(credit, debt)
        transfers.append(Transfer(payer, payee, amount))
        owed[payee] -= amount
        owed[payer] += amount


def _reverse(name: str) -> tuple[int, ...]:
    """A key that sorts names backwards, so ``max`` picks the first name on a tie."""
    return tuple(-ord(ch) for ch in name) + (1,)


def points_balances(points: Mapping[str, int], stake: int) -> dict[str, int]:
    """Each player's points × the stake (a Tiến lên sheet: already zero-sum).

    >>> points_balances({"An": 3, "Binh": -3}, stake=250)
    {'An': 750, 'Binh': -750}
    """
    _check_stake(stake)
    return {name: total * stake for name, total in points.items()}


def three_thirteen_balances(
    totals: Sequence[tuple[str, int]], stake: int, settle: str = "winner"
) -> dict[str, int]:
    """The balances of a Three Thirteen sheet (lowest total wins), in seat order.

    ``settle="winner"``: every other player pays the winner (their total − the winner's)
    × stake; tied winners share it equally, a remainder going to the tied winner seated
    first.  ``settle="each"``: every pair squares the difference of their totals × stake.

    >>> three_thirteen_balances([("An", 10), ("Binh", 10), ("Chi", 13)], stake=1)
    {'An': 2, 'Binh': 1, 'Chi': -3}
    >>> three_thirteen_balances([("An", 10), ("Binh", 12), ("Chi", 13)], stake=1, settle="each")
    {'An': 5, 'Binh': -1, 'Chi': -4}
    >>> three_thirteen_balances([("An", 1)], stake=1, settle="split")
    Traceback (most recent call last):
    ...
    referee.switches.SwitchError: house rule 'settle' must be one of winner, each, not 'split'
    """
    if settle not in SETTLE_CHOICES:
        raise bad_choice("settle", SETTLE_CHOICES, settle)
    _check_stake(stake)
    balances = {name: 0 for name, _ in totals}
    if not totals:
        return balances
    if settle == "each":
        for name, total in totals:
            for _other, other_total in totals:
                balances[name] += (other_total - total) * stake
        return balances
    low = min(total for _, total in totals)
    winners = [name for name, total in totals if total == low]
    paid = 0
    for name, total in totals:
        if total != low:
            balances[name] -= (total - low) * stake
            paid += (total - low) * stake
    share, remainder = divmod(paid, len(winners))
    for name in winners:
        balances[name] += share
    balances[winners[0]] += remainder
    return balances


def trece_balances(games: Iterable[tuple[str, str]], stake: int) -> dict[str, int]:
    """The balances of Trece games: the loser of each finished game (winner, loser) pays the winner the stake.

    >>> trece_balances([("Ana", "Luis")], stake=100)
    {'Ana': 100, 'Luis': -100}
    """
    _check_stake(stake)
    balances: dict[str, int] = {}
    for winner, loser in games:
        balances[winner] = balances.get(winner, 0) + stake
        balances[loser] = balances.get(loser, 0) - stake
    return balances


def add_balances(*sheets: Mapping[str, int]) -> dict[str, int]:
    """Each person's balances summed over several sheets (names in first-seen order)."""
    total: dict[str, int] = {}
    for sheet in sheets:
        for name, amount in sheet.items():
            total[name] = total.get(name, 0) + amount
    return total


def _check_stake(stake: int) -> None:
    if not isinstance(stake, int) or isinstance(stake, bool) or stake < 0:
        raise ValueError(f"a stake is a whole number of the smallest unit, 0 or more, not {stake!r}")
