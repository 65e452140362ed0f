"""Numbers from forms and URLs, without Flask (the phone's engine reads them the same way)."""

from __future__ import annotations

import re

#: The largest number a form or URL may hold (a 32-bit signed integer).
MAX_NUMBER = 2**31 - 1

#: The most players a game may have (the sheets and tables; the score page's form too).
MAX_PLAYERS = 8

#: The longest player name (a stored player's column too).
NAME_MAX = 40

_ASCII_NUMBER = re.compile(r"[0-9]{1,10}")


def whole_number(raw: object, *, low: int = 0, high: int = MAX_NUMBER) -> int | None:
    """``raw`` read as a whole number from ``low`` to ``high``, or ``None`` if it is not one.

    Only ASCII digits count, at most ten of them, and nothing else (not even a space).

    >>> whole_number("42"), whole_number("7 "), whole_number("²"), whole_number("٣")
    (42, None, None, None)
    >>> whole_number("9" * 5000), whole_number("2147483648"), whole_number("-1"), whole_number(None)
    (None, None, None, None)
    >>> whole_number("9", high=8), whole_number("0", low=1)
    (None, None)
    """
    if not isinstance(raw, str):
        return None
    if not _ASCII_NUMBER.fullmatch(raw):
        return None
    value = int(raw)
    return value if low <= value <= high else None
