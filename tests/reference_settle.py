"""A deliberately simple search for the fewest transfers: the correctness reference for settle-up.

It knows nothing of zero-sum groups.  It tries every sequence of payments in which each
payment squares the first person still owing or owed against someone of the other sign
(the classic exhaustive search: some best way to settle is always of that shape), and
keeps the shortest.  Exponential: fine up to about eight people.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def reference_fewest(balances: Mapping[str, int]) -> int:
    """The fewest payments that bring every balance to zero, by trying every way."""
    return _fewest([amount for amount in balances.values() if amount])


def _fewest(amounts: Sequence[int]) -> int:
    left = [a for a in amounts if a]
    if not left:
        return 0
    first, rest = left[0], left[1:]
    best = len(left)  # more than any way found needs
    for index, other in enumerate(rest):
        if (other > 0) != (first > 0):
            after = list(rest)
            after[index] = other + first  # the first person squared with this one
            best = min(best, 1 + _fewest(after))
    return best


def squares(balances: Mapping[str, int], transfers: Sequence[tuple[str, str, int]]) -> bool:
    """True when the payments bring every balance to zero, each from one owing to one owed."""
    left = dict(balances)
    for payer, payee, amount in transfers:
        if amount <= 0 or balances.get(payer, 0) >= 0 or balances.get(payee, 0) <= 0:
            return False
        left[payer] += amount
        left[payee] -= amount
    return not any(left.values())
