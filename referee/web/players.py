"""The players a new-game form names, read the same way for every game.

Every game's new-game form sends its players' names (``name0``, ``name1``, … or a ``names``
list) and may mark one of the rows (who deals first, who leads): :func:`read_players` reads
them once, checks the names (:func:`referee.web.store.clean_names`: a count in range, none
too long, no two alike) and finds the marked player among the named ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import RefereeError
from referee.web.numbers import whole_number
from referee.web.store import clean_names
from referee.web.words import say


@dataclass(frozen=True, slots=True)
class Players:
    """A new-game form's players: what it sent and what the referee made of it."""

    rows: tuple[str, ...]
    """The name fields as sent, one per row (put back in the form when it is refused)."""
    names: tuple[str, ...]
    """The players, in seat order: the named rows, cleaned (empty when ``error``)."""
    marked: int | None
    """The seat of the player the marked row names (``None``: no mark, or a row without a name)."""
    marked_row: int | None
    """The row the form marked, as sent (``None``: none, or not a row number)."""
    error: str | None
    """Why the names cannot start a game, in the reader's language."""


def read_players(form: Mapping[str, Any], *, least: int, most: int, mark: str | None = None,
                 default_mark: int | None = None) -> Players:
    """The players ``form`` names (``name0`` … ``name{most-1}``, or every ``names`` row it sent),
    and the seat of the row its ``mark`` field marks (``default_mark`` when the field is absent
    or not a row number below ``most``)."""
    getlist = getattr(form, "getlist", None)
    if "names" in form and getlist is not None:
        rows = tuple(str(n) for n in getlist("names"))  # every row sent counts: too many is refused
    else:
        rows = tuple(str(form.get(f"name{i}", "")) for i in range(most))
    named = [i for i, row in enumerate(rows) if row.split()]
    names: tuple[str, ...] = ()
    error = None
    try:
        names = tuple(clean_names(rows, least=least, most=most))
    except RefereeError as exc:
        error = say(exc)
    marked_row = whole_number(str(form.get(mark, "")), high=most - 1) if mark else None
    if marked_row is None:
        marked_row = default_mark
    marked = named.index(marked_row) if marked_row in named else None
    return Players(rows=rows, names=names, marked=marked, marked_row=marked_row, error=error)
